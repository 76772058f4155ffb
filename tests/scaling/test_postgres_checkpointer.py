"""The graph on a Postgres checkpointer, as LangGraph Server keeps it: a real PostgreSQL server started for the
test (``pgserver``, the server binaries shipped in a wheel; no root, no system package), the graph compiled
with ``langgraph-checkpoint-postgres``'s saver, a real offline run paused at a risky action (confirm), its
browser closed and its connection dropped; then a new connection (as another server worker would open) sees
the question in Postgres and resumes the run with the approval: the action runs exactly once and the run ends
satisfied. docs/SCALING.md gives the recipe this checks."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator

import pytest
from langgraph.types import Command

from agent import build_graph
from agent.browser import registry
from tests.embedding.site import account_site
from tests.support.factories import offline_context

pgserver = pytest.importorskip(
    "pgserver",
    reason="pgserver (PostgreSQL in a wheel, in the dev extra) is not installed: pip install -e '.[dev]'",
)
postgres_saver = pytest.importorskip(
    "langgraph.checkpoint.postgres.aio",
    reason="langgraph-checkpoint-postgres (the postgres extra, in dev) is not installed: pip install -e '.[dev]'",
)


@pytest.fixture(scope="module")
def postgres_uri(tmp_path_factory) -> Iterator[str]:
    """A PostgreSQL server of the test's own (a fresh data directory, a Unix socket), stopped afterwards."""
    data = tmp_path_factory.mktemp("pgdata")
    try:
        server = pgserver.get_server(data, cleanup_mode="stop")
    except Exception as exc:  # noqa: BLE001 - the reason goes into the skip message
        pytest.skip(f"PostgreSQL could not be started here with pgserver: {exc}")
    try:
        yield server.get_uri()
    finally:
        server.cleanup()


async def test_a_run_paused_in_postgres_resumes_from_another_connection(postgres_uri, tmp_path):
    saver_type = postgres_saver.AsyncPostgresSaver
    config = {"configurable": {"thread_id": "pg-thread-1"}}
    ctx = offline_context(tmp_path / "runs", interactive=True, confirm_policy="ask")
    with account_site() as site:
        try:
            async with saver_type.from_conn_string(postgres_uri) as saver:
                await saver.setup()  # creates the checkpoint tables (the server does this itself)
                graph = build_graph(checkpointer=saver)
                goal = {"goal": "click Delete account", "start_url": site.url}
                paused_at = await graph.ainvoke(goal, config, context=ctx)
                asked = [item.value for item in paused_at.get("__interrupt__", [])]
                assert len(asked) == 1 and asked[0]["type"] == "confirm", paused_at
                assert "Delete account" in asked[0]["target"] and site.deletions == 0
            await registry.close("pg-thread-1")  # the worker that ran it is gone, and so is its browser

            async with saver_type.from_conn_string(postgres_uri) as saver:
                graph = build_graph(checkpointer=saver)
                paused = await graph.aget_state(config)
                assert paused.next and paused.interrupts[0].value["type"] == "confirm"  # read from Postgres
                async with saver.conn.cursor() as cursor:
                    await cursor.execute(
                        "SELECT count(*) FROM checkpoints WHERE thread_id = %s", ("pg-thread-1",)
                    )
                    stored = (await cursor.fetchone())["count"]
                assert stored >= 5  # one checkpoint a step, all in Postgres

                values = await graph.ainvoke(Command(resume={"decision": "approve"}), config, context=ctx)
                assert (values["terminal_type"], values["terminal_reason"]) == (
                    "goal_satisfied",
                    "action_verified",
                ), values.get("stop_reason")
                for _ in range(50):  # the page's report of the click reaches the server
                    if site.deletions:
                        break
                    await asyncio.sleep(0.1)
                assert site.deletions == 1  # approved once, run once
                assert not (await graph.aget_state(config)).next
        finally:
            await registry.close("pg-thread-1")
    assert (tmp_path / "runs" / "pg-thread-1" / "result.json").is_file()
