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

# Terminal reasons, one constant each: code outside this module names a reason only through these.
ANSWER_FOUND = "answer_found"
ACTION_VERIFIED = "action_verified"
INSUFFICIENT_KNOWLEDGE = "insufficient_knowledge"
ANSWER_NOT_FOUND = "answer_not_found"
ANSWER_NOT_GROUNDED = "answer_not_grounded"
STAGE_NOT_ADVANCED = "stage_not_advanced"
ACTION_REJECTED = "action_rejected"
USER_DECLINED = "user_declined"
USER_INPUT_REQUIRED = "user_input_required"
NAVIGATION_BLOCKED = "navigation_blocked"
MODEL_ERROR = "model_error"
INVALID_ACTION = "invalid_action"
BROWSER_ERROR = "browser_error"
TOOL_ERROR = "tool_error"
NODE_ERROR = "node_error"
INVALID_GOAL = "invalid_goal"
UNVERIFIED = "unverified"
RESUME_LOST_STATE = "resume_lost_state"
WORLD_FROZEN = "world_frozen"
REPEATED_ACTION = "repeated_action"
MAX_STEPS = "max_steps"
MAX_SECONDS = "max_seconds"
MAX_PLANNER_CALLS = "max_planner_calls"
MAX_FAILURES = "max_failures"
MAX_TOKENS = "max_tokens"
MAX_COST = "max_cost"
MAX_MODEL_CALLS = "max_model_calls"
RECURSION_LIMIT = "recursion_limit"

#: reason -> terminal type. Documented in the README ("How a run ends").
TERMINAL_REASONS: dict[str, str] = {
    # goal_satisfied
    ANSWER_FOUND: GOAL_SATISFIED,  # a question was answered from text observed on the page
    ACTION_VERIFIED: GOAL_SATISFIED,  # the requested actions ran and the page shows their effect
    # goal_failed
    INSUFFICIENT_KNOWLEDGE: GOAL_FAILED,  # the planner does not understand the goal or cannot find the answer
    ANSWER_NOT_FOUND: GOAL_FAILED,  # the page was scanned and the answer is not there
    ANSWER_NOT_GROUNDED: GOAL_FAILED,  # the claimed answer does not appear in anything observed
    STAGE_NOT_ADVANCED: GOAL_FAILED,  # completion claimed without evidence of progress
    ACTION_REJECTED: GOAL_FAILED,  # the steps ran but the page answered with an error message
    USER_DECLINED: GOAL_FAILED,  # a risky action was denied (by the user or the confirm policy)
    USER_INPUT_REQUIRED: GOAL_FAILED,  # the agent needed to ask the user and prompts are off
    NAVIGATION_BLOCKED: GOAL_FAILED,  # the start page or a required navigation was refused or unreachable
    MODEL_ERROR: GOAL_FAILED,  # the model server failed or kept replying with invalid output
    INVALID_ACTION: GOAL_FAILED,  # disallowed or malformed actions, even after the single retry
    BROWSER_ERROR: GOAL_FAILED,  # the browser could not be started or crashed
    TOOL_ERROR: GOAL_FAILED,  # an MCP server in the settings could not start or list its tools
    NODE_ERROR: GOAL_FAILED,  # an unexpected exception inside a graph node (recorded with its message)
    INVALID_GOAL: GOAL_FAILED,  # empty or unusable goal text
    UNVERIFIED: GOAL_FAILED,  # the agent acted but could not prove from the page that the goal is met
    RESUME_LOST_STATE: GOAL_FAILED,  # a resumed run could not get back what the stopped one had, then failed
    # loop_stuck
    WORLD_FROZEN: LOOP_STUCK,  # actions keep changing nothing (URL, DOM and candidates unchanged)
    REPEATED_ACTION: LOOP_STUCK,  # the same action on the same element and URL, again and again
    # budget_exhausted
    MAX_STEPS: BUDGET_EXHAUSTED,
    MAX_SECONDS: BUDGET_EXHAUSTED,
    MAX_PLANNER_CALLS: BUDGET_EXHAUSTED,
    MAX_FAILURES: BUDGET_EXHAUSTED,
    MAX_TOKENS: BUDGET_EXHAUSTED,
    MAX_COST: BUDGET_EXHAUSTED,
    MAX_MODEL_CALLS: BUDGET_EXHAUSTED,  # planner, executor and judge requests together
    RECURSION_LIMIT: BUDGET_EXHAUSTED,
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
            GOAL_SATISFIED: ACTION_VERIFIED,
            GOAL_FAILED: NODE_ERROR,
            LOOP_STUCK: WORLD_FROZEN,
            BUDGET_EXHAUSTED: MAX_STEPS,
        }[terminal_type]
        return terminal_type, fallback
    return GOAL_FAILED, NODE_ERROR


#: Failures a lost browser state can explain (the run could not find, prove or reach what it needed): after a
#: resume that lost something they are reported as ``resume_lost_state``, naming what was lost.
EXPLAINED_BY_LOST_STATE = (
    ANSWER_NOT_FOUND,
    ANSWER_NOT_GROUNDED,
    UNVERIFIED,
    STAGE_NOT_ADVANCED,
    INSUFFICIENT_KNOWLEDGE,
    ACTION_REJECTED,
)


def after_lost_state(
    terminal_type: str, reason: str, stop_reason: str | None, lost: list[str]
) -> tuple[str, str, str | None]:
    """The ending of a run whose resume lost ``lost``: a failure it may explain names it instead of hiding it."""
    if not lost or terminal_type != GOAL_FAILED or reason not in EXPLAINED_BY_LOST_STATE:
        return terminal_type, reason, stop_reason
    said = f"the resumed run could not restore {'; '.join(lost)}"
    return GOAL_FAILED, RESUME_LOST_STATE, f"{said} (then: {stop_reason or reason})"
