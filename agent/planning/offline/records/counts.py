"""Counting records of one person in one state: 'how many open tickets does alice have?' is answered on a
listing filtered for it. The listing's filter form is filled by what its fields are called (the person goes
into the field named like 'Owner' / 'Assignee', the state is the checkbox or option of that name), sent, and the
count is the one the page states ('(4 matches)') or, when it states none, the rows that name the person.

Nothing is counted on a page that is not filtered that way: a number elsewhere on a page answers nothing.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from agent.planning.base import HistoryItem, PlanRequest, PlanResult
from agent.planning.offline import page as kinds
from agent.planning.offline.intents import Click, SelectOption, SetCheck, TypeText
from agent.planning.offline.page import attr, reading_order, visible_text
from agent.planning.offline.records.forms import (
    FIELD_MATCH,
    best_match,
    field_label,
    form_fields,
    with_synonyms,
)
from agent.planning.offline.semantic import blended
from agent.planning.offline.text import norm, similarity, stem
from agent.types import Element, Observation

_P = r"(?P<p>[A-Za-z][\w.@-]*)"
_ASKED = re.compile(
    r"^\s*how\s+many\s+(?P<n>[a-z][\w\s-]*?)\s+(?:"
    r"(?:does|do|did)\s+" + _P + r"\s+(?P<v>have|own|hold|report|reported|file|filed|open|opened|work\s+on)"
    r"|(?:are|were|is)\s+(?P<v2>assigned\s+to|owned\s+by|reported\s+by|filed\s+by|opened\s+by)\s+"
    + _P.replace("p>", "p2>")
    + r")\s*\??\s*$",
    re.I,
)
#: Which field a person goes into, by the verb that relates them to the records.
_ROLES = {"report": "reporter", "file": "reporter", "open": "reporter"}
_SEND = re.compile(r"\b(?:update|apply|filter|search|go|show|refresh|submit|find|list)\b", re.I)
_STATED = r"\b(?P<c>\d+)\s+(?:match(?:es|ing)?|results?|records?|items?|rows?|hits?|{noun}s?)\b"


@dataclass(frozen=True)
class CountAsk:
    """A count of records (``noun``) in ``states`` whose ``role`` field names ``person``."""

    noun: str
    states: tuple[str, ...]
    person: str
    role: str


def count_ask(question: str) -> CountAsk | None:
    m = _ASKED.match(question or "")
    if m is None:
        return None
    words = m.group("n").lower().split()
    verb = (m.group("v") or m.group("v2") or "").lower()
    role = next((r for v, r in _ROLES.items() if verb.startswith(v) or verb.startswith(f"{v}ed")), "owner")
    if re.match(r"(?:reported|filed|opened)\s+by", verb):
        role = "reporter"
    return CountAsk(stem(words[-1]), tuple(words[:-1]), m.group("p") or m.group("p2"), role)


def _person_field(ask: CountAsk, fields: list[Element]) -> Element | None:
    texts = [e for e in fields if kinds.is_text_field(e) or kinds.is_select(e)]
    return next((e for w in with_synonyms(ask.role) if (e := best_match(w, texts)) is not None), None)


def _state_fills(state: str, fields: list[Element]) -> list[str] | None:
    """Steps that leave only ``state`` chosen: its checkbox ticked (the others of its group cleared), or its
    option selected; None when no field offers it."""
    boxes = [e for e in fields if kinds.is_checkable(e)]
    named = [e for e in boxes if similarity(state, field_label(e)) >= 0.9]
    if named:
        box = named[0]
        group = [
            e for e in boxes if attr(e, "name") and attr(e, "name") == attr(box, "name") and e is not box
        ]
        steps = [] if box.get("checked") else [SetCheck(field_label(box)).step()]
        return steps + [SetCheck(field_label(e), False).step() for e in group if e.get("checked")]
    for el in fields:
        if kinds.is_select(el) and not kinds.is_text_field(el):
            option = next((o for o in el.get("options") or [] if similarity(state, o) >= 0.9), "")
            if option:
                current = norm(str(el.get("value") or ""))
                return [] if current == norm(option) else [SelectOption(option, field_label(el)).step()]
    return None


def _send_button(observation: Observation, after: Element) -> Element | None:
    y = (after.get("bbox") or [0, 0, 0, 0])[1]
    buttons = [
        e
        for e in reading_order(observation.get("elements") or [])
        if kinds.is_button(e) and _SEND.search(visible_text(e) or field_label(e))
        and (e.get("bbox") or [0, 0, 0, 0])[1] >= y - 40
    ]  # fmt: skip
    return buttons[0] if buttons else None


def _stated(ask: CountAsk, observation: Observation) -> str:
    rx = re.compile(_STATED.format(noun=re.escape(ask.noun)), re.I)
    lines = str(observation.get("page_text") or "").splitlines()
    return next((m.group("c") for line in lines if (m := rx.search(line))), "")


def _listing(ask: CountAsk, observation: Observation, tried: set[str]) -> Element | None:
    """A link to a listing or query of these records ('View Tickets', 'Custom query')."""
    links = [
        e for e in observation.get("elements") or []
        if kinds.is_link(e) and visible_text(e) and len(visible_text(e)) <= 30 and visible_text(e) not in tried
    ]  # fmt: skip
    names = [visible_text(e) for e in links]
    phrases = (f"{ask.noun}s", "query", "filter", "report")
    lexical = [max(similarity(p, n) for p in phrases) for n in names]
    scores = blended(f"list of {ask.noun}s", names, lexical, weight=0.8)
    ranked = sorted(zip(scores, range(len(links)), strict=True), reverse=True)
    return links[ranked[0][1]] if ranked and ranked[0][0] >= FIELD_MATCH else None


def _tried(history: list[HistoryItem]) -> set[str]:
    out = set()
    for h in history:
        m = re.match(r'^Click (?:the )?["“](?P<t>.+?)["”]', str(h.get("plan_step") or ""))
        if m and h.get("status") == "success":
            out.add(m.group("t"))
    return out


def _result(**fields: Any) -> PlanResult:
    return {"proposed_actions": [], "task_complete": False, "usage": {}, **fields}  # type: ignore[typeddict-item]


def plan_count(question: str, request: PlanRequest) -> PlanResult | None:
    """Steps towards, or the answer of, a count of one person's records in one state; None when the question
    is not one or this site offers no way to filter for it (the general question flow then has it)."""
    ask = count_ask(question)
    if ask is None:
        return None
    observation: Observation = request.get("observation") or {}
    history = list(request.get("history") or [])
    raw = {"count": {"noun": ask.noun, "states": list(ask.states), "person": ask.person, "role": ask.role}}
    fields = form_fields(observation)
    person = _person_field(ask, fields)
    if person is None:
        link = _listing(ask, observation, _tried(history))
        if link is None:
            return None
        return _result(proposed_actions=[Click(visible_text(link), "link").step()], raw=raw,
                       reasoning=f"a listing of {ask.noun}s can be filtered")  # fmt: skip
    states = [_state_fills(s, fields) for s in ask.states]
    if any(s is None for s in states):
        return None  # a state the form cannot filter by: counting without it would count too much
    steps = [s for group in states for s in group or []]
    if norm(str(person.get("value") or "")) != norm(ask.person):
        steps.insert(0, TypeText(ask.person, field_label(person)).step())
    sent = any(str(h.get("plan_step") or "").startswith("Click") and h.get("status") == "success"
               for h in history[-3:])  # fmt: skip
    if not steps and sent:
        stated = _stated(ask, observation)
        if not stated:
            return None
        label = field_label(person)
        return _result(task_complete=True, success=True, final_answer=stated, raw=raw,
                       reasoning=f"the listing filtered by {label} = {ask.person} states {stated}")  # fmt: skip
    button = _send_button(observation, person)
    if button is None:
        return None
    steps.append(Click(field_label(button) or visible_text(button), "button").step())
    return _result(proposed_actions=steps, raw=raw, reasoning="filter the listing for the person and state")
