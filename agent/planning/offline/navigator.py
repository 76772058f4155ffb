"""Finding the page that answers a question: open collapsed content, load more, follow the best link, use the
site's own search box, go back from dead ends, all within a budget of pages.

Links are scored against the question's subject by their text, title, the line around them (an index entry's
description), the nearest heading above them and the words of their URL path. Words that every link shares
(the site's name) count for little. Nothing here knows any site: it reads only the observed page and the
run's history, and each move is proposed as an ordinary plan step.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from urllib.parse import urljoin, urlsplit

from rapidfuzz import fuzz

from agent.planning.base import HistoryItem
from agent.planning.offline.explore import can_go_back, explore_link
from agent.planning.offline.grounding import page_key
from agent.planning.offline.intents import Click, GoBack, Navigate, Search, Submit, Wait
from agent.planning.offline.lookup import lookup_result, lookup_step
from agent.planning.offline.page import (
    is_button,
    is_heading,
    is_link,
    reading_order,
    repeated_link_labels,
    visible_text,
)
from agent.planning.offline.questions import Query, subject_words
from agent.planning.offline.sections import heading_score
from agent.planning.offline.semantic import blended
from agent.planning.offline.site_search import (
    came_from_search,
    next_search,
    on_results,
    says_no_results,
    search_result,
    searched_in_vain,
)
from agent.planning.offline.text import norm, split_identifier, token_match, tokens
from agent.planning.offline.urls import host_of
from agent.planning.offline.values import page_lines
from agent.planning.offline.vocabulary import SITE_SECTIONS
from agent.types import Element, Observation

#: Most pages opened while looking for one answer.
MAX_PAGES = 8
MAX_EXPANDS = 4
MAX_LOAD_MORE = 6
MAX_WAITS = 2
#: A link this good is followed before trying the site's search; a weaker one only after it.
STRONG_LINK = 0.6
WEAK_LINK = 0.3
#: A link whose text means the subject in other words ('Delivery charges' for 'shipping costs') scores up to
#: this much: enough to follow when nothing names the subject, never above a link that does.
SEMANTIC_LINK = 0.8
#: A collapsed control must name the subject at least this well to be opened.
EXPAND_MIN = 0.45

_LOAD_MORE = re.compile(
    r"^\s*(?:load|show|see|view|display)\s+(?:more|all|older|next)\b|^\s*more\s+(?:results|items|entries)\s*$"
    r"|^\s*older\s+(?:posts|entries|versions)\s*$",
    re.I,
)


_SEE_ALL = re.compile(r"^\s*(?:see|view|show|display)\s+all\b", re.I)


@dataclass(frozen=True)
class Move:
    """One step towards the answer and why."""

    step: str
    reason: str


def subject_terms(query: Query) -> dict[str, float]:
    """The question's subject as weighted tokens: what it names (section, page, entity) weighs most."""
    weights: dict[str, float] = {}
    for text, weight in (
        (query.section, 1.5),
        (query.page, 1.3),
        (query.entity, 1.5),
        (query.noun, 1.2),
        (query.attr, 1.0),
        (" ".join(subject_words(query)), 1.0),
    ):
        for tok in tokens(split_identifier(text)) if text else ():
            if len(tok) > 1 and not tok.isdigit():
                weights[tok] = max(weights.get(tok, 0.0), weight)
    return weights


def visited_pages(history: list[HistoryItem], observation: Observation, start_url: str = "") -> set[str]:
    """Pages this run has already been on (URLs without their fragment)."""
    pages = {page_key(h.get("url")) for h in history if h.get("url")} | {page_key(start_url)}
    pages |= {
        page_key(str((h.get("args") or {}).get("url") or ""))
        for h in history
        if h.get("action") == "navigate"
    }
    pages.add(page_key(observation.get("url")))
    return {p for p in pages if p}


def _tried(history: list[HistoryItem], step: str) -> int:
    return sum(1 for h in history if h.get("plan_step") == step)


def _line_of(el: Element, lines: list[str], labels: frozenset[str] = frozenset(), nth: int = 0) -> str:
    """The words around a link: its line of page text, and the line after it (a result's snippet) unless that
    line is another link's entry (``labels``: the page's link texts, normalized). ``nth``: how many links with
    the same text come before it (a result 'Contact us' below the menu's 'Contact us' has its own line)."""
    text = norm(visible_text(el))
    if not text:
        return ""
    places = [n for n, ln in enumerate(lines) if text in norm(ln)]
    if not places:
        return ""
    at = places[min(nth, len(places) - 1)]
    after = lines[at + 1] if at + 1 < len(lines) else ""
    if after and any(norm(after).startswith(label) for label in labels):
        after = ""
    return f"{lines[at]} {after}".strip()


