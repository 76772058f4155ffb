"""Cutting a goal into command clauses.

The goal is cut at hard separators ("then", ";", newlines, sentence ends) and at soft ones ("and", commas) only
where the next words start a new command, so "search for salt and pepper" stays one search.
"""

from __future__ import annotations

import re

from agent.planning.offline.form_rules import parse_type
from agent.planning.offline.intents import TypeText
from agent.planning.offline.text import SENTENCE_BREAK

#: Where a request starts after the situation in one sentence: "Clover's teeth seem fine now so please cancel ...",
#: "... yet - please renew the DVD".
REQUEST_AFTER_SITUATION = re.compile(
    r"\s*,?\s+(?:so|[-\u2013\u2014])\s+(?=(?:please|can\s+you|could\s+you|would\s+you|(?:i|we)\s+(?:need|want|would\s+like|['’]d\s+like)"
    r"\s+(?:you\s+)?to)\b)",
    re.I,
)

#: What the user says they will miss ('I won't make Saturday's yoga', 'I can't make the late talk on 10 December
#: any more', 'we'll have to miss the quiz night'): the booking that 'cancel it' or 'that booking' is about.
_MISSED = re.compile(
    r"\b(?:(?:won['’]?t|will\s+not|can['’]?t|cannot|can\s+no\s+longer|could\s*n['’]?t|no\s+longer|(?:am|['’]m)\s+"
    r"(?:not\s+able|unable)\s+to)\s+(?:be\s+able\s+to\s+)?(?:make(?:\s+it\s+to)?|attend|come\s+to|go\s+to|get\s+to|"
    r"be\s+at)|(?:i|we)(?:['’]ll|\s+will)\s+(?:have\s+to\s+)?miss)\s+(?P<x>[^,;.!?\x00]+?)"
    r"(?=\s+(?:any\s*more|after\s+all|now|this\s+time|so|and|but|because|as)\b|\s*[,;.!?]|$)",
    re.I,
)

#: A request that names its record only by pointing back: 'cancel it', 'that booking for me', 'my place for it'.
POINTS_BACK = re.compile(
    r"^(?:(?:my|our|that|this|the)\s+(?:booking|place|reservation|ticket|appointment|session|order)(?:\s+for\s+"
    r"(?:it|that|this))?|it|that|this)(?:\s+(?:please|now|too|for\s+(?:me|us)))*$",
    re.I,
)


def missed_event(text: str) -> str:
    """The one event the user says they will miss, as they name it ('' when they name none, or several)."""
    m = _MISSED.search(text or "")
    x = m.group("x").strip() if m else ""
    return "" if re.fullmatch(r"it|that|this|them", x, re.I) or re.search(r"\s(?:or|and)\s|,", x) else x


_HARD_SPLIT = re.compile(
    r"""\s*[\n;]+\s*
      | \s*,?\s*\b(?:and\s+then|then|after\s+that|afterwards?|after\s+which|and\s+finally|finally|lastly
                   |subsequently|once\s+(?:that\s+is|that's|it\s+is|it's)\s+done)\b[\s,:]*
      | """
    + SENTENCE_BREAK
    + r"""(?=\S)
      | \s*,\s*(?:next|now)\s*,\s*""",
    re.I | re.X,
)


#: Greetings before a request and thanks after it: 'Hi, could you ...', 'Hello there! ...', '... Thanks!'.
_GREETING = re.compile(
    r"^\s*(?:hi|hello|hey|hiya|greetings|good\s+(?:morning|afternoon|evening))(?:\s+(?:there|team|all|folks))?"
    r"(?:\s*[,!.:;]+|\s+[\u2013\u2014-]+)\s+",
    re.I,
)  # (never 'Hi-Fi Corner' or 'Hi-vis vests')
_THANKS = re.compile(
    r"(?<=[.!?)])\s*(?:(?:many\s+|big\s+)?thanks|thank\s+you|cheers|ta|much\s+appreciated)"
    r"(?:\s+(?:so\s+much|a\s+lot|very\s+much|in\s+advance|again))?\s*[.!]*\s*$",
    re.I,
)


#: Words that dictate a text, whose own thanks are part of it ('a comment saying: Got it. Thank you!').
_DICTATES = re.compile(r":|\b(?:saying|says|message|comment|reply|note|write|text)\b", re.I)


def without_courtesy(text: str) -> str:
    """The request without the greeting before it and the thanks after it, which ask for nothing."""
    text = _GREETING.sub("", text, count=1)
    return text.strip() if _DICTATES.search(text) else _THANKS.sub("", text).strip()


def split_situation(text: str) -> str:
    """The request said after the situation in one sentence, made a sentence of its own ('Her teeth seem fine
    now. Please cancel ...'); never inside a request ('Add a comment saying the parcel was late - please refund
    ...' keeps its comment whole)."""
    out, start = [], 0
    for m in REQUEST_AFTER_SITUATION.finditer(text):
        head = re.split(SENTENCE_BREAK, text[start : m.start()])[-1]
        if VERB_START.match(strip_fillers(head)) or re.search(
            r"\b(?:saying|says|said)\b|[:\x00]", head, re.I
        ):
            continue
        out.append(text[start : m.start()] + ". ")
        start = m.end()
        if start < len(text):
            out.append(text[start].upper())
            start += 1
    return "".join(out) + text[start:]


