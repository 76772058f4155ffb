"""Whole offline runs on small widget pages written for these tests (tests/planning/widgets), served on loopback."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from agent.runner import run_goal
from agent.util.static_server import StaticServer
from tests.support.factories import offline_context, trace_records

WIDGETS = Path(__file__).parent / "widgets"


@pytest.fixture(scope="session")
def widgets_url() -> Iterator[str]:
    with StaticServer(WIDGETS) as server:
        yield server.base_url


@pytest.fixture
def run_widget(session, widgets_url, tmp_path):
    """Run a goal with the offline planner on one widget page; returns (result, trace records)."""

    async def go(goal: str, page: str, **overrides):
        ctx = offline_context(
            tmp_path / "runs", **{"max_seconds": 40.0, "action_timeout_s": 5.0, **overrides}
        )
        await session.set_domain_policy([], [])
        result = await run_goal(goal, ctx, start_url=f"{widgets_url}/{page}", session=session)
        return result, trace_records(result["run_dir"])

    return go
