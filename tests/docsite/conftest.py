"""The documentation-like fixture site on loopback, and a helper that runs a goal on it with the offline planner
and returns the result together with the evidence the planner recorded (which section and URL it read)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from langgraph.checkpoint.sqlite.aio import AsyncSqliteSaver

from agent.graph import build_graph
from agent.runner import run_goal
from agent.util.static_server import StaticServer
from tests.site_routes import shell_routes
from tests.support.factories import offline_context

DOCSITE_ROOT = Path(__file__).parent

#: Head, header and navigation of every page, written once: a page file starts with
#: ``<!-- shell: title="..." base="../" -->`` (``base`` leads back to the site root) and holds the rest.
DOCSITE_SHELL = """<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>{title}</title>
<link rel="stylesheet" href="{base}style.css">
</head>
<body>
<header>
  <a class="brand" href="{base}index.html">Tidewater</a>
  <nav aria-label="Main">
    <a href="{base}guide/getting-started.html">Guide</a>
    <a href="{base}reference.html">Reference</a>
    <a href="{base}faq.html">FAQ</a>
    <a href="{base}releases.html">Releases</a>
    <a href="{base}plugins.html">Plugins</a>
    <a href="{base}changelog.html">Changelog</a>
  </nav>
  <form action="{base}search.html" method="get" role="search">
    <input type="search" name="q" placeholder="Search the docs" aria-label="Search the docs">
    <button type="submit">Search</button>
  </form>
</header>
<main>
{content}</body>
</html>
"""


@pytest.fixture(scope="session")
def docsite_url() -> Iterator[str]:
    with StaticServer(DOCSITE_ROOT, routes=shell_routes(DOCSITE_ROOT, DOCSITE_SHELL)) as server:
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
        # the web search engine is never the way here: it points at a page that does not exist
        search = docsite_url + "/no-such-engine?q={query}"
        settings = {"max_steps": 30, "max_seconds": 90.0, "search_url_template": search, **overrides}
        ctx = offline_context(tmp_path / "runs", **settings)
        result = await run_goal(goal, ctx, start_url=docsite_url + path, session=session)
        state = await final_state(result)
        evidence = list((state.get("planner_output") or {}).get("evidence") or [])
        return result, evidence

    return go
