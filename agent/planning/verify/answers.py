"""Answer evidence: a claimed answer counts only as a quote from the right block of a real page.

The answer's quotable pieces (the whole text, a "Yes: ..." line, the values in it) are looked up on the live page
(:func:`agent.browser.effects.read_quote`), which says which block holds each occurrence and whether that block
names the goal's subject. Error pages (HTTP 4xx/5xx, an error title or heading) never give answers; the agent's
own messages are never searched. Without a live page the observation's text lines stand in for the blocks.
"""

from __future__ import annotations

import re
from typing import Any

from agent.planning.offline.columns import column_mismatch
from agent.planning.offline.dates import holiday_said, with_this_year
from agent.planning.offline.figures import travel_time_asked
from agent.planning.offline.page import ELEMENT_KINDS, site_words
from agent.planning.offline.segments import classes_in, nearest_class
from agent.planning.offline.tables import latest_asked, soonest_asked, soonest_words
from agent.planning.offline.text import norm, stem
from agent.planning.offline.urls import results_listing
from agent.planning.verify.answer_shape import DATE_WRITTEN, PRICE_WORDS, QUOTABLE_VALUE, not_an_answer
from agent.planning.verify.asked_terms import currency_mismatch, past_time_unsaid
from agent.planning.verify.labels import said_of_another, unlabelled
from agent.planning.verify.parts import GoalPart

NOT_ON_PAGE = "is not on the page"
_KEYS = ("label", "column", "row_key")  # what names a found value, besides its own line
_ERROR_PAGE = re.compile(
    r"\b(?:[45]\d\d\b|not\s+found|page\s+(?:not|does\s*n[o']t|cannot\s+be)\s+(?:be\s+)?found|server\s+error|"
    r"internal\s+error|forbidden|bad\s+gateway|service\s+unavailable|unauthori[sz]ed|something\s+went\s+wrong|"
    r"^error\b|(?:can.?t|cannot|could\s*n.?t|could\s+not|unable\s+to)\s+find\s+(?:that|this|the|your)\b|"
    r"\b(?:page|product|item)\b.{0,40}\b(?:does\s*n.?t|does\s+not|no\s+longer)\s+exists?\b)",
    re.I,
)
#: A line that dates the page itself ("Last updated 2 June 2026", "Posted on ...", "© 2026").
_PAGE_DATE = re.compile(
    r"\b(?:(?:last\s+)?(?:updated|modified|edited|revised|reviewed)|published|posted|created|copyright)\b|©",
    re.I,
)
_ASKS_PAGE_DATE = re.compile(
    r"\b(?:updat|modif|edit|revis|review|publish|post|creat|copyright|written)", re.I
)


def misread(part: GoalPart, quote: str, line: str) -> str:
    """Why ``quote``, read in ``line``, does not say what the question asks ('' when it may): the page's own date
    given for another date, or the number of items shown on a page given for how many there are in all."""
    question = str(part.get("question") or "")
    dated = DATE_WRITTEN.search(quote) or part.get("value_type") == "date"
    if dated and _PAGE_DATE.search(line) and not _ASKS_PAGE_DATE.search(question):
        return "it dates the page itself (when it was updated or published), not what the question asks"
    counting = part.get("answer_kind") == "count" or re.match(r"\s*how\s+many\b", question, re.I)
    shown = (
        rf"\b(?:showing|displaying|viewing|listing|page|results?|items?)\b[^.\d]{{0,20}}{re.escape(quote)}"
    )
    if counting and re.search(shown + r"(?:\s*[-–]\s*\d+)?\s+(?:of|out\s+of)\s+\d", line, re.I):
        return f"it counts the items shown, not all of them ({line[:80]!r})"
    return ""


_DAYS = ("monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday")
_MONTH_NAMES = (
    "january", "february", "march", "april", "may", "june", "july", "august", "september", "october",
    "november", "december",
)  # fmt: skip
_DAY = r"(mon|tue|wed|thu|fri|sat|sun)[a-z]*"
_DAY_RANGE = re.compile(rf"\b{_DAY}\.?\s*(?:-|–|—|to|through|thru|until|till)\s*{_DAY}\b", re.I)
_EVERY_DAY = re.compile(r"\b(?:daily|every\s+day|seven\s+days|7\s+days|all\s+week)\b", re.I)


