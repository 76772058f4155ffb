"""Who a booking is for, as a goal names them: after a word that introduces a person ('lead guest', 'for',
'name:'), beside an email address their name spells, or first in a run of their details ('born', 'phone')."""

from __future__ import annotations

import re
from collections.abc import Collection
from re import IGNORECASE as I

from agent.planning.offline.dates import MONTH_WORD as _MONTH

#: A person the booking is for, said after the words that introduce one.
_PERSON = re.compile(
    r"\b(?:lead\s+[a-z]+|guest|driver|name|passenger|patient|contact|booker|under\s+the\s+name|in\s+the\s+name\s+of|"
    r"(?:my\s+)?(?:daughter|son|wife|husband|partner|mother|father|mum|dad|friend|colleague)|"
    r"for)\s*:?\s+(?P<n>(?-i:[A-Z])[a-z'’-]+(?:\s+(?-i:[A-Z])[a-z'’-]+){1,2})\b",
    I,
)
_NOT_NAMES = re.compile(rf"^(?:{_MONTH}|(?:mon|tues|wednes|thurs|fri|satur|sun)day|the|my|our)\b", I)


def person_named(text: str) -> str:
    """The first person a word introduces in ``text`` ('Lead paddler Lena Fischer'), or ''."""
    return next((m.group("n") for m in _PERSON.finditer(text) if not _NOT_NAMES.match(m.group("n"))), "")


_CAPITALISED = re.compile(r"\b(?-i:[A-Z][a-z'’-]+)(?:\s+(?-i:[A-Z][a-z'’-]+)){1,2}\b")


def named_by_email(text: str, emails: list[str]) -> str:
    """A name said beside an email address its words spell ('Lena Fischer, lena.fischer@example.com')."""
    for m in _CAPITALISED.finditer(text):
        words = m.group(0).lower().split()
        if not _NOT_NAMES.match(m.group(0)) and any(
            all(w in e.split("@")[0].lower() for w in words) for e in emails
        ):
            return m.group(0)
    return ""


#: A name that leads a run of personal details: 'Derek Hammond, born 4 March 1972, phone ...'.
_LEADS_DETAILS = re.compile(
    r"(?:^|(?<=[.,;:!?]\s))(?P<n>(?-i:[A-Z][a-z'’-]+)(?:\s+(?-i:[A-Z][a-z'’-]+)){1,2})\s*(?:,|\(|-|–)\s*"
    r"(?:(?:born|date\s+of\s+birth|dob|aged?|phone|mobile|tel|telephone|e-?mail)\b|b\.|d\.o\.b\.?)",
    I,
)


def named_before_details(text: str, verbs: Collection[str]) -> str:
    """A name said first in a run of the person's details (born, phone, email), without a word that cues it."""
    return next(
        (
            m.group("n") for m in _LEADS_DETAILS.finditer(text)
            if not _NOT_NAMES.match(m.group("n")) and m.group("n").split()[0].lower() not in verbs
        ),
        "",
    )  # fmt: skip


#: A quoted name said as the person's ('Name: "Ana Silva"', 'for "Ana Silva" with email ...'): after a word that
#: names a person, or after 'for' right before their contact details (never 'for "Swan Lake" on 3 May').
_QUOTED_PERSON = re.compile(
    r"\b(?:(?:name|named|called|in\s+the\s+name\s+of|under\s+the\s+name)\s*:?\s*\x00(?P<a>\d+)\x00|for\s+\x00(?P<b>\d+)\x00"
    r"(?=\s*,?\s*(?:with\s+|and\s+)?(?:(?:her|his|their)\s+)?(?:e-?mail|phone|mobile|tel)\b))",
    I,
)


def quoted_people(masked: str, spans: tuple[str, ...]) -> set[str]:
    """The quoted spans ``masked`` says are a person's name (two or three capitalised words): said after a word
    that names a person, or spelled by an email address the goal gives."""
    emails = re.findall(r"[\w.+-]+@[\w-]+(?:\.[\w-]+)+", " ".join([masked, *spans]))
    cued = {int(m.group("a") or m.group("b")) for m in _QUOTED_PERSON.finditer(masked)}
    return {
        s for i, s in enumerate(spans)
        if _CAPITALISED.fullmatch(s.strip()) and (i in cued or named_by_email(s, emails) == s.strip())
    }  # fmt: skip
