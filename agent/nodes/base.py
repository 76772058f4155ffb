"""What every node shares: timing, crash capture, the trace record, and the live progress event.

A node body is ``async def body(state, ctx) -> dict``. The wrapper gives it the run's Context, turns an
unexpected exception into a recorded ``goal_failed/node_error`` terminal (so every run still ends cleanly),
writes one trace record per node step and streams a custom event for CLIs and embedding apps.
"""

from __future__ import annotations

import asyncio
import time
import traceback
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

from langgraph.errors import GraphBubbleUp
from langgraph.runtime import Runtime

from agent.config import context_from_any
from agent.context import Context
from agent.records import recorder_for
from agent.state import AgentState

NodeBody = Callable[[AgentState, Context], Awaitable[dict[str, Any]]]

#: Keys a node body may return for the trace only; they never reach graph state.
TRACE_ONLY = ("_note", "_screenshot", "_action", "_result", "_plan_step")


def describe_element(observation: dict[str, Any] | None, element_id: int | None) -> str:
    """Short description of an observed element, e.g. 'button "Sign in"' (for records and prompts)."""
    if element_id is None or not observation:
        return ""
    for element in observation.get("elements", []):
        if element.get("id") == element_id:
            label = element.get("name") or element.get("text") or element.get("placeholder") or ""
            kind = element.get("role") or element.get("tag") or "element"
            return f'{kind} "{label[:60]}"' if label else kind
    return f"element {element_id}"


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
    """Send a custom stream event (``stream_mode="custom"``); a no-op outside a streaming run."""
    try:
        from langgraph.config import get_stream_writer

        writer = get_stream_writer()
    except Exception:  # noqa: BLE001 - not inside a runnable context
        return
    try:
        writer(event)
    except Exception:  # noqa: BLE001 - a consumer's failure must not break the run
        return


def graph_node(name: str) -> Callable[[NodeBody], Callable[..., Awaitable[dict[str, Any]]]]:
    """Wrap a node body with context, crash capture, tracing and streaming."""

    def decorate(body: NodeBody) -> Callable[..., Awaitable[dict[str, Any]]]:
        async def node(state: AgentState, runtime: Runtime[Context]) -> dict[str, Any]:
            started = time.perf_counter()
            try:
                ctx = context_from_any(runtime.context)
            except Exception as exc:  # noqa: BLE001 - a bad context is a clean terminal, not a traceback
                ctx = Context()
                update = _crash_update(name, exc, kind="invalid_context")
            else:
                try:
                    update = await body(state, ctx)
                except GraphBubbleUp:
                    raise  # interrupts and other control flow belong to LangGraph
                except Exception as exc:  # noqa: BLE001 - every crash becomes a recorded terminal
                    update = _crash_update(name, exc)
            elapsed_ms = int((time.perf_counter() - started) * 1000)
            trace_extra = {key: update.pop(key) for key in TRACE_ONLY if key in update}
            await _record(name, state, ctx, update, trace_extra, elapsed_ms)
            return update

        node.__name__ = name
        node.__qualname__ = name
        node.__doc__ = body.__doc__  # not functools.wraps: LangGraph reads the wrapper's own signature
        return node

    return decorate


def _crash_update(name: str, exc: BaseException, kind: str = "node_error") -> dict[str, Any]:
    summary = f"{name} failed: {type(exc).__name__}: {exc}"
    return {
        "terminal_type": "goal_failed",
        "terminal_reason": "node_error",
        "stop_reason": summary[:500],
        "_note": "".join(traceback.format_exception(exc))[-4000:] if kind == "node_error" else summary,
    }


async def _record(
    name: str,
    state: AgentState,
    ctx: Context,
    update: dict[str, Any],
    extra: dict[str, Any],
    elapsed_ms: int,
) -> None:
    """Append this node step to the run's trace and stream it. Needs a run id (set by ``start``)."""
    run_id = update.get("run_id") or state.get("run_id")
    run_dir = update.get("run_dir") or state.get("run_dir")
    seq = int(state.get("seq", 0)) + 1
    update["seq"] = seq
    merged = {**state, **{k: v for k, v in update.items() if k != "history"}}
    record = {
        "run_id": run_id,
        "seq": seq,
        "ts": time.time(),
        "node": name,
        "stage": merged.get("stage"),
        "step": step_of(name, merged),
        "url": merged.get("url", ""),
        "plan_step": extra.get("_plan_step", merged.get("current_step")),  # execute: the step it carried out
        "action": extra.get("_action"),
        "result": extra.get("_result"),
        "node_ms": elapsed_ms,
        "screenshot": extra.get("_screenshot"),
        "note": extra.get("_note", ""),
        "terminal_type": update.get("terminal_type"),
        "terminal_reason": update.get("terminal_reason"),
        "usage": update.get("usage") or {},
    }
    if run_id and run_dir:
        # File I/O off the event loop: `langgraph dev` raises BlockingError on blocking calls in async nodes.
        await asyncio.to_thread(_append_record, run_id, Path(run_dir), record)
    emit(
        {
            "event": "node",
            **{k: record[k] for k in ("node", "seq", "stage", "step", "url", "plan_step", "node_ms")},
            "action": record["action"],
            "status": (record["result"] or {}).get("status"),
            "terminal_type": record["terminal_type"],
            "terminal_reason": record["terminal_reason"],
            "note": record["note"] if name != "observe" else "",
            "elapsed_s": _elapsed(merged),
            "usage": merged.get("usage") or {},
        }
    )


def _append_record(run_id: str, run_dir: Path, record: dict[str, Any]) -> None:
    recorder_for(run_id, run_dir).append(record)  # type: ignore[arg-type]


#: Nodes that run after a step's action; every other node (observe ... confirm) prepares the next step.
_AFTER_ACTION = ("start", "execute", "progress", "finalize")


def step_of(name: str, state: dict[str, Any]) -> int:
    """The step a node's record belongs to, so a report groups observe..progress of one action together."""
    steps = int(state.get("steps", 0))
    return steps if name in _AFTER_ACTION or state.get("terminal_type") else steps + 1


def _elapsed(state: dict[str, Any]) -> float:
    started = state.get("started_at")
    if not started:
        return 0.0
    return round(float(state.get("elapsed_before", 0.0)) + time.time() - float(started), 2)


def elapsed_seconds(state: dict[str, Any]) -> float:
    """Wall-clock seconds the run has used (across resumptions)."""
    return _elapsed(state)
