"""plan(): the goal's intents, minus what is done, as the next 1-5 plan steps (or completion).

The goal is parsed once (cached); ``completed_steps`` says how far the run got. The queue stops after a step
that leads to another page, because later steps must be grounded on that page. A cookie wall or blocking
dialog is cleared first; a step that keeps failing ends the run with a clear reason instead of looping.
"""

from __future__ import annotations

import re
from collections import Counter
from typing import Any

from agent import terminals
from agent.planning.base import HistoryItem, PlanRequest, PlanResult
from agent.planning.offline.calendar import date_of, picker_step
from agent.planning.offline.grammar import ParsedGoal, not_understood_message, parse_goal
from agent.planning.offline.grounding import ZERO_USAGE, Failure, Grounding, can_scroll_down
from agent.planning.offline.intents import (
    ELEMENT_INTENTS,
    Ask,
    Choose,
    Click,
    Dismiss,
    Hover,
    Intent,
    Navigate,
    Search,
    SetCheck,
    Wait,
    always_changes_page,
    describe,
)
from agent.planning.offline.leads import entity_lead, login_lead, section_lead, subject_lead
from agent.planning.offline.messages import page_message
from agent.planning.offline.navigator import (
    Move,
    expand_move,
    load_more_move,
    next_move,
    settle_move,
    visited_pages,
)
from agent.planning.offline.overlays import blocking_overlay
from agent.planning.offline.page import is_button, is_link, role_of, visible_text
from agent.planning.offline.questions import Query, analyze
from agent.planning.offline.reading import LINE_ANSWERS, answer_question, checked_answer
from agent.planning.offline.records.counts import plan_count
from agent.planning.offline.records.fields import record_field_answer
from agent.planning.offline.records.finding import record_lookup, record_page_first
from agent.planning.offline.records.goal import RecordGoal
from agent.planning.offline.records.plan import leading_goal, plan_record
from agent.planning.offline.records.which import record_goal_of
from agent.planning.offline.reveal import reveal_step, reveals_done
from agent.planning.offline.semantic import take_note
from agent.planning.offline.split_dates import split_date_steps, split_done
from agent.planning.offline.text import clip
from agent.planning.offline.tools import mcp_plan, pdf_plan
from agent.planning.offline.translator import ground
from agent.planning.offline.urls import canonical_url, is_blank, looks_like_url
from agent.types import ALL_ACTIONS, ERROR_NAVIGATION_BLOCKED, Action, Observation
from agent.util.elements import element_by_id
from agent.util.page_errors import ERROR_MESSAGE

MAX_STEPS = 5
MAX_STEP_FAILURES = 3
MAX_OVERLAY_ATTEMPTS = 2
MAX_RETRY_SCROLLS = 6
RETRY_SCROLL_STEP = "Scroll down one page"
SUBMENU_WAIT_STEP = Wait(1.0).step()
MAX_SUBMENU_WAITS = 2
_HARD_ERRORS = ("tool_limit", ERROR_NAVIGATION_BLOCKED)
_SUBMIT_LIKE = re.compile(
    r"\b(?:submit|search|go|log\s*in|sign\s*in|sign\s*up|login|signin|signup|register|continue|next|"
    r"buy|checkout|check\s*out|place\s+order|send|save|apply|confirm|finish|done|ok)\b",
    re.I,
)


def overlay_step(kind: str) -> str:
    """The automatic overlay step; worded unlike the goal's own 'Accept the cookie banner' so they never mix."""
    return "Dismiss the cookie banner" if kind == "cookie" else "Dismiss the dialog"


def completed_count(actions: list[Intent], completed: list[str]) -> int:
    """How many leading intents are done: up to the last one whose step was completed (a multiset match).

    Intents before a completed one count as done even if skipped (a checkbox already in the right state).
    """
    remaining = Counter(completed)
    done = 0
    for n, intent in enumerate(actions):
        step = intent.step()
        if remaining[step] > 0:
            remaining[step] -= 1
            done = n + 1
    return done


