"""Fixtures for the trap pages: their own loopback site and whole offline-planner runs in the shared browser."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest

from agent.runner import run_goal
from agent.util.static_server import StaticServer
from tests.support.factories import offline_context, trace_records
from tests.trust.site import PAGES, ROUTES


@pytest.fixture(scope="session")
def trap_url() -> Iterator[str]:
    """Base URL of the trap site on 127.0.0.1."""
    with StaticServer(PAGES, routes=ROUTES) as server:
        yield server.base_url


@pytest.fixture
def trap_run(session, trap_url, tmp_path):
    """Run a goal from a trap page with the offline planner; returns (result.json's object, trace records)."""

    async def go(goal: str, path: str, **overrides):
        values = {
            "action_timeout_s": 5.0,
            "search_url_template": trap_url + "/help-search.html?q={query}",
            "allowed_domains": ["127.0.0.1"],
            "confirm_policy": "auto",  # let risky clicks (send, subscribe) run: the trap is what follows
            **overrides,
        }
        result = await run_goal(
            goal, offline_context(tmp_path / "runs", **values), start_url=trap_url + path, session=session
        )
        run_dir = Path(result["run_dir"])
        on_disk = json.loads((run_dir / "result.json").read_text())
        assert on_disk["terminal_type"] == result["terminal_type"]
        return on_disk, trace_records(run_dir)

    return go
