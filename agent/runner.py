"""Running the graph for a goal: checkpointing, interrupts, budgets and records around one run.

Used by the CLI (``run``, ``resume``, ``demo``) and usable from Python::

    result = await run_goal("log in as demo with password wayfinder", Context(start_url=...))

Each run is checkpointed to ``<record_dir>/<run_id>/checkpoints.sqlite`` (thread id = run id, durability
"sync": a step's checkpoint is on disk before the next step starts), so a run that was interrupted, stopped
or killed can be continued with :func:`resume_run`, from this process or another one.

What a resumed run gets back, and what it does not:

- restored: the whole graph state (goal, stage, plan, history, counters, budgets, usage, the pending
  question), the trace (records are keyed by ``seq``; a node that re-runs never writes a second record) and
  the recorded result of an ``execute`` step that finished before the crash (it is reused, not re-run);
- an approved risky action that was running when the process died is **not** run again: its outcome is
  unknown, so it is recorded as a failed step and the agent looks at the page again (and asks again);
- an action that was running when the run was stopped cleanly (Ctrl-C, SIGTERM, a cancelled task) is not run
  again either: the stop lets it finish (within its own time limit) and notes its result, which the resumed
  run replays;
- a new Chromium is started with the cookies and localStorage saved after the last step (and the active
  tab's sessionStorage), the recorded URL of the active tab is reopened, and values typed there but not yet
  sent are typed again into the same fields (found by name, id, label or placeholder). Lost with the old
  browser: other tabs, scroll position, in-page script state and whatever changed after the last saved
  step. What could not be restored (no or a damaged saved state, a page that now goes elsewhere, a field
  that is gone) is noted in the state (``resume_lost``) and a failure it may explain ends
  ``goal_failed/resume_lost_state`` naming it;

``status.json`` in the run directory says whether a run is running (and in which process), paused at a
question, or stopped; ``python -m agent runs`` reads it, and ``resume`` refuses a run another live process
is still driving.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import sqlite3
import time
from collections.abc import Awaitable, Callable
from dataclasses import asdict, replace
from pathlib import Path
from typing import Any

# (the tracers: LangChain imports them at a process's first graph run, in its callback set-up; imported with the
# process instead, not in the first run's first step)
import langchain_core.tracers.context  # noqa: F401
import langchain_core.tracers.run_collector  # noqa: F401
import langchain_core.tracers.stdout  # noqa: F401
from langgraph.errors import GraphRecursionError
from langgraph.types import Command

from agent.browser import registry
from agent.checkpointer import PendingWrites, RunSaver, open_checkpointer
from agent.config import context_from_any
from agent.context import Context
from agent.graph import recursion_limit_for, update_keeping_route, with_checkpointer
from agent.records import (
    clear_inflight,
    inline_record_writes,
    live_owner,
    new_run_id,
    recorder_for,
    records_written,
    result_object,
    valid_run_id,
    write_report_safely,
    write_status,
)
from agent.runtime import events_to, reopen_session
from agent.runtime import release as release_runtime
from agent.terminals import BUDGET_EXHAUSTED, MAX_SECONDS, RECURSION_LIMIT, normalize
from agent.util.secrets import register_run

EventHandler = Callable[[dict[str, Any]], None]
#: Gets the interrupt payload ({"type": "confirm" | "ask_user", ...}); returns the resume value, or None to stop.
InterruptHandler = Callable[[dict[str, Any]], Awaitable[Any] | Any]

#: Seconds the whole run may overrun ``max_seconds`` while the current node finishes its bounded work.
GRACE_S = 30.0
#: stop notes of a run that waits for a person's answer (status "paused").
PAUSED_NO_ONE = "paused at an interrupt with no one to answer it"
PAUSED_STOPPED = "stopped while waiting for an answer"


class RunNotFoundError(LookupError):
    """``resume`` was asked for a run that has no records or checkpoint."""


class RunBusyError(RuntimeError):
    """``resume`` was asked for a run that another live process is still driving."""


class RunDamagedError(RuntimeError):
    """``resume`` was asked for a run whose checkpoint database cannot be read (damaged or not a database)."""


def _check_checkpoints_readable(path: Path, run_id: str) -> None:
    """Open the checkpoint database read-only once, so a damaged file is one clear error, not a traceback."""
    try:
        with contextlib.closing(sqlite3.connect(f"file:{path}?mode=ro", uri=True)) as db:
            db.execute("SELECT name FROM sqlite_master LIMIT 1").fetchall()
    except sqlite3.Error as exc:
        raise RunDamagedError(
            f"the checkpoints of run {run_id} cannot be read ({exc}): {path} is damaged, so the run cannot be "
            "resumed; start it again with `run`"
        ) from exc


def _checkpoint_path(run_dir: Path) -> Path:
    return run_dir / "checkpoints.sqlite"


def _save_context(run_dir: Path, ctx: Context) -> None:
    data = asdict(ctx)
    data.pop("api_key", None)  # never write secrets to disk
    data.pop("secrets", None)
    (run_dir / "context.json").write_text(json.dumps(data, indent=2), encoding="utf-8")


def load_saved_context(run_dir: Path, **overrides: Any) -> Context:
    """The settings a run was started with (minus secrets), with ``overrides`` on top."""
    path = run_dir / "context.json"
    data = json.loads(path.read_text(encoding="utf-8")) if path.exists() else {}
    data.update({k: v for k, v in overrides.items() if v is not None})
    return context_from_any(data)


def interrupt_payload(item: Any) -> dict[str, Any]:
    """The dict a node passed to ``interrupt()`` (from an Interrupt object or a raw value)."""
    value = getattr(item, "value", item)
    return value if isinstance(value, dict) else {"type": "unknown", "question": str(value)}


async def _answer(on_interrupt: InterruptHandler, payload: dict[str, Any]) -> Any:
    answer = on_interrupt(payload)
    if asyncio.iscoroutine(answer) or isinstance(answer, Awaitable):
        answer = await answer
    return answer


async def _restart_clock(graph: Any, config: dict[str, Any], paused_at: float) -> None:
    """Time the run spent waiting (for a person's answer, or with no process driving it) is not run time:
    ``max_seconds`` counts only the time the run was working."""
    snapshot = await graph.aget_state(config)
    values = snapshot.values or {}
    if not snapshot.next or not values.get("started_at"):
        return
    spent = float(values.get("elapsed_before", 0.0)) + max(0.0, paused_at - float(values["started_at"]))
    await update_keeping_route(graph, config, {"elapsed_before": spent, "started_at": time.time()})


async def _drive(
    graph: Any,
    first_input: Any,
    config: dict[str, Any],
    ctx: Context,
    run_dir: Path,
    on_event: EventHandler | None,
    on_interrupt: InterruptHandler | None,
) -> str | None:
    """Stream the graph, answering interrupts; returns a stop note when a person stopped it.

    The wall-clock guard (``max_seconds`` + grace; TimeoutError) covers the graph's work, not the time a
    person takes to answer a question.
    """
    next_input = first_input
    budget, used = ctx.max_seconds + GRACE_S, 0.0
    while True:
        pending: list[Any] = []
        began = time.monotonic()
        try:
            # progress events go straight from the nodes to the listener (see events_to), not through the stream
            async with asyncio.timeout(max(0.0, budget - used)):
                with events_to(on_event):
                    async for part in graph.astream(
                        next_input,
                        config,
                        context=ctx,
                        stream_mode=["updates"],
                        version="v2",
                        durability="sync",
                    ):
                        data = part["data"]
                        if isinstance(data, dict) and "__interrupt__" in data:
                            pending.extend(data["__interrupt__"])
        finally:
            used += time.monotonic() - began
        if not pending:
            return None
        payload = interrupt_payload(pending[0])
        # The checkpoint already holds the question: from here the run can be resumed anywhere.
        write_status(run_dir, "paused", interrupt=payload)
        if on_interrupt is None:
            return PAUSED_NO_ONE
        paused_at = time.time()
        answer = await _answer(on_interrupt, payload)
        if answer is None:
            return PAUSED_STOPPED
        write_status(run_dir, "running")
        await _restart_clock(graph, config, paused_at)
        next_input = Command(resume=answer)


async def _finish(
    graph: Any,
    config: dict[str, Any],
    run_dir: Path,
    run_id: str,
    stop_note: str | None,
    forced: tuple[str, str, str] | None,
    ctx: Context,
) -> dict[str, Any]:
    """Read the final state; when the graph could not end the run itself, record the terminal here."""
    await records_written()
    snapshot = await graph.aget_state(config)
    values = dict(snapshot.values or {})
    values.setdefault("run_id", run_id)
    values.setdefault("run_dir", str(run_dir))
    if forced is not None:
        terminal_type, reason, message = forced
        values.update(terminal_type=terminal_type, terminal_reason=reason, stop_reason=message)
    if values.get("terminal_type") and (forced is not None or not (run_dir / "result.json").exists()):
        values["terminal_type"], values["terminal_reason"] = normalize(
            values["terminal_type"], values.get("terminal_reason")
        )
        recorder_for(run_id, run_dir).write_result(result_object(values))
    result = _saved_result(run_dir) if values.get("terminal_type") else None
    result = result or result_object(values)
    if not values.get("terminal_type"):
        result["status"] = "paused" if snapshot.next else "unfinished"
        result["stop_reason"] = stop_note or "the run did not reach a terminal"
        result["pending"] = list(snapshot.next or ())
        interrupts = [i for task in snapshot.tasks for i in (task.interrupts or ())]
        if interrupts:
            result["question"] = interrupt_payload(interrupts[0]).get("question")
        if not interrupts:
            write_status(run_dir, "stopped", note=result["stop_reason"])
    else:
        write_status(run_dir, "finished", terminal_type=values.get("terminal_type"))
        clear_inflight(run_dir)
    if forced is not None or not values.get("terminal_type"):
        write_report_safely(run_dir)  # finalize did not run, so the report is not written yet
    release_runtime(run_id)  # a paused run builds its planning services again when it resumes
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
    write_status(run_dir, "running")
    async with open_checkpointer(_checkpoint_path(run_dir), RunSaver) as saver:
        writes = PendingWrites(saver)
        graph = with_checkpointer(saver)
        forced: tuple[str, str, str] | None = None
        stop_note = None
        try:
            if before is not None:
                await before(graph, config)
            with (
                inline_record_writes()
            ):  # the runner's loop may block for a record write: no thread hop per node
                stop_note = await _drive(graph, first_input, config, ctx, run_dir, on_event, on_interrupt)
        except TimeoutError:
            forced = (BUDGET_EXHAUSTED, MAX_SECONDS, f"run exceeded {ctx.max_seconds:g}s")
        except GraphRecursionError:
            forced = (BUDGET_EXHAUSTED, RECURSION_LIMIT, "graph recursion limit reached")
        except BaseException:
            # Ctrl-C, SIGTERM or a cancelled task: the checkpoint stays for `resume`; never leak the browser.
            write_status(run_dir, "stopped", note="stopped by a signal or cancellation")
            release_runtime(run_id)
            if not ctx.keep_browser_open:
                await asyncio.shield(registry.close(run_id))
            await asyncio.shield(writes.settle())
            await asyncio.shield(records_written())
            raise
        return await _finish(graph, config, run_dir, run_id, stop_note, forced, ctx)


def prepare_run(ctx: Context | None = None) -> tuple[Context, Path]:
    """Fix the run id (generated unless ``ctx.run_id`` is a valid one) and create the run directory."""
    ctx = ctx or Context()
    run_id = ctx.run_id if ctx.run_id and valid_run_id(ctx.run_id) else new_run_id()
    ctx = replace(ctx, run_id=run_id)
    run_dir = Path(ctx.record_dir) / run_id
    run_dir.mkdir(parents=True, exist_ok=True)
    return ctx, run_dir


async def run_goal(
    goal: str,
    ctx: Context | None = None,
    *,
    start_url: str | None = None,
    on_event: EventHandler | None = None,
    on_interrupt: InterruptHandler | None = None,
    session: Any = None,
) -> dict[str, Any]:
    """Carry out ``goal`` and return the result object (the same as ``result.json``).

    ``on_interrupt`` answers confirm / ask_user questions (see :mod:`agent.nodes.confirm`); returning None
    leaves the run paused (``status: "paused"``), to be continued with :func:`resume_run`. Without it, a run
    whose context is interactive pauses at its first question.

    Pass ``session`` (a started :class:`agent.browser.session.BrowserSession`) to run in a browser you own;
    it is used as is and left open at the end.
    """
    ctx, run_dir = prepare_run(ctx)
    run_id = str(ctx.run_id)
    if (run_dir / "checkpoints.sqlite").exists() or (run_dir / "trace.jsonl").exists():
        raise RunBusyError(
            f"run {run_id} already exists under {ctx.record_dir}; use resume_run to continue it"
        )
    _save_context(run_dir, ctx)
    secrets = ctx.secret_store()
    register_run(run_id, secrets)
    # The user's own goal may hold a secret's value: from here on only its placeholder exists.
    first_input = {"goal": secrets.mask(goal), "start_url": start_url or ctx.start_url}
    if session is not None:
        registry.adopt(run_id, session)
    return await _run_with_checkpointer(run_id, run_dir, ctx, first_input, on_event, on_interrupt)


def check_resumable(run_id: str, record_dir: str = "runs") -> Path:
    """The run directory of ``run_id`` if it can be resumed now; else RunNotFoundError / RunBusyError."""
    if not valid_run_id(run_id):
        raise RunNotFoundError(f"{run_id!r} is not a valid run id")
    run_dir = Path(record_dir) / run_id
    if not _checkpoint_path(run_dir).exists():
        raise RunNotFoundError(f"no checkpoint for run {run_id} under {record_dir}")
    owner = live_owner(run_dir)
    if owner is not None:
        raise RunBusyError(f"run {run_id} is still being driven by process {owner}; stop it first")
    _check_checkpoints_readable(_checkpoint_path(run_dir), run_id)
    return run_dir


async def resume_run(
    run_id: str,
    *,
    record_dir: str = "runs",
    overrides: dict[str, Any] | None = None,
    on_event: EventHandler | None = None,
    on_interrupt: InterruptHandler | None = None,
) -> dict[str, Any]:
    """Continue a run from its last checkpoint (reopening the browser at the recorded URL).

    A pending question is answered first through ``on_interrupt`` (None leaves the run paused). A finished
    run is not run again: its result is returned. Raises :class:`RunNotFoundError` for an unknown run and
    :class:`RunBusyError` when another live process is driving it, :class:`RunDamagedError` when its checkpoints
    cannot be read.
    """
    run_dir = check_resumable(run_id, record_dir)
    ctx = load_saved_context(run_dir, record_dir=record_dir, run_id=run_id, **(overrides or {}))
    register_run(run_id, ctx.secret_store())

    async def before_going_on(graph: Any, config: dict[str, Any]) -> None:
        if not stranded:  # (a stranded run's clock was set when it was taken up again)
            await _restart_clock(graph, config, paused_at=_last_activity(run_dir))
        await _restore_browser(graph, config, ctx, run_id)

    first_input: Any = None
    stranded = False
    config = {"configurable": {"thread_id": run_id}}
    async with open_checkpointer(_checkpoint_path(run_dir), RunSaver) as saver:
        graph = with_checkpointer(saver)
        snapshot = await graph.aget_state(config)
        if snapshot.values and not snapshot.next and snapshot.tasks and not snapshot.interrupts:
            # The process died after a node finished but before the checkpoint that follows it: the node's
            # output is saved as pending writes. Commit them (running nothing) so the run goes on from there.
            async for _ in graph.astream(None, config, context=ctx, interrupt_before="*", durability="sync"):
                pass
            snapshot = await graph.aget_state(config)
        stranded = bool(
            snapshot.values
            and not snapshot.next
            and not snapshot.values.get("terminal_type")
            and not [i for task in snapshot.tasks for i in (task.interrupts or ())]
        )
        if stranded:
            # Stopped between steps with nothing scheduled and no terminal (e.g. cancelled inside a node):
            # go on from a fresh observation, which has no side effects, as if the last step had completed.
            values = snapshot.values
            spent = float(values.get("elapsed_before", 0.0)) + max(
                0.0, _last_activity(run_dir) - float(values.get("started_at") or time.time())
            )
            await update_keeping_route(
                graph, config, {"elapsed_before": spent, "started_at": time.time()}, as_node="progress"
            )
            snapshot = await graph.aget_state(config)
    if not snapshot.values:
        raise RunNotFoundError(f"run {run_id} has no saved state")
    values = {"run_id": run_id, "run_dir": str(run_dir), **dict(snapshot.values)}
    interrupts = [i for task in snapshot.tasks for i in (task.interrupts or ())]
    if interrupts:
        payload = interrupt_payload(interrupts[0])
        write_status(run_dir, "paused", interrupt=payload)
        answer = await _answer(on_interrupt, payload) if on_interrupt else None
        if answer is None:
            return {
                **result_object(values),
                "status": "paused",
                "question": payload.get("question"),
                "pending": list(snapshot.next or ()),
                "stop_reason": PAUSED_STOPPED if on_interrupt else PAUSED_NO_ONE,
            }
        first_input = Command(resume=answer)
    elif not snapshot.next:
        if values.get("terminal_type"):
            write_status(run_dir, "finished", terminal_type=values.get("terminal_type"))
            clear_inflight(run_dir)
        return _saved_result(run_dir) or result_object(values)
    return await _run_with_checkpointer(
        run_id, run_dir, ctx, first_input, on_event, on_interrupt, before_going_on
    )


async def _restore_browser(graph: Any, config: dict[str, Any], ctx: Context, run_id: str) -> None:
    """Open the resumed run's browser before it goes on: the saved cookies and storage, the recorded URL,
    the values typed there but not sent. What could not be restored goes into the state (``resume_lost``,
    and a hint for the planner), so the run's ending can name it."""
    if registry.get(run_id) is not None:
        return  # a browser the caller lent, or one still open in this process: nothing was lost
    values = dict((await graph.aget_state(config)).values or {})
    if values.get("terminal_type") or not values.get("url"):
        return
    try:
        _session, lost = await reopen_session({"run_id": run_id, **values}, ctx)
    except Exception:  # noqa: BLE001 - the first node that needs the browser opens it and reports why not
        return
    if lost:
        said = "; ".join(lost)
        hint = f"The run was resumed in a new browser that could not restore: {said}. Check the page first."
        await update_keeping_route(
            graph,
            config,
            {
                "resume_lost": [*(values.get("resume_lost") or []), *lost],
                "hints": [*(values.get("hints") or []), hint],
            },
        )


def _saved_result(run_dir: Path) -> dict[str, Any] | None:
    """result.json as written when the run ended (so ``--json`` prints exactly what is on disk)."""
    try:
        value = json.loads((run_dir / "result.json").read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    return value if isinstance(value, dict) and value.get("terminal_type") else None


def _last_activity(run_dir: Path) -> float:
    trace = run_dir / "trace.jsonl"
    return trace.stat().st_mtime if trace.exists() else time.time()
