"""ask_user: a question for the person running the agent, allowed only on later stages.

With interactive prompts on, the run pauses with ``interrupt()`` and the answer (a string, or
``{"answer": ...}``) becomes a planner hint; ``{"stop": True}`` as the answer, or prompts off, ends the run
(``goal_failed/user_input_required``) with a ``stop_reason`` that says what was asked.
"""

from __future__ import annotations

from typing import Any

from langgraph.types import interrupt

from agent.context import Context
from agent.nodes.base import graph_node, history_item, terminal, with_hint
from agent.state import AgentState
from agent.terminals import USER_INPUT_REQUIRED


def _unanswered(question: str, note: str) -> dict[str, Any]:
    return terminal(
        USER_INPUT_REQUIRED,
        f"needs user input: {question}",
        final_answer=None,
        proposed_action=None,
        _note=note,
    )


@graph_node("ask_user")
async def ask_user(state: AgentState, ctx: Context) -> dict[str, Any]:
    action = state.get("proposed_action") or {}
    question = str(
        (action.get("args") or {}).get("question") or "The agent needs more information to continue."
    )
    if not ctx.interactive:
        return _unanswered(question, "interactive prompts are off")
    answer = interrupt({"type": "ask_user", "question": question, "url": state.get("url", "")})
    if isinstance(answer, dict) and answer.get("stop"):
        # the question was left unanswered on purpose (e.g. resumed with no one at a terminal)
        return _unanswered(question, str(answer.get("reason") or "the question was not answered")[:200])
    text = str(answer if not isinstance(answer, dict) else answer.get("answer", "")).strip()
    item = history_item(
        state,
        {"action": "ask_user", "element_id": None, "args": {"question": question}},
        status="success",
        message=f"user answered: {text}" if text else "user gave no answer",
    )
    return {
        "history": [item],
        "plan": [],
        "current_step": None,
        "proposed_action": None,
        "hints": with_hint(state, f"The user answered {question!r}: {text or '(no answer)'}"),
        "_note": f"asked: {question}",
    }
