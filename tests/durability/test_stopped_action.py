"""A run stopped while an action is running (Ctrl-C, SIGTERM, a cancelled task) lets the action finish, keeps
its outcome and, resumed, replays it instead of acting again: a button is pressed once, its step recorded once.

The page's click handler calls a server endpoint that counts at once and answers two seconds later, so when
the test sees the count the action is surely still running (the browser layer waits for the answer).
"""

from __future__ import annotations

import asyncio
import signal
import time

import pytest

from agent.browser import registry
from agent.context import Context
from agent.nodes.execute import action_budget
from agent.records import read_inflight, read_status
from agent.runner import resume_run, run_goal
from tests.durability.helpers import (
    assert_trace_intact,
    executed,
    one_json_object,
    read_trace,
    run_cli,
    start_cli,
    stop_cli,
    wait_for,
)

GOAL = 'click "Delta"'


def _ctx(record_dir, run_id: str) -> Context:
    return Context(
        planner="rules",
        record_dir=str(record_dir),
        run_id=run_id,
        max_steps=10,
        max_seconds=90.0,
        action_timeout_s=6.0,
        navigation_timeout_s=8.0,
    )


async def _until(predicate, timeout: float, what: str) -> None:
    deadline = time.monotonic() + timeout
    while not predicate():
        assert time.monotonic() < deadline, f"timed out after {timeout:g}s waiting for {what}"
        await asyncio.sleep(0.01)


def _assert_pressed_and_recorded_once(click_site, run_dir, name: str) -> None:
    assert click_site.count(name) == 1
    records = assert_trace_intact(run_dir)
    [step] = [r for r in records if r["node"] == "execute"]
    assert step["step"] == 1 and step["result"]["status"] == "success"
    assert "replayed" in step["note"], step["note"]
    assert records[-1]["node"] == "finalize" and records[-1]["terminal_type"] == "goal_satisfied"
    assert not (run_dir / "inflight.json").exists()  # a finished run leaves no action in flight


async def test_a_task_cancelled_mid_click_finishes_the_click_and_resume_does_not_repeat_it(
    click_site, record_dir, session
):
    ctx = _ctx(record_dir, "midclick")
    run_dir = record_dir / "midclick"
    run = asyncio.create_task(
        run_goal(GOAL, ctx, start_url=click_site.url("steps.html?run=midclick&delay=2"), session=session)
    )
    await _until(lambda: click_site.count("midclick-delta") == 1 or run.done(), 60, "the click")
    assert not run.done() and not executed(run_dir, 1)  # the click reached the server; the step is running
    stopped_at = time.monotonic()
    run.cancel()
    with pytest.raises(asyncio.CancelledError):
        await run
    waited = time.monotonic() - stopped_at
    assert waited < action_budget(ctx)  # the stop waits for the action, no longer

    inflight = read_inflight(run_dir)
    assert inflight["completed"] is True and inflight["seq"] >= 1
    assert inflight["action"]["action"] == "click" and inflight["result"]["status"] == "success"
    assert not executed(run_dir, 1)  # the stop came before the step's record: only the note has it
    assert read_status(run_dir)["status"] == "stopped"

    registry.adopt("midclick", session)
    result = await resume_run("midclick", record_dir=str(record_dir), overrides={"keep_browser_open": True})
    assert (result["terminal_type"], result["steps"]) == ("goal_satisfied", 1)
    _assert_pressed_and_recorded_once(click_site, run_dir, "midclick-delta")


@pytest.mark.parametrize(
    ("stop", "exit_code", "run_id"),
    [(signal.SIGINT, 130, "ctrlc"), (signal.SIGTERM, 143, "sigterm")],
)
def test_a_cli_run_stopped_mid_click_then_resumed_presses_once(
    click_site, record_dir, stop, exit_code, run_id
):
    """The same through the real CLI: SIGINT (what Ctrl-C sends) or SIGTERM while the click's request is in
    flight."""
    rd = ["--record-dir", str(record_dir)]
    proc = start_cli(
        "run", GOAL, "--start-url", click_site.url(f"steps.html?run={run_id}&delay=2"), "--run-id", run_id,
        "--json", "--max-seconds", "120", *rd,
    )  # fmt: skip
    try:
        wait_for(lambda: click_site.count(f"{run_id}-delta") or proc.poll() is not None, 120, "the click")
        assert proc.poll() is None and not executed(record_dir / run_id, 1)
    finally:
        out, err, waited = stop_cli(proc, stop)
    assert proc.returncode == exit_code, err[-2000:]
    assert waited < action_budget(Context())  # the CLI's default settings: the stop waits for the action only
    assert f"continue with: python -m agent resume {run_id} --record-dir" in err
    stopped = one_json_object(out)
    assert stopped["status"] == "unfinished" and stopped["terminal_type"] is None
    assert read_inflight(record_dir / run_id).get("completed") is True
    assert read_trace(record_dir / run_id)[-1]["node"] != "execute"

    done = run_cli("resume", run_id, "--json", *rd)
    assert done.returncode == 0, done.stderr[-3000:]
    assert one_json_object(done.stdout)["terminal_type"] == "goal_satisfied"
    _assert_pressed_and_recorded_once(click_site, record_dir / run_id, f"{run_id}-delta")
