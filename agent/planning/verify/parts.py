"""Goal parts: the goal broken once into conditions that recorded evidence can prove or not.

Kinds: ``answer`` (a question to answer from the page), ``field`` (a field set to a value), ``option`` (an
option chosen in a dropdown), ``check`` (a box ticked or cleared), ``choose`` (an item picked), ``click`` (a
control activated), ``submit`` / ``login`` (a form sent; a login is proven by the page after it),
``destination`` (a place to end up), ``search`` (results for a query), ``step`` (a plain step such as a
scroll) and ``task`` (a clause the offline grammar does not understand; a model planner may still carry it out).
The offline parser (:func:`agent.planning.offline.parse_goal`) does the reading; nothing here knows any site.
"""

from __future__ import annotations

import math
import re
from typing import Any

from typing_extensions import TypedDict

from agent.dom.text import GOAL_STOPWORDS
from agent.evidence import keywords
from agent.planning.offline import parse_goal
from agent.planning.offline.intents import (
    Ask,
    Choose,
    Click,
    GoBack,
    GoForward,
    Intent,
    Navigate,
    PressKey,
    Search,
    SelectOption,
    SetCheck,
    Submit,
    TypeText,
    is_secret_field,
)
from agent.planning.offline.items import qualifiers
from agent.planning.offline.questions import analyze
from agent.planning.offline.records.plan import leading_intents
from agent.planning.offline.records.which import record_goal_of
from agent.planning.offline.tables import soonest_asked
from agent.planning.offline.text import NOT_A_NAME, TIME_IDIOM, proper_names
from agent.planning.verify.changes import change_part


class GoalPart(TypedDict, total=False):
    """One checkable condition of the goal (plain values: it lives in graph state)."""

    id: str  # p1, p2, ... in goal order
    kind: (
        str  # answer | field | option | check | choose | click | submit | login | destination | search | ...
    )
    text: str  # what must be shown, for people ("the field "email" holds ada@example.com")
    step: str  # the offline plan step that carries it out (matches history items' plan_step)
    target: str  # the element or place the goal names
    value: str  # the value to type / option to choose / query / URL / username for a login
    on: bool  # check: ticked (True) or cleared (False)
    secret: bool  # the value must never be shown
    question: str  # answer: the question
    answer_kind: str  # answer: count | list | message | title | url | heading | attribute | generic | ...
    subject: list[str]  # answer: words the block holding the answer must name
    need: int  # answer: how many subject words are enough
    must: list[str]  # answer: subject words that must be among them (the subject's own name)
    value_type: str  # answer: the kind of value asked for ("number", "date", ... or "")
    attr: str  # answer: the attribute asked for ("balance" of 'how much do I owe')
    entity: str  # answer: whose attribute ('' when the question names no one's)
    noun: str  # answer: what a count counts ("reviews")
    filtered: bool  # answer: a count of only some of the items listed (a price limit, a qualifier)
    action: str  # step: the browser action that carries it out (press_key, go_back, go_forward)
    describes: bool  # the goal describes a value instead of giving it: no typed text can prove it
    record: str  # change: the goal text its record operation is read from (verify/changes.py)


_DESCRIPTION = re.compile(
    r"^(?:a|an|any|some|one|the)\s+(?:\w+\s+){0,2}?(?:that|which|who|whose|where)\s+\w+", re.I
)
_DESCRIBED = re.compile(_DESCRIPTION.pattern.lstrip("^"), re.I)  # the same, anywhere in a clause
_AUXILIARIES = frozenset(
    "do does did can could should would will shall may might must has have had am he she him his they them".split()
)  # (and the pronouns that stand for a subject named elsewhere: 'what did Biscuit weigh when he was weighed')
_USER_FIELD = re.compile(r"user|e-?mail|login|account|name", re.I)
_LOGIN_WORDS = re.compile(r"\b(?:log\s*-?\s*in|sign\s*-?\s*in|login|signin)\b", re.I)
_QUESTION = re.compile(
    r"^(?:what|which|who|whom|whose|when|where|why|how|tell|find|list|name|count|is|are|does)\b", re.I
)
_CLAUSE_SPLIT = re.compile(
    r"\s*(?:[;\n]|,\s*(?:and\s+)?(?:then\s+)?|\band\s+then\b|\bthen\b|\band\b)\s*", re.I
)


#: The period a price is asked for ('for a whole week', 'per night'): its class, checked apart, not its subject.
_PERIOD = re.compile(
    r"\b(?:for\s+)?(?:(?:a|an|one|the|per|each|every)\s+)?(?:(?:whole|full|entire)\s+)?(?:day|night|week|fortnight|"
    r"month|year)\b|\b(?:daily|weekly|monthly|yearly|annually|nightly)\b",
    re.I,
)


#: Words that pick the next of dated rows, which no block needs to say ('my next invoice').
_PICKED_BY_DAY = re.compile(r"\b(?:next|upcoming|soonest|earliest)\b", re.I)


