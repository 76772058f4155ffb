"""Running the graph for a goal: checkpointing, interrupts, budgets and records around one run.

Used by the CLI (``run``, ``resume``, ``demo``) and usable from Python::

    result = await run_goal("log in as demo with password wayfinder", Context(start_url=...))

Each run is checkpointed to ``<record_dir>/<run_id>/checkpoints.sqlite`` (thread id = run id), so a run
that was interrupted, stopped or killed can be continued with :func:`resume_run`.
"""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import Awaitable, Callable
from dataclasses import asdict, replace
from pathlib import Path
from typing import Any

from langgraph.checkpoint.sqlite.aio import AsyncSqliteSaver
from langgraph.errors import GraphRecursionError
from langgraph.types import Command

from agent.browser import registry
from agent.config import context_from_any
from agent.context import Context
from agent.graph import build_graph, recursion_limit_for
from agent.nodes.finalize import result_object, write_report_safely
from agent.records import new_run_id, recorder_for, valid_run_id
from agent.terminals import normalize

EventHandler = Callable[[dict[str, Any]], None]
#: Gets the interrupt payload ({"type": "confirm" | "ask_user", ...}); returns the resume value, or None to stop.
InterruptHandler = Callable[[dict[str, Any]], Awaitable[Any] | Any]

#: Seconds the whole run may overrun ``max_seconds`` while the current node finishes its bounded work.
GRACE_S = 30.0


class RunNotFoundError(LookupError):
    """``resume`` was asked for a run that has no records or checkpoint."""


def _checkpoint_path(run_dir: Path) -> Path:
    return run_dir / "checkpoints.sqlite"


def _save_context(run_dir: Path, ctx: Context) -> None:
    data = asdict(ctx)
    data.pop("api_key", None)  # never write secrets to disk
    (run_dir / "context.json").write_text(json.dumps(data, indent=2), encoding="utf-8")


def load_saved_context(run_dir: Path, **overrides: Any) -> Context:
    """The settings a run was started with (minus secrets), with ``overrides`` on top."""
    path = run_dir / "context.json"
    data = json.loads(path.read_text(encoding="utf-8")) if path.exists() else {}
    data.update({k: v for k, v in overrides.items() if v is not None})
    return context_from_any(data)


async def _drive(
    graph: Any,
    first_input: Any,
    config: dict[str, Any],
    ctx: Context,
    on_event: EventHandler | None,
    on_interrupt: InterruptHandler | None,
) -> str | None:
    """Stream the graph, answering interrupts; returns a stop note when a person or the clock stopped it."""
    next_input = first_input
    while True:
        pending: list[Any] = []
        async for part in graph.astream(
            next_input, config, context=ctx, stream_mode=["updates", "custom"], version="v2", durability="sync"
        ):
            if part["type"] == "custom" and on_event is not None:
                on_event(part["data"])
            elif part["type"] == "updates" and isinstance(part["data"], dict) and "__interrupt__" in part["data"]:
                pending.extend(part["data"]["__interrupt__"])
        if not pending:
            return None
        payload = getattr(pending[0], "value", pending[0])
        if on_interrupt is None:
            return "paused at an interrupt with no one to answer it"
        answer = on_interrupt(payload)
        if asyncio.iscoroutine(answer):
            answer = await answer
        if answer is None:
            return "stopped at an interrupt"
        next_input = Command(resume=answer)


async def _finish(graph: Any, config: dict[str, Any], run_dir: Path, run_id: str, stop_note: str | None,
                  forced: tuple[str, str, str] | None, ctx: Context) -> dict[str, Any]:
    """Read the final state; when the graph could not end the run itself, record the terminal here."""
    snapshot = await graph.aget_state(config)
    values = dict(snapshot.values or {})
    values.setdefault("run_id", run_id)
    values.setdefault("run_dir", str(run_dir))
    if forced is not None:
        terminal_type, reason, message = forced
        values.update(terminal_type=terminal_type, terminal_reason=reason, stop_reason=message)
    if values.get("terminal_type") and (forced is not None or not (run_dir / "result.json").exists()):
        values["terminal_type"], values["terminal_reason"] = normalize(values["terminal_type"], values.get("terminal_reason"))
        recorder_for(run_id, run_dir).write_result(result_object(values))
    result = result_object(values)
    if not values.get("terminal_type"):
        result["status"] = "paused" if snapshot.next else "unfinished"
        result["stop_reason"] = stop_note or "the run did not reach a terminal"
        result["pending"] = list(snapshot.next or ())
    if forced is not None or not values.get("terminal_type"):
        write_report_safely(run_dir)  # finalize did not run, so the report is not written yet
    if not ctx.keep_browser_open:
        await registry.close(run_id)
    return result


