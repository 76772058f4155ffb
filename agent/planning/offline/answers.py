"""Answering questions from what the page shows, without a model.

The question is classified (count, list, page message, title, attribute of an entity, generic), then answered
from the observation: element geometry first (a price belongs to the product card it sits in), page text lines
second. Answers are always text copied from the page (or a count of page items); when nothing fits, the
answer is "not found" and the caller decides whether to scroll on or give up.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from agent.planning.offline.grammar import ordinal_of
from agent.planning.offline.matching import find_anchor
from agent.planning.offline.page import (
    MONEY_RX,
    Owners,
    directional_distance,
    is_button,
    is_checkable,
    is_clickable,
    is_heading,
    is_link,
    is_select,
    is_text_field,
    listing_items,
    peers_of,
    reading_order,
    role_of,
    visible_text,
)
from agent.planning.offline.text import clip, norm, similarity, stem, token_match, tokens
from agent.types import Element, Observation


@dataclass(frozen=True)
class Answer:
    found: bool
    text: str
    evidence: str = ""


@dataclass(frozen=True)
class Query:
    """What a question asks for."""

    kind: str  # count | list | message | title | url | heading | attribute | superlative | generic
    question: str
    attr: str = ""
    entity: str = ""
    noun: str = ""
    value_type: str = ""
    price_filter: tuple[str, float] | None = None
    yes_no: bool = False


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
    "rating": re.compile(
        r"\b\d(?:[.,]\d)?\s*(?:/\s*5|out\s+of\s+5|stars?|★)|★+☆*|\brated\s+\d(?:[.,]\d)?", re.I
    ),
    "stock": re.compile(
        r"\b(?:in\s+stock|out\s+of\s+stock|sold\s+out|unavailable|available|\d+\s+(?:left|in\s+stock|"
        r"available))\b",
        re.I,
    ),
    "percent": re.compile(r"[-+]?\d+(?:[.,]\d+)?\s?%"),
    "url": re.compile(r"https?://\S+|www\.\S+"),
    "number": re.compile(r"\b\d[\d,]*(?:\.\d+)?\b"),
}
_TYPE_WORDS: tuple[tuple[str, re.Pattern[str]], ...] = (
    ("email", re.compile(r"\be-?mail\b", re.I)),
    ("phone", re.compile(r"\b(?:phone|telephone|mobile|fax|tel)\b|\bcontact\s+number\b", re.I)),
    (
        "money",
        re.compile(
            r"\b(?:price|prices|cost|costs|total|subtotal|fee|fees|shipping|tax|balance|salary|charge|"
            r"fare|how\s+much)\b",
            re.I,
        ),
    ),
    ("rating", re.compile(r"\b(?:rating|ratings|stars|rated|review\s+score)\b", re.I)),
    ("stock", re.compile(r"\b(?:stock|availability|available|inventory)\b", re.I)),
    ("percent", re.compile(r"\b(?:percent|percentage|discount)\b|%", re.I)),
    (
        "date",
        re.compile(
            r"\b(?:date|deadline|published|released|due|born|founded|updated|posted|expires|expiry|"
            r"birthday|when)\b",
            re.I,
        ),
    ),
    ("url", re.compile(r"\b(?:url|website|web\s+site|homepage)\b", re.I)),
)

_REQUEST = re.compile(
    r"^(?:please\s+)?(?:(?:can|could|would|will)\s+you\s+)?(?:tell\s+me|find\s+out|find|get(?:\s+me)?|give\s+me|"
    r"show\s+me|look\s+for|locate|extract|read(?:\s+out)?|report|return|identify|determine|figure\s+out|check|"
    r"let\s+me\s+know|i\s+want\s+to\s+know|answer)\b\s*:?\s*",
    re.I,
)
_TAIL = re.compile(
    r"\s+(?:on|in)\s+(?:the|this)\s+(?:page|site|website|screen|list|listing|results)\b.*$|\s+(?:shown|"
    r"listed|displayed)(?:\s+(?:here|on\s+the\s+page))?$|\s+(?:here|please)$",
    re.I,
)
_PRICE_FILTER = re.compile(
    r"\b(?P<op>under|below|less\s+than|cheaper\s+than|at\s+most|up\s+to|over|above|more\s+than|"
    r"at\s+least|greater\s+than|pricier\s+than)\s+(?P<cur>[$€£])?\s?(?P<n>\d+(?:[.,]\d+)?)",
    re.I,
)
_SUPERLATIVE = re.compile(
    r"\b(?P<s>cheapest|least\s+expensive|lowest[- ]priced|most\s+expensive|priciest|highest[- ]priced|most\s+costly|"
    r"(?:best|highest|top|worst|lowest)[- ]rated|(?:best|highest|top|worst|lowest)\s+(?:average\s+)?rating|"
    r"most\s+reviews|most\s+reviewed|fewest\s+reviews|least\s+reviewed|most\s+popular)\b",
    re.I,
)
_QUESTION_WORDS = frozenset(
    "what what's whats which who whom whose when where why how is are was were does do did "
    "can could has have tell me find get give show list name count the a an of for on in "
    "page site there this that it mention mentions say says contain contains include includes display".split()
)


def _value_type(text: str) -> str:
    for name, rx in _TYPE_WORDS:
        if rx.search(text):
            return name
    return ""


def _noun(rest: str) -> str:
    m = re.match(
        r"^\s*(?:(?:the|of|all|different|distinct|total|unique)\s+)*(?P<n>.+?)(?:\s+(?:are|is|were|was|do|does|"
        r"did|can|could|will|have|has|there|on|in|shown|listed|displayed|available|found|exist|match|matching|"
        r"cost|costing|under|below|over|above|less|more|priced|that|which|with|for|from)\b.*)?$",
        rest,
        re.I,
    )
    return (m.group("n") if m else rest).strip(" ?.")


def subject_words(query: Query) -> list[str]:
    """The content words a question is about (its noun, attribute and entity), for finding where to look."""
    text = " ".join(p for p in (query.noun, query.attr, query.entity) if p) or query.question
    return [t for t in tokens(text) if t not in _QUESTION_WORDS and not t.isdigit() and len(t) > 1]


def analyze(question: str) -> Query:
    """Classify a question and pull out its attribute, entity, noun and filters."""
    q = re.sub(r"\s+", " ", question.strip().rstrip("?.! "))
    low = q.lower()
    filt = _PRICE_FILTER.search(q)
    price_filter = None
    if filt:
        op = filt.group("op").lower()
        sign = "<" if re.match(r"under|below|less|cheaper|at\s+most|up\s+to", op) else ">"
        price_filter = (sign, float(filt.group("n").replace(",", ".")))
    yes_no = bool(re.match(r"^(?:is|are|was|were|does|do|did|can|could|has|have)\b", low))
    m = re.search(
        r"\bhow\s+many\b(?P<r>.*)$|^count\b(?P<r2>.*)$|^(?:what\s+is\s+|what's\s+)?(?:the\s+)?(?:total\s+)?"
        r"(?:number|count)\s+of\b(?P<r3>.*)$",
        _REQUEST.sub("", low),
    )
    if m:
        rest = next(g for g in (m.group("r"), m.group("r2"), m.group("r3")) if g is not None)
        return Query("count", q, noun=_noun(rest), price_filter=price_filter)
    if re.search(
        r"\b(?:page|site|screen|it|website|app|form)\s+(?:now\s+)?(?:say|says|said|show|shows|showing|display|"
        r"displays|read|reads)\b|\bwhat\s+(?:message|text|notification|greeting|error|confirmation|alert|status)"
        r"\b|\b(?:message|greeting|confirmation|notification|alert|error|welcome)\b.*\b(?:shown|displayed|appear"
        r"|appears|say|says|show|shows)\b|\bwhat\s+happen|\bwhat\s+(?:is|was)\s+(?:shown|displayed)\b|^(?:tell\s+"
        r"me\s+)?(?:the\s+)?(?:message|greeting|confirmation|error)$",
        low,
    ):
        return Query("message", q)
    if re.search(
        r"\b(?:title|headline|heading|name)\s+of\s+(?:the\s+|this\s+)?(?:article|post|story|blog(?:\s+post)?|"
        r"news(?:\s+item)?|piece|essay|recipe|video|report)\b(?!\s+\S)",
        low,
    ):
        return Query("heading", q)  # 'the article' alone: its main heading; 'post 57' names an item instead
    if re.search(
        r"\btitle\s+of\s+(?:the\s+|this\s+)?(?:page|tab|site|document|website)\b|^(?:what\s+is\s+)?(?:the\s+)?"
        r"(?:page|tab)\s+title$",
        low,
    ):
        return Query("title", q)
    if re.search(
        r"\b(?:url|address|link)\s+of\s+(?:the\s+|this\s+)?(?:current\s+)?page\b|\bcurrent\s+url\b|\bwhat\s+"
        r"page\s+am\s+i\s+on\b",
        low,
    ):
        return Query("url", q)
    if re.search(
        r"^(?:what\s+is\s+|what's\s+)?(?:the\s+)?(?:main\s+|page\s+)?(?:heading|headline)(?:\s+of\s+(?:the\s+|this"
        r"\s+)?page)?$",
        _REQUEST.sub("", low),
    ):
        return Query("heading", q)
    sup = _SUPERLATIVE.search(q)
    if sup:
        m = re.match(
            r"^(?:which|what)\s+(?:one\s+of\s+the\s+)?(?P<n>.+?)\s+(?:has|have|is|are|was|costs?|gets?|got)\b",
            _REQUEST.sub("", q),
            re.I,
        ) or re.search(
            r"\b"
            + re.escape(sup.group("s"))
            + r"\s+(?P<n>[\w\s-]+?)(?:\s+(?:on|in|of|with|from|under|over)\b.*)?$",
            q,
            re.I,
        )
        noun = m.group("n") if m else ""
        return Query("superlative", q, attr=sup.group("s").lower(), noun=noun, price_filter=price_filter)
    core = _TAIL.sub("", _REQUEST.sub("", q)).strip()
    m = re.match(
        r"^(?:list|name|enumerate)\s+(?:all\s+)?(?:of\s+)?(?:the\s+)?(?P<n>.+)$", q, re.I
    ) or re.match(
        r"^(?:what|which)\s+(?:are|were)\s+(?:all\s+)?(?:the\s+)?(?P<n>.+)$|^(?:show\s+me|give\s+me)\s+(?:all\s+|a\s+list"
        r"\s+of\s+)(?:the\s+)?(?P<n2>.+)$|^which\s+(?P<n3>\w+s)\s+(?:are|were)\b.*$",
        q,
        re.I,
    )
    if m:
        noun = next(g for g in m.groups() if g)
        noun = _TAIL.sub("", noun)
        if not re.search(r"\s(?:of|for)\s", noun):
            return Query("list", q, noun=_noun(noun), value_type=_value_type(noun), price_filter=price_filter)
    attribute = _attribute(core)
    if attribute:
        attr_text, entity = attribute
        return Query(
            "attribute",
            q,
            attr=attr_text,
            entity=entity,
            value_type=_value_type(attr_text or q),
            yes_no=yes_no,
        )
    return Query("generic", q, value_type=_value_type(q), yes_no=yes_no)


def _attribute(core: str) -> tuple[str, str] | None:
    """(attribute, entity) for 'the price of the Blue Widget', 'how much is X', "X's email", 'what is the total'."""
    strip_q = re.sub(r"^(?:what|which)(?:'s|\s+is|\s+was|\s+are|\s+were)?\s+", "", core, flags=re.I)
    patterns = (
        (
            r"^how\s+much\s+(?:is|are|does|do|did|was)\s+(?:the\s+|a\s+|an\s+)?(?P<e>.+?)(?:\s+(?:cost|costs|sell\s+for|go\s+"
            r"for|priced\s+at))?$",
            "price",
        ),
        (r"^what\s+does\s+(?:the\s+|a\s+|an\s+)?(?P<e>.+?)\s+cost$", "price"),
        (
            r"^(?:is|are)\s+(?:the\s+)?(?P<e>.+?)\s+(?:in\s+stock|available|sold\s+out|out\s+of\s+stock)$",
            "stock",
        ),
        (
            r"^when\s+(?:is|was|does|did|will)\s+(?:the\s+)?(?P<e>.+?)\s+(?:due|published|released|start|starts|end|ends|"
            r"open|opens|close|closes|happen|take\s+place|posted|updated|founded|born)$",
            "date",
        ),
        (
            r"^who\s+(?P<a>wrote|created|made|posted|published|directed|sold|owns|authored)\s+(?:the\s+)?(?P<e>.+)$",
            "",
        ),
    )
    for rx, attr_name in patterns:
        m = re.match(rx, core, re.I)
        if m:
            return (attr_name or m.group("a"), m.group("e").strip())
    m = re.match(
        r"^(?:the\s+)?(?P<a>[\w\s-]+?)\s+(?:of|for)\s+(?:the\s+|a\s+|an\s+)?(?P<e>.+)$", strip_q, re.I
    )
    if m and len(m.group("a").split()) <= 4 and not re.match(r"^(?:who|when|where|how|why)\b", strip_q, re.I):
        return (m.group("a").strip(), m.group("e").strip())
    m = re.match(r"^(?:the\s+)?(?P<e>.+?)'s\s+(?P<a>[\w\s-]+)$", strip_q, re.I)
    if m:
        return (m.group("a").strip(), m.group("e").strip())
    if strip_q != core or re.match(r"^(?:the\s+)", core, re.I):
        attr_text = re.sub(r"^(?:the|a|an)\s+", "", strip_q, flags=re.I).strip()
        if (
            attr_text
            and len(attr_text.split()) <= 5
            and not re.match(r"^(?:who|when|where|how|why)\b", attr_text, re.I)
            and not re.search(r"\b(?:is|are|was|were|does|do|did|has|have|can|will)\b", attr_text, re.I)
        ):
            return (attr_text, "")
    return None


# --------------------------------------------------------------------------------------------------------------
# Page text helpers
# --------------------------------------------------------------------------------------------------------------


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


def _first_value(text: str, rx: re.Pattern[str], after: str = "") -> str | None:
    """The first value in ``text``, preferring one after the mention of ``after``."""
    if after:
        pos = norm(text).find(norm(after))
        if pos >= 0:
            lowered = text.lower()
            start = lowered.find(after.lower())
            m = rx.search(text, start + len(after)) if start >= 0 else None
            if m:
                return m.group(0).strip()
    m = rx.search(text)
    if not m:
        return None
    if rx is VALUE_RX["phone"] and len(re.sub(r"\D", "", m.group(0))) < 7:
        return None
    return m.group(0).strip()


def _entity_lines(lines: list[str], entity: str) -> list[int]:
    scored = [(similarity(entity, line), n) for n, line in enumerate(lines)]
    best = max((s for s, _ in scored), default=0.0)
    if best < 0.7:
        return []
    return [n for s, n in scored if s >= best - 0.02]


def _value_near_lines(lines: list[str], entity: str, rx: re.Pattern[str]) -> str | None:
    for n in _entity_lines(lines, entity):
        same = _first_value(lines[n], rx, after=entity)
        if same:
            return same
        for k in (1, 2, 3, 4, -1, -2):
            i = n + k
            if 0 <= i < len(lines):
                if k > 1 and similarity(entity, lines[i]) >= 0.7:
                    break
                v = _first_value(lines[i], rx)
                if v:
                    return v
    return None


def _labelled_value(lines: list[str], attr_text: str, around: list[int] | None = None) -> str | None:
    """'Author: Jane Doe' or 'Author' followed by 'Jane Doe' (definition lists, tables)."""
    words = [re.escape(w) for w in attr_text.split()]
    if not words:
        return None
    label = r"\b" + r"\s+".join(words) + r"s?\b"
    indices = around if around is not None else list(range(len(lines)))
    byline = re.fullmatch(
        r"(?:author|writer|wrote|written|authored|created|made|posted|published|by)", attr_text.strip(), re.I
    )
    for n in indices:
        line = lines[n]
        if byline:
            m = re.search(r"\bby\s+(?P<v>[A-Z][\w.'-]*(?:\s+[A-Z][\w.'-]*){0,3})", line)
            if m:
                return m.group("v")
        m = re.search(label + r"\s*[:：=\-–—]\s*(?P<v>.+)$", line, re.I)
        if m and m.group("v").strip():
            return clip(m.group("v"), 200)
        if re.fullmatch(r"\s*" + label + r"\s*:?\s*", line, re.I) and n + 1 < len(lines):
            return clip(lines[n + 1], 200)
        m = re.match(r"^\s*" + label + r"\s+(?P<v>.{1,80})$", line, re.I)
        if m and around is not None:
            return clip(m.group("v"), 200)
    return None


# --------------------------------------------------------------------------------------------------------------
# Answerers
# --------------------------------------------------------------------------------------------------------------


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
    own = _first_value(visible_text(anchor), rx, after=entity)
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
    return _first_value(visible_text(best), rx)


def _answer_attribute(query: Query, observation: Observation, lines: list[str]) -> Answer:
    rx = VALUE_RX.get(query.value_type)
    entity = re.sub(r"^(?:the|a|an)\s+", "", query.entity, flags=re.I)
    subject = f"the {query.attr} of {entity}" if entity else f"the {query.attr}"
    ordinal = ordinal_of(re.sub(r"^top\b", "first", entity, flags=re.I)) if entity else None
    if ordinal:
        items = listing_items(observation)
        n = ordinal[0]
        if not items or n > len(items):
            return Answer(False, f"Could not find {subject} on the page.")
        item = items[n - 1 if n > 0 else -1]
        if rx is None and re.fullmatch(
            r"(?:title|name|text|heading|headline|label|link)s?", query.attr, re.I
        ):
            return Answer(True, _item_name(item), f"{subject}")
        value = value_for(observation, item, rx, visible_text(item)) if rx is not None else None
        if value:
            return Answer(True, value, f"{subject}: {value}")
        return Answer(False, f"Could not find {subject} on the page.")
    if entity:
        anchor = find_anchor(observation, entity)
        if rx is not None:
            value = (value_for(observation, anchor, rx, entity) if anchor else None) or _value_near_lines(
                lines, entity, rx
            )
            if value:
                return Answer(True, _yes_no(query, value), f"{subject}: {value}")
        around = []
        for n in _entity_lines(lines, entity):
            around.extend(i for i in range(n, min(n + 8, len(lines))) if i not in around)
        if anchor is not None and not around:
            text = norm(visible_text(anchor))
            around = [n for n, line in enumerate(lines) if text and text in norm(line)][:1]
            around = [i for n in around for i in range(n, min(n + 8, len(lines)))]
        value = _labelled_value(lines, query.attr, around) if around else None
        if value:
            return Answer(True, value, f"{subject}: {value}")
        return Answer(False, f"Could not find {subject} on the page.")
    if rx is not None:
        value = _value_by_label_words(lines, query.attr, rx)
        if value:
            return Answer(True, value[0], f"{subject}: {value[1]}")
        amounts = {m.group(0).strip() for line in lines for m in rx.finditer(line)}
        heading = _main_heading(observation)
        if (
            heading is not None
            and query.value_type == "money"
            and len(amounts) <= 3
            and set(tokens(query.attr)) <= {"price", "cost"}
        ):
            v = value_for(observation, heading, rx, visible_text(heading))
            if v:
                return Answer(True, v, f"{subject} near {visible_text(heading)!r}")
        if len(amounts) == 1:
            v = amounts.pop()
            return Answer(True, v, f"the only {query.value_type} value on the page")
    value = _labelled_value(lines, query.attr)
    if value:
        return Answer(True, value, f"{subject}: {value}")
    return Answer(False, f"Could not find {subject} on the page.")


def _value_by_label_words(lines: list[str], attr_text: str, rx: re.Pattern[str]) -> tuple[str, str] | None:
    """A value next to the line that names the attribute: 'Order total: $59.33' for 'the total of my order'.

    The attribute's last word (its head noun) must be on the line; lines naming more of its words win.
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
        for i in (n, n + 1):
            v = _first_value(lines[i], rx, after=head) if i < len(lines) else None
            if v and (best is None or hits > best[0]):
                best = (hits, v, line)
                break
    return (best[1], best[2]) if best else None


