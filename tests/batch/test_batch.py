"""``python -m agent batch``: ten goals on loopback pages, three at once, one broken line, in a real Chromium the
batch starts and shares (a context per task). Ctrl-C mid-batch stops cleanly (no traceback, the summary of
what finished, how to go on) and ``--resume`` finishes the rest: no finished task runs again and no click
happens twice (the page's clicks are counted by the server)."""

from __future__ import annotations

import contextlib
import io
import json
import signal
import threading
from pathlib import Path

import pytest
import yaml

from tests.durability.clicks import ClickSite
from tests.durability.helpers import run_cli, start_cli, wait_for
from tests.support.factories import OFFLINE_RUN

GOAL = 'click "Alpha"'


@pytest.fixture(scope="module")
def press_site():
    """A page whose buttons show at once that they were pressed and report each press to the server."""
    with ClickSite(Path(__file__).parent / "pages") as site:
        yield site


def _tasks_file(path: Path, site: ClickSite) -> Path:
    lines = [
        json.dumps({"id": f"t{n}", "goal": GOAL, "start_url": site.url(f"press.html?run=batch{n}")})
        for n in range(10)
    ]
    lines[4] = '{"id": "t4", "goal": "click "Bravo""}'  # the broken task: not JSON
    lines[7] = json.dumps({**json.loads(lines[7]), "max_steps": 6, "planner": "rules"})  # its own settings
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def _running_at_most(lines: list[str]) -> int:
    """The most tasks running at once, from the plain progress lines (start ... / <id>: <outcome>)."""
    running, most = set(), 0
    for line in lines:
        words = line.split("] ", 1)[-1].split()
        if words[:1] == ["start"]:
            running.add(words[1].rstrip(":"))
        elif words and words[0].rstrip(":") in running:
            running.discard(words[0].rstrip(":"))
        most = max(most, len(running))
    return most


def _collect(stream, into: list[str]) -> threading.Thread:
    thread = threading.Thread(target=lambda: into.extend(iter(stream.readline, "")), daemon=True)
    thread.start()
    return thread


@pytest.mark.timeout(400)  # ten real runs in two batches: about a minute alone, minutes on a loaded machine
def test_ten_tasks_three_at_once_one_broken_stopped_with_ctrl_c_then_resumed(tmp_path, press_site):
    tasks, out = _tasks_file(tmp_path / "tasks.jsonl", press_site), tmp_path / "batch"
    config = tmp_path / "bounds.yaml"  # the tests' bounds for a loaded machine (three runs at once)
    bounds = {**OFFLINE_RUN, "action_timeout_s": 15.0, "max_seconds": 120.0}
    config.write_text(yaml.safe_dump({k: v for k, v in bounds.items() if k != "max_steps"}))
    command = (
        "batch",
        str(tasks),
        "--out",
        str(out),
        "--concurrency",
        "3",
        "--config",
        str(config),
        "--plain",
    )
    child = start_cli(*command)
    err: list[str] = []
    reader = _collect(child.stderr, err)
    wait_for(lambda: sum(": goal_" in line for line in err) >= 2, 120, "two tasks to finish", interval=0.05)
    child.send_signal(signal.SIGINT)
    stdout = child.stdout.read()
    child.wait(60)
    reader.join(10)
    text = "".join(err)
    assert child.returncode == 130, text
    assert "Traceback" not in text and "finish the rest with:" in text and "--resume" in text
    assert 2 <= _running_at_most(err) <= 3, text  # concurrency 3 was used, never exceeded
    first = json.loads((out / "summary.json").read_text())
    ids = [f"t{n}" for n in range(10)]
    ids[4] = "line-5"  # a line that is not JSON has no id of its own
    assert first["complete"] is False and [t["id"] for t in first["tasks"]] == ids
    done_first = {t["id"] for t in first["tasks"] if t["status"] == "finished"}
    assert len(done_first) >= 2 and first["counts"]["unfinished"] >= 1, first["counts"]
    assert "t1" in stdout or "t0" in stdout  # the summary table of what finished

    resumed = run_cli(*command, "--resume", "--json", timeout=180)
    assert resumed.returncode == 1, resumed.stderr  # every task ended, one of them is broken
    summary = json.loads(resumed.stdout)
    assert summary == json.loads((out / "summary.json").read_text()) and summary["complete"] is True
    assert summary["counts"] == {
        "total": 10, "satisfied": 9, "not_satisfied": 0, "invalid": 1, "error": 0, "unfinished": 0
    }  # fmt: skip
    for task in summary["tasks"]:
        assert set(task) >= {"id", "goal", "terminal_type", "terminal_reason", "final_answer", "run_dir"}
        if task["id"] == "line-5":
            assert task["status"] == "invalid" and task["terminal_type"] is None and task["run_dir"] is None
            assert task["error"].startswith("line 5 is not valid JSON")
            continue
        assert (task["terminal_type"], task["terminal_reason"]) == ("goal_satisfied", "action_verified")
        assert task["goal"] == GOAL and task["elapsed_s"] > 0
        result = json.loads((Path(task["run_dir"]) / "result.json").read_text())
        assert result["run_id"] == task["id"] and Path(task["run_dir"]).parent == out
        n = task["id"][1:]
        # Finished tasks were kept, stopped ones resumed: each button was pressed exactly once.
        assert press_site.count(f"batch{n}-alpha") == 1, task
    kept = [line for line in resumed.stderr.splitlines() if "kept (finished before)" in line]
    assert {line.split("] ", 1)[1].split(":")[0] for line in kept} == done_first


