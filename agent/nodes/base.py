"""What every node shares: timing, crash capture, the trace record, the live progress event, and the small
update builders (a terminal, a failed step, a hint, usage) so each is written once.

A node body is ``async def body(state, ctx) -> dict``. The wrapper gives it the run's Context, turns an
unexpected exception into a recorded ``goal_failed/node_error`` terminal (so every run still ends cleanly),
writes one trace record per node step and streams a custom event for CLIs and embedding apps.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
import traceback
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

from langgraph.errors import GraphBubbleUp
from langgraph.runtime import Runtime as GraphRuntime

from agent.browser import registry
from agent.context import Context
from agent.dom.options import ObserveOptions
from agent.llm.usage import add_usage
from agent.nodes.decisions import decision_of
from agent.nodes.threads import fallback_context, fork_update, known_not_forked, run_context, run_id_of
from agent.records import append_soon, blocking_io_allowed, elapsed_seconds, records_written, until_written
from agent.runtime import event_listener, full_observation, is_digest, store_observation
from agent.runtime import release as release_runtime
from agent.safety import recorded_action
from agent.state import AgentState
from agent.terminals import NODE_ERROR, terminal_for
from agent.types import ALL_ACTIONS, ELEMENT_ACTIONS, KIND_MODEL_ERROR, REQUIRED_ARGS
from agent.util.elements import describe_element

NodeBody = Callable[[AgentState, Context], Awaitable[dict[str, Any]]]

#: Keys a node body may return for the trace only; they never reach graph state.
TRACE_ONLY = ("_note", "_remark", "_screenshot", "_action", "_result", "_plan_step", "_call_usage")


#: Hints the planner sees at most (the newest).
MAX_HINTS = 6


def terminal(reason: str, stop_reason: str | None = None, **extra: Any) -> dict[str, Any]:
    """The update that ends the run with ``reason`` (its terminal type follows from the reason)."""
    update: dict[str, Any] = {"terminal_type": terminal_for(reason), "terminal_reason": reason}
    if stop_reason is not None:
        update["stop_reason"] = stop_reason
    return {**update, **extra}


def with_hint(state: dict[str, Any], hint: str) -> list[str]:
    """The planner hints with ``hint`` added (only the newest :data:`MAX_HINTS` are kept)."""
    return [*(state.get("hints") or []), hint][-MAX_HINTS:]


def failed_result(
    action: dict[str, Any], error_type: str, message: str, *, execution_time_ms: int = 0
) -> dict[str, Any]:
    """An ActionResult for a step that failed before (or instead of) reaching the page."""
    return {
        "action": action.get("action"),
        "args": action.get("args") or {},
        "element_id": action.get("element_id"),
        "status": "failure",
        "error_type": error_type,
        "message": message,
        "execution_time_ms": execution_time_ms,
        "events": [],
    }


def failed_step(
    state: dict[str, Any],
    action: dict[str, Any],
    *,
    error_type: str,
    message: str,
    hint: str,
    **history_extra: Any,
) -> dict[str, Any]:
    """A step that failed without acting (refused, not grounded): recorded, counted, explained to the
    planner, and the queued plan dropped so the planner is asked again."""
    item = history_item(
        state, action, status="failure", error_type=error_type, message=message, **history_extra
    )
    return {
        "history": [item],
        "errors": int(state.get("errors", 0)) + 1,
        "plan": [],
        "last_result": failed_result(action, error_type, message),
        "hints": with_hint(state, hint),
    }


def backend_error(source: str, result: dict[str, Any]) -> dict[str, Any]:
    """A failed backend call (model error, invalid reply, timeout) handed to ``error_retry``."""
    return {
        "pending_error": {
            "source": source,
            "kind": result.get("error_kind") or KIND_MODEL_ERROR,
            "message": result["error"],
            "retryable": result.get("error_retryable", True),
        },
        "_note": f"{source} error: {result['error']}",
    }


def usage_update(state: dict[str, Any], node: str, usage: dict[str, Any] | None) -> dict[str, Any]:
    """Add one backend call's model usage to the run's totals and to ``node``'s share; the call's own
    figures (prompt and output tokens, structured-output method) go into its trace record."""
    if not usage:
        return {}
    by_node = dict(state.get("usage_by_node") or {})
    by_node[node] = dict(add_usage(by_node.get(node), usage))
    total: dict[str, Any] = dict(add_usage(state.get("usage"), usage))
    method = usage.get("structured_output") or (state.get("usage") or {}).get("structured_output")
    if method:
        total["structured_output"] = method
    call = {
        k: usage[k] for k in ("input_tokens", "output_tokens", "calls", "structured_output") if k in usage
    }
    return {"usage": total, "usage_by_node": by_node, "_call_usage": call}


def backend_remark(result: dict[str, Any]) -> dict[str, Any]:
    """The backend's remark for the trace (e.g. vision turned off), recorded beside the node's own note."""
    return {"_remark": result["note"]} if result.get("note") else {}


def observe_options(ctx: Context) -> ObserveOptions:
    """The observation settings of this run."""
    return ObserveOptions(
        max_elements=ctx.max_elements,
        max_chars=ctx.max_chars,
        screenshot_mode=ctx.screenshot_mode,
        draw_badges=ctx.draw_badges,
    )


def validate_action(action: Any, observation: dict[str, Any], allowed: list[str]) -> str | None:
    """Why ``action`` cannot run here, or None. Checked in code whatever the backend (or a person) said."""
    if not isinstance(action, dict):
        return "the action is not an object"
    name = action.get("action")
    if name not in ALL_ACTIONS:
        return f"unknown action {name!r}"
    if name not in allowed:
        return f"action {name!r} is not allowed at this stage"
    args = action.get("args")
    if args is not None and not isinstance(args, dict):
        return "the action's args must be an object"
    args = args or {}
    element_id = action.get("element_id")
    if name in ELEMENT_ACTIONS:
        if not isinstance(element_id, int) or isinstance(element_id, bool):
            return f"{name} needs the id of an observed element"
        if element_id not in {e.get("id") for e in observation.get("elements", [])}:
            return f"element {element_id} is not in the current observation"
    key = REQUIRED_ARGS.get(name)
    if key and not str(args.get(key, "")).strip() and not (name == "type" and args.get(key) == ""):
        return f"{name} needs args.{key}"
    return None


#: The only words that approve a risky action.
CONSENT_WORDS = ("y", "yes", "approve")


def parse_decision(answer: Any) -> tuple[str, dict[str, Any] | None]:
    """('approved' | 'denied' | 'edited', edited action) from a resume value.

    Consent is strict: only True, "y", "yes" or "approve" (any case, surrounding spaces ignored) approve, or
    {"decision": one of those} / {"decision": "edit", "action": {...}} (a dict may add "reason", the words a
    denial is recorded with, e.g. "because no one could be asked"). Anything else - "ok", "sure", "yes!",
    "yes please", a number - is a denial: silence or a vague word never authorizes a risky action.
    """
    if isinstance(answer, bool):
        return ("approved" if answer else "denied"), None
    if isinstance(answer, str):
        return ("approved" if answer.strip().lower() in CONSENT_WORDS else "denied"), None
    if isinstance(answer, dict):
        decision = str(answer.get("decision", "")).lower()
        if decision in ("edit", "edited") and isinstance(answer.get("action"), dict):
            return "edited", answer["action"]
        return parse_decision(decision)
    return "denied", None


def history_item(
    state: dict[str, Any],
    action: dict[str, Any],
    *,
    status: str,
    message: str,
    error_type: str = "none",
    url: str | None = None,
    step: int | None = None,
    **extra: Any,
) -> dict[str, Any]:
    """One entry of the step history, the shape the planner prompt and the report read."""
    return {
        "step": int(state.get("steps", 0)) if step is None else step,
        "plan_step": state.get("current_step"),
        "action": action.get("action"),
        "element_id": action.get("element_id"),
        "target": describe_element(state.get("observation"), action.get("element_id")),
        "args": action.get("args") or {},
        "status": status,
        "error_type": error_type,
        "message": message,
        "url": state.get("url", "") if url is None else url,
        **extra,
    }


def emit(event: dict[str, Any]) -> None:
    """Hand a progress event to the runner's listener, else send it as a custom stream event
    (``stream_mode="custom"``, for Studio and embedding apps); a no-op outside a streaming run."""
    listener = event_listener()
    if listener is not None:
        with contextlib.suppress(Exception):  # a consumer's failure must not break the run
            listener(event)
        return
    try:
        from langgraph.config import get_stream_writer

        writer = get_stream_writer()
    except Exception:  # noqa: BLE001 - not inside a runnable context
        return
    try:
        writer(event)
    except Exception:  # noqa: BLE001 - a consumer's failure must not break the run
        return


def _announce(name: str, state: AgentState) -> None:
    """Stream that this node starts now, so a live display names the node at work (a model call can take long)."""
    emit(
        {
            "event": "running",
            "node": name,
            "stage": state.get("stage"),
            "step": step_of(name, dict(state)),
            "url": state.get("url", ""),
        }
    )


def graph_node(name: str) -> Callable[[NodeBody], Callable[..., Awaitable[dict[str, Any]]]]:
    """Wrap a node body with context, crash capture, tracing and streaming."""

    def decorate(body: NodeBody) -> Callable[..., Awaitable[dict[str, Any]]]:
        async def node(state: AgentState, runtime: GraphRuntime[Context]) -> dict[str, Any]:
            _announce(name, state)
            started = time.perf_counter()
            fork: dict[str, Any] = {}
            try:
                ctx = run_context(runtime.context, state)
            except Exception as exc:  # noqa: BLE001 - a bad context is a clean terminal, not a traceback
                ctx = fallback_context(state)
                if name == "finalize" and state.get("terminal_type"):
                    update = await body(state, ctx)  # the run already ended (at start): record that ending
                else:
                    update = _crash_update(name, exc, kind="invalid_context")
            else:
                await records_written()  # the steps before this one are on disk before it acts
                fork = {} if known_not_forked(state, ctx) else await _fork_update(name, state, ctx)
                state = await _with_full_observation({**state, **fork})  # type: ignore[assignment]
                try:
                    with registry.in_use(run_id_of(state, ctx)):
                        update = {**fork, **await body(state, ctx)}
                except GraphBubbleUp:
                    raise  # interrupts and other control flow belong to LangGraph
                except asyncio.CancelledError:
                    await _release_on_cancel(state, ctx)
                    raise
                except Exception as exc:  # noqa: BLE001 - every crash becomes a recorded terminal
                    update = {**fork, **_crash_update(name, exc)}
            # to 0.01 ms, not truncated to whole ones: the overhead benchmark subtracts it from the step's time
            elapsed_ms = round((time.perf_counter() - started) * 1000, 2)
            trace_extra = {key: update.pop(key) for key in TRACE_ONLY if key in update}
            await _record(name, state, ctx, update, trace_extra, elapsed_ms)
            await _keep_observation_out_of_state(state, update)
            return update

        node.__name__ = name
        node.__qualname__ = name
        node.__doc__ = body.__doc__  # not functools.wraps: LangGraph reads the wrapper's own signature
        return node

    return decorate


async def _fork_update(name: str, state: AgentState, ctx: Context) -> dict[str, Any]:
    """:func:`fork_update` in place where the driver allows small file I/O on its loop (the runner: a run's
    first node asks it, and a thread hop cost that step milliseconds on a busy machine), else off the loop."""
    if blocking_io_allowed():
        return fork_update(name, dict(state), ctx)
    return await asyncio.to_thread(fork_update, name, dict(state), ctx)


async def _with_full_observation(state: dict[str, Any]) -> dict[str, Any]:
    """State holds a digest of the latest observation; the node body gets the full one."""
    observation = state.get("observation")
    if not is_digest(observation):
        return state
    return {**state, "observation": await full_observation(str(state.get("run_id")), observation)}


async def _keep_observation_out_of_state(state: dict[str, Any], update: dict[str, Any]) -> None:
    """A new observation goes to the run's records; state (and so every checkpoint) keeps its digest."""
    observation = update.get("observation")
    run_id = update.get("run_id") or state.get("run_id")
    run_dir = update.get("run_dir") or state.get("run_dir")
    if isinstance(observation, dict) and observation and not is_digest(observation) and run_id and run_dir:
        update["observation"] = await store_observation(
            str(run_id), Path(run_dir), int(update.get("seq", 0)), observation
        )


