"""Dates and times in a goal, written the way the browser wants them for <input type=date|time|...>.

People write "05/20/2010", "May 20, 2010" or "9:37 PM"; a date input only takes "2010-05-20" and a time input
"21:37". dateparser (a well-kept library) reads the many spellings; numeric dates are read month first, the
order of US forms, unless the day cannot be a month.
"""

from __future__ import annotations

import re
from datetime import date, datetime
from functools import lru_cache

#: Input types whose value has a fixed wire format, and that format.
WIRE_FORMATS = {
    "date": "%Y-%m-%d",
    "time": "%H:%M",
    "datetime-local": "%Y-%m-%dT%H:%M",
    "month": "%Y-%m",
    "week": "%G-W%V",
}

#: Which field kinds a value of each kind can go into.
_FIELDS_FOR = {"date": ("date", "datetime-local"), "time": ("time",), "datetime": ("datetime-local",)}

#: A month as people write it: 'December', 'Dec.', 'Sept'.
MONTH_WORD = r"(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\.?"
#: A weekday said before a date, if any: 'Friday 11 June', 'Tues, 3 May'.
WEEKDAY_BEFORE = r"(?:(?:mon|tues|wednes|thurs|fri|satur|sun)day,?\s+)?"
#: A time of day: '10.20am', '14:30', '2 pm'.
TIME_OF_DAY = r"\d{1,2}[:.]\d{2}(?:\s*[ap]\.?m\.?)?|\d{1,2}\s*[ap]\.?m\.?"
#: A day and its month in words, the weekday and year if said: 'Friday 11 June', '3rd May 2027'.
DAY_AND_MONTH = rf"{WEEKDAY_BEFORE}\d{{1,2}}(?:st|nd|rd|th)?\s+{MONTH_WORD}(?:,?\s+\d{{4}})?"

#: A day of a month in words, either order: '10th of December', 'Thu 10 December 2026', 'December 10th'.
#: A month's name or its short form, and nothing longer ('may', never 'mayor').
MONTH_NAME = (
    r"(?:jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sept?(?:ember)?|oct(?:ober)?"
    r"|nov(?:ember)?|dec(?:ember)?)\.?(?![a-z])"
)
_DAY_SAID = re.compile(
    rf"\b(?P<d>\d{{1,2}})(?:st|nd|rd|th)?\s+(?:of\s+)?(?P<m>{MONTH_NAME})(?:,?\s+(?P<y>\d{{4}}))?"
    rf"|\b(?P<m2>{MONTH_NAME})\s+(?P<d2>\d{{1,2}})(?:st|nd|rd|th)?\b(?:,?\s+(?P<y2>\d{{4}}))?",
    re.I,
)
_MONTHS = ("jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec")


def days_said(text: str) -> list[tuple[int, int, int | None]]:
    """The days of a month ``text`` names in words, as (day, month, year or None)."""
    out = []
    for m in _DAY_SAID.finditer(text):
        day, month, year = (m.group("d"), m.group("m"), m.group("y")) if m.group("d") else (
            m.group("d2"), m.group("m2"), m.group("y2"))  # fmt: skip
        if 1 <= int(day) <= 31:
            out.append((int(day), _MONTHS.index(month[:3].lower()) + 1, int(year) if year else None))
    return out


def same_day(said: tuple[int, int, int | None], text: str) -> bool:
    """``text`` names the day ``said`` (its year too, when both give one)."""
    return any(
        (d, m) == said[:2] and (said[2] is None or y is None or y == said[2]) for d, m, y in days_said(text)
    )


#: A holiday people name a booking by: 'my Easter hire', 'the Christmas order'.
HOLIDAY = re.compile(r"\b(?P<h>easter|christmas|new\s+year(?:['’]s)?|halloween)\b", re.I)


