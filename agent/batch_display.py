"""Live progress of a batch, and its summary table.

At a terminal (rich): a bar over the batch (tasks done of all, how many satisfied, elapsed) above one line
per running task (its id, goal and latest step). When the batch ends or is stopped, the live area is cleared
and one final line is printed with the true counts, so the screen never ends on a spinner. Otherwise
(``--plain``, ``--json``, stderr not a terminal): one line when a task starts and one when it ends.

The summary table goes to stdout (or summary.json's object with ``--json``).
"""

from __future__ import annotations

import json
import os
import sys
import time
from typing import Any, TextIO

from agent.display import STATUS_MARKS, TERMINAL_STYLES, _escape, format_elapsed, start_live, wants_plain
from agent.terminals import GOAL_SATISFIED

#: Widest goal and answer cells.
GOAL_WIDTH, ANSWER_WIDTH = 50, 60


def outcome_of(value: dict[str, Any]) -> str:
    """'goal_satisfied/answer_found', or the task's status ('invalid', 'error', 'stopped', ...)."""
    if value.get("terminal_type"):
        return f"{value['terminal_type']}/{value.get('terminal_reason') or '-'}"
    return str(value.get("status") or "?")


def detail_of(value: dict[str, Any]) -> str:
    """The answer of a satisfied task, else why it did not end well."""
    if value.get("terminal_type") == GOAL_SATISFIED:
        return str(value.get("final_answer") or "")
    return str(value.get("error") or value.get("final_answer") or "")


