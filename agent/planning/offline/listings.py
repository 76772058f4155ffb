"""Listings: the repeated items of a results or product page, found by link shape and layout."""

from __future__ import annotations

import re
from collections import defaultdict
from dataclasses import dataclass
from functools import lru_cache
from typing import Any
from urllib.parse import parse_qsl, urlsplit

from agent.planning.offline.page import (
    MONEY_RX,
    Owners,
    attr,
    is_button,
    is_checkable,
    is_heading,
    is_link,
    is_select,
    is_text_field,
    reading_order,
    rect,
    role_of,
    visible_text,
)
from agent.planning.offline.text import norm
from agent.planning.offline.urls import host_of
from agent.types import Element, Observation

_CHROME_ZONES = frozenset({"header", "nav", "footer", "dialog", "aside"})


_VALUE_ONLY = re.compile(r"^[\s$€£¥₹.,:%#\d()/+-]*(?:usd|eur|gbp)?[\s.]*$", re.I)


_GENERIC_LINK_TEXT = re.compile(
    r"^(?:next|previous|prev|more|read more|view|details|see more|show more|back|home|"
    r"top|«|»|‹|›|page \d+|\d+)$",
    re.I,
)


@lru_cache(maxsize=16384)
def href_pattern(href: str, page_url: str = "") -> str:
    """A link's shape: '/products/*' for '/products/blue-widget'; 'ext' for other sites; 'js' for scripts."""
    if not href or href.startswith(("javascript:", "#", "mailto:", "tel:")):
        return "js"
    try:
        parts = urlsplit(href)
    except ValueError:
        return "js"
    host, page_host = (parts.hostname or "").lower(), host_of(page_url)
    if host and page_host and host != page_host:
        return "ext"
    segs = [s for s in parts.path.split("/") if s]
    if not segs and not parts.query and parts.fragment:
        return "js"
    if segs:
        segs = ["#" if re.search(r"\d", s) else s for s in segs[:-1]] + ["*"]
    keys = ",".join(sorted(k for k, _ in parse_qsl(parts.query)))
    return "/" + "/".join(segs) + (f"?{keys}" if keys else "")


def signature(el: Element, page_url: str = "") -> tuple[str, ...]:
    """Elements that play the same part in repeated cards share a signature."""
    href = attr(el, "href")
    if is_link(el) and href:
        return ("link", href_pattern(href, page_url))
    if is_heading(el):
        return ("heading", (el.get("tag") or "").lower())
    r = rect(el)
    width = str(round(r[2] / 24)) if r else ""
    return ((el.get("tag") or "").lower(), role_of(el), width)


@dataclass(frozen=True)
class _Index:
    """Per-page facts that several questions and steps need (computed once per observation)."""

    signatures: dict[int, tuple[str, ...]]
    listing: tuple[Element, ...]


_INDEX_CACHE: list[tuple[object, str, _Index]] = []


def _index(observation: Observation) -> _Index:
    """The page index, cached by the identity of the observation's element list (observations are values)."""
    elements = observation.get("elements") or []
    url = observation.get("url") or ""
    for key, key_url, index in _INDEX_CACHE:
        if key is elements and key_url == url:
            return index
    signatures = {int(e.get("id") or 0): signature(e, url) for e in elements}
    index = _Index(signatures=signatures, listing=tuple(_listing(elements, signatures)))
    if elements:
        _INDEX_CACHE.insert(0, (elements, url, index))
        del _INDEX_CACHE[8:]
    return index


def listing_items(observation: Observation) -> list[Element]:
    """The items of the main listing (product cards, search results, rows) in reading order, or []."""
    return list(_index(observation).listing)


def _listing(elements: list[Element], signatures: dict[int, tuple[str, ...]]) -> list[Element]:
    groups: dict[tuple[str, ...], list[Element]] = defaultdict(list)
    for el in elements:
        if (el.get("zone") or "main") in _CHROME_ZONES:
            continue
        text = visible_text(el)
        if len(text) < 2 or _VALUE_ONLY.match(text) or _GENERIC_LINK_TEXT.match(text.strip()):
            continue
        if is_text_field(el) or is_select(el) or is_checkable(el):
            continue
        key = signatures[int(el.get("id") or 0)]
        if key[:2] == ("link", "js"):
            continue
        groups[key].append(el)
    candidates: list[tuple[float, list[Element]]] = []
    for key, members in groups.items():
        unique = _dedupe(members)
        distinct = len({norm(visible_text(e)) for e in unique})
        if len(unique) < 2 or distinct < max(2, 0.6 * len(unique)):
            continue
        weight = 1.3 if key[0] == "link" else 1.15 if key[0] == "heading" else 1.0
        candidates.append((distinct * weight, unique))
    candidates.sort(key=lambda t: -t[0])
    facts = [e for e in elements if is_button(e) or _CARD_FACT_RX.search(visible_text(e))]
    best: list[Element] = []
    best_score = 0.0
    for base, unique in candidates[:5]:
        score = base * (0.5 + _richness(unique, facts))
        if score > best_score:
            best, best_score = unique, score
    return reading_order(best)


_CARD_FACT_RX = re.compile(
    MONEY_RX.pattern
    + r"|\b\d(?:[.,]\d)?\s*(?:/\s*5|out\s+of\s+5|stars?)|\b\d[\d,]*\s+(?:reviews?|ratings?|comments?|"
    r"points?|votes?|answers?)\b",
    re.I,
)


def _richness(members: list[Element], facts: list[Element]) -> float:
    """Share of members whose card holds a fact (price, rating, count) or a button: product cards and result
    entries have them, rows of category chips or menu links do not."""
    owners = Owners(members)
    ids = {m.get("id") for m in members}
    rich: set[Any] = set()
    for el in facts:
        if el.get("id") in ids:
            continue
        found = owners.owner(el, window=200.0)
        box, own = rect(el), rect(found) if found is not None else None
        if found is None or box is None or own is None:
            continue
        if box[1] - (own[1] + own[3]) <= 160:
            rich.add(found.get("id"))
    return len(rich) / len(members)


def _dedupe(members: list[Element]) -> list[Element]:
    """One element per target: a card's image link and title link share an href."""
    seen: set[str] = set()
    out = []
    for el in reading_order(members):
        key = attr(el, "href") or f"#{el.get('id')}"
        if key in seen:
            continue
        seen.add(key)
        out.append(el)
    return out


def peers_of(anchor: Element, observation: Observation) -> list[Element]:
    """Elements playing the same part as ``anchor`` (other product titles for a product title)."""
    index = _index(observation)
    key = index.signatures.get(int(anchor.get("id") or 0)) or signature(anchor, observation.get("url") or "")
    zone = anchor.get("zone") or "main"
    peers = [
        e
        for e in observation.get("elements") or []
        if index.signatures.get(int(e.get("id") or 0)) == key and (e.get("zone") or "main") == zone
    ]
    items = list(index.listing)
    if any(e.get("id") == anchor.get("id") for e in items):
        ids = {e.get("id") for e in items}
        peers = items + [p for p in peers if p.get("id") not in ids]
    return peers or [anchor]
