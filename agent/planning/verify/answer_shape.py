"""The shape an answer must have whatever the page says: a figure for 'how much' or 'how loud', a time for
opening hours, someone for 'who'; never a sentence saying the value is not given, nor a navigation trail.

Read before any page is searched (:func:`agent.planning.verify.answers.answer_evidence`).
"""

from __future__ import annotations

import re

from agent.planning.offline.reading import no_identifier
from agent.planning.offline.values import VALUE_RX, WHEN_ANSWER, names_someone
from agent.planning.verify.parts import GoalPart

#: The values a quote may be cut down to (a time, a price, an email, an ISO date, a figure).
QUOTABLE_VALUE = re.compile(
    r"\b\d{1,2}[:.]\d{2}(?:\s?[ap]\.?m\.?)?(?!\d)|[$€£]\s?\d[\d,]*(?:\.\d+)?|\d[\d,]*(?:\.\d+)?\s?(?:[$€£]|usd|eur|gbp)|[\w.+-]+@[\w-]+(?:\.[\w-]+)+|"
    r"\b\d{4}-\d{2}-\d{2}\b|\b\d+(?:[.,]\d+)+\b|\b\d{2,}\b",
    re.I,
)


#: Numbers in figures or words ("none" and "no" count too: "how many are pending?" - "none").
_NUMBER = re.compile(
    r"\d|\b(?:no|none|zero|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|thirteen|fourteen|"
    r"fifteen|sixteen|seventeen|eighteen|nineteen|twenty|thirty|forty|fifty|sixty|seventy|eighty|ninety|hundred|"
    r"thousand|a\s+dozen|single|once|twice)\b",
    re.I,
)
#: 'What is the cache size limit': an amount of something, answered by a figure (not 'how do I limit ...').
_ASKS_AMOUNT = re.compile(
    r"\b(?:what|which)\b[^?]*\b(?:size|limit|capacity|maximum|minimum|timeout|interval|port|population|weight|"
    r"height|width|length|depth|distance|speed|temperature|duration|retention|ttl|threshold|quota)\b",
    re.I,
)
#: An amount with no figure that still answers "what is the limit": there is none.
_BOUNDLESS = re.compile(
    r"\b(?:unlimited|unbounded|infinite|indefinitely|forever|no\s+(?:limit|maximum|cap))\b", re.I
)
#: A question for opening hours (not for a number of hours: 'how many hours', 'battery life in hours').
_ASKS_HOURS = re.compile(
    r"\b(?:opening|closing|office|business|trading|visiting)\s+(?:hours|times)\b|"
    r"\bhours\s+of\s+(?:opening|business|operation)\b|^\s*what\s+are\s+(?:the\s+)?(?:\w+\s+){0,3}hours\b",
    re.I,
)
#: Opening hours said without a clock time.
_ALL_HOURS = re.compile(
    r"\b(?:24\s?(?:hours|h|/7)|all\s+day|around\s+the\s+clock|by\s+appointment|closed)\b", re.I
)
#: What answers "how much": a figure, or words that say what the price is ("free", "price on request").
PRICE_WORDS = re.compile(
    r"\d|\b(?:free|price[sd]?|pricing|costs?|charged?|quotes?|request|included|no\s+charge)\b", re.I
)
#: A navigation trail ("Home › Orders › Customers › Chen Wei"): where a page sits, never what it says.
_TRAIL_SEPARATOR = re.compile(r"\s*[›»]\s*|\s+[>/]\s+")
_MONTH = (
    r"(?:jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sep(?:t(?:ember)?)?|"
    r"oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)\.?"
)
#: Dates whose digits must not pass for a count ("Nov. 4, 2026" is no answer to "how many").
DATE_WRITTEN = re.compile(
    rf"\b\d{{4}}-\d{{2}}-\d{{2}}\b|\b{_MONTH}\s+\d{{1,2}}(?:st|nd|rd|th)?(?:,?\s+\d{{4}})?\b|"
    rf"\b\d{{1,2}}(?:st|nd|rd|th)?\s+{_MONTH}(?:,?\s+\d{{4}})?\b|\b\d{{1,2}}[/.]\d{{1,2}}[/.]\d{{2,4}}\b",
    re.I,
)


