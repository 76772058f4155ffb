"""The fixed set of run endings.

Every run ends with exactly one ``terminal_type`` and a ``terminal_reason`` from :data:`TERMINAL_REASONS`.
Budget reasons (``max_*``) always mean ``budget_exhausted``; the other reasons map to one type each, so a
reason alone says how the run ended.
"""

from __future__ import annotations

GOAL_SATISFIED = "goal_satisfied"
GOAL_FAILED = "goal_failed"
LOOP_STUCK = "loop_stuck"
BUDGET_EXHAUSTED = "budget_exhausted"

#: reason -> terminal type. Documented in the README ("How a run ends").
TERMINAL_REASONS: dict[str, str] = {
    # goal_satisfied
    "answer_found": GOAL_SATISFIED,  # a question was answered from text observed on the page
    "action_verified": GOAL_SATISFIED,  # the requested actions ran and the page shows their effect
    # goal_failed
    "insufficient_knowledge": GOAL_FAILED,  # the planner does not understand the goal or cannot find the answer
    "answer_not_found": GOAL_FAILED,  # the page was scanned and the answer is not there
    "answer_not_grounded": GOAL_FAILED,  # the claimed answer does not appear in anything observed
    "stage_not_advanced": GOAL_FAILED,  # completion claimed without evidence of progress
    "action_rejected": GOAL_FAILED,  # the steps ran but the page answered with an error message
    "user_declined": GOAL_FAILED,  # a risky action was denied (by the user or the confirm policy)
    "user_input_required": GOAL_FAILED,  # the agent needed to ask the user and prompts are off
    "navigation_blocked": GOAL_FAILED,  # the start page or a required navigation was refused or unreachable
    "model_error": GOAL_FAILED,  # the model server failed or kept replying with invalid output
    "invalid_action": GOAL_FAILED,  # disallowed or malformed actions, even after the single retry
    "browser_error": GOAL_FAILED,  # the browser could not be started or crashed
    "node_error": GOAL_FAILED,  # an unexpected exception inside a graph node (recorded with its message)
    "invalid_goal": GOAL_FAILED,  # empty or unusable goal text
    # loop_stuck
    "world_frozen": LOOP_STUCK,  # actions keep changing nothing (URL, DOM and candidates unchanged)
    "repeated_action": LOOP_STUCK,  # the same action on the same element and URL, again and again
    # budget_exhausted
    "max_steps": BUDGET_EXHAUSTED,
    "max_seconds": BUDGET_EXHAUSTED,
    "max_planner_calls": BUDGET_EXHAUSTED,
    "max_failures": BUDGET_EXHAUSTED,
    "max_tokens": BUDGET_EXHAUSTED,
    "max_cost": BUDGET_EXHAUSTED,
    "recursion_limit": BUDGET_EXHAUSTED,
}

TERMINAL_TYPES: tuple[str, ...] = (GOAL_SATISFIED, GOAL_FAILED, LOOP_STUCK, BUDGET_EXHAUSTED)


def terminal_for(reason: str) -> str:
    """Terminal type of a reason; unknown reasons are failures (never silently 'satisfied')."""
    return TERMINAL_REASONS.get(reason, GOAL_FAILED)


def normalize(terminal_type: str | None, reason: str | None) -> tuple[str, str]:
    """Make a (type, reason) pair valid: a known reason decides the type; nothing recorded is a node error."""
    if reason in TERMINAL_REASONS:
        return TERMINAL_REASONS[reason], reason
    if terminal_type in TERMINAL_TYPES:
        fallback = {
            GOAL_SATISFIED: "action_verified",
            GOAL_FAILED: "node_error",
            LOOP_STUCK: "world_frozen",
            BUDGET_EXHAUSTED: "max_steps",
        }[terminal_type]
        return terminal_type, fallback
    return GOAL_FAILED, "node_error"
