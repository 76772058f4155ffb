"""The agent graph: observe -> (loop_mitigation, when a loop is detected) -> goal_check -> planner -> translate ->
safety -> (confirm) -> execute -> progress -> observe ..., with error_retry and ask_user, ending in finalize.

``build_graph()`` returns a compiled graph for embedding (pass your own checkpointer for interrupts);
module-level ``graph`` is compiled without a checkpointer, as LangGraph Studio / ``langgraph dev`` require.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from langchain_core.runnables import Runnable, RunnableConfig
from langgraph.graph import END, START, StateGraph
from langgraph.runtime import Runtime
from langgraph.types import Command

from agent.context import Context
from agent.nodes.ask_user import ask_user
from agent.nodes.confirm import confirm
from agent.nodes.error_retry import error_retry
from agent.nodes.execute import execute
from agent.nodes.finalize import finalize
from agent.nodes.goal_check import goal_check
from agent.nodes.loop_mitigation import loop_mitigation
from agent.nodes.observe import observe
from agent.nodes.planner import planner
from agent.nodes.progress import progress
from agent.nodes.safety import safety
from agent.nodes.start import start
from agent.nodes.translate import translate
from agent.state import AgentState, InputState, OutputState

#: Graph steps one browser action costs at most (observe ... progress, plus retries and mitigation).
NODES_PER_STEP = 12


def recursion_limit_for(max_steps: int) -> int:
    """A LangGraph recursion limit that backs the step budget without ever cutting a legitimate run short."""
    return (max_steps + 3) * NODES_PER_STEP + 50


def _ended(state: AgentState) -> bool:
    return bool(state.get("terminal_type"))


def _unless_ended(next_node: str) -> Callable[[AgentState], str]:
    """The router of a node with one way on: ``next_node``, or ``finalize`` once the run has a terminal."""

    def route(state: AgentState) -> str:
        return "finalize" if _ended(state) else next_node

    route.__name__ = f"to_{next_node}"
    return route


after_start = _unless_ended("observe")


def after_observe(state: AgentState) -> str:
    """loop_mitigation only when observe found the agent repeating itself or the page frozen: otherwise it has
    nothing to do, and a graph step that does nothing still costs a checkpoint."""
    if _ended(state):
        return "finalize"
    return "loop_mitigation" if state.get("loop_trigger") else "goal_check"


after_loop_mitigation = _unless_ended("goal_check")


def after_goal_check(state: AgentState) -> str:
    if _ended(state):
        return "finalize"
    return "translate" if state.get("plan") else "planner"


def _after_backend_call(state: AgentState) -> str | None:
    """Where a planner or translate step goes when it ended the run, failed, or claimed completion."""
    if _ended(state):
        return "finalize"
    if state.get("pending_error"):
        return "error_retry"
    if state.get("completion_claim"):
        return "goal_check"
    return None


def after_planner(state: AgentState) -> str:
    return _after_backend_call(state) or "translate"


def after_translate(state: AgentState) -> str:
    settled = _after_backend_call(state)
    if settled:
        return settled
    action = state.get("proposed_action")
    if action is None:
        return "progress"  # the step could not be grounded: recorded as a failure, then re-plan
    if action.get("action") == "ask_user":
        return "ask_user"
    return "safety"


def after_safety(state: AgentState) -> str:
    if _ended(state):
        return "finalize"
    risk = state.get("action_risk")
    if risk == "blocked":
        return "progress"
    return "confirm" if risk == "high" else "execute"


def after_confirm(state: AgentState) -> str:
    if _ended(state):
        return "finalize"
    if state.get("confirmation") == "denied":
        return "progress"  # on_denied=replan: recorded as a failed step, then re-plan
    return "execute"


after_execute = _unless_ended("progress")
after_progress = _unless_ended("observe")
after_ask_user = _unless_ended("observe")
after_error_retry = _unless_ended("observe")


class Router(Runnable[AgentState, str]):
    """A conditional edge's router called as the plain function it is.

    LangGraph wraps a bare function in a traced runnable: a callback manager and a run for every edge taken,
    a millisecond or more of each action's graph overhead here, to record a choice the next node's own
    record already shows. Same edges, same state read, same choice."""

    def __init__(self, route: Callable[[AgentState], str]) -> None:
        self.route = route
        self.name = route.__name__

    def invoke(self, input: AgentState, config: RunnableConfig | None = None, **kwargs: Any) -> str:  # noqa: A002
        return self.route(input)

    async def ainvoke(self, input: AgentState, config: RunnableConfig | None = None, **kwargs: Any) -> str:  # noqa: A002
        return self.route(input)


#: Each node's router and the nodes it may go to: the one table both ways of routing below are built from.
ROUTES: dict[str, tuple[Callable[[AgentState], str], tuple[str, ...]]] = {
    "start": (after_start, ("observe", "finalize")),
    "observe": (after_observe, ("loop_mitigation", "goal_check", "finalize")),
    "loop_mitigation": (after_loop_mitigation, ("goal_check", "finalize")),
    "goal_check": (after_goal_check, ("planner", "translate", "finalize")),
    "planner": (after_planner, ("translate", "goal_check", "error_retry", "finalize")),
    "translate": (
        after_translate,
        ("safety", "ask_user", "goal_check", "progress", "error_retry", "finalize"),
    ),
    "safety": (after_safety, ("confirm", "execute", "progress", "finalize")),
    "confirm": (after_confirm, ("execute", "progress", "finalize")),
    "execute": (after_execute, ("progress", "finalize")),
    "progress": (after_progress, ("observe", "finalize")),
    "ask_user": (after_ask_user, ("observe", "finalize")),
    "error_retry": (after_error_retry, ("observe", "finalize")),
}

NODES: dict[str, Callable[..., Any]] = {
    "start": start,
    "observe": observe,
    "loop_mitigation": loop_mitigation,
    "goal_check": goal_check,
    "planner": planner,
    "translate": translate,
    "safety": safety,
    "confirm": confirm,
    "execute": execute,
    "progress": progress,
    "ask_user": ask_user,
    "error_retry": error_retry,
    "finalize": finalize,
}


def _routing_itself(fn: Callable[..., Any], route: Callable[[AgentState], str]) -> Callable[..., Any]:
    """``fn`` choosing its own way on: its update and the router's choice over the state it leaves, as one
    ``Command``. The same choice a conditional edge makes, without the edge's fresh copy of every channel."""

    async def node(state: AgentState, runtime: Runtime[Context]) -> Command:
        update = await fn(state, runtime)
        return Command(update=update, goto=route({**state, **update}))  # type: ignore[typeddict-item]

    node.__name__ = node.__qualname__ = fn.__name__
    node.__doc__ = fn.__doc__
    return node