def _dry_run(intent: Intent, observation: Observation) -> Action | None:
    """What translate would do for ``intent`` on this page (None when it cannot be grounded)."""
    g = Grounding(observation=observation, goal="", history=[])
    try:
        return ground(intent, g, list(ALL_ACTIONS))
    except Failure:
        return None


def changes_page(intent: Intent, observation: Observation) -> bool:
    """Whether the page after this step is (probably) a different one."""
    if always_changes_page(intent):
        return True
    if not isinstance(intent, Click | Choose):
        return False
    if isinstance(intent, Click) and intent.ordinal:
        return True
    action = _dry_run(intent, observation)
    if action is None or action["action"] != "click":
        return action is None
    el = element_by_id(observation, action.get("element_id"))
    if el is None:
        return True
    href = str((el.get("attrs") or {}).get("href") or "")
    if is_link(el):  # type: ignore[arg-type]
        return bool(href) and not href.startswith(("#", "javascript:"))
    if role_of(el) in ("checkbox", "radio", "tab", "switch", "option"):  # type: ignore[arg-type]
        return False
    if (el.get("input_type") or "") == "submit":
        return True
    return is_button(el) and bool(_SUBMIT_LIKE.search(visible_text(el)))  # type: ignore[arg-type]


def _satisfied(intent: Intent, observation: Observation) -> bool:
    """A checkbox step whose box is already in the wanted state needs no action."""
    if not isinstance(intent, SetCheck):
        return False
    action = _dry_run(intent, observation)
    return action is not None and action["action"] == "wait"


def _targets_dialog(intent: Intent | None, observation: Observation) -> bool:
    """The next step acts inside the dialog itself (a login modal, say): do not close it."""
    if intent is None or not isinstance(intent, ELEMENT_INTENTS) or isinstance(intent, Dismiss):
        return isinstance(intent, Dismiss)
    action = _dry_run(intent, observation)
    el = element_by_id(observation, action.get("element_id")) if action else None
    return bool(el and el.get("zone") == "dialog")


def _failures(history: list[HistoryItem], step: str) -> list[HistoryItem]:
    return [h for h in history if h.get("plan_step") == step and h.get("status") == "failure"]


def _page_error(observation: Observation) -> str:
    for el in observation.get("elements") or []:
        if role_of(el) == "alert" and ERROR_MESSAGE.search(visible_text(el)):
            return visible_text(el)
    return ""


def _result(**fields: Any) -> PlanResult:
    result: dict[str, Any] = {"proposed_actions": [], "task_complete": False, "usage": dict(ZERO_USAGE)}
    result.update(fields)
    note = take_note()
    if note and isinstance(result.get("raw"), dict):
        result["raw"] = {**result["raw"], "note": note}  # the trace says once that matching is by words only
    return result  # type: ignore[return-value]


def _unmet(reason: str, answer: str, *, why: str, raw: dict[str, Any]) -> PlanResult:
    """A result that ends the run unmet: ``reason`` (a terminal reason or a planner word), ``answer`` for the user."""
    return _result(
        task_complete=True, success=False, failure_reason=reason, final_answer=answer, reasoning=why, raw=raw
    )


def _summary(actions: list[Intent], observation: Observation) -> str:
    """What was done, where the run ended, and what the page says about it (the evidence)."""
    done = "; ".join(describe(i) for i in actions)
    where = observation.get("title") or observation.get("url") or ""
    message = page_message(observation)
    text = (
        f"Done: {done}."
        + (f" Now on: {where}." if where else "")
        + (f" The page says: {message}" if message else "")
    )
    return clip(text, 1000)


def _give_up(parsed: ParsedGoal, step: str, failures: list[HistoryItem], done: int) -> PlanResult:
    last = failures[-1] if failures else {}
    reason = last.get("message") or last.get("error_type") or "it kept failing"
    did = "; ".join(describe(i) for i in parsed.actions[:done])
    text = f"Could not carry out the step '{step}': {reason}." + (f" Done before that: {did}." if did else "")
    return _unmet(
        "step_failed",
        clip(text, 1000),
        why=f"the step failed {len(failures)} time(s)",
        raw={"intents": [i.step() for i in parsed.intents], "failed_step": step},
    )