def _subject(text: str) -> list[str]:
    """The words a block must name: the phrase's keywords without question and filler words ('about',
    "what's") or a possessive's 's, which no block about the subject needs to say."""
    out: list[str] = []
    for said in keywords(text):
        said = re.sub(r"['’]s$", "", said)
        measure = re.fullmatch(r"(\d+(?:\.\d+)?)([a-z]{1,3})", said)  # '20kg': a page may write '20 kg'
        for word in measure.groups() if measure else (said,):
            if word and word not in GOAL_STOPWORDS and word not in _AUXILIARIES and word not in out:
                out.append(word)
    return out


def _need(kind: str, subject: list[str], must: list[str]) -> int:
    """How many subject words a block must name: half of a question's, two thirds of an entity's (all of a short
    one) and never more than its names when it has any."""
    if kind == "generic":
        return math.ceil(len(subject) / 2)
    need = len(subject) if len(subject) <= 2 else math.ceil(len(subject) * 2 / 3)
    return min(need, len(must)) if must else need


def without_site(part: GoalPart, site: set[str]) -> tuple[list[str], list[str], int] | None:
    """(subject, must, need) of an answer part without the site's own name ('at Kestrel Valley College' asked on
    the college's site), None when the subject does not name the site or names nothing else."""
    subject = list(part.get("subject") or [])
    kept = [w for w in subject if w not in site]
    kind = str(part.get("answer_kind") or "")
    if not kept or len(kept) == len(subject) or kind not in ("attribute", "generic") or not part.get("need"):
        return None
    must = [w for w in part.get("must") or [] if w not in site]
    return kept, must, max(1, _need(kind, kept, must))


def answer_part(question: str) -> GoalPart:
    """An answer part: what kind of answer, and the subject its block must name."""
    query = analyze(question)
    subject: list[str] = []
    must: list[str] = []
    need = 0
    if query.kind == "attribute":
        if query.entity:
            entity = _PERIOD.sub(" ", query.entity)
            if soonest_asked(question):  # ('my next invoice': the row is picked by its day)
                entity = _PICKED_BY_DAY.sub(" ", entity)
            subject = _subject(entity) or _subject(query.entity)
            # 'the Eastside branch': its name must be named, the kind of thing it is may be called otherwise
            must = [w for w in _subject(" ".join(proper_names(query.entity))) if w in subject]
            need = _need("attribute", subject, must)
        else:
            subject = _subject(query.attr)
            need = min(1, len(subject))
    elif query.kind == "generic":
        subject = _subject(TIME_IDIOM.sub(" ", question))
        need = _need("generic", subject, [])
        # 'When are Dr Helen Okafor's office hours?': a block naming 'Dr Rhys Pemberton' and 'office hours' is
        # another's; the name asked about must be named (not the first word, nor a day or month)
        named = [w for w in proper_names(question.split(" ", 1)[-1]) if not NOT_A_NAME.match(w)]
        must = [w for w in _subject(" ".join(named)) if w in subject]
    return {
        "kind": "answer",
        "text": f"an answer to {question!r} quoted from the page",
        "question": question,
        "answer_kind": query.kind,
        "subject": subject,
        "need": need,
        "must": must,
        "value_type": query.value_type,
        "attr": query.attr,
        "entity": query.entity,
        "noun": query.noun,
        "filtered": bool(query.price_filter or qualifiers(query.noun)),
    }


def _described_part(text: str, step: str) -> GoalPart:
    """ "an item that starts with An": the goal describes a value; typing the description proves nothing."""
    described = f"a value that is {text!r} (the goal describes it, it does not give it)"
    return {**_part("task", step, described, target=text), "describes": True}


def _part(kind: str, step: str, text: str, **fields: Any) -> GoalPart:
    """A part of ``kind`` carried out by ``step``, shown to people as ``text``."""
    return {"kind": kind, "step": step, **fields, "text": text}


def _intent_part(intent: Intent, login: bool, username: str) -> GoalPart | None:
    step = intent.step()
    if isinstance(intent, Ask):
        return {**answer_part(intent.question), "step": step}
    if isinstance(intent, TypeText):
        secret = is_secret_field(intent.field)
        shown = "•" * 6 if secret else intent.text
        if _DESCRIPTION.match(intent.text):
            return _described_part(intent.text, step)
        text = f"the {intent.field or 'field'} holds {shown}"
        return _part("field", step, text, target=intent.field, value=intent.text, secret=secret)
    if isinstance(intent, SelectOption):
        text = f"{intent.option!r} is selected" + (f" in {intent.field!r}" if intent.field else "")
        return _part("option", step, text, target=intent.field, value=intent.option)
    if isinstance(intent, SetCheck):
        text = f"{intent.target!r} is {'ticked' if intent.on else 'cleared'}"
        return _part("check", step, text, target=intent.target, on=intent.on)
    if isinstance(intent, Choose):
        return _part("choose", step, f"{intent.target!r} is chosen", target=intent.target)
    if isinstance(intent, Submit) or (
        isinstance(intent, Click) and login and _LOGIN_WORDS.search(intent.target)
    ):
        if login:
            return _part("login", step, "the page after the login shows a signed-in user", value=username)
        return _part("submit", step, "the form was sent and the page answered without an error")
    if isinstance(intent, Click):
        what = intent.target or f"{intent.noun or 'result'} #{intent.ordinal}"
        return _part("click", step, f"clicking {what!r} changed the page", target=intent.target)
    if isinstance(intent, Navigate):
        return _part("destination", step, f"the browser reached {intent.url}", value=intent.url)
    if isinstance(intent, Search):
        return _part("search", step, f"results for {intent.query!r} are shown", value=intent.query)
    if isinstance(intent, PressKey | GoBack | GoForward):
        action = {PressKey: "press_key", GoBack: "go_back", GoForward: "go_forward"}[type(intent)]
        return _part("step", step, f"{step} ran", action=action)
    return None  # scrolling, waiting, dismissing a banner: means to an end, not conditions of the goal


