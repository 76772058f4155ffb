"""translate: the executor prompt turns the current plan step into exactly one concrete action.

The action targets an element id from the current observation. Grounding failures (no such element, an
ambiguous step) are recorded as failed steps and the planner is consulted again; malformed or disallowed
actions and model errors go to ``error_retry``.
"""

from __future__ import annotations

from typing import Any

from agent.context import Context
from agent.nodes.base import (
    backend_error,
    backend_remark,
    failed_step,
    graph_node,
    terminal,
    usage_update,
    validate_action,
)
from agent.runtime import runtime_for
from agent.stages import allowed_actions
from agent.state import AgentState
from agent.terminals import MAX_MODEL_CALLS
from agent.types import KIND_INVALID_ACTION, TranslateRequest
from agent.util.elements import describe_element


@graph_node("translate")
async def translate(state: AgentState, ctx: Context) -> dict[str, Any]:
    plan = list(state.get("plan") or [])
    if not plan:
        return {
            "pending_error": {
                "source": "translate",
                "kind": KIND_INVALID_ACTION,
                "message": "no plan step to translate",
            }
        }
    calls = int((state.get("usage") or {}).get("calls", 0))
    if ctx.uses_model and 0 < ctx.max_model_calls <= calls:  # the executor's request would pass the budget
        return terminal(MAX_MODEL_CALLS, f"model call budget of {ctx.max_model_calls} used")
    step = plan[0]
    observation = state.get("observation") or {}
    allowed = allowed_actions(state.get("stage"), interactive=ctx.interactive)
    request: TranslateRequest = {
        "goal": state.get("goal", ""),
        "plan_step": step,
        "observation": observation,
        "allowed_actions": allowed,
        "avoid_elements": list(state.get("avoid_elements") or []),
        "stage": state.get("stage", "orient"),
        "history": (state.get("history") or [])[-10:],
        "tools": list(state.get("mcp_tools") or []),
    }
    result = await (await runtime_for(state, ctx)).translate(request)
    update: dict[str, Any] = {
        "current_step": step,
        **usage_update(state, "translate", result.get("usage")),
        **backend_remark(result),
    }
    if result.get("error"):
        update.update(backend_error("translate", result))
        return update
    action = result.get("action")
    if result.get("status") == "failure" or action is None:
        error_type = result.get("error_type") or "element_not_found"
        message = result.get("message") or "the step could not be grounded in the page"
        update.update(
            failed_step(
                state,
                {"action": "translate", "element_id": None, "args": {}},
                error_type=error_type,
                message=message,
                hint=f"Could not carry out step {step!r}: {message}",
                plan_step=step,
            ),
            proposed_action=None,
            _note=f"not grounded ({error_type}): {message}",
        )
        return update
    if (
        isinstance(action, dict)
        and action.get("action") == "ask_user"
        and not ctx.interactive
        and "ask_user" in allowed_actions(state.get("stage"), interactive=True)
    ):
        # A question with no one to ask: the ask_user node ends the run and its stop_reason says what was asked.
        allowed = [*allowed, "ask_user"]
    problem = validate_action(action, observation, allowed)
    if problem:
        update["pending_error"] = {"source": "translate", "kind": KIND_INVALID_ACTION, "message": problem}
        update["_action"] = action
        update["_note"] = f"invalid action: {problem}"
        return update
    action = {
        "action": action["action"],
        "element_id": action.get("element_id"),
        "args": dict(action.get("args") or {}),
        "reasoning": action.get("reasoning") or result.get("reasoning") or "",
    }
    update["proposed_action"] = action
    update["_action"] = action
    target = describe_element(observation, action.get("element_id"))
    if action["action"] == "done":
        args = action["args"]
        update["completion_claim"] = {
            "answer": str(args.get("answer") or ""),
            "success": bool(args.get("success", True)),
            "failure_reason": args.get("reason"),
            "source": "translate",
        }
        update["plan"] = []
    update["_note"] = f"{action['action']} {target}".strip()
    return update
