"""safety: judge the proposed action's risk in code before anything touches the page.

Blocked navigation never runs (recorded as a failed step); high-risk actions go to ``confirm`` unless the
confirm policy says otherwise; low-risk actions go straight to ``execute``.
"""

from __future__ import annotations

from typing import Any

from agent.context import Context
from agent.nodes.base import graph_node, history_item
from agent.safety import analyze_action
from agent.state import AgentState


@graph_node("safety")
async def safety(state: AgentState, ctx: Context) -> dict[str, Any]:
    action = state.get("proposed_action") or {}
    observation = state.get("observation") or {}
    verdict = analyze_action(
        action,
        observation,
        goal=state.get("goal", ""),
        allowed_domains=ctx.allowed_domains,
        blocked_domains=ctx.blocked_domains,
    )
    update: dict[str, Any] = {
        "action_risk": verdict["risk"],
        "risk_reasons": verdict["reasons"],
        "confirmation": None,
    }
    if verdict["risk"] == "blocked":
        message = "; ".join(verdict["reasons"])
        update.update(
            history=[
                history_item(
                    state, action, status="failure", error_type="navigation_blocked", message=message
                )
            ],
            errors=int(state.get("errors", 0)) + 1,
            plan=[],
            last_result={
                "action": action.get("action"),
                "args": action.get("args") or {},
                "element_id": action.get("element_id"),
                "status": "failure",
                "error_type": "navigation_blocked",
                "message": message,
                "execution_time_ms": 0,
                "events": [],
            },
            hints=[*(state.get("hints") or []), f"Blocked by policy: {message}"][-6:],
        )
    update["_note"] = f"risk {verdict['risk']}" + (
        f": {'; '.join(verdict['reasons'])}" if verdict["reasons"] else ""
    )
    return update