_SOFT_SPLIT = re.compile(r"\s*,\s*(?:and\s+|&\s*)?|\s+(?:and|&)\s+|\s+as\s+well\s+as\s+", re.I)


_FILLERS = re.compile(
    r"""^(?:please|pls|kindly|then|and|also|first(?:ly)?|second(?:ly)?|third(?:ly)?|next|now|finally|lastly
          |ok(?:ay)?|so|just|simply|go\s+ahead\s+and|afterwards?|after\s+that)\b[\s,:]*
      | ^(?:i\s+(?:want|need|would\s+like|'d\s+like|wish)\s+(?:you\s+)?to|can\s+you|could\s+you|would\s+you
          |will\s+you|help\s+me(?:\s+to)?|try\s+to|you\s+should|you\s+need\s+to|let'?s|step\s+\d+\s*[:.)-]
          |\d+\s*[.)]|[-*•]|>)\s*""",
    re.I | re.X,
)


_TRAILING = re.compile(r"(?:[\s.!,;:]+|\s+(?:please|for\s+me|now|thanks|thank\s+you))+$", re.I)
#: Why the user asks, said after the request: '... so I can keep it another week' changes nothing asked.
_PURPOSE = re.compile(r",?\s+so\s+(?:that\s+)?(?:i|we)\s+(?:can|could|don['’]?t|won['’]?t)\b[^\x00]*$", re.I)


VERB_START = re.compile(
    r"""^(?:go|open|visit|navigate|browse|head|load|launch|search|look|google|click|double[- ]?click|right[- ]?click
        |tap|hit|press|push|select|choose|pick|type|enter|fill|input|write|put|set|clear|check|tick|mark|uncheck
        |untick|unmark|deselect|unselect|toggle|enable|disable|turn|switch|scroll|log|login|logout|sign|signin
        |signup|register|subscribe|submit|send|wait|accept|agree|dismiss|close|what|what's|whats|how|find|tell
        |which|who|whom|whose|when|where|why|list|get|give|show|count|read|extract|return|add|remove|download
        |follow|use|answer|is\s+there|are\s+there|does|did|verify|confirm|report|key\s+in|insert|paste
        |activate|expand|collapse|focus|locate|identify|determine
        |file|create|make|post|edit|update|change|rename|delete|resolve|reopen|book|reserve|enrol|enroll|assign
        |comment|reply|publish|save|cancel|archive|upload|raise|append|renew|withdraw|revoke|approve|reject
        |decline|restore|unsubscribe|unenrol+|borrow|reschedule|request|apply|invite|drop)\b""",
    re.I | re.X,
)


_TYPE_VERB = re.compile(
    r"^(?:type|enter|input|write|fill(?:\s+in|\s+out)?|put|key\s+in|insert|provide|use)\b", re.I
)


def strip_fillers(clause: str) -> str:
    previous = None
    text = clause.strip()
    while text != previous:
        previous = text
        text = _FILLERS.sub("", text).strip()
        text = _TRAILING.sub("", _PURPOSE.sub("", text)).strip()
    return text


def _soft_split(chunk: str, spans: tuple[str, ...]) -> list[str]:
    """Split a clause at commas/'and' only where a new command starts (or a type-command continues)."""
    bounds = list(_SOFT_SPLIT.finditer(chunk))
    parts: list[str] = []
    start = 0
    prefix = ""
    for n, m in enumerate(bounds):
        left = prefix + chunk[start : m.start()]
        end = bounds[n + 1].start() if n + 1 < len(bounds) else len(chunk)
        right = strip_fillers(chunk[m.end() : end])
        if not left.strip() or not right:
            continue
        if VERB_START.match(right):
            parts.append(left)
            start, prefix = m.end(), ""
            continue
        verb = _TYPE_VERB.match(strip_fillers(left))
        if verb and typed_with_field(strip_fillers(left), spans):
            candidate = f"{verb.group(0)} {right}"
            if typed_with_field(candidate, spans):
                parts.append(left)
                start, prefix = m.end(), verb.group(0) + " "
    parts.append(prefix + chunk[start:])
    return parts


def typed_with_field(clause: str, spans: tuple[str, ...]) -> bool:
    intents = parse_type(clause, spans)
    return bool(intents) and all(isinstance(i, TypeText) and i.field for i in intents)


def split_clauses(masked: str, spans: tuple[str, ...] = ()) -> list[str]:
    """Cut a masked goal into command clauses (fillers stripped, empty pieces dropped)."""
    clauses: list[str] = []
    for chunk in _HARD_SPLIT.split(masked):
        if not chunk or not chunk.strip():
            continue
        for part in _soft_split(chunk.strip(), spans):
            cleaned = strip_fillers(part)
            if cleaned:
                clauses.append(cleaned)
    return clauses
