"""A fresh tracker (its own SQLite file) per test on loopback, and a helper that runs a goal on it offline."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from agent.runner import run_goal
from agent.util.static_server import StaticServer
from tests.planning.records.tracker import Tracker
from tests.support.factories import offline_context, trace_records


@pytest.fixture
def tracker(tmp_path) -> Iterator[tuple[Tracker, str]]:
    app = Tracker(tmp_path / "tracker.sqlite")
    with StaticServer(tmp_path, routes=app.routes()) as server:
        yield app, server.base_url


@pytest.fixture
def run_tracker(session, tracker, tmp_path):
    """Run a goal from the tracker's start page (``path``); returns (result, trace records)."""
    app, base = tracker

    async def go(goal: str, path: str = "/", **overrides):
        settings = {"max_steps": 30, "max_seconds": 90.0, "confirm_policy": "auto", **overrides}
        ctx = offline_context(tmp_path / "runs", **settings)
        await session.set_domain_policy([], [])
        result = await run_goal(goal, ctx, start_url=base + path, session=session)
        return result, trace_records(result["run_dir"])

    return go