def _yes_no(query: Query, value: str) -> str:
    if not query.yes_no or query.value_type != "stock":
        return value
    negative = re.search(r"out\s+of\s+stock|sold\s+out|unavailable|\b0\s+(?:left|in\s+stock)", value, re.I)
    return f"{'No' if negative else 'Yes'} ({value})"


def _main_heading(observation: Observation) -> Element | None:
    heads = [
        e
        for e in reading_order(observation.get("elements") or [])
        if is_heading(e) and (e.get("zone") or "main") in ("main", "dialog")
    ]
    h1 = [e for e in heads if (e.get("tag") or "").lower() == "h1"]
    return (h1 or heads or [None])[0]


_UI_NOUNS = {
    "link": is_link,
    "button": is_button,
    "checkbox": is_checkable,
    "box": is_checkable,
    "field": is_text_field,
    "input": is_text_field,
    "textbox": is_text_field,
    "dropdown": is_select,
    "image": lambda e: role_of(e) == "img",
    "heading": is_heading,
    "tab": lambda e: role_of(e) == "tab",
}
_COUNT_WORDS = (
    "result",
    "item",
    "product",
    "match",
    "hit",
    "entry",
    "record",
    "listing",
    "article",
    "post",
    "job",
    "review",
    "comment",
    "user",
    "order",
    "message",
    "book",
    "course",
    "event",
    "file",
    "question",
    "answer",
)


