"""Lines that give several values apart, by label or by class: whose value a figure in them is.

'Portmore – Skerrow: £3.50 per dog each way. Portmore – Inchbeg: £2.80 per dog each way.' gives each route a
value of its own; 'Combined ticket: £14.00 adult' gives an adult's. A question about the Inchbeg route, or about
a concession, is answered by neither the first figure of the line nor the adult's: the planner reads the value of
the segment the question names, and the judge refuses a value said of another label or class than the one asked
about.
"""

from __future__ import annotations

import re

from agent.planning.offline.text import token_match, tokens

#: Where a line's next labelled segment starts: after a sentence's end or a separator, a short label and a colon.
_SEGMENT_START = re.compile(r"(?<=[.;·|])\s+(?=[^:.;·|]{1,48}:\s)")
#: The clause a value stands in: up to the nearest separator either side.
_CLAUSE_BREAK = re.compile(r"[.;,·|/]\s|\s[–—-]\s|\n|\s(?:or|and)\s")

#: Kinds of ticket, fare or price a page tells apart: a question naming one is not answered by another's value.
CLASS_GROUPS: tuple[tuple[str, ...], ...] = (
    ("adult", "child", "children", "kid", "concession", "senior", "student", "family", "infant", "youth",
     "junior", "member", "pensioner", "resident", "under 5s"),
    ("single", "return", "one-way", "round trip"),
    ("year", "month", "week", "day"),
)  # fmt: skip
#: The ways of saying the period a price counts ('annual', 'monthly', 'the whole year'; 'per night' is a day).
_PERIODS = (
    (
        re.compile(
            r"\b(?:annual(?:ly)?|yearly|a\s+year|per\s+year|per\s+annum|whole\s+year|each\s+year)\b", re.I
        ),
        "year",
    ),
    (re.compile(r"\b(?:monthly|a\s+month|per\s+month|each\s+month)\b|/\s?(?:month|mth)\b", re.I), "month"),
    (
        re.compile(
            r"\b(?:weekly|a\s+week|per\s+week|each\s+week|(?:whole|full)\s+week)\b|(?<![\w-])(?<!\d\s)(?<!to\s)(?:7|seven)\s+days\b"
            r"|/\s?(?:week|wk)\b",
            re.I,
        ),
        "week",
    ),
    (
        re.compile(
            r"\b(?:daily|a\s+day|per\s+day|each\s+day|per\s+night|a\s+night|nightly)\b|/\s?(?:day|night)\b",
            re.I,
        ),
        "day",
    ),
)


def labelled_segments(text: str) -> list[tuple[str, str]]:
    """(label, segment) for each 'Label: ...' part of ``text`` ('' label for a part without one)."""
    out = []
    for part in _SEGMENT_START.split(text):
        label, colon, _ = part.partition(":")
        out.append((label.strip() if colon and len(label) <= 48 else "", part.strip()))
    return out


def _coverage(label: str, asked: tuple[str, ...]) -> float:
    words = [w for w in tokens(label) if len(w) > 1]
    if not words:
        return 0.0
    return sum(1 for w in words if any(token_match(w, a) >= 0.8 for a in asked)) / len(words)


def named_segment(question: str, text: str) -> str | None:
    """The one labelled segment of ``text`` whose label the question names in full, when the line gives two or
    more labels their own values; None otherwise."""
    parts = [(label, seg) for label, seg in labelled_segments(text) if label]
    if len(parts) < 2:
        return None
    asked = tokens(question)
    full = [seg for label, seg in parts if _coverage(label, asked) == 1.0]
    return full[0] if len(full) == 1 else None


def rival_segment(question: str, text: str, quote: str) -> str:
    """Why ``quote`` in ``text`` is another label's value ('' when it is not): the question names one segment's
    label in full, and the quote stands in another segment."""
    named = named_segment(question, text)
    if named is None or not quote or find_quote(named, quote) >= 0:
        return ""
    own = next((label for label, seg in labelled_segments(text) if label and find_quote(seg, quote) >= 0), "")
    return (
        f"it is the value given for {own!r}, and the line gives {named.split(':', 1)[0]!r} a value of its own"
        if own
        else ""
    )


def classes_in(text: str) -> list[set[str]]:
    """The classes ``text`` names, one set per group of :data:`CLASS_GROUPS`."""
    return _classes(text)


def _classes(text: str) -> list[set[str]]:
    low = f" {text.lower()} "
    said = [
        {c for c in group if re.search(rf"(?<![\w-]){re.escape(c)}s?(?![\w-])", low)}
        for group in CLASS_GROUPS[:-1]
    ]
    return [*said, {name for rx, name in _PERIODS if rx.search(text)}]  # the period, by how prices say it


def find_quote(text: str, quote: str) -> int:
    """Where ``quote`` stands in ``text`` as a whole value ('£7' is not in '£7.75'), or -1."""
    if not quote:
        return -1
    m = re.search(r"(?<![\w.,])" + re.escape(quote) + r"(?![\w]|[.,]\d)", text)
    return m.start() if m else -1


