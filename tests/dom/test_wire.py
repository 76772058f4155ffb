"""The marking pass's shorter hand-over (agent/dom/wire.py) gives back every field as the pass described it."""

from __future__ import annotations

import json

from agent.dom.observe import _js_args, collect
from agent.dom.options import ObserveOptions
from agent.dom.pass_script import SOM_JS
from agent.dom.wire import ELEMENT_DEFAULTS, unpack_blocks, unpack_element, unpack_elements

LONG = "A paragraph long enough that its name is cut " + "with more words after it " * 8


def test_unpack_element_puts_back_names_links_and_defaults() -> None:
    text = "Harbor Mill notes and more"
    assert unpack_element({"id": 1, "text": text}, "")["name"] == text
    assert unpack_element({"id": 1, "text": text, "name": 11}, "")["name"] == "Harbor Mill"
    assert unpack_element({"id": 1, "text": text, "name": -6}, "")["name"] == "Harbor…"
    assert unpack_element({"id": 1, "name": ""}, "")["name"] == ""
    link = unpack_element({"id": 2, "name": "x", "attrs": {"id": "a", "~href": "/p?q=1#f", "scrollable": "y"}},
                          "https://shop.test")  # fmt: skip
    assert link["attrs"] == {"id": "a", "href": "https://shop.test/p?q=1#f", "scrollable": "y"}
    assert list(link["attrs"]) == ["id", "href", "scrollable"]
    plain = unpack_element({"id": 3, "name": "y"}, "")
    assert {k: plain[k] for k in ELEMENT_DEFAULTS} == ELEMENT_DEFAULTS and plain["attrs"] == {}


def test_unpack_blocks_by_element_id() -> None:
    result = {
        "origin": "",
        "elements": [{"id": 5, "text": "The block text"}, 6],
        "blocks": {"#1": 5, "#2": "own"},
    }
    unpack_elements(result)
    unpack_blocks(result)
    assert result["blocks"] == {"#1": "The block text", "#2": "own"}
    assert result["elements"][1] == 6  # an id alone stays for the kept pass to fill


async def test_real_pass_round_trips_names_links_and_blocks(open_page) -> None:
    page = await open_page("form.html")  # an http origin: the pass sends same-origin links without it
    await page.set_content(
        "<main><p id='p1'>Intro text with a <a href='/docs/a?x=1#top'>docs link</a> inside it.</p>"
        f"<p id='p2'>{LONG}</p><p id='p3'>Emoji 😀 text that is long enough to need cutting {'x' * 120}</p>"
        "<a href='https://other.test/page'>Elsewhere</a><button aria-label='Named'>Text</button></main>"
    )
    raw = await collect(page)
    els = {e["attrs"].get("id") or e["name"]: e for e in raw["elements"]}
    link = els["docs link"]
    assert link["text"] == "docs link" and link["attrs"]["href"].endswith("/docs/a?x=1#top")
    assert link["attrs"]["href"] == page.url.split("/observe/")[0] + "/docs/a?x=1#top"
    assert raw["blocks"][link["block"]] == "Intro text with a docs link inside it."
    assert els["p2"]["name"] == els["p2"]["text"][:99].rstrip() + "…" and len(els["p2"]["text"]) > 100
    assert els["p3"]["name"].startswith("Emoji 😀") and els["p3"]["name"].endswith("…")
    assert els["Elsewhere"]["attrs"]["href"] == "https://other.test/page"
    assert els["Named"]["name"] == "Named" and els["Named"]["text"] == "Text"
    assert all(isinstance(e["name"], str) and "~href" not in e["attrs"] for e in raw["elements"])
    packed = json.loads(await page.evaluate(SOM_JS, _js_args(ObserveOptions(), force=True)))
    assert any("~href" in e.get("attrs", {}) for e in packed["elements"])  # sent shorter, given back in full
    assert any("name" not in e for e in packed["elements"])
    assert any(isinstance(e.get("name"), int) for e in packed["elements"])
    assert any(isinstance(v, int) for v in packed["blocks"].values())
