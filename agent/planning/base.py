"""The planner/translator interface shared by the offline (rules) backend and the LLM backend.

The graph's ``planner`` node calls :meth:`Backend.plan`; its ``translate`` node calls
:meth:`Backend.translate`. Both take and return plain dicts so the graph can record them verbatim.
"""

from __future__ import annotations

from typing import Any, Protocol, TypedDict

from agent.types import Action, Observation


class Usage(TypedDict, total=False):
    """Model usage of one call (all zero for the offline backend)."""

    input_tokens: int
    output_tokens: int
    total_tokens: int
    calls: int
    cost_usd: float


class HistoryItem(TypedDict, total=False):
    """One executed step as the planner sees it."""

    step: int
    plan_step: str | None
    action: str
    element_id: int | None
    target: str  # short description of the target element, e.g. 'button "Sign in"'
    args: dict[str, Any]
    status: str  # success | failure
    error_type: str
    message: str
    url: str  # URL after the action


class Metrics(TypedDict, total=False):
    tool_calls: int
    errors: int
    error_rate: float  # 0..1
    observations: int
    elapsed_s: float
    steps: int
    planner_calls: int


class PlanRequest(TypedDict, total=False):
    goal: str
    goal_kind: str  # object | list | action
    task_mode: str  # find | browse | answer | download
    stage: str  # orient | context | locate | verify | done
    observation: Observation
    history: list[HistoryItem]
    metrics: Metrics
    allowed_actions: list[str]
    avoid_elements: list[int]
    hints: list[str]  # loop / no-progress / state-change hints for this call
    completed_steps: list[str]  # plan steps already carried out successfully, oldest first
    page_type: str
    listing_detected: bool
    start_url: str | None


class PlanResult(TypedDict, total=False):
    proposed_actions: list[str]  # 1-5 high-level steps, empty when task_complete
    task_complete: bool
    final_answer: str
    success: bool  # False when the planner gives up (task_complete with a failure answer)
    failure_reason: str  # e.g. insufficient_knowledge when the planner cannot understand the goal
    reasoning: str
    raw: dict[str, Any]  # the backend's full structured output (seed fields for the LLM planner)
    usage: Usage
    error: str  # set when the backend failed (model error, invalid reply after re-ask)
    error_kind: str  # model_error | invalid_reply | timeout
    error_retryable: bool  # False when asking again cannot help (401/403/404/400): the run ends at once


class TranslateRequest(TypedDict, total=False):
    goal: str
    plan_step: str
    observation: Observation
    allowed_actions: list[str]
    avoid_elements: list[int]
    stage: str
    history: list[HistoryItem]


class TranslateResult(TypedDict, total=False):
    action: Action | None  # None when the step cannot be grounded
    status: str  # success | failure
    error_type: str  # none | element_not_found | ambiguous_step | tool_limit | navigation_blocked | unknown
    message: str
    reasoning: str
    raw: dict[str, Any]
    usage: Usage
    error: str
    error_kind: str
    error_retryable: bool


class Backend(Protocol):
    """A planning backend: ``rules`` (offline, deterministic) or ``openai`` (any OpenAI-compatible server)."""

    name: str

    async def plan(self, request: PlanRequest) -> PlanResult: ...

    async def translate(self, request: TranslateRequest) -> TranslateResult: ...
