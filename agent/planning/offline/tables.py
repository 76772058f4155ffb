"""Answering from tables by row and column: "when was version 2.3.0 released" is the cell in the row whose
cell says "2.3.0", under the column whose header says "Released".

Cells and headers are the observed ``td``/``th`` elements (or cell/columnheader roles); rows and columns come
from their boxes, so any table laid out as a grid works, whatever its markup.
"""

from __future__ import annotations

import calendar
import re
from dataclasses import dataclass
from datetime import date, datetime

from agent.dom.text import GOAL_STOPWORDS
from agent.planning.offline.columns import column_mismatch, value_shape
from agent.planning.offline.dates import (
    HOLIDAY,
    days_said,
    holiday_on,
    parse_when,
    takes_in,
    value_kind,
    with_this_year,
)
from agent.planning.offline.page import rect, role_of, visible_text
from agent.planning.offline.questions import Answer, Query, analyze
from agent.planning.offline.segments import row_class_mismatch
from agent.planning.offline.text import TIME_IDIOM, token_match, tokens
from agent.planning.offline.values import MONEY_NOUNS, VALUE_RX
from agent.types import Element, Observation

_ROW_SLACK = 6.0
#: Question words that never name a column.
_NOT_COLUMN = frozenset(
    "what which when who how is are was were does do did the a an of for in on tell me".split()
)


@dataclass(frozen=True)
class Cell:
    element: Element
    text: str
    x: float
    y: float
    width: float


def _cells(observation: Observation) -> tuple[list[Cell], list[Cell]]:
    headers: list[Cell] = []
    cells: list[Cell] = []
    for el in observation.get("elements") or []:
        tag = (el.get("tag") or "").lower()
        role = role_of(el)
        box = rect(el)
        text = visible_text(el)
        if box is None or not text:
            continue
        cell = Cell(el, text, box[0], box[1], box[2])
        if tag == "th" or role in ("columnheader", "rowheader"):
            headers.append(cell)
        elif tag == "td" or role in ("cell", "gridcell"):
            cells.append(cell)
    return headers, cells


def _column_of(cell: Cell, headers: list[Cell]) -> Cell | None:
    centre = cell.x + cell.width / 2
    above = [h for h in headers if h.y < cell.y and h.x - 2 <= centre <= h.x + h.width + 2]
    return max(above, key=lambda h: h.y) if above else None


#: What a cell value may carry around its key that a question leaves out: '#1042', 'No. 14', '14.'.
_KEY_DECORATION = re.compile(r"^(?:#|№|no\.?\s+)|[.:]$", re.I)
#: A person's name as a table shows it: two to four capitalized words, no digits ('Omar Haddad').
#: What answers 'when': a date, or a year alone ('Since: 2021').
_WHEN = re.compile(VALUE_RX["date"].pattern + r"|^\s*(?:1[89]|20)\d\d\s*$|\b[012]?\d[:.][0-5]\d\b", re.I)
_PERSON = re.compile(r"^[A-Z][\w'’-]+(?:\s+(?:[a-z]{1,3}\s+)?[A-Z][\w'’.-]+){1,3}$")


def _split_headers(headers: list[Cell]) -> tuple[list[Cell], list[Cell]]:
    """(row heads, column heads): a header with another header above it heads its row ('Chen Wei' in a list
    of people), unless it stands in a row of headers (the header row of a second table below the first)."""
    row_heads = [
        h
        for h in headers
        if _column_of(h, headers) is not None and sum(1 for o in headers if abs(o.y - h.y) <= _ROW_SLACK) < 2
    ]
    return row_heads, [h for h in headers if h not in row_heads]


