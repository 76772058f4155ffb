"""Batch runs: ``python -m agent batch TASKS.jsonl [--concurrency K] [--out DIR] [--resume]``.

The tasks run concurrently (at most K at once) as asyncio tasks of this one process, sharing one Chromium:
each task attaches to it over CDP and works in a browser context of its own (own cookies, storage, tabs),
which it closes when it ends. The browser is started by the batch (a DevTools port on loopback, its own
profile) unless ``cdp_url`` is set, in which case every task attaches there (a remote browser or pool; a task
may name its own). Each task records under ``DIR/<id>/`` exactly like ``run`` (``python -m agent runs
--record-dir DIR`` lists them), and ``DIR/summary.json`` is rewritten as each task ends.

No task is ever asked anything: risky actions follow ``--confirm`` / ``--yes`` (denied by default) and a
question ends the task (``user_input_required``). Ctrl-C or SIGTERM stops every running task the way it
stops ``run`` (each stays resumable), writes the summary of what finished and says how to go on;
``--resume`` with the same ``--out`` keeps each finished task, resumes each stopped one from its last
checkpoint (in a fresh browser context: an attached run keeps no cookies) and runs the rest.

Exit codes: 0 every task ended ``goal_satisfied``; 1 any task did not (another terminal, an invalid line, a
crash, a paused run); 2 the batch itself cannot start (bad flags or settings, an unreadable or empty tasks
file, an ``--out`` that already holds a batch without ``--resume``); 130 Ctrl-C; 143 SIGTERM.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import shlex
import shutil
import signal
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from agent.batch_display import BatchDisplay
from agent.batch_tasks import (
    ERROR,
    INVALID,
    PENDING,
    STOPPED,
    SUMMARY_NAME,
    BatchTask,
    entry,
    entry_from_result,
    finished_result,
    read_tasks,
    satisfied,
    task_context,
    write_summary,
)
from agent.cli_output import EXIT_NOT_SATISFIED, EXIT_OK, EXIT_SIGINT, EXIT_SIGTERM, one_line
from agent.cli_settings import flag_overrides
from agent.config import ConfigError, load_settings
from agent.settings_checks import check_ready_to_run

#: Tasks that run at once unless ``--concurrency`` says otherwise.
DEFAULT_CONCURRENCY = 2


def add_batch_parser(sub: Any, add_setting_options: Callable[[argparse.ArgumentParser], None]) -> None:
    """The ``batch`` subcommand's arguments (the run settings' flags are the CLI's own)."""
    from agent.cli import _positive_int

    batch = sub.add_parser("batch", help="run many goals from a JSONL file, several at once")
    batch.add_argument("tasks", help='JSONL file: one {"goal", "start_url", "id", <settings>...} per line')
    batch.add_argument(
        "--concurrency",
        type=_positive_int,
        default=DEFAULT_CONCURRENCY,
        help=f"tasks running at once (default: {DEFAULT_CONCURRENCY})",
    )
    batch.add_argument("--out", help="directory of the records and summary.json (default: runs/batch-<time>)")
    batch.add_argument("--resume", action="store_true", help="finish the batch in --out: skip finished tasks")
    batch.add_argument("--json", action="store_true", help="print summary.json's object instead of a table")
    batch.add_argument("--plain", action="store_true", help="plain progress lines (for logs and CI)")
    add_setting_options(batch)


@dataclass
class _Batch:
    """What every task of one batch shares."""

    tasks_file: str
    out: Path
    flags: dict[str, Any]
    flag_sources: dict[str, str]
    config_file: str | None
    display: BatchDisplay
    entries: dict[str, dict[str, Any]] = field(default_factory=dict)
    order: list[str] = field(default_factory=list)

    def record(self, task: BatchTask, value: dict[str, Any], *, complete: bool = False) -> None:
        self.entries[task.id] = value
        self.save(complete=complete)

    def save(self, *, complete: bool) -> dict[str, Any]:
        return write_summary(self.out, self.tasks_file, self.ordered(), complete=complete)

    def ordered(self) -> list[dict[str, Any]]:
        return [self.entries[task_id] for task_id in self.order]


