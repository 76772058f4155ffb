"""Fixtures for whole-graph runs: a Context for the offline planner and a helper that runs a goal."""

from __future__ import annotations

import pytest

from agent.context import Context
from agent.runner import run_goal
from tests.support.factories import offline_context, trace_records


@pytest.fixture
def make_ctx(tmp_path, site_url):
    def make(**overrides) -> Context:
        search = site_url + "/search.html?q={query}"
        return offline_context(
            tmp_path / "runs", **{"max_steps": 12, "search_url_template": search, **overrides}
        )

    return make


@pytest.fixture
def run(session, site_url, make_ctx):
    """Run a goal on a fixture page in the shared test browser; returns (result, trace records)."""

    async def go(goal: str, path: str | None = "/index.html", **ctx_overrides):
        ctx = make_ctx(**ctx_overrides)
        start = site_url + path if path else None
        result = await run_goal(goal, ctx, start_url=start, session=session)
        return result, trace_records(result["run_dir"])

    return go
