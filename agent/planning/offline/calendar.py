"""Date pickers: a read-only date field filled through the calendar it opens.

A date goes in the way a person puts it there: click the field to open its calendar, step month by month to the
date's month (the month shown is read from the page text, e.g. 'June 2021'), then click the day. Nothing here
knows a picker library: a calendar is a run of clickable day numbers 1, 2, ... 28 or more, one month name with a
year on the page, and controls named previous / next (or drawn as arrows).
"""

from __future__ import annotations

import re
from datetime import datetime

from agent.planning.base import HistoryItem
from agent.planning.offline.dates import parse_when, value_kind
from agent.planning.offline.intents import Click, Intent, SelectOption, TypeText
from agent.planning.offline.page import attr, is_clickable, is_text_field, labels, reading_order, visible_text
from agent.planning.offline.values import page_lines
from agent.types import Action, Element, Observation

MONTHS = "january february march april may june july august september october november december".split()
#: A date more months away than this is not stepped to one month at a time.
MAX_MONTH_STEPS = 24

_MONTH_YEAR = re.compile(r"\b(" + "|".join(MONTHS) + r")\s*,?\s*(\d{4})\b", re.I)
_PREVIOUS = re.compile(r"^(?:prev(?:ious)?(?:\s+month)?|back|earlier|[‹«<◀←⟨])$", re.I)
_NEXT = re.compile(r"^(?:next(?:\s+month)?|forward|later|[›»>▶→⟩])$", re.I)


def date_of(intent: Intent) -> datetime | None:
    """The calendar date a select/type step puts into a field (None when its value is not a date)."""
    text = (
        intent.option
        if isinstance(intent, SelectOption)
        else intent.text
        if isinstance(intent, TypeText)
        else ""
    )
    if not text or value_kind(text) != "date":
        return None
    return parse_when(text)


def shown_month(observation: Observation) -> tuple[int, int] | None:
    """(year, month) of the one calendar month the page shows, read from short lines such as 'June 2021'."""
    found = {
        (int(year), MONTHS.index(name.lower()) + 1)
        for line in page_lines(observation)
        if len(line) <= 40
        for name, year in _MONTH_YEAR.findall(line)
    }
    return found.pop() if len(found) == 1 else None


def day_cells(observation: Observation) -> dict[int, Element]:
    """The calendar's day cells by day number: the first run of clickable 1, 2, 3 ... (28 or more) in reading
    order, so the days of a neighbouring month shown around it are left out."""
    days = [
        e
        for e in reading_order(observation.get("elements") or [])
        if is_clickable(e) and not is_text_field(e)
    ]
    numbers = [visible_text(e).strip() for e in days]
    for start, text in enumerate(numbers):
        if text != "1":
            continue
        run: dict[int, Element] = {}
        for offset, el in enumerate(days[start:], 1):
            if numbers[start + offset - 1] != str(offset):
                break
            run[offset] = el
        if len(run) >= 28:
            return run
    return {}


def _month_control(observation: Observation, forward: bool) -> Element | None:
    pattern = _NEXT if forward else _PREVIOUS
    for el in reading_order(observation.get("elements") or []):
        names = [visible_text(el), attr(el, "title"), attr(el, "aria-label")]
        if is_clickable(el) and not el.get("disabled") and any(pattern.match(n.strip()) for n in names if n):
            return el
    return None


def _step_name(el: Element) -> str:
    """A name a click step can ground on: the first label with a letter or digit in it."""
    return next((text for text, _weight in labels(el) if re.search(r"\w", text)), "")


def day_click(observation: Observation, value: str) -> tuple[Element, str] | None:
    """The day cell to click when the calendar on the page shows the month of the date ``value``."""
    when = parse_when(value) if value_kind(value) == "date" else None
    if when is None or shown_month(observation) != (when.year, when.month):
        return None
    cell = day_cells(observation).get(when.day)
    return (cell, f"{when:%B} {when.day}, {when.year}") if cell is not None else None


def picker_step(
    intent: Intent, observation: Observation, planned: Action | None, history: list[HistoryItem]
) -> str | None:
    """The step that brings a date field's calendar to the date's month: open the calendar (twice at most), or
    go one month back or forward. None when the step can go ahead as it is (``planned`` is what it would do
    now) or when there is no calendar to use."""
    when = date_of(intent)
    if when is None or day_click(
        observation, intent.option if isinstance(intent, SelectOption) else intent.text
    ):
        return None
    elements = observation.get("elements") or []
    if planned is not None and not day_cells(observation):
        target = next((e for e in elements if e.get("id") == planned.get("element_id")), None)
        if target is None or target.get("editable") is not False or planned["action"] == "click":
            return None  # the step grounds on a field that takes the value
    shown = shown_month(observation)
    if shown is not None and day_cells(observation):
        gap = (when.year - shown[0]) * 12 + (when.month - shown[1])
        control = _month_control(observation, forward=gap > 0) if 0 < abs(gap) <= MAX_MONTH_STEPS else None
        name = _step_name(control) if control is not None else ""
        return Click(name).step() if name else None
    closed = [
        e for e in elements if is_text_field(e) and e.get("editable") is False and not e.get("disabled")
    ]
    if len(closed) != 1 or not _step_name(closed[0]):
        return None
    step = Click(_step_name(closed[0]), role="textbox").step()
    return step if sum(1 for h in history if h.get("plan_step") == step) < 2 else None
