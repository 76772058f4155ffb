"""error_retry: one retry after a planner/translator error, a timeout or a disallowed action.

An error marked ``retryable: False`` (the model server refused the request itself, e.g. 401) ends the run
at once: a second request would be refused the same way.

The first error is counted, explained to the planner as a hint, and the loop starts over from a fresh
observation. A second error before any action succeeds ends the run with a normalized terminal.
"""

from __future__ import annotations

from typing import Any

from agent.context import Context
from agent.nodes.base import graph_node, terminal, with_hint
from agent.state import AgentState
from agent.terminals import INVALID_ACTION, MODEL_ERROR
from agent.types import KIND_INVALID_ACTION, KIND_INVALID_REPLY, KIND_MODEL_ERROR, KIND_TIMEOUT

#: error kind (agent.llm.errors and the nodes) -> terminal reason when the retry is spent
_REASON_BY_KIND = {
    KIND_MODEL_ERROR: MODEL_ERROR,
    KIND_INVALID_REPLY: MODEL_ERROR,
    KIND_TIMEOUT: MODEL_ERROR,
    KIND_INVALID_ACTION: INVALID_ACTION,
}


@graph_node("error_retry")
async def error_retry(state: AgentState, ctx: Context) -> dict[str, Any]:
    error = state.get("pending_error") or {
        "source": "unknown",
        "kind": KIND_MODEL_ERROR,
        "message": "unknown error",
    }
    errors = int(state.get("errors", 0)) + 1
    refused = error.get("retryable") is False  # e.g. a 401: asking again cannot help
    if state.get("retry_used") or refused:
        return terminal(
            _REASON_BY_KIND.get(error.get("kind"), MODEL_ERROR),
            f"{error.get('source')} failed{'' if refused else ' twice'}: {error.get('message')}",
            pending_error=None,
            errors=errors,
            _note="not retryable" if refused else "retry already used",
        )
    hint = f"The previous {error.get('source')} attempt failed ({error.get('kind')}): {error.get('message')}"
    return {
        "pending_error": None,
        "errors": errors,
        "retry_used": True,
        "plan": [],
        "current_step": None,
        "proposed_action": None,
        "hints": with_hint(state, hint),
        "_note": f"retrying once after {error.get('kind')}",
    }
