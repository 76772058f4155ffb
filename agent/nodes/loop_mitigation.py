"""loop_mitigation: when the agent repeats itself or the page stops changing, escalate before giving up.

Each trigger spends one unit of ``max_auto_scrolls``: a paged scan (scroll one page further, re-observe with
the goal boosting the element ranking) when there is more page below, else a conservative pass (re-observe,
avoid the element that keeps failing, tell the planner). With the budget spent, the run ends ``loop_stuck``.
"""

from __future__ import annotations

from typing import Any

from agent.browser.actions import execute_action
from agent.context import Context
from agent.dom.observe import observe as observe_session
from agent.nodes.base import graph_node, observe_options, terminal, with_hint
from agent.runtime import ensure_session
from agent.state import TRIGGER_REPEAT, TRIGGER_STAGNATION, TRIGGER_WORLD_FROZEN, AgentState
from agent.terminals import REPEATED_ACTION, WORLD_FROZEN

_REASON_BY_TRIGGER = {
    TRIGGER_REPEAT: REPEATED_ACTION,
    TRIGGER_STAGNATION: WORLD_FROZEN,
    TRIGGER_WORLD_FROZEN: WORLD_FROZEN,
}


@graph_node("loop_mitigation")
async def loop_mitigation(state: AgentState, ctx: Context) -> dict[str, Any]:
    trigger = state.get("loop_trigger")
    if not trigger or state.get("terminal_type"):
        return {}
    used = int(state.get("auto_scrolls_used", 0))
    if used >= ctx.max_auto_scrolls:
        return terminal(
            _REASON_BY_TRIGGER.get(trigger, WORLD_FROZEN),
            f"loop detected ({trigger}) and mitigation budget spent ({used} of {ctx.max_auto_scrolls})",
        )
    avoid = list(state.get("avoid_elements") or [])
    last_action = state.get("proposed_action") or {}
    if last_action.get("element_id") is not None and last_action["element_id"] not in avoid:
        avoid.append(last_action["element_id"])
    observation = state.get("observation") or {}
    below = float((observation.get("scroll") or {}).get("below_px", 0))
    update: dict[str, Any] = {
        "auto_scrolls_used": used + 1,
        "avoid_elements": avoid,
        "plan": [],
        "current_step": None,
        "repeat_count": 0,
        "stagnation_count": 0,
        "no_progress_steps": 0,
        "loop_trigger": None,
        "world_frozen": False,
    }
    hint = (
        f"Loop detected ({trigger}): the last actions did not change the page. Do not repeat them; "
        "try a different element, another route to the goal, or finish if the goal is already met."
    )
    if below > 0:
        session = await ensure_session(state, ctx)
        result = await execute_action(
            session, {"action": "scroll", "element_id": None, "args": {"direction": "down", "amount": "page"}}
        )
        obs = await observe_session(
            session, goal=state.get("goal", ""), previous=observation, options=observe_options(ctx)
        )
        update.update(
            observation=dict(obs),
            url=obs.get("url", ""),
            title=obs.get("title", ""),
            mapping_hash=obs.get("mapping_hash", ""),
            candidate_hash=obs.get("candidate_hash", ""),
            dom_hash=obs.get("dom_hash", ""),
            page_type=obs.get("page_type", "other"),
            listing_detected=obs.get("page_type") == "listing",
            _result=result,
            _note=f"paged scan {used + 1}/{ctx.max_auto_scrolls} after {trigger}",
        )
        hint += " The page was scrolled one screen further down to show more of it."
    else:
        update["_note"] = f"conservative pass {used + 1}/{ctx.max_auto_scrolls} after {trigger}"
    update["hints"] = with_hint(state, hint)
    return update
