"""Run-time settings: the graph's ``context_schema``.

One flat dataclass so LangGraph Studio renders it as a form (each field's ``description`` is the label help).
Values come from, in rising precedence: these defaults < ``configs/default.yaml`` (or ``--config FILE``) <
``WAYFINDER_*`` environment variables < CLI flags. See :mod:`agent.config` for loading and validation.
"""

from __future__ import annotations

from dataclasses import dataclass, field, fields
from pathlib import Path
from typing import Any, Literal

from agent.browser.netguard import start_allows_private
from agent.browser.options import BrowserOptions
from agent.util.secrets import Secrets


def _d(default: Any, description: str, **choices: Any) -> Any:
    meta: dict[str, Any] = {"description": description}
    if "choices" in choices:
        meta["choices"] = tuple(choices["choices"])
    if isinstance(default, list | dict):
        return field(default_factory=lambda: type(default)(default), metadata=meta)
    return field(default=default, metadata=meta)


@dataclass(kw_only=True)
class Context:
    """Settings for one run. Every field has a default, so ``Context()`` is a working offline setup."""

    # --- planning backend -------------------------------------------------------------------------------
    planner: Literal["auto", "rules", "openai"] = _d(
        "auto",
        "Planning backend: 'rules' (offline, deterministic), 'openai' (any OpenAI-compatible server), or "
        "'auto' (openai when a model is configured, else rules).",
        choices=("auto", "rules", "openai"),
    )
    model: str | None = _d(None, "Model name for the openai backend, e.g. gpt-4o-mini or a local model id.")
    base_url: str | None = _d(
        None, "Base URL of an OpenAI-compatible server (vLLM, Ollama, llama.cpp). Empty means api.openai.com."
    )
    api_key: str | None = _d(
        None, "API key; defaults to OPENAI_API_KEY. Needed unless base_url is a local server."
    )
    executor_model: str | None = _d(None, "Model for the translate (executor) node; defaults to `model`.")
    temperature: float = _d(0.0, "Sampling temperature for both prompts.")
    structured_output_method: Literal["auto", "json_schema", "function_calling", "json_mode", "text"] = _d(
        "auto",
        "How structured output is requested: auto (json_schema, then function_calling, json_mode and plain "
        "text as the server refuses each; the one that worked is remembered per server), or one of them.",
        choices=("auto", "json_schema", "function_calling", "json_mode", "text"),
    )
    planner_max_output_tokens: int = _d(1024, "Most tokens the model may write in one planner reply.")
    executor_max_output_tokens: int = _d(400, "Most tokens the model may write in one executor reply.")
    judge_max_output_tokens: int = _d(600, "Most tokens the model may write in one judge reply.")
    model_timeout_s: float = _d(60.0, "Timeout of one model request, in seconds.")
    model_max_retries: int = _d(2, "Retries on 429/5xx/connection errors (never on 400/401).")
    model_retry_backoff_s: float = _d(
        0.5, "First pause before retrying a model request, in seconds; doubles per retry (plus jitter)."
    )
    vision: Literal["off", "auto", "on"] = _d(
        "off", "Send screenshots to the model: off, auto (when useful) or on.", choices=("off", "auto", "on")
    )
    vision_image_size: int = _d(
        1024, "Longest side in pixels of a screenshot sent to the model (scaled down, never up)."
    )
    vision_detail: Literal["auto", "low", "high"] = _d(
        "auto",
        "The detail a model is asked to see a screenshot at: auto, low or high (the image_url detail).",
        choices=("auto", "low", "high"),
    )
    prompts_dir: str | None = _d(
        None, "Directory with planner.md / executor.md / judge.md overriding the bundled prompts."
    )
    judge: Literal["rules", "model"] = _d(
        "rules",
        "Who judges a success claim: 'rules' (the recorded evidence alone) or 'model' (the rules, then the "
        "configured model may still withhold success; it can never grant it).",
        choices=("rules", "model"),
    )
    price_per_1k_input: float = _d(0.0, "Cost in USD per 1000 input tokens (for cost totals and budget).")
    price_per_1k_output: float = _d(0.0, "Cost in USD per 1000 output tokens.")

    # --- budgets ----------------------------------------------------------------------------------------
    max_steps: int = _d(30, "Most browser actions a run may execute.")
    max_planner_calls: int = _d(30, "Most planner calls a run may make.")
    max_seconds: float = _d(300.0, "Wall-clock budget of a run, in seconds.")
    max_failures: int = _d(6, "Most failed actions/model errors before the run stops.")
    max_auto_scrolls: int = _d(4, "Most automatic scrolls loop mitigation may use (paged scan).")
    max_tokens: int = _d(0, "Token budget for the run (0 = unlimited).")
    max_cost_usd: float = _d(0.0, "Cost budget for the run in USD (0 = unlimited).")
    max_model_calls: int = _d(
        0, "Most model requests a run may make, planner, executor and judge together (0 = unlimited)."
    )
    max_consecutive_failures: int = _d(
        0, "Failed steps in a row before the run stops, however many succeeded before (0 = unlimited)."
    )
    auto_done: bool = _d(
        False,
        "End action goals without asking the planner again once the verify stage is reached, the plan is "
        "used up and the page shows no error (saves a model call; leave off for goals with several parts).",
    )
    repeat_limit: int = _d(3, "Identical action+element+URL repeats before loop mitigation kicks in.")
    stagnation_limit: int = _d(4, "Steps with an unchanged page structure before loop mitigation kicks in.")

    # --- browser ----------------------------------------------------------------------------------------
    start_url: str | None = _d(None, "Page to open before the first step.")
    headless: bool = _d(True, "Run Chromium without a window.")
    browser_executable: str | None = _d(
        None, "Chromium/Chrome executable to launch (else found automatically)."
    )
    cdp_url: str | None = _d(None, "Attach to a running browser over CDP instead of launching one.")
    viewport_width: int = _d(1280, "Viewport width in CSS pixels.")
    viewport_height: int = _d(900, "Viewport height in CSS pixels.")
    dialog_policy: Literal["dismiss", "accept"] = _d(
        "dismiss",
        "Page dialogs: 'dismiss' (alerts acknowledged; confirm/prompt answered no) or 'accept'.",
        choices=("dismiss", "accept"),
    )
    action_timeout_s: float = _d(8.0, "Upper bound for one element action, fallbacks included.")
    navigation_timeout_s: float = _d(20.0, "Timeout of one navigation.")
    search_url_template: str = _d(
        "https://html.duckduckgo.com/html/?q={query}",
        "Search engine used when the page has no search box; {query} is URL-encoded.",
    )
    keep_browser_open: bool = _d(
        False,
        "Leave the browser open when the run ends (embedding apps and tests close it via the registry).",
    )
    browser_idle_timeout_s: float = _d(
        600.0,
        "Close a run's browser after this many seconds unused (a run paused at a question, a thread nobody "
        "resumes); the run reopens one at the recorded URL when it goes on. 0 = never.",
    )
    allowed_domains: list[str] = _d([], "If set, navigation is limited to these domains (and subdomains).")
    blocked_domains: list[str] = _d([], "Domains navigation may never reach.")
    upload_dirs: list[str] = _d(
        [],
        "Folders a page's file input may be given files from, besides the run's downloads folder (default: "
        "none; hidden files and folders are never uploaded).",
    )
    allow_local: bool = _d(
        False,
        "Let the browser reach loopback, private, link-local and cloud metadata addresses. Without it, "
        "loopback and private addresses are reached only when the start URL is on them, the others never.",
    )

    # --- tools ----------------------------------------------------------------------------------------------
    mcp_servers: dict[str, dict[str, Any]] = _d(
        {},
        "MCP servers whose tools the agent may call instead of driving a page, by name: {command, args, env, "
        "cwd} for a stdio server or {url, headers} for a streamable HTTP one (JSON in WAYFINDER_MCP_SERVERS).",
    )
    mcp_timeout_s: float = _d(
        30.0, "Most seconds to start an MCP server and list its tools, or for one tool call."
    )

    # --- observation ------------------------------------------------------------------------------------
    max_elements: int = _d(120, "Most elements listed in one observation.")
    max_chars: int = _d(12000, "Most characters of one serialized observation.")
    screenshot_mode: Literal["never", "on_demand", "every_step"] = _d(
        "never",
        "Screenshots: never, on_demand (screenshot action / vision), every_step.",
        choices=("never", "on_demand", "every_step"),
    )
    draw_badges: bool = _d(True, "Draw numbered Set-of-Mark badges on screenshots.")

    # --- human in the loop ------------------------------------------------------------------------------
    confirm_policy: Literal["ask", "auto", "deny"] = _d(
        "ask",
        "Risky actions: 'ask' (interrupt for approval), 'auto' (approve all; 'yes' means the same), 'deny' "
        "(never run them).",
        choices=("ask", "auto", "deny"),
    )
    on_denied: Literal["stop", "replan"] = _d(
        "stop",
        "A denied risky action: 'stop' ends the run goal_failed/user_declined; 'replan' records the refusal "
        "as a failed step and asks the planner for another way.",
        choices=("stop", "replan"),
    )
    secrets: list[str] = _d(
        [],
        "Secrets as NAME=VALUE or NAME=VALUE@domain: the model and the records see only <secret:NAME>; the "
        "value is typed only on the secret's domain (a value with '@' needs its @domain, or @* for any).",
    )
    interactive: bool = _d(False, "Allow the agent to ask the user questions (ask_user) and confirmations.")

    # --- records ----------------------------------------------------------------------------------------
    record_dir: str = _d("runs", "Directory where each run writes runs/<run_id>/ (trace, result, report).")
    run_id: str | None = _d(None, "Run id (default: generated). Also the LangGraph thread id.")

    def browser_options(self, run_dir: Path | None = None) -> BrowserOptions:
        """The browser layer's view of these settings."""
        return BrowserOptions(
            headless=self.headless,
            executable=self.browser_executable,
            cdp_url=self.cdp_url,
            viewport_width=self.viewport_width,
            viewport_height=self.viewport_height,
            dialog_policy=self.dialog_policy,
            action_timeout_s=self.action_timeout_s,
            navigation_timeout_s=self.navigation_timeout_s,
            search_url_template=self.search_url_template,
            downloads_dir=(run_dir / "downloads") if run_dir else None,
            allowed_domains=list(self.allowed_domains),
            blocked_domains=list(self.blocked_domains),
            allow_local=self.allow_local,
            upload_dirs=[Path(d) for d in self.upload_dirs],
            # By literal address or name only (no lookup here); a run re-decides with DNS when it starts.
            allow_private=start_allows_private(self.start_url, resolve=False),
        )

    def secret_store(self) -> Secrets:
        """The run's secrets, parsed (the setting is validated, so parsing cannot fail here)."""
        return Secrets.from_entries(self.secrets)

    @property
    def uses_model(self) -> bool:
        """True when planning goes through an OpenAI-compatible model."""
        if self.planner == "openai":
            return True
        return self.planner == "auto" and bool(self.model)


def context_field_names() -> list[str]:
    return [f.name for f in fields(Context)]
