"""Reading one field of a record from its page: the property table ('Owned by: | bob'), the definition list
(<dt>Reporter</dt><dd>tomas</dd>) or a 'Label: value' line, chosen by the label that means what the question
asks ('who is assigned' -> 'Owned by', 'who reported' -> 'Reporter', 'the priority of' -> 'Priority').

Labels and values are paired by where they sit (a value right of its label on the same line, or a definition
under its term), so any markup laid out that way works. Lexical and semantic closeness count together, and the
field names that mean the same come from ``records.forms.FIELD_SYNONYMS`` (one home for them).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from agent.planning.offline import page as kinds
from agent.planning.offline.page import rect, role_of, visible_text
from agent.planning.offline.questions import QUESTION_WORDS, Answer
from agent.planning.offline.records.asked import record_question
from agent.planning.offline.records.forms import FIELD_MATCH, on_record, with_synonyms
from agent.planning.offline.semantic import blended
from agent.planning.offline.text import clip, similarity
from agent.types import Element, Observation

_LABEL_TAGS = frozenset({"th", "dt"})
_LABEL_ROLES = frozenset({"rowheader", "columnheader", "term"})
#: 'Priority: major' as one element's text (a list item, a paragraph, a span).
_INLINE = re.compile(r"^(?P<l>[A-Za-z][\w ./-]{0,30}?)\s*:\s+(?P<v>\S.{0,80})$")
#: Words a question uses around the field it asks for, never the field itself.
_NOT_FIELD = QUESTION_WORDS | frozenset("to by at with its it their set currently now".split())
_RECORD_PART = re.compile(
    r"\b(?:the|a|that|this)\s+[a-z][\w-]*(?:\s+[a-z][\w-]*)?\s+(?:about|where|regarding|concerning|on|for)\s+.+$"
    r"|\b(?:ticket|issue|bug|item|record|order|invoice|case|request|booking|task|milestone|release|version)\s+"
    r"#?[\w.-]*\d[\w.-]*.*$|#\d+.*$",
    re.I,
)


@dataclass(frozen=True)
class Field:
    """One label of a record and the value the page shows for it."""

    label: str
    value: str


def _label_text(el: Element) -> str:
    return visible_text(el).strip().rstrip(":").strip()


def _is_label(el: Element) -> bool:
    tag = (el.get("tag") or "").lower()
    text = visible_text(el).strip()
    if not text or len(text) > 40 or kinds.is_link(el) or kinds.is_button(el):
        return False
    return tag in _LABEL_TAGS or role_of(el) in _LABEL_ROLES or (text.endswith(":") and len(text) <= 30)


def _is_value(el: Element) -> bool:
    if kinds.is_text_field(el) or kinds.is_select(el) or kinds.is_checkable(el) or kinds.is_button(el):
        return False
    return bool(visible_text(el).strip()) and not kinds.is_heading(el)


def _middle(box: tuple[float, float, float, float]) -> float:
    return box[1] + box[3] / 2


def _beside(label: Element, boxed: list[tuple[Element, tuple[float, float, float, float]]]) -> Element | None:
    """The nearest element right of the label on its line, unless another label comes first."""
    box = rect(label)
    if box is None:
        return None
    slack = max(6.0, box[3] / 2)
    right = [
        (b[0], e)
        for e, b in boxed
        if e is not label and abs(_middle(b) - _middle(box)) <= slack and b[0] >= box[0] + box[2] - 2
    ]
    if not right:
        return None
    _, first = min(right, key=lambda p: p[0])
    return None if _is_label(first) or not _is_value(first) else first


def _below(label: Element, boxed: list[tuple[Element, tuple[float, float, float, float]]]) -> Element | None:
    """The definition under a term: the nearest element just below it that starts near its left edge."""
    box = rect(label)
    if box is None:
        return None
    under = [
        (b[1] - (box[1] + box[3]), e)
        for e, b in boxed
        if e is not label and -2 <= b[1] - (box[1] + box[3]) <= max(24.0, box[3]) and abs(b[0] - box[0]) <= 48
    ]
    if not under:
        return None
    _, first = min(under, key=lambda p: p[0])
    return None if _is_label(first) or not _is_value(first) else first


def record_fields(observation: Observation) -> list[Field]:
    """Every label of the page with the value shown beside it (a property table, a definition list, a
    'Label: value' line), in reading order."""
    elements = [
        e for e in observation.get("elements") or [] if (e.get("zone") or "main") in ("main", "dialog", "")
    ]
    boxed = [(e, b) for e in elements if (b := rect(e)) is not None]
    fields: list[Field] = []
    for el, _ in boxed:
        text = visible_text(el).strip()
        if _is_label(el):
            tag = (el.get("tag") or "").lower()
            value = _beside(el, boxed)
            if value is None and (tag == "dt" or role_of(el) == "term"):
                value = _below(el, boxed)
            if value is not None:
                fields.append(Field(_label_text(el), visible_text(value).strip()))
        elif not kinds.is_link(el) and not kinds.is_button(el) and (m := _INLINE.match(text)):
            fields.append(Field(m.group("l").strip(), m.group("v").strip()))
    return fields


def asked_field(question: str) -> str:
    """The words of a question that name the field it asks for ('who is assigned to the ticket about X' ->
    'assigned'; 'what is the priority of ticket #5' -> 'priority')."""
    q = (question or "").strip().rstrip("?.! ")
    cut = _RECORD_PART.sub(" ", q)
    words = [w for w in re.findall(r"[a-z][\w'-]*", cut.lower()) if w not in _NOT_FIELD]
    return " ".join(words)


def field_for(question: str, fields: list[Field]) -> tuple[Field, float] | None:
    """The field whose label means what the question asks for, and how well it matches (None below the bar)."""
    asked = asked_field(question)
    if not asked or not fields:
        return None
    phrases = list(
        dict.fromkeys([*with_synonyms(asked), *(s for w in asked.split() for s in with_synonyms(w))])
    )
    labels = [f.label for f in fields]
    lexical = [max(similarity(p, label) for p in phrases) for label in labels]
    scores = blended(asked, labels, lexical, weight=0.9)
    best = max(range(len(fields)), key=lambda i: scores[i])
    return (fields[best], scores[best]) if scores[best] >= FIELD_MATCH else None


def record_field_answer(question: str, observation: Observation) -> Answer | None:
    """The answer to a question about a field of the record this page shows ('who reported the ticket about
    X' on that ticket's page), with the label and value as evidence; None when the page is not that record or
    no label here means what the question asks."""
    record = record_question(question)
    if record is None or not on_record(record, observation):
        return None
    fields = record_fields(observation)
    found = field_for(question, fields)
    if found is None:
        return None
    field, _ = found
    if len({f.value for f in fields if f.label == field.label}) > 1:
        return None  # the label repeats with other values: the page shows several records (a roadmap, a list)
    heading = next(
        (visible_text(e) for e in observation.get("elements") or [] if kinds.is_heading(e)),
        observation.get("title") or "",
    )
    return Answer(
        True,
        field.value,
        f"{field.label}: {field.value}",
        section=clip(heading, 120),
        source=str(observation.get("url") or ""),
    )


__all__ = ["Field", "asked_field", "field_for", "record_field_answer", "record_fields"]
