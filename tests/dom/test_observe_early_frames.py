"""Cross-origin frames marked beside the top document's pass (agent/dom/speculate.py) give exactly what marking
them after it gives: the same elements, ids, order, offsets, frames and counts, cold and warm."""

from __future__ import annotations

import json

import pytest

from agent.dom import speculate
from agent.dom.observe import observe_page
from tests.dom.conftest import loaded_frames

FIELDS = ("elements", "frames", "counts", "text", "kept_ids", "page_text")


async def _observed(page, url: str, fragment: str, count: int) -> tuple[str, str]:
    await page.goto(url, wait_until="load")
    await loaded_frames(page, fragment, count)
    cold = await observe_page(page)
    warm = await observe_page(page, previous=cold)
    return (
        json.dumps({k: cold[k] for k in FIELDS}, sort_keys=True),
        json.dumps({k: warm[k] for k in FIELDS}, sort_keys=True),
    )


@pytest.mark.parametrize(("name", "count"), [("crossorigin.html", 1), ("crossorigin_many.html", 3)])
async def test_early_frame_passes_change_nothing(page, observe_url, monkeypatch, name, count) -> None:
    taken: list[bool] = []
    take = speculate.EarlyFrames.take

    async def counting(self, frame, args):
        result = await take(self, frame, args)
        taken.append(result is not None)
        return result

    monkeypatch.setattr(speculate.EarlyFrames, "take", counting)
    early = await _observed(page, observe_url(name), "xo_child", count)
    assert any(taken)  # the cold observation used a frame's early pass
    monkeypatch.setattr(speculate, "MAX_EARLY", 0)
    other = await page.context.new_page()  # a new page: ids numbered from the start again
    try:
        usual = await _observed(other, observe_url(name), "xo_child", count)
    finally:
        await other.close()
    assert early == usual


async def test_a_wrong_guess_is_marked_the_usual_way(page, observe_url, monkeypatch) -> None:
    """A guessed place that the top pass does not confirm is never used: the frame is marked after it."""
    await page.goto(observe_url("crossorigin.html"), wait_until="load")
    await loaded_frames(page, "xo_child")
    real = speculate._PLACES_JS
    monkeypatch.setattr(
        speculate, "_PLACES_JS", real.replace("offset: [r1(ox), r1(oy)]", "offset: [r1(ox) + 1, r1(oy)]")
    )
    obs = await observe_page(page)
    button = next(e for e in obs["elements"] if e["name"] == "Cross origin button")
    assert button["bbox"][0] == 28 and button["frame"] == "0"  # body margin 8 + iframe margin 20, not 29
    again = await observe_page(page, previous=obs)
    assert [e["id"] for e in again["elements"]] == [e["id"] for e in obs["elements"]]


async def _three(page, url: str, fragment: str, count: int, between: str) -> str:
    """Cold, warm, then (after ``between`` runs in the top document) warm again: the parts compared."""
    await page.goto(url, wait_until="load")
    await loaded_frames(page, fragment, count)
    cold = await observe_page(page)
    warm = await observe_page(page, previous=cold)
    await page.evaluate(between)
    again = await observe_page(page, previous=warm)
    return json.dumps([{k: obs[k] for k in FIELDS} for obs in (cold, warm, again)], sort_keys=True)


@pytest.mark.parametrize(
    ("name", "count", "between"),
    [
        ("crossorigin.html", 1, "0"),  # nothing moves: the frame's early pass answers for it
        ("crossorigin.html", 1, "document.getElementById('xo').style.marginLeft = '60px'"),  # the frame moved
        ("crossorigin_many.html", 3, "document.body.style.paddingTop = '30px'"),
    ],
)
async def test_frames_marked_before_start_at_once_and_change_nothing(
    page, observe_url, monkeypatch, name, count, between
) -> None:
    """A frame marked before runs its next pass beside the top document's, with the arguments it last ran with:
    used when they are still its arguments, awaited and followed by the usual pass when they are not."""
    used: list[bool] = []
    mark = speculate.EarlyFrames._mark

    async def counting(self, frame, args, *rest):
        again = self.again.get(id(frame))
        used.append(again is not None and again[1] == args)
        return await mark(self, frame, args, *rest)

    monkeypatch.setattr(speculate.EarlyFrames, "_mark", counting)
    early = await _three(page, observe_url(name), "xo_child", count, between)
    assert used[:count] == [False] * count  # cold: nothing marked before
    assert all(used[count : 2 * count])  # warm, nothing changed: every frame's early pass is the one
    if between != "0":
        assert not any(used[2 * count :])  # moved: every guess was wrong, and the usual pass ran
    monkeypatch.setattr(speculate, "MAX_EARLY", 0)
    other = await page.context.new_page()
    try:
        usual = await _three(other, observe_url(name), "xo_child", count, between)
    finally:
        await other.close()
    assert early == usual