def plan_goal(request: PlanRequest) -> PlanResult:
    """Next steps for the goal given what is done and what the page shows (pure; no I/O)."""
    parsed = parse_goal(request.get("goal") or "")
    served = mcp_plan(
        request.get("goal") or "", list(request.get("tools") or []), list(request.get("history") or [])
    )
    if served is not None:  # an MCP tool serves the goal: prefer it to driving the page
        return _result(**served)
    record = record_goal_of(parsed)
    if record is not None:
        return _plan_with_record(request, parsed, record)
    if not parsed.understood:
        message = not_understood_message(parsed)
        return _unmet(
            terminals.INSUFFICIENT_KNOWLEDGE,
            message,
            why="goal not understood",
            raw={"unknown": list(parsed.unknown), "understood": [i.step() for i in parsed.intents]},
        )
    observation: Observation = request.get("observation") or {}
    history = list(request.get("history") or [])
    actions = list(parsed.actions)
    questions = list(parsed.questions)
    done = completed_count(actions, list(request.get("completed_steps") or []))
    pending = actions[done:]
    raw: dict[str, Any] = {"intents": [i.step() for i in parsed.intents], "done": done}

    head: Intent | None = pending[0] if pending else (questions[0] if questions else None)
    retry_scrolls = sum(
        1 for h in history if h.get("plan_step") == RETRY_SCROLL_STEP and h.get("status") == "success"
    )
    if head is not None and not isinstance(head, Ask):
        failures = _failures(history, head.step())
        allowed = (
            MAX_STEP_FAILURES + min(retry_scrolls, MAX_RETRY_SCROLLS) + reveals_done(history, observation)
        )
        if len(failures) >= allowed or any(f.get("error_type") in _HARD_ERRORS for f in failures):
            return _give_up(parsed, head.step(), failures, done)

    needs_page = isinstance(head, ELEMENT_INTENTS) or (isinstance(head, Ask) and not pending)
    if needs_page and is_blank(observation.get("url")):
        start = request.get("start_url")
        if start and looks_like_url(start):
            return _result(
                proposed_actions=[Navigate(canonical_url(start)).step()],
                raw=raw,
                reasoning="no page is open yet; open the start page first",
            )
        return _unmet(
            terminals.INSUFFICIENT_KNOWLEDGE,
            "The goal acts on a web page, but no page is open and the goal names no site. "
            "Start it with 'go to <url>', or give a start URL.",
            why="no page to act on",
            raw=raw,
        )

    remaining: list[Intent] = []
    crossed = False
    for intent in pending:
        if not crossed and (_satisfied(intent, observation) or split_done(intent, observation, history)):
            continue
        remaining.append(intent)
        crossed = crossed or always_changes_page(intent)

    if not remaining:
        on_pdf = pdf_plan(questions, observation, history)  # type: ignore[arg-type]
        if on_pdf is not None:
            return _result(**on_pdf)
        if questions:
            return _plan_questions(
                questions, observation, history, raw, request.get("start_url") or "", request
            )
        error = _page_error(observation)
        if error:
            return _unmet(
                "page_error",
                clip(f"{_summary(actions, observation)} But the page reports: {error}", 1000),
                why="all steps done, but the page shows an error",
                raw=raw,
            )
        return _result(
            task_complete=True,
            success=True,
            final_answer=_summary(actions, observation),
            raw=raw,
            reasoning="every step of the goal has been carried out",
        )

    split = split_date_steps(remaining[0], observation)
    if split:  # the rest of the batch follows, so the date counts done once a later step is
        return _result(
            proposed_actions=[*split, *(i.step() for i in remaining[1:3])],
            raw=raw,
            reasoning="the form asks for the date in parts: day, month and year",
        )
    dated = date_of(remaining[0]) is not None
    picker = (
        picker_step(remaining[0], observation, _dry_run(remaining[0], observation), history)
        if dated
        else None
    )
    if picker:
        return _result(
            proposed_actions=[picker], raw=raw, reasoning="the date goes in through the field's calendar"
        )
    steps = [] if _targets_dialog(remaining[0], observation) else _overlay_first(observation, history)
    login = login_lead(remaining, observation, str(request.get("goal") or ""))
    if login and not _tried(history, login):
        return _result(
            proposed_actions=[*steps, login],
            raw=raw,
            reasoning="the goal logs in but this page has no login form; open the login page first",
        )
    towards = _link_lead(remaining[0], observation, history, request.get("start_url") or "")
    if towards is not None:
        return _result(proposed_actions=[*steps, towards.step], raw=raw, reasoning=towards.reason)
    head_step = remaining[0].step()
    last = history[-1] if history else {}
    not_found = (
        last.get("plan_step") == head_step
        and last.get("status") == "failure"
        and last.get("error_type") == "element_not_found"
    )
    opening = not_found and done > 0 and isinstance(actions[done - 1], Hover)
    if opening and sum(1 for h in history if h.get("plan_step") == SUBMENU_WAIT_STEP) < MAX_SUBMENU_WAITS:
        steps.append(SUBMENU_WAIT_STEP)  # a submenu opens a moment after the pointer reaches its item
    reveal = reveal_step(observation, history) if not_found and not opening else None
    if reveal:
        steps.append(reveal)  # the element may be inside a collapsed section or another tab
    elif not_found and can_scroll_down(observation, history) and retry_scrolls < MAX_RETRY_SCROLLS:
        steps.append(RETRY_SCROLL_STEP)
    for intent in remaining:
        steps.append(intent.step())
        if changes_page(intent, observation) or len(steps) >= MAX_STEPS:
            break
    else:
        if questions and len(steps) < MAX_STEPS:
            steps.append(questions[0].step())
    raw["pending"] = [i.step() for i in remaining]
    return _result(
        proposed_actions=steps[:MAX_STEPS],
        raw=raw,
        reasoning=f"{done} of {len(actions)} action step(s) done; next: {steps[0]}",
    )


