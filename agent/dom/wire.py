"""The marking pass's result as handed over, unpacked into the element dicts the rest of the agent reads.

Handing the result from the page to Python costs in proportion to its size (a long article's pass is a few hundred
kilobytes, most of it elements the bounded text never shows). The pass therefore leaves out what Python can put
back exactly: fields at their default value, a name that is the element's text or its start (a length instead),
the page's origin in its own links, and a block's text when it is the text of the block's own marked element (its
id instead). Every element comes out field for field as the pass described it.
"""

from __future__ import annotations

from typing import Any

#: Element fields the marking pass leaves out at these values; put back here.
ELEMENT_DEFAULTS: dict[str, Any] = {
    "text": "", "value": "", "placeholder": "", "input_type": "", "fixed": False, "occluded": False,
    "disabled": False, "checked": None, "selected": None, "editable": False, "frame": "", "cross_origin": False,
    "in_viewport": False, "interactive": False, "zone": "main",
}  # fmt: skip


def unpack_element(packed: dict[str, Any], origin: str) -> dict[str, Any]:
    """One element as described: defaults, its name and its same-origin link put back."""
    element = {**ELEMENT_DEFAULTS, "attrs": {}, **packed}
    name = packed.get("name")
    if name is None:  # the name is the text
        element["name"] = element["text"]
    elif isinstance(name, int):  # the text's first n characters, with an ellipsis when negative
        text = element["text"]
        element["name"] = text[:name] if name > 0 else text[:-name] + "…"
    attrs = element["attrs"]
    if "~href" in attrs:
        element["attrs"] = {
            ("href" if key == "~href" else key): (origin + value if key == "~href" else value)
            for key, value in attrs.items()
        }
    return element


def unpack_elements(result: dict[str, Any]) -> None:
    """Unpack the result's described elements in place (an id alone stays: described in the kept pass)."""
    if result.get("elements"):
        origin = str(result.get("origin") or "")
        result["elements"] = [
            e if isinstance(e, int) else unpack_element(e, origin) for e in result["elements"]
        ]


def unpack_blocks(result: dict[str, Any]) -> None:
    """Put each block's text back where the pass sent the id of the element holding it (all elements unpacked)."""
    blocks = result.get("blocks")
    if not blocks or not any(isinstance(v, int) for v in blocks.values()):
        return
    texts = {e["id"]: e.get("text") or "" for e in result.get("elements") or [] if isinstance(e, dict)}
    result["blocks"] = {k: texts.get(v, "") if isinstance(v, int) else v for k, v in blocks.items()}
