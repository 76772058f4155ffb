"""Fixtures for whole-graph runs: a Context for the offline planner and a helper that runs a goal."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from agent.context import Context
from agent.runner import run_goal


@pytest.fixture
def make_ctx(tmp_path, site_url):
    def make(**overrides) -> Context:
        values = {
            "planner": "rules",
            "record_dir": str(tmp_path / "runs"),
            "max_steps": 12,
            "max_seconds": 60.0,
            "search_url_template": site_url + "/search.html?q={query}",
            "action_timeout_s": 6.0,
            "navigation_timeout_s": 8.0,
        }
        values.update(overrides)
        return Context(**values)

    return make


@pytest.fixture
def run(session, site_url, make_ctx):
    """Run a goal on a fixture page in the shared test browser; returns (result, trace records)."""

    async def go(goal: str, path: str | None = "/index.html", **ctx_overrides):
        ctx = make_ctx(**ctx_overrides)
        start = site_url + path if path else None
        result = await run_goal(goal, ctx, start_url=start, session=session)
        trace_path = Path(result["run_dir"]) / "trace.jsonl"
        records = (
            [json.loads(line) for line in trace_path.read_text().splitlines()] if trace_path.exists() else []
        )
        return result, records

    return go
