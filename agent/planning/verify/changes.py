"""Change proof for record goals: a change counts only when a save was sent and the record, read again after it
(the page after the redirect), shows every new value; a refusal, a conflict or a page still in preview does not.
An opened record counts when the page's heading or title is the record the goal describes.
"""

from __future__ import annotations

import re
from typing import Any

from agent.planning.offline import parse_goal
from agent.planning.offline.page import is_heading, visible_text
from agent.planning.offline.records.delete import delete_confirmed, deletion_shown
from agent.planning.offline.records.forms import on_record, record_words
from agent.planning.offline.records.goal import RecordGoal
from agent.planning.offline.records.plan import own_save_words
from agent.planning.offline.records.progress import placed_values, reread, saves_sent
from agent.planning.offline.records.proof import identity, read_change
from agent.planning.offline.records.row_actions import acted_at, action_shown, by_row, done_words
from agent.planning.offline.records.which import record_goal_of
from agent.planning.offline.text import proper_names

Proof = tuple[dict[str, Any] | None, str]


def change_part(record: RecordGoal, goal: str) -> dict[str, Any]:
    """The part a record operation adds to the goal's parts (``record``: the goal text it is read from)."""
    if record.op == "open":
        text = f"the {record.noun or 'record'} {record_words(record) or '#' + record.number!r} is open"
    elif record.op == "delete":
        text = f"the {record.noun or 'record'} {identity(record)!r} is deleted and gone from the page after"
    elif by_row(record):
        text = f"the page shows the {record.noun or 'item'} {record_words(record)!r} {done_words(record.verb)[0]}"
    else:
        shown = ", ".join(repr(v) for v in record.values) or record.op
        text = f"the {record.noun or 'record'} read again after saving shows {shown}"
    return {"kind": "change", "step": "", "text": text, "record": goal}


def change_evidence(
    part: dict[str, Any], history: list[dict[str, Any]], observation: dict[str, Any]
) -> Proof:
    record = record_goal_of(parse_goal(str(part.get("record") or "")))
    if record is None:
        return None, f"{part.get('text')}: the goal is no longer read as a record operation"
    url = str(observation.get("url") or "")
    step = int(history[-1].get("step") or 0) if history else 0

    def shown(quote: str) -> Proof:
        evidence = {"part": part.get("id", ""), "kind": "state", "step": step, "url": url, "element": ""}
        return {**evidence, "quote": quote[:300]}, ""

    if record.op == "open":
        unsaid = _unsaid_names(record, observation)
        if on_record(record, observation) and not unsaid:
            return shown(f"heading/title: {observation.get('title') or ''}")
        if unsaid:  # 'My stays' is no page of 'my October stay'
            return None, f"{part.get('text')}: the page's heading and title never say {', '.join(unsaid)}"
        return None, f"{part.get('text')}: the page open is not that record"
    if record.op == "delete":
        quote = deletion_shown(record, observation, identity(record)) if delete_confirmed(history) else ""
        return shown(quote) if quote else (None, f"{part.get('text')}: the page does not show it deleted")
    if by_row(record) and (record.op == "act" or acted_at(record, history) >= 0):
        quote = action_shown(record, observation, history)
        return shown(quote) if quote else (None, f"{part.get('text')}: the page does not show it done")
    own = own_save_words(record)
    if not saves_sent(history, own):
        return None, f"{part.get('text')}: no save was sent"
    reading = read_change(record, observation, placed_values(history), reread(history, own))
    if reading.problem:
        preview = reading.problem == "preview"
        why = "the page is still a preview" if preview else f"the page answered {reading.problem!r}"
        return None, f"{part.get('text')}: {why}"
    if not reading.proven:
        unseen = ", ".join(repr(v) for v in reading.unseen)
        return None, f"{part.get('text')}: the page does not show {unseen}"
    return shown("; ".join(reading.seen))


def _unsaid_names(record: RecordGoal, observation: dict[str, Any]) -> list[str]:
    """The names, numbers and months of the record's description that its page's title and headings never say:
    a heading that shares only the kind of record ('My stays') is not the record ('my October stay')."""
    if record.number:
        return []  # a numbered record is named by its number (on_record looks for it)
    heads = " ".join(
        [str(observation.get("title") or "")]
        + [visible_text(e) for e in observation.get("elements") or [] if is_heading(e)]
    ).lower()
    said = set(re.findall(r"[\w'’-]+", heads))
    joined = re.sub(r"[\s_-]+", "", heads)  # 'CodingStyle' is the page headed 'Coding Style'
    return [
        w for w in proper_names(record_words(record)) if w.lower() not in said and w.lower() not in joined
    ]
