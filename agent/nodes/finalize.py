"""finalize: normalize the terminal, write result.json and the HTML report, release the browser.

Every run passes through here, whatever ended it, so every run has a valid terminal and a result on disk.
"""

from __future__ import annotations

import asyncio
import time
from pathlib import Path
from typing import Any

from agent.browser import registry
from agent.context import Context
from agent.nodes.base import elapsed_seconds, graph_node
from agent.records import recorder_for
from agent.stages import promote
from agent.state import AgentState
from agent.terminals import normalize


def result_object(state: dict[str, Any]) -> dict[str, Any]:
    """The run's outcome: what ``--json`` prints and ``result.json`` holds."""
    usage = state.get("usage") or {}
    return {
        "run_id": state.get("run_id"),
        "goal": state.get("goal"),
        "terminal_type": state.get("terminal_type"),
        "terminal_reason": state.get("terminal_reason"),
        "stop_reason": state.get("stop_reason"),
        "final_answer": state.get("final_answer"),
        "steps": int(state.get("steps", 0)),
        "stage": state.get("stage"),
        "url": state.get("url", ""),
        "run_dir": state.get("run_dir"),
        "elapsed_s": elapsed_seconds(state),
        "started_at": state.get("started_at"),
        "finished_at": time.time(),
        "usage": {
            "input_tokens": int(usage.get("input_tokens", 0)),
            "output_tokens": int(usage.get("output_tokens", 0)),
            "total_tokens": int(usage.get("total_tokens", 0)),
            "calls": int(usage.get("calls", 0)),
            "cost_usd": round(float(usage.get("cost_usd", 0.0)), 6),
            "by_node": state.get("usage_by_node") or {},
        },
    }


def write_report_safely(run_dir: Path) -> None:
    """report.html for people; a rendering problem never spoils the run's result."""
    from agent.report import write_report

    try:
        write_report(run_dir)
    except Exception:  # noqa: BLE001
        return


def _write_outputs(run_id: str, run_dir: Path, result: dict[str, Any]) -> None:
    recorder_for(run_id, run_dir).write_result(result)
    write_report_safely(run_dir)


@graph_node("finalize")
async def finalize(state: AgentState, ctx: Context) -> dict[str, Any]:
    terminal_type, reason = normalize(state.get("terminal_type"), state.get("terminal_reason"))
    update: dict[str, Any] = {
        "terminal_type": terminal_type,
        "terminal_reason": reason,
        "plan": [],
        "current_step": None,
    }
    if terminal_type == "goal_satisfied":
        update["stage"] = promote(state.get("stage"), "done")
    if not state.get("stop_reason") and terminal_type != "goal_satisfied":
        update["stop_reason"] = reason
    run_id = state.get("run_id")
    if run_id and not ctx.keep_browser_open:
        await registry.close(run_id)
    merged = {**state, **update}
    if run_id and state.get("run_dir"):
        # File I/O off the event loop: `langgraph dev` raises BlockingError on blocking calls in async nodes.
        await asyncio.to_thread(_write_outputs, run_id, Path(state["run_dir"]), result_object(merged))
    update["_note"] = f"{terminal_type}/{reason}"
    return update
