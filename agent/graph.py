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


def build_graph(*, checkpointer: Any = None, name: str = "wayfinder", **compile_kwargs: Any):
    """Compile the agent graph. Embed it as a node/subgraph, or run it with ``ainvoke``/``astream``.

    Pass a checkpointer (e.g. ``SqliteSaver``) for confirm/ask_user interrupts and resumable runs; a parent
    graph's checkpointer also serves a child compiled without one.
    """
    builder = StateGraph(
        AgentState, context_schema=Context, input_schema=InputState, output_schema=OutputState
    )
    nodes = {
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
    for node_name, fn in nodes.items():
        builder.add_node(node_name, fn)
    builder.add_edge(START, "start")
    builder.add_conditional_edges("start", Router(after_start), ["observe", "finalize"])
    builder.add_conditional_edges(
        "observe", Router(after_observe), ["loop_mitigation", "goal_check", "finalize"]
    )
    builder.add_conditional_edges(
        "loop_mitigation", Router(after_loop_mitigation), ["goal_check", "finalize"]
    )
    builder.add_conditional_edges(
        "goal_check", Router(after_goal_check), ["planner", "translate", "finalize"]
    )
    builder.add_conditional_edges(
        "planner", Router(after_planner), ["translate", "goal_check", "error_retry", "finalize"]
    )
    builder.add_conditional_edges(
        "translate",
        Router(after_translate),
        ["safety", "ask_user", "goal_check", "progress", "error_retry", "finalize"],
    )
    builder.add_conditional_edges(
        "safety", Router(after_safety), ["confirm", "execute", "progress", "finalize"]
    )
    builder.add_conditional_edges("confirm", Router(after_confirm), ["execute", "progress", "finalize"])
    builder.add_conditional_edges("execute", Router(after_execute), ["progress", "finalize"])
    builder.add_conditional_edges("progress", Router(after_progress), ["observe", "finalize"])
    builder.add_conditional_edges("ask_user", Router(after_ask_user), ["observe", "finalize"])
    builder.add_conditional_edges("error_retry", Router(after_error_retry), ["observe", "finalize"])
    builder.add_edge("finalize", END)
    return builder.compile(checkpointer=checkpointer, name=name, **compile_kwargs)


graph = build_graph()


def with_checkpointer(checkpointer: Any) -> Any:
    """The module's compiled graph with ``checkpointer``: compiled once per process, copied per run (a copy
    takes well under a millisecond; compiling takes 40-120 ms, which every run's first step used to pay)."""
    return graph.copy(update={"checkpointer": checkpointer})
