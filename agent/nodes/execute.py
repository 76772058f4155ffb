"""execute: run the approved action in the browser, with the fallbacks of the browser layer.

Updates the step history, visited URLs, per-element failure counts (an element failing twice is avoided),
and the plan queue: a successful step is completed; the rest of the queue is dropped when the URL or tab
changed or the step failed, because queued steps were planned against a page that is gone.

A run resumed after a crash never repeats a side effect: if the trace already holds this node's record, the
recorded result is reused instead of acting again. Before acting, the action is noted durably in
``inflight.json``; when a resumed run finds that note but no record, the process died while the action ran.
A high-risk (confirmed) action is then not run a second time: its outcome is unknown, so the step is recorded
as a failure, the agent observes the page again and any retry goes through ``confirm`` again. Other actions
(typing, scrolling, plain clicks) are simply run again.

A clean stop (Ctrl-C, SIGTERM, a cancelled task) does not cut an action short: it finishes (within its own
budget), its result is noted in ``inflight.json`` as completed, and then the stop goes on; the resumed run
replays that result like a recorded one instead of acting again.
"""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

from agent.browser.actions import execute_action
from agent.browser.effects import read_before, read_effect
from agent.context import Context
from agent.nodes.base import failed_result, graph_node, history_item, with_hint
from agent.records import read_inflight, recorder_for, write_inflight
from agent.runtime import ensure_session
from agent.state import AgentState
from agent.types import ERROR_NAVIGATION_BLOCKED
from agent.util.cancel import run_through_cancel
from agent.util.elements import describe_element

AVOID_AFTER_FAILURES = 2


def action_budget(ctx: Context) -> float:
    """Hard ceiling for one action: its own timeouts plus headroom; the browser layer should never need it."""
    return ctx.action_timeout_s + ctx.navigation_timeout_s + 5.0


def recorded_result(state: AgentState) -> dict[str, Any] | None:
    """The result this very step produced before the run stopped: its trace record (a crash after acting)
    or its in-flight note marked completed (a stop while acting)."""
    run_id, run_dir = state.get("run_id"), state.get("run_dir")
    if not run_id or not run_dir:
        return None
    record = recorder_for(run_id, Path(run_dir)).record(int(state.get("seq", 0)) + 1)
    if record and record.get("node") == "execute" and record.get("result"):
        return record["result"]
    inflight = this_steps_inflight(state)
    if inflight.get("completed") and isinstance(inflight.get("result"), dict):
        return inflight["result"]
    return None


def this_steps_inflight(state: AgentState) -> dict[str, Any]:
    """The in-flight note when it is about this very step and action, else {}."""
    run_dir = state.get("run_dir")
    if not run_dir:
        return {}
    inflight = read_inflight(Path(run_dir))
    same_step = inflight.get("seq") == int(state.get("seq", 0)) + 1
    same_action = inflight.get("action") == _plain(state.get("proposed_action") or {})
    return inflight if same_step and same_action else {}


def interrupted_risky_action(state: AgentState) -> bool:
    """True when this very high-risk step was started by a process that died before recording its result."""
    if state.get("action_risk") != "high":
        return False
    inflight = this_steps_inflight(state)
    return bool(inflight) and not inflight.get("completed")


def note_inflight(state: AgentState, action: dict[str, Any], result: dict[str, Any] | None = None) -> None:
    """Note durably that this step's action is about to run, or (with ``result``) that it finished."""
    if state.get("run_dir"):
        write_inflight(
            Path(state["run_dir"]),
            int(state.get("seq", 0)) + 1,
            _plain(action),
            state.get("action_risk"),
            result,
        )


def _plain(action: dict[str, Any]) -> dict[str, Any]:
    return {
        "action": action.get("action"),
        "element_id": action.get("element_id"),
        "args": action.get("args") or {},
    }


async def act(
    session: Any, action: dict[str, Any], observation: dict[str, Any], ctx: Context
) -> dict[str, Any]:
    """Run the action in the browser within :func:`action_budget`, with its observed effect; running out is
    a failed result."""
    before = await read_before(session, action.get("element_id"))
    mark = session.event_mark()
    try:
        result = await asyncio.wait_for(
            execute_action(session, action, observation=observation), timeout=action_budget(ctx)
        )
        result = refused_navigation(result, session.blocked_since(mark))
        return {
            **result,
            "effect": await read_effect(session, before, result, action.get("element_id")),
        }
    except TimeoutError:
        return failed_result(
            action,
            "timeout",
            f"action did not finish within {action_budget(ctx):.0f}s",
            execution_time_ms=int(action_budget(ctx) * 1000),
        )