def holiday_on(name: str, year: int) -> date:
    """The day of the holiday ``name`` (as :data:`HOLIDAY` reads it) in ``year``: Easter Sunday by the Gregorian
    computus (dateutil's), the others fixed."""
    word = name.split()[0].lower()  # ('New Year's': New Year's Day)
    if word == "easter":
        from dateutil.easter import easter  # (dateparser's own dependency)

        return easter(year)
    if word == "christmas":
        return date(year, 12, 25)
    if word == "halloween":
        return date(year, 10, 31)
    return date(year, 1, 1)


def takes_in(days: list[date], day: date) -> bool:
    """A row's days take in ``day``: one of them within a day of it, or it between two of them at most a month
    apart (pick-up and return), never between the day a booking was made and the hire months later."""
    ordered = sorted(days)
    near = any(abs((d - day).days) <= 1 for d in ordered)
    return near or any(
        (b - a).days <= 31 and (a - day).days <= 1 and (day - b).days <= 1
        for a, b in zip(ordered, ordered[1:], strict=False)
    )


def holiday_said(text: str, around: int) -> tuple[str, list[date]]:
    """The holiday ``text`` names (lower case) and its days in the years about ``around``, or ('', [])."""
    said = HOLIDAY.search(text)
    if said is None:
        return "", []
    name = said.group("h").split()[0].lower()
    return name, [holiday_on(name, year) for year in range(around - 2, around + 3)]


_HAS_TIME = re.compile(r"\d{1,2}:\d{2}|\b\d{1,2}\s*(?:am|pm|a\.m\.|p\.m\.)", re.I)
_HAS_DATE = re.compile(
    r"\d{1,4}[/.-]\d{1,2}[/.-]\d{1,4}|\b(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\.?\s+\d",
    re.I,
)


@lru_cache(maxsize=256)
def parse_when(text: str) -> datetime | None:
    """The date/time written in ``text``, or None when it does not read as one."""
    if not (_HAS_TIME.search(text) or _HAS_DATE.search(text)):
        return None
    import dateparser  # imported on first use: it takes ~0.1 s and most runs never need it

    return dateparser.parse(
        text.strip(),
        languages=["en"],
        settings={"DATE_ORDER": "MDY", "PREFER_DAY_OF_MONTH": "first", "RETURN_AS_TIMEZONE_AWARE": False},
    )


def value_kind(text: str) -> str:
    """'date', 'time', 'datetime' or '' for what ``text`` writes."""
    if parse_when(text) is None:
        return ""
    has_date, has_time = bool(_HAS_DATE.search(text)), bool(_HAS_TIME.search(text))
    return "datetime" if has_date and has_time else "date" if has_date else "time"


def fields_for(text: str) -> tuple[str, ...]:
    """Input types a value like ``text`` can be typed into (empty when it is not a date or time)."""
    return _FIELDS_FOR.get(value_kind(text), ())


def wire_value(text: str, input_type: str) -> str:
    """``text`` as the value an input of ``input_type`` takes; unchanged when it is not such an input or the
    text does not read as a date/time."""
    kind = (input_type or "").lower()
    fmt = WIRE_FORMATS.get(kind)
    needs = "time" if kind == "time" else "" if kind == "datetime-local" else "date"
    if not fmt or (needs and needs not in value_kind(text)):
        return text
    when = parse_when(text)
    return when.strftime(fmt) if when and fmt else text


#: A date format a text field shows (its placeholder or label): 'DD/MM/YYYY', 'mm-dd-yyyy', 'YYYY.MM.DD'.
_FORMAT_HINT = re.compile(r"\b(?P<a>dd|mm|yyyy)(?P<s>[/.-])(?P<b>dd|mm)(?P=s)(?P<c>yyyy|yy|dd)\b", re.I)
_PARTS = {"dd": "%d", "mm": "%m", "yyyy": "%Y", "yy": "%y"}
#: The formats text fields most often ask dates in: what a value typed into one may have become.
FIELD_DATE_HINTS = ("DD/MM/YYYY", "MM/DD/YYYY", "DD.MM.YYYY", "DD-MM-YYYY")


