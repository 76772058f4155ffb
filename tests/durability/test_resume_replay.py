"""The process dies after a step's record was written but before its checkpoint (made deterministic with a
saver that fails that one checkpoint): the resumed run replays the step instead of acting again, so its new
browser must be brought to where the step left the old one - the page after the submit, the value typed.
"""

from __future__ import annotations

import pytest

from agent.runner import resume_run, run_goal
from tests.durability.helpers import assert_trace_intact
from tests.durability.login_site import GOAL, LoginSite
from tests.durability.test_crash_points import Crash, _crashing_saver
from tests.support.factories import offline_context


@pytest.fixture(scope="module")
def login_site():
    with LoginSite() as site:
        yield site


@pytest.mark.parametrize(
    ("steps_at_crash", "posts_before"), [(1, 0), (3, 1)], ids=["typed-user", "submitted"]
)
async def test_a_step_replayed_after_a_crash_brings_the_new_browser_to_where_it_left_off(
    login_site, record_dir, monkeypatch, steps_at_crash, posts_before
):
    import agent.runner as runner

    run_id = f"replay-{steps_at_crash}"
    real_saver = runner.RunSaver
    monkeypatch.setattr(runner, "RunSaver", _crashing_saver(steps_at_crash))
    ctx = offline_context(record_dir, run_id=run_id, max_seconds=90.0)
    with pytest.raises(Crash):
        await run_goal(GOAL, ctx, start_url=login_site.url(run_id))  # its own browser, closed by the crash
    assert login_site.posts(run_id) == posts_before

    monkeypatch.setattr(runner, "RunSaver", real_saver)
    result = await resume_run(run_id, record_dir=str(record_dir))
    assert (result["terminal_type"], result["terminal_reason"]) == ("goal_satisfied", "action_verified")
    assert result["resume_lost"] == [] and result["url"].split("?")[0].endswith("/account")
    assert login_site.posts(run_id) == 1
    records = assert_trace_intact(record_dir / run_id)
    [replayed] = [r for r in records if r["node"] == "execute" and r["step"] == steps_at_crash]
    assert records.count(replayed) == 1
