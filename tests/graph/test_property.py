"""Property: whatever the planner proposes and however the actions turn out, the stage never goes back and
every run ends with exactly one valid terminal within its budget.

The planner here draws plans and actions at random (hypothesis); the graph, the browser and the pages are
real, so the outcomes (clicks on stale or missing ids, blocked URLs, bad keys) are real outcomes.
"""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from agent import runtime
from agent.runner import run_goal
from agent.stages import STAGES
from agent.terminals import TERMINAL_REASONS
from tests.graph.scripted import RandomBackend
from tests.support.factories import trace_records

MAX_STEPS = 4


@pytest.mark.timeout(400)
@settings(max_examples=10, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data(), page=st.sampled_from(["/login.html", "/select.html", "/dialogs.html", "/store.html"]))
async def test_random_outcomes_keep_the_fsm_sound(data, page, session, site_url, make_ctx, monkeypatch):
    monkeypatch.setattr(runtime, "backend_for", lambda ctx: RandomBackend(data.draw, st))
    await session.reset()
    ctx = make_ctx(
        max_steps=MAX_STEPS,
        max_planner_calls=6,
        max_failures=5,
        max_seconds=40.0,
        max_auto_scrolls=1,
        action_timeout_s=2.0,
        navigation_timeout_s=3.0,
        confirm_policy=data.draw(st.sampled_from(["ask", "auto", "deny"])),
    )
    result = await run_goal(
        "log in as alice with password secret and tell me what it says",
        ctx,
        start_url=site_url + page,
        session=session,
    )

    assert result["terminal_type"] in {"goal_satisfied", "goal_failed", "loop_stuck", "budget_exhausted"}
    assert TERMINAL_REASONS[result["terminal_reason"]] == result["terminal_type"]
    assert result["steps"] <= MAX_STEPS
    records = trace_records(result["run_dir"])
    assert records, "the run wrote no trace"
    stages = [STAGES.index(r["stage"]) for r in records if r.get("stage") in STAGES]
    assert stages == sorted(stages)
    assert [r["seq"] for r in records] == list(range(1, len(records) + 1))
    assert sum(1 for r in records if r["node"] == "planner") <= 6
    assert records[-1]["node"] == "finalize"
    if result["terminal_type"] == "goal_satisfied":
        assert result["stage"] == "done"
