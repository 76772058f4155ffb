"""finalize: normalize the terminal, write result.json and the HTML report, release the browser.

Every run passes through here, whatever ended it, so every run has a valid terminal and a result on disk.
"""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

from agent.browser import registry
from agent.context import Context
from agent.nodes.base import graph_node
from agent.records import recorder_for, result_object, write_report_safely
from agent.runtime import release as release_runtime
from agent.stages import promote
from agent.state import AgentState
from agent.terminals import GOAL_SATISFIED, after_lost_state, normalize


def _write_outputs(run_id: str, run_dir: Path, result: dict[str, Any]) -> None:
    recorder_for(run_id, run_dir).write_result(result)
    write_report_safely(run_dir)


@graph_node("finalize")
async def finalize(state: AgentState, ctx: Context) -> dict[str, Any]:
    terminal_type, reason = normalize(state.get("terminal_type"), state.get("terminal_reason"))
    terminal_type, reason, stop_reason = after_lost_state(
        terminal_type, reason, state.get("stop_reason"), list(state.get("resume_lost") or [])
    )
    update: dict[str, Any] = {
        "terminal_type": terminal_type,
        "terminal_reason": reason,
        "plan": [],
        "current_step": None,
    }
    if stop_reason != state.get("stop_reason"):
        update["stop_reason"] = stop_reason
    if terminal_type == GOAL_SATISFIED:
        update["stage"] = promote(state.get("stage"), "done")
    if not stop_reason and terminal_type != GOAL_SATISFIED:
        update["stop_reason"] = reason
    run_id = state.get("run_id")
    release_runtime(run_id)
    if run_id and not ctx.keep_browser_open:
        await registry.close(run_id)
    merged = {**state, **update}
    if run_id and state.get("run_dir"):
        # File I/O off the event loop: `langgraph dev` raises BlockingError on blocking calls in async nodes.
        await asyncio.to_thread(_write_outputs, run_id, Path(state["run_dir"]), result_object(merged))
    update["_note"] = f"{terminal_type}/{reason}"
    return update
