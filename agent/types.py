"""Shared data contracts: the plain-dict shapes that cross module boundaries.

Everything here is a ``TypedDict`` of JSON-safe values, because these dicts travel through LangGraph state and
must survive any checkpointer (msgpack/JSON). Playwright objects never appear in them.
"""

from __future__ import annotations

from typing import Any, Literal, NotRequired, TypedDict, get_args

# --------------------------------------------------------------------------------------------------------------
# Actions
# --------------------------------------------------------------------------------------------------------------

#: Every action the executor can emit. ``done`` and ``ask_user`` are meta actions the graph handles itself.
ActionName = Literal[
    "click",
    "type",
    "select_option",
    "scroll",
    "press_key",
    "navigate",
    "search",
    "go_back",
    "go_forward",
    "switch_tab",
    "screenshot",
    "wait",
    "pdf_extract",
    "mcp",
    "done",
    "ask_user",
]

META_ACTIONS: tuple[str, ...] = ("done", "ask_user")
ALL_ACTIONS: tuple[str, ...] = get_args(ActionName)
BROWSER_ACTIONS: tuple[str, ...] = tuple(a for a in ALL_ACTIONS if a not in META_ACTIONS)

#: The offline planner's page moves, offered to a model executor as actions: the backend turns each into one
#: of the browser actions above (a click, a scroll, a navigation) with the offline planner's own code, so they
#: never reach the graph. Each takes ``args.subject`` (what to look for; optional for load_more).
ABILITY_ACTIONS: tuple[str, ...] = ("scan", "expand", "find_in_page", "load_more", "follow_link")
#: Actions that read or call something besides the page: the PDF the tab shows, a tool of an MCP server.
PDF_ACTION = "pdf_extract"
MCP_ACTION = "mcp"

#: Actions that need an observed element id.
ELEMENT_ACTIONS: tuple[str, ...] = ("click", "type", "select_option")

#: The argument each action cannot do without (checked for LLM replies and again before execution).
REQUIRED_ARGS: dict[str, str] = {
    "type": "text",
    "select_option": "option",
    "navigate": "url",
    "search": "query",
    "press_key": "key",
    "switch_tab": "tab_id",
    "ask_user": "question",
    "find_in_page": "subject",
    "follow_link": "subject",
    "mcp": "tool",
}

ErrorType = Literal[
    "none",
    "element_not_found",
    "ambiguous_step",
    "tool_limit",
    "navigation_blocked",
    "timeout",
    "unknown",
]
ERROR_TYPES: tuple[str, ...] = get_args(ErrorType)
#: A refused navigation, as one action's error type (the planner can try another way). The same word is the
#: run ending ``terminals.NAVIGATION_BLOCKED``, a different thing: code names the error type only by this.
ERROR_NAVIGATION_BLOCKED: ErrorType = "navigation_blocked"

#: Why a planning backend call failed (``BackendReply.error_kind``); ``error_retry`` turns it into the run's
#: ending once the retry is spent. Two kinds share a word with a terminal reason (``terminals.MODEL_ERROR``,
#: ``terminals.INVALID_ACTION``) but name a failed call, not a run's ending: code names them by these constants.
BackendErrorKind = Literal["model_error", "invalid_reply", "timeout", "invalid_action"]
KIND_MODEL_ERROR: BackendErrorKind = "model_error"
KIND_INVALID_REPLY: BackendErrorKind = "invalid_reply"
KIND_TIMEOUT: BackendErrorKind = "timeout"
KIND_INVALID_ACTION: BackendErrorKind = "invalid_action"


