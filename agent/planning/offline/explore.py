"""When no link names what a question is about: look around the site the way a person does.

Asked "who leads the Saturday Story Club" on a library's home page, nobody gives up because no link says
"story club": they open "What's On", and there it is. So when every lead is faint, the site's own sections
(its navigation, an "Archive", "All events") are opened one by one, the likeliest first, within the
navigator's page budget; the page each one opens is read and its links are scored again. Pages that only
serve the site itself (privacy, log in, cart) are left out unless the question mentions them. Nothing here
knows any site: it reads the observed links, their zones and the run's history.
"""

from __future__ import annotations

import re

from agent.planning.base import HistoryItem
from agent.planning.offline.grounding import page_key
from agent.planning.offline.page import visible_text
from agent.planning.offline.text import tokens
from agent.types import Element

#: Pages a question is almost never answered on: the site's housekeeping.
_HOUSEKEEPING = re.compile(
    r"\b(?:privacy|cookies?|terms|legal|imprint|accessibility|log\s*in|log\s*out|sign\s*(?:in|up|out)|register|"
    r"my\s+account|account|cart|basket|checkout|bag|wishlist|skip\s+to|rss|feed|print|share|facebook|twitter|"
    r"instagram|linkedin|youtube)\b",
    re.I,
)
#: A link to a page that lists many others.
_HUB = re.compile(
    r"\b(?:archive|archives|all|index|sitemap|site\s+map|directory|overview|browse|older|more|list|a-z|"
    r"categories|topics|sections)\b",
    re.I,
)
#: How much a link's place on the page says it opens one of the site's sections.
_ZONE_WEIGHT = {"nav": 0.12, "header": 0.1, "aside": 0.05, "main": 0.04, "footer": 0.0}
#: At most this many words in a link that names a section ('Locations & Hours', not a teaser sentence).
_SECTION_WORDS = 5


def explore_link(
    links: list[tuple[float, Element]], question: str, history: list[HistoryItem]
) -> Element | None:
    """The section of the site to open next when no link names the subject, or None (``links``: the fresh
    links of this site with their scores, best first, as the navigator ranks them)."""
    asked = set(tokens(question))
    opened = {page_key(h.get("url")) for h in history}
    pages: dict[str, list[tuple[float, Element]]] = {}
    for score, el in links:
        text = visible_text(el)
        words = tokens(text)
        if not words or len(words) > _SECTION_WORDS:
            continue
        if _HOUSEKEEPING.search(text) and not asked & set(words):
            continue
        key = page_key((el.get("attrs") or {}).get("href", ""))
        if not key or key in opened:
            continue
        bonus = _ZONE_WEIGHT.get(el.get("zone") or "main", 0.0) + (0.1 if _HUB.search(text) else 0.0)
        pages.setdefault(key, []).append((score + bonus, el))
    if not pages:
        return None

    def worth(found: list[tuple[float, Element]]) -> float:  # a page linked from several places counts more
        scores = sorted((s for s, _ in found), reverse=True)
        return scores[0] + 0.5 * sum(scores[1:3])

    best = max(pages.values(), key=worth)
    return max(best, key=lambda t: t[0])[1]


def can_go_back(history: list[HistoryItem], start_url: str = "") -> bool:
    """Whether going back returns to a page of this run (never past the page the run started on)."""
    trail = [page_key(start_url)] if start_url else []
    for item in history:
        if item.get("status") != "success":
            continue
        url = page_key(item.get("url"))
        if item.get("action") == "go_back":
            if trail:
                trail.pop()
        elif url and (not trail or trail[-1] != url):
            trail.append(url)
    return len(trail) >= 2
