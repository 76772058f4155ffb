"""progress: score the run's progress and keep the loop counters after each action.

``repeat_count`` counts the same action on the same element and URL in a row; the score and evidence
(goal words in the URL/title/page, successful targets) are what reports and the planner's hints show.
"""

from __future__ import annotations

from typing import Any

from agent.context import Context
from agent.evidence import action_signature, progress_score
from agent.nodes.base import emit, graph_node
from agent.state import AgentState


@graph_node("progress")
async def progress(state: AgentState, ctx: Context) -> dict[str, Any]:
    action = (
        state.get("proposed_action")
        if (state.get("last_result") or {}).get("action") != "translate"
        else None
    )
    signature = action_signature(action, state.get("url", "")) if action else ""
    repeat = int(state.get("repeat_count", 0))
    if signature:
        repeat = repeat + 1 if signature == state.get("last_signature") else 0
    score, evidence = progress_score(
        state.get("goal", ""), state.get("observation"), state.get("history") or []
    )
    last = (state.get("history") or [{}])[-1]
    emit(
        {
            "event": "step",
            "step": int(state.get("steps", 0)),
            "stage": state.get("stage"),
            "action": last.get("action"),
            "target": last.get("target"),
            "status": last.get("status"),
            "message": last.get("message"),
            "effect": (last.get("effect") or {}).get("summary"),
            "url": last.get("url") or state.get("url", ""),
            "usage": state.get("usage") or {},
        }
    )
    return {
        "repeat_count": repeat,
        "last_signature": signature or state.get("last_signature", ""),
        "progress_score": score,
        "evidence": evidence,
        "proposed_action": None,
        "_note": f"score {score} repeat {repeat}",
    }
