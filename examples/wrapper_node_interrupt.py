"""Wayfinder called from a wrapper node of your app; its approval question pauses your app, which answers it.

Start the demo store first (README): python -m agent.demo.server 8000
Then: python examples/wrapper_node_interrupt.py [http://127.0.0.1:8000]
"""

import asyncio
import sys
import tempfile

from langgraph.checkpoint.memory import InMemorySaver
from langgraph.graph import END, START, StateGraph
from langgraph.runtime import Runtime
from langgraph.types import Command
from typing_extensions import TypedDict

from agent import Context, build_graph


class TicketState(TypedDict, total=False):
    task: str
    page: str
    outcome: str


WAYFINDER = build_graph()


async def browse_for_ticket(state: TicketState, runtime: Runtime[Context]) -> dict:
    task = {"goal": state["task"], "start_url": state["page"]}
    result = await WAYFINDER.ainvoke(task, context=runtime.context)  # or a Context of your own
    return {"outcome": f"{result['terminal_type']}/{result['terminal_reason']}"}


def build_ticket_app(checkpointer):
    builder = StateGraph(TicketState, context_schema=Context)
    builder.add_node("browse", browse_for_ticket)
    builder.add_edge(START, "browse")
    builder.add_edge("browse", END)
    return builder.compile(checkpointer=checkpointer)


async def main(base_url: str) -> int:
    app = build_ticket_app(InMemorySaver())
    config = {"configurable": {"thread_id": "ticket-1"}}
    records = tempfile.mkdtemp(prefix="wayfinder-example-")
    ctx = Context(planner="rules", record_dir=records, interactive=True, confirm_policy="ask")
    task = {"task": "click Send message", "page": f"{base_url}/contact.html"}
    result = await app.ainvoke(task, config, context=ctx)
    question = result["__interrupt__"][0].value  # {"type": "confirm", "question": "Allow click ...?", ...}
    print(question["type"], question["question"])
    # Resume with the answer alone: the run remembers the settings it was started with.
    result = await app.ainvoke(Command(resume={"decision": "deny"}), config)
    print(result["outcome"])  # a denied action never runs
    return 0 if result["outcome"] == "goal_failed/user_declined" else 1


if __name__ == "__main__":
    sys.exit(asyncio.run(main(sys.argv[1] if len(sys.argv) > 1 else "http://127.0.0.1:8000")))
