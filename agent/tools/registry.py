"""Loaded MCP tools by run id (like browsers, never in graph state: the adapter's tools are not data)."""

from __future__ import annotations

from agent.tools.mcp import McpTools

_loaded: dict[str, McpTools] = {}


def get(run_id: str) -> McpTools | None:
    return _loaded.get(run_id)


def put(run_id: str, tools: McpTools) -> None:
    _loaded[run_id] = tools


def drop(run_id: str | None) -> None:
    """Forget a finished run's tools (the adapter keeps no session open between calls)."""
    if run_id:
        _loaded.pop(run_id, None)
