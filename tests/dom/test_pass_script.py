"""The marking pass installed in each new document (agent/dom/pass_script.py): the same observation whichever way
it ran, in the top document and in cross-origin frames, and a page's script cannot replace it."""

from __future__ import annotations

import json
import re

import pytest

from agent.dom import pass_script
from agent.dom.observe import observe_page
from tests.dom.conftest import loaded_frames

FIELDS = ("elements", "frames", "counts", "text", "page_text")
NAME = pass_script.PASS_PROPERTY
HAS_PASS = f"() => typeof document.{NAME}"


def _comparable(observation: dict) -> str:
    """The observation but for "new" (whether an element was in the page's previous observation)."""
    fields = {k: observation[k] for k in FIELDS}
    fields["elements"] = [{k: v for k, v in e.items() if k != "new"} for e in fields["elements"]]
    return json.dumps(fields, sort_keys=True)


async def test_documents_made_after_the_first_observation_hold_the_pass(
    page, observe_url, monkeypatch
) -> None:
    calls: list[str] = []
    evaluate = type(page.main_frame).evaluate

    async def counted(frame, expression, arg=None):
        if expression in (pass_script.CALL_JS, pass_script.DEFINE_AND_CALL_JS):
            calls.append("short" if expression == pass_script.CALL_JS else "whole")
        return await evaluate(frame, expression, arg)

    monkeypatch.setattr(type(page.main_frame), "evaluate", counted)
    await page.goto(observe_url("form.html"), wait_until="load")
    assert await page.evaluate(HAS_PASS) == "undefined"  # made before the context was registered
    first = await observe_page(page)
    assert calls == ["whole"] and await page.evaluate(HAS_PASS) == "function"
    await observe_page(page, previous=first)
    assert calls == ["whole", "short"]  # installed there by the whole-script call

    calls.clear()
    await page.goto(observe_url("form.html"), wait_until="load")
    assert await page.evaluate(HAS_PASS) == "function"  # before any observation of this document
    again = await observe_page(page)
    assert calls == ["short"]
    assert _comparable(again) == _comparable(first)  # same pass, same page: the same observation


async def test_a_document_without_the_pass_in_a_registered_context_gets_it(page, observe_url) -> None:
    await page.goto(observe_url("form.html"), wait_until="load")
    await observe_page(page)  # registers the context
    other = await page.context.new_page()
    try:
        await other.set_content("<button>Made by set_content</button>")  # a new page of the context holds it
        await other.evaluate(f"() => {{ try {{ delete document.{NAME}; }} catch (e) {{}} }}")  # stays
        assert await other.evaluate(HAS_PASS) == "function"
        raw = await pass_script.run_pass(other.main_frame, {"base": 0})
        assert json.loads(raw)["ok"] is True
    finally:
        await other.close()


async def test_a_page_script_cannot_replace_the_pass(page, observe_url) -> None:
    await page.goto(observe_url("form.html"), wait_until="load")
    honest = await observe_page(page)
    await page.goto(observe_url("form.html"), wait_until="load")
    swapped = await page.evaluate(
        """name => {
            const fake = () => JSON.stringify({ ok: true, elements: [] });
            try { document[name] = fake; } catch (e) { /* non-writable */ }
            try { Object.defineProperty(document, name, { value: fake }); return 'replaced'; }
            catch (e) { return 'refused'; }
        }""",
        NAME,
    )
    assert swapped == "refused"
    observed = await observe_page(page)
    assert observed["elements"] and _comparable(observed) == _comparable(honest)


async def test_cross_origin_frames_hold_the_pass_and_observe_the_same(page, observe_url) -> None:
    await page.goto(observe_url("crossorigin.html"), wait_until="load")
    await loaded_frames(page, "xo_child")
    first = await observe_page(page)  # the whole script here: the context registers now
    other = await page.context.new_page()  # a new page: frame id bases handed out from the start again
    try:
        await other.goto(observe_url("crossorigin.html"), wait_until="load")
        (child,) = await loaded_frames(other, "xo_child")
        assert (
            await child.evaluate(HAS_PASS) == "function"
        )  # another origin, another process: installed there
        second = await observe_page(other)
    finally:
        await other.close()
    assert any(e["name"] == "Cross origin button" and e["frame"] == "0" for e in second["elements"])
    assert _comparable(second) == _comparable(first)


async def test_a_page_open_before_registration_cannot_claim_the_pass_name(page, observe_url) -> None:
    """A document made before the context was registered gets the pass only from its first observation; a
    page script there that claims the name the pass would use (the fixed part of it, all a page can know)
    changes nothing."""
    await page.goto(observe_url("form.html"), wait_until="load")
    claimed = await page.evaluate(
        """() => {
            const fake = () => JSON.stringify({ ok: true, elements: [] });
            Object.defineProperty(document, '__wayfinderSomFn', { value: fake, configurable: false });
            return typeof document.__wayfinderSomFn;
        }"""
    )
    assert claimed == "function"
    first = await observe_page(page)  # the whole script: installs the pass under its own name
    second = await observe_page(page, previous=first)  # the short call
    assert any(e["name"] == "Create account" for e in second["elements"]), second["text"]


def test_the_pass_declares_its_helpers_in_brackets_so_v8_compiles_them_with_it():
    """Compiled lazily, a cross-origin frame's first pass (a renderer of its own) spent 6 to 12 ms compiling its
    helpers one call at a time; in brackets they compile with the init script, when the document is made."""
    assert re.search(r"(?m)^function \w+\(", pass_script.SOM_JS) is None
    assert "var collapse = (function collapse(s)" in pass_script.SOM_JS
    source = "  function one(a) { return a; }\n  function two(b) {\n    return b;\n  }\n  two(one(1));"
    assert pass_script.eager(source) == (
        "  var one = (function one(a) { return a; });\n  var two = (function two(b) {\n    return b;\n  });\n"
        "  two(one(1));"
    )
    with pytest.raises(ValueError):
        pass_script.eager("  function open(a) {\n    return a;\n")