def _qualifiers(text: str) -> dict[str, set[str]]:
    """The days, months and years ``text`` names ("Mon–Fri" names the days between; "daily" all of them)."""
    low = text.lower()
    days = {d for d in _DAYS if re.search(rf"\b{d[:3]}(?:{d[3:]})?s?\b\.?", low)}
    for m in _DAY_RANGE.finditer(low):
        first, last = (next(i for i, d in enumerate(_DAYS) if d.startswith(g)) for g in m.groups())
        days |= {_DAYS[(first + k) % 7] for k in range((last - first) % 7 + 1)}
    if _EVERY_DAY.search(low):
        days = set(_DAYS)
    months = {
        m for m in _MONTH_NAMES
        if re.search(rf"\b{m}\b" if m == "may" else rf"\b{m[:3]}(?:{m[3:]})?\b\.?", low)
    }  # fmt: skip
    if "may" in months and not re.search(r"\bmay\s+\d|\d(?:st|nd|rd|th)?\s+may\b|\bin\s+may\b", low):
        months.discard("may")  # the verb
    periods = {f"{a}/{b}" for a, b in _PERIOD.findall(low)}  # '2024/25': a period, not the year 2024
    years = set(re.findall(r"\b(?:19|20)\d\d\b", _PERIOD.sub(" ", low)))
    vat = {"inc" if m.group("inc") else "ex" for m in _VAT.finditer(low)}
    units = {m.group("n") or m.group("m") for m in _PACK.finditer(low)}
    units |= {"1"} if _ONE_UNIT.search(low) else set()
    return {"day": days, "month": months, "year": years, "period": periods, "vat": vat, "units": units}


#: A year's period: '2024/25', '2025-26' (financial and school years).
_PERIOD = re.compile(r"\b((?:19|20)\d\d)\s*[/–-]\s*(\d\d)\b(?!\s*[/–-]\s*\d)")
#: With or without VAT: 'including VAT', 'inc. VAT' / 'ex VAT', 'excluding VAT', 'exclude VAT', '+ VAT'.
_VAT = re.compile(
    r"\b(?:(?P<inc>incl?(?:uding|udes?|\.)?|with|plus\s+vat\s+included)|(?P<ex>ex(?:cl?(?:uding|udes?|\.)?)?|"
    r"excluding|exclusive\s+of|without|before|\+|plus))\s*\.?\s*vat\b",
    re.I,
)
#: Units sold together ('pack of 4', '4-pack', 'box of 12') and one unit ('a single bulb', 'each', 'per bulb').
_PACK = re.compile(
    r"\b(?:pack|box|set|bundle|case|multipack)\s+of\s+(?P<n>\d+)\b|\b(?P<m>\d+)[\s-]?pack\b", re.I
)
_ONE_UNIT = re.compile(
    r"\b(?:single|each|per\s+(?!cent|year|month|week|day|night|hour|person)\w+|individual(?:ly)?|one\s+(?:bulb|item|unit|piece))\b",
    re.I,
)


def qualifier_mismatch(question: str, context: str, near: str = "") -> str:
    """Why a value read in ``context`` is said of another day, month or year than the one ``question`` asks
    about ('' when it is not): 'Wednesdays 17:00' is no answer to Saturday's hours, a 2024 figure none to 2023's.
    A context that names no day (or month, or year) at all is not contradicted; then the part of the quote's line
    ``near`` it speaks for it ('The 2024/25 subscription costs £52 per bin')."""
    asked, said, around = _qualifiers(question), _qualifiers(context), _qualifiers(near)
    for kind in ("day", "month", "year", "period", "vat", "units"):
        said[kind] = said[kind] or around[kind]
        if asked[kind] and said[kind] and not asked[kind] & said[kind]:
            return f"it is said of {', '.join(sorted(said[kind]))}, and the question asks about {', '.join(sorted(asked[kind]))}"
    return ""


def _units_mismatch(question: str, context: str, heading: str) -> str:
    """Why a price on a pack's page ('Lumen GU10 bulbs (pack of 4)') answers no question about one unit ('' when
    it may): its own line says no unit, and the page's heading sells it by the pack."""
    asked, said = _qualifiers(question)["units"], _qualifiers(context)["units"]
    page = _qualifiers(heading)["units"] if asked and not said else set()
    return f"the page sells it as a pack of {', '.join(sorted(page))}" if page and not asked & page else ""