def field_value(text: str, input_type: str, hint: str = "") -> str:
    """``text`` as a field takes it: an input's wire format (:func:`wire_value`), or the date format a text
    field shows ('4 March 1972' into a field that says DD/MM/YYYY is '04/03/1972'; a form that reads its own
    format rejects any other)."""
    wired = wire_value(text, input_type)
    if wired != text or WIRE_FORMATS.get((input_type or "").lower()):
        return wired
    m = _FORMAT_HINT.search(hint or "")
    fmt = m.group("s").join(_PARTS[m.group(k).lower()] for k in "abc") if m else _example_format(hint or "")
    if not fmt or value_kind(text) != "date" or re.fullmatch(r"\d{1,4}([/.-])\d{1,2}\1\d{1,4}", text.strip()):
        return text  # (a date already written in figures is the user's own order)
    when = parse_when(text)
    return when.strftime(fmt) if when else text


#: A date written in figures as an example of the format ('For example 2026-11-27', 'e.g. 27/11/2026').
_EXAMPLE = re.compile(
    r"\b(?:(?P<y>\d{4})(?P<s>[/.-])(?P<m>\d{2})(?P=s)(?P<d>\d{2})|(?P<a>\d{1,2})(?P<t>[/.-])(?P<b>\d{1,2})(?P=t)(?P<c>\d{4}))\b"
)


def _example_format(hint: str) -> str:
    """The strftime format of a date a hint gives as an example, when it reads one way only ('27/11/2026' is
    day first; '05/06/2026' could be either and gives none)."""
    m = _EXAMPLE.search(hint)
    if m is None:
        return ""
    if m.group("y"):
        return m.group("s").join(("%Y", "%m", "%d"))
    a, b = int(m.group("a")), int(m.group("b"))
    if a > 12 >= b:
        return m.group("t").join(("%d", "%m", "%Y"))
    if b > 12 >= a:
        return m.group("t").join(("%m", "%d", "%Y"))
    return ""


_DAY = r"(?:\d{1,4}[/.-]\d{1,2}[/.-]\d{1,4}|\d{1,2}(?:st|nd|rd|th)?\s+[A-Z][a-z]+\.?(?:\s+\d{4})?|[A-Z][a-z]+\.?\s+\d{1,2}(?:st|nd|rd|th)?(?:,?\s+\d{4})?)"
_SPAN = re.compile(
    rf"\b(?:from|between)\s+(?P<a>{_DAY})\s+(?:to|until|till|through|and|-|–)\s+(?P<b>{_DAY})", re.I
)


def date_span(body: str) -> tuple[str, str, str]:
    """(first day, last day, the words that say them) of 'from 14 July 2025 to 18 July 2025', when both read as
    dates; a year said only with the last day holds for the first ('from 14 to 18 July 2025' is not read)."""
    m = _SPAN.search(body)
    if not m or value_kind(m.group("a")) != "date" or value_kind(m.group("b")) != "date":
        return ()  # type: ignore[return-value]
    first, last = m.group("a"), m.group("b")
    year = re.search(r"\b\d{4}\b", last)
    if year and not re.search(r"\b\d{4}\b|\d[/.-]\d", first):
        first = f"{first} {year.group(0)}"
    return first, last, m.group(0)


#: 'this year', 'the current year': the calendar year it is now, which a table's column names ('2026/27').
_THIS_YEAR = re.compile(r"\b(?:this|the\s+current|the\s+present)\s+year\b", re.I)


def with_this_year(question: str, labels: str = "", today: date | None = None) -> str:
    """``question`` with 'this year' followed by the year it is ('this year 2026'), so a column or a line naming
    the year ('2026 prices', '2026/27 (from 1 April 2026)') is the one asked about, and last year's is not. When
    the ``labels`` to choose from split years in two ('2025/26', a financial or school year), only from September:
    before then the year begun last year may still be the current one, and 'this year' does not say which."""
    now = today or date.today()
    if now.month < 9 and re.search(r"\b\d{4}\s*[/–-]\s*\d{2}\b", labels):
        return question
    return _THIS_YEAR.sub(lambda m: f"{m.group(0)} {now.year}", question)