async def cmd_batch(args: argparse.Namespace) -> int:
    """Run the tasks file; returns the exit code (see the module doc)."""
    flags, sources = flag_overrides(args)
    flags.pop("record_dir", None)
    settings = load_settings(config_file=args.config, overrides=flags, override_sources=sources)
    check_ready_to_run(settings.context, settings.source_of)
    out = _out_dir(args, settings.context.record_dir)
    tasks = read_tasks(args.tasks)
    try:
        out.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise ConfigError(f"--out {str(out)!r} cannot be created ({exc.strerror or exc})") from None
    display = BatchDisplay.for_stream(sys.stderr, plain=args.plain, as_json=args.json)
    batch = _Batch(args.tasks, out, flags, sources, args.config, display, order=[t.id for t in tasks])
    for task in tasks:
        batch.entries[task.id] = entry(task, out, PENDING)
    stop = _StopSignals()
    shared = None
    if not settings.context.cdp_url:
        shared = await _start_shared_browser(settings.context)
        flags["cdp_url"], sources["cdp_url"] = shared.cdp_url, "the batch's browser"
    display.start(len(tasks), str(out), concurrency=args.concurrency)
    try:
        await _run_all(batch, tasks, args.concurrency, args.resume, stop)
    finally:
        display.stop()
        if shared is not None:
            await asyncio.to_thread(shared.stop)
    summary = batch.save(complete=stop.code is None)
    display.summary(summary, as_json=args.json)
    if stop.code is not None:
        finished = summary["counts"]["total"] - summary["counts"]["unfinished"]
        again = f"python -m agent batch {shlex.quote(args.tasks)} --out {shlex.quote(str(out))} --resume"
        print(
            f"\nstopped ({stop.name}): {finished} of {len(tasks)} tasks done; finish the rest with: {again}",
            file=sys.stderr,
        )
        return stop.code
    return EXIT_OK if satisfied(batch.ordered()) else EXIT_NOT_SATISFIED


async def _start_shared_browser(ctx: Any) -> Any:
    """The Chromium the tasks share (a DevTools port on loopback); one clear line when it cannot start."""
    from agent.browser.debug_launch import start_debuggable_chromium

    try:
        return await asyncio.to_thread(
            start_debuggable_chromium, executable=ctx.browser_executable, headless=ctx.headless
        )
    except Exception as exc:  # noqa: BLE001 - no Chromium, or one that does not start: said in one line
        raise ConfigError(f"the batch's browser did not start: {one_line(str(exc))}") from None


def _out_dir(args: argparse.Namespace, record_dir: str) -> Path:
    """Where the batch records (checked, not created yet): a new directory, or the batch ``--resume`` finishes."""
    if args.resume and not args.out:
        raise ConfigError("--resume needs --out DIR, the directory of the batch to finish")
    out = Path(args.out) if args.out else Path(record_dir) / f"batch-{time.strftime('%Y%m%d-%H%M%S')}"
    if out.exists() and not out.is_dir():
        raise ConfigError(f"--out {str(out)!r} is a file; give a directory")
    has_batch = (out / SUMMARY_NAME).exists()
    if args.resume and not has_batch:
        raise ConfigError(f"--resume: no batch to finish in {str(out)!r} (no {SUMMARY_NAME})")
    if has_batch and not args.resume:
        raise ConfigError(
            f"--out {str(out)!r} already holds a batch; add --resume to finish it, or give another --out"
        )
    return out


