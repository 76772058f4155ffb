"""A thread forked in an embedding app (``update_state`` on an earlier checkpoint, then run from it) acts again in
records of its own: it asks again before the risky click, the click really runs again (the page's server counts
it), and the original run's records stay as they were. A resume that sends no settings uses the run's own."""

from __future__ import annotations

from pathlib import Path

import pytest
from langgraph.checkpoint.memory import InMemorySaver
from langgraph.types import Command

from agent import build_graph
from tests.embedding.site import account_site
from tests.support.factories import offline_context

GOAL = "click Delete account"


@pytest.mark.parametrize("fork_before", ["execute", "confirm"])
async def test_a_fork_asks_again_acts_again_and_leaves_the_original_records_alone(fork_before, tmp_path):
    graph = build_graph(checkpointer=InMemorySaver())
    config = {"configurable": {"thread_id": "shop"}}
    ctx = offline_context(tmp_path / "runs", interactive=True, confirm_policy="ask")
    with account_site() as site:
        paused = await graph.ainvoke({"goal": GOAL, "start_url": site.url}, config, context=ctx)
        assert paused["__interrupt__"][0].value["type"] == "confirm"
        done = await graph.ainvoke(Command(resume={"decision": "approve"}), config)  # no settings sent
        assert done["terminal_type"] == "goal_satisfied" and site.deletions == 1
        original_dir = Path(done["run_dir"])
        original = {p.name: p.read_bytes() for p in original_dir.glob("*.json*")}

        history = [h async for h in graph.aget_state_history(config)]
        before = next(h for h in history if h.next == (fork_before,))
        fork_config = await graph.aupdate_state(before.config, {"hints": ["forked by the test"]})
        paused = await graph.ainvoke(None, fork_config)
        assert paused["__interrupt__"][0].value["type"] == "confirm"  # the original's approval does not count
        assert site.deletions == 1
        done = await graph.ainvoke(Command(resume={"decision": "approve"}), config)

    assert done["terminal_type"] == "goal_satisfied" and site.deletions == 2
    fork_dir = Path(done["run_dir"])
    assert fork_dir.parent == original_dir.parent and fork_dir.name.startswith("shop.from-")
    assert (fork_dir / "result.json").is_file()
    assert {p.name: p.read_bytes() for p in original_dir.glob("*.json*")} == original


async def test_a_fork_after_the_action_does_not_claim_the_originals_effect_as_its_own(tmp_path):
    """Forked after the click ran (before its progress was judged), the fork's own browser never saw the click's
    effect: the original's recorded step is no proof for the fork, which ends unverified saying so, and nothing
    is clicked again behind the user's back."""
    graph = build_graph(checkpointer=InMemorySaver())
    config = {"configurable": {"thread_id": "acct"}}
    ctx = offline_context(tmp_path / "runs", confirm_policy="auto")
    with account_site() as site:
        done = await graph.ainvoke({"goal": GOAL, "start_url": site.url}, config, context=ctx)
        assert done["terminal_type"] == "goal_satisfied" and site.deletions == 1
        history = [h async for h in graph.aget_state_history(config)]
        after = next(h for h in history if h.next == ("progress",))
        fork_config = await graph.aupdate_state(after.config, {"hints": ["forked by the test"]})
        forked = await graph.ainvoke(None, fork_config, context=ctx)

    assert site.deletions == 1
    assert (forked["terminal_type"], forked["terminal_reason"]) == ("goal_failed", "unverified")
    assert "forked from" in forked["stop_reason"] and "step 1" in forked["stop_reason"]
    assert forked["final_answer"] is None and forked["goal_evidence"] == []
    assert Path(forked["run_dir"]).name.startswith("acct.from-")
