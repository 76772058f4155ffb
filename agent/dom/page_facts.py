"""What kind of page this is, and fingerprints that tell whether it changed.

``classify_page`` is a heuristic (pdf, error, search, form, listing, detail, article or other) over the URL,
title, marked elements and the marking pass's page statistics. The hashes are short SHA-1 digests: structure
(``mapping_hash``), the kept candidates with their state (``candidate_hash``) and content (``dom_hash``).
"""

from __future__ import annotations

import hashlib
import re
from collections import Counter
from collections.abc import Iterable, Sequence
from typing import Any
from urllib.parse import parse_qs, urlsplit

from agent.dom.render import split_url
from agent.types import Element
from agent.util.page_errors import ERROR_PAGE

_PRICE_RX = re.compile(
    r"(?:[$€£¥₹₽]\s?\d|\d(?:[\d.,\s]*\d)?\s?(?:€|\$|£|zł|kr|Kč|USD|EUR|GBP|PLN|CHF|JPY)(?![a-z]))", re.I
)
_BUY_RX = re.compile(
    r"\b(?:add to (?:cart|basket|bag)|buy now|buy|purchase|order now|add to trolley)\b", re.I
)
_SEARCH_KEYS = frozenset(
    {"q", "query", "search", "s", "k", "keyword", "keywords", "search_query", "searchterm"}
)


def _digest(parts: Iterable[str]) -> str:
    h = hashlib.sha1(usedforsecurity=False)
    for part in parts:
        h.update(part.encode("utf-8", "replace"))
        h.update(b"\x1f")
    return h.hexdigest()[:16]


def mapping_hash(elements: Iterable[Element]) -> str:
    """Structure of the marked elements (tag/role/name/zone in document order); positions do not count."""
    return _digest(
        f"{e.get('tag', '')}|{e.get('role', '')}|{e.get('name', '')}|{e.get('zone', '')}" for e in elements
    )


def candidate_hash(kept: Iterable[Element]) -> str:
    """The kept candidates with their state (id, role, name, value, checked, disabled)."""
    return _digest(
        f"{e.get('id')}|{e.get('role', '')}|{e.get('name', '')}|{e.get('value', '')}|{e.get('checked')}|"
        f"{e.get('disabled')}"
        for e in kept
    )


def dom_hash(title: str, page_text: str, elements: Iterable[Element]) -> str:
    """Content fingerprint: title, visible text and form state."""
    state = (
        f"{e.get('id')}:{e.get('value', '')}:{e.get('checked')}:{e.get('selected')}:{e.get('disabled')}"
        for e in elements
    )
    return _digest([title or "", page_text or "", *state])


#: Prices past this many decide nothing more: every rule below asks for at most five.
_ENOUGH_PRICES = 6
_DIGIT = re.compile(r"\d")


def _count_prices(elements: Sequence[Element]) -> int:
    """Non-interactive elements whose text shows a price, counted up to :data:`_ENOUGH_PRICES` (a long page's
    text is long: a price needs a digit, found far faster than the price pattern's own search)."""
    found = 0
    for e in elements:
        if e.get("interactive"):
            continue
        text = e.get("text") or e.get("name") or ""
        if _DIGIT.search(text) and _PRICE_RX.search(text):
            found += 1
            if found >= _ENOUGH_PRICES:
                break
    return found


def classify_page(
    url: str, title: str, elements: Sequence[Element], stats: dict[str, Any] | None, page_text: str = ""
) -> str:
    """Heuristic page type: pdf, error, search, form, listing, detail, article or other."""
    st = stats or {}
    try:
        parts = urlsplit(url or "")
    except ValueError:
        parts = urlsplit("")
    path = parts.path.lower()
    if path.endswith(".pdf") or st.get("pdf") or "pdf" in str(st.get("content_type", "")).lower():
        return "pdf"
    if (url or "").startswith("chrome-error:"):
        return "error"
    h1 = " ".join(st.get("h1") or [])
    if not h1 and "text/plain" in str(st.get("content_type", "")).lower():
        h1 = " ".join(
            [line for line in page_text.splitlines() if line.strip()][:2]
        )  # a text file's first lines head it
    if ERROR_PAGE.search(title or "") or (ERROR_PAGE.search(h1) and len(elements) < 60):
        return "error"

    query_keys = {k.lower() for k in parse_qs(parts.query)}
    if (query_keys & _SEARCH_KEYS) and (
        "search" in path or "result" in path or len(path) <= 1 or "find" in path
    ):
        return "search"
    if re.search(r"/(?:search|results?)(?:/|$|\.)", path):
        return "search"

    interactive = [e for e in elements if e.get("interactive")]
    main = [e for e in elements if (e.get("zone") or "main") == "main"]
    main_links = [e for e in main if e.get("role") == "link"]
    editable = int(st.get("editable") or sum(1 for e in interactive if e.get("editable")))
    prices = _count_prices(elements)
    buy = any(
        _BUY_RX.search(e.get("name") or "") for e in interactive if e.get("role") in ("button", "link", "")
    )

    main_interactive = [e for e in main if e.get("interactive")]
    if editable >= 3 and editable >= 0.3 * max(1, len(main_interactive)) and len(main_links) < 15:
        return "form"

    shapes: Counter[str] = Counter()
    for e in main_links:
        href = (e.get("attrs") or {}).get("href", "")
        try:
            p = split_url(href).path
        except ValueError:
            continue
        segments = [s for s in p.split("/") if s]
        if segments:
            shape = "/".join(re.sub(r"\d+", "#", s) for s in segments[:-1]) + "/*"
            shapes[shape] += 1
    repeated = max(shapes.values(), default=0)
    if buy and prices <= 5:
        return "detail"
    if prices >= 4 or repeated >= 8 or (int(st.get("list_items") or 0) >= 12 and len(main_links) >= 10):
        return "listing"
    if prices >= 1 and len(st.get("h1") or []) == 1:
        return "detail"
    long_paragraphs = int(st.get("long_paragraphs") or 0)
    if long_paragraphs >= 4 or (int(st.get("articles") or 0) >= 1 and long_paragraphs >= 2):
        return "article"
    if int(st.get("search_inputs") or 0) >= 1 and len(interactive) <= 20:
        return "search"
    if editable >= 2 and int(st.get("forms") or 0) >= 1 and len(interactive) <= 12:
        return "form"
    return "other"
