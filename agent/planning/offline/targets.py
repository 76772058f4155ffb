"""Element references and values inside a clause: quoted values, 'the "Sign in" button', 'the 3rd result',
'X next to Y', lists of targets.
"""

from __future__ import annotations

import re

from agent.planning.offline.intents import Click
from agent.planning.offline.text import MASK, has_mask, only_mask, ordinal_value, quote, unmask
from agent.planning.offline.vocabulary import CLICK_HINTS, ORDINAL_HEADS, ORDINAL_NOUNS, PRONOUNS, ROLE_WORDS

I = re.IGNORECASE  # noqa: E741 - short alias keeps the rule patterns readable

ARTICLES = re.compile(r"^(?:the|a|an|this|that|your|my|our|its|their|some|any)(?:\s+|$)", re.I)


_VALUE_NOISE = {
    "the",
    "a",
    "an",
    "text",
    "word",
    "words",
    "value",
    "string",
    "phrase",
    "query",
    "term",
    "number",
    "name",
    "following",
    "keyword",
    "keywords",
}


def value(text: str, spans: tuple[str, ...]) -> str:
    """The literal value a clause carries: a quoted span verbatim, else the words (quotes removed)."""
    t = text.strip()
    idx = only_mask(t)
    if idx is not None and idx < len(spans):
        return spans[idx]
    if has_mask(t):
        words = re.sub(MASK + r"\d+" + MASK, " ", t).lower().split()
        if all(w in _VALUE_NOISE for w in words):
            inner = re.search(MASK + r"(\d+)" + MASK, t)
            if inner and int(inner.group(1)) < len(spans):
                return spans[int(inner.group(1))]
    return unmask(t, spans).strip().strip(".,;:!?").strip()


def shown(text: str, spans: tuple[str, ...]) -> str:
    """The clause as the user wrote it, quotes restored (for questions and error messages)."""
    return re.sub(
        MASK + r"(\d+)" + MASK,
        lambda m: quote(spans[int(m.group(1))]) if int(m.group(1)) < len(spans) else "",
        text,
    ).strip()


_LABELLED = re.compile(
    r"^(?P<role>[\w -]+?)\s+(?:labell?ed|named|called|titled|saying|that\s+says|which\s+says|with\s+(?:the\s+)?"
    r"(?:text|label|name|caption|title))\s+(?P<p>.+)$",
    I,
)


def _role_word_rx(roles: tuple[str, ...]) -> list[tuple[re.Pattern[str], str]]:
    pairs = [(w, r) for r in roles for w in ROLE_WORDS[r]]
    pairs.sort(key=lambda p: -len(p[0]))
    return [(_word_at_end(w), r) for w, r in pairs]


_WORD_AT_END: dict[str, re.Pattern[str]] = {}


def _word_at_end(word: str) -> re.Pattern[str]:
    """The pattern of a role word ending a reference ('the blue drop down'), compiled once per process."""
    rx = _WORD_AT_END.get(word)
    if rx is None:
        rx = _WORD_AT_END[word] = re.compile(
            r"(?:^|\s)" + re.escape(word).replace(r"\ ", r"[\s-]+") + r"$", I
        )
    return rx


def compile_role_words() -> None:
    """Compile every role word's pattern now (the goal reader's warm-up, off the first steps' path)."""
    for words in ROLE_WORDS.values():
        for word in words:
            _word_at_end(word)


_ROLE_RX_CACHE: dict[tuple[str, ...], list[tuple[re.Pattern[str], str]]] = {}

#: Words after a role word that place or qualify it instead of naming it ('the button below').
_NOT_A_NAME = re.compile(
    r"^(?:below|above|here|there|again|now|too|first|last|next|previous|instead|itself|only|once|twice|"
    r"on|in|at|of|to|for|with|by|from|and|or|then|that|which|it)$",
    I,
)


_NAMED_ROLES = ("button", "link", "tab", "checkbox", "radio")


def _role_then_name(t: str, rxs: list[tuple[re.Pattern[str], str]]) -> tuple[str, str] | None:
    """'button ONE' -> ('ONE', 'button'): a role word followed by a bare one- or two-word name."""
    m = re.match(
        r"^(?P<w>[a-z][\w-]*(?:\s+[a-z][\w-]*)?)\s+(?P<n>[A-Za-z][\w'-]*(?:\s+[A-Za-z][\w'-]*)?)$", t, I
    )
    if not m:
        return None
    for split in (m.group("w"), m.group("w").split()[0]):
        name = t[len(split) :].strip()
        role = next((r for rx, r in rxs if r in _NAMED_ROLES and rx.fullmatch(" " + split)), None)
        if role is None or not name:
            continue
        words = name.split()
        if any(_NOT_A_NAME.match(w) for w in words):
            return None
        if any(r and rx.search(" " + words[-1]) for rx, r in rxs):
            return None  # 'input field', 'menu item': the name is a role word too
        if name.islower() and any(rx.search(" " + words[-1]) for rx, _r in rxs):
            return None  # 'the button one' is a button; 'button ONE' names one
        return name, role
    return None