def _mentions(question: str, text: str) -> bool:
    """The cell's whole text appears in the question as a word sequence ('2.3.0' in 'version 2.3.0'; '#1042'
    in 'order 1042')."""
    value = _KEY_DECORATION.sub("", text.strip().lower()).strip()
    if len(value) < 2:
        return False
    # a scan, not a regex built per cell: a table's worth of one-off patterns flushed re's cache every step
    asked = question.lower()
    at = asked.find(value)
    while at >= 0:
        end = at + len(value)
        joined_before = at > 0 and (_word_char(asked[at - 1]) or asked[at - 1] == ".")
        joined_after = end < len(asked) and (
            _word_char(asked[end])
            or (asked[end] == "." and end + 1 < len(asked) and _word_char(asked[end + 1]))
        )
        if not joined_before and not joined_after:
            return True
        at = asked.find(value, at + 1)
    return False


def _word_char(ch: str) -> bool:
    """What ``\\w`` matches in a str pattern: letters, digits (any script) and the underscore."""
    return ch.isalnum() or ch == "_"


def _linked(observation: Observation, headers: list[Cell]) -> list[Cell]:
    """Links standing in a column (a row's name that links to its record): they key their row like a cell."""
    out = []
    rows = [
        box
        for el in observation.get("elements") or []
        if role_of(el) in ("cell", "gridcell") and (box := rect(el))
    ]
    for el in observation.get("elements") or []:
        box, text = rect(el), visible_text(el)
        if box is not None and text and role_of(el) == "link":
            middle = (
                box[1] + box[3] / 2
            )  # (a link sits in the middle of its row's cell: the row's top is its y)
            top = next((r[1] for r in rows if r[1] <= middle <= r[1] + r[3]), box[1])
            cell = Cell(el, text, box[0], top, box[2])
            if _column_of(cell, headers) is not None:
                out.append(cell)
    return out


def table_answer(query: Query, observation: Observation) -> Answer | None:
    """The cell at the row the question names and the column it asks about, or None when the question does
    not point into a table on this page. Of rows the question names alike (band 'D' in this year's table and
    last year's), the one whose column it names best."""
    headers, cells = _cells(observation)
    if not headers or not cells:
        return None
    row_heads, headers = _split_headers(headers)
    linked = _linked(observation, headers)
    keys = [
        c for c in cells + row_heads + linked
        if _mentions(query.question, c.text) or _mentioned_with_header(query.question, c, headers)
    ]  # fmt: skip
    if not keys:
        named = _named_row_key(query.question, cells + row_heads, headers) or _next_row_key(
            query.question, observation, cells, headers
        )
        named = (
            named
            or _month_row_key(query.question, cells)
            or _holiday_row_key(query.question, cells)
            or _row_of_most_words(query.question, cells, headers, query.entity)
        )
        keys = [named] if named is not None else _latest_rows(query.question, cells, headers)
    longest = max((len(k.text) for k in keys), default=0)
    found = [  # (a row's reference may be the link to its record: a value of its row as much as a cell)
        a for k in keys if len(k.text) == longest and (a := _row_answer(query, k, cells + linked, headers))
    ]
    return max(found, key=lambda a: a[0])[1] if found else None


_COMING = re.compile(r"\b(?:upcoming|next|future|scheduled|coming)\b", re.I)
_NEXT = re.compile(
    r"\b(?:my|our|the|his|her|their|your|its)\s+(?-i:next|upcoming|soonest|earliest)\s+(?P<n>[a-z]+(?:\s+[a-z]+){0,3})",
    re.I,
)  # (not 'the Next Generation console')


def soonest_words(question: str) -> list[str]:
    """The words beside the thing a question asks the next one of, which may tell its rows apart ('unit rent' of
    'my next unit rent invoice'); [] when it asks no next one."""
    m = _NEXT.search(question)
    return [w for w in tokens(m.group("n"))[:-1] if w not in GOAL_STOPWORDS] if m else []


def soonest_asked(question: str) -> bool:
    """The question asks for the next of dated rows: 'my next invoice', 'the upcoming appointment'."""
    return _NEXT.search(question) is not None


