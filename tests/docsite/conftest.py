"""The documentation-like fixture site on loopback, and a helper that runs a goal on it with the offline planner
and returns the result together with the evidence the planner recorded (which section and URL it read)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from langgraph.checkpoint.sqlite.aio import AsyncSqliteSaver

from agent.context import Context
from agent.graph import build_graph
from agent.runner import run_goal
from agent.util.static_server import StaticServer

DOCSITE_ROOT = Path(__file__).parent


@pytest.fixture(scope="session")
def docsite_url() -> Iterator[str]:
    with StaticServer(DOCSITE_ROOT) as server:
        yield server.base_url


async def final_state(result: dict[str, Any]) -> dict[str, Any]:
    """The run's last checkpointed state, read back from its own checkpoints.sqlite."""
    path = Path(result["run_dir"]) / "checkpoints.sqlite"
    async with AsyncSqliteSaver.from_conn_string(str(path)) as saver:
        graph = build_graph(checkpointer=saver)
        snapshot = await graph.aget_state({"configurable": {"thread_id": result["run_id"]}})
        return dict(snapshot.values or {})


@pytest.fixture
def run_docs(session, docsite_url, tmp_path):
    """Run a goal from the docs' start page; returns (result, evidence list of the last planner output)."""

    async def go(goal: str, path: str = "/index.html", **overrides: Any):
        values: dict[str, Any] = {
            "planner": "rules",
            "record_dir": str(tmp_path / "runs"),
            "max_steps": 30,
            "max_seconds": 90.0,
            "action_timeout_s": 6.0,
            "navigation_timeout_s": 8.0,
            # the web search engine is never the way here: it points at a page that does not exist
            "search_url_template": docsite_url + "/no-such-engine?q={query}",
        }
        values.update(overrides)
        result = await run_goal(goal, Context(**values), start_url=docsite_url + path, session=session)
        state = await final_state(result)
        evidence = list((state.get("planner_output") or {}).get("evidence") or [])
        return result, evidence

    return go
