"""Finding typed values (money, dates, emails, ...) in page text: near an entity, after a label, inside the card
of an anchor element.
"""

from __future__ import annotations

import re

from agent.planning.offline.listings import peers_of
from agent.planning.offline.page import MONEY_RX, Owners, directional_distance, reading_order, visible_text
from agent.planning.offline.text import clip, norm, similarity, token_match, tokens
from agent.planning.offline.vocabulary import label_forms
from agent.types import Element, Observation

_MONTHS = r"(?:jan|feb|mar|apr|may|jun|jul|aug|sep|sept|oct|nov|dec)[a-z]*\.?"


VALUE_RX: dict[str, re.Pattern[str]] = {
    "money": MONEY_RX,
    "email": re.compile(r"[\w.+-]+@[\w-]+(?:\.[\w-]+)+"),
    "phone": re.compile(
        r"(?<![\w@])(?:\+\d{1,3}[\s.-]?)?(?:\(\d{2,4}\)[\s.-]?)?\d{2,4}(?:[\s.-]\d{2,4}){1,4}(?![\w@])"
    ),
    "date": re.compile(
        r"\b\d{4}-\d{2}-\d{2}\b|\b\d{1,2}/\d{1,2}/\d{2,4}\b|\b"
        + _MONTHS
        + r"\s+\d{1,2}(?:st|nd|rd|th)?,?\s+\d{4}\b|"
        r"\b\d{1,2}(?:st|nd|rd|th)?\s+" + _MONTHS + r",?\s+\d{4}\b|\b" + _MONTHS + r"\s+\d{4}\b",
        re.I,
    ),
    "time": re.compile(
        r"\b\d{1,2}(?:[:.]\d{2})?\s?(?:am|pm)\b(?:\s*(?:to|until|till|-|–|—)\s*\d{1,2}(?:[:.]\d{2})?\s?(?:am|pm)\b)?"
        r"|\b\d{1,2}:\d{2}\b(?:\s*(?:to|until|till|-|–|—)\s*\d{1,2}:\d{2}\b)?|\b(?:closed|noon|midday|midnight)\b",
        re.I,
    ),
    "rating": re.compile(
        r"\b\d(?:[.,]\d)?\s*(?:/\s*5|out\s+of\s+5|stars?|★)|★+☆*|\brated\s+\d(?:[.,]\d)?", re.I
    ),
    "stock": re.compile(
        r"\b(?:in\s+stock|out\s+of\s+stock|sold\s+out|unavailable|available|\d+\s+(?:left|in\s+stock|"
        r"available))\b",
        re.I,
    ),
    "percent": re.compile(r"[-+]?\d+(?:[.,]\d+)?\s?%"),
    "weight": re.compile(  # (never '21st' or '1 St Mary's Road': stones only with their pounds)
        r"\b\d+(?:[.,]\d+)?\s?(?:kg|kgs|kilos?|kilograms?|g|grams?|lbs?|pounds|oz|ounces?|tonnes?)\b"
        r"|\b\d{1,2}\s?st(?:one)?\s+\d{1,2}\s?(?:lb|lbs|pounds)\b",
        re.I,
    ),
    "url": re.compile(r"https?://\S+|www\.\S+"),
    "version": re.compile(r"\bv?\d+(?:\.\d+){1,3}\b"),
    # a figure with the unit after it, when there is one ("512 MiB", "30 s", "35 days")
    "number": re.compile(
        r"\b\d[\d,]*(?:\.\d+)?(?:\s?(?:[kmgtp]i?b|bytes?|ms|s|secs?|seconds?|mins?|minutes?|h|hrs?|hours?|days?|"
        r"weeks?|months?|years?|%|km|mi|miles?|m|cm|mm|kg|g|lbs?|mph|km/h|°[cf]|requests?|connections?|"
        r"items?|times|attempts?|retries|people|seats?)\b|\b)",
        re.I,
    ),
}


#: Words that only say a value is an amount ('the concession price', 'the return fare'): the other words of the
#: attribute say which amount.
MONEY_NOUNS = frozenset(
    "price prices cost costs fee fees fare fares charge charges amount amounts total sum".split()
)


def page_lines(observation: Observation) -> list[str]:
    text = observation.get("page_text") or ""
    if not text:
        text = "\n".join(visible_text(e) for e in reading_order(observation.get("elements") or []))
    return [re.sub(r"\s+", " ", line).strip() for line in text.split("\n") if line.strip()]


def parse_money(text: str) -> float | None:
    m = MONEY_RX.search(text or "")
    if not m:
        return None
    digits = re.sub(r"[^\d.,]", "", m.group(0))
    if re.search(r",\d{1,2}$", digits) and "." not in digits:
        digits = digits.replace(",", ".")
    digits = digits.replace(",", "")
    try:
        return float(digits)
    except ValueError:
        return None


