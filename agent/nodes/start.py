"""start: fix the goal's kind and mode, create the run's records, open the browser at the start URL (within
the run's time budget: ``max_seconds`` counts from here, start-page load included)."""

from __future__ import annotations

import asyncio
import contextlib
import json
import time
from pathlib import Path
from typing import Any

from agent.browser.launch import BrowserNotFoundError
from agent.context import Context
from agent.dom.pass_script import register_soon
from agent.goals import goal_kind, task_mode, validate_goal
from agent.nodes.base import graph_node, terminal
from agent.nodes.threads import current_thread_id, run_id_of, settings_snapshot
from agent.planning.warmup import warm_up
from agent.records import new_run_id, until_written, valid_run_id, write_soon
from agent.runtime import apply_network_policy, ensure_session, ensure_tools
from agent.state import HISTORY_RESET, AgentState
from agent.terminals import BROWSER_ERROR, INVALID_GOAL, MAX_SECONDS, NAVIGATION_BLOCKED, TOOL_ERROR
from agent.tools.mcp import McpError
from agent.util.secrets import register_run


def initial_counters() -> dict[str, Any]:
    return {
        "stage": "orient",
        "plan": [],
        "current_step": None,
        "completed_steps": [],
        "visited_urls": [],
        "avoid_elements": [],
        "element_attempts": {},
        "repeat_count": 0,
        "stagnation_count": 0,
        "auto_scrolls_used": 0,
        "no_progress_steps": 0,
        "planner_calls": 0,
        "steps": 0,
        "errors": 0,
        "observations": 0,
        "loop_trigger": None,
        "world_frozen": False,
        "last_signature": "",
        "progress_score": 0.0,
        "evidence": [],
        "hints": [],
        "usage": {"input_tokens": 0, "output_tokens": 0, "total_tokens": 0, "calls": 0, "cost_usd": 0.0},
        "usage_by_node": {},
        "retry_used": False,
        "pending_error": None,
        "completion_claim": None,
        "goal_parts": [],
        "goal_evidence": [],
        "missing": [],
        "candidate_answer": None,
        "proposed_action": None,
        "last_result": None,
        "final_answer": None,
        "terminal_type": None,
        "terminal_reason": None,
        "stop_reason": None,
        "history": [HISTORY_RESET],
        "url": "about:blank",
        "title": "",
    }


def _write_run_meta(run_dir: Path, meta: dict[str, Any]) -> None:
    run_dir.mkdir(parents=True, exist_ok=True)
    (run_dir / "run.json").write_text(json.dumps(meta, indent=2), encoding="utf-8")


@graph_node("start")
async def start(state: AgentState, ctx: Context) -> dict[str, Any]:
    """Validate the goal and set everything the later nodes count on."""
    run_id = run_id_of(state, ctx) or new_run_id()
    if not valid_run_id(run_id):
        run_id = new_run_id()
    run_dir = Path(ctx.record_dir) / run_id
    secrets = ctx.secret_store()
    register_run(run_id, secrets)  # every record of this run is masked (also when embedded, not via runner)
    goal = state.get("goal")
    if isinstance(goal, str):
        goal = secrets.mask(goal)  # the user's goal may hold a secret's value: only its placeholder goes on
    update: dict[str, Any] = {
        **initial_counters(),
        "run_id": run_id,
        "run_dir": str(run_dir),
        "started_at": time.time(),
        "elapsed_before": 0.0,
        "settings": settings_snapshot(ctx),  # a later call with no settings goes on with these
        "thread_id": current_thread_id(),  # a copy of the thread is told apart by its own thread id
    }
    problem = validate_goal(goal)
    start_url = state.get("start_url") or ctx.start_url
    meta = {
        "run_id": run_id,
        "goal": goal if isinstance(goal, str) else repr(goal),
        "start_url": start_url,
        "planner": "openai" if ctx.uses_model else "rules",
        "model": ctx.model,
        "started_at": update["started_at"],
        **({"forked_from": state["forked_from"]} if state.get("forked_from") else {}),
    }
    # In order with the run's other records: in place under the runner, else off the event loop (`langgraph dev`
    # raises BlockingError on blocking calls in async nodes). A thread hop here cost a process's first run ~15 ms.
    await until_written(write_soon(lambda: _write_run_meta(run_dir, meta)))
    if problem:
        update.update(
            terminal(INVALID_GOAL, f"invalid goal: {problem}"),
            goal=str(goal or ""),
            goal_kind="action",
            task_mode="browse",
        )
        return update
    goal = goal.strip()
    update.update(goal=goal, goal_kind=goal_kind(goal), task_mode=task_mode(goal), start_url=start_url)
    state_for_session = {**state, **update}
    try:
        session = await ensure_session(state_for_session, ctx)
        await apply_network_policy(session, ctx, start_url)
    except BrowserNotFoundError as exc:
        update.update(terminal(BROWSER_ERROR, str(exc)))
        return update
    except Exception as exc:  # noqa: BLE001 - launching can fail in many ways; all end the run cleanly
        update.update(terminal(BROWSER_ERROR, f"could not start the browser: {type(exc).__name__}: {exc}"))
        return update
    try:
        tools = await ensure_tools(state_for_session, ctx)
    except McpError as exc:  # a listed server that cannot start ends the run, recorded, with its one line
        update.update(terminal(TOOL_ERROR, str(exc)))
        return update
    update["mcp_tools"] = tools.catalog if tools else []
    if start_url:
        from agent.browser.actions import execute_action
        from agent.browser.urls import check_navigation

        check = check_navigation(
            start_url, allowed_domains=ctx.allowed_domains, blocked_domains=ctx.blocked_domains
        )
        if not check.ok:
            update.update(terminal(NAVIGATION_BLOCKED, f"start URL refused: {check.reason}"))
            return update
        with contextlib.suppress(AttributeError):  # (a stand-in session without a page)
            register_soon(session.page.context)  # the marking pass, installed in the pages the run opens
        # The run's time budget covers the start page too: a page that never loads ends the run on time.
        remaining = ctx.max_seconds - (time.time() - update["started_at"])
        opening = asyncio.ensure_future(
            execute_action(session, {"action": "navigate", "element_id": None, "args": {"url": check.url}})
        )
        try:
            await asyncio.sleep(0)  # the page is asked for before the goal reader's warm-up below starts
            # The goal reader warms up while the start page loads, not sooner: on its thread it holds the
            # interpreter for milliseconds at a time, which the run's set-up and its first request waited for.
            asyncio.get_running_loop().run_in_executor(None, warm_up, goal)
            result = await asyncio.wait_for(opening, timeout=max(0.0, remaining))
        except TimeoutError:
            update.update(
                terminal(
                    MAX_SECONDS,
                    f"time budget of {ctx.max_seconds:g}s used while opening the start URL {start_url}",
                )
            )
            return update
        finally:
            opening.cancel()  # (done by now, unless the run was stopped while it waited)
        update["_result"] = result
        if result["status"] != "success":
            update.update(
                terminal(NAVIGATION_BLOCKED, f"could not open the start URL {start_url}: {result['message']}")
            )
            return update
        update["url"] = session.page.url
        update["visited_urls"] = [session.page.url]
    update["_note"] = f"goal_kind={update['goal_kind']} task_mode={update['task_mode']}"
    return update
