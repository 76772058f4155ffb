"""confirm: a person approves, denies or edits a risky action before it runs (see :mod:`agent.nodes.approval`)."""

from __future__ import annotations

from typing import Any

from agent.context import Context
from agent.nodes.approval import decide
from agent.nodes.base import graph_node, parse_decision
from agent.state import AgentState

__all__ = ["confirm", "parse_decision"]


@graph_node("confirm")
async def confirm(state: AgentState, ctx: Context) -> dict[str, Any]:
    return decide(state, ctx)
