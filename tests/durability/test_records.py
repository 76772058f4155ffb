"""The bookkeeping that makes runs listable and resumable: status.json, inflight.json, list_runs, `runs`."""

from __future__ import annotations

import contextlib
import io
import json
import os
import subprocess
import sys

from agent.cli import main
from agent.cli_output import format_runs
from agent.nodes.execute import interrupted_risky_action
from agent.records import (
    list_runs,
    live_owner,
    pid_alive,
    read_inflight,
    read_status,
    run_status,
    write_inflight,
    write_status,
)


def _dead_pid() -> int:
    proc = subprocess.Popen([sys.executable, "-c", "pass"])
    proc.wait()
    return proc.pid


def _make_run(record_dir, run_id, *, goal="a goal", started_at=1.0, result=None, status=None, trace=()):
    run_dir = record_dir / run_id
    run_dir.mkdir()
    (run_dir / "run.json").write_text(json.dumps({"run_id": run_id, "goal": goal, "started_at": started_at}))
    if result is not None:
        (run_dir / "result.json").write_text(json.dumps({"run_id": run_id, "goal": goal, **result}))
    if status is not None:
        (run_dir / "status.json").write_text(json.dumps({"host": os.uname().nodename, **status}))
    if trace:
        (run_dir / "trace.jsonl").write_text(
            "".join(json.dumps(r) + "\n" for r in trace) + '{"seq": 9, "trunc'
        )
    return run_dir


def test_status_files_round_trip(tmp_path):
    write_status(tmp_path, "paused", interrupt={"type": "confirm", "question": "Allow click?"})
    status = read_status(tmp_path)
    assert (
        status["status"] == "paused"
        and status["pid"] == os.getpid()
        and status["interrupt"]["type"] == "confirm"
    )
    assert live_owner(tmp_path) is None  # this very process is not "another" one
    assert read_status(tmp_path / "missing") == {}

    write_inflight(tmp_path, 5, {"action": "click", "element_id": 2, "args": {}}, "high")
    assert read_inflight(tmp_path)["seq"] == 5
    assert not list(tmp_path.glob("*.tmp"))  # atomic writes leave no temporary files


def test_pid_alive_and_live_owner(tmp_path):
    assert pid_alive(os.getpid()) and pid_alive(os.getppid())
    assert not pid_alive(_dead_pid()) and not pid_alive(None) and not pid_alive(-1)
    (tmp_path / "status.json").write_text(
        json.dumps({"status": "running", "pid": os.getppid(), "host": os.uname().nodename})
    )
    assert live_owner(tmp_path) == os.getppid()
    (tmp_path / "status.json").write_text(json.dumps({"status": "running", "pid": _dead_pid()}))
    assert live_owner(tmp_path) is None  # killed: free to resume
    (tmp_path / "status.json").write_text(json.dumps({"status": "stopped", "pid": os.getppid()}))
    assert live_owner(tmp_path) is None


