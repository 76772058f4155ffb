"""No silent cap: an observation's counts are true on generated pages whose numbers are known in advance.

Every number the text states (elements in the document, hidden, candidates, marked, shown, not shown, where
marking stopped and why) is checked against the page itself; ids have no gaps.
"""

from __future__ import annotations

import time

from agent.dom.observe import observe_page
from agent.dom.options import ObserveOptions
from benchmarks.tokens import count_tokens as o200k_tokens
from tests.dom.test_observe_answers import TOKEN_BOUND

HIDDEN_LINKS = 40  # inside one display:none box: 41 hidden elements
ITEMS = 250


def counted_page(items: int) -> str:
    """3 header links, an h1, ``items`` list links, plus 41 + 2 hidden elements (never candidates)."""
    links = "".join(f"<li><a href='#i{i}'>Item {i}</a></li>" for i in range(items))
    hidden = "".join(f"<a href='#h{i}'>Hidden {i}</a>" for i in range(HIDDEN_LINKS))
    return (
        "<!doctype html><html><head><title>Counted</title></head><body>"
        "<header><a href='#a'>Home</a> <a href='#b'>Deals</a> <a href='#c'>Help</a></header>"
        f"<main><h1>Counted items</h1><div style='display:none'>{hidden}</div>"
        f"<div aria-hidden='true'><button>Invisible</button></div><ul>{links}</ul></main></body></html>"
    )


async def serve(page, html: str) -> None:
    async def fulfill(route):
        await route.fulfill(status=200, content_type="text/html", body=html)

    await page.route("http://counts.test/**", fulfill)
    await page.goto("http://counts.test/page", wait_until="load")


async def document_elements(page) -> int:
    return await page.evaluate("document.getElementsByTagName('*').length")


async def test_counts_with_an_element_cap_are_exact(page):
    await serve(page, counted_page(ITEMS))
    options = ObserveOptions(max_marked=100, max_elements=60, max_chars=8000)
    obs = await observe_page(page, options=options)
    counts = obs["counts"]
    candidates = 3 + 1 + ITEMS
    assert counts["document"] == await document_elements(page)
    assert counts["hidden"] == (HIDDEN_LINKS + 1) + 2
    assert counts["candidates"] == candidates
    assert counts["marked"] == 100 and len(obs["elements"]) == 100
    assert counts["over_cap"] == candidates - 100
    assert sorted(e["id"] for e in obs["elements"]) == list(range(1, 101))  # no skipped id
    # the 101st candidate (header 3, h1, then items 0..95 marked) is where marking stopped
    first_unmarked = await page.evaluate(
        "Math.round(document.querySelector(\"a[href='#i96']\").getBoundingClientRect().top + scrollY)"
    )
    assert counts["cap_y"] == first_unmarked
    assert len(obs["kept_ids"]) == 60 and obs["omitted"] == 40
    assert "... 40 more elements not shown" in obs["text"]
    line = next(line for line in obs["text"].splitlines() if line.startswith("Counts: "))
    assert line == (
        f"Counts: {counts['document']:,} elements in the document, 43 hidden (never marked), "
        f"{candidates} candidates, 100 marked, 60 shown; marking stopped at y={first_unmarked:,} px "
        f"(element cap 100): {candidates - 100} candidates from there down not marked"
    )
    # the hidden links never reach the model
    assert "Hidden 1" not in obs["text"] and "Invisible" not in obs["text"]


async def test_nothing_capped_says_only_what_is_hidden(page):
    await serve(page, counted_page(ITEMS))
    obs = await observe_page(
        page, options=ObserveOptions(max_elements=300, max_chars=20000, max_tokens=10000)
    )
    counts = obs["counts"]
    assert counts["candidates"] == counts["marked"] == len(obs["elements"]) == 254
    assert counts["over_cap"] == 0 and counts["info_over_cap"] == 0 and counts["stop"] is None
    assert obs["omitted"] == 0 and "more elements not shown" not in obs["text"]
    assert obs["text"].splitlines()[-1] == (
        f"Counts: {counts['document']:,} elements in the document, 43 hidden (never marked), "
        "254 candidates, 254 marked, 254 shown"
    )


async def test_twenty_thousand_elements_counted_to_the_last(page):
    await serve(page, counted_page(20_000))
    options = ObserveOptions(frame_timeout_s=30, total_timeout_s=40)  # room for a loaded machine
    obs = await observe_page(page, options=options)
    counts = obs["counts"]
    assert counts["stop"] is None, counts["stop"]
    assert counts["candidates"] == 20_004
    assert counts["marked"] == 5000 and counts["over_cap"] == 15_004
    assert sorted(e["id"] for e in obs["elements"]) == list(range(1, 5001))
    assert len(obs["kept_ids"]) == 120 and obs["omitted"] == 4880
    assert "... 4880 more elements not shown (4880 below the viewport)" in obs["text"]
    assert "5,000 marked, 120 shown; marking stopped at y=" in obs["text"]
    assert "(element cap 5,000): 15,004 candidates from there down not marked" in obs["text"]
    assert o200k_tokens(obs["text"]) <= TOKEN_BOUND


async def test_time_budget_stops_the_walk_and_says_where(page):
    await serve(page, counted_page(20_000))
    options = ObserveOptions(marking_budget_s=0.05, frame_timeout_s=30, total_timeout_s=40)
    started = time.monotonic()
    obs = await observe_page(page, options=options)
    assert time.monotonic() - started < 30
    counts = obs["counts"]
    stop = counts["stop"]
    assert stop["reason"] == "time budget 50 ms"
    assert 0 < counts["candidates"] < 20_004  # the walk did not reach the end, and says so
    assert counts["marked"] == len(obs["elements"]) == min(5000, counts["candidates"])
    assert sorted(e["id"] for e in obs["elements"]) == list(range(1, counts["marked"] + 1))
    assert (
        f"reading stopped at y={stop['y']:,} px (time budget 50 ms): the page below it was not read"
        in obs["text"]
    )
