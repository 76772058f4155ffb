"""Whole offline runs on small widget pages written for these tests (tests/planning/widgets), served on loopback."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest

from agent.context import Context
from agent.runner import run_goal
from agent.util.static_server import StaticServer

WIDGETS = Path(__file__).parent / "widgets"


@pytest.fixture(scope="session")
def widgets_url() -> Iterator[str]:
    with StaticServer(WIDGETS) as server:
        yield server.base_url


@pytest.fixture
def run_widget(session, widgets_url, tmp_path):
    """Run a goal with the offline planner on one widget page; returns (result, trace records)."""

    async def go(goal: str, page: str, **overrides):
        values = {
            "planner": "rules",
            "record_dir": str(tmp_path / "runs"),
            "max_steps": 10,
            "max_seconds": 40.0,
            "action_timeout_s": 5.0,
            "navigation_timeout_s": 8.0,
        }
        values.update(overrides)
        await session.set_domain_policy([], [])
        result = await run_goal(goal, Context(**values), start_url=f"{widgets_url}/{page}", session=session)
        trace = Path(result["run_dir"]) / "trace.jsonl"
        records = [json.loads(line) for line in trace.read_text().splitlines()] if trace.exists() else []
        return result, records

    return go