def _heading_above(el: Element, ordered: list[Element]) -> str:
    last = ""
    for other in ordered:
        if other is el:
            return last
        if is_heading(other) and (other.get("zone") or "main") == (el.get("zone") or "main"):
            last = visible_text(other)
    return last


def card_texts(links: list[Element], lines: list[str]) -> dict[int, str]:
    """What each card says about the page its generic link ('Read more', a text many links share) opens, by the
    link's ``id()``: the lines of page text between the previous such link and this one (at most three: the
    card's heading and description). Links and lines are both in document order."""
    out: dict[int, str] = {}
    for label in repeated_link_labels(links):
        same = [e for e in links if " ".join(visible_text(e).lower().split()) == label]
        places = [n for n, line in enumerate(lines) if " ".join(line.lower().split()) == label]
        if len(places) != len(same):
            continue  # the text does not line up with the links: no card can be told from another
        for k, (el, at) in enumerate(zip(same, places, strict=True)):
            start = places[k - 1] + 1 if k else 0
            out[id(el)] = " ".join(lines[max(start, at - 3) : at])
    return out


def _path_words(href: str) -> str:
    path = urlsplit(href).path
    return split_identifier(re.sub(r"\.(?:html?|php|aspx?)$", "", path).replace("/", " "))


def _coverage(terms: dict[str, float], text: str) -> float:
    toks = tokens(text) if text else ()
    if not toks or not terms:
        return 0.0
    got = sum(w * max(token_match(t, x) for x in toks) for t, w in terms.items())
    return got / sum(terms.values())


def score_link(
    el: Element,
    terms: dict[str, float],
    lines: list[str],
    ordered: list[Element],
    labels: frozenset[str] = frozenset(),
    cards: dict[int, str] | None = None,
    nth: int = 0,
) -> float:
    """How likely following the link leads to the subject, 0..1 (``cards``: see :func:`card_texts`; ``nth``:
    see :func:`_line_of`)."""
    attrs = el.get("attrs") or {}
    text = visible_text(el)
    text = (cards or {}).get(id(el), text)  # 'Read more': the card around it says where it leads
    parts = (
        (text, 1.0),
        (attrs.get("title", ""), 0.9),
        (_path_words(attrs.get("href", "")), 0.8),
        (_line_of(el, lines, labels, nth), 0.7),
        (_heading_above(el, ordered), 0.35),
    )
    lexical = max(weight * _coverage(terms, part) for part, weight in parts)
    fuzzy = fuzz.token_set_ratio(" ".join(terms), norm(text)) / 100 if text else 0.0
    return round(0.85 * lexical + 0.15 * fuzzy, 4)


def _idf(terms: dict[str, float], links: list[Element]) -> dict[str, float]:
    """Terms that half the links share (the site's name, 'docs') say little about where to go."""
    if len(links) < 4:
        return terms
    texts = [
        set(tokens(visible_text(e) + " " + _path_words((e.get("attrs") or {}).get("href", ""))))
        for e in links
    ]
    out = {}
    for term, weight in terms.items():
        share = sum(1 for t in texts if term in t) / len(texts)
        out[term] = weight * (0.2 if share > 0.5 else 1.0)
    return out


def ranked_links(
    query: Query, observation: Observation, history: list[HistoryItem], start_url: str = ""
) -> list[tuple[float, Element]]:
    """Links to pages not yet seen on this site, best first."""
    here = observation.get("url") or ""
    seen = visited_pages(history, observation, start_url)
    links = [
        e
        for e in observation.get("elements") or []
        if is_link(e)
        and not e.get("disabled")
        and urlsplit((e.get("attrs") or {}).get("href", "")).scheme in ("http", "https")
        and host_of((e.get("attrs") or {}).get("href", "")) == host_of(here)
    ]
    terms = _idf(subject_terms(query), links)
    lines = page_lines(observation)
    ordered = reading_order(observation.get("elements") or [])
    labels = frozenset(norm(visible_text(e)) for e in links if len(norm(visible_text(e))) >= 3)
    fresh = [e for e in links if page_key((e.get("attrs") or {}).get("href", "")) not in seen]
    cards = card_texts(links, lines)
    nth: dict[int, int] = {}
    count: dict[str, int] = {}
    for el in reading_order(links):
        key = norm(visible_text(el))
        nth[id(el)] = count.get(key, 0)
        count[key] = nth[id(el)] + 1
    lexical = [score_link(el, terms, lines, ordered, labels, cards, nth.get(id(el), 0)) for el in fresh]
    texts = [
        cards.get(id(el)) or visible_text(el) or (el.get("attrs") or {}).get("title", "") for el in fresh
    ]
    scores = blended(" ".join(terms), texts, lexical, weight=SEMANTIC_LINK)
    scored = list(zip(scores, fresh, strict=True))
    scored.sort(key=lambda t: -t[0])
    return scored


