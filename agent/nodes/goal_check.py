"""goal_check: budgets, completion claims judged on evidence, and monotonic stage promotion.

Stages advance on observed artifacts only: a real page (context), goal words on the page or a successful
step (locate), a successful page-changing step or the planner's completion claim (verify). A claim of
completion ends the run as ``goal_satisfied`` only when what was observed backs it.
"""

from __future__ import annotations

from typing import Any

from agent.context import Context
from agent.evidence import answer_grounded, echoes_goal, goal_hits, observation_text, page_error
from agent.nodes.base import graph_node
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
    MAX_PLANNER_CALLS,
    MAX_SECONDS,
    MAX_STEPS,
    MAX_TOKENS,
    STAGE_NOT_ADVANCED,
)


def failures_message(state: AgentState) -> str:
    """'6 failures; last: ...' so a run stopped by its failure budget says what kept going wrong."""
    failed = [h for h in state.get("history") or [] if h.get("status") == "failure"]
    last = f"; last: {failed[-1].get('message', '')}" if failed else ""
    return f"{state.get('errors', 0)} failures{last}"[:500]


def budget_terminal(state: AgentState, ctx: Context) -> tuple[str, str] | None:
    """(reason, message) of the first exhausted budget, or None."""
    usage = state.get("usage") or {}
    checks = [
        (
            elapsed_seconds(state) >= ctx.max_seconds,
            MAX_SECONDS,
            f"time budget of {ctx.max_seconds:g}s used",
        ),
        (int(state.get("steps", 0)) >= ctx.max_steps, MAX_STEPS, f"step budget of {ctx.max_steps} used"),
        (int(state.get("errors", 0)) >= ctx.max_failures, MAX_FAILURES, failures_message(state)),
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


def judge_claim(state: AgentState, claim: dict[str, Any]) -> dict[str, Any]:
    """Turn a completion claim (from the planner or a ``done`` action) into a terminal, on evidence."""
    answer = (claim.get("answer") or "").strip()
    history = state.get("history") or []
    successes = [h for h in history if h.get("status") == "success"]
    if not claim.get("success", True):
        reason = claim.get("failure_reason") or ANSWER_NOT_FOUND
        if reason not in (INSUFFICIENT_KNOWLEDGE, ANSWER_NOT_FOUND, STAGE_NOT_ADVANCED):
            reason = INSUFFICIENT_KNOWLEDGE
        return {
            "terminal_type": GOAL_FAILED,
            "terminal_reason": reason,
            "final_answer": answer or None,
            "stop_reason": answer or reason,
        }
    mode = state.get("task_mode")
    observed = [observation_text(state.get("observation"))] + [h.get("message", "") for h in history]
    grounded = (
        bool(answer) and answer_grounded(answer, observed) and not echoes_goal(answer, state.get("goal", ""))
    )
    if mode == "answer":
        if grounded:
            return {
                "terminal_type": GOAL_SATISFIED,
                "terminal_reason": ANSWER_FOUND,
                "final_answer": answer,
            }
        if not answer:
            return {
                "terminal_type": GOAL_FAILED,
                "terminal_reason": ANSWER_NOT_FOUND,
                "stop_reason": "completion claimed with an empty answer",
            }
        return {
            "terminal_type": GOAL_FAILED,
            "terminal_reason": ANSWER_NOT_GROUNDED,
            "final_answer": answer,
            "stop_reason": "the answer does not match anything observed on the pages",
        }
    if mode == "find" and grounded:
        return {"terminal_type": GOAL_SATISFIED, "terminal_reason": ANSWER_FOUND, "final_answer": answer}
    if not successes:
        return {
            "terminal_type": GOAL_FAILED,
            "terminal_reason": STAGE_NOT_ADVANCED,
            "final_answer": answer or None,
            "stop_reason": "completion claimed but no action succeeded",
        }
    if history and history[-1].get("status") != "success":
        return {
            "terminal_type": GOAL_FAILED,
            "terminal_reason": STAGE_NOT_ADVANCED,
            "final_answer": answer or None,
            "stop_reason": f"completion claimed right after a failed step: {history[-1].get('message', '')}",
        }
    error = page_error(state.get("observation"))
    if error:
        return {
            "terminal_type": GOAL_FAILED,
            "terminal_reason": ACTION_REJECTED,
            "final_answer": answer or None,
            "stop_reason": f"the page reports an error after the last step: {error}",
        }
    return {
        "terminal_type": GOAL_SATISFIED,
        "terminal_reason": ACTION_VERIFIED,
        "final_answer": answer or "Done.",
    }


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


@graph_node("goal_check")
async def goal_check(state: AgentState, ctx: Context) -> dict[str, Any]:
    if state.get("terminal_type"):
        return {}
    claim = state.get("completion_claim")
    if claim:
        verdict = judge_claim(state, claim)
        update = {"completion_claim": None, **verdict}
        if verdict["terminal_type"] == GOAL_SATISFIED:
            update["stage"] = promote(state.get("stage"), "verify")
        update["_note"] = f"claim judged: {verdict['terminal_type']}/{verdict['terminal_reason']}"
        return update
    budget = budget_terminal(state, ctx)
    if budget:
        reason, message = budget
        return {"terminal_type": BUDGET_EXHAUSTED, "terminal_reason": reason, "stop_reason": message}
    stage = promoted_stage(state)
    update: dict[str, Any] = (
        {"stage": stage, "_note": f"stage {stage}"} if stage != state.get("stage") else {}
    )
    if ctx.auto_done and auto_done_ready({**state, "stage": stage}):
        # auto_done lives here, not in progress: it needs the observation taken after the last action
        verdict = judge_claim(state, {"answer": "", "success": True, "source": "auto_done"})
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