def _explicit_count(lines: list[str], noun: str) -> tuple[str, str] | None:
    """A count the page states: '245 results', 'Showing 1-20 of 245 products', 'Results: 245'."""
    noun_words = {stem(w) for w in norm(noun).split()} - {"the", "all"}
    words = sorted(noun_words | set(_COUNT_WORDS), key=len, reverse=True)
    alt = "|".join(re.escape(w) for w in words if w)
    if not alt:
        return None
    patterns = (
        rf"\bof\s+(?:about\s+|over\s+)?(?P<n>\d[\d,.]*)\s*(?:{alt})(?:e?s)?\b",
        rf"(?<![\d.,])(?P<n>\d[\d,.]*)\s+(?:\w+\s+)?(?:{alt})(?:e?s)?\b",
        rf"\b(?:{alt})(?:e?s)?\s*(?:found|total)?\s*[:(]\s*(?P<n>\d[\d,.]*)",
    )
    best: tuple[int, str, str] | None = None
    for priority, rx in enumerate(patterns):
        for line in lines:
            for m in re.finditer(rx, line, re.I):
                mentioned = any(w in norm(m.group(0)) for w in noun_words) if noun_words else False
                rank = priority - (10 if mentioned else 0)
                if best is None or rank < best[0]:
                    best = (rank, m.group("n").rstrip(".,"), line)
    if best is None:
        return None
    if best[0] >= 0 and noun_words and not noun_words & set(_COUNT_WORDS):
        return None
    return best[1], best[2]