#: Words that make a place's name another place's ('Northern Ireland' is not Ireland).
_PLACE_MODIFIER = r"(?:North|South|East|West)(?:ern)?"


def near_quote(line: str, quote: str) -> str:
    """The part of ``line`` that holds ``quote``: its own row of the line ('Saturday 10:00 – 14:00' of a block
    of opening hours), clause or sentence; the whole line when the quote is not in it."""
    parts = re.split(r"\n|\s[·|•]\s|;\s|(?<=[.!])\s+(?=[A-Z])", line)
    return next((p for p in parts if quote and quote in p), line)


def modified_name(part: GoalPart, near: str) -> str:
    """Why the text beside a quote speaks of another place than the one asked ('' when it does not): it names
    the place only with a word before it that the question does not say ('Northern Ireland' for 'delivery to
    Ireland'; 'Ireland (including Northern Ireland)' names Ireland itself)."""
    question = str(part.get("question") or "")
    for word in part.get("must") or []:
        name = re.escape(word)
        found = [
            m
            for m in re.finditer(rf"\b({_PLACE_MODIFIER})\s+{name}\b", near, re.I)
            if m.group(1)[0].isupper()
        ]
        bare = re.sub(rf"\b(?:{_PLACE_MODIFIER})\s+{name}\b", " ", near, flags=re.I)
        asked = found and re.search(rf"\b{found[0].group(1)}\s+{name}\b", question, re.I)
        if found and not asked and not re.search(rf"\b{name}\b", bare, re.I):
            return f"it names {found[0].group(0)}, and the question asks about {word.title()}"
    return ""


#: What asks a price the item had before ('the RRP', 'the original price', 'what did it cost before').
_ASKS_BEFORE = re.compile(r"\b(?:rrp|original|was|previous(?:ly)?|before|used\s+to|old|list\s+price)\b", re.I)


def former_price(place: dict[str, Any], quote: str, question: str = "") -> str:
    """Why a quoted price is one the item had before ('' when it is not, or when the question asks that one):
    struck out, or said 'Was £65.00' at the start of its part of the line ('The order total was £65.00' is not)."""
    if not re.search(r"[$€£¥]", quote) or _ASKS_BEFORE.search(question):
        return ""
    if place.get("struck"):
        return "it is struck out on the page (a former price)"
    line = str(place.get("line") or "")
    at = line.find(quote)
    before = line[max(0, at - 24) : at] if at >= 0 else ""
    if re.search(
        r"(?:^|[(,;:·|]\s*)(?:was|previously|rrp|old\s+price|originally)\s*:?\s*(?:from\s+)?$", before, re.I
    ):
        return "the page says it was the price before"
    return ""


#: Elements that name a value's row or term on a page: a table cell, a defined term.
_KEY_TAGS = ("td", "th", "dt")


def _row_keys(observation: dict[str, Any]) -> list[tuple[str, tuple[str, int]]]:
    """(key, column) of the page's short row keys and terms ('adult' and 'child' for rows 'Adult' and
    'Child (5-16)' of one column): what the page itself tells values apart by. A key is its cell's text before
    any bracket or comma, in words only; the column is the tag and left edge its cells share."""
    out = []
    for e in observation.get("elements") or []:
        tag = (e.get("tag") or "").lower()
        head = re.split(r"[(,:;–—]|\s-\s", str(e.get("text") or e.get("name") or ""), maxsplit=1)[0]
        head = _norm(head)
        box = e.get("bbox") or [0]
        if tag in _KEY_TAGS and 3 <= len(head) <= 30 and re.fullmatch(r"[a-z][a-z' -]*", head):
            out.append((head, (tag, round(float(box[0]) / 4))))
    return out


def _says(text: str, key: str) -> bool:
    return re.search(rf"(?<![a-z]){re.escape(key)}s?(?![a-z])", text) is not None


