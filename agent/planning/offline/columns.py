"""Which column of a table a question means.

Values of one kind side by side in a row ('£28' under '3 months', '£95' under '12 months') are told apart only by
their columns' headers, so a quote from such a cell proves the answer only when the question names that column
(a word of its header the other columns lack), or names none of the others and the column is the plain one
('Price' beside 'Sale price'). The offline planner asks it before answering from a cell (tables.py), the judge
before accepting a quote from one (the page reports the cell's header and its rivals: ``quote.js``,
whose value shapes mirror :func:`value_shape`).
"""

from __future__ import annotations

import re

from agent.planning.offline.text import number_value, token_match, tokens

#: How close a question word must be to a header word to name it (a prefix or plural form counts).
_NAMES = 0.7


_SHAPES = (
    ("money", re.compile(r"[£$€¥₹]\s?\d|\d\s?(?:usd|eur|gbp|chf)\b", re.I)),
    ("time", re.compile(r"\b\d{1,2}[:.]\d\d\b|\b\d{1,2}\s?(?:am|pm)\b", re.I)),
    ("number", re.compile(r"^\W*\d[\d.,\s]*%?\W*$")),
    (
        "date",
        re.compile(
            r"\b\d{4}-\d\d-\d\d\b|\b\d{1,2}\s+[a-z]{3,9}\.?\s+\d{4}\b|\b[a-z]{3,9}\.?\s+\d{1,2},\s+\d{4}\b",
            re.I,
        ),
    ),
)


def value_shape(text: str) -> str:
    """The kind of value a cell holds when it is one that rivals its neighbours (money, time, number, date),
    else ''."""
    value = " ".join((text or "").split())
    return next((name for name, rx in _SHAPES if rx.search(value)), "")


def _words(text: str) -> set[str]:
    """Content words of a header or question, number words as figures ('six months' -> 6, month)."""
    out = set()
    for token in tokens(text):
        value = None if token.isdigit() else number_value(token)
        out.add(str(value) if value is not None and value > 0 else token)
    return out


def _named(words: set[str], question: set[str]) -> bool:
    return any(max((token_match(q, w) for q in question), default=0.0) >= _NAMES for w in words)


def _quantities(question: str, row: str) -> list[tuple[str, str]]:
    """('6', 'month') for 'six months', '12-month': a count and the unit it counts, unless the row itself
    carries the number ('Senior (65+)')."""
    words = list(tokens(question))
    in_row = set(_words(row))
    out = []
    for here, unit in zip(words, words[1:], strict=False):
        value = here if here.isdigit() else number_value(here)
        if value is not None and not unit.isdigit() and str(value) not in in_row:
            out.append((str(value), unit))
    return out


def column_mismatch(question: str, column: str | None, rivals: list[str], row: str = "") -> str:
    """'' when the question names the quoted cell's column among the row's columns of the same kind of value,
    else why the quote does not answer it. ``row``: the row's own words (its key), not the question's."""
    if not column or not rivals:
        return ""
    asked = _words(question)
    mine = _words(column)
    for count, unit in _quantities(question, row):
        if _named({unit}, mine) and count not in mine:
            return f"it sits in the column {column!r}, and the question asks for {count} {unit}"
    theirs = [_words(r) for r in rivals]
    distinct = mine - set().union(*theirs)
    if distinct and _named(distinct, asked):
        return ""
    for rival, words in zip(rivals, theirs, strict=True):
        if _named(words - mine, asked):
            return f"it sits in the column {column!r}, and the question asks about the column {rival!r}"
    if not distinct:
        return ""  # the plain column: 'Price' beside 'Sale price', and the question says nothing of a sale
    others = ", ".join(repr(r) for r in rivals[:4])
    return (
        f"it sits in the column {column!r}, and the question does not say which of it and {others} it means"
    )
