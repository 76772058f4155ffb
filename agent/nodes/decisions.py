"""What a node decided, in brief: the ``decision`` key every node step writes, so the ``updates`` stream (Studio,
``astream(stream_mode="updates")``) can be followed without reading the full state.

observe: URL, title, counts; planner: the plan (or its claim); translate: the action; safety: risk and reasons;
confirm: the decision; execute: the action and its effect; goal_check: the parts met; progress: the score;
loop_mitigation, error_retry, ask_user: what they did; every node: the terminal when it ended the run.
Values typed into password fields are masked.
"""

from __future__ import annotations

from typing import Any

from agent.util.elements import describe_element, element_by_id

MASK = "********"


def _action(action: dict[str, Any] | None, observation: dict[str, Any] | None) -> dict[str, Any] | None:
    if not action:
        return None
    args = dict(action.get("args") or {})
    element = element_by_id(observation, action.get("element_id"))
    if element is not None and element.get("input_type") == "password" and "text" in args:
        args["text"] = MASK
    return {
        "action": action.get("action"),
        "element_id": action.get("element_id"),
        "target": describe_element(observation, action.get("element_id")),
        "args": args,
    }


def _parts_met(state: dict[str, Any]) -> dict[str, Any]:
    parts = state.get("goal_parts") or []
    proven = {str(e.get("part")) for e in state.get("goal_evidence") or []}
    return {"parts": len(parts), "met": len(proven), "missing": list(state.get("missing") or [])}


def decision_of(name: str, state: dict[str, Any], note: str) -> dict[str, Any]:
    """The brief of node ``name``'s step; ``state`` is the state with the step's update applied."""
    observation = state.get("observation") or {}
    out: dict[str, Any] = {"node": name}
    if name in ("start", "observe"):
        out.update(
            url=state.get("url", ""),
            title=state.get("title", ""),
            elements=observation.get("elements_count", len(observation.get("elements") or [])),
            chars=observation.get("chars", 0),
            page_type=state.get("page_type"),
            tabs=len(state.get("tabs") or []),
        )
    elif name == "planner":
        out.update(plan=list(state.get("plan") or []), claim=state.get("completion_claim"))
    elif name == "translate":
        out.update(action=_action(state.get("proposed_action"), observation))
    elif name == "safety":
        out.update(risk=state.get("action_risk"), reasons=list(state.get("risk_reasons") or []))
    elif name == "confirm":
        out.update(confirmation=state.get("confirmation"))
    elif name == "execute":
        last = state.get("last_result") or {}
        out.update(
            action=_action(state.get("proposed_action"), observation),
            status=last.get("status"),
            effect=(last.get("effect") or {}).get("summary"),
        )
    elif name == "goal_check":
        out.update(stage=state.get("stage"), **_parts_met(state))
    elif name == "progress":
        out.update(score=state.get("progress_score"), repeat_count=state.get("repeat_count"))
    elif name == "loop_mitigation":
        out.update(trigger=state.get("loop_trigger"))
    if name not in ("start", "observe", "execute"):
        out["did"] = note[:300]
    if state.get("terminal_type"):
        out.update(terminal_type=state.get("terminal_type"), terminal_reason=state.get("terminal_reason"))
    return out