def first_value(text: str, rx: re.Pattern[str], after: str = "", within: int | None = None) -> str | None:
    """The first value in ``text``, preferring one after the mention of ``after`` (with ``within``: one that
    starts at most that many characters after it, as an item's own price follows its name)."""
    if after and within is not None:
        said = _said_at(text, after)
        m = rx.search(text, said) if said is not None else None
        if m and m.start() - said <= within:
            return m.group(0).strip()
        after = ""
    if after:
        pos = norm(text).find(norm(after))
        if pos >= 0:
            lowered = text.lower()
            start = lowered.find(after.lower())
            m = rx.search(text, start + len(after)) if start >= 0 else None
            if m:
                return m.group(0).strip()
        said = _said_at(text, after)
        m = rx.search(text, said) if said is not None else None
        if m and m.start() - said <= 30:  # ('Compact from £42.00/day 7-seater from £68.00/day')
            return m.group(0).strip()
    m = rx.search(text)
    if not m:
        return None
    if rx is VALUE_RX["phone"] and len(re.sub(r"\D", "", m.group(0))) < 7:
        return None
    return m.group(0).strip()


def _said_at(text: str, name: str) -> int | None:
    """Where the mention of ``name`` ends in ``text``, its words written with any spaces or hyphens between
    them ('7-seater' for '7 seater for a week'): the longest leading run of two or more of its words."""
    words = re.findall(r"[a-z0-9]+", name.lower())
    for k in range(len(words), 1 if len(words) > 1 else 0, -1):
        m = re.search(r"\b" + r"[\s/-]*".join(map(re.escape, words[:k])) + r"\b", text, re.I)
        if m:
            return m.end()
    return None


def entity_lines(lines: list[str], entity: str) -> list[int]:
    scored = [(similarity(entity, line), n) for n, line in enumerate(lines)]
    best = max((s for s, _ in scored), default=0.0)
    if best < 0.7:
        return []
    return [n for s, n in scored if s >= best - 0.02]


def _added_words(line: str, entity: str, rx: re.Pattern[str]) -> int:
    """How many words the line's name (before its first value) adds to the entity: 'Harbour lamp Pro: £79.00'
    adds one to 'Harbour lamp', so 'Harbour lamp: £45.00' is read first."""
    m = rx.search(line)
    return len(set(tokens(line[: m.start()] if m else line)) - set(tokens(entity)) - MONEY_NOUNS)


def value_near_lines(lines: list[str], entity: str, rx: re.Pattern[str]) -> str | None:
    for n in sorted(entity_lines(lines, entity), key=lambda n: _added_words(lines[n], entity, rx)):
        same = first_value(lines[n], rx, after=entity)
        if same:
            return same
        for k in (1, 2, 3, 4, -1, -2):
            i = n + k
            if 0 <= i < len(lines):
                if k > 1 and similarity(entity, lines[i]) >= 0.7:
                    break
                v = first_value(lines[i], rx)
                if v:
                    return v
    return None


_NEXT_LABEL = re.compile(r"\.\s+[A-Z][\w ]{0,30}:\s")


def _own_value(text: str) -> str:
    """The value up to the next 'Label:' on the same line ('integer. Default: 3.' -> 'integer'); a one-word
    value loses the full stop that ends its sentence."""
    cut = _NEXT_LABEL.search(text)
    value = (text[: cut.start()] if cut else text).strip()
    return value[:-1] if value.endswith(".") and " " not in value else value


def labelled_value(lines: list[str], attr_text: str, around: list[int] | None = None) -> str | None:
    """'Author: Jane Doe' or 'Author' followed by 'Jane Doe' (definition lists, tables); the attribute as asked
    first, then the other names pages give it ('Telephone' for 'phone', 'Led by' for 'leads')."""
    if not attr_text.split():
        return None
    indices = around if around is not None else list(range(len(lines)))
    byline = re.fullmatch(
        r"(?:author|writer|wrote|written|authored|created|made|posted|published|by)", attr_text.strip(), re.I
    )
    for k, form in enumerate(label_forms(attr_text)):
        found = _labelled(lines, form, indices, around is not None, bool(byline) and k == 0)
        if found:
            return found
    return None