def _section_lead(el: Element, asked: set[str]) -> bool:
    """A link to the part of a site where such questions are answered ('Pricing' for the cost of a plan)."""
    words = tokens(visible_text(el))
    if len(words) > 2:
        return False  # 'Pricing', 'About us': a section's name, not a sentence that happens to hold one
    return any(asked & SITE_SECTIONS.get(w, frozenset()) for w in words)


def best_link_to(name: str, observation: Observation) -> tuple[float, Element] | None:
    """The link that best leads to a page the user named in other words ('the deployment guide' for
    'Deploying to production'), with its score, when one stands out."""
    ranked = ranked_links(Query("generic", name, noun=name), observation, [])
    if not ranked or ranked[0][0] < STRONG_LINK:
        return None
    top = page_key((ranked[0][1].get("attrs") or {}).get("href"))
    rivals = [s for s, e in ranked[1:] if page_key((e.get("attrs") or {}).get("href")) != top]
    if rivals and rivals[0] >= ranked[0][0] - 0.05:
        return None
    return ranked[0]


def _collapsed(el: Element) -> bool:
    tag = (el.get("tag") or "").lower()
    return tag == "summary" or (el.get("attrs") or {}).get("aria-expanded") == "false"


def expand_move(query: Query, observation: Observation, history: list[HistoryItem]) -> Move | None:
    """Open the collapsed control (a <details> summary, an accordion button) that names the subject."""
    subject = " ".join(subject_terms(query))
    opened = {h.get("element_id") for h in history if h.get("action") == "click"}
    best: tuple[float, Element] | None = None
    for el in observation.get("elements") or []:
        if not _collapsed(el) or el.get("id") in opened or not visible_text(el):
            continue
        score = max(heading_score(subject, visible_text(el)), heading_score(query.question, visible_text(el)))
        if best is None or score > best[0]:
            best = (score, el)
    if best is None or best[0] < EXPAND_MIN:
        return None
    step = Click(visible_text(best[1])).step()
    if (
        _tried(history, step)
        or sum(1 for h in history if h.get("action") == "click") >= MAX_EXPANDS + MAX_LOAD_MORE
    ):
        return None
    return Move(step, f"the answer may be inside the collapsed {visible_text(best[1])!r}")


def load_more_move(observation: Observation, history: list[HistoryItem]) -> Move | None:
    """Press the list's 'Load more' while it is there, up to a budget."""
    seen = visited_pages(history, observation)
    for el in reading_order(observation.get("elements") or []):
        href = (el.get("attrs") or {}).get("href", "")
        here = observation.get("url") or ""
        target = urljoin(here, href) if is_link(el) and href[:1] not in ("", "#") else ""
        same = bool(target) and urlsplit(target).path == urlsplit(here).path
        see_all = bool(_SEE_ALL.match(visible_text(el)))
        if target and ((page_key(target) in seen and not same) or (see_all and (not same or target == here))):
            continue  # ('See all charges' to this page or another: a lead, not more of this list; 'Load more' on
            # this page's own address is a script's, and kept)
        if (is_button(el) or is_link(el)) and not el.get("disabled") and _LOAD_MORE.search(visible_text(el)):
            step = Click(visible_text(el)).step()
            if _tried(history, step) < MAX_LOAD_MORE:
                return Move(step, "the list may hold the answer further on; load more of it")
    return None


def settle_move(observation: Observation, history: list[HistoryItem]) -> Move | None:
    """Scrolling just reached the bottom: wait once, for a list that loads more as it is scrolled."""
    below = float((observation.get("scroll") or {}).get("below_px") or 0)
    last = history[-1] if history else {}
    if below <= 2 and last.get("action") == "scroll" and last.get("status") == "success":
        return Move(Wait(1.0).step(), "the list may load more now that its end is in view")
    return None


def search_move(query: Query, observation: Observation, history: list[HistoryItem]) -> Move | None:
    """Search the site with its own search box for the question's subject (see site_search.next_search)."""
    words = next_search(query, observation, history)
    return Move(Search(words).step(), f"search the site for {words!r}") if words else None


_LOGGED_IN = Submit("login").step()


