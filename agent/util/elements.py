"""Finding and naming an observed element by its id: the one place every layer asks "which element is id N?".

Observations are plain dicts (they live in graph state), so the lookup works on the serialized form. It sits
below browser and dom so that both (and everything above them) share it.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any


def element_by_id(observation: dict[str, Any] | None, element_id: int | None) -> dict[str, Any] | None:
    """The observed element with ``element_id``, or None when there is no such element (or no observation)."""
    if element_id is None or not observation:
        return None
    for element in observation.get("elements") or ():
        if element.get("id") == element_id:
            return element
    return None


def element_summary(element: Mapping[str, Any]) -> str:
    """What an element is and says, e.g. 'button "Sign in"' (its kind alone when it has no label)."""
    label = element.get("name") or element.get("text") or element.get("placeholder") or ""
    kind = element.get("role") or element.get("tag") or "element"
    return f'{kind} "{label[:60]}"' if label else kind


def summary_parts(summary: Any) -> tuple[str, str]:
    """(kind, label) of an :func:`element_summary` string: 'button "Sign in"' -> ('button', 'Sign in')."""
    kind, _, rest = str(summary or "").partition(" ")
    label = rest[1:-1] if len(rest) >= 2 and rest[0] == rest[-1] == '"' else ""
    return kind.lower(), label


def describe_element(observation: dict[str, Any] | None, element_id: int | None) -> str:
    """Short description of an observed element, e.g. 'button "Sign in"' (for records and prompts)."""
    if element_id is None or not observation:
        return ""
    element = element_by_id(observation, element_id)
    return f"element {element_id}" if element is None else element_summary(element)