#: What any answer to 'how long' holds: a figure, a number word or a span said in words ('overnight').
_HOW_LONG = re.compile(
    r"\d|\b(?:one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|fifteen|twenty|thirty|forty|fifty|"
    r"hundred|half|a\s+few|a\s+couple|several|overnight|same[-\s]day|next[-\s]day|immediately|instantly|"
    r"forever|permanently|indefinitely|an?\s+(?:hour|minute|day|week|month|year|second|moment))\b",
    re.I,
)


#: 'How loud is it?', 'the noise level in dB': a measure, answered by a figure.
_ASKS_MEASURE = re.compile(
    r"^\s*how\s+(?:loud|heavy|tall|wide|deep)\b|"
    r"\bin\s+(?:db|decibels?|kg|kilos?|kilograms?|grams?|lbs?|cm|mm|metres?|meters?|km|miles|litres?|liters?|"
    r"watts?|kwh|minutes|hours|seconds|mph|km/h|degrees|inches|feet)\b",
    re.I,
)
#: An answer saying the value is not given (yet): 'Noise figures will be added once testing is complete', 'TBC'.
_NOT_GIVEN = re.compile(
    r"\b(?:will\s+be\s+(?:added|announced|published|confirmed|available|updated|set|given|posted)|"
    r"to\s+be\s+(?:confirmed|announced|decided|set|agreed)|tb[acd]\b|coming\s+soon|"
    r"(?:not|n[o']t)\s+(?:yet\s+)?(?:been\s+)?(?:set|known|available|published|confirmed|announced|decided|"
    r"listed|given|tested|measured)\b|n/a\b|unknown\b)",
    re.I,
)
#: A question answered yes or no ('Is express delivery available?'): 'not available' is its answer.
_YES_NO = re.compile(r"\s*(?:is|are|was|were|does|do|did|can|could|will|has|have|should)\b", re.I)


def not_an_answer(part: GoalPart, text: str) -> str:
    """Why ``text`` cannot answer the question whatever the page shows ('' when it may): a number asked for and
    none given but a date's, a value the answer says is not given, or a navigation trail given for a value."""
    question = str(part.get("question") or "")
    status = re.search(r"\b(?:status|stage|progress|state|decision|outcome)\b", question, re.I)
    if (
        _NOT_GIVEN.search(text)
        and not QUOTABLE_VALUE.search(text)
        and not _YES_NO.match(question)
        and not status
    ):
        return "says the value is not given (yet): the page does not answer the question"
    asks = _ASKS_AMOUNT.search(question) or _ASKS_MEASURE.search(question)
    amount = part.get("answer_kind") != "count" and asks
    if amount and not (re.search(r"\d", text) or _BOUNDLESS.search(text)):
        return "asks for an amount (a size, a limit, a time span) and the answer gives no figure"
    numeric = part.get("answer_kind") == "count" or part.get("value_type") == "number"
    if numeric and not (_NUMBER.search(DATE_WRITTEN.sub(" ", text)) or _BOUNDLESS.search(text)):
        dated = " (a date's digits are not a count)" if DATE_WRITTEN.search(text) else ""
        return f"asks for a number and the answer holds none{dated}"
    hours = part.get("value_type") == "time" or _ASKS_HOURS.search(str(part.get("question") or ""))
    if hours and not (VALUE_RX["time"].search(text) or _ALL_HOURS.search(text)):
        return "asks for a time or opening hours and the answer gives no time"
    long = re.match(r"\s*how\s+long\b", str(part.get("question") or ""), re.I) is not None
    if long and not _HOW_LONG.search(text):
        return "asks how long and the answer gives no length or time"
    counts = re.match(r"\s*how\s+many\b", str(part.get("question") or ""), re.I) is not None
    if counts and re.fullmatch(r"\W*(?:[$€£¥]\s?)?\d[\d,]*[.,]\d\d(?:\s?[$€£¥])?\W*", text.strip()):
        return "asks how many and the answer is an amount of money, not a count"
    asks_when = re.match(r"\s*when\b", str(part.get("question") or ""), re.I) is not None
    if asks_when and not WHEN_ANSWER.search(text):
        return "asks when and the answer names no time, day or date"
    if re.match(r"\s*who\b", question, re.I) and not names_someone(text, question):
        return "asks who and the answer names no one"
    if no_identifier(question, text):
        return "asks for a number, a code or a reference and the answer gives none"
    trail = len(_TRAIL_SEPARATOR.split(text.strip())) >= 3
    if trail and part.get("answer_kind") in ("generic", "attribute"):
        return "is a navigation trail (where the page sits), not a value"
    return ""