async def _run_with_checkpointer(
    run_id: str,
    run_dir: Path,
    ctx: Context,
    first_input: Any,
    on_event: EventHandler | None,
    on_interrupt: InterruptHandler | None,
    before: Callable[[Any, dict[str, Any]], Awaitable[None]] | None = None,
) -> dict[str, Any]:
    config = {"configurable": {"thread_id": run_id}, "recursion_limit": recursion_limit_for(ctx.max_steps)}
    async with AsyncSqliteSaver.from_conn_string(str(_checkpoint_path(run_dir))) as saver:
        graph = build_graph(checkpointer=saver)
        if before is not None:
            await before(graph, config)
        forced: tuple[str, str, str] | None = None
        stop_note = None
        try:
            stop_note = await asyncio.wait_for(
                _drive(graph, first_input, config, ctx, on_event, on_interrupt), timeout=ctx.max_seconds + GRACE_S
            )
        except TimeoutError:
            forced = ("budget_exhausted", "max_seconds", f"run exceeded {ctx.max_seconds:g}s")
        except GraphRecursionError:
            forced = ("budget_exhausted", "recursion_limit", "graph recursion limit reached")
        except BaseException:
            # Ctrl-C or a cancelled task: leave the checkpoint for `resume`, but never leak the browser.
            if not ctx.keep_browser_open:
                await registry.close(run_id)
            raise
        return await _finish(graph, config, run_dir, run_id, stop_note, forced, ctx)


async def run_goal(
    goal: str,
    ctx: Context | None = None,
    *,
    start_url: str | None = None,
    on_event: EventHandler | None = None,
    on_interrupt: InterruptHandler | None = None,
) -> dict[str, Any]:
    """Carry out ``goal`` and return the result object (the same as ``result.json``)."""
    ctx = ctx or Context()
    run_id = ctx.run_id if ctx.run_id and valid_run_id(ctx.run_id) else new_run_id()
    ctx = replace(ctx, run_id=run_id)
    run_dir = Path(ctx.record_dir) / run_id
    run_dir.mkdir(parents=True, exist_ok=True)
    _save_context(run_dir, ctx)
    first_input = {"goal": goal, "start_url": start_url or ctx.start_url}
    return await _run_with_checkpointer(run_id, run_dir, ctx, first_input, on_event, on_interrupt)


async def resume_run(
    run_id: str,
    *,
    record_dir: str = "runs",
    overrides: dict[str, Any] | None = None,
    on_event: EventHandler | None = None,
    on_interrupt: InterruptHandler | None = None,
) -> dict[str, Any]:
    """Continue a run from its last checkpoint (reopening the browser at the recorded URL)."""
    if not valid_run_id(run_id):
        raise RunNotFoundError(f"{run_id!r} is not a valid run id")
    run_dir = Path(record_dir) / run_id
    if not _checkpoint_path(run_dir).exists():
        raise RunNotFoundError(f"no checkpoint for run {run_id} under {record_dir}")
    ctx = load_saved_context(run_dir, record_dir=record_dir, run_id=run_id, **(overrides or {}))

    async def restart_clock(graph: Any, config: dict[str, Any]) -> None:
        snapshot = await graph.aget_state(config)
        values = snapshot.values or {}
        if not snapshot.next:
            return
        if values.get("started_at"):
            spent = float(values.get("elapsed_before", 0.0)) + max(0.0, _last_activity(run_dir) - values["started_at"])
            await graph.aupdate_state(config, {"elapsed_before": spent, "started_at": time.time()})

    first_input: Any = None
    async with AsyncSqliteSaver.from_conn_string(str(_checkpoint_path(run_dir))) as saver:
        snapshot = await build_graph(checkpointer=saver).aget_state(
            {"configurable": {"thread_id": run_id}}
        )
        if not snapshot.values:
            raise RunNotFoundError(f"run {run_id} has no saved state")
        interrupts = [i for task in snapshot.tasks for i in (task.interrupts or ())]
        if interrupts:
            payload = getattr(interrupts[0], "value", interrupts[0])
            answer = on_interrupt(payload) if on_interrupt else None
            if asyncio.iscoroutine(answer):
                answer = await answer
            if answer is None:
                return {**result_object(dict(snapshot.values)), "status": "paused",
                        "stop_reason": "paused at an interrupt with no one to answer it"}
            first_input = Command(resume=answer)
        elif not snapshot.next:
            return result_object(dict(snapshot.values))
    return await _run_with_checkpointer(run_id, run_dir, ctx, first_input, on_event, on_interrupt, restart_clock)


def _last_activity(run_dir: Path) -> float:
    trace = run_dir / "trace.jsonl"
    return trace.stat().st_mtime if trace.exists() else time.time()
