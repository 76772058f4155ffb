"""LangGraph's own cost of one action of our graph, with nodes that do nothing: the floor under the overhead.

One action is six graph steps (observe, goal_check, translate, safety, execute, progress). Here each is a node
that only counts, in the same shape as the runner's graph: the agent's typed state filled with a real run's last
values, each node routing itself (a ``Command``), the runner's checkpointer (:class:`agent.checkpointer.RunSaver`, SQLite) written
before each next step (``durability="sync"``) and the runner's stream mode (``updates``; progress events go
to the runner's listener directly). What is left is scheduling, state
copies for the routers, checkpoints and streaming: the part of a step no node of ours can remove.
"""

from __future__ import annotations

import sqlite3
import tempfile
import time
from pathlib import Path
from typing import Any, TypedDict

from langgraph.checkpoint.serde.jsonplus import JsonPlusSerializer
from langgraph.graph import END, START, StateGraph
from langgraph.types import Command

from agent.checkpointer import open_checkpointer
from agent.state import AgentState

#: The graph steps of one action of the agent's graph when the plan already holds the next step.
ACTION_NODES = ("observe", "goal_check", "translate", "safety", "execute", "progress")


def last_values(checkpoints: Path) -> dict[str, Any]:
    """The state channels of the last checkpoint in a run's ``checkpoints.sqlite``."""
    with sqlite3.connect(checkpoints) as conn:
        row = conn.execute("SELECT type, checkpoint FROM checkpoints ORDER BY rowid DESC LIMIT 1").fetchone()
    if row is None:
        return {}
    values = JsonPlusSerializer().loads_typed((row[0], row[1])).get("channel_values") or {}
    state_keys = set(AgentState.__annotations__)
    return {k: v for k, v in values.items() if k in state_keys} | {"terminal_type": None}


class CounterState(TypedDict, total=False):
    """The least state a graph can have: the floor of LangGraph itself, whatever a state holds."""

    seq: int


def _empty_graph(last_seq: int, schema: type = AgentState) -> StateGraph:
    """The action's six nodes in a cycle, each choosing its way on over the state it leaves, as the runner's
    graph does (a ``Command`` with the update: see ``agent.graph``)."""
    builder = StateGraph(schema)
    for here, there in zip(ACTION_NODES, ACTION_NODES[1:] + ACTION_NODES[:1], strict=True):

        async def count(state: dict[str, Any], there: str = there) -> Command:
            seq = int(state.get("seq") or 0) + 1
            return Command(update={"seq": seq}, goto=END if seq >= last_seq else there)

        builder.add_node(here, count, destinations=(there, END))
    builder.add_edge(START, ACTION_NODES[0])
    return builder


async def floor_per_action(values: dict[str, Any], actions: int = 10, *, least_state: bool = False) -> float:
    """Wall time (ms) per action of ``actions`` actions of the empty graph, started from ``values`` (with
    ``least_state``: from their step count alone, in a state of that one key)."""
    first_seq = int(values.get("seq") or 0)
    if least_state:
        values = {"seq": first_seq}
    graph_builder = _empty_graph(
        first_seq + len(ACTION_NODES) * actions, CounterState if least_state else AgentState
    )
    with tempfile.TemporaryDirectory(prefix="wayfinder-floor-") as tmp:
        async with open_checkpointer(Path(tmp) / "checkpoints.sqlite") as saver:
            graph = graph_builder.compile(checkpointer=saver)
            config = {"configurable": {"thread_id": "floor"}, "recursion_limit": 10 * actions + 10}
            steps = 0
            started = time.perf_counter()
            async for part in graph.astream(
                values, config, stream_mode=["updates"], version="v2", durability="sync"
            ):
                steps += part["type"] == "updates"
            took = (time.perf_counter() - started) * 1000 / actions
    if steps != len(ACTION_NODES) * actions:  # a floor that skipped steps would flatter the graph
        raise RuntimeError(f"the empty graph ran {steps} steps, not {len(ACTION_NODES) * actions}")
    return took