def target_of(text: str, spans: tuple[str, ...], roles: tuple[str, ...]) -> tuple[str, str]:
    """Split an element reference into (phrase, role hint): 'the "Sign in" button' -> ('Sign in', 'button')."""
    rxs = _ROLE_RX_CACHE.get(roles)
    if rxs is None:  # built once per role set: ~100 patterns, which re's own small cache would keep evicting
        rxs = _ROLE_RX_CACHE[roles] = _role_word_rx(roles)
    t = ARTICLES.sub("", text.strip()).strip()
    m = _LABELLED.match(t)
    if m:
        head = " " + ARTICLES.sub("", m.group("role")).strip()
        role = next((r for rx, r in rxs if rx.search(head)), "")
        return value(ARTICLES.sub("", m.group("p").strip()), spans), role
    named = _role_then_name(t, rxs)
    if named:
        return named
    role = ""
    for rx, r in rxs:
        found = rx.search(t)
        if found:
            t, role = t[: found.start()].strip(), r
            break
    lead = re.match(r"^(?P<w>[\w -]+?)\s+(?P<rest>" + MASK + r"\d+" + MASK + r")$", t)
    if lead:
        head = " " + ARTICLES.sub("", lead.group("w")).strip()
        hinted = next((r for rx, r in rxs if rx.fullmatch(head)), None)
        if hinted is not None:
            t, role = lead.group("rest"), role or hinted
    t = ARTICLES.sub("", t).strip()
    return (value(t, spans) if t else ""), role


_ORDINAL_RX = re.compile(
    r"^(?:the\s+)?(?P<o>first|second|third|fourth|fifth|sixth|seventh|eighth|ninth|tenth|last|\d+(?:st|nd|rd|th))"
    r"\s+(?P<n>[\w -]+?)(?:\s+(?:in|on|of|from)\s+(?:the\s+)?(?:list|page|results|listing|search\s+results|grid))?$"
    r"|^(?:the\s+)?(?P<n2>result|item|product|link|entry|article|post|story|video|listing)\s*(?:#|no\.\s*)(?P<o2>\d+)$"
    r"|^(?:the\s+)?(?P<n3>(?:search\s+)?result)\s+number\s+(?P<o3>\d+)$",
    I,
)


def ordinal_of(text: str) -> tuple[int, str] | None:
    """'the 7th search result' -> (7, 'result'); 'the last product' -> (-1, 'product')."""
    m = _ORDINAL_RX.match(text.strip())
    if not m:
        return None
    word, noun = next(
        (m.group(o), m.group(n)) for o, n in (("o", "n"), ("o2", "n2"), ("o3", "n3")) if m.group(o)
    )
    n = ordinal_value(word)
    if not n or has_mask(noun):
        return None
    noun = re.sub(r"\s+", " ", noun.lower().strip())
    noun = ORDINAL_NOUNS.get(noun, noun)
    noun = re.sub(r"s$", "", noun) if noun.endswith("s") and not noun.endswith("ss") else noun
    if noun.split()[-1] not in ORDINAL_HEADS or noun.split()[0] == "name":
        return None  # 'the first name field' is a field, 'the last page' a link: not list positions
    return n, noun


_NEAR_RX = re.compile(
    r"^(?P<h>.+?)\s+(?P<c>next\s+to|near|beside|for|below|under|belonging\s+to)\s+(?P<a>.+)$", I
)


def split_list(text: str) -> list[str]:
    """'A, B and C' -> ['A', 'B', 'C'] (only called when a comma is present)."""
    text = re.sub(
        r"^(?:the\s+)?(?:following\s+)?(?:boxes|checkboxes|options|items|ones|words)?\s*:\s*",
        "",
        text,
        flags=I,
    )
    return [p for p in re.split(r"\s*,\s*(?:and\s+|or\s+)?|\s+(?:and|or)\s+", text) if p.strip()]


def click_targets(x: str, spans: tuple[str, ...], role_default: str = "") -> list[Click] | None:
    x = x.strip()
    if not x:
        return None
    ordinal = ordinal_of(x)
    if ordinal:
        n, noun = ordinal
        return [Click(ordinal=n, noun=noun)]
    near = _NEAR_RX.match(x)
    if near:
        head, anchor, conn = near.group("h"), near.group("a"), near.group("c").lower()
        strong = conn not in ("for", "below", "under")
        phrase, role = target_of(head, spans, CLICK_HINTS)
        head_marked = has_mask(head) or bool(role)
        anchor_text = ARTICLES.sub("", anchor.strip())
        near_text = value(anchor_text, spans)  # ('the button for the': no anchor at all)
        if (strong or head_marked) and anchor_text.lower() not in PRONOUNS and (phrase or role) and near_text:
            return [
                Click(
                    target=phrase,
                    role=role or role_default,
                    near=near_text,
                    connector=re.sub(r"\s+", " ", conn),
                )
            ]
    if "," in x:
        items = split_list(x)
        if len(items) > 1 and all(len(i.split()) <= 5 for i in items):
            out = []
            for item in items:
                phrase, role = target_of(item, spans, CLICK_HINTS)
                if not phrase:
                    return None
                out.append(Click(target=phrase, role=role or role_default))
            return out
    phrase, role = target_of(x, spans, CLICK_HINTS)
    if not phrase and not role:
        return None
    return [Click(target=phrase, role=role or role_default)]


def question_text(text: str, spans: tuple[str, ...]) -> str:
    """A question as shown to the user, whitespace collapsed and end punctuation dropped (stable round trip)."""
    return re.sub(r"\s+", " ", shown(text, spans)).strip().strip("?.!,;: ").strip()