async def _release_on_cancel(state: dict[str, Any], ctx: Context) -> None:
    """A cancelled run (Studio's cancel, a stopped task) lets its browser go now, not when the server stops."""
    run_id = run_id_of(state, ctx)
    release_runtime(run_id)
    if run_id and not ctx.keep_browser_open:
        with contextlib.suppress(Exception):
            await asyncio.shield(registry.close(run_id))


def _crash_update(name: str, exc: BaseException, kind: str = NODE_ERROR) -> dict[str, Any]:
    summary = f"{name} failed: {type(exc).__name__}: {exc}"
    if kind != NODE_ERROR:
        summary = f"{name} failed: the run's settings cannot be used: {exc}"
    note = "".join(traceback.format_exception(exc))[-4000:] if kind == NODE_ERROR else summary
    return terminal(NODE_ERROR, summary[:500], _note=note)


async def _record(
    name: str,
    state: AgentState,
    ctx: Context,
    update: dict[str, Any],
    extra: dict[str, Any],
    elapsed_ms: float,
) -> None:
    """Append this node step to the run's trace and stream it. Needs a run id (set by ``start``)."""
    run_id = update.get("run_id") or state.get("run_id")
    run_dir = update.get("run_dir") or state.get("run_dir")
    seq = int(state.get("seq", 0)) + 1
    update["seq"] = seq
    merged = {**state, **{k: v for k, v in update.items() if k != "history"}}
    update["decision"] = decision_of(name, merged, str(extra.get("_note", "")))
    record = {
        "run_id": run_id,
        "seq": seq,
        "ts": time.time(),
        "node": name,
        "stage": merged.get("stage"),
        "step": step_of(name, merged),
        "url": merged.get("url", ""),
        "plan_step": extra.get("_plan_step", merged.get("current_step")),  # execute: the step it carried out
        # a password the offline planner types from the goal is not repeated in the records
        "action": _hidden(extra.get("_action"), state),
        "result": _hidden(extra.get("_result"), state),
        "node_ms": elapsed_ms,
        "screenshot": extra.get("_screenshot"),
        "note": "; ".join(n for n in (extra.get("_note", ""), extra.get("_remark", "")) if n),
        "terminal_type": update.get("terminal_type"),
        "terminal_reason": update.get("terminal_reason"),
        "usage": update.get("usage") or {},
        "call_usage": extra.get("_call_usage"),  # this node's model call alone (prompt tokens per call)
    }
    if run_id and run_dir:
        # Off the event loop (`langgraph dev` raises BlockingError on blocking calls in async nodes), and in the
        # file before the node returns: a stop right after a step never loses its record.
        await until_written(append_soon(str(run_id), Path(run_dir), record))
    emit(
        {
            "event": "node",
            **{k: record[k] for k in ("node", "seq", "stage", "step", "url", "plan_step", "node_ms")},
            "action": record["action"],
            "status": (record["result"] or {}).get("status"),
            "terminal_type": record["terminal_type"],
            "terminal_reason": record["terminal_reason"],
            "note": record["note"] if name != "observe" else "",
            "elapsed_s": elapsed_seconds(merged),
            "usage": merged.get("usage") or {},
        }
    )


def _hidden(action_or_result: dict[str, Any] | None, state: AgentState) -> dict[str, Any] | None:
    """An action or result as the trace keeps it: text typed into a password field hidden."""
    return recorded_action(action_or_result, state.get("observation")) if action_or_result else None


#: Nodes that run after a step's action; every other node (observe ... confirm) prepares the next step.
_AFTER_ACTION = ("start", "execute", "progress", "finalize")


def step_of(name: str, state: dict[str, Any]) -> int:
    """The step a node's record belongs to, so a report groups observe..progress of one action together."""
    steps = int(state.get("steps", 0))
    return steps if name in _AFTER_ACTION or state.get("terminal_type") else steps + 1
