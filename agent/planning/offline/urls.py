"""Recognizing URLs and bare hosts in goal text ("go to example.com", "open localhost:8000/login").

Only recognition and a light canonical form for the plan step live here; the browser layer still normalizes
and checks every URL before navigating.
"""

from __future__ import annotations

import re
from urllib.parse import parse_qs, urlsplit

from agent.browser.urls import host_of as browser_host_of
from agent.browser.urls import normalize_url

_SCHEME_RX = re.compile(r"^[a-z][a-z0-9+.\-]*://\S+$", re.I)
_HOST_RX = re.compile(
    r"""^(?:www\.)?
        (?:[a-z0-9](?:[a-z0-9\-]{0,61}[a-z0-9])?\.)+[a-z]{2,24}   # dotted host with an alphabetic TLD
        (?::\d{1,5})?(?:[/?#]\S*)?$""",
    re.I | re.X,
)
_LOCAL_RX = re.compile(
    r"^(?:localhost|127\.0\.0\.1|\[::1\]|0\.0\.0\.0|(?:\d{1,3}\.){3}\d{1,3})(?::\d{1,5})?(?:[/?#]\S*)?$", re.I
)
_EMAIL_RX = re.compile(r"^[^@\s/]+@[^@\s/]+\.[a-z]{2,}$", re.I)
_TRAILING_WORDS = re.compile(r"\s+(?:web\s*site|website|site|home\s*page|homepage|page|web\s*page)$", re.I)


def _bare(text: str) -> str:
    """The URL without quotes, end punctuation and a trailing "website"/"page"."""
    return _TRAILING_WORDS.sub("", (text or "").strip().strip("<>\"'`").rstrip(".,;!?")).strip()


def looks_like_url(text: str) -> bool:
    """True for 'https://x.test/a', 'example.com', 'www.shop.io/path', 'localhost:8080' (not for emails)."""
    t = _bare(text)
    if not t or " " in t or _EMAIL_RX.match(t):
        return False
    return bool(_SCHEME_RX.match(t) or _HOST_RX.match(t) or _LOCAL_RX.match(t))


def canonical_url(text: str) -> str:
    """'example.com' -> 'https://example.com/', 'localhost:8000/x' -> 'http://localhost:8000/x'.

    Only the goal-text part lives here (dropping "website", "page" after the host); the address-bar rules are the
    browser layer's :func:`agent.browser.urls.normalize_url`.
    """
    return normalize_url(
        _TRAILING_WORDS.sub("", (text or "").strip().strip("<>\"'`").rstrip(".,;!?")).strip()
    )


def host_of(url: str) -> str:
    """The URL's host, lower-cased ('' when there is none)."""
    return browser_host_of(url) or ""


def is_blank(url: str | None) -> bool:
    """No page to act on yet (nothing opened, or about:blank / a new tab page)."""
    u = (url or "").strip().lower()
    return not u or u.startswith(("about:", "chrome://newtab", "chrome-search:", "data:,"))


_SEARCH_KEYS = frozenset(
    {"q", "query", "search", "s", "k", "keyword", "keywords", "search_query", "searchterm"}
)


def results_listing(url: str) -> bool:
    """A search results page, told by its address (a search query in it, or a /search or /results path); a page
    that merely has a search box is not one."""
    try:
        parts = urlsplit(url or "")
    except ValueError:
        return False
    if re.search(r"/(?:search|results?)(?:/|$|\.)", parts.path.lower()):
        return True
    return bool({k.lower() for k in parse_qs(parts.query)} & _SEARCH_KEYS)
