"""Asking a person to approve, deny or edit a risky action: the ``confirm`` node's decision, shared with
``execute``, which asks again when a fork reaches a risky action approved only in the run it was forked from.

Uses LangGraph ``interrupt()`` (the run pauses, is checkpointed, and resumes with ``Command(resume=...)``).
The policy decides without asking when it can: ``auto`` approves, ``deny`` denies, and with prompts off (no
person to ask) the action is denied. A denied action never runs: the run ends ``goal_failed/user_declined``,
or with ``on_denied: replan`` the refusal is a failed step and the planner is asked for another way.
"""

from __future__ import annotations

from typing import Any

from langgraph.types import interrupt

from agent.context import Context
from agent.nodes.base import (
    failed_step,
    history_item,
    parse_decision,
    terminal,
    validate_action,
)
from agent.stages import allowed_actions
from agent.state import AgentState
from agent.terminals import USER_DECLINED
from agent.util.elements import describe_element


def decide(state: AgentState, ctx: Context) -> dict[str, Any]:
    """The update of a decision on the proposed action: ``confirmation`` approved / auto / edited (with the
    edited action), a ``user_declined`` terminal, or a refused step. May pause the run at an interrupt."""
    action = state.get("proposed_action") or {}
    reasons = state.get("risk_reasons") or []
    if ctx.confirm_policy == "auto":
        return {"confirmation": "auto", "_note": "approved by confirm_policy=auto"}
    if ctx.confirm_policy == "deny" or not ctx.interactive:
        decision, edited = "denied", None
        why = (
            "by confirm_policy=deny"
            if ctx.confirm_policy == "deny"
            else "because there is no one to ask (interactive prompts are off)"
        )
    else:
        target = describe_element(state.get("observation"), action.get("element_id"))
        answer = interrupt(
            {
                "type": "confirm",
                "question": f"Allow {action.get('action')} {target}? ({'; '.join(reasons)})",
                "action": action,
                "target": target,
                "reasons": reasons,
                "url": state.get("url", ""),
                "choices": ["approve", "deny", "edit"],
            }
        )
        decision, edited = parse_decision(answer)
        why = "by the user"
        if isinstance(answer, dict) and answer.get("reason"):
            why = str(answer["reason"])[:200]  # e.g. a resumed run with no one to ask
    if decision == "approved":
        return {"confirmation": "approved", "_note": f"approved {why}"}
    if decision == "edited" and edited is not None:
        merged = {
            "action": edited.get("action", action.get("action")),
            "element_id": edited.get("element_id", action.get("element_id")),
            "args": dict(edited.get("args") or action.get("args") or {}),
            "reasoning": "edited by the user",
        }
        problem = validate_action(merged, state.get("observation") or {}, allowed_actions(state.get("stage")))
        if problem is None:
            return {
                "confirmation": "edited",
                "proposed_action": merged,
                "_action": merged,
                "_note": "edited by the user",
            }
        decision, why = "denied", f"(the edited action is invalid: {problem})"
    item = history_item(state, action, status="denied", message=f"risky action denied {why}")
    if ctx.on_denied == "replan":
        return {
            **failed_step(
                state,
                action,
                error_type="unknown",
                message=f"risky action denied {why}; it was not run",
                hint=f"The user denied {action.get('action')} {item['target']}: find another way or stop.",
            ),
            "confirmation": "denied",
            "_note": f"denied {why}; replanning (on_denied=replan)",
        }
    return terminal(
        USER_DECLINED,
        f"{action.get('action')} {item['target']} was denied {why}",
        confirmation="denied",
        history=[item],
        _note=f"denied {why}",
    )
