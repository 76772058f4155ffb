"""Finding a record on a site: a link that names it, its number's address, the site's search, a listing of
records of its kind, or the section of the site where they are kept ('Billing' for an invoice)."""

from __future__ import annotations

import re
from typing import Any

from agent import terminals
from agent.planning.base import HistoryItem, PlanRequest, PlanResult
from agent.planning.offline.account_rules import is_login_clause
from agent.planning.offline.intents import Click, Navigate, Search
from agent.planning.offline.page import is_link, visible_text
from agent.planning.offline.records.addresses import numbered_address
from agent.planning.offline.records.asked import record_question
from agent.planning.offline.records.forms import (
    FIELD_MATCH,
    best_match,
    on_record,
    record_link,
    record_words,
    search_box,
)
from agent.planning.offline.records.goal import RecordGoal, kind_of
from agent.planning.offline.records.outcome import next_steps, plan_result, unmet
from agent.planning.offline.records.progress import clicked_targets, ok_steps, searched_queries
from agent.planning.offline.text import SENTENCE_BREAK, similarity, split_identifier, tokens
from agent.planning.offline.vocabulary import RECORD_PLACES
from agent.types import Observation

CREATING = re.compile(r"\b(?:new|create|add|file|submit|report|compose)\b", re.I)
_ARTICLES = re.compile(r"^(?:the|a|an|that|this|its)\s+", re.I)
LISTING_WORDS = (
    "list index all browse view report reports overview roadmap milestones catalogue catalog directory"
)


def find_record(
    goal: RecordGoal, observation: Observation, history: list[HistoryItem], raw: dict[str, Any]
) -> PlanResult:
    """Reach the record: the best matching link, the site's search, or a listing page."""
    tried = clicked_targets(history)
    searched = searched_queries(history)
    if goal.search and goal.search.lower() not in searched:
        return next_steps([Search(goal.search).step()], "search with the site's search as the goal asks", raw)
    link = record_link(goal, observation, tried)
    if link is not None:
        return next_steps(
            [Click(visible_text(link), "link").step()], "the link that best matches the record", raw
        )
    # the user's own bookings and orders are in their list of them ('My bookings'), never in the site's search
    own = (goal.noun.split() or [""])[-1] in RECORD_PLACES and goal.op in ("cancel", "act")
    listing = listing_link(goal, observation, tried) if own else None
    if listing is not None:
        return next_steps([Click(visible_text(listing), "link").step()], "the user's own list of them", raw)
    address = numbered_address(goal.number, observation)
    if address and not any(h.get("plan_step") == Navigate(address).step() for h in history):
        return next_steps(
            [Navigate(address).step()], "its siblings' links say where a record of this number is", raw
        )
    query = _ARTICLES.sub("", record_words(goal) or (f"#{goal.number}" if goal.number else "")).strip()
    if query and search_box(observation) is not None and query.lower() not in searched:
        return next_steps([Search(query).step()], "look the record up with the site's search", raw)
    if query and search_box(observation) is None:
        page = best_match("search", _links(observation, tried), FIELD_MATCH)
        if page is not None and _SEARCH_PAGE.search(visible_text(page)):
            return next_steps(
                [Click(visible_text(page), "link").step()], "the site's search page can look it up", raw
            )
    listing = listing_link(goal, observation, tried)
    if listing is not None:
        return next_steps(
            [Click(visible_text(listing), "link").step()], "a listing of records may name it", raw
        )
    what = record_words(goal) or f"#{goal.number}"
    return unmet(
        terminals.ANSWER_NOT_FOUND, f"Could not find the {goal.noun or 'record'} {what!r} on this site.", raw
    )


#: A link to a search page says so ('Search', 'Search the catalogue', 'Find a book'); 'Find us' is directions.
_SEARCH_PAGE = re.compile(r"\bsearch\b|\blook\s*up\b|^\s*find\s+(?!us\b|out\b)\w", re.I)


def _links(observation: Observation, tried: set[str]) -> list[Any]:
    """Short links not followed yet (site navigation, listings)."""
    return [
        e for e in observation.get("elements") or []
        if is_link(e) and visible_text(e) and visible_text(e) not in tried and len(visible_text(e)) <= 30
    ]  # fmt: skip


