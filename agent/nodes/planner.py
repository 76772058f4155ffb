"""planner: the planner prompt proposes 1-5 high-level steps, or declares the goal complete.

Steps carry no element ids (the translate node grounds them). The call is bounded by a timeout; a model
error or invalid reply goes to ``error_retry``; a completion claim goes to ``goal_check`` to be judged.
"""

from __future__ import annotations

import asyncio
from typing import Any

from agent import runtime
from agent.context import Context
from agent.llm.usage import add_usage
from agent.nodes.base import elapsed_seconds, graph_node
from agent.planning.base import PlanRequest
from agent.stages import allowed_actions
from agent.state import AgentState

MAX_PROPOSED = 5


def plan_timeout(ctx: Context) -> float:
    """Upper bound for one backend call: every attempt, the re-ask and backoff, plus headroom."""
    if not ctx.uses_model:
        return 30.0
    from agent.planning.llm import max_call_seconds

    return max_call_seconds(ctx) + 5.0


def build_plan_request(state: AgentState, ctx: Context) -> PlanRequest:
    history = state.get("history") or []
    errors = int(state.get("errors", 0))
    tool_calls = len(history)
    return {
        "goal": state.get("goal", ""),
        "goal_kind": state.get("goal_kind", "action"),
        "task_mode": state.get("task_mode", "browse"),
        "stage": state.get("stage", "orient"),
        "observation": state.get("observation") or {},
        "history": history[-20:],
        "metrics": {
            "tool_calls": tool_calls,
            "errors": errors,
            "error_rate": (errors / tool_calls) if tool_calls else 0.0,
            "observations": int(state.get("observations", 0)),
            "elapsed_s": elapsed_seconds(state),
            "steps": int(state.get("steps", 0)),
            "planner_calls": int(state.get("planner_calls", 0)),
        },
        "allowed_actions": allowed_actions(state.get("stage"), interactive=ctx.interactive),
        "avoid_elements": list(state.get("avoid_elements") or []),
        "hints": list(state.get("hints") or []),
        "completed_steps": list(state.get("completed_steps") or []),
        "page_type": state.get("page_type", "other"),
        "listing_detected": bool(state.get("listing_detected")),
        "start_url": state.get("start_url"),
    }


def usage_update(state: AgentState, node: str, usage: dict[str, Any] | None) -> dict[str, Any]:
    if not usage:
        return {}
    by_node = dict(state.get("usage_by_node") or {})
    by_node[node] = dict(add_usage(by_node.get(node), usage))
    return {"usage": dict(add_usage(state.get("usage"), usage)), "usage_by_node": by_node}


@graph_node("planner")
async def planner(state: AgentState, ctx: Context) -> dict[str, Any]:
    calls = int(state.get("planner_calls", 0))
    if calls >= ctx.max_planner_calls:
        return {
            "terminal_type": "budget_exhausted",
            "terminal_reason": "max_planner_calls",
            "stop_reason": f"planner call budget of {ctx.max_planner_calls} used",
        }
    request = build_plan_request(state, ctx)
    backend = runtime.backend_for(ctx)
    try:
        result = await asyncio.wait_for(backend.plan(request), timeout=plan_timeout(ctx))
    except TimeoutError:
        result = {"error": f"planner did not answer within {plan_timeout(ctx):.0f}s", "error_kind": "timeout"}
    update: dict[str, Any] = {
        "planner_calls": calls + 1,
        **usage_update(state, "planner", result.get("usage")),
    }
    update["planner_output"] = dict(result.get("raw") or {k: v for k, v in result.items() if k != "usage"})
    if result.get("error"):
        update["pending_error"] = {
            "source": "planner",
            "kind": result.get("error_kind") or "model_error",
            "message": result["error"],
            "retryable": result.get("error_retryable", True),
        }
        update["_note"] = f"planner error: {result['error']}"
        return update
    if result.get("task_complete"):
        update["completion_claim"] = {
            "answer": result.get("final_answer") or "",
            "success": result.get("success", True),
            "failure_reason": result.get("failure_reason"),
            "source": "planner",
        }
        update["plan"] = []
        update["_note"] = f"planner: complete ({'success' if result.get('success', True) else 'failure'})"
        return update
    steps = [s.strip() for s in (result.get("proposed_actions") or []) if isinstance(s, str) and s.strip()]
    if not steps:
        update["pending_error"] = {
            "source": "planner",
            "kind": "invalid_reply",
            "message": "the planner proposed no steps and did not declare completion",
        }
        return update
    steps = steps[:MAX_PROPOSED]
    update.update(plan=steps, current_step=steps[0], hints=[], _note="plan: " + " | ".join(steps))
    return update
