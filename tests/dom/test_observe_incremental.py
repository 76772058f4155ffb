"""Incremental re-observation against real Chromium: after each change of the page, the warm observation (the
marking pass may answer "unchanged" and its last result is reused) equals a cold one of the same state, field
for field; when nothing changed the warm one is a reuse, and a new document is always read anew."""

from __future__ import annotations

import pytest

from agent.dom.observe import collect, observe_page
from agent.dom.options import ObserveOptions
from agent.dom.reuse import forget
from tests.dom.conftest import loaded_frames


def _comparable(observation: dict) -> dict:
    return {k: v for k, v in observation.items() if k not in ("observe_ms", "screenshot_path")}


async def _warm_equals_cold(page, previous: dict, goal: str = "") -> dict:
    warm = await observe_page(page, goal=goal, previous=previous)
    forget(page)
    cold = await observe_page(page, goal=goal, previous=previous)
    assert warm["text"] == cold["text"]
    assert _comparable(warm) == _comparable(cold)
    return warm


async def _js(page, script: str) -> None:
    await page.evaluate(script)


async def _settle(page) -> None:
    """Let the page finish what a change sets off (hover updates after a scroll, layout): the warm and the cold
    observation must read the same state."""
    await page.evaluate("() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)))")
    await page.wait_for_timeout(30)


def _inner(expr: str) -> str:
    return f"() => {{ const d = document.getElementById('inner').contentDocument; {expr}; }}"


#: (what changes, how): each runs on the page as the previous step left it.
STEPS = [
    ("nothing", None),
    ("type into a field", lambda p: p.fill("#name", "Ada")),
    ("set a value by script (no event)", lambda p: _js(p, "() => { document.getElementById('name').value = 'Grace'; }")),
    ("toggle a checkbox", lambda p: p.click("#agree")),
    ("check by script: a :checked panel shows", lambda p: _js(p, "() => { document.getElementById('more').checked = true; }")),
    ("select by script", lambda p: _js(p, "() => { document.getElementById('colour').selectedIndex = 2; }")),
    ("expand details", lambda p: p.click("#details summary")),
    ("append list items", lambda p: _js(p, "() => { for (const n of [3, 4, 5]) { const li = document.createElement('li'); li.innerHTML = `<a href='#i${n}'>Item ${n}</a>`; document.getElementById('list').append(li); } }")),
    ("remove a node", lambda p: _js(p, "() => { document.querySelector('#list li').remove(); }")),
    ("change text", lambda p: _js(p, "() => { document.getElementById('status').firstChild.data = 'Status: busy'; }")),
    ("class on body hides a section", lambda p: _js(p, "() => { document.body.classList.add('compact'); }")),
    ("rule edited in place (CSSOM)", lambda p: _js(p, "() => { for (const r of document.styleSheets[0].cssRules) if (r.selectorText === '.hint') r.style.display = 'block'; }")),
    ("rule inserted", lambda p: _js(p, "() => { document.styleSheets[0].insertRule('#status { display: none }', 0); }")),
    ("hover opens a menu", lambda p: p.hover("#menu-btn")),
    ("the mouse leaves the menu", lambda p: p.mouse.move(1200, 5)),
    ("focus", lambda p: p.focus("#name")),
    ("scroll the window", lambda p: _js(p, "() => { window.scrollTo(0, 700); }")),
    ("scroll an inner scroller", lambda p: _js(p, "() => { document.getElementById('scroller').scrollTop = 130; }")),
    ("change text in a same-origin frame", lambda p: _js(p, _inner("d.getElementById('ip').textContent = 'Inner text two'"))),
    ("add a button in a frame", lambda p: _js(p, _inner("d.body.insertAdjacentHTML('beforeend', '<button>Frame added</button>')"))),
    ("change text in a shadow root", lambda p: _js(p, "() => { document.getElementById('widget').shadowRoot.getElementById('sp').textContent = 'Shadow text two'; }")),
    ("style attribute", lambda p: _js(p, "() => { document.getElementById('footer').style.display = 'none'; }")),
    ("aria-label", lambda p: _js(p, "() => { document.getElementById('menu-btn').setAttribute('aria-label', 'Open the menu'); }")),
    ("resize the viewport", lambda p: p.set_viewport_size({"width": 900, "height": 700})),
    ("scroll back to the top", lambda p: _js(p, "() => { window.scrollTo(0, 0); }")),
    ("remove the frame", lambda p: _js(p, "() => { document.getElementById('inner').remove(); }")),
    ("nothing again", None),
]  # fmt: skip


@pytest.mark.parametrize("goal", ["", "warranty terms of the details"])
async def test_warm_equals_cold_through_a_sequence_of_changes(open_page, goal):
    page = await open_page("incremental.html")
    previous = await observe_page(page, goal=goal)
    for name, change in STEPS:
        if change is not None:
            await change(page)
            await _settle(page)
        try:
            previous = await _warm_equals_cold(page, previous, goal)
        except AssertionError as exc:
            raise AssertionError(f"after step {name!r}: {exc}") from exc


