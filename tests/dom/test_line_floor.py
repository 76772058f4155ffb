"""Lines weighed without rendering them (agent/dom/render.py ``line_floor``): the bounds never exceed the
rendered line's estimated tokens and length, and skipping by it leaves every observation exactly as it was."""

from __future__ import annotations

import json

from hypothesis import given, settings
from hypothesis import strategies as st

from agent.dom import serialize
from agent.dom.observe import collect
from agent.dom.options import ObserveOptions
from agent.dom.render import element_line, line_floor
from agent.dom.text import estimate_tokens
from benchmarks.pages import article_html, listing_html

_PIECES = list("ab Z9\"'\t\n\u00a0\x1f.-…😀") + ["word ", "12345", "abcdefghijklmnopqrstuvwxyz"]
_TEXT = st.lists(st.sampled_from(_PIECES), max_size=120).map("".join)
_ELEMENT = st.fixed_dictionaries(
    {
        "id": st.one_of(st.integers(0, 10**7), st.just("x y")),
        "tag": st.sampled_from(["a", "p", "h2", "input", "div", "label"]),
        "role": st.sampled_from(["", "link", "heading", "button", " ", "textbox", "checkbox"]),
    },
    optional={
        "name": _TEXT,
        "text": _TEXT,
        "prose": st.booleans(),
        "new": st.booleans(),
        "interactive": st.booleans(),
        "value": _TEXT,
        "placeholder": _TEXT,
        "attrs": st.fixed_dictionaries(
            {},
            optional={
                "scrollable": st.just("y"),
                "href": st.sampled_from(
                    [
                        "/a?b=1#c",
                        "http://shop.test/list#x",
                        "javascript:void(0)",
                        "https://o.test/p q",
                        "mailto:a@b.test",
                        "",
                    ]
                ),
            },
        ),
    },
)


@settings(max_examples=400, deadline=None)
@given(element=_ELEMENT, focus=st.sampled_from([(), ("word",), ("ab", "zz")]))
def test_the_floor_never_exceeds_the_line(element, focus) -> None:
    line = element_line(element, "http://shop.test/list", focus)
    tokens, chars = line_floor(element, "http://shop.test/list", focus)
    assert tokens <= estimate_tokens(line) and chars <= len(line)


@settings(max_examples=400, deadline=None)
@given(element=_ELEMENT, focus=st.sampled_from([(), ("word",)]), enough=st.integers(0, 40))
def test_a_floor_cut_short_at_enough_still_answers_the_same(element, focus, enough) -> None:
    """Stopping once the tokens reach ``enough`` gives bounds no higher than the whole floor's, and the same
    answer to "could the line fit ``enough`` tokens?"."""
    whole = line_floor(element, "http://shop.test/list", focus)
    short = line_floor(element, "http://shop.test/list", focus, enough=enough)
    assert short[0] <= whole[0] and short[1] <= whole[1]
    assert (short[0] >= enough) == (whole[0] >= enough)


async def _observed(page, goal: str, tabs: list) -> str:
    raw = await collect(page)
    obs = serialize.build_observation(raw, goal=goal, options=ObserveOptions(), tabs=tabs, active_tab_id="t1")
    return json.dumps([obs["text"], obs["kept_ids"], obs["omitted"], obs["counts"]], sort_keys=True)


async def test_skipping_by_the_floor_changes_no_observation(page, monkeypatch) -> None:
    pages = {"article": article_html(), "listing": listing_html(300)}

    async def fulfill(route):
        await route.fulfill(
            status=200, content_type="text/html", body=pages[route.request.url.rsplit("/", 1)[1]]
        )

    await page.route("http://long.test/**", fulfill)
    real = serialize.line_floor
    weighed: list[int] = []

    def counting(element, url, focus, enough=None):
        weighed.append(1)
        return real(element, url, focus, enough=enough)

    for name in pages:
        await page.goto(f"http://long.test/{name}", wait_until="load")
        for goal in ("", "What is the price of Product 0290?", "Which year was the harbor mill rebuilt?"):
            for tabs in (
                [],
                [{"id": "t1", "title": "A long article on a long road", "url": "http://long.test/"}],
            ):
                monkeypatch.setattr(serialize, "line_floor", counting)
                fast = await _observed(page, goal, tabs)
                monkeypatch.setattr(
                    serialize, "line_floor", lambda element, url, focus, enough=None: (-1, -1)
                )  # every line
                assert fast == await _observed(page, goal, tabs), (name, goal, tabs)
    assert len(weighed) > 100  # the long pages' tails were weighed by the floor