def test_list_runs_says_how_each_run_stands(tmp_path):
    rd = tmp_path / "runs"
    rd.mkdir()
    _make_run(
        rd,
        "r-done",
        started_at=10,
        result={
            "terminal_type": "goal_satisfied",
            "terminal_reason": "answer_found",
            "steps": 3,
            "started_at": 99,
        },
    )
    _make_run(
        rd,
        "r-paused",
        started_at=20,
        status={
            "status": "paused",
            "pid": _dead_pid(),
            "interrupt": {"question": 'Allow click button "Buy"?'},
        },
    )
    _make_run(
        rd,
        "r-killed",
        started_at=30,
        status={"status": "running", "pid": _dead_pid()},
        trace=[{"seq": 1, "step": 0, "url": "http://a/"}, {"seq": 2, "step": 2, "url": "http://a/b"}],
    )
    _make_run(rd, "r-live", started_at=40, status={"status": "running", "pid": os.getppid()})
    (rd / "not-a-run").mkdir()
    (rd / "stray.txt").write_text("x")

    runs = list_runs(rd)
    assert [r["run_id"] for r in runs] == ["r-live", "r-killed", "r-paused", "r-done"]  # newest first
    by_id = {r["run_id"]: r for r in runs}
    assert by_id["r-done"]["status"] == "finished" and by_id["r-done"]["terminal_type"] == "goal_satisfied"
    assert by_id["r-done"]["started_at"] == 10  # when the run began, not when its last resumption did
    assert (
        by_id["r-paused"]["status"] == "paused"
        and by_id["r-paused"]["question"] == 'Allow click button "Buy"?'
    )
    assert by_id["r-killed"]["status"] == "unfinished" and by_id["r-killed"]["steps"] == 2
    assert by_id["r-killed"]["url"] == "http://a/b"  # the truncated last trace line is skipped
    assert by_id["r-live"]["status"] == "running"
    assert run_status(rd / "r-killed") == "unfinished"
    assert list_runs(rd, limit=2)[-1]["run_id"] == "r-killed"
    assert list_runs(tmp_path / "nowhere") == []

    lines = format_runs(runs)
    assert lines[0].split()[:3] == ["RUN", "ID", "OUTCOME"]
    row = {line.split()[0]: line for line in lines[1:] if line.startswith("r-")}
    assert "goal_satisfied" in row["r-done"] and "answer_found" in row["r-done"]
    assert "paused" in row["r-paused"] and "waiting for an answer" in row["r-paused"]
    assert "unfinished" in row["r-killed"] and "running" in row["r-live"]
    assert any(line.strip().startswith('? Allow click button "Buy"?') for line in lines)

    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        assert main(["runs", "--record-dir", str(rd)]) == 0
    assert "continue one with: python -m agent resume RUN_ID --record-dir" in out.getvalue()
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        assert main(["runs", "--record-dir", str(tmp_path / "empty")]) == 0
    assert out.getvalue().startswith("no runs under")


def test_only_a_high_risk_step_is_treated_as_cut_short(tmp_path):
    action = {"action": "click", "element_id": 3, "args": {}}
    state = {
        "run_dir": str(tmp_path),
        "seq": 4,
        "proposed_action": {**action, "reasoning": "x"},
        "action_risk": "high",
    }
    assert not interrupted_risky_action(state)  # nothing in flight
    write_inflight(tmp_path, 5, action, "high")
    assert interrupted_risky_action(state)
    assert not interrupted_risky_action({**state, "action_risk": "low"})  # plain actions simply run again
    assert not interrupted_risky_action({**state, "seq": 5})  # an older step's note
    assert not interrupted_risky_action({**state, "proposed_action": {**action, "element_id": 4}})


def test_asking_for_an_unwritten_record_reads_the_trace_only_when_someone_else_wrote_to_it(
    tmp_path, monkeypatch
):
    """execute asks for its own step's record on every step (a resume must not act twice): a trace that holds only
    lines this recorder wrote needs no read; a line added by another process (a resume elsewhere) is found."""
    import agent.records as records

    recorder = records.RunRecorder(tmp_path / "run")
    for seq in range(1, 40):
        assert recorder.append({"run_id": "r", "seq": seq, "node": "observe", "note": "ünïcode ok"})
    reads = []
    real_read = records.read_trace
    monkeypatch.setattr(records, "read_trace", lambda path: reads.append(path) or real_read(path))
    assert recorder.record(40) is None and reads == []
    assert recorder.record(7)["seq"] == 7 and len(reads) == 1  # a record it has: read from the file
    with recorder.trace_path.open("a", encoding="utf-8") as fh:  # another process's line
        fh.write(
            json.dumps({"run_id": "r", "seq": 40, "node": "execute", "result": {"status": "success"}}) + "\n"
        )
    assert recorder.record(40)["result"] == {"status": "success"}
    assert recorder.record(41) is None and len(reads) == 2  # the foreign line is known now: no read again
    assert not recorder.append({"run_id": "r", "seq": 40, "node": "execute"})  # and never written twice
