"""A checkpoint with nothing scheduled and no terminal (a run cancelled inside a node) still resumes."""

from __future__ import annotations

from langgraph.checkpoint.sqlite.aio import AsyncSqliteSaver

from agent.context import Context
from agent.graph import build_graph
from agent.runner import resume_run, run_goal
from tests.support.factories import trace_records


async def test_a_stranded_run_resumes_from_a_fresh_observation(tmp_path, site_url):
    record_dir = tmp_path / "runs"
    ctx = Context(planner="rules", record_dir=str(record_dir), run_id="stranded", max_steps=1)
    first = await run_goal("log in as alice with password secret", ctx, start_url=site_url + "/login.html")
    assert first["terminal_reason"] == "max_steps"
    run_dir = record_dir / "stranded"
    # Strand it: clear the terminal and leave nothing scheduled, as a cancellation inside a node can.
    async with AsyncSqliteSaver.from_conn_string(str(run_dir / "checkpoints.sqlite")) as saver:
        graph = build_graph(checkpointer=saver)
        config = {"configurable": {"thread_id": "stranded"}}
        await graph.aupdate_state(
            config, {"terminal_type": None, "terminal_reason": None}, as_node="finalize"
        )
        assert not (await graph.aget_state(config)).next
    (run_dir / "result.json").unlink()
    result = await resume_run("stranded", record_dir=str(record_dir), overrides={"max_steps": 6})
    # it went on (the new browser lost the typed username, so the page may reject the login: any terminal)
    assert result["terminal_type"] in ("goal_satisfied", "goal_failed"), result
    assert result["steps"] > 1
    nodes = [record["node"] for record in trace_records(run_dir)]
    assert nodes.count("finalize") == 2 and nodes[nodes.index("finalize") + 1] == "observe"
