"""translate: the executor prompt turns the current plan step into exactly one concrete action.

The action targets an element id from the current observation. Grounding failures (no such element, an
ambiguous step) are recorded as failed steps and the planner is consulted again; malformed or disallowed
actions and model errors go to ``error_retry``.
"""

from __future__ import annotations

import asyncio
from typing import Any

from agent import runtime
from agent.context import Context
from agent.nodes.base import describe_element, graph_node
from agent.nodes.planner import plan_timeout, usage_update
from agent.planning.base import TranslateRequest
from agent.stages import allowed_actions
from agent.state import AgentState
from agent.types import ALL_ACTIONS, ELEMENT_ACTIONS, REQUIRED_ARGS


def validate_action(action: Any, observation: dict[str, Any], allowed: list[str]) -> str | None:
    """Why ``action`` cannot run here, or None. Checked in code whatever the backend said."""
    if not isinstance(action, dict):
        return "the action is not an object"
    name = action.get("action")
    if name not in ALL_ACTIONS:
        return f"unknown action {name!r}"
    if name not in allowed:
        return f"action {name!r} is not allowed at this stage"
    args = action.get("args")
    if args is not None and not isinstance(args, dict):
        return "the action's args must be an object"
    args = args or {}
    element_id = action.get("element_id")
    if name in ELEMENT_ACTIONS:
        if not isinstance(element_id, int) or isinstance(element_id, bool):
            return f"{name} needs the id of an observed element"
        if element_id not in {e.get("id") for e in observation.get("elements", [])}:
            return f"element {element_id} is not in the current observation"
    key = REQUIRED_ARGS.get(name)
    if key and not str(args.get(key, "")).strip() and not (name == "type" and args.get(key) == ""):
        return f"{name} needs args.{key}"
    return None


def failure_item(state: AgentState, step: str | None, result: dict[str, Any]) -> dict[str, Any]:
    return {
        "step": int(state.get("steps", 0)),
        "plan_step": step,
        "action": "translate",
        "element_id": None,
        "target": "",
        "args": {},
        "status": "failure",
        "error_type": result.get("error_type") or "element_not_found",
        "message": result.get("message") or "the step could not be grounded in the page",
        "url": state.get("url", ""),
    }


@graph_node("translate")
async def translate(state: AgentState, ctx: Context) -> dict[str, Any]:
    plan = list(state.get("plan") or [])
    if not plan:
        return {
            "pending_error": {
                "source": "translate",
                "kind": "invalid_action",
                "message": "no plan step to translate",
            }
        }
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
    }
    try:
        result = await asyncio.wait_for(
            runtime.backend_for(ctx).translate(request), timeout=plan_timeout(ctx)
        )
    except TimeoutError:
        result = {
            "error": f"translator did not answer within {plan_timeout(ctx):.0f}s",
            "error_kind": "timeout",
        }
    update: dict[str, Any] = {"current_step": step, **usage_update(state, "translate", result.get("usage"))}
    if result.get("error"):
        update["pending_error"] = {
            "source": "translate",
            "kind": result.get("error_kind") or "model_error",
            "message": result["error"],
            "retryable": result.get("error_retryable", True),
        }
        update["_note"] = f"translate error: {result['error']}"
        return update
    action = result.get("action")
    if result.get("status") == "failure" or action is None:
        item = failure_item(state, step, result)
        update.update(
            history=[item],
            errors=int(state.get("errors", 0)) + 1,
            plan=[],
            last_result={
                "action": "translate",
                "args": {},
                "element_id": None,
                "status": "failure",
                "error_type": item["error_type"],
                "message": item["message"],
                "execution_time_ms": 0,
                "events": [],
            },
            hints=[*(state.get("hints") or []), f"Could not carry out step {step!r}: {item['message']}"][-6:],
            proposed_action=None,
            _note=f"not grounded ({item['error_type']}): {item['message']}",
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
        update["pending_error"] = {"source": "translate", "kind": "invalid_action", "message": problem}
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