def rival_key(question: str, context: str, quote: str, observation: dict[str, Any]) -> str:
    """Why a value read in ``context`` belongs to another row than the one ``question`` asks about ('' when it
    does not): the page keys values by a row key the question names ('Child') and the context, besides the
    quote, names another key of the same column ('adult £14') but not that one."""
    asked, said = _norm(question), _norm(context).replace(_norm(quote), " ")
    keys = _row_keys(observation)
    wanted = {column for key, column in keys if _says(asked, key) and not _says(said, key)}
    for key, column in keys:
        if column in wanted and _says(said, key) and not _says(asked, key):
            return (
                f"it is said of {key!r}, and the page gives what the question asks about a value of its own"
            )
    return ""


def count_check(part: GoalPart, n: int, reading: dict[str, Any] | None, observation: dict[str, Any]) -> str:
    """Why ``n`` cannot be how many items the page holds ('' when it can): controls are counted in the page's
    content as the planner counts them; other items must fill one of the page's lists (a filtered count: fit
    in one). Without a live page there is nothing to count on."""
    noun = norm(str(part.get("noun") or ""))
    key = stem(noun.split()[-1]) if noun else ""
    if key in ELEMENT_KINDS:
        seen = sum(
            1
            for e in observation.get("elements") or []
            if ELEMENT_KINDS[key](e) and (e.get("zone") or "main") in ("main", "dialog")
        )
        return "" if n == seen else f"is not how many there are: the page's content shows {seen}"
    if reading is None or reading.get("lists") is None:
        return ""
    sizes = [int(s) for s in reading.get("lists") or []]
    if n in sizes or (part.get("filtered") and n <= max(sizes, default=0)):
        return ""
    return "is neither said on the page nor the size of any list on it"


def _norm(text: Any) -> str:
    return " ".join(str(text or "").lower().split())


def answer_for(part: GoalPart, questions: list[GoalPart], answer: str) -> str:
    """This question's share of an answer that may cover several questions ("q1: a1; q2: a2")."""
    if len(questions) < 2:
        return answer.strip()
    low = answer.lower()
    start = low.find(f"{str(part.get('question') or '').lower()}:")
    if start < 0:
        return answer.strip()
    start += len(str(part.get("question") or "")) + 1
    ends = [low.find(f"; {str(q.get('question') or '').lower()}:", start) for q in questions if q is not part]
    end = min([e for e in ends if e >= 0], default=len(answer))
    return answer[start:end].strip()


def quote_candidates(part: GoalPart, text: str) -> list[str]:
    """The pieces of an answer that must be found on the page, most specific claim first."""
    kind = part.get("answer_kind")
    text = text.strip()
    if not text:
        return []
    if kind in ("list", "superlative"):
        # "Name (price)" / "Name (Rated 4.6 out of 5 (175 reviews))": the name is what the page must show
        pieces = [re.sub(r"\s+\(.*$", "", p).strip(" .…") for p in re.split(r";\s*", text)]
        return [p for p in pieces if p and not re.match(r"^\(?\d+ in total", p)][:6]
    if kind == "count":
        number = re.search(r"\d+", text)
        return [number.group(0)] if number else []
    body = re.sub(r"^(?:yes|no)\s*:\s*", "", text, flags=re.I)
    found = [body[:200]] if len(body) <= 200 else []
    found += [p.strip() for p in re.split(r"\s+[—–-]\s+", body) if p.strip() and p.strip() != body][:2]
    sentences = [p.strip() for p in re.split(r"(?<=[.!?])\s+", body) if len(p.strip()) > 3]
    found += sentences[:3] if len(sentences) > 1 else []  # an answer joined from several lines of the page
    # (a group of a longer figure is no value of its own: '1632' of the phone number '1632 850 205')
    figures = [m.span() for m in _GROUPED.finditer(body)]
    found += [body[a:b].strip() for a, b in figures]
    found += [
        m.group(0).strip()
        for m in QUOTABLE_VALUE.finditer(body)
        if not _in_figure(body, m.start(), m.end()) and not any(a <= m.start() < b for a, b in figures)
    ]
    return list(dict.fromkeys(found))[:8]


#: A figure written in groups: a phone number ('0161 555 0100', '+44 (0)1632 850 205').
_GROUPED = re.compile(r"(?<![\w.])\+?(?:\(?\d+\)?\d*[\s.-]){2,}\d+(?![\w.]\d)")