class ActionArgs(TypedDict, total=False):
    """Arguments by action. Only the keys an action uses are present.

    click: hover (bool: only move the pointer onto the element, to open a submenu)
    type: text, submit (bool: press Enter afterwards), clear (bool, default True)
    select_option: option (visible label or value); options (list: every option to pick in a multiple select)
    scroll: direction ("up"|"down"), amount ("page" | pixels as int); element_id optional (scroll inside it)
    press_key: key ("Enter", "Escape", "Tab", "ArrowDown", ...)
    navigate: url
    search: query
    switch_tab: tab_id
    screenshot: path (optional)
    wait: seconds
    pdf_extract: mode (metadata|text|find|outline|analysis, default text), pages ([3, 5] | "2-4,7" |
        {"start": 1, "end": 5}; first 50 pages only), query (find), task (analysis), url (optional: another PDF)
    mcp: tool (a loaded MCP tool's name), arguments (object, validated against the tool's input schema)
    done: answer (final answer text, may be empty), success (bool, default True)
    ask_user: question
    scan, expand, find_in_page, load_more, follow_link (abilities, see ABILITY_ACTIONS): subject
    """

    text: str
    hover: bool
    submit: bool
    clear: bool
    option: str
    options: list[str]
    direction: Literal["up", "down"]
    amount: str | int
    key: str
    url: str
    query: str
    tab_id: str
    path: str
    seconds: float
    subject: str
    answer: str
    success: bool
    question: str
    reason: str
    mode: str
    pages: Any
    task: str
    tool: str
    arguments: dict[str, Any]


class Action(TypedDict):
    """One concrete action on the current page, as produced by the translate node."""

    action: str  # ActionName
    element_id: int | None  # observed ``data-agent-id`` for element actions (and optional for scroll)
    args: ActionArgs
    reasoning: NotRequired[str]


EventType = Literal["url_changed", "dom_changed", "tab_opened", "tab_closed", "dialog", "download"]


class BrowserEvent(TypedDict, total=False):
    """Something that happened in the browser since the last observation.

    url_changed: url, previous_url
    dom_changed: url
    tab_opened / tab_closed: tab_id, url
    dialog: dialog_type (alert|confirm|prompt|beforeunload), message, handled ("accepted"|"dismissed")
    download: filename (sanitized), path (absolute, inside the run dir), url, suggested_filename
    """

    type: str  # EventType
    ts: float
    url: str
    previous_url: str
    tab_id: str
    dialog_type: str
    message: str
    handled: str
    filename: str
    path: str
    suggested_filename: str


class ActionResult(TypedDict):
    """Outcome of executing one action. ``status`` is judged on the page, not assumed."""

    action: str
    args: dict[str, Any]
    element_id: int | None
    status: Literal["success", "failure"]
    error_type: str  # ErrorType
    message: str
    execution_time_ms: int
    events: list[BrowserEvent]
    fallback: NotRequired[str | None]  # which fallback made it work: wiggle | js_click | text_match | None
    url_before: NotRequired[str]
    url_after: NotRequired[str]
    extracted: NotRequired[str]  # text an action produced (e.g. screenshot path)


# --------------------------------------------------------------------------------------------------------------
# Observation (Set-of-Mark)
# --------------------------------------------------------------------------------------------------------------

Zone = Literal["header", "nav", "main", "aside", "footer", "dialog"]
PageType = Literal["listing", "detail", "form", "search", "article", "pdf", "error", "other"]
PAGE_TYPES: tuple[str, ...] = ("listing", "detail", "form", "search", "article", "pdf", "error", "other")


class Element(TypedDict, total=False):
    """One marked element. ``id`` is the ``data-agent-id`` written on the element in the page."""

    id: int
    tag: str
    role: str
    name: str  # accessible name
    text: str  # visible text (trimmed, bounded)
    value: str
    placeholder: str
    input_type: str
    attrs: dict[str, str]  # name, id, href, aria-* , title, alt ... (only those present)
    bbox: list[float]  # [x, y, width, height] in CSS px, relative to the top document's viewport
    zone: str  # Zone
    fixed: bool  # position fixed or sticky
    in_viewport: bool
    occluded: bool  # elementFromPoint at its centre hits something else
    disabled: bool
    checked: bool | None
    selected: bool | None
    editable: bool
    interactive: bool  # False for informative-only elements (headings, prices, labels)
    options: list[str]  # for <select>: visible option labels
    frame: str  # "" for the top document, else a frame path such as "0" or "0/1"
    cross_origin: bool
    new: bool  # not present in the previous observation of the same document
    prose: (
        bool  # paragraph-like text (paragraph, list item, cell): its line shows the part the goal points to
    )
    block: str  # key of the small block around it (card, row, list item) in the raw pass's ``blocks``


