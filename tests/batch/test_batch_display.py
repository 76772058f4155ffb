"""The batch's progress at a terminal ends on its true counts, never on a spinner; without a terminal it is
one line a task start and end; the summary table names every task and its outcome."""

from __future__ import annotations

import io
import re
import time

from rich.console import Console

from agent.batch_display import BatchDisplay

SPINNER = re.compile("[\u2800-\u28ff]")  # rich's "dots" spinner frames


def _ended(task_id: str, terminal: str | None, **extra) -> dict:
    return {"id": task_id, "goal": f"goal of {task_id}", "terminal_type": terminal, "elapsed_s": 1.5, **extra}


def test_the_live_bar_ends_on_the_true_counts_without_a_spinner():
    out = io.StringIO()
    console = Console(file=out, force_terminal=True, width=100, color_system=None)
    display = BatchDisplay(out, plain=False, console=console)
    display.start(3, "runs/batch-x", concurrency=2)
    display.task_started("a", "click Alpha")
    display.task_event(
        "a", {"event": "step", "step": 1, "action": "click", "target": "Alpha", "status": "success"}
    )
    time.sleep(0.4)  # a few live frames
    assert SPINNER.search(out.getvalue()) and "step 1 click Alpha -> ok" in out.getvalue()
    display.task_done(_ended("a", "goal_satisfied", terminal_reason="action_verified"))
    display.task_done(_ended("b", None, status="invalid", error="no goal"))
    display.stop()
    text = out.getvalue()
    tail = text[text.rindex("batch ended") :]
    assert "2/3 done · 1 satisfied" in tail and not SPINNER.search(tail)


def test_plain_lines_and_the_summary_table(capsys):
    out = io.StringIO()
    display = BatchDisplay(out, plain=True)
    display.start(2, "runs/batch-y", concurrency=1)
    display.task_started("a", "click Alpha")
    display.task_done(_ended("a", "goal_satisfied", terminal_reason="answer_found", final_answer="42"))
    display.task_done(_ended("b", None, status="error", error="RuntimeError: boom"), skipped=False)
    display.stop()
    lines = out.getvalue().splitlines()
    assert lines[1] == "[  0/2] start a: click Alpha"
    assert lines[2] == "[  1/2] a: goal_satisfied/answer_found 1.5s"
    assert lines[3] == "[  2/2] b: error 1.5s  RuntimeError: boom"
    counts = {"total": 2, "satisfied": 1, "not_satisfied": 0, "invalid": 0, "error": 1, "unfinished": 0}
    tasks = [
        _ended("a", "goal_satisfied", terminal_reason="answer_found", final_answer="42"),
        _ended("b", None, status="error", error="RuntimeError: boom"),
    ]
    display.summary({"tasks": tasks, "counts": counts}, as_json=False)
    table = capsys.readouterr().out
    assert re.search(r"a .*goal_satisfied/answer_found .*42", table)
    assert re.search(r"b .*error .*RuntimeError: boom", table)
    assert "1 of 2 satisfied" in table and "1 crashed" in table
