"""safety: judge the proposed action's risk in code before anything touches the page.

Blocked actions (refused navigation, a secret outside its domains) never run (recorded as a failed step); high-risk actions go to ``confirm`` unless the
confirm policy says otherwise; low-risk actions go straight to ``execute``.
"""

from __future__ import annotations

from typing import Any

from agent.context import Context
from agent.nodes.base import failed_step, graph_node
from agent.safety import analyze_action
from agent.state import AgentState
from agent.types import ERROR_NAVIGATION_BLOCKED


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
        secrets=ctx.secret_store(),
        start_url=state.get("start_url") or ctx.start_url or "",
        tools=list(state.get("mcp_tools") or []),
    )
    update: dict[str, Any] = {
        "action_risk": verdict["risk"],
        "risk_reasons": verdict["reasons"],
        "confirmation": None,
    }
    if verdict["risk"] == "blocked":
        message = "; ".join(verdict["reasons"])
        update.update(
            failed_step(
                state,
                action,
                error_type=ERROR_NAVIGATION_BLOCKED,
                message=message,
                hint=f"Blocked by policy: {message}",
            )
        )
    update["_note"] = f"risk {verdict['risk']}" + (
        f": {'; '.join(verdict['reasons'])}" if verdict["reasons"] else ""
    )
    return update
