"""The record a question asks about ('the ticket about battery drain', 'ticket #5', 'the 2.0 release'), found
before the question is answered from the record's own page."""

from __future__ import annotations

import re
from functools import lru_cache

from agent.planning.offline.records.goal import (
    ARTICLE,
    KINDS,
    RECORD_NUMBER,
    RecordGoal,
    kind_of,
    record_noun_in,
)

I = re.IGNORECASE  # noqa: E741 - short alias keeps the patterns readable

_ASKED_ABOUT = re.compile(
    r"\b(?:the|a|that)\s+(?P<noun>[a-z][\w-]*(?:\s+[a-z][\w-]*)?)\s+(?:about|where|regarding|concerning|on|for)\s+"
    r"(?P<d>.+?)\s*\??$",
    I,
)
_ASKED_VERSION = re.compile(
    r"\b(?:(?P<noun>milestone|release|version)\s+(?P<v>\d+(?:\.\d+)*)|the\s+(?P<v2>\d+(?:\.\d+)+)\s+"
    r"(?P<noun2>release|milestone|version))\b",
    I,
)


@lru_cache(maxsize=256)
def record_question(question: str) -> RecordGoal | None:
    """The record a question asks about ('the ticket about battery drain', 'ticket #5', 'the 2.0 release'),
    so the record can be found before the question is answered from its page; None when it names none."""
    q = (question or "").strip()
    version = _ASKED_VERSION.search(q)
    if version:
        noun = (version.group("noun") or version.group("noun2") or "").lower()
        return RecordGoal(op="open", noun=noun, about=version.group("v") or version.group("v2") or "")
    number = RECORD_NUMBER.search(q)
    if number and kind_of(q) in (KINDS[0], KINDS[2]):
        return RecordGoal(op="open", noun=record_noun_in(q), number=number.group("n"))
    about = _ASKED_ABOUT.search(q)
    if about and kind_of(about.group("noun")) in (KINDS[0], KINDS[2]):  # tracker items and milestones
        return RecordGoal(
            op="open", noun=about.group("noun").lower(), about=ARTICLE.sub("", about.group("d"))
        )
    return None