def next_move(
    query: Query, observation: Observation, history: list[HistoryItem], start_url: str = ""
) -> Move | None:
    """The best next step towards a page that answers ``query``, or None when the budget or the leads are
    exhausted."""
    looked_up = lookup_step(query.question, observation, history)
    if looked_up:
        return Move(looked_up, "the page's own lookup form answers for what the question names")
    result = lookup_result(query.question, observation, history)
    if result is not None:
        return Move(
            follow_step(result), f"the lookup lists {visible_text(result)!r} for what the question names"
        )
    expand = expand_move(query, observation, history)
    if expand:
        return expand
    more = load_more_move(observation, history)
    if more:
        return more
    if len(visited_pages(history, observation, start_url)) > MAX_PAGES:
        return None
    links = ranked_links(query, observation, history, start_url)
    best = links[0] if links else None
    if (
        on_results(history, observation)
        and search_result(links, observation, history) is None
        and not says_no_results(observation)
    ):
        waits = sum(1 for h in history[-MAX_WAITS:] if h.get("action") == "wait")
        if waits < MAX_WAITS:
            return Move(Wait(1.0).step(), "the search results may still be coming in")
    if best is not None and best[0] >= STRONG_LINK:
        return Move(
            follow_step(best[1]),
            f"the link {visible_text(best[1])!r} best matches the subject ({best[0]:.2f})",
        )
    asked = set(tokens(query.question))
    logged_in = any(h.get("plan_step") == _LOGGED_IN and h.get("status") == "success" for h in history)
    account = next((el for _, el in links if _section_lead(el, asked)), None) if logged_in else None
    if account is not None:  # signed in to ask: the account's own pages hold it, not the site's search
        return Move(follow_step(account), f"the account keeps such answers under {visible_text(account)!r}")
    searched = any(h.get("action") == "search" for h in history)
    section = next((el for _, el in links if _section_lead(el, asked)), None)
    if section is not None and not searched and (best is None or best[0] < WEAK_LINK):
        # the part of the site where such questions are answered ('Charges' for a fee), before its search
        return Move(follow_step(section), f"the site keeps such answers under {visible_text(section)!r}")
    search = None if searched else search_move(query, observation, history)
    if search:
        return search
    if best is not None and best[0] >= WEAK_LINK and not searched:
        return Move(
            follow_step(best[1]), f"the link {visible_text(best[1])!r} is the best lead left ({best[0]:.2f})"
        )
    if searched:
        result = search_result(links, observation, history)
        if result is not None:
            return Move(
                follow_step(result), f"the site's search lists {visible_text(result)!r} first for the subject"
            )
        if (
            came_from_search(history, observation)
            and _tried(history, GoBack().step()) < 3
            and can_go_back(history, start_url)
        ):
            return Move(GoBack().step(), "this search result is a dead end; go back to the other results")
        again = search_move(query, observation, history)
        if again is not None or not searched_in_vain(history, observation):
            return again  # None: the site's search led nowhere; what its results did not hold is not here
        # nothing matched under any wording: the site's own sections are still worth a look
    lone = _lone_lead(query, links, observation)
    if lone is not None:
        return Move(
            follow_step(lone), f"the link {visible_text(lone)!r} is the only one that names the subject"
        )
    if section is not None:  # the part of the site where such questions are answered
        return Move(follow_step(section), f"the site keeps such answers under {visible_text(section)!r}")
    explore = explore_link(links, query.question, history)
    if explore is not None:  # the last lead: look around the site's own sections
        return Move(
            follow_step(explore), f"no link names the subject; look in the site's {visible_text(explore)!r}"
        )
    if can_go_back(history, start_url):
        step = GoBack().step()
        if _tried(history, step) < 3:
            return Move(step, "this page is a dead end; go back and try the next lead")
    return None


def _lone_lead(query: Query, links: list[tuple[float, Element]], observation: Observation) -> Element | None:
    """The one fresh link whose own words (text, title, path) share a word with the subject, when no other page
    does: a faint lead ('Opening hours' for 'when is it open on Sundays') is still worth a look when it is the
    only one."""
    raw = subject_terms(query)
    shared = _idf(raw, [el for _, el in links])
    terms = {t: w for t, w in raw.items() if shared.get(t) == w}  # not the words most links share
    naming = [
        el
        for _, el in links
        if _coverage(
            terms,
            " ".join(
                (
                    visible_text(el),
                    (el.get("attrs") or {}).get("title", ""),
                    _path_words((el.get("attrs") or {}).get("href", "")),
                )
            ),
        )
        > 0
    ]
    pages = {page_key((el.get("attrs") or {}).get("href", "")) for el in naming}
    return naming[0] if len(pages) == 1 else None


def follow_step(el: Element) -> str:
    """The plan step that follows a link: to its address when it has one, else a click on it."""
    href = (el.get("attrs") or {}).get("href", "")
    return Navigate(href).step() if href else Click(visible_text(el), role="link").step()