def clause_of(text: str, quote: str) -> str:
    """The clause of ``text`` that holds ``quote`` (between the separators around it)."""
    at = find_quote(text, quote)
    if at < 0:
        return ""
    starts = [m.end() for m in _CLAUSE_BREAK.finditer(text, 0, at)]
    end = _CLAUSE_BREAK.search(text, at + len(quote))
    return text[(starts[-1] if starts else 0) : (end.start() if end else len(text))]


def class_fits(question: str, text: str, quote: str) -> bool:
    """The clause of ``text`` holding ``quote`` names every class the question asks (true when it asks none)."""
    asked = _classes(question)
    said = _classes(clause_of(text, quote))
    return all(a <= s for a, s in zip(asked, said, strict=True))


def value_of_class(question: str, text: str, values: list[str]) -> str | None:
    """The one value of ``values`` whose clause in ``text`` names every class the question asks ('£5.75' of
    '£64.50 a year or £5.75 a month' for the monthly price); None when not exactly one does."""
    asked = _classes(question)
    fits = [
        v for v in values if all(a <= s for a, s in zip(asked, _classes(clause_of(text, v)), strict=True))
    ]
    return fits[0] if any(asked) and len(fits) == 1 else None


#: A price under its own label in a run of them: '3 to 6 days: £68.00 a day', '7 days: £408.00'.
_PRICED_LABEL = re.compile(
    r"(?P<label>[^:\n]{1,40}?):\s*(?P<v>[£$€]\s?\d[\d,]*(?:\.\d+)?)(?P<unit>\s+(?:a|an|per|each)\s+[a-z]+)?"
)


def value_for_period(question: str, text: str) -> tuple[list[str], bool]:
    """(the prices ``text`` gives under a label of the period the question asks, whether ``text`` gives prices
    by period at all): '7 days: £408.00' for 'for a whole week' among '1 to 2 days: £76.00 a day ...'."""
    asked = _classes(question)[-1]
    if not asked:
        return [], False
    said = [
        (m.group("v"), _classes(f"{m.group('label')} {m.group('unit') or ''}")[-1])
        for m in _PRICED_LABEL.finditer(text)
    ]
    periods = [(v, c) for v, c in said if c]
    fits = [v for v, c in periods if asked <= c]
    return fits, len(periods) >= 2


#: How far (characters) a class word may stand from the value it names: 'Adult £9.50', '£14.00 adult'.
_NEAR = 40


def nearest_class(question: str, text: str, quote: str) -> list[str | None]:
    """For each group of classes the question asks, the class word nearest before ``quote`` in ``text`` (else
    the nearest after it), words in brackets aside ('Concession (60+, students) £7.75' is a concession's);
    None where none stands near, or the question asks none of that group."""
    bare = re.sub(r"\s*\([^)]*\)", "", text.lower())  # (who qualifies is no distance from the value)
    at = find_quote(bare, quote.lower())
    out: list[str | None] = []
    for group, asked in zip(CLASS_GROUPS[:-1], _classes(question)[:-1], strict=True):
        if not asked or at < 0:
            out.append(None)
            continue
        spots = [
            (m.start(), c) for c in group
            for m in re.finditer(rf"(?<![\w-]){re.escape(c)}s?(?![\w-])", bare)
        ]  # fmt: skip
        before = [(at - pos, c) for pos, c in spots if pos < at and at - pos <= _NEAR]
        after = [(pos - at, c) for pos, c in spots if pos > at and pos - at <= _NEAR]
        out.append(min(before)[1] if before else min(after)[1] if after else None)
    return out


def _unbracketed(text: str) -> str:
    """``text`` with what its brackets hold blanked out, in place ('Concession (60+, students)': who qualifies)."""
    return re.sub(r"\([^)]*\)", lambda m: " " * len(m.group(0)), text)


def class_mismatch(question: str, text: str, quote: str) -> str:
    """Why ``quote`` is a value of another class than the one the question asks about ('' when it is not): the
    clause holding it names a class ('£14.00 adult') of a kind the question names another of ('concession')."""
    clause = clause_of(_unbracketed(text), quote)
    if not clause:
        return ""
    for asked, said in zip(_classes(question), _classes(clause), strict=True):
        if asked and said and not asked & said:
            return f"it is said of {', '.join(sorted(said))}, and the question asks about {', '.join(sorted(asked))}"
    for asked, near in zip(_classes(question), nearest_class(question, text, quote), strict=False):
        if near is not None and near not in asked:  # 'Adult £9.50 Concession £7.75' read as one run of text
            return f"it is said of {near}, and the question asks about {', '.join(sorted(asked))}"
    return ""


def row_class_mismatch(question: str, row_key: str, column: str) -> str:
    """Why a table value is another row's kind ('' when it is not): the row's own name says a class of a kind
    the question names another of, the classes its column already says left aside ('daily lenses ... per
    month' under 'Monthly plan': the row 'Monthly lenses for astigmatism' is not the daily lenses' row)."""
    for asked, by_column, said in zip(_classes(question), _classes(column), _classes(row_key), strict=True):
        wanted = asked - by_column
        if wanted and said and not wanted & said:
            return f"its row is said of {', '.join(sorted(said))}, and the question asks about {', '.join(sorted(wanted))}"
    return ""
