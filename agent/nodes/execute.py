"""execute: run the approved action in the browser, with the fallbacks of the browser layer.

Updates the step history, visited URLs, per-element failure counts (an element failing twice is avoided),
and the plan queue: a successful step is completed; the rest of the queue is dropped when the URL or tab
changed or the step failed, because queued steps were planned against a page that is gone.

A run resumed after a crash never repeats a side effect: if the trace already holds this node's record, the
recorded result is reused instead of acting again. Before acting, the action is noted durably in
``inflight.json``; when a resumed run finds that note but no record, the process died while the action ran.
A high-risk (confirmed) action is then not run a second time unless a person says so: its outcome is unknown,
so with someone to ask (interactive, ``confirm_policy=ask``) the run asks whether to run it again, and
otherwise (or when denied) the step is recorded as a failure, the agent observes the page again and any retry
goes through ``confirm`` again. Other actions (typing, scrolling, plain clicks) are simply run again.

A clean stop (Ctrl-C, SIGTERM, a cancelled task) does not cut an action short: it finishes (within its own
budget), its result is noted in ``inflight.json`` as completed, and then the stop goes on; the resumed run
replays that result like a recorded one instead of acting again. Both guards look only at the records of
this run in its own run directory (an in-flight note of another run or directory is ignored).

After each action the browser's storage state (cookies, localStorage, the active tab's sessionStorage) is
saved in the run directory, and a typed or chosen value is recorded with how to find its field again
(``field`` in the history item): a resumed run's new browser gets both back (see :mod:`agent.runtime`).
"""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

from langgraph.types import interrupt

from agent.browser.actions import execute_action
from agent.browser.effects import read_before, read_effect
from agent.browser.refill import field_label, refill_fields
from agent.context import Context
from agent.nodes.approval import decide
from agent.nodes.base import failed_result, graph_node, history_item, parse_decision, with_hint
from agent.nodes.tool_calls import tool_step, with_extracted
from agent.records import BROWSER_STATE_NAME, read_inflight, recorder_for, write_inflight
from agent.runtime import document_of, ensure_session
from agent.safety import frame_url, secret_problem
from agent.state import AgentState
from agent.types import ERROR_NAVIGATION_BLOCKED
from agent.util.cancel import run_through_cancel
from agent.util.elements import describe_element, element_by_id
from agent.util.secrets import Secrets, revealed_fields

AVOID_AFTER_FAILURES = 2
#: Actions that leave a value in a form field (what a resumed run types again if it was not sent).
FIELD_ACTIONS = ("type", "select_option")


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
    same_run = record is not None and record.get("run_id") in (None, run_id)
    if record and same_run and record.get("node") == "execute" and record.get("result"):
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
    if inflight.get("run_id") not in (None, state.get("run_id")):
        return {}  # another run's note (a copied directory): not this step's
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
            run_id=state.get("run_id"),
        )


def field_identity(
    observation: dict[str, Any], action: dict[str, Any], result: dict[str, Any]
) -> dict[str, Any] | None:
    """How to find the field of a typing / choosing action in a new copy of the page, with the value it
    holds afterwards (what the page read back when the typing added to earlier text)."""
    if action.get("action") not in FIELD_ACTIONS or result.get("status") != "success":
        return None
    element = element_by_id(observation, action.get("element_id")) or {}
    attrs = element.get("attrs") or {}
    args = action.get("args") or {}
    value = args.get("option", args.get("text"))
    held = ((result.get("effect") or {}).get("target") or {}).get("value")
    if (args.get("clear") is False or args.get("replace")) and isinstance(held, str):
        value = held
    field = {
        "action": action.get("action"),
        "value": "" if value is None else str(value),
        "tag": element.get("tag", ""),
        "name_attr": attrs.get("name", ""),
        "id_attr": attrs.get("id", ""),
        "label": element.get("name", ""),
        "placeholder": element.get("placeholder", ""),
        "frame": element.get("frame", ""),
    }
    return field if any(field[k] for k in ("name_attr", "id_attr", "label", "placeholder")) else None


