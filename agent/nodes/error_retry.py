"""error_retry: one retry after a planner/translator error, a timeout or a disallowed action.

An error marked ``retryable: False`` (the model server refused the request itself, e.g. 401) ends the run
at once: a second request would be refused the same way.

The first error is counted, explained to the planner as a hint, and the loop starts over from a fresh
observation. A second error before any action succeeds ends the run with a normalized terminal.
"""

from __future__ import annotations

from typing import Any

from agent.context import Context
from agent.nodes.base import graph_node
from agent.state import AgentState

_REASON_BY_KIND = {
    "model_error": "model_error",
    "invalid_reply": "model_error",
    "timeout": "model_error",
    "invalid_action": "invalid_action",
}


@graph_node("error_retry")
async def error_retry(state: AgentState, ctx: Context) -> dict[str, Any]:
    error = state.get("pending_error") or {
        "source": "unknown",
        "kind": "model_error",
        "message": "unknown error",
    }
    errors = int(state.get("errors", 0)) + 1
    refused = error.get("retryable") is False  # e.g. a 401: asking again cannot help
    if state.get("retry_used") or refused:
        return {
            "pending_error": None,
            "errors": errors,
            "terminal_type": "goal_failed",
            "terminal_reason": _REASON_BY_KIND.get(error.get("kind"), "model_error"),
            "stop_reason": f"{error.get('source')} failed{'' if refused else ' twice'}: {error.get('message')}",
            "_note": "not retryable" if refused else "retry already used",
        }
    hint = f"The previous {error.get('source')} attempt failed ({error.get('kind')}): {error.get('message')}"
    return {
        "pending_error": None,
        "errors": errors,
        "retry_used": True,
        "plan": [],
        "current_step": None,
        "proposed_action": None,
        "hints": [*(state.get("hints") or []), hint][-6:],
        "_note": f"retrying once after {error.get('kind')}",
    }