def _in_figure(text: str, start: int, end: int) -> bool:
    """The digits at text[start:end] are one group of a figure written in groups ('1632 850 205')."""
    return bool(
        re.search(r"\d[\s.-]$", text[max(0, start - 2) : start]) or re.match(r"[\s.-]\d", text[end : end + 2])
    )


def error_page(observation: dict[str, Any], readings: dict[str, dict[str, Any] | None]) -> str:
    """Why the current page is an error page ('' when it is not)."""
    for reading in readings.values():
        if reading and int(reading.get("status") or 0) >= 400:
            return f"the page answered HTTP {reading['status']}"
    heads = [observation.get("title") or ""]
    heads += [str(r.get("title") or "") for r in readings.values() if r]
    heads += [str(r.get("heading") or "") for r in readings.values() if r]
    for head in heads:
        if head and len(head) <= 120 and _ERROR_PAGE.search(head):
            return f"the page is an error page ({head[:80]!r})"
    if observation.get("page_type") == "error":
        return "the page is an error page"
    return ""


def _offline_blocks(quote: str, part: GoalPart, observation: dict[str, Any]) -> list[dict[str, Any]]:
    """Without a live page: the observation's text lines as blocks (the line before it counts as its label)."""
    lines = [line.strip() for line in str(observation.get("page_text") or "").splitlines() if line.strip()]
    words = [w.lower() for w in part.get("subject") or []]
    need = int(part.get("need") or len(words))
    found = []
    for n, line in enumerate(lines):
        if _norm(quote) not in _norm(line):
            continue
        block = " ".join(lines[max(0, n - 1) : n + 1] + [str(observation.get("title") or "")]).lower()
        must = [w.lower() for w in part.get("must") or []]
        ok = not words or (sum(1 for w in words if w in block) >= need and all(w in block for w in must))
        found.append(
            {
                "element": "text line",
                "text": line[:200],
                "ok": ok,
                "block": "line",
                "why": "the line does not name the subject",
            }
        )
    return found


def _class_item_of_the_page(part: GoalPart, place: dict[str, Any], reading: dict[str, Any] | None) -> bool:
    """'Concession (60+, students) £7.75' in the tickets list of the exhibition's own page: an item naming the
    class of value the question asks for, on a page whose title and heading name the subject (a
    related item's price names no such class, and one naming another class is refused before this)."""
    if reading is None or not str(place.get("why") or "").startswith("it sits in an item that does not name"):
        return False
    question = str(part.get("question") or "")
    item = (
        f"{place.get('label') or ''} {place.get('block_text') or ''}"  # a term's item may be its value alone
    )
    asked = classes_in(question)
    near = nearest_class(question, item, str(place.get("text") or ""))
    if not any(asked[:-1]) or any(a and n not in a for a, n in zip(asked, near, strict=False)):
        return False  # the class word nearest the value is the one asked ('Adult £9.50 Concession ...')
    page = _norm(f"{reading.get('title') or ''} {reading.get('heading') or ''}")
    subject, must = list(part.get("subject") or []), list(part.get("must") or [])
    hits = sum(1 for w in subject if w in page)
    return bool(subject) and hits >= int(part.get("need") or len(subject)) and all(w in page for w in must)


