"""The site's own search: what to type into it, whether the page has one, and how to read what it returned.

A person searching a site types the thing they are after (never the whole question), opens the result the
site ranks first among those that share a word with it, goes back to the other results from a dead end, and
does not wait for more results on a page that says none matched.
"""

from __future__ import annotations

import re
from urllib.parse import unquote_plus, urlsplit

from agent.dom.text import FUNCTION_WORDS
from agent.planning.base import HistoryItem
from agent.planning.offline.grounding import page_key
from agent.planning.offline.intents import Search
from agent.planning.offline.page import is_text_field
from agent.planning.offline.questions import Query, subject_words
from agent.planning.offline.text import norm, tokens
from agent.planning.offline.values import page_lines
from agent.types import Element, Observation

MAX_SEARCHES = 2
_QUOTED = re.compile(r'"([^"]{2,80})"|“([^”]{2,80})”')
_SEARCH_WORDS = re.compile(r"\bsearch\b|\bfind\b|\bquery\b", re.I)
#: What a results page says when nothing matched: no reason to wait for results to come in.
_NO_RESULTS = re.compile(
    r"\b(?:no|0|zero)\s+(?:\w+\s+)?(?:results?|matches|hits|products?|items?|entries|pages|articles|documents)\b"
    r"(?:\s+(?:found|matched|match|for))?|\bnothing\s+(?:found|matched)\b|\bno\s+\w+\s+matched\b"
    r"|\b(?:did\s+not|didn['’]t)\s+match\b",
    re.I,
)


def says_no_results(observation: Observation) -> bool:
    """The page says its search found nothing ('No products matched "X"', '0 results')."""
    return any(_NO_RESULTS.search(line) for line in page_lines(observation)[:60])


#: Where a question's subject gives way to a clause about it ('the Wi-Fi network | they should connect to',
#: 'IT support | if something breaks at the weekend'): a site's search matches the thing, not the clause.
_CLAUSE_WORDS = (
    "that which who whom whose they we you i he she it if when whenever where while so because should could "
    "would can will must"
).split()
_CLAUSE = re.compile(  # lower case: "IT support" stays; 'network | a contractor should use' is a clause too
    r"\s+(?:(?:" + "|".join(_CLAUSE_WORDS) + r")|(?:a|an|the|my|our|your)\s+[\w-]+\s+"
    r"(?:should|could|would|can|will|must|needs?|wants?|has|have|is|are|uses?|gets?))\b.*$"
)


_NOT_SEARCHED = FUNCTION_WORDS | set(_CLAUSE_WORDS) | {"about"}


def search_texts(query: Query) -> list[str]:
    """What to type into a site's search box, best first: the thing the question names (without a clause
    about it: most site searches want every word typed to match), then the rest of its subject in a few content
    words; never the whole question."""
    out = [(a or b).strip() for a, b in _QUOTED.findall(query.question)]  # a title the user quoted
    if query.entity:
        entity = re.sub(r"^(?:the|a|an)\s+", "", query.entity.strip(), flags=re.I)
        core = _CLAUSE.sub("", entity).strip()
        out += [core, entity] if len(core.split()) >= 1 and core != entity else [entity]
    if query.section:
        out.append(query.section.strip())
    named = set(tokens(query.entity)) if query.entity else set()
    rest = [w for w in subject_words(query) if w not in named and w not in _NOT_SEARCHED]
    property_of_entity = bool(query.entity and query.value_type and len(query.attr.split()) <= 2)
    if rest and not property_of_entity:  # 'the price of X': X is the subject, price one of its properties
        out.append(" ".join(rest[:4]))
    return list(dict.fromkeys(s for s in out if s))


def has_search_box(observation: Observation) -> bool:
    """Whether the page has its own search field (the ``search`` action types into it)."""
    for el in observation.get("elements") or []:
        if not is_text_field(el):
            continue
        attrs = el.get("attrs") or {}
        described = " ".join(
            [
                el.get("name") or "",
                el.get("placeholder") or "",
                attrs.get("name", ""),
                attrs.get("aria-label", ""),
            ]
        )
        if (el.get("role") or "") == "searchbox" or (el.get("input_type") or "") == "search":
            return True
        if _SEARCH_WORDS.search(described):
            return True
    return False


def next_search(query: Query, observation: Observation, history: list[HistoryItem]) -> str | None:
    """The words to search the site for with its own search box, each wording once, at most MAX_SEARCHES
    times; None when the page has no search box or the searches are spent."""
    if not has_search_box(observation) or searches_made(history) >= MAX_SEARCHES:
        return None
    done = {h.get("plan_step") for h in history}
    typed = {
        norm(str((h.get("args") or {}).get("query") or "")) for h in history if h.get("action") == "search"
    }
    return next(
        (
            words
            for words in search_texts(query)
            if Search(words).step() not in done and norm(words) not in typed
        ),
        None,
    )


def searched_in_vain(history: list[HistoryItem], observation: Observation) -> bool:
    """This is the page the run's last search led to, and it says nothing matched."""
    return on_results(history, observation) and says_no_results(observation)


def searches_made(history: list[HistoryItem]) -> int:
    return sum(1 for h in history if h.get("action") == "search")


def just_searched(history: list[HistoryItem]) -> bool:
    last = next((h for h in reversed(history) if h.get("action") not in ("wait",)), None)
    if not last:
        return False
    return last.get("action") == "search" or (
        last.get("action") == "type" and bool((last.get("args") or {}).get("submit"))
    )


def on_results(history: list[HistoryItem], observation: Observation) -> bool:
    """This is the page the run's last search led to."""
    searches = [h for h in history if h.get("action") == "search" and h.get("status") == "success"]
    return bool(searches) and page_key(searches[-1].get("url")) == page_key(observation.get("url"))


def search_result(
    links: list[tuple[float, Element]], observation: Observation, history: list[HistoryItem]
) -> Element | None:
    """On the page a search led to, the result the site ranks best among those that share a word with the
    subject (the site's own ranking stands in for the words its results leave out)."""
    if not on_results(history, observation):
        return None
    results = [e for score, e in links if score > 0.1 and (e.get("zone") or "main") == "main"]
    return results[0] if results else None


def came_from_search(history: list[HistoryItem], observation: Observation) -> bool:
    """This page was opened from the results of a search (going back returns to them)."""
    searches = [
        n for n, h in enumerate(history) if h.get("action") == "search" and h.get("status") == "success"
    ]
    if not searches:
        return False
    results_page = page_key(history[searches[-1]].get("url"))
    return bool(results_page) and results_page != page_key(observation.get("url"))


def echoes_search(text: str, observation: Observation, history: list[HistoryItem]) -> bool:
    """The text repeats a query this run searched for, on the page that query led to."""
    asked = unquote_plus(urlsplit(observation.get("url") or "").query)
    for item in history:
        args = item.get("args") or {}
        query = str(args.get("query") or (args.get("text") if item.get("action") == "type" else "") or "")
        if query and norm(query) in norm(text) and norm(query) in norm(asked):
            return True
    return False
