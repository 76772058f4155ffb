"""What nodes need besides state: the browser session and the planning backend of a run.

Neither lives in graph state (Playwright objects cannot be checkpointed); both are found by run id, and
re-created on demand, which is what lets a resumed run in a new process carry on.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from agent.browser import registry
from agent.context import Context
from agent.planning.base import Backend


def run_dir_of(state: dict[str, Any], ctx: Context) -> Path:
    return Path(state.get("run_dir") or Path(ctx.record_dir) / state["run_id"])


async def ensure_session(state: dict[str, Any], ctx: Context):
    """The run's live browser session; a new one (reopened at the recorded URL) if none is alive."""
    run_id = state["run_id"]
    session = registry.get(run_id)
    if session is not None:
        return session
    run_dir = run_dir_of(state, ctx)
    session = await registry.open(run_id, ctx.browser_options(run_dir), run_dir)
    url = state.get("url")
    if url and url != "about:blank":
        from agent.browser.actions import execute_action

        await execute_action(session, {"action": "navigate", "element_id": None, "args": {"url": url}})
        session.drain_events()
    return session


def backend_for(ctx: Context) -> Backend:
    """The planning backend the settings ask for: rules offline, or an OpenAI-compatible model."""
    if ctx.uses_model:
        from agent.planning.llm import OpenAIBackend

        return OpenAIBackend(ctx)
    from agent.planning.offline import RulesBackend

    return RulesBackend()
