"""A date put into a form that asks for it in parts: 'Day', 'Month' and 'Year' boxes or lists under one label
('Date of birth'), as many UK and government forms do. The goal says the date whole ('12 May 1988',
'12/05/1988'); each part goes into its own field, in the form the field offers ('May' or '5', '12' or '12th')."""

from __future__ import annotations

import calendar
import re
from datetime import datetime

from agent.planning.base import HistoryItem
from agent.planning.offline.dates import parse_when
from agent.planning.offline.intents import Intent, SelectOption, TypeText
from agent.planning.offline.page import is_text_field, labels, role_of, visible_text
from agent.planning.offline.text import norm, stem, tokens
from agent.types import Element, Observation

_PARTS = {
    "day": re.compile(r"^(?:day|dd)$", re.I),
    "month": re.compile(r"^(?:month|mm)$", re.I),
    "year": re.compile(r"^(?:year|yyyy|yy)$", re.I),
}
_NUMERIC = re.compile(r"^\s*(?P<a>\d{1,2})[/.-](?P<b>\d{1,2})[/.-](?P<y>\d{4})\s*$")


def split_date_steps(intent: Intent, observation: Observation) -> list[str] | None:
    """The steps that put a typed date into Day, Month and Year fields, when the page has exactly one of each
    and no field of its own for the date; None otherwise."""
    if not isinstance(intent, TypeText) or not intent.field:
        return None
    elements = observation.get("elements") or []
    parts: dict[str, list[Element]] = {k: [] for k in _PARTS}
    for e in elements:
        if is_text_field(e) or role_of(e) == "combobox":
            name = _name(e)
            for part, rx in _PARTS.items():
                if rx.match(name):
                    parts[part].append(e)
    if any(len(found) != 1 for found in parts.values()) or _has_own_field(elements, intent.field):
        return None
    when = _read(intent.text, observation)
    if when is None:
        return None
    steps = []
    for part, (field,) in parts.items():
        said = _said(part, when, field)
        if said is None:
            return None
        label = _name(field)
        steps.append(
            SelectOption(said, label).step() if role_of(field) == "combobox" else TypeText(said, label).step()
        )
    return steps


def split_done(intent: Intent, observation: Observation, history: list[HistoryItem]) -> bool:
    """A date already put into this page's Day, Month and Year fields, part by part."""
    steps = split_date_steps(intent, observation) or []
    done = {h.get("plan_step") for h in history if h.get("status") == "success"}
    return bool(steps) and all(step in done for step in steps)


def _name(e: Element) -> str:
    return (visible_text(e) or next((t for t, _ in labels(e)), "")).strip()


def _has_own_field(elements: list[Element], field: str) -> bool:
    words = {stem(w) for w in tokens(field) if len(w) > 2}
    return any(
        (is_text_field(e) or role_of(e) == "combobox")
        and words
        and words <= {stem(w) for w in tokens(_name(e))}
        for e in elements
    )


def _read(text: str, observation: Observation) -> datetime | None:
    """The date ``text`` says; '12/05/1988' is read day first on a page in pounds or that writes DD/MM (else as
    the rest of the planner reads dates)."""
    m = _NUMERIC.match(text)
    if m:
        a, b, y = int(m.group("a")), int(m.group("b")), int(m.group("y"))
        day, month = (a, b) if a > 12 or (b <= 12 and writes_day_first(observation)) else (b, a)
        try:
            return datetime(y, month, day)
        except ValueError:
            return None
    return parse_when(text)


def writes_day_first(observation: Observation | None) -> bool:
    """A page that writes DD/MM, or one in pounds that does not write MM/DD, reads '12/05/1988' as 12 May."""
    page = " ".join(str((observation or {}).get(k) or "") for k in ("page_text", "text", "title"))
    if re.search(r"\bMM\s*[/.-]\s*DD\b", page, re.I):
        return False  # the page says month first, whatever currency it also shows
    return "£" in page or re.search(r"\bDD\s*[/.-]\s*MM\b", page, re.I) is not None


def _said(part: str, when: datetime, field: Element) -> str | None:
    """The part of the date as the field takes it: an option it lists, else the number."""
    number = {"day": when.day, "month": when.month, "year": when.year}[part]
    ways = [str(number), f"{number:02d}"]
    if part == "month":
        ways = [calendar.month_name[number], calendar.month_abbr[number], *ways]
    if part == "day":
        ways.append(
            f"{number}{'th' if 11 <= number <= 13 else {1: 'st', 2: 'nd', 3: 'rd'}.get(number % 10, 'th')}"
        )
    options = [str(o) for o in field.get("options") or []]
    if not options:
        return ways[-2] if part != "month" else str(number)
    by_norm = {norm(o): o for o in options}
    return next((by_norm[norm(w)] for w in ways if norm(w) in by_norm), None)


def date_spellings(text: str, observation: Observation | None = None) -> dict[str, set[str]] | None:
    """How Day, Month and Year fields may show the date ``text`` says, in lower case; None when it says no date,
    or one that reads two ways ('12/05/1988': 12 May or 5 December proves neither) on a page that does not
    say which (one that writes day first reads it so, as the planner did)."""
    m = _NUMERIC.match(text)
    if m:
        a, b, y = int(m.group("a")), int(m.group("b")), int(m.group("y"))
        day_first = writes_day_first(observation)
        if a != b and a <= 12 and b <= 12 and not day_first:
            return None
        day, month = (a, b) if a > 12 or (b <= 12 and day_first) else (b, a)
        try:
            when: datetime | None = datetime(y, month, day)
        except ValueError:
            return None
    else:
        when = parse_when(text)
    if when is None:
        return None
    out = {
        part: {str(n), f"{n:02d}"}
        for part, n in (("day", when.day), ("month", when.month), ("year", when.year))
    }
    out["month"] |= {calendar.month_name[when.month].lower(), calendar.month_abbr[when.month].lower()}
    return out
