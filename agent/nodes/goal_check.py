"""goal_check: budgets, completion claims judged on evidence, and monotonic stage promotion.

Stages advance on observed artifacts only: a real page (context), goal words on the page or a successful
step (locate), a successful page-changing step or the planner's completion claim (verify). A claim of
completion ends the run as ``goal_satisfied`` only when what was observed backs it.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from agent.browser import registry
from agent.browser.effects import read_quote
from agent.context import Context
from agent.evidence import echoes_goal, echoes_refusal, echoes_typed, goal_hits, observation_text, page_error
from agent.nodes.base import graph_node, usage_update
from agent.planning.model_judge import apply_judge, judge_claim_with_model, judge_summary
from agent.planning.verify import (
    NOT_ON_PAGE,
    GoalPart,
    Verdict,
    answer_for,
    answer_part,
    goal_parts,
    judge,
    quote_candidates,
)
from agent.planning.verify.answers import (
    holiday_said,
    latest_asked,
    site_words,
    soonest_asked,
    soonest_words,
)
from agent.planning.verify.parts import without_site
from agent.records import elapsed_seconds
from agent.stages import promote, stage_index
from agent.state import AgentState
from agent.terminals import (
    ACTION_REJECTED,
    ACTION_VERIFIED,
    ANSWER_FOUND,
    ANSWER_NOT_FOUND,
    ANSWER_NOT_GROUNDED,
    BUDGET_EXHAUSTED,
    GOAL_FAILED,
    GOAL_SATISFIED,
    INSUFFICIENT_KNOWLEDGE,
    MAX_COST,
    MAX_FAILURES,
    MAX_MODEL_CALLS,
    MAX_PLANNER_CALLS,
    MAX_SECONDS,
    MAX_STEPS,
    MAX_TOKENS,
    NAVIGATION_BLOCKED,
    STAGE_NOT_ADVANCED,
    UNVERIFIED,
)

MAX_QUOTES = 4


def failures_message(state: AgentState) -> str:
    """'6 failures; last: ...' so a run stopped by its failure budget says what kept going wrong."""
    failed = [h for h in state.get("history") or [] if h.get("status") == "failure"]
    last = f"; last: {failed[-1].get('message', '')}" if failed else ""
    return f"{state.get('errors', 0)} failures{last}"[:500]


def failures_in_a_row(state: AgentState) -> int:
    """Failed steps at the end of the history, back to the last step that did not fail."""
    count = 0
    for item in reversed(state.get("history") or []):
        if item.get("status") == "success":
            break
        count += item.get("status") == "failure"
    return count


def budget_terminal(state: AgentState, ctx: Context) -> tuple[str, str] | None:
    """(reason, message) of the first exhausted budget, or None."""
    usage = state.get("usage") or {}
    in_a_row = failures_in_a_row(state) if ctx.max_consecutive_failures > 0 else 0
    checks = [
        (
            elapsed_seconds(state) >= ctx.max_seconds,
            MAX_SECONDS,
            f"time budget of {ctx.max_seconds:g}s used",
        ),
        (int(state.get("steps", 0)) >= ctx.max_steps, MAX_STEPS, f"step budget of {ctx.max_steps} used"),
        (int(state.get("errors", 0)) >= ctx.max_failures, MAX_FAILURES, failures_message(state)),
        (
            ctx.max_consecutive_failures > 0 and in_a_row >= ctx.max_consecutive_failures,
            MAX_FAILURES,
            f"{in_a_row} failed steps in a row; {failures_message(state)}"[:500],
        ),
        (
            ctx.max_model_calls > 0 and int(usage.get("calls", 0)) >= ctx.max_model_calls,
            MAX_MODEL_CALLS,
            f"model call budget of {ctx.max_model_calls} used",
        ),
        (
            ctx.max_tokens > 0 and int(usage.get("total_tokens", 0)) >= ctx.max_tokens,
            MAX_TOKENS,
            f"token budget of {ctx.max_tokens} used",
        ),
        (
            ctx.max_cost_usd > 0 and float(usage.get("cost_usd", 0.0)) >= ctx.max_cost_usd,
            MAX_COST,
            f"cost budget of ${ctx.max_cost_usd:g} used",
        ),
    ]
    for hit, reason, message in checks:
        if hit:
            return reason, message
    return None


def planner_budget_spent(state: AgentState, ctx: Context) -> bool:
    """The router would call the planner next (no step queued) and its call budget is used up."""
    return not state.get("plan") and int(state.get("planner_calls", 0)) >= ctx.max_planner_calls


_GIVE_UP_REASONS = {
    INSUFFICIENT_KNOWLEDGE: INSUFFICIENT_KNOWLEDGE,
    ANSWER_NOT_FOUND: ANSWER_NOT_FOUND,
    STAGE_NOT_ADVANCED: STAGE_NOT_ADVANCED,
    "page_error": ACTION_REJECTED,
}


def parts_of(state: AgentState) -> list[GoalPart]:
    """The goal's parts (derived once); a goal without any checkable part must still show an effect."""
    parts = list(state.get("goal_parts") or []) or goal_parts(state.get("goal", ""))
    if parts:
        return parts
    if state.get("task_mode") in ("answer", "find"):
        return [{**answer_part(state.get("goal", "")), "id": "p1"}]
    return [{"id": "p1", "kind": "task", "target": state.get("goal", ""), "text": "the goal was carried out"}]