def listing_link(goal: RecordGoal, observation: Observation, tried: set[str]) -> Any:
    """A link to a listing of records: named for their kind ('Tickets') or as a list ('View all', 'Index')."""
    links = [e for e in _links(observation, tried) if not CREATING.search(visible_text(e))]
    noun = goal.noun.split()[-1] if goal.noun else ""
    words = (
        [f"{noun}s", *RECORD_PLACES.get(noun, ()), *LISTING_WORDS.split()] if noun else LISTING_WORDS.split()
    )
    scored = []
    for e in links:
        text = split_identifier(visible_text(e))  # 'TitleIndex' -> 'Title Index'
        scored.append((max(similarity(w, text) for w in words), e))
    scored.sort(key=lambda s: -s[0])
    return scored[0][1] if scored and scored[0][0] >= FIELD_MATCH else None


def section_link(goal: RecordGoal, observation: Observation, tried: set[str]) -> Any:
    """A link to the part of the site for this kind of record ('Wiki' for a wiki page)."""
    kind = kind_of(goal.noun)
    links = [
        e for e in observation.get("elements") or []
        if is_link(e) and visible_text(e) not in tried and len(visible_text(e)) <= 30 and kind & kind_of(visible_text(e))
        and (goal.op == "create" or not CREATING.search(visible_text(e)))
    ]  # fmt: skip
    return best_match(goal.noun, links, 0.3) if links else None


def open_record(
    goal: RecordGoal, observation: Observation, history: list[HistoryItem], raw: dict[str, Any]
) -> PlanResult:
    searched_now = goal.search and goal.search.lower() in searched_queries(history)
    if on_record(goal, observation) and (not goal.search or searched_now) and ok_steps(history):
        heading = next((visible_text(e) for e in observation.get("elements") or [] if (e.get("tag") or "") == "h1"),
                       observation.get("title") or "")  # fmt: skip
        raw["record"]["seen"] = [heading]
        answer = f"Opened {heading!r} at {observation.get('url') or ''}"
        return plan_result(
            task_complete=True, success=True, final_answer=answer, raw=raw, reasoning="the record is open"
        )
    return find_record(goal, observation, history, raw)


def record_lookup(question: str, request: PlanRequest) -> PlanResult | None:
    """A question about a described record ('who is assigned to the ticket about ...'): find the record first;
    None once its page is open (the question is then answered from it) or when it cannot be found."""
    goal = record_question(question)
    observation: Observation = request.get("observation") or {}
    if goal is None or on_record(goal, observation):
        return None
    found = find_record(goal, observation, list(request.get("history") or []), {"record": {"op": "read"}})
    return None if found.get("task_complete") else found


def record_page_first(question: str, request: PlanRequest, loose: bool = False) -> PlanResult | None:
    """A question naming a record by its number (or describing it, when the answer found is only a loosely
    matching line), answered on a page that is not the record's own (a listing row): the record's page, linked
    from here, is where its fields are read and proven; None otherwise."""
    goal = record_question(question)
    if goal is None or not (goal.number or loose):
        return None
    found = record_lookup(question, request)
    steps = (found or {}).get("proposed_actions") or []
    return found if steps and str(steps[0]).startswith(("Click", "Navigate")) else None


#: Words of a link that say what it does, not what it is about ('Switch tariff', 'Update details', 'My account').
_LINK_VERBS = frozenset(
    "my your our view see manage update change edit submit send give enter make new add switch move book online "
    "account home overview dashboard".split()
)


def subject_link(goal: RecordGoal, observation: Observation, tried: set[str]) -> Any:
    """A link named by what the change is about: 'Meter readings' for 'submit my meter readings ...', 'Tariff'
    for 'switch my energy tariff to ...'. Every word the link says of its subject is in the goal's sentence
    of the change (its log-in left out); the link saying most of them wins."""
    said = " ".join(
        s for s in re.split(SENTENCE_BREAK, goal.said) if s.strip() and not is_login_clause(s.strip(" .!?"))
    )
    wanted = set(tokens(re.sub(r"\x00\d+\x00", " ", said))) - {tokens(v)[0] for v in goal.values if tokens(v)}
    best, best_score = None, 0
    for e in observation.get("elements") or []:
        text = visible_text(e)
        if not is_link(e) or not text or len(text) > 30 or text in tried:
            continue
        subject = [w for w in tokens(text) if w not in _LINK_VERBS]
        if subject and all(w in wanted for w in subject) and len(subject) > best_score:
            best, best_score = e, len(subject)
    return best
