"""Durable runs through the real CLI: stopped with Ctrl-C, killed with SIGKILL, resumed from another process.

What must hold after every resumption: no step is recorded twice (trace seqs unique and contiguous), no side
effect is repeated (counted by the page's server), a question that was pending is asked again, and the run
ends with a terminal and its result.json.
"""

from __future__ import annotations

import contextlib
import os
import signal
import threading
import time
from pathlib import Path

import pytest

from tests.durability.helpers import (
    STEP_NAMES,
    STEPS_GOAL,
    assert_trace_intact,
    executed,
    one_json_object,
    run_cli,
    runs_json,
    session_processes,
    start_cli,
    wait_for,
)
from tests.durability.terminal import Terminal, agent_command


def _no_browser_left(term: Terminal) -> None:
    """Everything the CLI started (Playwright driver, Chromium) is gone once it exits."""
    wait_for(lambda: not session_processes(term.proc.pid), 10, "the browser to close", 0.2)


def test_a_paused_question_survives_ctrl_c_and_a_kill(click_site, record_dir):
    """Ctrl-C at the question pauses the run; a resume that is killed while asking changes nothing; the next
    resume asks again and, approved, clicks exactly once."""
    rd = ["--record-dir", str(record_dir)]
    with Terminal(
        agent_command(
            "run",
            'click "Buy now"',
            "--start-url",
            click_site.url("shop.html?item=paused"),
            "--run-id",
            "paused",
            *rd,
        )
    ) as term:
        term.expect(r"approve / deny / edit", 90)
        term.ctrl_c()
        term.expect(r"continue with: python -m agent resume paused --record-dir", 30)
        assert term.wait(30) == 130
        _no_browser_left(term)
    assert click_site.count("paused") == 0

    listed = runs_json(record_dir)["paused"]
    assert listed["status"] == "paused" and listed["terminal_type"] is None
    assert 'Allow click button "Buy now"' in listed["question"]

    with Terminal(agent_command("resume", "paused", *rd)) as term:  # asks again ... and dies while asking
        term.expect(r'\? Allow click button "Buy now"\?', 60)
        term.expect(r"approve / deny / edit", 10)
        term.kill(signal.SIGKILL)
        term.wait(30)
    assert click_site.count("paused") == 0
    assert runs_json(record_dir)["paused"]["status"] == "paused"

    with Terminal(agent_command("resume", "paused", *rd)) as term:
        term.expect(r'\? Allow click button "Buy now"\?', 60)
        term.expect(r"approve / deny / edit", 10)
        term.sendline("approve")
        assert term.wait(90) == 0, term.text[-2000:]
    assert click_site.count("paused") == 1

    records = assert_trace_intact(record_dir / "paused")
    assert sum(r["node"] == "execute" for r in records) == 1
    assert records[-1]["node"] == "finalize" and records[-1]["terminal_type"] == "goal_satisfied"
    assert runs_json(record_dir)["paused"]["terminal_type"] == "goal_satisfied"


class KilledRun:
    """A run started in the background and SIGKILLed once step 2 is recorded (overlaps the other test)."""

    def __init__(self, click_site, record_dir: Path):
        self.record_dir = record_dir
        self.run_dir = record_dir / "k1"
        self.error: BaseException | None = None
        self.proc = start_cli(
            "run", STEPS_GOAL, "--start-url", click_site.url("steps.html?run=k1"), "--run-id", "k1",
            "--json", "--max-seconds", "120", "--record-dir", str(record_dir),
        )  # fmt: skip
        self.thread = threading.Thread(target=self._kill_after_step_2, daemon=True)
        self.thread.start()

    def _kill_after_step_2(self) -> None:
        try:
            wait_for(lambda: executed(self.run_dir, 2) or self.proc.poll() is not None, 120, "step 2")
            self.proc.kill()  # SIGKILL: no clean-up of any kind
            self.proc.wait(30)
        except BaseException as exc:  # noqa: BLE001 - reported by the test
            self.error = exc
        finally:
            _kill_session(self.proc.pid)

    def wait(self) -> None:
        self.thread.join(150)
        self.proc.stdout.close()
        self.proc.stderr.close()
        if self.error is not None:
            raise self.error
        assert self.proc.returncode == -signal.SIGKILL, self.proc.returncode


@pytest.fixture(scope="module", autouse=True)
def killed_run(click_site, tmp_path_factory):
    """Started with the module's first test so the two slow scenarios overlap."""
    run = KilledRun(click_site, tmp_path_factory.mktemp("killed") / "runs")
    yield run
    if run.proc.poll() is None:
        run.proc.kill()
    run.thread.join(30)
    _kill_session(run.proc.pid)


def test_a_killed_run_resumes_with_its_trace_intact(click_site, killed_run):
    """SIGKILL after step 2, resume in a new process (new Chromium at the recorded URL), Ctrl-C it after
    step 3, resume again: every button pressed exactly once, every seq recorded once, a terminal at the end."""
    killed_run.wait()
    record_dir, run_dir = killed_run.record_dir, killed_run.run_dir
    rd = ["--record-dir", str(record_dir)]
    done_before = {name: click_site.count(f"k1-{name}") for name in STEP_NAMES}
    assert done_before["alpha"] == done_before["bravo"] == 1
    assert (run_dir / "result.json").exists() is False

    listed = runs_json(record_dir)["k1"]
    assert listed["status"] == "unfinished" and listed["terminal_type"] is None and listed["steps"] >= 2

    # resume at a terminal (rich display), stop it with Ctrl-C once step 3 is done
    with Terminal(agent_command("resume", "k1", *rd)) as term:
        term.expect(r'click\s+button "Charlie"\s+ok', 90)
        term.ctrl_c()
        term.expect(r"resumable; continue with: python -m agent resume k1 --record-dir", 30)
        assert term.wait(30) == 130, term.text[-2000:]
        _no_browser_left(term)
    assert "\x1b[" in term.raw and "resume:" in term.text
    assert runs_json(record_dir)["k1"]["status"] == "unfinished"

    started = time.monotonic()
    done = run_cli("resume", "k1", "--json", *rd)
    assert done.returncode == 0, done.stderr[-3000:]
    result = one_json_object(done.stdout)
    assert result["run_id"] == "k1" and result["terminal_type"] == "goal_satisfied"
    assert result["steps"] == 4 and result["url"].startswith(click_site.base_url)
    assert result["elapsed_s"] >= time.monotonic() - started - 5  # the clock carries over resumptions

    assert {name: click_site.count(f"k1-{name}") for name in STEP_NAMES} == dict.fromkeys(STEP_NAMES, 1)
    records = assert_trace_intact(run_dir)
    steps = [r["step"] for r in records if r["node"] == "execute"]
    assert steps == [1, 2, 3, 4], steps
    assert records[-1]["node"] == "finalize"
    assert (run_dir / "result.json").exists() and (run_dir / "report.html").exists()
    assert runs_json(record_dir)["k1"]["terminal_type"] == "goal_satisfied"


def _kill_session(session_id: int) -> None:
    """The killed CLI's Playwright driver and Chromium are orphans: end them like an OS would on logout."""
    for pid, _name in session_processes(session_id):
        with contextlib.suppress(ProcessLookupError):
            os.kill(pid, signal.SIGKILL)