def own_history(state: AgentState) -> tuple[list[dict[str, Any]], int]:
    """The steps this run ran itself, and how many it inherited: a fork (or a copied thread) starts from the
    original's history, whose effects happened in the original's browser; the fork proves nothing with them."""
    history = list(state.get("history") or [])
    inherited = int((state.get("forked_from") or {}).get("steps") or 0)
    if not inherited:
        return history, 0
    return [h for h in history if int(h.get("step") or 0) > inherited], inherited


def _failed(reason: str, message: str, verdict: Verdict | None = None, candidate: str = "") -> dict[str, Any]:
    return {
        "terminal_type": GOAL_FAILED,
        "terminal_reason": reason,
        "final_answer": None,
        "stop_reason": message[:1000],
        "candidate_answer": candidate or None,
        "goal_evidence": list((verdict or {}).get("evidence") or []),
        "missing": list((verdict or {}).get("missing") or []),
    }


def with_sources(
    evidence: list[dict[str, Any]], planner_output: dict[str, Any] | None
) -> list[dict[str, Any]]:
    """Answer proofs with the section and source URL the planner says it read the answer from (the offline
    planner records them in its output), so result.json's evidence names the place, not only the page."""
    read = [e for e in (planner_output or {}).get("evidence") or [] if isinstance(e, dict) and e.get("found")]
    out = []
    for item in evidence:
        quote = str(item.get("quote") or "").strip()
        place = next((e for e in read if quote and quote in str(e.get("answer") or "")), None)
        if item.get("kind") == "answer" and place is None and len(read) == 1:
            place = read[0]
        if item.get("kind") == "answer" and place is not None:
            item = {**item, "section": place.get("section") or "", "source": place.get("source") or ""}
        out.append(item)
    return out


def judge_claim(
    state: AgentState, claim: dict[str, Any], readings: dict[str, dict[str, Any] | None] | None = None
) -> dict[str, Any]:
    """Turn a completion claim (the planner's, a ``done`` action's, auto_done's) into a terminal.

    ``goal_satisfied`` only when every goal part has evidence (see :mod:`agent.planning.verify`); an agent that acted
    but cannot prove the goal is met ends ``goal_failed/unverified`` with its candidate answer and what is
    missing. ``readings`` are the live page's answers to where each quoted answer sits (None: text lines only).
    """
    answer = (claim.get("answer") or "").strip()
    history, inherited = own_history(state)
    refused = echoes_refusal(answer, state.get("history") or [], list(state.get("visited_urls") or []))
    if not claim.get("success", True):
        reason = _GIVE_UP_REASONS.get(claim.get("failure_reason") or ANSWER_NOT_FOUND, INSUFFICIENT_KNOWLEDGE)
        return _failed(NAVIGATION_BLOCKED if refused else reason, answer or reason)  # gave up on the refusal
    if refused:
        return _failed(
            NAVIGATION_BLOCKED, f"the answer repeats a refused navigation, which is no answer: {refused}"
        )
    parts = parts_of(state)
    asked = any(p.get("kind") == "answer" for p in parts)
    planted = echoes_typed(answer, state.get("history") or [], state.get("goal", "")) if asked else None
    if planted:
        return _failed(
            ANSWER_NOT_GROUNDED,
            f"the answer only repeats what this run typed into the page ({planted[:80]!r}), which proves nothing",
            candidate=answer,
        )
    observation = state.get("observation") or {}
    if answer and echoes_goal(answer, state.get("goal", "")):
        answer = ""  # the goal's own words shown back by a page prove nothing
    verdict = judge(
        parts,
        with_late_change(state, history),
        observation,
        answer=answer,
        readings=readings,
        visited=list(state.get("visited_urls") or []),
    )
    asks = any(p.get("kind") == "answer" for p in parts)
    acts = any(p.get("kind") != "answer" for p in parts)
    successes = [h for h in history if h.get("status") == "success"]
    error = (verdict["error"] or page_error(observation)) if acts else ""
    if error:
        return _failed(
            ACTION_REJECTED, f"the page reports an error after the last step: {error}", verdict, answer
        )
    if not verdict["missing"]:
        return {
            "terminal_type": GOAL_SATISFIED,
            "terminal_reason": ANSWER_FOUND if asks else ACTION_VERIFIED,
            "final_answer": answer or "Done.",
            "goal_evidence": list(verdict["evidence"]),
            "missing": [],
            "candidate_answer": None,
        }
    if acts and not successes:
        if inherited:
            ran = "step 1" if inherited == 1 else f"steps 1-{inherited}"
            message = (
                f"completion claimed on {ran}, which the run this one was forked from ran in its own browser;"
                " this fork has not shown their effect itself"
            )
            return _failed(UNVERIFIED, message, verdict, answer)
        return _failed(STAGE_NOT_ADVANCED, "completion claimed but no action succeeded", verdict, answer)
    if acts and history and history[-1].get("status") != "success":
        message = f"completion claimed right after a failed step: {history[-1].get('message', '')}"
        return _failed(STAGE_NOT_ADVANCED, message, verdict, answer)
    if asks and not answer:
        return _failed(ANSWER_NOT_FOUND, "completion claimed without an answer", verdict)
    if asks and not acts and all(NOT_ON_PAGE in m for m in verdict["missing"]):
        return _failed(
            ANSWER_NOT_GROUNDED, "the answer does not match anything observed on the pages", verdict, answer
        )
    return _failed(UNVERIFIED, "not verified: " + "; ".join(verdict["missing"]), verdict, answer)


