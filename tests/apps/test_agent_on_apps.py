"""The agent on both applications, a few goals of each kind (the bench runs them all): whatever it manages,
it never claims a goal the database check refutes."""

from __future__ import annotations

import pytest

from agent.terminals import TERMINAL_TYPES
from benchmarks.apps import AGENT_SETTINGS, run_app_goal
from tests.apps.shopdesk.goals import SMOKE_GOALS as SHOPDESK_SMOKE
from tests.apps.tracker.goals import SMOKE_GOALS as TRACKER_SMOKE
from tests.support.factories import offline_context


def _ctx(tmp_path):
    return offline_context(tmp_path / "runs", **AGENT_SETTINGS)


async def _no_false_claim(session, tmp_path, app, name):
    row = await run_app_goal(session, _ctx(tmp_path), app, app.goal(name))
    assert row["error"] is None, row
    assert row["terminal_type"] in TERMINAL_TYPES, row
    assert not row["false_claim"], f"claimed {name} but the database says: {row['problems']}"
    if row["claimed"] and row["kind"] == "action":
        assert row["evidence"], "a claimed change must carry what was read back as evidence"


@pytest.mark.timeout(300)
@pytest.mark.parametrize("name", TRACKER_SMOKE)
async def test_tracker_goal_is_never_falsely_claimed(session, tmp_path, tracker, name):
    await _no_false_claim(session, tmp_path, tracker, name)


@pytest.mark.timeout(300)
@pytest.mark.parametrize("name", SHOPDESK_SMOKE)
async def test_shopdesk_goal_is_never_falsely_claimed(session, tmp_path, shopdesk, name):
    await _no_false_claim(session, tmp_path, shopdesk, name)
