"""Crashes at the awkward moments, made deterministic in-process (the subprocess tests hit them by timing).

- after a node finished but before the checkpoint that follows it (its output exists only as LangGraph
  "pending writes"): resume commits that output instead of losing the run or re-running the node;
- in the middle of an approved high-risk action (its trace record never written): resume does not run it again.
"""

from __future__ import annotations

import time

import pytest

from agent.browser import registry
from agent.context import Context
from agent.nodes.execute import execute
from agent.records import read_status, write_inflight
from agent.runner import RunBusyError, resume_run, run_goal
from tests.durability.helpers import STEP_NAMES, STEPS_GOAL, assert_trace_intact, read_trace
from tests.support.factories import offline_context


class Crash(Exception):
    """Stands in for the process dying between a node's output and the next checkpoint."""


def _crashing_saver(steps_at_crash: int):
    from agent.checkpointer import RunSaver

    class CrashingSaver(RunSaver):
        async def aput(self, config, checkpoint, metadata, new_versions):
            if (checkpoint.get("channel_values") or {}).get("steps") == steps_at_crash:
                raise Crash(f"checkpoint with steps={steps_at_crash} never written")
            return await super().aput(config, checkpoint, metadata, new_versions)

    return CrashingSaver


def _ctx(record_dir, run_id: str, **extra) -> Context:
    return offline_context(record_dir, run_id=run_id, **{"max_seconds": 90.0, **extra})


async def test_output_of_a_node_whose_checkpoint_was_lost_is_committed_on_resume(
    click_site, record_dir, session, monkeypatch
):
    import agent.runner as runner

    real_saver = runner.RunSaver
    monkeypatch.setattr(runner, "RunSaver", _crashing_saver(steps_at_crash=2))
    with pytest.raises(Crash):
        await run_goal(
            STEPS_GOAL,
            _ctx(record_dir, "lost"),
            start_url=click_site.url("steps.html?run=lost"),
            session=session,
        )
    run_dir = record_dir / "lost"
    assert read_status(run_dir)["status"] == "stopped"
    assert [click_site.count(f"lost-{n}") for n in STEP_NAMES] == [1, 1, 0, 0]

    monkeypatch.setattr(runner, "RunSaver", real_saver)
    registry.adopt("lost", session)  # the same browser: this test is about the checkpoint, not the page
    result = await resume_run("lost", record_dir=str(record_dir), overrides={"keep_browser_open": True})
    assert (result["terminal_type"], result["steps"]) == ("goal_satisfied", 4)
    assert [click_site.count(f"lost-{n}") for n in STEP_NAMES] == [1, 1, 1, 1]
    records = assert_trace_intact(run_dir)
    assert [r["step"] for r in records if r["node"] == "execute"] == [1, 2, 3, 4]
    assert not any("replayed" in r["note"] for r in records)  # committed, not even replayed
    assert read_status(run_dir)["status"] == "finished"


def _risky_state(run_dir, **extra):
    action = {"action": "click", "element_id": 3, "args": {}, "reasoning": ""}
    state = {
        "goal": 'click "Buy now"',
        "run_id": "risky",
        "run_dir": str(run_dir),
        "seq": 7,
        "steps": 0,
        "stage": "locate",
        "url": "http://127.0.0.1:9/shop.html",
        "proposed_action": action,
        "action_risk": "high",
        "confirmation": "approved",
        "plan": ['Click "Buy now"'],
        "current_step": 'Click "Buy now"',
        "observation": {"elements": [{"id": 3, "tag": "button", "role": "button", "name": "Buy now"}]},
        "started_at": time.time(),
        "elapsed_before": 0.0,
    }
    state.update(extra)
    return state, action


async def test_an_approved_risky_action_cut_short_by_a_crash_is_not_run_again(tmp_path):
    from langgraph.runtime import Runtime

    state, _action = _risky_state(tmp_path)
    write_inflight(
        tmp_path, 8, {"action": "click", "element_id": 3, "args": {}}, "high"
    )  # started, never recorded
    update = await execute(state, Runtime(context=Context(record_dir=str(tmp_path))))
    assert registry.get("risky") is None  # no browser was even opened
    result = update["last_result"]
    assert (result["status"], result["error_type"]) == ("failure", "unknown")
    assert "not repeated" in result["message"]
    assert update["history"][-1]["status"] == "failure" and update["plan"] == []
    [record] = read_trace(tmp_path)  # the step's one record, at the seq the crashed process would have used
    assert (
        record["seq"] == 8 and record["node"] == "execute" and "not repeated after a resume" in record["note"]
    )


async def test_resume_refuses_a_run_another_live_process_drives(tmp_path):
    import json
    import os

    run_dir = tmp_path / "busy"
    run_dir.mkdir()
    (run_dir / "checkpoints.sqlite").write_bytes(b"")
    (run_dir / "status.json").write_text(
        json.dumps({"status": "running", "pid": os.getppid(), "host": os.uname().nodename})
    )
    with pytest.raises(RunBusyError, match=f"process {os.getppid()}"):
        await resume_run("busy", record_dir=str(tmp_path))


async def test_a_paused_confirm_resumed_without_a_terminal_is_denied(click_site, record_dir, session):
    """``resume --no-input`` (or no terminal) on a run waiting at confirm: denied, never clicked, a terminal."""
    from agent.cli_prompter import answer_without_terminal

    ctx = _ctx(record_dir, "nobody", interactive=True)
    paused = await run_goal(
        'click "Buy now"', ctx, start_url=click_site.url("shop.html?item=nobody"), session=session
    )  # no on_interrupt: the run stops at the question
    assert (
        paused["status"] == "paused" and paused["pending"] == ["confirm"] and "Buy now" in paused["question"]
    )
    assert read_status(record_dir / "nobody")["status"] == "paused"

    registry.adopt("nobody", session)
    result = await resume_run(
        "nobody",
        record_dir=str(record_dir),
        overrides={"interactive": False},
        on_interrupt=answer_without_terminal,
    )
    assert (result["terminal_type"], result["terminal_reason"]) == ("goal_failed", "user_declined")
    assert "no one to ask" in result["stop_reason"]
    assert click_site.count("nobody") == 0
    assert read_status(record_dir / "nobody")["status"] == "finished"
    again = await resume_run("nobody", record_dir=str(record_dir))  # a finished run is not run again
    assert again == result


async def test_time_spent_waiting_for_an_answer_is_not_run_time(click_site, record_dir, session):
    def slow_person(payload):
        time.sleep(3.0)  # reading the question; the event loop is blocked, as at a real terminal prompt
        return {"decision": "approve"}

    began = time.monotonic()
    result = await run_goal(
        'click "Buy now"',
        _ctx(record_dir, "slow", interactive=True, max_seconds=60.0),
        start_url=click_site.url("shop.html?item=slow"),
        on_interrupt=slow_person,
        session=session,
    )
    wall = time.monotonic() - began
    assert result["terminal_type"] == "goal_satisfied" and click_site.count("slow") == 1
    assert result["elapsed_s"] <= wall - 2.5, (result["elapsed_s"], wall)