def with_late_change(state: AgentState, history: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The history, with a late effect of the last step filled in: a page that changed only after the step's
    own reading (a slow response) shows it in the observation taken since (its visible text or form state)."""
    if not history or not state.get("prev_dom_hash") or state.get("dom_hash") == state.get("prev_dom_hash"):
        return history
    last = history[-1]
    effect = dict(last.get("effect") or {})
    if last.get("status") != "success" or effect.get("changed") or effect.get("errors") or not effect:
        return history
    effect.update(changed=True, summary="the page changed after the step (seen by the next observation)")
    return [*history[:-1], {**last, "effect": effect}]


async def page_readings(
    state: AgentState, parts: list[GoalPart], answer: str
) -> dict[str, dict[str, Any] | None]:
    """Where each quotable piece of the answer sits on the live page (empty without a browser)."""
    session = registry.get(state.get("run_id") or "")
    questions = [p for p in parts if p.get("kind") == "answer"]
    if session is None or not questions or not answer:
        return {}
    readings: dict[str, dict[str, Any] | None] = {}
    for part in questions:
        blockwise = part.get("answer_kind") in ("attribute", "generic")
        subject = list(part.get("subject") or []) if blockwise else []
        must = list(part.get("must") or []) if blockwise else []
        need = int(part.get("need") or 0)
        relaxed_subject = (
            without_site(part, site_words(state.get("observation") or {})) if blockwise else None
        )
        for quote in quote_candidates(part, answer_for(part, questions, answer))[:MAX_QUOTES]:
            if quote in readings:
                continue
            lists = part.get("answer_kind") == "count"
            latest = latest_asked(str(part.get("question") or ""))
            holiday = _holiday_arg(str(part.get("question") or ""))
            question = str(part.get("question") or "")
            soonest = soonest_words(question) if soonest_asked(question) else None
            reading = await read_quote(
                session,
                quote,
                subject,
                need or None,
                lists=lists,
                must=must,
                latest=latest,
                holiday=holiday,
                soonest=soonest,
            )
            if relaxed_subject and not _answers(reading):
                # 'at Kestrel Valley College' on the college's own site: its main content need not say it again
                kept, kept_must, kept_need = relaxed_subject
                relaxed = await read_quote(
                    session,
                    quote,
                    kept,
                    kept_need,
                    lists=lists,
                    must=kept_must,
                    main_only=True,
                    latest=latest,
                    holiday=holiday,
                    soonest=soonest,
                )
                reading = relaxed if _answers(relaxed) else reading
            readings[quote] = reading
    return readings


def _holiday_arg(question: str) -> dict[str, Any] | None:
    """The holiday a question names ('my Easter hire') with its days in the years about now, for the page."""
    name, days = holiday_said(question, datetime.now().year)
    return {"name": name, "days": [d.isoformat() for d in days]} if name else None


def _answers(reading: dict[str, Any] | None) -> bool:
    return any(f.get("ok") for f in (reading or {}).get("found") or [])


def goal_related(goal: str, item: dict[str, Any]) -> bool:
    """Did this step act on something the goal talks about (its target, text typed, URL)?"""
    args = item.get("args") or {}
    text = " ".join(str(v) for v in (item.get("target"), item.get("plan_step"), *args.values()) if v)
    return bool(goal_hits(goal, text))


def promoted_stage(state: AgentState) -> str:
    """The furthest stage the evidence supports (never behind the current one)."""
    stage = state.get("stage") or "orient"
    obs = state.get("observation") or {}
    url = obs.get("url") or state.get("url") or ""
    if url and url != "about:blank" and (obs.get("elements") or obs.get("page_text")):
        stage = promote(stage, "context")
    history = state.get("history") or []
    if stage_index(stage) >= stage_index("context"):
        hits = goal_hits(state.get("goal", ""), observation_text(obs))
        if hits or any(h.get("status") == "success" for h in history):
            stage = promote(stage, "locate")
    last = history[-1] if history else None
    page_changed = state.get("url") != state.get("prev_url") or state.get("mapping_hash") != state.get(
        "prev_mapping_hash"
    )
    if (
        stage_index(stage) >= stage_index("locate")
        and last
        and last.get("status") == "success"
        and last.get("action") not in ("scroll", "wait", "screenshot")
        and page_changed
        and goal_related(state.get("goal", ""), last)
    ):
        stage = promote(stage, "verify")
    return stage


def auto_done_ready(state: AgentState) -> bool:
    """Late stage, action goal, nothing queued, last step a success: the run may end without the planner."""
    history = state.get("history") or []
    return (
        state.get("stage") == "verify"
        and state.get("goal_kind") == "action"
        and not state.get("plan")
        and bool(history)
        and history[-1].get("status") == "success"
    )


async def second_opinion(
    state: AgentState, ctx: Context, parts: list[Any], verdict: dict[str, Any]
) -> tuple[dict[str, Any], dict[str, Any]]:
    """judge: model - the configured model may withhold the success the rules granted (never grant one).

    Returns the verdict after the judge and the usage update of its call.
    """
    judged = await judge_claim_with_model(
        ctx,
        goal=state.get("goal", ""),
        parts=parts,
        evidence=verdict.get("goal_evidence") or [],
        answer=verdict.get("final_answer"),
        observations=[state.get("observation") or {}],
    )
    spent = usage_update(state, "judge", judged["usage"]) if judged["usage"].get("calls") else {}
    return apply_judge(verdict, judged), spent


@graph_node("goal_check")
async def goal_check(state: AgentState, ctx: Context) -> dict[str, Any]:
    if state.get("terminal_type"):
        return {}
    parts = parts_of(state)
    known: dict[str, Any] = {} if state.get("goal_parts") else {"goal_parts": parts}
    claim = state.get("completion_claim")
    if claim:
        readings = await page_readings(state, parts, (claim.get("answer") or "").strip())
        verdict = judge_claim({**state, "goal_parts": parts}, claim, readings)
        verdict["goal_evidence"] = with_sources(
            verdict.get("goal_evidence") or [], state.get("planner_output")
        )
        judged: dict[str, Any] = {}
        if ctx.judge == "model" and verdict["terminal_type"] == GOAL_SATISFIED:
            verdict, judged = await second_opinion(state, ctx, parts, verdict)
        update = {"completion_claim": None, **known, **verdict, **judged}
        if verdict["terminal_type"] == GOAL_SATISFIED:
            update["stage"] = promote(state.get("stage"), "verify")
        update["_note"] = (
            f"claim judged: {verdict['terminal_type']}/{verdict['terminal_reason']}; "
            + (
                f"{len(verdict.get('goal_evidence') or [])} of {len(parts)} parts proven"
                + "".join(f"; missing: {m}" for m in verdict.get("missing") or [])
            )
            + (f"; {judge_summary(verdict['judge'])}" if verdict.get("judge") else "")
        )
        return update
    budget = budget_terminal(state, ctx)
    if budget:
        reason, message = budget
        return {
            "terminal_type": BUDGET_EXHAUSTED,
            "terminal_reason": reason,
            "stop_reason": message,
            **known,
        }
    stage = promoted_stage(state)
    update: dict[str, Any] = {**known}
    if stage != state.get("stage"):
        update.update(stage=stage, _note=f"stage {stage}")
    if ctx.auto_done and auto_done_ready({**state, "stage": stage}):
        # auto_done lives here, not in progress: it needs the observation taken after the last action
        verdict = judge_claim(
            {**state, "goal_parts": parts}, {"answer": "", "success": True, "source": "auto_done"}
        )
        update.update(
            verdict, stage=promote(stage, "verify"), _note=f"auto_done: {verdict['terminal_reason']}"
        )
    if not update.get("terminal_type") and planner_budget_spent(state, ctx):
        # The planner is next (nothing queued) but may not run again: end here instead of entering it.
        update.update(
            terminal_type=BUDGET_EXHAUSTED,
            terminal_reason=MAX_PLANNER_CALLS,
            stop_reason=f"planner call budget of {ctx.max_planner_calls} used",
        )
    return update
