"""What the run's history says about a record's form: which steps succeeded, what was clicked, searched and
typed into it, and whether (and how often) it was saved. The planner and the change check read it the same way."""

from __future__ import annotations

import re

from agent.planning.base import HistoryItem
from agent.planning.offline.account_rules import REFERENCE_FIELD
from agent.planning.offline.intents import Submit
from agent.planning.offline.records.forms import SAVE
from agent.planning.offline.records.goal import OPERATIONS

#: A plan step that clicks a named control ('Click the "Renew" button'): the one home of this pattern.
#: A click step: its target, its role, and any anchor after them ('Click the "Book" link near "Overview"').
CLICKED = re.compile(
    r'^Click (?:the )?["“«\'](?P<t>.+?)["”»\'](?: (?P<role>\w+))?'
    r'(?: [a-z]+(?: [a-z]+)? ["“«\'].*["”»\'])?$'
)
_SEARCHED = re.compile(r'^Search for ["“«\'](?P<q>.+?)["”»\']$')
_FILL_STEP = re.compile(r"^(?:Type|Append|Replace|Select|Check|Choose) ")

#: Operations a form may end with a button named for them ('Resolve issue', 'Reopen').
OWN_BUTTON = ("close", "reopen")
_OWN_SAVE = re.compile(
    r"\b(?:" + "|".join(re.escape(v) for op in OWN_BUTTON for v in OPERATIONS[op]) + r")\b", re.I
)


def saving(control: str, own: tuple[str, ...] = ()) -> bool:
    """A control of that name saves the record ('Save', 'Submit', 'Resolve issue'; ``own``: the goal's own verb,
    'Assign' for 'assign ... to X')."""
    return bool(SAVE.search(control) or _OWN_SAVE.search(control) or _names_own(control, own))


def _clicked_button(step: str) -> re.Match[str] | None:
    """The click of a step that may have sent a form: never a link's ('Update details' opens the form)."""
    m = CLICKED.match(step)
    return m if m and m.group("role") != "link" else None


def _names_own(control: str, own: tuple[str, ...]) -> bool:
    return any(re.search(rf"\b{re.escape(v)}\b", control, re.I) for v in own if v)


def ok_steps(history: list[HistoryItem]) -> list[HistoryItem]:
    return [
        h for h in history if h.get("status") == "success" and h.get("action") not in ("translate", "done")
    ]


def clicked_targets(history: list[HistoryItem]) -> set[str]:
    return {m.group("t") for h in history if (m := CLICKED.match(str(h.get("plan_step") or "")))}


def searched_queries(history: list[HistoryItem]) -> set[str]:
    return {m.group("q").lower() for h in history if (m := _SEARCHED.match(str(h.get("plan_step") or "")))}


def saves_sent(history: list[HistoryItem], own: tuple[str, ...] = ()) -> int:
    """How many saves were sent: successful clicks on a save-like control after the last fill step."""
    count = 0
    filled = False
    for item in ok_steps(history):
        step = str(item.get("plan_step") or "")
        if _FILL_STEP.match(step):
            filled = True
        m = _clicked_button(step)
        if m and (
            (filled and (SAVE.search(m.group("t")) or _names_own(m.group("t"), own)))
            or _OWN_SAVE.search(m.group("t"))
        ):
            count += 1  # ('Resolve issue' saves with nothing filled: the form's choice was already right)
    return count


_LOGIN_SUBMIT = Submit("login").step()
_SUBMIT = Submit("").step()
_CREDENTIAL = re.compile(r"user\s*name|\buser\b|password|passcode|\blogin\b", re.I)
_PLACED = re.compile(
    r'^(?:Type|Append|Select) ["“«\'](?P<v>.+?)["”»\'] (?:into|to|from) ["“«\'](?P<f>.+?)["”»\']'
)


_LIST_MARK = re.compile(r"^\s*(?:[-*•+]|\d+[.)])\s+")


def placed_values(history: list[HistoryItem]) -> tuple[str, ...]:
    """The values the steps put into the record's form (not a login's credentials), for its proof."""
    out: list[str] = []
    since_login: list[
        str
    ] = []  # typed into the form a login then submitted: credentials ('PIN', 'Patient ID')
    looked_up = False  # a booking reference typed: the form it is in looks the booking up, like a log-in
    for item in ok_steps(history):
        step = str(item.get("plan_step") or "")
        if step == _LOGIN_SUBMIT or (looked_up and step == _SUBMIT):
            out = [v for v in out if v not in since_login]
        m = _PLACED.match(step)
        since_login = since_login + [m.group("v")] if m else []
        looked_up = bool(m) and (looked_up or m.group("f") == REFERENCE_FIELD)
        value = _LIST_MARK.sub("", m.group("v")) if m else ""  # '- Order a badge' shows as a list item
        if m and not _CREDENTIAL.search(m.group("f")) and value not in out:
            out.append(value)
    return tuple(out)


def reread(history: list[HistoryItem], own: tuple[str, ...] = ()) -> bool:
    """The record was opened again after the last save (a click after it that loaded another address): its form
    now shows what was stored, not what was typed."""
    items = ok_steps(history)
    for n in range(len(items) - 1, -1, -1):
        step = str(items[n].get("plan_step") or "")
        if (b := _clicked_button(step)) and saving(b.group("t"), own):
            return False
        m = CLICKED.match(step)
        moved = n > 0 and items[n].get("url") != items[n - 1].get("url")
        effect = items[n].get("effect") or {}  # type: ignore[attr-defined]
        # a link followed to the same address loads the page afresh too ('My account' on the account page)
        if m and (
            moved or effect.get("url_changed") or (m.group("role") == "link" and effect.get("navigated"))
        ):
            return True
    return False


def pending_save(history: list[HistoryItem], own: tuple[str, ...] = ()) -> bool:
    """The last thing done was a save (no fill step came after it)."""
    for item in reversed(ok_steps(history)):
        step = str(item.get("plan_step") or "")
        if _FILL_STEP.match(step):
            return False
        m = _clicked_button(step)
        if m and saving(m.group("t"), own):
            return True
    return False


def placed_in_form(history: list[HistoryItem]) -> set[str]:
    """Values already put into fields by earlier steps."""
    done = set()
    for item in ok_steps(history):
        m = re.match(
            r'^(?:Type|Append|Select|Replace ["“«\'].+?["”»\'] with) ["“«\'](?P<v>.+?)["”»\']',
            str(item.get("plan_step") or ""),
        )
        if m:
            done.add(m.group("v"))
    return done


def clicked_since_save(history: list[HistoryItem], own: tuple[str, ...] = ()) -> set[str]:
    """What was clicked after the last save: a page opened again to read the change is opened once."""
    items = ok_steps(history)
    for n in range(len(items) - 1, -1, -1):
        m = _clicked_button(str(items[n].get("plan_step") or ""))
        if m and saving(m.group("t"), own):
            return clicked_targets(items[n + 1 :])
    return set()