def _main(*args: str) -> tuple[int, list[str]]:
    """The CLI in this process: its exit code and its stderr lines."""
    from agent.cli import main

    err = io.StringIO()
    with contextlib.redirect_stderr(err):
        try:
            code = main(list(args))
        except SystemExit as exc:  # argparse's usage errors
            code = int(exc.code or 0)
    return code, err.getvalue().strip().splitlines()


def test_a_batch_that_cannot_start_is_one_line_and_exit_2(tmp_path):
    empty = tmp_path / "empty.jsonl"
    empty.write_text("\n\n", encoding="utf-8")
    used = tmp_path / "used"
    used.mkdir()
    (used / "summary.json").write_text("{}", encoding="utf-8")
    cases = [
        ((str(tmp_path / "missing.jsonl"),), "does not exist"),
        ((str(empty),), "holds no tasks"),
        ((str(empty), "--resume"), "--resume needs --out"),
        ((str(empty), "--out", str(used)), "already holds a batch"),
        ((str(empty), "--max-steps", "many"), "setting 'max_steps' from flag --max-steps"),
    ]
    for args, why in cases:
        code, lines = _main("batch", *args)
        assert code == 2 and len(lines) == 1 and lines[0].startswith("error: ") and why in lines[0], lines
    code, lines = _main("batch", str(empty), "--concurrency", "0")
    assert code == 2 and "must be at least 1" in lines[-1]


def test_each_bad_line_and_a_crashing_task_fail_alone_with_one_line_each(tmp_path, capsys):
    out = tmp_path / "out"
    out.mkdir()
    (out / "boom").write_text("a file where the task's record directory should go", encoding="utf-8")
    page = "http://127.0.0.1:9/never-opened"
    lines = [
        {"id": "boom", "goal": "click Alpha", "start_url": page},  # crashes: its run directory is a file
        {"id": "no-goal", "start_url": page},
        {"id": "bad-url", "goal": "click Alpha", "start_url": "not a url"},
        {"id": "bad id!", "goal": "click Alpha"},
        {"id": "boom", "goal": "click Alpha"},
        {"id": "mine", "goal": "click Alpha", "record_dir": "/tmp"},
        {"id": "typo", "goal": "click Alpha", "max_stepz": 3},
        ["not", "an", "object"],
    ]
    tasks = tmp_path / "tasks.jsonl"
    tasks.write_text("\n".join(json.dumps(line) for line in lines) + "\n", encoding="utf-8")
    code, err = _main("batch", str(tasks), "--out", str(out), "--json")
    assert code == 1, err
    summary = json.loads(capsys.readouterr().out)
    why = {t["id"]: (t["status"], t["error"]) for t in summary["tasks"]}
    assert why["boom"][0] == "error" and "Error" in why["boom"][1]
    assert why["no-goal"] == ("invalid", 'no "goal"')
    assert (
        why["bad-url"][0] == "invalid"
        and "setting 'start_url' from task bad-url (line 3)" in why["bad-url"][1]
    )
    assert why["line-4"] == ("invalid", "id 'bad id!' is not valid (letters, digits, '.', '_', '-'; no '..')")
    assert why["line-5"] == ("invalid", "id 'boom' is used by an earlier line")
    assert why["mine"] == ("invalid", "sets record_dir, which the batch decides for every task")
    assert why["typo"][0] == "invalid" and "unknown setting 'max_stepz'" in why["typo"][1]
    assert why["line-8"] == ("invalid", "line 8 is not a JSON object")
    assert summary["counts"] == {
        "total": 8, "satisfied": 0, "not_satisfied": 0, "invalid": 7, "error": 1, "unfinished": 0
    }  # fmt: skip
    assert "Traceback" not in "\n".join(err)
