"""What nodes need besides state: the run's browser session and its :class:`Runtime` (planning backend).

Neither lives in graph state (Playwright objects and model clients cannot be checkpointed); both are found by
run id, built once per run and re-created on demand, which is what lets a resumed run in a new process carry
on. The browser sessions are kept by :mod:`agent.browser.registry`; the runtimes here.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
from collections.abc import Awaitable, Callable, Iterator
from contextvars import ContextVar
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import orjson

from agent.browser import registry
from agent.context import Context
from agent.planning.base import Backend, PlanRequest, PlanResult, TranslateRequest, TranslateResult
from agent.records import write_soon
from agent.tools import registry as tool_registry
from agent.tools.mcp import McpTools, load_tools
from agent.types import KIND_TIMEOUT

#: Upper bound of one offline (rules) backend call, in seconds.
RULES_CALL_TIMEOUT_S = 30.0


#: Where progress events go when the caller listens in-process (the runner): straight to its listener.
_event_listener: ContextVar[Callable[[dict[str, Any]], None] | None] = ContextVar(
    "wayfinder_events", default=None
)


@contextlib.contextmanager
def events_to(listener: Callable[[dict[str, Any]], None] | None) -> Iterator[None]:
    """Within this block (and the graph tasks it starts), :func:`agent.nodes.base.emit` calls ``listener`` directly.

    The runner streams only ``updates`` then: asking LangGraph for ``custom`` events as well makes every graph
    step wait on the stream alongside its task, which cost ~1-2 ms per step, a tenth of an action's overhead.
    """
    token = _event_listener.set(listener)
    try:
        yield
    finally:
        _event_listener.reset(token)


def event_listener() -> Callable[[dict[str, Any]], None] | None:
    """The listener set by :func:`events_to` around this run, if any."""
    return _event_listener.get()


@dataclass(frozen=True)
class Runtime:
    """One run's planning services, built once: the backend (model client, prompts) and its call bound."""

    run_id: str
    context: Context
    backend: Backend
    #: Upper bound for one backend call: every attempt, the re-ask and backoff, plus headroom.
    call_timeout_s: float
    #: The event loop the backend's HTTP clients belong to (a resumed run may come back on another loop).
    loop: asyncio.AbstractEventLoop | None = None

    async def plan(self, request: PlanRequest) -> PlanResult:
        return await self._bounded(self.backend.plan(request), "planner")

    async def translate(self, request: TranslateRequest) -> TranslateResult:
        return await self._bounded(self.backend.translate(request), "translator")

    async def _bounded(self, call: Awaitable[Any], who: str) -> Any:
        """One backend call within :attr:`call_timeout_s`; running out is an error result, not an exception."""
        try:
            return await asyncio.wait_for(call, timeout=self.call_timeout_s)
        except TimeoutError:
            return {
                "error": f"{who} did not answer within {self.call_timeout_s:.0f}s",
                "error_kind": KIND_TIMEOUT,
            }


_runtimes: dict[str, Runtime] = {}


def backend_for(ctx: Context) -> Backend:
    """The planning backend the settings ask for: rules offline, or an OpenAI-compatible model."""
    if ctx.uses_model:
        from agent.planning.llm import OpenAIBackend

        return OpenAIBackend(ctx)
    from agent.planning.offline import RulesBackend

    return RulesBackend()


def call_timeout(ctx: Context) -> float:
    """Upper bound for one backend call under these settings."""
    if not ctx.uses_model:
        return RULES_CALL_TIMEOUT_S
    from agent.planning.llm import max_call_seconds

    return max_call_seconds(ctx) + 5.0


def _build(run_id: str, ctx: Context, loop: asyncio.AbstractEventLoop | None) -> Runtime:
    return Runtime(
        run_id=run_id, context=ctx, backend=backend_for(ctx), call_timeout_s=call_timeout(ctx), loop=loop
    )


async def runtime_for(state: dict[str, Any], ctx: Context) -> Runtime:
    """The run's Runtime, built on first use (off the event loop: building reads prompt files and sets up
    TLS, which ``langgraph dev`` rejects as blocking calls) and rebuilt only when the settings changed (a
    resume with overrides) or the run continues on another event loop."""
    run_id = str(state.get("run_id") or ctx.run_id or "")
    loop = asyncio.get_running_loop()
    current = _runtimes.get(run_id) if run_id else None
    if current is not None and current.loop is loop and current.context == ctx:
        return current
    built = await asyncio.to_thread(_build, run_id, ctx, loop)
    if run_id:
        _runtimes[run_id] = built
    return built


def release(run_id: str | None) -> None:
    """Forget a finished run's Runtime, observation and MCP tools (a resumed run builds or reads them again)."""
    if run_id:
        _runtimes.pop(run_id, None)
        _observations.pop(run_id, None)
        tool_registry.drop(run_id)