async def test_warm_equals_cold_in_a_session_with_the_dom_watcher(session, site_url):
    """The agent's own browser: the DOM watcher installed the change tracker before the page's scripts ran."""
    page = session.page
    await page.goto(f"{site_url}/observe/incremental.html", wait_until="load")
    assert await page.evaluate("() => typeof document.__wayfinderWatch.gen === 'number'")
    previous = await observe_page(page)
    for name, change in STEPS:
        if change is not None:
            await change(page)
            await _settle(page)
        try:
            previous = await _warm_equals_cold(page, previous)
        except AssertionError as exc:
            raise AssertionError(f"after step {name!r}: {exc}") from exc


async def test_nothing_changed_is_a_reuse_and_a_change_is_a_full_pass(open_page):
    page = await open_page("incremental.html")
    options = ObserveOptions()
    first = await collect(page, options)
    assert not first.get("reused")
    again = await collect(page, options)
    assert again.get("reused") and again["passes"] == first["passes"]
    assert [e["id"] for e in again["elements"]] == [e["id"] for e in first["elements"]]
    await page.evaluate("() => { document.getElementById('status').textContent = 'Status: changed'; }")
    changed = await collect(page, options)
    assert not changed.get("reused") and changed["passes"] != first["passes"]
    assert "Status: changed" in changed["page_text"]


async def test_lost_cache_and_new_document_take_the_full_path(open_page):
    page = await open_page("incremental.html")
    options = ObserveOptions()
    first = await collect(page, options)
    forget(page)  # the pass still says "unchanged": the lost result is read again in full
    again = await collect(page, options)
    assert not again.get("reused") and again["elements"] == first["elements"]
    await page.reload(wait_until="load")
    fresh = await collect(page, options)
    assert not fresh.get("reused") and fresh["document_id"] != first["document_id"]
    assert [e["id"] for e in fresh["elements"]] == [e["id"] for e in first["elements"]][
        : len(fresh["elements"])
    ]


async def test_a_new_goal_ranks_anew_on_a_reused_pass(open_page):
    page = await open_page("incremental.html")
    plain = await observe_page(page)
    aimed = await observe_page(page, goal="warranty terms", previous=plain)
    forget(page)
    cold = await observe_page(page, goal="warranty terms", previous=plain)
    assert aimed["text"] == cold["text"]


async def test_running_animation_is_never_unchanged(open_page):
    page = await open_page("incremental.html")
    await page.evaluate(
        "() => document.getElementById('status').animate([{opacity: 1}, {opacity: 0.2}], {duration: 60000})"
    )
    options = ObserveOptions()
    await collect(page, options)
    assert not (await collect(page, options)).get("reused")


async def test_cross_origin_frame_changes_are_seen_and_its_pass_reused(open_page):
    page = await open_page("crossorigin.html")
    (child,) = await loaded_frames(page, "xo_child")
    options = ObserveOptions()
    first = await observe_page(page)
    raw = await collect(page, options)
    assert raw.get("reused") and len(raw["passes"]) == 2  # the top pass and the frame's, both reused
    await child.evaluate("() => { document.querySelector('p').textContent = 'Widget text changed'; }")
    await _settle(page)
    warm = await _warm_equals_cold(page, first)
    assert "Widget text changed" in warm["page_text"]


async def test_style_sheets_past_the_cap_are_always_read_in_full(open_page):
    page = await open_page("incremental.html")
    await page.evaluate(
        "() => { const s = document.createElement('style'); s.textContent = Array.from({length: 3200}, "
        "(_, i) => `.r${i} { color: red }`).join('\\n'); document.head.append(s); }"
    )
    options = ObserveOptions()
    await collect(page, options)
    assert not (await collect(page, options)).get("reused")


async def test_a_changed_page_hands_over_only_the_elements_described_anew(open_page):
    import json

    from agent.dom.observe import _js_args
    from agent.dom.pass_script import SOM_JS

    page = await open_page("incremental.html")
    options = ObserveOptions()
    first = await collect(page, options)
    await page.evaluate("() => { document.getElementById('status').textContent = 'Status: moved on'; }")
    answer = json.loads(
        await page.evaluate(SOM_JS, _js_args(options, have=[first["document_id"], first["pass"]]))
    )
    anew = [e for e in answer["elements"] if isinstance(e, dict)]
    assert [e["text"] for e in anew] == ["Status: moved on"]
    assert len(answer["elements"]) == len(first["elements"])
    forget(page)
    await page.evaluate("() => { document.getElementById('status').textContent = 'Status: again'; }")
    full = await collect(page, options)  # nothing kept: every element described in full
    assert all(isinstance(e, dict) for e in full["elements"]) and "Status: again" in full["page_text"]
