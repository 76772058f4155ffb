"""Scratch directories (agent/browser/scratch.py): a killed process's directory is swept by the next session; a
live owner's, a fresh one and one without an owner lock are never touched."""

from __future__ import annotations

import asyncio
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import pytest

from agent.browser import scratch

pytestmark = pytest.mark.skipif(scratch.fcntl is None, reason="owner locks need POSIX flock")

HOLDER = (
    "import sys, time; from agent.browser.scratch import ScratchDir; d = ScratchDir(); "
    "print(d.path, flush=True); time.sleep(120)"
)


def _holder(tmp_path: Path) -> tuple[subprocess.Popen, Path]:
    """A process that made a scratch directory under ``tmp_path`` and holds it."""
    env = {**os.environ, "TMPDIR": str(tmp_path)}
    proc = subprocess.Popen(
        [sys.executable, "-c", HOLDER],
        stdout=subprocess.PIPE,
        text=True,
        env=env,
        cwd=Path(__file__).parents[2],
    )
    path = Path(proc.stdout.readline().strip())
    assert path.parent == tmp_path and (path / scratch.LOCK_NAME).exists()
    return proc, path


def test_a_killed_owners_directory_is_swept_and_a_live_ones_is_not(tmp_path: Path) -> None:
    live, live_dir = _holder(tmp_path)
    dead, dead_dir = _holder(tmp_path)
    try:
        dead.send_signal(signal.SIGKILL)  # no clean-up of its own
        dead.wait(10)
        later = time.time() + 2 * scratch.MIN_AGE_S
        assert scratch.sweep_abandoned(tmp_path, now=later) == [dead_dir]
        assert not dead_dir.exists() and live_dir.is_dir()
    finally:
        live.kill()
        live.wait(10)
    assert scratch.sweep_abandoned(tmp_path, now=time.time() + 2 * scratch.MIN_AGE_S) == [live_dir]


def test_fresh_and_unlocked_directories_are_left_alone(tmp_path: Path) -> None:
    proc, fresh = _holder(tmp_path)
    proc.kill()
    proc.wait(10)
    assert scratch.sweep_abandoned(tmp_path) == []  # its owner is gone, but it was made a moment ago
    older = tmp_path / (scratch.PREFIX + "older")
    older.mkdir()  # an older version's directory: no owner lock
    (tmp_path / "unrelated").mkdir()
    later = time.time() + 2 * scratch.MIN_AGE_S
    assert scratch.sweep_abandoned(tmp_path, now=later) == [fresh]
    assert older.is_dir() and (tmp_path / "unrelated").is_dir()


def test_a_directory_a_live_process_names_is_left_alone(tmp_path: Path) -> None:
    """An owner killed without its browser: the browser still writes there, so the sweep waits for it."""
    proc, orphan = _holder(tmp_path)
    proc.kill()
    proc.wait(10)
    user = subprocess.Popen(  # stands for the Chromium its owner left running
        [
            sys.executable,
            "-c",
            "import time; print(1, flush=True); time.sleep(120)",
            f"--user-data-dir={orphan}/p",
        ],
        stdout=subprocess.PIPE,
    )
    assert user.stdout.readline()  # running (just after exec its command line can still read empty)
    later = time.time() + 2 * scratch.MIN_AGE_S
    try:
        assert scratch.sweep_abandoned(tmp_path, now=later) == [] and orphan.is_dir()
    finally:
        user.kill()
        user.wait(10)
    assert scratch.sweep_abandoned(tmp_path, now=later) == [orphan]


def test_own_directory_is_locked_until_removed(tmp_path: Path, monkeypatch) -> None:
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
    mine = scratch.ScratchDir()
    later = time.time() + 2 * scratch.MIN_AGE_S
    assert mine.path.parent == tmp_path and scratch.sweep_abandoned(tmp_path, now=later) == []
    mine.remove()
    assert not mine.path.exists()


KILLED_SESSION = (
    "import asyncio, sys, time; from pathlib import Path; from agent.browser.options import BrowserOptions; "
    "from agent.browser.session import BrowserSession\n"
    "async def main():\n"
    "    s = await BrowserSession.start(BrowserOptions(), Path(sys.argv[1]))\n"
    "    print(s._tmp, flush=True)\n"
    "    await asyncio.sleep(120)\n"
    "asyncio.run(main())\n"
)


async def test_a_session_sweeps_what_a_killed_session_left(tmp_path: Path, monkeypatch, request) -> None:
    """End to end: a process with a real browser session is killed outright; the next session removes its
    profile directory while it launches."""
    from agent.browser.options import BrowserOptions
    from agent.browser.session import BrowserSession

    scratch_root = Path(
        tempfile.mkdtemp(prefix="wfsc-")
    )  # short: Chromium's socket path under it has a limit
    request.addfinalizer(lambda: shutil.rmtree(scratch_root, ignore_errors=True))
    env = {**os.environ, "TMPDIR": str(scratch_root)}
    proc = subprocess.Popen(
        [sys.executable, "-c", KILLED_SESSION, str(tmp_path / "killed-run")],
        stdout=subprocess.PIPE, text=True, env=env, cwd=Path(__file__).parents[2], start_new_session=True,
    )  # fmt: skip
    try:
        left = Path(proc.stdout.readline().strip())
        assert left.parent == scratch_root and (left / "profile").is_dir()
    finally:
        os.killpg(proc.pid, signal.SIGKILL)  # the process, its Playwright driver and its Chromium at once
        proc.wait(10)
    assert left.is_dir()  # nothing of the killed process removed it
    monkeypatch.setattr(tempfile, "tempdir", str(scratch_root))
    monkeypatch.setattr(scratch, "MIN_AGE_S", 0.0)
    # Playwright's Chromium has a process group of its own: it outlives the kill until it sees its pipe close,
    # and while it lives the sweep leaves its profile alone
    deadline = time.monotonic() + 60
    while str(left) + os.sep in scratch._named_by_live_processes() and time.monotonic() < deadline:
        assert scratch.sweep_abandoned(scratch_root) in ([], [left])  # [left]: it ended just now
        await asyncio.sleep(0.05)
    session = await BrowserSession.start(BrowserOptions(), tmp_path / "next-run")
    try:
        for _ in range(100):
            if not left.exists():
                break
            await asyncio.sleep(0.05)
        assert not left.exists() and session._tmp.is_dir()  # swept beside the launch; its own kept
    finally:
        await session.close()
    assert not session._tmp.exists()