def _plan_with_record(request: PlanRequest, parsed: ParsedGoal, record: RecordGoal) -> PlanResult:
    """A record goal: the parts the grammar reads first ('log in as ...'), then the record operation."""
    lead = leading_goal(parsed, record)
    if lead and not (request.get("goal") or "").startswith(lead):
        first = plan_goal({**request, "goal": lead})
        if not first.get("task_complete") or not first.get("success"):
            return first
    result = plan_record(request, record)
    if result.get("raw") is not None:
        result["usage"] = dict(ZERO_USAGE)  # type: ignore[typeddict-item]
    return _result(**result)


def _link_lead(
    intent: Intent, observation: Observation, history: list[HistoryItem], start_url: str
) -> Move | None:
    """'Open the Raku Firing Weekend' on a page with no link to it: a step towards the page that has one (a link
    naming part of it, the site's search, one of its sections), as a question about it would be looked for."""
    if not isinstance(intent, Click) or intent.role != "link" or intent.near or intent.ordinal:
        return None
    if _dry_run(intent, observation) is not None:
        return None
    target = intent.target
    return next_move(Query("generic", target, noun=target), observation, history, start_url)


def _tried(history: list[HistoryItem], step: str) -> bool:
    return any(h.get("plan_step") == step for h in history)


def _overlay_first(observation: Observation, history: list[HistoryItem]) -> list[str]:
    overlay = blocking_overlay(observation)
    if overlay is None:
        return []
    step = overlay_step(overlay.kind)
    return [step] if sum(1 for h in history if h.get("plan_step") == step) < MAX_OVERLAY_ATTEMPTS else []


