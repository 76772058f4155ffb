"""Opening hidden content for an action step: when the element a step names is not on the page, it may sit in
a collapsed section, a closed accordion panel or another tab. Each control that hides content (a <details>
summary, anything with aria-expanded, a tab) is opened once, in reading order, and the step is tried again.
"""

from __future__ import annotations

from agent.planning.base import HistoryItem
from agent.planning.offline.intents import Click
from agent.planning.offline.page import reading_order, role_of, visible_text
from agent.types import Element, Observation

#: At most this many controls are opened for one goal.
MAX_REVEALS = 8


def _hides_content(el: Element) -> bool:
    tag = (el.get("tag") or "").lower()
    attrs = el.get("attrs") or {}
    return tag == "summary" or "aria-expanded" in attrs or role_of(el) == "tab"


def _is_open(el: Element) -> bool:
    attrs = el.get("attrs") or {}
    return attrs.get("aria-expanded") == "true" or attrs.get("aria-selected") == "true"


def reveal_steps(observation: Observation) -> set[str]:
    """The step text of every control on the page that shows or hides content."""
    return {Click(visible_text(el)).step() for el in observation.get("elements") or [] if _hides_content(el)}


def reveals_done(history: list[HistoryItem], observation: Observation) -> int:
    """How many hidden-content controls this run has opened on this page."""
    steps = reveal_steps(observation)
    return sum(1 for h in history if h.get("status") == "success" and h.get("plan_step") in steps)


def reveal_step(observation: Observation, history: list[HistoryItem]) -> str | None:
    """The next closed control to open (each one once), or None when every one was tried or the budget is
    spent."""
    if reveals_done(history, observation) >= MAX_REVEALS:
        return None
    tried = {h.get("plan_step") for h in history}
    clicked = {h.get("element_id") for h in history if h.get("action") == "click"}
    for el in reading_order(observation.get("elements") or []):
        name = visible_text(el)
        if (
            not name
            or not _hides_content(el)
            or _is_open(el)
            or el.get("disabled")
            or el.get("id") in clicked
        ):
            continue
        step = Click(name).step()
        if step not in tried:
            return step
    return None