class BatchDisplay:
    """Receives the batch's task starts, their graph events and their ends, and shows them."""

    def __init__(self, stream: TextIO = sys.stderr, plain: bool = True, *, console: Any = None) -> None:
        self.stream = stream
        self.plain = plain
        self.total = 0
        self.done = 0
        self.good = 0
        self.running: dict[str, tuple[str, str]] = {}  # task id -> (its goal, its latest step)
        self._started = time.monotonic()
        self._console = console
        self._live: Any = None

    @classmethod
    def for_stream(cls, stream: TextIO, *, plain: bool, as_json: bool) -> BatchDisplay:
        term = os.environ.get("TERM")
        return cls(stream, plain=wants_plain(plain=plain, as_json=as_json, stream=stream, term=term))

    # --- lifecycle ----------------------------------------------------------------------------------

    def start(self, total: int, out: str, *, concurrency: int) -> None:
        self.total, self._started = total, time.monotonic()
        head = f"batch: {total} tasks, {concurrency} at once; records and summary.json under {out}"
        if self.plain:
            print(head, file=self.stream, flush=True)
            return
        from rich.console import Console

        if self._console is None:
            self._console = Console(file=self.stream, highlight=False)
        self._console.print(_escape(head))
        self._live = start_live(self._console, self._renderable)

    def stop(self) -> None:
        """Clear the live area and print the final, still line: the true counts, no spinner."""
        live, self._live = self._live, None
        if live is None:
            return  # plain lines: each task already said how it ended
        live.stop()
        self._console.print(self._bar(final=True))

    # --- events -------------------------------------------------------------------------------------

    def task_started(self, task_id: str, goal: str) -> None:
        self.running[task_id] = (goal[:GOAL_WIDTH], "starting")
        if self.plain:
            print(
                f"[{self.done:>3}/{self.total}] start {task_id}: {goal[:100]}", file=self.stream, flush=True
            )

    def task_event(self, task_id: str, event: dict[str, Any]) -> None:
        """A step of a running task becomes its line's tail (rich mode only: plain stays one line a task)."""
        if self.plain or not isinstance(event, dict) or event.get("event") != "step":
            return
        mark = STATUS_MARKS.get(str(event.get("status")), str(event.get("status") or "-"))
        target = f" {str(event['target'])[:30]}" if event.get("target") else ""
        goal = self.running.get(task_id, ("", ""))[0]
        self.running[task_id] = (
            goal,
            f"step {event.get('step', '?')} {event.get('action')}{target} -> {mark}",
        )

    def task_done(self, value: dict[str, Any], *, skipped: bool = False) -> None:
        self.running.pop(value["id"], None)
        self.done += 1
        self.good += value.get("terminal_type") == GOAL_SATISFIED
        if not self.plain:
            return
        what = "kept (finished before)" if skipped else outcome_of(value)
        took = "" if skipped else f" {format_elapsed(value.get('elapsed_s'))}"
        why = f"  {detail_of(value)[:120]}" if value.get("error") else ""
        print(f"[{self.done:>3}/{self.total}] {value['id']}: {what}{took}{why}", file=self.stream, flush=True)

    # --- rendering ----------------------------------------------------------------------------------

    def _bar(self, final: bool = False) -> Any:
        from rich.progress_bar import ProgressBar
        from rich.table import Table

        grid = Table.grid(padding=(0, 1))
        grid.add_row(
            "batch" if not final else "[bold]batch ended[/bold]",
            ProgressBar(total=max(1, self.total), completed=self.done, width=30),
            f"{self.done}/{self.total} done · {self.good} satisfied · {format_elapsed(self._elapsed())}",
        )
        return grid

    def _renderable(self) -> Any:
        from rich.console import Group
        from rich.spinner import Spinner
        from rich.table import Table

        rows = Table.grid(padding=(0, 1))
        for task_id, (goal, step) in list(self.running.items()):
            rows.add_row(
                Spinner("dots", style="cyan"),
                f"[bold]{_escape(task_id)}[/bold]",
                _escape(goal),
                _escape(step),
            )
        return Group(self._bar(), rows)

    def _elapsed(self) -> float:
        return time.monotonic() - self._started

    # --- the end ------------------------------------------------------------------------------------

    def summary(self, summary: dict[str, Any], *, as_json: bool) -> None:
        """summary.json's object (``--json``) or a table of every task, on stdout."""
        if as_json:
            print(json.dumps(summary, default=str), flush=True)
            return
        from rich.console import Console
        from rich.table import Table

        # Not a terminal (a log, a pipe): wide enough that each task stays on one line.
        console = Console(file=sys.stdout, highlight=False, width=None if sys.stdout.isatty() else 200)
        table = Table(title=None, show_lines=False, expand=False)
        tasks = summary.get("tasks", [])
        # id, outcome and time keep their width; goal and answer share the rest of the line.
        id_w = min(24, max((len(str(t["id"])) for t in tasks), default=2))
        outcome_w = min(36, max((len(outcome_of(t)) for t in tasks), default=7))
        rest = max(20, console.width - id_w - outcome_w - 7 - 16)  # 16: borders and padding of 5 columns
        goal_w = min(GOAL_WIDTH, rest * 2 // 5)
        for name, width, justify in (
            ("ID", max(2, id_w), "left"),
            ("OUTCOME", max(7, outcome_w), "left"),
            ("TIME", 7, "right"),
            ("GOAL", goal_w, "left"),
            ("ANSWER / WHY", min(ANSWER_WIDTH, rest - goal_w), "left"),
        ):
            table.add_column(name, width=width, justify=justify, no_wrap=True, overflow="ellipsis")
        for value in tasks:
            style = TERMINAL_STYLES.get(str(value.get("terminal_type")), "yellow")
            table.add_row(
                _escape(str(value["id"])),
                f"[{style}]{_escape(outcome_of(value))}[/{style}]",
                format_elapsed(value.get("elapsed_s")),
                _escape(" ".join(str(value.get("goal") or "").split())),
                _escape(" ".join(detail_of(value).split())),
            )
        console.print(table)
        c = summary.get("counts", {})
        console.print(
            f"{c.get('satisfied', 0)} of {c.get('total', 0)} satisfied; {c.get('not_satisfied', 0)} other "
            f"terminals, {c.get('invalid', 0)} invalid, {c.get('error', 0)} crashed, "
            f"{c.get('unfinished', 0)} unfinished"
        )