def _next_row_key(
    question: str, observation: Observation, cells: list[Cell], headers: list[Cell]
) -> Cell | None:
    """'my next appointment': the first row of the table headed by the kind of thing asked about ('Upcoming
    appointments'), keyed by its first cell; None when no heading above a table names it."""
    m = _NEXT.search(question)
    if not m:
        return None
    heads: list[tuple[bool, float]] = []
    for noun in reversed(m.group("n").lower().split()):  # ('my next Stowaway storage invoice': the invoice)
        heads = [
            (not _COMING.search(visible_text(e)), rect(e)[1]) for e in observation.get("elements") or []
            if (e.get("tag") or "").lower() in ("h1", "h2", "h3", "h4", "caption") and rect(e) is not None
            and any(token_match(noun, t) >= 0.8 for t in tokens(visible_text(e)))
        ]  # fmt: skip
        if heads:
            break
    for _, top in sorted(heads):  # 'Upcoming appointments' before 'Past appointments'
        below = [h.y for h in headers if h.y > top]
        start = min(below) if below else top
        row = [c for c in cells if c.y > start]
        if row:
            coming = _soonest_row(row, headers, soonest_words(question))
            if coming is not None:
                return coming
            first = min(c.y for c in row)
            return min((c for c in row if abs(c.y - first) <= _ROW_SLACK), key=lambda c: c.x)
    return None


def _soonest_row(cells: list[Cell], headers: list[Cell], words: list[str] | None = None) -> Cell | None:
    """In a table with a column of days, one of them still to come, the row of the soonest day from today on (a
    table of invoices newest first, or of appointments oldest first), keyed by its first cell; of the rows that
    say the question's other ``words`` when only some do ('rent' of 'my next unit rent invoice'). None without
    such a column."""
    today = datetime.now().replace(hour=0, minute=0, second=0, microsecond=0)
    lines = {round(c.y): " ".join(d.text for d in cells if abs(d.y - c.y) <= _ROW_SLACK) for c in cells}
    naming = {
        y for y, text in lines.items() if any(token_match(w, t) >= 0.8 for w in words for t in tokens(text))
    }
    keep = naming if naming and len(naming) < len(lines) else set(lines)
    for header in headers:
        below = [c for c in cells if _column_of(c, headers) is header]
        dated = [(when, c) for c in below if (when := _day(c.text))]
        if len(dated) < 2 or len(dated) != len(below):
            continue
        coming = [(when, c) for when, c in dated if when.replace(tzinfo=None) >= today and round(c.y) in keep]
        if not coming:
            continue  # (an 'Issued' column all past; the 'Due' one beside it)
        day_cell = min(coming, key=lambda d: d[0].replace(tzinfo=None))[1]
        return min((c for c in cells if abs(c.y - day_cell.y) <= _ROW_SLACK), key=lambda c: c.x)
    return None


def _day(text: str) -> datetime | None:
    """The day a cell gives (a time alone gives none: it would read as today)."""
    return parse_when(text) if value_kind(text) in ("date", "datetime") else None


_MONTHS = [m.lower() for m in calendar.month_name[1:]]
_MONTH_SAID = re.compile(r"\b(?P<m>" + "|".join(m for m in _MONTHS if m != "may") + r")\b", re.I)


def _month_row_key(question: str, cells: list[Cell]) -> Cell | None:
    """'the booking reference for my October stay': the one row whose date falls in the month named, when no
    other row names that month (a bill dated 8 January and the bill for the period of January are two rows)."""
    said = _MONTH_SAID.search(question)
    if said is None or re.search(r"\b\d{1,2}(?:st|nd|rd|th)?\s+" + said.group("m"), question, re.I):
        return None  # ('on 2 October' names a day: the row saying it is named as it is)
    month = _MONTHS.index(said.group("m").lower()) + 1
    dated = [c for c in cells if (when := _day(c.text)) is not None and when.month == month]
    if len(dated) != 1:
        return None
    named = re.compile(rf"\b(?:{said.group('m')}|{calendar.month_abbr[month]})\b\.?", re.I)
    others = [c for c in cells if abs(c.y - dated[0].y) > _ROW_SLACK and named.search(c.text)]
    return (
        None if others else dated[0]
    )  # ('1 January to 31 January' on another row: that row is January's too)