def unknown_outcome(action: dict[str, Any]) -> dict[str, Any]:
    return failed_result(
        action,
        "unknown",
        "the run stopped while this approved action was running; its outcome is unknown, so it "
        "was not repeated (look at the page before trying again)",
    )


def refused_navigation(result: dict[str, Any], blocked: list[dict[str, str]]) -> dict[str, Any]:
    """A click (or key press) whose page load the domain guard refused did not do what it was meant to: a
    failure with ``navigation_blocked``, so the planner learns why instead of seeing a silent success.

    Only when the tab went nowhere else (a page that did open may merely embed a refused frame)."""
    stayed = result.get("url_after") in (result.get("url_before"), "about:blank")
    if not blocked or result.get("status") != "success" or not stayed:
        return result
    refused = blocked[0]
    return {
        **result,
        "status": "failure",
        "error_type": ERROR_NAVIGATION_BLOCKED,
        "message": f"{result.get('message', '')}; the page it tried to open was refused: blocked "
        f"{refused.get('url')}: {refused.get('reason')}".lstrip("; "),
    }


def queue_after(
    state: AgentState, result: dict[str, Any], url_after: str, tab_changed: bool
) -> dict[str, Any]:
    plan = list(state.get("plan") or [])
    completed = list(state.get("completed_steps") or [])
    step = plan.pop(0) if plan else state.get("current_step")
    if result["status"] == "success" and step:
        completed.append(step)
    page_moved = url_after.split("#", 1)[0] != (state.get("url") or "").split("#", 1)[0]
    if result["status"] != "success" or page_moved or tab_changed:
        plan = []
    return {"plan": plan, "completed_steps": completed, "current_step": plan[0] if plan else None}


@graph_node("execute")
async def execute(state: AgentState, ctx: Context) -> dict[str, Any]:
    action = state.get("proposed_action") or {}
    observation = state.get("observation") or {}
    replayed = await asyncio.to_thread(recorded_result, state)  # reads the trace: off the event loop
    if replayed is not None:
        result = replayed
        note = "result replayed from the run's records (not executed twice after a resume)"
    elif await asyncio.to_thread(interrupted_risky_action, state):
        result = unknown_outcome(action)
        note = "not repeated after a resume: the process stopped while this high-risk action was running"
    else:
        session = await ensure_session(state, ctx)
        await asyncio.to_thread(note_inflight, state, action)  # file I/O off the event loop
        result, stop = await run_through_cancel(act(session, action, observation, ctx))
        if stop is not None:  # stopped while acting: keep the outcome for the resume, then stop
            if session.is_alive:  # (a browser closed under it leaves the outcome unknown: note kept as is)
                await run_through_cancel(asyncio.to_thread(note_inflight, state, action, result))
            raise stop
        note = ""
    events = result.get("events") or []
    url_after = result.get("url_after") or state.get("url", "")
    tab_changed = (
        any(e.get("type") in ("tab_opened", "tab_closed") for e in events)
        or action.get("action") == "switch_tab"
    )
    element_id = action.get("element_id")
    target = describe_element(observation, element_id)
    item = history_item(
        state,
        action,
        status=result["status"],
        error_type=result.get("error_type", "none"),
        message=result.get("message", ""),
        url=url_after,
        step=int(state.get("steps", 0)) + 1,
        fallback=result.get("fallback"),
        events=[e.get("type") for e in events],
        effect=result.get("effect"),
    )
    update: dict[str, Any] = {
        "steps": int(state.get("steps", 0)) + 1,
        "last_result": result,
        "history": [item],
        **queue_after(state, result, url_after, tab_changed),
        "_action": action,
        "_result": result,
        "_plan_step": state.get("current_step"),  # the record names the step done, not the next one
        "_note": note
        or f"{action.get('action')} {target}: {result['status']} {result.get('message', '')}".strip()
        + (f" [effect: {result['effect']['summary']}]" if result.get("effect") else ""),
    }
    attempts = dict(state.get("element_attempts") or {})
    avoid = list(state.get("avoid_elements") or [])
    if result["status"] != "success":
        update["errors"] = int(state.get("errors", 0)) + 1
        if element_id is not None:
            key = f"{(state.get('url') or '').split('#', 1)[0]}#{element_id}"
            attempts[key] = attempts.get(key, 0) + 1
            if attempts[key] >= AVOID_AFTER_FAILURES and element_id not in avoid:
                avoid.append(element_id)
        update["hints"] = with_hint(
            state, f"Step failed: {action.get('action')} {target}: {result.get('message', '')}"
        )
    else:
        update["retry_used"] = False
    update["element_attempts"] = attempts
    update["avoid_elements"] = avoid
    return update