async def ensure_tools(state: dict[str, Any], ctx: Context) -> McpTools | None:
    """The run's MCP tools, loaded on first use (None without servers); McpError when a server fails."""
    if not ctx.mcp_servers:
        return None
    run_id = str(state.get("run_id") or ctx.run_id or "")
    loaded = tool_registry.get(run_id)
    if loaded is None:
        loaded = await load_tools(ctx.mcp_servers, ctx.mcp_timeout_s)
        tool_registry.put(run_id, loaded)
    return loaded


#: Run metadata keys the LangGraph API sets on every run it executes.
SERVER_METADATA_KEYS = ("langgraph_host", "langgraph_api_url")


def run_config() -> dict[str, Any]:
    """The LangGraph config of the node running now ({} outside a graph run)."""
    try:
        from langgraph.config import get_config

        return dict(get_config())
    except Exception:  # noqa: BLE001 - outside a runnable context
        return {}


def served_by_langgraph_api(config: dict[str, Any] | None = None) -> bool:
    """True when this run is executed by LangGraph Server (``langgraph dev``, Studio, a deployment)."""
    metadata = (config if config is not None else run_config()).get("metadata") or {}
    return any(metadata.get(key) for key in SERVER_METADATA_KEYS)


def thread_probe() -> registry.StillWanted | None:
    """Under LangGraph Server, a check that the run's thread still exists (deleting a thread deletes its
    checkpoints), so a deleted thread's browser is closed; None elsewhere (the caller owns the lifetime)."""
    config = run_config()
    configurable = config.get("configurable") or {}
    saver = configurable.get("__pregel_checkpointer")  # the checkpointer LangGraph runs this graph with
    thread_id = configurable.get("thread_id")
    if not served_by_langgraph_api(config) or saver is None or not thread_id:
        return None
    probe_config = {"configurable": {"thread_id": thread_id, "checkpoint_ns": ""}}

    async def thread_exists() -> bool:
        return await saver.aget_tuple(probe_config) is not None

    return thread_exists


def run_dir_of(state: dict[str, Any], ctx: Context) -> Path:
    return Path(state.get("run_dir") or Path(ctx.record_dir) / state["run_id"])


async def apply_network_policy(session: Any, ctx: Context, start_url: str | None) -> None:
    """Enforce this run's network guard in the browser, also in a session the run did not open
    (``run_goal(session=...)``): its blocked domains are added, its allowed list, when set, replaces the
    session's; loopback and private addresses are reachable when the start URL is on them (resolved with
    the session's resolver) or the session already allowed them, everything with ``allow_local``."""
    from agent.browser.netguard import start_allows_private

    options = session.options
    blocked = sorted({*options.blocked_domains, *ctx.blocked_domains})
    allowed = list(ctx.allowed_domains) or list(options.allowed_domains)
    if blocked != sorted(options.blocked_domains) or allowed != list(options.allowed_domains):
        await session.set_domain_policy(allowed, blocked)
    # an address or a name known without a lookup decides in place; a thread hop only for a real DNS lookup
    on_private = start_allows_private(
        start_url, session.host_checker, resolve=False
    ) or await asyncio.to_thread(start_allows_private, start_url, session.host_checker)
    allow_private = options.allow_private or on_private
    allow_local = options.allow_local or ctx.allow_local
    if (allow_private, allow_local) != (options.allow_private, options.allow_local):
        await session.set_address_policy(allow_private=allow_private, allow_local=allow_local)


async def ensure_session(state: dict[str, Any], ctx: Context):
    """The run's live browser session; a new one (restored, at the recorded URL) if none is alive."""
    session = registry.get(state["run_id"])
    if session is not None:
        return session
    session, _lost = await reopen_session(state, ctx)
    return session


def document_of(url: str) -> str:
    """A page's URL without its fragment: two URLs that differ only there show the same document."""
    return (url or "").split("#", 1)[0]


def unsent_fields(history: list[dict[str, Any]], url: str) -> list[dict[str, Any]]:
    """The values typed or chosen in the open document at ``url`` that no later step sent: walking back
    through the step log until the step that loaded this document (a navigation, a submit that left).
    The latest value of each field, in the order they were first filled."""
    found: dict[str, dict[str, Any]] = {}
    for item in reversed(history):
        effect = item.get("effect") or {}
        if item.get("status") == "success" and (effect.get("navigated") or effect.get("url_changed")):
            break  # this step loaded a new document: what was typed before it is gone or was sent
        field = item.get("field")
        if not isinstance(field, dict) or document_of(item.get("url", "")) != document_of(url):
            continue
        key = "|".join(str(field.get(k, "")) for k in ("name_attr", "id_attr", "label", "placeholder"))
        found.setdefault(key, field)
    return list(reversed(found.values()))


