"""A page's own lookup form: 'Street name or postcode [Find collection days]' answers for the street typed into
it. A question that names something the page does not mention ('... on Alder Crescent') types that name into
the page's one lookup field and sends it, once, before looking anywhere else."""

from __future__ import annotations

import re

from agent.planning.base import HistoryItem
from agent.planning.offline.intents import TypeText
from agent.planning.offline.messages import main_heading
from agent.planning.offline.page import (
    is_button,
    is_link,
    is_text_field,
    reading_order,
    site_words,
    visible_text,
)
from agent.planning.offline.text import named_phrases, norm, tokens
from agent.planning.offline.values import page_lines
from agent.types import Element, Observation

#: What the button of a lookup form says ('Find collection days', 'Search', 'Check', 'Look up', 'Go').
_LOOKS_UP = re.compile(r"\b(?:find|search|look\s*up|check|show|go|get|view)\b", re.I)
#: Fields that are no lookup: credentials and contact details.
_NOT_LOOKUP = re.compile(r"password|e-?mail|phone|user\s*name|log\s*in|sign\s*in|message|comment", re.I)


def missing_names(question: str, observation: Observation) -> list[str]:
    """The names the question says that this page never does (the site's own name aside)."""
    text = norm(" ".join(page_lines(observation)))
    site = site_words(observation)
    return [
        n for n in named_phrases(question)
        if norm(n) not in text and not set(re.findall(r"[\w'’-]+", n.lower())) <= site
    ]  # fmt: skip


def lookup_field(observation: Observation) -> Element | None:
    """The page's one lookup field: a text field in its content (below its heading) followed by a button that
    looks things up; None when there is none, or more than one such field (a form to fill, not a lookup)."""
    heading = main_heading(observation)
    top = float((heading.get("bbox") or [0, 0, 0, 0])[1]) if heading is not None else 0.0
    elements = reading_order(observation.get("elements") or [])
    fields = [
        n for n, e in enumerate(elements)
        if is_text_field(e) and (e.get("zone") or "main") == "main" and float((e.get("bbox") or [0, 0, 0, 0])[1]) > top
        and (e.get("input_type") or "text") in ("text", "search", "")
    ]  # fmt: skip
    if len(fields) != 1:
        return None
    n = fields[0]
    field = elements[n]
    if _NOT_LOOKUP.search(f"{field.get('name') or ''} {field.get('placeholder') or ''}"):
        return None
    after = next((e for e in elements[n + 1 : n + 3] if is_button(e)), None)
    return field if after is not None and _LOOKS_UP.search(visible_text(after)) else None


def lookup_step(question: str, observation: Observation, history: list[HistoryItem]) -> str | None:
    """The step that looks the question's missing name up with the page's own form (once per name)."""
    field = lookup_field(observation)
    names = missing_names(question, observation) if field is not None else []
    if field is None or not names:
        return None
    label = str(field.get("name") or field.get("placeholder") or "")
    step = TypeText(names[0], label, submit=True).step()
    return None if any(h.get("plan_step") == step for h in history) else step


#: The step :func:`lookup_step` proposes, as the history records it.
_LOOKED_UP = re.compile(r'^Type "(?P<v>[^"]+)" into "[^"]*" and press Enter$')


def lookup_result(question: str, observation: Observation, history: list[HistoryItem]) -> Element | None:
    """Right after the page's own lookup form was sent with a name, the one result link that says the name and
    most of the question's other words: 'Orchard Road, Ashcombe' of two Orchard Roads, for '... on Orchard Road
    in Ashcombe'. None when no result says the name or two say as much."""
    last = history[-1] if history else {}
    sent = _LOOKED_UP.match(str(last.get("plan_step") or ""))
    if sent is None or last.get("status") != "success":
        return None
    name = norm(sent.group("v"))
    others = set(tokens(question)) - set(tokens(name))
    scored = sorted(
        (
            (len(others & set(tokens(visible_text(e)))), n, e)
            for n, e in enumerate(observation.get("elements") or [])
            if is_link(e) and name in norm(visible_text(e))
        ),
        key=lambda s: (-s[0], s[1]),
    )
    if not scored or (len(scored) > 1 and scored[1][0] == scored[0][0]):
        return None
    return scored[0][2]
