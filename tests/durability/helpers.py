"""Helpers of the CLI-level tests: run ``python -m agent`` in subprocesses and read what a run left on disk."""

from __future__ import annotations

import contextlib
import json
import os
import signal
import subprocess
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from tests.durability.terminal import REPO, agent_command, agent_env

STEPS_GOAL = 'click "Alpha", then click "Bravo", then click "Charlie", then click "Delta"'
STEP_NAMES = ("alpha", "bravo", "charlie", "delta")


def run_cli(
    *args: str, timeout: float = 120.0, env: dict[str, str] | None = None
) -> subprocess.CompletedProcess:
    """Run the CLI to the end with no terminal (stdin is /dev/null, stdout and stderr are pipes)."""
    return subprocess.run(
        agent_command(*args),
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        timeout=timeout,
        env=env or agent_env(),
        cwd=REPO,
    )


def start_cli(*args: str, env: dict[str, str] | None = None) -> subprocess.Popen:
    """Start the CLI with no terminal, in its own session (so the test can clean up its browser)."""
    return subprocess.Popen(
        agent_command(*args),
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=env or agent_env(),
        cwd=REPO,
        start_new_session=True,
    )


def one_json_object(stdout: str) -> dict[str, Any]:
    """stdout must hold exactly one JSON object (and nothing else but whitespace)."""
    decoder = json.JSONDecoder()
    text = stdout.strip()
    value, end = decoder.raw_decode(text)
    assert text[end:].strip() == "", f"more than one JSON value on stdout: {text[end:][:300]!r}"
    assert isinstance(value, dict)
    return value


def read_trace(run_dir: Path | str) -> list[dict[str, Any]]:
    path = Path(run_dir) / "trace.jsonl"
    if not path.exists():
        return []
    out = []
    for line in path.read_text(encoding="utf-8").splitlines():
        try:
            out.append(json.loads(line))
        except json.JSONDecodeError:
            continue
    return out


def wait_for(predicate: Callable[[], Any], timeout: float, what: str, interval: float = 0.02) -> Any:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = predicate()
        if value:
            return value
        time.sleep(interval)
    raise AssertionError(f"timed out after {timeout:g}s waiting for {what}")


def executed(run_dir: Path | str, step: int) -> bool:
    return any(r.get("node") == "execute" and r.get("step") == step for r in read_trace(run_dir))


def session_processes(session_id: int) -> list[tuple[int, str]]:
    """Live (non-zombie) processes of a session: (pid, command name)."""
    found = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            stat = Path(f"/proc/{entry}/stat").read_text()
        except OSError:
            continue
        name, rest = stat.split("(", 1)[1].rsplit(")", 1)
        fields = rest.split()
        if fields[0] != "Z" and int(fields[3]) == session_id:
            found.append((int(entry), name))
    return found


def stop_cli(proc: subprocess.Popen, stop: int, *, group: bool = False) -> tuple[str, str, float]:
    """Send ``stop`` to a CLI started by :func:`start_cli` (to its whole process group when ``group``, as
    Ctrl-C at a terminal does) and wait for it to end: (stdout, stderr, seconds it took to end). Whatever is
    left of its session afterwards (the Playwright driver, Chromium) is killed, as an OS would on logout."""
    stopped_at = time.monotonic()
    try:
        if group:
            os.killpg(proc.pid, stop)
        else:
            proc.send_signal(stop)
        out, err = proc.communicate(timeout=60)
        return out, err, time.monotonic() - stopped_at
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.communicate(timeout=30)
        for pid, _name in session_processes(proc.pid):
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGKILL)


def assert_trace_intact(run_dir: Path | str) -> list[dict[str, Any]]:
    """One record per seq, seqs 1..N with no gap, every record of the same run."""
    records = read_trace(run_dir)
    seqs = [r["seq"] for r in records]
    assert seqs == list(range(1, len(records) + 1)), f"seq not unique and contiguous: {seqs}"
    assert len({r.get("run_id") for r in records}) == 1
    return records


def runs_json(record_dir: Path | str, *, subprocess_cli: bool = False) -> dict[str, dict[str, Any]]:
    """``python -m agent runs --json``, by run id (in this process unless ``subprocess_cli``: it is cheap)."""
    if subprocess_cli:
        done = run_cli("runs", "--record-dir", str(record_dir), "--json", timeout=60)
        assert done.returncode == 0, done.stderr
        out = done.stdout
    else:
        import contextlib
        import io

        from agent.cli import main

        buffer = io.StringIO()
        with contextlib.redirect_stdout(buffer):
            assert main(["runs", "--record-dir", str(record_dir), "--json"]) == 0
        out = buffer.getvalue()
    return {r["run_id"]: r for r in json.loads(out)}
