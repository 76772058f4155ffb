"""Terms a question sets that a found value must meet: the currency it asks for ('in euros') and a time before
now ('last year', 'two years ago').

A price in pounds is no answer to 'how much is it in euros', and today's price none to 'what did it cost last
year': the page said something true, of something else. Read by :func:`agent.planning.verify.answers.answer_evidence`
for each place a quote was found.
"""

from __future__ import annotations

import re
from datetime import date

#: Currencies by family: the symbols, codes and words that name each. '$' stands for every dollar.
_CURRENCIES: dict[str, str] = {
    "pounds": r"£|\bgbp\b|\bpounds?(?:\s+sterling)?\b|\bsterling\b|\bquid\b",
    "euros": r"€|\beur\b|\beuros?\b",
    "dollars": r"\$|\b(?:usd|cad|aud|nzd|sgd|hkd)\b|\bdollars?\b|\bbucks\b",
    "yen": r"¥|\bjpy\b|\byen\b",
    "rupees": r"₹|\binr\b|\brupees?\b",
    "francs": r"\bchf\b|\bfrancs?\b",
    "kronor": r"\b(?:sek|nok|dkk)\b|\bkronor\b|\bkroner?\b|\bkrona\b",
    "zloty": r"zł|\bpln\b|\bzloty\b",
    "yuan": r"¥|\bcny\b|\brmb\b|\byuan\b|\brenminbi\b",  # (¥ is the yen's sign and the yuan's)
}
_ANY_CURRENCY = "|".join(f"(?:{rx})" for rx in _CURRENCIES.values())
#: A question asking for an amount in a currency: 'in euros', 'in US dollars', 'in €', 'how many dollars'.
_ASKS_IN = re.compile(
    rf"\b(?:in|into|to)\s+(?:(?:us|american|canadian|australian|new\s+zealand|hong\s+kong|singapore|swiss|"
    rf"japanese|indian|british|uk)\s+)?(?P<cur>{_ANY_CURRENCY})|\bhow\s+many\s+(?P<many>{_ANY_CURRENCY})",
    re.I,
)


#: 'in pounds' of a weight ('the maximum weight in pounds', 'how many pounds can it weigh'): no currency asked.
_WEIGHED = re.compile(r"\b(?:weigh\w*|heavy|heaviest|weight|mass|load)\b", re.I)


def _currencies(text: str) -> set[str]:
    return {family for family, rx in _CURRENCIES.items() if re.search(rx, text, re.I)}


def currency_mismatch(question: str, quote: str, near: str = "") -> str:
    """Why ``quote`` is in another currency than the one ``question`` asks for ('' when it is not, or when
    neither the quote nor the words just before it name a currency)."""
    asked: set[str] = set()
    if _WEIGHED.search(question):
        return ""
    for m in _ASKS_IN.finditer(question):
        asked |= _currencies(m.group("cur") or m.group("many") or "")
    if not asked:
        return ""
    given = _currencies(quote) or _currencies(near)
    if not given or given & asked:
        return ""
    return f"it is given in {', '.join(sorted(given))}, and the question asks for {', '.join(sorted(asked))}"


_NUMBER_WORDS = {
    "a": 1, "an": 1, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8,
    "nine": 9, "ten": 10, "a couple of": 2, "a few": 3,
}  # fmt: skip
_NUMBER = r"\d+|a\s+couple\s+of|a\s+few|" + "|".join(k for k in _NUMBER_WORDS if " " not in k)
#: A time before now named relatively: 'last year', 'the previous year', 'two years ago', 'a year ago' (never 'the
#: last year of the course').
_PAST_YEAR = re.compile(
    rf"\b(?:(?:last|previous|past)\s+year(?!s)(?!\s+of\b)|year\s+before\s+last|(?P<n>{_NUMBER})\s+years?\s+ago)\b",
    re.I,
)
#: How a page says a year before now without its number: 'Last year: £52', 'Previous year', '2 years ago', 'FY25'.
_SAID_BEFORE = re.compile(
    r"\b(?:(?:last|previous|prior|past)\s+year|year\s+before|(?:a|one|two|three|\d+)\s+years?\s+ago|previous|prior)\b",
    re.I,
)
#: What makes 'last year' a span up to now, not the calendar year before this one ('in the last year').
_SPAN = re.compile(r"\b(?:in|over|during|within|for|throughout)\s+the\s+(?:last|past)\s+year\b", re.I)

#: A question about today's value that mentions the past in passing ('the lamp I bought last year: what is it now?').
_NOW = re.compile(r"\b(?:now|today|currently|at\s+the\s+moment|these\s+days|this\s+year)\b", re.I)


def years_before_now(question: str, today: date | None = None) -> set[str]:
    """The calendar years a question names relatively ('last year' in 2026 is 2025); empty when it names none,
    or names a span up to now ('in the past year')."""
    if _SPAN.search(question) or _NOW.search(question):
        return set()
    this_year = (today or date.today()).year
    years: set[str] = set()
    for m in _PAST_YEAR.finditer(question):
        back = 2 if "before last" in m.group(0).lower() else 1
        if m.group("n"):
            word = re.sub(r"\s+", " ", m.group("n").lower())
            back = int(word) if word.isdigit() else _NUMBER_WORDS.get(word, 1)
        years.add(str(this_year - back))
    return years


def past_time_unsaid(
    question: str, keys: str, near: str = "", quote: str = "", today: date | None = None
) -> str:
    """Why a value is no answer to a question about a year before now ('' when it may be): neither its labels
    (``keys``: its label, column, row) nor its own clause of the line name that year or say 'last year' ('Last
    year's price: £52' does; 'Annual pass: £60.00 (up from £52.00 in 2025)' does not, for the £60.00)."""
    years = years_before_now(question, today)
    if not years:
        return ""
    own = next((p for p in re.split(r"\s*[(),;]\s*|\s[-–—]\s", near) if quote and quote in p), near)
    said = f"{keys} {own}"
    if any(re.search(rf"\b{y}\b|\bfy\s?{y[2:]}\b", said, re.I) for y in years) or _SAID_BEFORE.search(said):
        return ""
    return f"the page does not say it of {', '.join(sorted(years))}, the year the question asks about"
