"""Which record operation a goal asks, if any: read from what the grammar cannot read, or from the whole goal
when it describes a record (the grammar would only guess a click or a typing from its words)."""

from __future__ import annotations

import re

from agent.dom.text import FUNCTION_WORDS
from agent.planning.offline.clauses import VERB_START, missed_event, strip_fillers
from agent.planning.offline.grammar import ParsedGoal
from agent.planning.offline.intents import Click, Intent, TypeText
from agent.planning.offline.records.bookings import detailed, read_booking
from agent.planning.offline.records.edits import read_text_edit
from agent.planning.offline.records.goal import RecordGoal, read_record_goal
from agent.planning.offline.records.row_actions import own_details


def record_goal_of(parsed: ParsedGoal) -> RecordGoal | None:
    """The record operation of a goal: in what the grammar cannot read, or in a goal that describes a record
    (the grammar would only guess a click or a typing from its words)."""
    edit = read_text_edit(parsed.goal)
    if edit is not None:
        return edit
    booking = read_booking(parsed.goal)
    if booking is not None and (not parsed.understood or detailed(booking)):
        return booking  # (the grammar reads 'book X for <name>' alone; a day, a time or a phone is a form's)
    whole = read_record_goal(parsed.goal)
    if parsed.understood:
        if whole is not None and whole.op == "open" and _fills_after_opening(parsed.intents):
            return None  # 'open X, then type ... and click ...': opening is one of the steps the grammar read
        if whole is not None and own_details(whole) and _one_plain_change(whole):
            return whole  # 'update my mobile number to X': the grammar would type X wherever it stands
        return whole if whole is not None and (whole.about or whole.number or whole.search) else None
    if not parsed.unknown:
        return None
    part = read_record_goal(". ".join(parsed.unknown))  # (the whole says which: 'cancel it' of a situation)
    pointed = (
        part
        and whole
        and whole.op == part.op
        and whole.about
        and re.fullmatch(rf"|{re.escape(part.noun)}|it|that|this", part.about, re.I)
    )
    found = whole if pointed else part or whole
    missed = missed_event(parsed.goal)
    if found is not None and missed and found.about == missed:  # ('cancel it' of what the user will miss) and
        others = [
            c for c in parsed.unknown
            if (asked := read_record_goal(c) or read_booking(c)) is not None and asked.op != found.op
            or (asked is None and VERB_START.match(strip_fillers(c)) and not missed_event(c))
        ]  # fmt: skip
        return None if others else found  # nothing else asked beside it ('... and book me on the quiz night')
    return found


def _one_plain_change(goal: RecordGoal) -> bool:
    """The goal changes one field to a value that is one ('update my email to x and my phone to y' is two, which
    the record reading would make one change to 'number')."""
    said = goal.said.lower()
    return (
        len(goal.settings) == 1
        and not re.search(r"\band\s+(?:my|the|our)\s+[\w -]{2,30}?\s+(?:to|is\s+now)\s", said)
        and all(len(v) > 1 and v.lower() not in FUNCTION_WORDS for v in goal.values)
    )


def _fills_after_opening(intents: tuple[Intent, ...]) -> bool:
    """Values are typed after the page is opened ('Open the workshop, then type "Dana" into "Your name"'): a
    form on it is filled, not a record looked up (a log-in's typing before it does not count)."""
    opened = next((n for n, i in enumerate(intents) if isinstance(i, Click)), None)
    return opened is not None and any(isinstance(i, TypeText) for i in intents[opened + 1 :])
