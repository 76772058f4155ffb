"""Wayfinder embedded in another LangGraph app: as a subgraph node with shared keys, and from a wrapper node.

The parent is an ordinary ``StateGraph`` with its own keys (``summary``), compiled with its own checkpointer;
the Wayfinder graph is compiled without one (the parent's serves both). The parent apps are the ones under
examples/, which docs/EMBEDDING.md includes.
"""

from __future__ import annotations

import subprocess
import sys

from langgraph.checkpoint.memory import InMemorySaver
from langgraph.checkpoint.sqlite.aio import AsyncSqliteSaver
from langgraph.graph import END, START, StateGraph
from langgraph.types import Command

from agent import Context, build_graph
from agent.browser import registry
from examples.subgraph_app import AppState, build_app  # the parent apps docs/EMBEDDING.md includes
from examples.wrapper_node_interrupt import build_ticket_app
from tests.embedding.site import account_site
from tests.support.factories import offline_context


# --- tests ---------------------------------------------------------------------------------------------------
def _ctx(tmp_path, **overrides) -> Context:
    return offline_context(tmp_path / "runs", **overrides)


def test_import_agent_is_cheap_and_exports_the_api():
    code = (
        "import sys, agent\n"
        "assert 'langgraph' not in sys.modules and 'playwright' not in sys.modules, 'import agent is not lazy'\n"
        "from agent import Context, build_graph, run_goal, resume_run\n"
        "assert callable(build_graph) and callable(run_goal) and callable(resume_run) and Context().planner\n"
        "assert 'playwright' not in sys.modules\n"
        "import runpy\n"
        "sys.argv = ['agent', '--help']\n"
        "try:\n"
        "    runpy.run_module('agent', run_name='__main__')  # python -m agent still works\n"
        "except SystemExit as exc:\n"
        "    assert exc.code == 0, exc.code\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert "usage:" in done.stdout


async def test_a_subgraph_run_returns_its_outcome_and_streams_its_events(tmp_path, site_url):
    async with AsyncSqliteSaver.from_conn_string(str(tmp_path / "app.sqlite")) as checkpointer:
        app = build_app(checkpointer)
        config = {"configurable": {"thread_id": "app-login"}}
        parts = [
            part
            async for part in app.astream(
                {"goal": "log in as alice with password secret", "start_url": site_url + "/login.html"},
                config,
                context=_ctx(tmp_path),
                stream_mode=["updates", "custom"],
                subgraphs=True,
                version="v2",
            )
        ]
        state = await app.aget_state(config)

    # The child's custom events reach the parent's stream (with subgraphs=True), tagged with the child's ns.
    steps = [p["data"] for p in parts if p["type"] == "custom" and p["data"].get("event") == "step"]
    assert [(s["action"], s["status"]) for s in steps] == [
        ("type", "success"),
        ("type", "success"),
        ("click", "success"),
    ]
    assert all(p["ns"] and p["ns"][0].startswith("browse:") for p in parts if p["type"] == "custom")
    # The parent's own updates: the child's outcome, then the parent's next node.
    parent_updates = [p["data"] for p in parts if p["type"] == "updates" and p["ns"] == ()]
    assert [next(iter(u)) for u in parent_updates] == ["browse", "summarize"]

    values = state.values
    assert (values["terminal_type"], values["terminal_reason"]) == ("goal_satisfied", "action_verified")
    assert values["summary"].startswith("done: ") and "Welcome, alice" in values["summary"]
    assert "observation" not in values  # only the keys the parent declares come back
    # The run id is the parent's thread id plus a tag of the parent's task; the records are under it.
    assert values["run_id"].startswith("app-login.")
    assert (tmp_path / "runs" / values["run_id"] / "result.json").is_file()


async def test_a_child_interrupt_surfaces_to_the_parent_and_resumes_once(tmp_path):
    app = build_app(InMemorySaver())
    config = {"configurable": {"thread_id": "app-delete"}}
    ctx = _ctx(tmp_path, interactive=True, confirm_policy="ask", keep_browser_open=True)
    with account_site() as site:
        try:
            parts = [
                part
                async for part in app.astream(
                    {"goal": "click Delete account", "start_url": site.url},
                    config,
                    context=ctx,
                    stream_mode=["updates", "custom"],
                    version="v2",
                )
            ]
            interrupts = [
                p["data"]["__interrupt__"]
                for p in parts
                if p["type"] == "updates" and "__interrupt__" in p["data"]
            ]
            assert len(interrupts) == 1
            question = interrupts[0][0].value
            assert question["type"] == "confirm" and "Delete account" in question["target"]
            paused = await app.aget_state(config)
            assert paused.next == ("browse",) and paused.interrupts[0].value["type"] == "confirm"
            assert site.deletions == 0

            parts = [
                part
                async for part in app.astream(
                    Command(resume={"decision": "approve"}),
                    config,
                    context=ctx,
                    stream_mode=["updates", "custom"],
                    version="v2",
                )
            ]
            assert not [p for p in parts if p["type"] == "updates" and "__interrupt__" in p["data"]]
            values = (await app.aget_state(config)).values
            assert (values["terminal_type"], values["terminal_reason"]) == (
                "goal_satisfied",
                "action_verified",
            )
            assert "Account deleted (1)" in values["summary"]

            # The page's own state: the click ran exactly once (keep_browser_open left the page to look at).
            page = registry.get(values["run_id"]).page
            assert await page.evaluate("document.body.dataset.deletions") == "1"
            assert site.deletions == 1
        finally:
            for run_id in registry.run_ids():
                if run_id.startswith("app-delete."):
                    await registry.close(run_id)


async def test_a_wrapper_node_maps_its_own_keys_and_a_denial_never_clicks(tmp_path):
    app = build_ticket_app(InMemorySaver())
    config = {"configurable": {"thread_id": "ticket-1"}}
    ctx = _ctx(tmp_path, interactive=True, confirm_policy="ask")
    with account_site() as site:
        result = await app.ainvoke({"task": "click Delete account", "page": site.url}, config, context=ctx)
        assert result["__interrupt__"][0].value["type"] == "confirm"
        result = await app.ainvoke(Command(resume={"decision": "deny"}), config, context=ctx)
        assert result["outcome"] == "goal_failed/user_declined"
        assert site.deletions == 0
    assert not [r for r in registry.run_ids() if r.startswith("ticket-1")]  # the run ended: browser closed


async def test_two_runs_in_one_parent_thread_each_act_and_keep_their_own_records(tmp_path):
    builder = StateGraph(AppState, context_schema=Context)
    wayfinder = build_graph()
    builder.add_node("first", wayfinder)
    builder.add_node("again", wayfinder)
    builder.add_edge(START, "first")
    builder.add_edge("first", "again")
    builder.add_edge("again", END)
    app = builder.compile(checkpointer=InMemorySaver())
    with account_site() as site:
        values = await app.ainvoke(
            {"goal": "click Delete account", "start_url": site.url},
            {"configurable": {"thread_id": "twice"}},
            context=_ctx(tmp_path, confirm_policy="auto"),
        )
        assert values["terminal_type"] == "goal_satisfied"
        assert site.deletions == 2  # the second run clicked too (it did not replay the first run's trace)
    run_dirs = sorted(p.name for p in (tmp_path / "runs").iterdir())
    assert len(run_dirs) == 2 and all(name.startswith("twice.") for name in run_dirs)
