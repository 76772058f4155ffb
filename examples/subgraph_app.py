"""Wayfinder as a node of your own LangGraph app (shared keys), checkpointed in SQLite.

Start the demo store first (README): python -m agent.demo.server 8000
Then: python examples/subgraph_app.py [http://127.0.0.1:8000]
"""

import asyncio
import sys
import tempfile
from pathlib import Path

from langgraph.checkpoint.sqlite.aio import AsyncSqliteSaver
from langgraph.graph import END, START, StateGraph
from typing_extensions import TypedDict  # pydantic rejects typing.TypedDict before 3.12

from agent import Context, build_graph


class AppState(TypedDict, total=False):
    # shared with Wayfinder: its input keys ...
    goal: str
    start_url: str | None
    # ... and the output keys the parent wants back
    run_id: str
    terminal_type: str | None
    terminal_reason: str | None
    final_answer: str | None
    # the parent's own
    summary: str


def summarize(state: AppState) -> dict:
    """The parent's next step, working from what the browser agent found."""
    done = state.get("terminal_type") == "goal_satisfied"
    outcome = "done" if done else f"failed ({state.get('terminal_reason')})"
    return {"summary": f"{outcome}: {state.get('final_answer') or ''}"}


def build_app(checkpointer):
    builder = StateGraph(AppState, context_schema=Context)
    builder.add_node("browse", build_graph())  # the compiled Wayfinder graph, no checkpointer of its own
    builder.add_node("summarize", summarize)
    builder.add_edge(START, "browse")
    builder.add_edge("browse", "summarize")
    builder.add_edge("summarize", END)
    return builder.compile(checkpointer=checkpointer)


async def main(base_url: str) -> int:
    workdir = Path(tempfile.mkdtemp(prefix="wayfinder-example-"))
    async with AsyncSqliteSaver.from_conn_string(str(workdir / "app.sqlite")) as checkpointer:
        app = build_app(checkpointer)
        config = {"configurable": {"thread_id": "app-login"}}
        ctx = Context(planner="rules", record_dir=str(workdir / "runs"), max_steps=10)
        result = await app.ainvoke(
            {"goal": "log in as demo with password wayfinder", "start_url": f"{base_url}/login.html"},
            config,
            context=ctx,
        )
    print(result["terminal_type"], result["summary"])
    return 0 if result["terminal_type"] == "goal_satisfied" else 1


if __name__ == "__main__":
    sys.exit(asyncio.run(main(sys.argv[1] if len(sys.argv) > 1 else "http://127.0.0.1:8000")))