def _holiday_row_key(question: str, cells: list[Cell]) -> Cell | None:
    """'the booking reference for my Easter hire': the one row whose dates take in the holiday (see
    :func:`dates.takes_in`); keyed by its first cell."""
    said = HOLIDAY.search(question)
    if said is None:
        return None
    rows: list[list[Cell]] = []
    for cell in sorted(cells, key=lambda c: (c.y, c.x)):
        if rows and abs(cell.y - rows[-1][0].y) <= _ROW_SLACK:
            rows[-1].append(cell)
        else:
            rows.append([cell])
    hits = []
    for row in rows:  # (a day said within a cell: 'Porthaven Fri 26 Mar 2027')
        days = [date(y, m, d) for c in row for d, m, y in days_said(c.text) if y]
        if days and takes_in(days, holiday_on(said.group("h"), min(days).year)):
            hits.append(min(row, key=lambda c: c.x))
    return hits[0] if len(hits) == 1 else None


_LATEST = re.compile(
    r"\blast\s+time\b|\blatest\b|\bmost\s+recent(?:ly)?\b|\b(?:my|his|her|their|its|our|your)\s+last\b(?!\s+name)",
    re.I,
)  # ('her last weigh-in': the latest, not 'the last page')


def asks_latest(question: str) -> bool:
    """The question asks for the latest of dated rows: 'the last time', 'her last weigh-in', 'most recent'."""
    return _LATEST.search(question) is not None


def latest_asked(question: str) -> list[str]:
    """What a question that asks for the latest asks, in words ('weight' for 'what did Pepper weigh at her last
    weigh-in'): the column its row is read in; [] for any other question."""
    if not asks_latest(question):
        return []
    return [w for w in tokens(analyze(question).attr) if w not in GOAL_STOPWORDS]


def _latest_rows(question: str, cells: list[Cell], headers: list[Cell]) -> list[Cell]:
    """'What did Biscuit weigh the last time he was weighed': in each table with a column of dates, the row
    of the latest one, keyed by its date (the column the question names is read on that row)."""
    if not asks_latest(question):
        return []
    keys = []
    for header in headers:
        dated = [(when, c) for c in cells if _column_of(c, headers) is header and (when := _day(c.text))]
        below = [c for c in cells if _column_of(c, headers) is header]
        if len(dated) >= 2 and len(dated) == len(below):
            keys.append(max(dated, key=lambda d: d[0])[1])
    return keys


#: A row picked by the question's words across its cells needs this many of them, and this many more than any
#: other row: 'IT support ... at the weekend' is the row 'IT out-of-hours support | weekends and bank holidays'.
_ROW_WORDS, _ROW_MARGIN = 3, 2


def _row_of_most_words(
    question: str, cells: list[Cell], headers: list[Cell], entity: str = ""
) -> Cell | None:
    """The row whose cells say clearly more of the question's words than any other row, or the one row that
    names every word of the thing asked about ('the car' in 'Car or small van up to 5m'), keyed by its first
    cell; None when no row stands out so (the question then names no row of this table)."""
    column_words = {w for h in headers for w in tokens(h.text)}
    asked = {
        w for w in tokens(TIME_IDIOM.sub(" ", question)) if w not in _NOT_COLUMN and w not in column_words
    }
    thing = {w for w in tokens(entity) if w not in GOAL_STOPWORDS and w not in column_words}
    rows: list[list[Cell]] = []
    for cell in sorted(cells, key=lambda c: (c.y, c.x)):
        if rows and abs(rows[-1][0].y - cell.y) <= _ROW_SLACK:
            rows[-1].append(cell)
        else:
            rows.append([cell])

    def hits(row: list[Cell], words: set[str]) -> set[str]:
        said = [w for c in row for w in tokens(c.text)]
        return {a for a in words if max((token_match(a, w) for w in said), default=0.0) >= 0.8}

    # the one row that says any word of the thing at all, and says them all ('Blue Widget Pro' beside 'Red
    # Widget' is no row of 'the blue widget': another row says 'widget' too)
    naming = [row for row in rows if thing and hits(row, thing)]
    if len(naming) == 1 and hits(naming[0], thing) == thing:
        return min(naming[0], key=lambda c: c.x)
    scored = [(len(hits(row, asked)), row) for row in rows]
    scored.sort(key=lambda t: t[0], reverse=True)
    if not scored or scored[0][0] < _ROW_WORDS:
        return None
    if len(scored) > 1 and scored[0][0] - scored[1][0] < _ROW_MARGIN:
        return None
    return min(scored[0][1], key=lambda c: c.x)


