"""Deleting a record: the control that deletes it, the page that asks "are you sure?", and the proof that it is
gone (a message that names it as deleted, and no link to it left on the page read after).

Nothing here knows a site: a confirmation is a page that asks (are you sure, confirm, cannot be undone) with a
button that agrees (yes, confirm, delete); the way back (no, cancel, back) is never pressed.
"""

from __future__ import annotations

import re

from agent.planning.base import HistoryItem
from agent.planning.offline import page as kinds
from agent.planning.offline.page import visible_text
from agent.planning.offline.records.goal import RecordGoal
from agent.planning.offline.records.progress import CLICKED
from agent.planning.offline.text import norm
from agent.types import Element, Observation

DELETE = re.compile(r"\b(?:delete|remove|erase|destroy)\b", re.I)
_ASKS = re.compile(
    r"\bare\s+you\s+sure\b|\bconfirm(?:ation)?\b|\breally\s+(?:delete|remove)\b|\bcannot\s+be\s+undone\b|"
    r"\bpermanently\b",
    re.I,
)
_AGREES = re.compile(r"\b(?:yes|confirm|delete|remove|i.?m\s+sure|ok|proceed)\b", re.I)
_DECLINES = re.compile(r"\b(?:no|cancel|back|keep|return)\b", re.I)
_GONE = re.compile(r"\b(?:deleted|removed|erased|destroyed)\b", re.I)


def _text(el: Element) -> str:
    return visible_text(el) or str(el.get("name") or "")


def confirm_control(observation: Observation) -> Element | None:
    """The button that agrees to what the page asks (never the way back)."""
    for el in observation.get("elements") or []:
        text = _text(el)
        if kinds.is_button(el) and _AGREES.search(text) and not _DECLINES.search(text) and len(text) <= 40:
            return el
    return None


def asks_to_confirm(observation: Observation) -> bool:
    """The page asks whether to go on (a confirmation step) and offers a button that agrees."""
    text = f"{observation.get('title') or ''}\n{observation.get('page_text') or ''}"
    return bool(_ASKS.search(text[:3000])) and confirm_control(observation) is not None


def _delete_clicked_at(history: list[HistoryItem]) -> int:
    """Where in the history a control that deletes was clicked (-1 when none was)."""
    for n in range(len(history) - 1, -1, -1):
        item = history[n]
        m = CLICKED.match(str(item.get("plan_step") or ""))
        if item.get("status") == "success" and m and DELETE.search(m.group("t")):
            return n
    return -1


def delete_started(history: list[HistoryItem]) -> bool:
    return _delete_clicked_at(history) >= 0


def delete_confirmed(history: list[HistoryItem]) -> bool:
    """After the delete control, a control that agrees was clicked (the confirmation was answered yes)."""
    start = _delete_clicked_at(history)
    for item in history[start + 1 :] if start >= 0 else []:
        m = CLICKED.match(str(item.get("plan_step") or ""))
        if item.get("status") == "success" and m and _AGREES.search(m.group("t")):
            return not _DECLINES.search(m.group("t"))
    return False


def deletion_shown(goal: RecordGoal, observation: Observation, ident: str) -> str:
    """The page's line that names the record as deleted, when no link to the record is left ('' otherwise)."""
    if not ident:
        return ""
    name = norm(ident)
    links = [norm(_text(e)) for e in observation.get("elements") or [] if kinds.is_link(e)]
    if any(name == t or f" {name} " in f" {t} " for t in links):
        return ""
    text = f"{observation.get('page_text') or ''}"
    for line in text.splitlines():
        if _GONE.search(line) and f" {name} " in f" {norm(line)} ":
            return line.strip()[:200]
    return ""