def _labelled(lines: list[str], form: str, indices: list[int], near_entity: bool, byline: bool) -> str | None:
    label = r"\b" + r"\s+".join(re.escape(w) for w in form.split()) + r"s?\b"
    for n in indices:
        line = lines[n]
        if byline:
            m = re.search(r"\b[Bb]y\s+(?P<v>[A-Z][\w.'-]*(?:\s+[A-Z][\w.'-]*){0,3})", line)
            if m:
                return m.group("v")
        m = re.search(label + r"\s*[:：=\-–—]\s*(?P<v>.+)$", line, re.I)
        if m and m.group("v").strip():
            return clip(_own_value(m.group("v")), 200)
        if re.fullmatch(r"\s*" + label + r"\s*:?\s*", line, re.I) and n + 1 < len(lines):
            return clip(lines[n + 1], 200)
        m = re.match(r"^\s*" + label + r"\s+(?P<v>.{1,80})$", line, re.I)
        if m and near_entity and not re.match(r"(?:by|of|for|to|at|in|on|from|with)\b", m.group("v"), re.I):
            return clip(m.group("v"), 200)
    return None


def _value_elements(observation: Observation, rx: re.Pattern[str]) -> list[Element]:
    return [
        e
        for e in observation.get("elements") or []
        if rx.search(visible_text(e))
        and len(visible_text(e)) <= 120
        and (e.get("zone") or "main") not in ("nav", "footer")
    ]


def value_for(observation: Observation, anchor: Element, rx: re.Pattern[str], entity: str) -> str | None:
    """A value of the kind ``rx`` that belongs to the card/row of ``anchor``."""
    own = first_value(visible_text(anchor), rx, after=entity)
    if own:
        return own
    values = [
        e
        for e in _value_elements(observation, rx)
        if e.get("id") != anchor.get("id") and directional_distance(anchor, e) < 800
    ]
    if not values:
        return None
    owners = Owners(peers_of(anchor, observation))
    owned = [e for e in values if owners.owns(anchor, e)]
    pool = owned or [e for e in values if directional_distance(anchor, e) < 400]
    if not pool:
        return None
    best = min(pool, key=lambda e: directional_distance(anchor, e))
    return first_value(
        visible_text(best), rx, after=visible_text(anchor) or entity, within=30
    )  # (a line of several)


def value_by_label_words(
    lines: list[str], attr_text: str, rx: re.Pattern[str], *, same_line: bool = False
) -> tuple[str, str] | None:
    """A value next to the line that names the attribute: 'Order total: $59.33' for 'the total of my order'.

    The attribute's last word (its head noun) must be on the line; lines naming more of its words win. With
    ``same_line`` the value must stand on the label's own line ('Left to pay £270.00').
    """
    words = [w for w in tokens(attr_text) if w not in ("my", "last", "current")] or list(tokens(attr_text))
    if not words:
        return None
    head = words[-1]
    best: tuple[int, str, str] | None = None
    for n, line in enumerate(lines):
        line_tokens = tokens(line)
        if not any(token_match(head, t) >= 0.8 for t in line_tokens):
            continue
        hits = sum(1 for w in words if any(token_match(w, t) >= 0.8 for t in line_tokens))
        # the next line's value only under a label of a few words: a table's header row ('Date Description
        # Charged Paid Balance') is no label of the first row's first amount
        for i in (n, n + 1) if len(line_tokens) <= 4 and not same_line else (n,):
            v = first_value(lines[i], rx, after=head) if i < len(lines) else None
            if v and (best is None or hits > best[0]):
                best = (hits, v, line)
                break
    return (best[1], best[2]) if best else None


#: What any answer to 'when' holds: a figure, a month or a day, or a word of time ('daily', 'closed', 'noon').
WHEN_ANSWER = re.compile(
    rf"\d|\b{_MONTHS}(?!\w)|\b(?:mon|tues?|wed(?:nes)?|thu(?:rs?)?|fri|sat(?:ur)?|sun)(?:day)?s?\b|\b(?:today|"
    r"tomorrow|tonight|yesterday|daily|weekly|monthly|yearly|annually|weekdays?|weekends?|morning|afternoon|evening|"
    r"night|noon|midday|midnight|closed|open|always|never|now|soon|hours?|days?|weeks?|months?|years?|spring|"
    r"summer|autumn|fall|winter|christmas|easter|holidays?|before|after|until|since|during|every|each|next|last|"
    r"ago|late|early)\b",
    re.I,
)

#: What answers 'when': a date, or a time of day ('9am to 4pm', '12:00-16:00', 'Closed').
WHEN_RX = re.compile(f"{VALUE_RX['date'].pattern}|{VALUE_RX['time'].pattern}", re.I)


def names_someone(answer: str, question: str) -> bool:
    """Whether an answer to 'who' can name someone: a short answer ('bob', 'Tom Okafor'), or one holding a
    capitalized word the question does not ('The CTO is Tom Okafor'); a page's tagline is neither."""
    text = answer.strip()
    if len(text.split()) <= 3:
        return True
    asked = {w.lower() for w in re.findall(r"[\w'’-]+", question)}
    names = [w for w in re.findall(r"\b[A-Z][\w'’-]*", text) if w.lower() not in asked]
    return bool(names)
