"""The offline planner's page moves as actions a model executor can choose: scan, expand, find_in_page,
load_more and follow_link.

A model that names the subject ("follow_link deployment") gets the same move the offline planner would make:
the link scored best by its text, title, line and URL; the collapsed control that names the subject; the
section whose heading matches. Each ability becomes one plan step in the offline grammar, grounded by the
offline translator into an ordinary browser action (a click, a scroll, a navigation), so nothing past the
backend ever sees an ability, and a move with nothing to act on is a plain grounding failure the planner reads.
"""

from __future__ import annotations

from collections.abc import Callable

from agent.planning.base import HistoryItem, TranslateRequest, TranslateResult
from agent.planning.offline.grounding import ZERO_USAGE, can_scroll_down
from agent.planning.offline.intents import Scroll, ScrollTo, Wait
from agent.planning.offline.navigator import (
    WEAK_LINK,
    expand_move,
    follow_step,
    load_more_move,
    ranked_links,
    settle_move,
)
from agent.planning.offline.page import visible_text
from agent.planning.offline.questions import Query, analyze
from agent.planning.offline.reveal import reveal_step
from agent.planning.offline.sections import best_section, page_sections
from agent.planning.offline.translator import translate_step
from agent.types import Observation

#: A section heading must name the subject at least this well for ``scan`` to jump to it.
SECTION_MIN = 0.5


class _NoMove(Exception):
    """The ability has nothing to act on here; the message says why (the planner reads it)."""


def _query(subject: str) -> Query:
    """The subject as a question, so the navigator weighs what it names ('the deployment guide' -> deployment)."""
    return analyze(subject) if subject.strip() else Query("generic", "")


def _follow_link(subject: str, observation: Observation, history: list[HistoryItem]) -> tuple[str, str]:
    ranked = ranked_links(_query(subject), observation, history)
    if not ranked or ranked[0][0] < WEAK_LINK:
        raise _NoMove(f"no link on this page leads towards {subject!r}")
    score, link = ranked[0]
    return follow_step(link), f"the link {visible_text(link)!r} best matches {subject!r} ({score:.2f})"


def _expand(subject: str, observation: Observation, history: list[HistoryItem]) -> tuple[str, str]:
    if subject.strip():
        move = expand_move(_query(subject), observation, history)
        if move is None:
            raise _NoMove(f"no collapsed section on this page names {subject!r}")
        return move.step, move.reason
    step = reveal_step(observation, history)
    if step is None:
        raise _NoMove("no closed section, accordion or tab is left to open on this page")
    return step, "open the next collapsed part of the page"


def _load_more(subject: str, observation: Observation, history: list[HistoryItem]) -> tuple[str, str]:
    move = load_more_move(observation, history) or settle_move(observation, history)
    if move is not None:
        return move.step, move.reason
    if can_scroll_down(observation, history):
        return Scroll("down").step(), "scroll on: the list may load more as its end comes into view"
    raise _NoMove("the list has no 'Load more' control and its end is in view: it holds all it will show")


def _find_in_page(subject: str, observation: Observation, history: list[HistoryItem]) -> tuple[str, str]:
    return ScrollTo(subject).step(), f"bring {subject!r} into view"


def _scan(subject: str, observation: Observation, history: list[HistoryItem]) -> tuple[str, str]:
    found = best_section(page_sections(observation), [subject]) if subject.strip() else None
    if found is not None and found[1] >= SECTION_MIN:
        return ScrollTo(found[0].heading).step(), f"the section {found[0].heading!r} is about {subject!r}"
    if can_scroll_down(observation, history):
        return Scroll("down").step(), "read on: the rest of the page is below"
    if settle_move(observation, history) is not None:
        return Wait(1.0).step(), "the end of the page is in view; let it load what comes next"
    raise _NoMove(f"the page was read to its end and no section is about {subject!r}")


_MOVES: dict[str, Callable[[str, Observation, list[HistoryItem]], tuple[str, str]]] = {
    "scan": _scan,
    "expand": _expand,
    "find_in_page": _find_in_page,
    "load_more": _load_more,
    "follow_link": _follow_link,
}


def resolve_ability(name: str, subject: str, request: TranslateRequest) -> TranslateResult:
    """One ability on the request's page as the browser action the offline translator grounds it to, or a
    grounding failure that says why it cannot be done here."""
    observation = request.get("observation") or {}
    history = list(request.get("history") or [])
    try:
        step, why = _MOVES[name](subject, observation, history)
    except _NoMove as exc:
        return TranslateResult(
            action=None,
            status="failure",
            error_type="element_not_found",
            message=f"{name}: {exc}",
            reasoning=str(exc),
            raw={"ability": name, "subject": subject},
            usage=dict(ZERO_USAGE),  # type: ignore[typeddict-item]
        )
    result = translate_step({**request, "plan_step": step})
    note = f"{name} {subject!r}: {why} -> {step}" if subject else f"{name}: {why} -> {step}"
    action = result.get("action")
    if action is not None:
        action["reasoning"] = note
    message = note if action is not None else f"{name}: {result.get('message', '')}"
    raw = {"ability": name, "subject": subject, "step": step}
    return TranslateResult(**{**result, "message": message, "raw": raw})  # type: ignore[typeddict-item]