class _StopSignals:
    """Ctrl-C and SIGTERM cancel the batch (once): running tasks stop like ``run`` does, the rest wait."""

    def __init__(self) -> None:
        self.code: int | None = None
        self.name = ""
        self._main = asyncio.current_task()
        loop = asyncio.get_running_loop()
        for sig, code, name in (
            (signal.SIGINT, EXIT_SIGINT, "Ctrl-C"),
            (signal.SIGTERM, EXIT_SIGTERM, "SIGTERM"),
        ):
            with contextlib.suppress(NotImplementedError, RuntimeError, ValueError):
                loop.add_signal_handler(sig, self._stop, code, name)

    def _stop(self, code: int, name: str) -> None:
        if self.code is None and self._main is not None:
            self.code, self.name = code, name
            self._main.cancel()


async def _run_all(batch: _Batch, tasks: list[BatchTask], concurrency: int, resume: bool, stop: _StopSignals):
    gate = asyncio.Semaphore(concurrency)
    workers = [asyncio.create_task(_run_one(batch, task, gate, resume)) for task in tasks]
    try:
        await asyncio.gather(*workers)
    except asyncio.CancelledError:
        if stop.code is None:
            raise  # not our signal: someone cancelled the batch itself
        current = asyncio.current_task()
        if current is not None:
            current.uncancel()
        # gather has cancelled each worker once: wait while each run closes its context and saves its state.
        await asyncio.gather(*workers, return_exceptions=True)


async def _run_one(batch: _Batch, task: BatchTask, gate: asyncio.Semaphore, resume: bool) -> None:
    out, display = batch.out, batch.display
    run_dir = out / task.id
    if resume:
        done = finished_result(run_dir)
        if done is not None:
            value = entry_from_result(task, out, done, 0.0)
            display.task_done(value, skipped=True)
            batch.record(task, value)
            return
    if task.error is not None:
        value = entry(task, out, INVALID, error=task.error)
        display.task_done(value)
        batch.record(task, value)
        return
    async with gate:
        began = time.monotonic()
        try:
            ctx = await asyncio.to_thread(
                task_context, task, out, batch.flags, batch.flag_sources, batch.config_file
            )
        except ConfigError as exc:
            value = entry(task, out, INVALID, error=one_line(str(exc)))
            display.task_done(value)
            batch.record(task, value)
            return
        display.task_started(task.id, task.goal or "")
        try:
            result = await _start_or_resume(
                task, ctx, run_dir, lambda event: display.task_event(task.id, event)
            )
            value = entry_from_result(task, out, result, time.monotonic() - began)
        except asyncio.CancelledError:
            took = time.monotonic() - began
            done = finished_result(run_dir)  # it may have reached its terminal as the stop came
            value = entry_from_result(task, out, done, took) if done else entry(task, out, STOPPED)
            batch.record(task, {**value, "elapsed_s": value["elapsed_s"] or round(took, 2)})
            raise
        except Exception as exc:  # noqa: BLE001 - a crashed task is reported; the others go on
            error = one_line(f"{type(exc).__name__}: {exc}")[:300]
            value = entry(task, out, ERROR, error=error, elapsed_s=round(time.monotonic() - began, 2))
        display.task_done(value)
        batch.record(task, value)


async def _start_or_resume(task: BatchTask, ctx: Any, run_dir: Path, on_event: Any) -> dict[str, Any]:
    """A task that was stopped goes on from its last checkpoint; one that never checkpointed starts again."""
    from agent.runner import RunNotFoundError, resume_run, run_goal

    if (run_dir / "checkpoints.sqlite").exists():
        overrides = {
            "cdp_url": ctx.cdp_url,  # the batch's browser now (the old one is gone)
            "secrets": ctx.secrets,  # never saved with a run
            "confirm_policy": ctx.confirm_policy,
            "interactive": False,
        }
        with contextlib.suppress(RunNotFoundError):  # (a checkpoint database with no step in it)
            return await resume_run(
                task.id, record_dir=ctx.record_dir, overrides=overrides, on_event=on_event
            )
    if run_dir.exists():
        shutil.rmtree(run_dir)  # stopped before its first checkpoint: nothing in it to keep
    return await run_goal(task.goal or "", replace(ctx, run_id=task.id), on_event=on_event)