async def restore_replayed_step(
    state: AgentState, ctx: Context, action: dict[str, Any], result: dict[str, Any]
) -> list[str]:
    """A replayed step's effect on the browser happened in the old browser only. Bring the resumed run's
    browser to the same point without acting again: reopen the page the step left (when it moved), put a
    typed value back into its field. Returns what could not be restored."""
    field = field_identity(state.get("observation") or {}, action, result)
    left_at = str(result.get("url_after") or "")
    moved = left_at not in ("", "about:blank") and document_of(left_at) != document_of(state.get("url", ""))
    if field is None and not moved:
        return []
    session = await ensure_session(state, ctx)
    if moved and document_of(session.page.url) != document_of(left_at):
        await execute_action(session, {"action": "navigate", "element_id": None, "args": {"url": left_at}})
        session.drain_events()
        if document_of(session.page.url) != document_of(left_at):
            return [f"the page {left_at} (reopened, it went to {session.page.url})"]
    if field is None:
        return []
    if document_of(session.page.url) != document_of(left_at):
        return [f"the value typed into {field_label(field)} (the page is {session.page.url} now)"]
    ready, refused = revealed_fields(ctx.secret_store(), [field], session.page.url)
    return [f"the value typed into {field_label(f)}" for f in refused] + await refill_fields(
        session.page, ready
    )


async def save_browser_state(session: Any, state: AgentState) -> None:
    """Keep the browser's cookies and storage with the run, so a resumed run starts from them (not for a
    browser attached over CDP: that one is the user's, keeps its own state, and its cookies stay out of the
    run directory)."""
    if state.get("run_dir") and not session.attached:
        await session.save_storage_state(Path(state["run_dir"]) / BROWSER_STATE_NAME)


def _plain(action: dict[str, Any]) -> dict[str, Any]:
    return {
        "action": action.get("action"),
        "element_id": action.get("element_id"),
        "args": action.get("args") or {},
    }


def with_secret_values(
    action: dict[str, Any], observation: dict[str, Any], secrets: Secrets
) -> tuple[dict[str, Any], str | None]:
    """(the action the browser runs: ``<secret:NAME>`` placeholders in a ``type`` text replaced by their values,
    why it may not run). Checked again here, at typing time, against the document the field is in."""
    problem = secret_problem(action, observation, secrets)
    if problem or action.get("action") != "type" or not secrets:
        return action, problem
    element = element_by_id(observation, action.get("element_id"))
    text, _, _ = secrets.substitute(
        str((action.get("args") or {}).get("text", "")), frame_url(observation, element)
    )
    return {**action, "args": {**(action.get("args") or {}), "text": text}}, None


async def act(
    session: Any, action: dict[str, Any], observation: dict[str, Any], ctx: Context
) -> dict[str, Any]:
    """Run the action in the browser within :func:`action_budget`, with its observed effect; running out is
    a failed result. Secret values exist only in the action handed to the browser: the result and its effect
    are masked before anything keeps them."""
    secrets = ctx.secret_store()
    typed, problem = with_secret_values(action, observation, secrets)
    if problem:
        return failed_result(action, ERROR_NAVIGATION_BLOCKED, f"refused: {problem}")
    before = await read_before(session, action.get("element_id"))
    mark = session.event_mark()
    try:
        result = await asyncio.wait_for(
            execute_action(session, typed, observation=observation), timeout=action_budget(ctx)
        )
        result = refused_navigation(result, session.blocked_since(mark))
        effect = await read_effect(session, before, result, action.get("element_id"))
        if typed is not action:
            await session.mark_secret_field(action.get("element_id"))
            if isinstance(effect.get("target"), dict):  # what the judge compares a hidden field's length with
                effect["target"]["typed_len"] = len(str(typed["args"].get("text", "")))
        return secrets.mask_data({**result, "effect": effect})
    except TimeoutError:
        return failed_result(
            action,
            "timeout",
            f"action did not finish within {action_budget(ctx):.0f}s",
            execution_time_ms=int(action_budget(ctx) * 1000),
        )


