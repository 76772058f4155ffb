"""Wayfinder: a browser agent. A LangGraph state machine that carries out plain-language goals in Chromium.

The public API, imported lazily so that ``import agent`` loads neither LangGraph nor Playwright::

    from agent import Context, build_graph, run_goal

- :class:`Context` (``agent.context``): every run-time setting; the graph's ``context_schema``.
- :func:`build_graph` (``agent.graph``): the compiled graph, to run yourself or embed as a node of your own
  LangGraph app (see docs/EMBEDDING.md).
- :func:`run_goal` / :func:`resume_run` (``agent.runner``): carry out a goal (or continue a run) with
  checkpointing, interrupts and records handled for you.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

__all__ = ["Context", "build_graph", "resume_run", "run_goal"]

_EXPORTS = {
    "Context": "agent.context",
    "build_graph": "agent.graph",
    "run_goal": "agent.runner",
    "resume_run": "agent.runner",
}

if TYPE_CHECKING:
    from agent.context import Context
    from agent.graph import build_graph
    from agent.runner import resume_run, run_goal


def __getattr__(name: str) -> Any:
    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module 'agent' has no attribute {name!r}")
    value = getattr(importlib.import_module(module), name)
    globals()[name] = value  # later look-ups skip this function
    return value


def __dir__() -> list[str]:
    return sorted({*globals(), *__all__})
