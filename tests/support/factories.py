"""Test data built in one place: the settings of a real offline run or of a model on the scripted loopback
server, a model judge's verdict, and the trace records a run leaves.

The tests' runs share one shape: the rules planner, records under the test's tmp dir, bounds short enough for a
test and long enough for a loaded machine. Each test passes only what it changes.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from agent.context import Context

#: The bounds of an offline run in the tests (a test overrides what it needs, e.g. more steps).
OFFLINE_RUN: dict[str, Any] = {
    "planner": "rules",
    "max_steps": 10,
    "max_seconds": 60.0,
    "action_timeout_s": 6.0,
    "navigation_timeout_s": 8.0,
}


def offline_settings(record_dir: Path | str, **overrides: Any) -> dict[str, Any]:
    """Settings (a plain mapping, as Studio's form sends them) of an offline run recording under ``record_dir``."""
    return {**OFFLINE_RUN, "record_dir": str(record_dir), **overrides}


def offline_context(record_dir: Path | str, **overrides: Any) -> Context:
    """The Context of an offline run recording under ``record_dir``."""
    return Context(**offline_settings(record_dir, **overrides))


def scripted_model_settings(base_url: str, **overrides: Any) -> dict[str, Any]:
    """Settings of a model on the scripted OpenAI-compatible server at ``base_url``: short timeouts, one quick
    retry (a test that fails the model fails fast)."""
    return {
        "model": "fake-model",
        "base_url": base_url,
        "api_key": "test-key",
        "model_timeout_s": 2.0,
        "model_max_retries": 1,
        "model_retry_backoff_s": 0.01,
        **overrides,
    }


def judge_verdict(satisfied: bool, reason: str, *, part: str, part_reason: str) -> dict[str, Any]:
    """A model judge's reply about one goal part (the judge schema's shape)."""
    return {
        "parts": [{"part": part, "satisfied": satisfied, "reason": part_reason}],
        "satisfied": satisfied,
        "reason": reason,
    }


def trace_records(run_dir: Path | str) -> list[dict[str, Any]]:
    """Every record of the run's trace.jsonl, strictly parsed ([] when the run wrote none)."""
    path = Path(run_dir) / "trace.jsonl"
    if not path.exists():
        return []
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]