def _clause_parts(clause: str) -> list[GoalPart]:
    """Parts for a clause the grammar did not understand: each sub-clause must show an effect."""
    parts: list[GoalPart] = []
    for piece in (p.strip(" .") for p in _CLAUSE_SPLIT.split(clause)):
        if not piece:
            continue
        if _LOGIN_WORDS.match(piece):
            parts.append(_part("login", "", f"{piece!r}: the page shows a signed-in user", value=""))
        elif _QUESTION.match(piece):
            parts.append({**answer_part(piece), "step": ""})
        elif keywords(piece):
            parts.append(_part("task", "", f"{piece!r} was carried out", target=piece))
    return parts


_TAIL = re.compile(
    r"(?:,|;|\band\b|\bthen\b)\s*(?:then\s+)?(?P<tail>[a-z][\w-]*\b.*?)(?=(?:,|;|\band\b|\bthen\b)|$)", re.I
)


def dropped_clauses(goal: str, intents: list[Intent]) -> list[str]:
    """Clauses after 'and' / 'then' / a comma whose first word no intent covers: a reading that swallowed
    "... with password pw1 and create a page" must not lose "create a page"."""
    covered = " ".join(
        [i.step().lower() for i in intents] + [str(v).lower() for i in intents for v in vars(i).values()]
    )
    dropped = []
    for match in _TAIL.finditer(goal):
        tail = match.group("tail").strip(" .")
        first = tail.split()[0].lower() if tail.split() else ""
        if first and keywords(first) and first not in covered:
            dropped.append(tail)
    return dropped


def goal_parts(goal: str) -> list[GoalPart]:
    """The goal's checkable parts, in goal order (empty for an empty goal)."""
    parsed = parse_goal(goal)
    record = record_goal_of(parsed)
    intents = list(parsed.intents) if record is None else leading_intents(parsed, record)
    login = any(isinstance(i, Submit) and i.purpose == "login" for i in intents) or (
        any(isinstance(i, TypeText) and is_secret_field(i.field) for i in intents)
        and any(isinstance(i, Click) and _LOGIN_WORDS.search(i.target) for i in intents)
    )
    username = next(
        (
            i.text
            for i in intents
            if isinstance(i, TypeText) and _USER_FIELD.search(i.field) and not is_secret_field(i.field)
        ),
        "",
    )
    parts: list[GoalPart] = []
    clicked_login = re.search(
        r"\b(?:click|tap|press|hit|select|choose)\s+(?:on\s+)?(?:the\s+)?[\"']?(?:log|sign)", goal, re.I
    )
    for intent in intents:
        if isinstance(intent, Click) and _LOGIN_WORDS.fullmatch(intent.target.strip()) and not clicked_login:
            # 'log in and create a page': logging in is the step, a signed-in page its proof
            parts.append(
                _part("login", intent.step(), f"{intent.target!r}: the page shows a signed-in user", value="")
            )
            continue
        part = _intent_part(intent, login, username)
        if part is not None:
            parts.append(part)
    if record is not None:
        parts.append(change_part(record, goal))  # type: ignore[arg-type]
    for clause in parsed.unknown if record is None else ():
        if clause == "(empty goal)":
            continue
        if _DESCRIBED.search(clause):
            parts.append(_described_part(clause, ""))
        else:
            parts.extend(_clause_parts(clause))
    if intents and record is None:
        unread = {" ".join(c.lower().split()) for c in parsed.unknown}
        asked = goal
        for situation in parsed.context:  # 'I'm 23 and want to hire a car': what the question is asked in
            asked = asked.replace(situation, " ")
        for clause in dropped_clauses(asked, intents):
            if " ".join(clause.lower().split()) not in unread:  # (already a part of its own)
                parts.extend(_clause_parts(clause))
    for n, part in enumerate(parts, start=1):
        part["id"] = f"p{n}"
    return parts


def describe_parts(parts: list[GoalPart]) -> list[dict[str, Any]]:
    """The parts as shown in records (secret values masked)."""
    shown = []
    for part in parts:
        item = {k: v for k, v in part.items() if k in ("id", "kind", "text")}
        shown.append(item)
    return shown