def page_to_reopen(state: dict[str, Any]) -> str:
    """The URL the run's active tab was at: the last observed one, unless the last action moved the tab on
    after it (the run stopped before the next observation)."""
    url = state.get("url") or ""
    last = state.get("last_result") or {}
    before, after = last.get("url_before") or "", last.get("url_after") or ""
    moved = after and after != "about:blank" and document_of(after) != document_of(before)
    return after if moved and document_of(url) == document_of(before) else url


async def reopen_session(state: dict[str, Any], ctx: Context) -> tuple[Any, list[str]]:
    """A new browser for a run that already had one (a resume, a crashed browser): the cookies and storage
    saved after the last step, the recorded URL reopened, values typed there but not sent typed again.

    Returns the session and what could not be restored, in words (never a typed value)."""
    from agent.browser.actions import execute_action
    from agent.browser.refill import field_label, refill_fields
    from agent.browser.session_launch import StorageStateError
    from agent.records import BROWSER_STATE_NAME
    from agent.util.secrets import revealed_fields

    run_dir = run_dir_of(state, ctx)
    session = await registry.open(
        state["run_id"],
        ctx.browser_options(run_dir),
        run_dir,
        idle_timeout_s=ctx.browser_idle_timeout_s,
        still_wanted=thread_probe(),
    )
    await apply_network_policy(session, ctx, state.get("start_url") or ctx.start_url)
    url = page_to_reopen(state)
    if not url or url == "about:blank":
        return session, []
    lost: list[str] = []
    saved: dict[str, Any] = {}
    try:
        if not session.attached:  # a browser we attached to over CDP keeps its own cookies: never overwrite
            saved = await session.load_storage_state(run_dir / BROWSER_STATE_NAME)
    except StorageStateError as exc:
        if state.get("history"):  # before the first step there was nothing to save
            lost.append(f"the cookies and site storage ({exc})")
    await session.seed_session_storage(url, saved)
    await execute_action(session, {"action": "navigate", "element_id": None, "args": {"url": url}})
    session.drain_events()
    landed = session.page.url
    fields = unsent_fields(list(state.get("history") or []), url)
    if document_of(landed) != document_of(url):
        lost.append(f"the page {url} (reopened, it went to {landed})")
        lost.extend(f"the value typed into {field_label(f)}" for f in fields)
    elif fields:
        fields, refused = revealed_fields(ctx.secret_store(), fields, landed)
        lost.extend(
            f"the value typed into {field_label(f)} (its secret may not be typed here)" for f in refused
        )
        lost.extend(await refill_fields(session.page, fields))
    return session, lost


# ---------------------------------------------------------------------------------------------------------
# observations: the full one in the run's records (and memory), a digest in state

#: Observation keys kept in state: enough to follow the run and to compare pages, without the page's text.
DIGEST_KEYS = (
    "url",
    "title",
    "active_tab_id",
    "omitted",
    "chars",
    "mapping_hash",
    "candidate_hash",
    "dom_hash",
    "page_type",
    "observe_ms",
    "screenshot_path",
    "document_id",
)
_observations: dict[str, tuple[str, dict[str, Any]]] = {}


def _write_observation(path: Path, data: bytes) -> None:
    try:
        path.write_bytes(data)
    except FileNotFoundError:  # the run's first observation, or its directory was removed since
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(data)


async def store_observation(
    run_id: str, run_dir: Path, seq: int, observation: dict[str, Any]
) -> dict[str, Any]:
    """Keep a full observation in the run's records (``observations/obs-<seq>.json``) and in memory; return
    the digest that stands for it in state (checkpoints stay small: no page text, no element list)."""
    ref = f"obs-{seq:04d}"
    path = run_dir / "observations" / f"{ref}.json"
    # In order with the trace records: the checkpoint holding this digest waits until the file is written.
    # now: a later node may change the dict in place. orjson: a big page's observation in a fraction of the
    # time json takes, on the step's path
    data = orjson.dumps(observation, default=str, option=orjson.OPT_NON_STR_KEYS)  # UTF-8 JSON
    write_soon(lambda: _write_observation(path, data))
    _observations[run_id] = (ref, observation)
    return {
        "ref": ref,
        "file": str(path),
        "elements_count": len(observation.get("elements") or []),
        **{key: observation[key] for key in DIGEST_KEYS if key in observation},
    }


def is_digest(observation: Any) -> bool:
    return isinstance(observation, dict) and "ref" in observation and "elements" not in observation


async def full_observation(run_id: str, digest: dict[str, Any]) -> dict[str, Any]:
    """The observation a digest stands for: from memory, else from the run's records (a resumed or forked
    run); the digest alone when the file is gone."""
    cached = _observations.get(run_id)
    if cached is not None and cached[0] == digest.get("ref"):
        return cached[1]
    try:
        text = await asyncio.to_thread(Path(str(digest.get("file"))).read_text, encoding="utf-8")
        observation = json.loads(text)
    except (OSError, ValueError):
        return dict(digest)
    _observations[run_id] = (str(digest.get("ref")), observation)
    return observation
