"""planner: the planner prompt proposes 1-5 high-level steps, or declares the goal complete.

Steps carry no element ids (the translate node grounds them). The call is bounded by a timeout; a model
error or invalid reply goes to ``error_retry``; a completion claim goes to ``goal_check`` to be judged.
"""

from __future__ import annotations

from typing import Any

from agent.context import Context
from agent.nodes.base import backend_error, backend_remark, graph_node, terminal, usage_update
from agent.records import elapsed_seconds
from agent.runtime import runtime_for
from agent.stages import allowed_actions
from agent.state import AgentState
from agent.terminals import MAX_PLANNER_CALLS
from agent.types import KIND_INVALID_REPLY, PlanRequest

MAX_PROPOSED = 5


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
        "tools": list(state.get("mcp_tools") or []),
    }


@graph_node("planner")
async def planner(state: AgentState, ctx: Context) -> dict[str, Any]:
    calls = int(state.get("planner_calls", 0))
    if calls >= ctx.max_planner_calls:
        # goal_check ends a run before routing here with the budget spent; this guards direct callers.
        return terminal(MAX_PLANNER_CALLS, f"planner call budget of {ctx.max_planner_calls} used")
    request = build_plan_request(state, ctx)
    result = await (await runtime_for(state, ctx)).plan(request)
    update: dict[str, Any] = {
        "planner_calls": calls + 1,
        **usage_update(state, "planner", result.get("usage")),
        **backend_remark(result),
    }
    update["planner_output"] = dict(result.get("raw") or {k: v for k, v in result.items() if k != "usage"})
    if result.get("error"):
        update.update(backend_error("planner", result))
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
            "kind": KIND_INVALID_REPLY,
            "message": "the planner proposed no steps and did not declare completion",
        }
        return update
    steps = steps[:MAX_PROPOSED]
    update.update(plan=steps, current_step=steps[0], hints=[], _note="plan: " + " | ".join(steps))
    return update