def _mentioned_with_header(question: str, cell: Cell, headers: list[Cell]) -> bool:
    """A short key said with its column's name: 'Band D' for the cell 'D' under 'Band'."""
    header = _column_of(cell, headers) if len(cell.text.strip()) <= 3 else None
    return header is not None and _mentions(question, f"{header.text.strip()} {cell.text.strip()}")


def _row_answer(
    query: Query, key: Cell, cells: list[Cell], headers: list[Cell]
) -> tuple[float, Answer] | None:
    """(how well the column is named, the answer) for the row keyed by ``key``; None when no column fits."""
    question = query.question.strip().lower()
    said = TIME_IDIOM.sub(" ", with_this_year(query.question, " ".join(h.text for h in headers)))
    row_name = _column_of(key, headers)
    key_words = set(tokens(key.text)) | set(tokens(row_name.text if row_name else ""))
    words = [w for w in tokens(said) if w not in _NOT_COLUMN and w not in key_words]
    row = [c for c in cells if abs(c.y - key.y) <= _ROW_SLACK and c is not key]
    asks_when = re.match(r"when\b", question) is not None
    typed = _WHEN if asks_when else VALUE_RX.get(query.value_type)
    asks_who = re.match(r"(?:who|whose|whom)\b", question) is not None
    best: tuple[float, Cell, Cell] | None = None
    for cell in row:
        header = _column_of(cell, headers)
        if header is None:
            continue
        h_toks = tokens(header.text)
        score = sum(max((token_match(w, h) for h in h_toks), default=0.0) for w in words)
        if asks_when and not _WHEN.search(cell.text) and (score < 0.7 or _PERSON.match(cell.text.strip())):
            continue  # 'when did the holder start' asks for a date; 'when is it open on Sundays': 'Closed'
        if typed is not None and typed.search(cell.text):
            score += 0.9
        if asks_who and _PERSON.match(cell.text.strip()) and not re.search(r"\d", cell.text):
            score += 0.8  # 'who has plot 14': the column of people's names
        if score > 0 and (best is None or score > best[0]):
            best = (score, cell, header)
    if best is None:
        return None
    score, cell, header = best
    label = f"{row_name.text} {key.text}" if row_name else key.text
    if query.value_type == "money":  # 'the daily standing charge' is no 'Exit fee' however much both cost
        which = [w for w in tokens(query.attr) if w not in MONEY_NOUNS and w not in key_words]
        named = tokens(header.text)
        if which and not any(max((token_match(w, h) for h in named), default=0.0) >= 0.7 for w in which):
            return score, Answer(
                False, f"No column of the table gives the {query.attr}: {header.text!r} is another."
            )
    rivals = _rival_columns(cell, row, headers)
    keyed = " ".join(c.text for c in [key, *row] if not value_shape(c.text))
    if column_mismatch(said, header.text, [h.text for h, _ in rivals], keyed):
        values = "; ".join(f"{h.text}: {c.text}" for h, c in [(header, cell), *rivals][:4])
        return score, Answer(
            False,
            f"The table gives {key.text!r} by column ({values}); the question names none of these columns.",
        )
    text = cell.text
    if asks_when and VALUE_RX["date"].search(key.text) and not VALUE_RX["date"].search(text):
        text = f"{key.text} {text}"  # 'when is my next appointment': its day and its time
    return score, Answer(True, text, f"table row {label!r}, column {header.text!r}")


