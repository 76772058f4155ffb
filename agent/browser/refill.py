"""Putting typed-but-unsent form values back into a reopened page (a resumed run's new browser).

A field is found again the way a person would recognise it, not by the old page's element ids (which a new
document does not have): by its ``name`` attribute, then its ``id``, then its label, then its placeholder,
and only when exactly one visible control matches. What cannot be put back is reported, never guessed.
"""

from __future__ import annotations

import asyncio
import json
from typing import Any

#: Upper bound for finding and filling one field.
_FIELD_S = 5.0


def field_label(field: dict[str, Any]) -> str:
    """How a lost field is named in a message (never its value: it may be a password)."""
    for key in ("label", "name_attr", "placeholder", "id_attr"):
        if field.get(key):
            return f'"{field[key]}"'
    return "a form field"


def _css_attr(name: str, value: str) -> str:
    return f"input[{name}={json.dumps(value)}], textarea[{name}={json.dumps(value)}], select[{name}={json.dumps(value)}]"


def _candidates(page: Any, field: dict[str, Any]) -> list[Any]:
    found = []
    if field.get("name_attr"):
        found.append(page.locator(_css_attr("name", field["name_attr"])))
    if field.get("id_attr"):
        found.append(page.locator(_css_attr("id", field["id_attr"])))
    if field.get("label"):
        found.append(page.get_by_label(field["label"], exact=True))
    if field.get("placeholder"):
        found.append(page.get_by_placeholder(field["placeholder"], exact=True))
    return found


async def _find(page: Any, field: dict[str, Any]) -> Any | None:
    for locator in _candidates(page, field):
        visible = locator.locator("visible=true")
        if await visible.count() == 1:
            return visible
    return None


async def _refill_one(page: Any, field: dict[str, Any]) -> bool:
    locator = await _find(page, field)
    if locator is None:
        return False
    value = str(field.get("value") or "")
    if field.get("action") == "select_option":
        try:
            await locator.select_option(label=value, timeout=_FIELD_S * 1000)
        except Exception:  # noqa: BLE001 - a value rather than a label was chosen
            await locator.select_option(value=value, timeout=_FIELD_S * 1000)
    else:
        await locator.fill(value, timeout=_FIELD_S * 1000)
    return True


async def refill_fields(page: Any, fields: list[dict[str, Any]]) -> list[str]:
    """Fill each saved field of the open page with its value; returns what could not be put back."""
    lost = []
    for field in fields:
        if field.get("frame"):
            lost.append(f"the value typed into {field_label(field)} (the field is inside a frame)")
            continue
        try:
            ok = await asyncio.wait_for(_refill_one(page, field), _FIELD_S * 2)
        except Exception:  # noqa: BLE001 - a detached, disabled or read-only control
            ok = False
        if not ok:
            lost.append(f"the value typed into {field_label(field)} (the field is not on the page any more)")
    return lost
