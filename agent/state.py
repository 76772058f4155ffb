"""The one typed state every graph node shares.

Only plain, serializable values live here (str, int, float, bool, lists, dicts), so any checkpointer can
store it and a killed run can resume from it. The browser itself lives in a registry keyed by run id
(:mod:`agent.browser.registry`); the state keeps the URL so a resumed run can reopen the page.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from typing_extensions import TypedDict  # pydantic (Studio schemas) rejects typing.TypedDict before 3.12

#: What made ``observe`` call for loop mitigation (``loop_trigger``). ``world_frozen`` is also a terminal reason
#: (``terminals.WORLD_FROZEN``) and a state field; as a trigger it is named only by these constants.
LoopTrigger = Literal["repeat", "stagnation", "world_frozen"]
TRIGGER_REPEAT: LoopTrigger = "repeat"
TRIGGER_STAGNATION: LoopTrigger = "stagnation"
TRIGGER_WORLD_FROZEN: LoopTrigger = "world_frozen"

#: A history update holding only this item empties the history (a new run on a reused thread starts clean).
HISTORY_RESET: dict[str, Any] = {"__reset__": True}


def append_history(
    left: list[dict[str, Any]] | None, right: list[dict[str, Any]] | None
) -> list[dict[str, Any]]:
    """Append-only step history, except for an explicit reset by the ``start`` node."""
    right = list(right or [])
    if right and right[0] == HISTORY_RESET:
        return right[1:]
    return [*(left or []), *right]


class InputState(TypedDict, total=False):
    """What a caller provides: the goal, and optionally where to start. (Studio's input form.)"""

    goal: str
    start_url: str | None


class OutputState(TypedDict, total=False):
    """What a caller gets back."""

    goal: str
    run_id: str
    terminal_type: str | None
    terminal_reason: str | None
    stop_reason: str | None
    final_answer: str | None
    candidate_answer: str | None
    goal_evidence: list[dict[str, Any]]  # result.json's `evidence`
    missing: list[str]
    url: str
    steps: int
    usage: dict[str, Any]
    run_dir: str
    #: What the latest node decided, in brief. An output key so that LangGraph Server's `updates` stream, which
    #: shows only output keys, carries every node's decision.
    decision: dict[str, Any]


class AgentState(TypedDict, total=False):
    # --- the goal (fixed at start) ------------------------------------------------------------------
    goal: str
    start_url: str | None
    run_id: str
    run_dir: str
    goal_kind: str  # object | list | action
    task_mode: str  # find | browse | answer | download
    started_at: float  # epoch seconds when the run (or its resumption) started
    elapsed_before: float  # seconds spent before the latest resumption
    settings: dict[str, Any]  # the run's settings (no API key): a call that sends none goes on with these
    forked_from: dict[str, Any] | None  # {"run_id", "seq"} when this run is a fork of an earlier one
    thread_id: str | None  # the LangGraph thread the run started on (a copied thread has another)

    # --- FSM ---------------------------------------------------------------------------------------
    stage: str  # orient | context | locate | verify | done

    # --- browser and page ----------------------------------------------------------------------------
    url: str
    title: str
    tabs: list[dict[str, Any]]
    active_tab_id: str
    tab_events: list[dict[str, Any]]  # tab_opened / tab_closed since the previous observation
    context_events: list[dict[str, Any]]  # every browser event since the previous observation
    observation: dict[str, Any]  # the latest Observation (agent.types.Observation)
    mapping_hash: str
    candidate_hash: str
    dom_hash: str
    prev_url: str
    prev_mapping_hash: str
    prev_candidate_hash: str
    prev_dom_hash: str
    page_type: str
    listing_detected: bool
    mcp_tools: list[dict[str, Any]]  # the run's MCP tools (name, server, description, input_schema); the
    # client stays in agent.tools.registry

    # --- plan and action ------------------------------------------------------------------------------
    plan: list[str]  # queued high-level steps, next first
    current_step: str | None
    completed_steps: list[str]
    planner_output: dict[str, Any]  # the planner's last structured output (for the record)
    proposed_action: dict[str, Any] | None  # agent.types.Action
    action_risk: str  # low | high | blocked
    risk_reasons: list[str]
    confirmation: str | None  # approved | denied | edited | auto
    last_result: dict[str, Any] | None  # agent.types.ActionResult
    completion_claim: dict[str, Any] | None  # {"answer", "success", "source", "failure_reason"}
    pending_error: dict[str, Any] | None  # {"source", "kind", "message"} for error_retry
    retry_used: bool  # error_retry's single retry is spent (reset after a successful action)
    hints: list[str]  # loop/error hints for the next planner call

    # --- history (append-only) ----------------------------------------------------------------------
    history: Annotated[list[dict[str, Any]], append_history]  # one item per executed (or refused) action

    # --- memory -------------------------------------------------------------------------------------
    visited_urls: list[str]
    avoid_elements: list[int]
    element_attempts: dict[str, int]  # "url#element_id" -> failed attempts

    # --- loop / progress counters (names from the design) -------------------------------------------
    repeat_count: int
    stagnation_count: int
    auto_scrolls_used: int
    no_progress_steps: int
    planner_calls: int
    steps: int
    errors: int
    observations: int
    loop_trigger: LoopTrigger | None
    world_frozen: bool
    last_signature: str  # action+element+URL of the last executed action
    progress_score: float
    evidence: list[str]

    # --- model usage ----------------------------------------------------------------------------------
    usage: dict[str, Any]  # {"input_tokens", "output_tokens", "total_tokens", "calls", "cost_usd"}
    usage_by_node: dict[str, dict[str, Any]]

    decision: dict[str, Any]  # what the latest node decided, in brief (the `updates` stream shows it)

    # --- records --------------------------------------------------------------------------------------
    seq: int  # trace records written so far (dedupes records on resume)
    resume_lost: list[str]  # what a resumed run's new browser could not get back (cookies, typed values)

    # --- proof (agent.planning.verify) -------------------------------------------------------------------------
    goal_parts: list[
        dict[str, Any]
    ]  # the goal's checkable parts (agent.planning.verify.GoalPart), derived once
    goal_evidence: list[dict[str, Any]]  # what proves each part: {part, kind, step, url, element, quote}
    missing: list[str]  # parts the last judged claim could not prove
    candidate_answer: str | None  # an answer the agent found but could not prove
    judge: dict[str, Any] | None  # the model judge's verdict (judge: model), agent.planning.model_judge

    # --- ending ---------------------------------------------------------------------------------------
    final_answer: str | None
    terminal_type: str | None
    terminal_reason: str | None
    stop_reason: str | None