def repeat_approved(state: AgentState, ctx: Context, action: dict[str, Any]) -> bool:
    """Whether a person approves running again a high-risk action the run was cut off in (its outcome is
    unknown). Asked through ``interrupt`` like ``confirm`` when someone can answer; never repeated otherwise,
    not even under ``confirm_policy=auto`` (an earlier approval did not foresee doing it twice)."""
    if not ctx.interactive or ctx.confirm_policy != "ask":
        return False
    target = describe_element(state.get("observation"), action.get("element_id"))
    reason = "the run stopped while it was running, so it may already have happened (check the site first)"
    answer = interrupt(
        {
            "type": "confirm",
            "question": f"Run {action.get('action')} {target} again? ({reason})",
            "action": action,
            "target": target,
            "reasons": [reason],
            "url": state.get("url", ""),
            "choices": ["approve", "deny"],
        }
    )
    return parse_decision(answer)[0] == "approved"


def unknown_outcome(action: dict[str, Any]) -> dict[str, Any]:
    return failed_result(
        action,
        "unknown",
        "the run stopped while this approved action was running; its outcome is unknown, so it "
        "was not repeated (look at the page before trying again)",
    )


def refused_navigation(result: dict[str, Any], blocked: list[dict[str, Any]]) -> dict[str, Any]:
    """A click (or key press) whose page load the domain guard refused did not do what it was meant to: a
    failure with ``navigation_blocked``, so the planner learns why instead of seeing a silent success.

    Only when the tab went nowhere else (a page that did open may merely embed a refused frame)."""
    stayed = result.get("url_after") in (result.get("url_before"), "about:blank")
    blocked = [entry for entry in blocked if entry.get("main_frame")]  # a frame or a resource: not the page
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
    approval: dict[str, Any] = {}
    if state.get("action_risk") == "high" and not state.get("confirmation"):
        # A fork reached a risky action approved only in the run it was forked from: ask again in this run.
        approval = decide(state, ctx)
        if approval.get("confirmation") not in ("approved", "edited", "auto"):
            return approval  # denied: the run ends, or the refusal is a failed step to re-plan from
        state = {**state, **approval}  # type: ignore[assignment]
    action = state.get("proposed_action") or {}
    observation = state.get("observation") or {}
    replayed = await asyncio.to_thread(recorded_result, state)  # reads the trace: off the event loop
    lost: list[str] = []
    if replayed is not None:
        result = replayed
        note = "result replayed from the run's records (not executed twice after a resume)"
        lost = await restore_replayed_step(state, ctx, action, result)
    elif await asyncio.to_thread(interrupted_risky_action, state) and not repeat_approved(state, ctx, action):
        result = unknown_outcome(action)
        note = "not repeated after a resume: the process stopped while this high-risk action was running"
    else:
        session = await ensure_session(state, ctx)
        await asyncio.to_thread(note_inflight, state, action)  # file I/O off the event loop
        work = tool_step(state, ctx, session, action, observation) or act(session, action, observation, ctx)
        result, stop = await run_through_cancel(work)
        if stop is not None:  # stopped while acting: keep the outcome for the resume, then stop
            if session.is_alive:  # (a browser closed under it leaves the outcome unknown: note kept as is)
                await run_through_cancel(asyncio.to_thread(note_inflight, state, action, result))
                await run_through_cancel(save_browser_state(session, state))
            raise stop
        await save_browser_state(session, state)
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
    with_extracted(item, result)
    field = field_identity(observation, action, result)
    if field is not None:
        item["field"] = field
    update: dict[str, Any] = {
        **({"resume_lost": [*(state.get("resume_lost") or []), *lost]} if lost else {}),
        **{k: v for k, v in approval.items() if not k.startswith("_")},
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