def _rival_columns(cell: Cell, row: list[Cell], headers: list[Cell]) -> list[tuple[Cell, Cell]]:
    """(header, cell) of the row's other cells holding the same kind of value as ``cell``."""
    shape = value_shape(cell.text)
    out = []
    for other in row:
        header = _column_of(other, headers) if other is not cell and shape else None
        if header is not None and value_shape(other.text) == shape:
            out.append((header, other))
    return out


def _named_row_key(question: str, cells: list[Cell], headers: list[Cell] = ()) -> Cell | None:  # type: ignore[assignment]
    """The one cell naming a row in other words than the question's: most of its words are in the question
    ('Resident permit (first vehicle)' for 'a resident permit for my first car'), values never. A cell's column
    header counts as one of its words when the question names it too ('Child (5-16)' under 'Ticket' for 'a child
    ticket')."""
    asked = tokens(question)

    def named(word: str) -> bool:
        return max((token_match(word, a) for a in asked), default=0.0) >= 0.7

    scored = []
    columns = " ".join(
        h.text for h in headers
    )  # ('Monthly plan', 'Pay yearly': periods the columns tell apart)
    for cell in cells:
        if row_class_mismatch(question, cell.text, columns):
            continue  # 'Monthly lenses for astigmatism' is no row of 'daily lenses ... per month'
        words = {w for w in tokens(cell.text) if not w.isdigit()}
        header = _column_of(cell, list(headers)) if headers else None
        kind = [w for w in tokens(header.text) if named(w)] if header is not None else []
        if len(words) + len(kind[:1]) < 2 or value_shape(cell.text):
            continue
        hits = sum(1 for w in words if named(w))
        if hits and kind:
            words, hits = words | {kind[0]}, hits + 1
        # most of its words, or three or more that make half of a describing cell ('Size limit of the local
        # cache before eviction starts' for 'the default cache size limit')
        if (hits >= 2 and hits / len(words) >= 2 / 3) or (hits >= 3 and hits / len(words) >= 1 / 2):
            scored.append((hits / len(words), hits, cell))
    if not scored:
        return None
    scored.sort(key=lambda t: (t[0], t[1]), reverse=True)
    if len(scored) > 1 and scored[1][:2] == scored[0][:2]:
        return None  # two rows named as well as each other: the question does not pick one
    return scored[0][2]


def table_caption(observation: Observation) -> str:
    """The table's caption or the nearest heading text (for naming where a table answer came from)."""
    for el in observation.get("elements") or []:
        if (el.get("tag") or "").lower() == "caption":
            return visible_text(el)
    return ""


def table_count(query: Query, observation: Observation) -> Answer | None:
    """'How many orders are pending': the rows of a table whose cell in one column says 'Pending', when the
    table shows every row (a page that states more rows than it shows is not counted)."""
    words = tokens(query.noun)
    if len(words) < 2:
        return None
    qualifier = " ".join(words[:-1])
    headers, cells = _cells(observation)
    row_heads, columns = _split_headers(headers)
    hits = [c for c in cells + row_heads if " ".join(tokens(c.text)) == qualifier]
    heads = {id(_column_of(c, columns)) for c in hits}
    if not hits or len(heads) != 1 or _column_of(hits[0], columns) is None:
        return None
    rows = {round(c.y) for c in cells + row_heads if _column_of(c, columns) is not None}
    stated = re.findall(r"^\s*(\d+)\s+" + re.escape(words[-1][:-1] if words[-1].endswith("s") else words[-1]),
                        str(observation.get("page_text") or ""), re.I | re.M)  # fmt: skip
    if any(int(n) > len(rows) for n in stated):
        return None  # the page holds more of them than it shows
    header = _column_of(hits[0], columns)
    return Answer(True, str(len(hits)), f"counted {len(hits)} rows with {qualifier!r} under {header.text!r}")