def answer_evidence(
    part: GoalPart,
    questions: list[GoalPart],
    answer: str,
    observation: dict[str, Any],
    readings: dict[str, dict[str, Any] | None],
    step: int,
) -> tuple[dict[str, Any] | None, str]:
    """(evidence, '') for a grounded answer, else (None, what is missing)."""
    text = answer_for(part, questions, answer)
    label = f"the answer to {part.get('question')!r}"
    if not text:
        return None, f"{label}: no answer was given"
    kind = part.get("answer_kind")
    hollow = not_an_answer(part, text)
    if hollow:
        return None, f"{label}: {text[:80]!r} {hollow}"
    wanted = quote_candidates(part, text)
    mine = {q: readings.get(q) for q in wanted}
    broken = error_page(observation, mine)
    if broken:
        return None, f"{label}: {broken}, which answers nothing"
    url = str(observation.get("url") or "")
    if kind in ("attribute", "generic") and results_listing(url):
        return None, f"{label}: {text[:80]!r} comes from a search results listing, not from the page about it"

    def proof(quote: str, element: str) -> dict[str, Any]:
        return {
            "part": part.get("id", ""),
            "kind": "answer",
            "step": step,
            "url": url,
            "element": element,
            "quote": quote[:300],
        }

    if kind == "title":
        title = str(observation.get("title") or "")
        if title and _norm(title) in _norm(text) or _norm(text) == _norm(title):
            return proof(title, "title"), ""
        return None, f"{label}: {text!r} is not the page title"
    if kind == "url":
        return (
            (proof(url, "url"), "")
            if url and url in text
            else (None, f"{label}: {text!r} is not the page URL")
        )
    if not wanted:
        return None, f"{label}: {text!r} quotes nothing from the page"
    located = {
        q: (mine[q] or {}).get("found") if mine[q] is not None else _offline_blocks(q, part, observation)
        for q in wanted
    }
    if kind in ("list", "superlative"):
        missing = [q for q in wanted if not located[q]]
        if missing:
            return None, f"{label}: {missing[0]!r} {NOT_ON_PAGE}"
        first = located[wanted[0]][0]
        return proof("; ".join(wanted), str(first.get("element") or "")), ""
    if kind == "count":
        number = wanted[0]
        places = located[number] or []
        paged = next((m for p in places if (m := misread(part, number, str(p.get("text") or "")))), "")
        if paged:  # "Showing 3 of 128": three are shown, not three in all
            return None, f"{label}: {number!r} was found, but {paged}"
        noun = stem(norm(str(part.get("noun") or "x")).split()[-1])
        said = [p for p in places if noun in norm(str(p.get("text") or ""))]
        if said:
            return proof(
                number, f"{said[0].get('element')} (the page says {str(said[0].get('text'))[:80]!r})"
            ), ""
        uncounted = count_check(part, int(number), mine[number], observation)
        if uncounted:
            return None, f"{label}: {number!r} {uncounted}"
        return proof(f"{number} (counted on the page)", "page"), ""
    yes_no = re.match(r"\W*(?:yes|no)\b", text, re.I)
    if (
        part.get("value_type") == "money"
        and not (PRICE_WORDS.search(text) or yes_no)
        and any(located.values())
    ):
        return None, f"{label}: {text[:80]!r} asks for an amount and the answer holds none"
    why = ""
    for quote in wanted:
        for place in located[quote] or []:
            wrong = misread(part, quote, str(place.get("text") or ""))
            context = " ".join(str(place.get(k) or "") for k in ("text", "label", "column", "row_key"))
            near = near_quote(str(place.get("line") or ""), quote)
            heading = str((mine[quote] or {}).get("heading") or "")
            question = str(part.get("question") or "")
            wrong = (
                wrong
                or former_price(place, quote, question)
                or modified_name(part, f"{context} {near}")
                or qualifier_mismatch(question, context, near)
                or (currency_mismatch(question, quote, near) if part.get("value_type") == "money" else "")
                or past_time_unsaid(question, " ".join(str(place.get(k) or "") for k in _KEYS), near, quote)
                or _units_mismatch(question, f"{context} {near}", heading)
                or rival_key(str(part.get("question") or ""), context, quote, observation)
                or said_of_another(str(part.get("question") or ""), place, quote)
                or unlabelled(part, place)
            )
            if wrong:
                why = why or f"{label}: {quote!r} was found, but {wrong}"
                continue
            if (
                place.get("ok")
                or kind in ("heading", "message")
                or _class_item_of_the_page(part, place, mine[quote])
            ):
                other = column_mismatch(
                    with_this_year(
                        travel_time_asked(question) or question, " ".join(place.get("rival_columns") or [])
                    ),
                    place.get("column"),
                    list(place.get("rival_columns") or []),
                    str(place.get("row_key") or ""),
                )
                if not other:
                    return proof(quote, f"{place.get('element')} in {place.get('block')}"), ""
                why = why or f"{label}: {quote!r} was found, but {other}"
                continue
            why = (
                why
                or f"{label}: {quote!r} was found, but {place.get('why') or 'not next to the subject'} ({' '.join(part.get('subject') or [])})"
            )
    if why:
        return None, why
    return None, f"{label}: {text[:120]!r} {NOT_ON_PAGE}"


__all__ = [
    "holiday_said",
    "latest_asked",
    "soonest_asked",
    "soonest_words",
    "site_words",
]  # the judge reads the site's name and 'the latest' as the planner does
