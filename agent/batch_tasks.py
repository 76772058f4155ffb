"""The tasks of a batch: one JSON object a line, each a goal with its own settings, and the summary of how
each ended.

A line is ``{"goal": ..., "start_url": ..., "id": ...}`` plus any setting of ``configs/default.yaml``. A line
that cannot run (not JSON, not an object, no goal, a bad id, a bad or unknown setting) is a task of its own
that ends ``invalid`` with one line saying why; it never stops the others.
"""

from __future__ import annotations

import json
import time
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from agent.config import ConfigError, _read_text, load_settings
from agent.context import Context
from agent.records import _read_json, _write_json_atomic, valid_run_id
from agent.settings_checks import check_ready_to_run
from agent.terminals import GOAL_SATISFIED

#: Keys of a task line that are not settings.
TASK_KEYS = ("id", "goal")
#: Settings the batch decides for every task: where it records, its run id, and that no one is asked.
BATCH_OWNED = ("record_dir", "run_id", "interactive")
SUMMARY_NAME = "summary.json"

#: A task's status in the summary: ``finished`` (it reached a terminal), ``invalid`` (its line cannot run),
#: ``error`` (the run crashed), ``stopped`` (Ctrl-C / SIGTERM; ``--resume`` goes on), ``paused``, ``pending``.
FINISHED, INVALID, ERROR, STOPPED, PENDING = "finished", "invalid", "error", "stopped", "pending"


@dataclass
class BatchTask:
    """One line of the tasks file."""

    line: int
    id: str
    goal: str | None
    settings: dict[str, Any] = field(default_factory=dict)
    error: str | None = None  # why the line cannot run


def read_tasks(path: Path | str) -> list[BatchTask]:
    """Every task of the file (blank lines skipped); ConfigError when the file itself cannot be read."""
    text = _read_text(Path(path), "tasks file")
    tasks: list[BatchTask] = []
    seen: set[str] = set()
    for number, raw in enumerate(text.splitlines(), 1):
        if raw.strip():
            task = parse_task(raw, number, seen)
            seen.add(task.id)
            tasks.append(task)
    if not tasks:
        raise ConfigError(
            f"tasks file {str(path)!r} holds no tasks; write one JSON object per line, e.g. "
            '{"id": "t1", "goal": "what is the title?", "start_url": "example.com"}'
        )
    return tasks


def parse_task(raw: str, line: int, taken: set[str]) -> BatchTask:
    """The task on one line, or an invalid task saying what is wrong with it."""
    fallback = f"line-{line}"
    try:
        value = json.loads(raw)
    except ValueError as exc:
        why = f"{exc.msg} at column {exc.colno}" if isinstance(exc, json.JSONDecodeError) else str(exc)
        return BatchTask(line, fallback, None, error=f"line {line} is not valid JSON ({why})")
    if not isinstance(value, dict):
        return BatchTask(line, fallback, None, error=f"line {line} is not a JSON object")
    goal = value.get("goal")
    raw_id = value.get("id", fallback)
    task_id = str(raw_id) if isinstance(raw_id, str | int) and not isinstance(raw_id, bool) else ""
    task = BatchTask(line, task_id, goal if isinstance(goal, str) else None)
    task.settings = {str(k): v for k, v in value.items() if k not in TASK_KEYS}
    if not valid_run_id(task_id):
        task.id, task.error = (
            fallback,
            f"id {raw_id!r} is not valid (letters, digits, '.', '_', '-'; no '..')",
        )
    elif task_id in taken:
        task.id, task.error = fallback, f"id {task_id!r} is used by an earlier line"
    elif "goal" not in value:
        task.error = 'no "goal"'
    elif task.goal is None:
        task.error = f'"goal" must be text, not {type(goal).__name__}'
    else:
        owned = [key for key in BATCH_OWNED if key in task.settings]
        if owned:
            task.error = f"sets {', '.join(owned)}, which the batch decides for every task"
    if task.id in taken:  # a fallback id that an earlier line chose for itself
        task.id = f"{fallback}-{len(taken)}"
    return task


def task_context(
    task: BatchTask, out: Path, flags: dict[str, Any], flag_sources: dict[str, str], config_file: str | None
) -> Context:
    """The task's validated, machine-checked settings: its own line over the batch's flags over env over
    ``--config`` over the defaults (the CLI's precedence). ConfigError names the task and the setting."""
    source = f"task {task.id} (line {task.line})"
    overrides = {**flags, **task.settings, "record_dir": str(out), "run_id": task.id}
    sources = {**flag_sources, **dict.fromkeys(task.settings, source), "record_dir": "--out"}
    settings = load_settings(config_file=config_file, overrides=overrides, override_sources=sources)
    check_ready_to_run(settings.context, settings.source_of)
    return replace(settings.context, interactive=False)


def entry(task: BatchTask, out: Path, status: str, **values: Any) -> dict[str, Any]:
    """The task's line in summary.json."""
    base: dict[str, Any] = {
        "id": task.id,
        "line": task.line,
        "goal": task.goal,
        "status": status,
        "terminal_type": None,
        "terminal_reason": None,
        "final_answer": None,
        "run_dir": str(out / task.id) if status not in (INVALID, PENDING) else None,
        "elapsed_s": 0.0,
        "error": None,
    }
    base.update(values)
    return base


def entry_from_result(task: BatchTask, out: Path, result: dict[str, Any], elapsed_s: float) -> dict[str, Any]:
    """A run's result as the task's summary line (its own elapsed time when it recorded one)."""
    ended = bool(result.get("terminal_type"))
    return entry(
        task,
        out,
        FINISHED if ended else (result.get("status") or STOPPED),
        terminal_type=result.get("terminal_type"),
        terminal_reason=result.get("terminal_reason"),
        final_answer=result.get("final_answer"),
        run_dir=result.get("run_dir") or str(out / task.id),
        elapsed_s=round(float(result.get("elapsed_s") or elapsed_s), 2),
        error=None if ended else result.get("stop_reason"),
    )


def finished_result(run_dir: Path) -> dict[str, Any] | None:
    """The result.json of a run that reached its terminal (a finished task is never run again)."""
    result = _read_json(run_dir / "result.json")
    return result if result.get("terminal_type") else None


def satisfied(entries: list[dict[str, Any]]) -> bool:
    return bool(entries) and all(e.get("terminal_type") == GOAL_SATISFIED for e in entries)


def counts(entries: list[dict[str, Any]]) -> dict[str, int]:
    """How many tasks ended satisfied, with another terminal, invalid, crashed, or did not end."""
    out = {"total": len(entries), "satisfied": 0, "not_satisfied": 0, INVALID: 0, ERROR: 0, "unfinished": 0}
    for e in entries:
        if e.get("terminal_type") == GOAL_SATISFIED:
            out["satisfied"] += 1
        elif e.get("terminal_type"):
            out["not_satisfied"] += 1
        elif e.get("status") in (INVALID, ERROR):
            out[e["status"]] += 1
        else:
            out["unfinished"] += 1
    return out


def write_summary(out: Path, tasks_file: str, entries: list[dict[str, Any]], *, complete: bool) -> dict:
    """DIR/summary.json: every task's line (in file order) and the counts; rewritten as tasks end."""
    summary = {
        "tasks_file": tasks_file,
        "complete": complete,
        "updated_at": time.time(),
        "counts": counts(entries),
        "tasks": entries,
    }
    _write_json_atomic(out / SUMMARY_NAME, summary)
    return summary