class ScrollInfo(TypedDict):
    y: float
    height: float
    viewport_height: float
    above_px: float
    below_px: float


class TabInfo(TypedDict):
    id: str
    url: str
    title: str
    active: bool


class Observation(TypedDict, total=False):
    """What the agent sees at one step. ``text`` is exactly what the model is shown."""

    url: str
    title: str
    tabs: list[TabInfo]
    active_tab_id: str
    scroll: ScrollInfo
    elements: list[Element]  # every marked element (the kept ones first)
    kept_ids: list[int]  # ids shown in ``text`` (bounded, goal-aware)
    omitted: int  # marked elements left out of ``text``
    text: str
    chars: int
    page_text: str  # visible text of the page (bounded), for answering questions
    mapping_hash: str  # structure of all marked elements
    candidate_hash: str  # the kept candidates
    dom_hash: str  # coarse fingerprint of the document content
    page_type: str  # PageType
    frames: list[dict[str, Any]]  # {"path", "url", "cross_origin", "reached"}
    observe_ms: int
    screenshot_path: str | None
    document_id: str  # changes when the document is replaced (navigation), not on DOM mutation
    counts: dict[
        str, Any
    ]  # what the marking pass saw: document, hidden, candidates, marked, caps, where it stopped


# --------------------------------------------------------------------------------------------------------------
# Records
# --------------------------------------------------------------------------------------------------------------


class TraceRecord(TypedDict, total=False):
    """One line of ``runs/<run_id>/trace.jsonl``: one graph node step."""

    run_id: str
    seq: int
    ts: float
    node: str
    stage: str
    step: int
    url: str
    plan_step: str | None
    action: Action | None
    result: ActionResult | None
    node_ms: float  # milliseconds, to 0.01
    screenshot: str | None  # path relative to the run dir
    note: str
    terminal_type: str | None
    terminal_reason: str | None
    usage: dict[str, Any]
    call_usage: dict[str, Any] | None  # this step's own model call: input/output tokens, structured output


# --------------------------------------------------------------------------------------------------------------
# Planning requests and results (the Backend contract of agent.planning.base; the llm package reads them too)
# --------------------------------------------------------------------------------------------------------------


class Usage(TypedDict, total=False):
    """Model usage of one call (all zero for the offline backend)."""

    input_tokens: int
    output_tokens: int
    total_tokens: int
    calls: int
    cost_usd: float
    structured_output: str  # the structured-output method the call was made with (model backends)
    images: int  # screenshots sent (only once one was)
    image_tokens: int  # their estimated tokens, already inside input_tokens


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
    extracted: str  # what a pdf_extract or mcp step returned (the data itself)


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
    tools: list[dict[str, Any]]  # the run's MCP tools: {name, server, description, input_schema}


class BackendReply(TypedDict, total=False):
    """What every backend result carries besides its answer: the reasoning, raw output, usage, any error."""

    reasoning: str
    raw: dict[str, Any]  # the backend's full structured output (seed fields for the LLM planner)
    usage: Usage
    error: str  # set when the backend failed (model error, invalid reply after re-ask)
    error_kind: BackendErrorKind
    error_retryable: bool  # False when asking again cannot help (401/403/404/400): the run ends at once
    note: str  # a remark for the run's trace, e.g. that vision was turned off because images were refused


class PlanResult(BackendReply, total=False):
    proposed_actions: list[str]  # 1-5 high-level steps, empty when task_complete
    task_complete: bool
    final_answer: str
    success: bool  # False when the planner gives up (task_complete with a failure answer)
    failure_reason: str  # e.g. insufficient_knowledge when the planner cannot understand the goal


class TranslateRequest(TypedDict, total=False):
    goal: str
    plan_step: str
    observation: Observation
    allowed_actions: list[str]
    avoid_elements: list[int]
    stage: str
    history: list[HistoryItem]
    tools: list[dict[str, Any]]


class TranslateResult(BackendReply, total=False):
    action: Action | None  # None when the step cannot be grounded
    status: str  # success | failure
    error_type: str  # none | element_not_found | ambiguous_step | tool_limit | navigation_blocked | unknown
    message: str