@dataclass(frozen=True)
class Item:
    """One listing entry with the facts its card shows."""

    element: Element
    name: str
    block: str  # the card's text from the page text: category, stock, etc. live here
    price: float | None
    price_text: str
    rating: float | None
    rating_text: str
    reviews: int


_RATING_VALUE = re.compile(
    r"(?P<r>\d(?:[.,]\d+)?)\s*(?:/\s*5|out\s+of\s+5|stars?|★)|\brated\s+(?P<r2>\d(?:[.,]\d+)?)|(?P<stars>★+)",
    re.I,
)
_REVIEWS = re.compile(r"(\d[\d,]*)\s+(?:reviews?|ratings?)", re.I)


def _card_blocks(items: list[Element], lines: list[str]) -> dict[Any, str]:
    """Each item's card text: the page-text lines from its name to the next item's name."""
    starts: list[int | None] = []
    pos = 0
    for item in items:
        name = norm(_item_name(item))
        idx = next((i for i in range(pos, len(lines)) if norm(lines[i]) == name), None)
        if idx is None:
            idx = next((i for i in range(pos, len(lines)) if name and name in norm(lines[i])), None)
        starts.append(idx)
        if idx is not None:
            pos = idx + 1
    found = [i for i in starts if i is not None]
    sizes = sorted(b - a for a, b in zip(found, found[1:], strict=False))
    typical = sizes[len(sizes) // 2] if sizes else 15
    blocks: dict[Any, str] = {}
    for k, (item, idx) in enumerate(zip(items, starts, strict=True)):
        if idx is None:
            blocks[item.get("id")] = visible_text(item)
            continue
        nxt = next((s for s in starts[k + 1 :] if s is not None), None)
        end = nxt if nxt is not None else idx + typical  # the last card is as long as a typical one
        blocks[item.get("id")] = "\n".join(lines[idx : min(end, idx + 15, len(lines))])
    return blocks


def _rating_of(text: str) -> tuple[float | None, str]:
    m = _RATING_VALUE.search(text or "")
    if not m:
        return None, ""
    if m.group("stars"):
        return float(len(m.group("stars"))), m.group(0)
    raw = (m.group("r") or m.group("r2") or "").replace(",", ".")
    line = next((ln for ln in text.split("\n") if m.group(0) in ln), m.group(0))
    return float(raw), clip(line, 80)


def page_items(observation: Observation, lines: list[str]) -> list[Item]:
    """The listing's items with price, rating and review count read from their cards."""
    items = listing_items(observation)
    owners = Owners(items)
    owned: dict[Any, list[Element]] = {}
    for el in observation.get("elements") or []:
        text = visible_text(el)
        if el.get("id") in {i.get("id") for i in items} or not (
            MONEY_RX.search(text) or _RATING_VALUE.search(text)
        ):
            continue
        found = owners.owner(el, window=600.0)
        if found is not None:
            owned.setdefault(found.get("id"), []).append(el)
    blocks = _card_blocks(items, lines)
    out = []
    for item in items:
        near = sorted(owned.get(item.get("id"), []), key=lambda e: directional_distance(item, e))
        facts = "\n".join([visible_text(item)] + [visible_text(e) for e in near])
        block = blocks.get(item.get("id"), "")
        money = MONEY_RX.search(facts) or MONEY_RX.search(block)
        rating, rating_text = _rating_of(facts)
        if rating is None:
            rating, rating_text = _rating_of(block)
        reviews = _REVIEWS.search(facts) or _REVIEWS.search(block)
        price_text = money.group(0) if money else ""
        out.append(
            Item(
                element=item,
                name=_item_name(item),
                block=block or visible_text(item),
                price=parse_money(price_text),
                price_text=price_text,
                rating=rating,
                rating_text=rating_text,
                reviews=int(reviews.group(1).replace(",", "")) if reviews else 0,
            )
        )
    return out


def _qualifiers(noun: str) -> list[str]:
    """Words of the noun that narrow the listing ('Electronics' in 'Electronics products')."""
    return [t for t in tokens(noun) if t not in _COUNT_WORDS and t not in ("thing", "one", "all", "every")]


def _filter_items(query: Query, observation: Observation, lines: list[str]) -> list[Item]:
    items = page_items(observation, lines)
    wanted = _qualifiers(query.noun)
    if wanted:
        items = [
            i for i in items if all(any(token_match(w, t) >= 0.8 for t in tokens(i.block)) for w in wanted)
        ]
    if query.price_filter:
        sign, limit = query.price_filter
        items = [
            i for i in items if i.price is not None and (i.price < limit if sign == "<" else i.price > limit)
        ]
    return items


def _item_name(el: Element) -> str:
    text = visible_text(el)
    return clip(MONEY_RX.sub("", text).strip(" -–|·,") or text, 100)


def _answer_count(query: Query, observation: Observation, lines: list[str]) -> Answer:
    noun_key = stem(norm(query.noun).split()[-1]) if norm(query.noun) else ""
    if noun_key in _UI_NOUNS:
        n = sum(
            1
            for e in observation.get("elements") or []
            if _UI_NOUNS[noun_key](e) and (e.get("zone") or "main") in ("main", "dialog")
        )
        return Answer(True, str(n), f"counted {n} {query.noun} in the main content")
    if not query.price_filter:
        stated = _explicit_count(lines, query.noun)
        qualifiers = _qualifiers(query.noun)
        if stated and all(any(token_match(q, t) >= 0.8 for t in tokens(stated[1])) for q in qualifiers):
            return Answer(True, stated[0], f"the page says: {clip(stated[1], 120)}")
    items = _filter_items(query, observation, lines)
    if items:
        return Answer(True, str(len(items)), f"counted {len(items)} {query.noun or 'items'} in the listing")
    if query.price_filter and listing_items(observation):
        return Answer(True, "0", f"no {query.noun or 'items'} in the listing match the price filter")
    return Answer(False, f"Could not find how many {query.noun or 'items'} there are on the page.")


def _answer_list(query: Query, observation: Observation, lines: list[str]) -> Answer:
    if query.value_type and query.value_type in VALUE_RX and not query.price_filter:
        rx = VALUE_RX[query.value_type]
        seen: list[str] = []
        for line in lines:
            for m in rx.finditer(line):
                if m.group(0).strip() not in seen:
                    seen.append(m.group(0).strip())
        if seen:
            return Answer(True, "; ".join(seen[:50]), f"{len(seen)} values")
    items = _filter_items(query, observation, lines)
    if not items:
        return Answer(False, f"Could not find a list of {query.noun or 'items'} on the page.")
    names = [i.name + (f" ({i.price_text})" if query.price_filter and i.price_text else "") for i in items]
    text = "; ".join(names[:50]) + (f" … ({len(names)} in total)" if len(names) > 50 else "")
    return Answer(True, text, f"{len(names)} items in the listing")


def _answer_superlative(query: Query, observation: Observation, lines: list[str]) -> Answer:
    items = _filter_items(query, observation, lines)
    low = query.attr.lower()
    if re.search(r"rat|review|popular", low):
        rated = [i for i in items if i.rating is not None]
        if not rated:
            return Answer(False, f"Could not find rated {query.noun or 'items'} on the page.")
        worst = bool(re.search(r"worst|lowest|fewest|least", low))
        by_reviews = "review" in low and "rating" not in low
        key = (lambda i: (i.reviews, i.rating)) if by_reviews else (lambda i: (i.rating, i.reviews))
        best = (min if worst else max)(rated, key=key)
        return Answer(True, f"{best.name} ({best.rating_text})", f"{len(rated)} rated items compared")
    priced = [i for i in items if i.price is not None]
    if not priced:
        return Answer(False, f"Could not find priced {query.noun or 'items'} on the page.")
    cheapest = low.startswith(("cheap", "least", "lowest"))
    best = (min if cheapest else max)(priced, key=lambda i: i.price or 0.0)
    return Answer(True, f"{best.name} ({best.price_text})", f"{len(priced)} priced items compared")


def page_message(observation: Observation) -> str:
    """What the page announces: alert/status text, else text that just appeared (a confirmation, an error)."""
    elements = reading_order(observation.get("elements") or [])
    alerts = [visible_text(e) for e in elements if role_of(e) in ("alert", "status") and visible_text(e)]
    if alerts:
        return clip(" ".join(dict.fromkeys(alerts)), 300)
    fresh = [
        e
        for e in elements
        if e.get("new")
        and not is_clickable(e)
        and len(visible_text(e)) >= 3
        and (e.get("zone") or "main") in ("main", "dialog")
    ]
    fresh.sort(key=lambda e: (not is_heading(e),))
    return clip(" ".join(dict.fromkeys(visible_text(e) for e in fresh[:2])), 300)


def _answer_message(observation: Observation) -> Answer:
    message = page_message(observation)
    if message:
        return Answer(True, message, "alert, status or new content")
    heading = _main_heading(observation)
    if heading is not None:
        text = visible_text(heading)
        lines = page_lines(observation)
        follow = ""
        for n, line in enumerate(lines):
            if norm(line) == norm(text) and n + 1 < len(lines) and len(lines[n + 1]) > 3:
                follow = lines[n + 1]
                break
        return Answer(
            True, clip(f"{text} — {follow}" if follow and len(follow) < 200 else text, 300), "main heading"
        )
    lines = page_lines(observation)
    if lines:
        return Answer(True, clip(lines[0], 300), "first line of the page")
    return Answer(False, "Could not find any message on the page.")


_WH_TYPES = {"when": "date", "how much": "money"}
_PERSON_RX = re.compile(r"\b[A-Z][a-z]+(?:\s+(?:[A-Z]\.|[A-Z][a-z]+|van|de|von|da))*\s+[A-Z][a-z]+\b")


def _answer_generic(query: Query, observation: Observation, lines: list[str]) -> Answer:
    words = [t for t in tokens(query.question) if t not in _QUESTION_WORDS and len(t) > 1]
    if not words:
        return Answer(False, f'Could not find an answer to "{query.question}" on the page.')
    low = query.question.lower()
    wanted = next((t for w, t in _WH_TYPES.items() if low.startswith(w)), query.value_type)
    typed = VALUE_RX.get(wanted)
    best: tuple[float, int] | None = None
    for n, line in enumerate(lines):
        line_tokens = tokens(line)
        if not line_tokens:
            continue
        covered = sum(max((token_match(w, t) for t in line_tokens), default=0.0) for w in words) / len(words)
        extra = len([t for t in line_tokens if not any(token_match(w, t) >= 0.8 for w in words)])
        score = covered + (0.05 if extra else 0.0)
        if typed is not None and covered > 0 and _first_value(line, typed):
            score += 0.15
        if best is None or score > best[0] + 1e-9:
            best = (score, n)
    if best is None or best[0] < 0.55:
        return Answer(False, f'Could not find an answer to "{query.question}" on the page.')
    n = best[1]
    line = lines[n]
    context = line + (" " + lines[n + 1] if n + 1 < len(lines) else "")
    if typed is not None:
        v = _first_value(context, typed)
        if v:
            return Answer(True, v, clip(line, 200))
    if low.startswith("who"):
        asked = {norm(w) for w in query.question.split()}
        for m in _PERSON_RX.finditer(context):
            words = [w for w in m.group(0).split() if norm(w) not in asked]
            if len(words) >= 2:
                return Answer(True, " ".join(words), clip(line, 200))
    if query.yes_no:
        return Answer(True, f"Yes: {clip(line, 280)}", "the page mentions it")
    if all(any(token_match(w, t) >= 0.8 for w in words) for t in tokens(line)) and n + 1 < len(lines):
        return Answer(True, clip(f"{line} {lines[n + 1]}", 300), "label and value")
    return Answer(True, clip(line, 300), "best matching line")


def answer_question(question: str, observation: Observation) -> Answer:
    """Answer ``question`` from the observation, or say it is not there."""
    query = analyze(question)
    lines = page_lines(observation)
    if query.kind == "count":
        return _answer_count(query, observation, lines)
    if query.kind == "list":
        return _answer_list(query, observation, lines)
    if query.kind == "message":
        return _answer_message(observation)
    if query.kind == "title":
        title = observation.get("title") or ""
        return Answer(bool(title), title or "Could not find the page title.", "page title")
    if query.kind == "url":
        url = observation.get("url") or ""
        return Answer(bool(url), url or "Could not find the page URL.", "page URL")
    if query.kind == "heading":
        heading = _main_heading(observation)
        if heading is not None:
            return Answer(True, visible_text(heading), "main heading")
        title = observation.get("title") or ""
        return Answer(bool(title), title or "Could not find a heading on the page.", "page title")
    if query.kind == "superlative":
        return _answer_superlative(query, observation, lines)
    if query.kind == "attribute":
        found = _answer_attribute(query, observation, lines)
        if found.found:
            return found
        if query.entity and _names_missing(query, lines):
            return found
        generic = _answer_generic(query, observation, lines)
        typed = VALUE_RX.get(query.value_type)
        if generic.found and (typed is None or typed.search(generic.text)):
            return generic
        return found
    return _answer_generic(query, observation, lines)


def _names_missing(query: Query, lines: list[str]) -> bool:
    """The question names an entity in capitals that the page never mentions (a 'Purple Widget')."""
    names = re.findall(r"\b[A-Z][\w-]*(?:\s+[A-Z][\w-]*)*", query.entity)
    text = norm(" ".join(lines))
    return any(norm(name) not in text for name in names)