def _builder(*, nodes_route_themselves: bool) -> StateGraph:
    builder = StateGraph(
        AgentState, context_schema=Context, input_schema=InputState, output_schema=OutputState
    )
    for node_name, fn in NODES.items():
        route, ways = ROUTES.get(node_name, (None, ()))
        if route is not None and nodes_route_themselves:
            builder.add_node(node_name, _routing_itself(fn, route), destinations=ways)
        else:
            builder.add_node(node_name, fn)
            if route is not None:
                builder.add_conditional_edges(node_name, Router(route), list(ways))
    builder.add_edge(START, "start")
    builder.add_edge("finalize", END)
    return builder


def build_graph(*, checkpointer: Any = None, name: str = "wayfinder", **compile_kwargs: Any):
    """Compile the agent graph. Embed it as a node/subgraph, or run it with ``ainvoke``/``astream``.

    Pass a checkpointer (e.g. ``SqliteSaver``) for confirm/ask_user interrupts and resumable runs; a parent
    graph's checkpointer also serves a child compiled without one. Its edges are conditional edges, so a
    state edited with ``update_state`` (Studio's edit and fork) goes on where the edited state leads.
    """
    return _builder(nodes_route_themselves=False).compile(
        checkpointer=checkpointer, name=name, **compile_kwargs
    )


#: The runner's graph: the same nodes and routers, each node returning its router's choice with its update.
#: A conditional edge reads a fresh copy of every state channel to route, about half a millisecond of each
#: graph step; the runner gives ``update_state`` the way on itself (:func:`update_keeping_route`).
_run_graph = _builder(nodes_route_themselves=True).compile(name="wayfinder")


#: LangGraph Studio's graph (``langgraph.json``) and the one to import for embedding: conditional edges, no
#: checkpointer (``langgraph dev`` brings its own).
graph = build_graph()


def with_checkpointer(checkpointer: Any) -> Any:
    """The runner's graph with ``checkpointer``: compiled once per process, copied per run (a copy takes well
    under a millisecond; compiling takes 40-120 ms, which every run's first step used to pay)."""
    return _run_graph.copy(update={"checkpointer": checkpointer})


async def update_keeping_route(
    graph: Any, config: dict[str, Any], values: dict[str, Any], as_node: str | None = None
) -> None:
    """``update_state`` on the runner's graph, whose nodes route themselves: the run still goes where it was
    going (the paused or pending node), or, as ``as_node``, where that node's router sends the new state."""
    snapshot = await graph.aget_state(config)
    if as_node is None:
        goto: Any = list(snapshot.next)
    else:
        goto = ROUTES[as_node][0]({**(snapshot.values or {}), **values})  # type: ignore[typeddict-item]
    await graph.aupdate_state(config, Command(update=values, goto=goto), as_node=as_node)