def _plan_questions(
    questions: list[Ask],
    observation: Observation,
    history: list[HistoryItem],
    raw: dict[str, Any],
    start_url: str = "",
    request: PlanRequest | None = None,
) -> PlanResult:
    """All actions are done: answer from the page, scan further down, follow a lead, or report not found.

    A collection question asked away from its section goes there first; when the page is scanned to the end,
    a link the question names, a link to its entity, or a search for the entity is tried once each.
    """
    counted = plan_count(questions[0].question, request) if request and len(questions) == 1 else None
    if counted is not None:  # one person's records in one state: counted on a listing filtered for them
        return _result(**{**counted, "usage": dict(ZERO_USAGE), "raw": {**raw, **(counted.get("raw") or {})}})
    answers = [
        checked_answer(record_field_answer(q.question, observation) or answer_question(q.question, observation),
                 observation, history, q.question)
        for q in questions
    ]  # fmt: skip
    found = all(a.found for a in answers)
    text = (
        answers[0].text
        if len(answers) == 1
        else "; ".join(f"{q.question}: {a.text}" for q, a in zip(questions, answers, strict=True))
    )
    raw["evidence"] = [
        {"question": q.question, "answer": a.text, "found": a.found, "section": a.section, "source": a.source}
        for q, a in zip(questions, answers, strict=True)
    ]
    pending = [q for q, a in zip(questions, answers, strict=True) if not a.found] or questions
    query = analyze(pending[0].question)
    section = section_lead(query, observation)
    if section and not _tried(history, section):
        return _result(
            proposed_actions=[*_overlay_first(observation, history), section],
            raw=raw,
            reasoning="the question is about a section this page is not; open it first",
        )
    first = (
        record_page_first(questions[0].question, request, answers[0].evidence in LINE_ANSWERS)
        if found and request and len(questions) == 1
        else None
    )
    if first is not None:  # a listing row answers for the record: its own page proves it
        return _result(**{**first, "usage": dict(ZERO_USAGE), "raw": {**raw, **(first.get("raw") or {})}})
    if found:
        return _result(
            task_complete=True,
            success=True,
            final_answer=text,
            raw=raw,
            reasoning="the answer is on the page",
        )
    lookup = record_lookup(pending[0].question, request) if request is not None else None
    if lookup is not None:  # the question is about a record this page is not: find that record first
        return _result(**{**lookup, "usage": dict(ZERO_USAGE), "raw": {**raw, **(lookup.get("raw") or {})}})
    expand = expand_move(query, observation, history)
    if expand:
        return _result(proposed_actions=[expand.step], raw=raw, reasoning=expand.reason)
    settle = settle_move(observation, history) or load_more_move(observation, history)
    if settle and can_scroll_down(observation, history) is False:
        return _result(proposed_actions=[settle.step], raw=raw, reasoning=settle.reason)
    step = questions[0].step()
    hard = [f for f in _failures(history, step) if f.get("error_type") in _HARD_ERRORS]
    if (
        can_scroll_down(observation, history)
        and not hard
        and len(_failures(history, step)) < MAX_STEP_FAILURES
    ):
        return _result(
            proposed_actions=[*_overlay_first(observation, history), step],
            raw=raw,
            reasoning="the answer is not visible yet; scan further down the page",
        )
    leads = [
        subject_lead(query, observation, visited_pages(history, observation, start_url)),
        entity_lead(query, observation),
    ]
    lead = next((s for s in leads if s and not _tried(history, s)), None)
    if lead:
        return _result(
            proposed_actions=[*_overlay_first(observation, history), lead],
            raw=raw,
            reasoning="the answer is not on this page; follow the most promising lead",
        )
    move = next_move(query, observation, history, start_url)
    if move:
        return _result(
            proposed_actions=[*_overlay_first(observation, history), move.step],
            raw=raw,
            reasoning=move.reason,
        )
    if query.entity and not _tried(history, Search(query.entity).step()):
        return _result(
            proposed_actions=[*_overlay_first(observation, history), Search(query.entity).step()],
            raw=raw,
            reasoning="nothing on this site leads to it; search the web for it",
        )
    return _unmet(
        terminals.ANSWER_NOT_FOUND,
        text,
        why="the page was scanned to the end and no lead is left to follow",
        raw=raw,
    )


__all__ = ["plan_goal", "completed_count", "changes_page", "overlay_step", "MAX_STEPS"]
