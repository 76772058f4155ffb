"""The items of a listing with the facts their cards show (price, rating, reviews), counts the page states, and
filtering items by the words and price limits of a question.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from agent.planning.offline.listings import listing_items
from agent.planning.offline.page import (
    MONEY_RX,
    Owners,
    directional_distance,
    visible_text,
)
from agent.planning.offline.questions import Query
from agent.planning.offline.text import clip, norm, stem, token_match, tokens
from agent.planning.offline.values import parse_money
from agent.types import Element, Observation

ITEM_NOUNS = (
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


def explicit_count(lines: list[str], noun: str) -> tuple[str, str] | None:
    """A count the page states: '245 results', 'Showing 1-20 of 245 products', 'Results: 245'."""
    noun_words = {stem(w) for w in norm(noun).split()} - {"the", "all"}
    words = sorted(noun_words | set(ITEM_NOUNS), key=len, reverse=True)
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
    if best[0] >= 0 and noun_words and not noun_words & set(ITEM_NOUNS):
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
        name = norm(item_name(item))
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
                name=item_name(item),
                block=block or visible_text(item),
                price=parse_money(price_text),
                price_text=price_text,
                rating=rating,
                rating_text=rating_text,
                reviews=int(reviews.group(1).replace(",", "")) if reviews else 0,
            )
        )
    return out


def qualifiers(noun: str) -> list[str]:
    """Words of the noun that narrow the listing ('Electronics' in 'Electronics products')."""
    return [t for t in tokens(noun) if t not in ITEM_NOUNS and t not in ("thing", "one", "all", "every")]


def filter_items(query: Query, observation: Observation, lines: list[str]) -> list[Item]:
    items = page_items(observation, lines)
    wanted = qualifiers(query.noun)
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


def item_name(el: Element) -> str:
    text = visible_text(el)
    return clip(MONEY_RX.sub("", text).strip(" -–|·,") or text, 100)
