"""A login interrupted at any step resumes to the same ending as an uninterrupted run (issue 15's done means).

The CLI runs the login on a loopback site whose server keeps the session in an HttpOnly cookie. It is
stopped (SIGINT, what Ctrl-C sends; or SIGKILL, no clean-up at all) at each step boundary: before typing the
user, after the user, after the password, after the submit. ``python -m agent resume`` in a new process
(a new Chromium) must end exactly like the uninterrupted run, with the server having seen one login POST:
the resumed browser has the session cookie back, and a typed value that was not sent yet is typed again.
"""

from __future__ import annotations

import signal
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.durability.helpers import (
    assert_trace_intact,
    one_json_object,
    read_trace,
    run_cli,
    start_cli,
    wait_for,
)
from tests.durability.login_site import GOAL, LoginSite
from tests.durability.test_resume import _kill_session

#: Where the run is stopped: the trace record after which it happens (node, step).
BOUNDARIES = {
    "before_user": ("start", 0),
    "after_user": ("execute", 1),
    "after_password": ("execute", 2),
    "after_submit": ("execute", 3),
}
ENDING = ("terminal_type", "terminal_reason", "final_answer", "steps")


@pytest.fixture(scope="module")
def login_site() -> Iterator[LoginSite]:
    with LoginSite() as site:
        yield site


@pytest.fixture(scope="module")
def uninterrupted(login_site, tmp_path_factory) -> dict:
    record_dir = tmp_path_factory.mktemp("whole") / "runs"
    done = run_cli(
        "run", GOAL, "--start-url", login_site.url("whole"), "--run-id", "whole", "--json",
        "--record-dir", str(record_dir),
    )  # fmt: skip
    assert done.returncode == 0, done.stderr[-3000:]
    assert login_site.posts("whole") == 1
    return one_json_object(done.stdout)


def _reached(run_dir: Path, node: str, step: int) -> bool:
    return any(r.get("node") == node and r.get("step") == step for r in read_trace(run_dir))


def stop_at(
    site_url: str, record_dir: Path, run_id: str, boundary: str, stop: signal.Signals, goal: str = GOAL
) -> None:
    """Start ``run`` in a subprocess and stop it with ``stop`` as soon as the boundary's record is written
    (with a goal that starts with another step, the boundaries are one step later)."""
    node, step = BOUNDARIES[boundary]
    step += goal != GOAL and node == "execute"
    proc = start_cli(
        "run", goal, "--start-url", site_url, "--run-id", run_id, "--json", "--max-seconds", "120",
        "--record-dir", str(record_dir),
    )  # fmt: skip
    try:
        wait_for(
            lambda: _reached(record_dir / run_id, node, step) or proc.poll() is not None,
            120,
            f"{node} of step {step}",
            0.005,
        )
        assert proc.poll() is None, proc.communicate(timeout=30)[1][-2000:]
        proc.send_signal(stop)
        _out, err = proc.communicate(timeout=60)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.communicate(timeout=30)
        _kill_session(proc.pid)
    expected = 130 if stop == signal.SIGINT else -signal.SIGKILL
    assert proc.returncode == expected, err[-2000:]
    assert not (record_dir / run_id / "result.json").exists(), "the run ended before it was stopped"


@pytest.mark.parametrize("boundary", list(BOUNDARIES))
@pytest.mark.parametrize("stop", [signal.SIGINT, signal.SIGKILL], ids=["sigint", "sigkill"])
def test_a_login_stopped_at_a_step_boundary_resumes_to_the_same_ending(
    login_site, uninterrupted, tmp_path, boundary, stop
):
    record_dir = tmp_path / "runs"
    run_id = f"{boundary}-{stop.name.lower()}"
    stop_at(login_site.url(run_id), record_dir, run_id, boundary, stop)
    posted_before = login_site.posts(run_id)
    assert posted_before == (1 if boundary == "after_submit" else 0)

    done = run_cli("resume", run_id, "--json", "--record-dir", str(record_dir))
    assert done.returncode == 0, done.stderr[-3000:]
    result = one_json_object(done.stdout)
    assert {k: result[k] for k in ENDING} == {k: uninterrupted[k] for k in ENDING}
    assert result["resume_lost"] == []
    assert result["url"].split("?")[0].endswith("/account")
    assert login_site.posts(run_id) == 1  # the server saw exactly one login POST
    records = assert_trace_intact(record_dir / run_id)
    assert [r["step"] for r in records if r["node"] == "execute"] == [1, 2, 3]
