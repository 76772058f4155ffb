"""What a record plan returns: steps to take next, or an end (done, or not done and why)."""

from __future__ import annotations

from typing import Any

from agent.planning.base import PlanResult
from agent.planning.offline.text import clip

MAX_STEPS = 5


def plan_result(**fields: Any) -> PlanResult:
    result: dict[str, Any] = {"proposed_actions": [], "task_complete": False, "usage": {}}
    result.update(fields)
    return result  # type: ignore[return-value]


def unmet(reason: str, answer: str, raw: dict[str, Any]) -> PlanResult:
    """The end of a goal not done, with what stopped it."""
    return plan_result(task_complete=True, success=False, failure_reason=reason, final_answer=clip(answer, 1000),
                       reasoning=answer[:200], raw=raw)  # fmt: skip


def next_steps(steps: list[str], why: str, raw: dict[str, Any]) -> PlanResult:
    """Up to MAX_STEPS grammar steps to take next (the rest is planned again from the page they lead to)."""
    return plan_result(
        proposed_actions=steps[:MAX_STEPS], reasoning=why, raw={**raw, "pending": steps[:MAX_STEPS]}
    )
