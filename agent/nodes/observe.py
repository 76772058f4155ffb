"""observe: capture the page as Set-of-Mark elements and judge whether the world changed.

Records tabs, the active tab, browser events since the last observation, the hashes, and the loop signals
(stagnation of the page structure, a frozen world after an action) that ``loop_mitigation`` acts on.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from agent.context import Context
from agent.dom.observe import observe as observe_session
from agent.nodes.base import graph_node, observe_options
from agent.runtime import ensure_session
from agent.state import TRIGGER_REPEAT, TRIGGER_STAGNATION, TRIGGER_WORLD_FROZEN, AgentState, LoopTrigger

#: Actions whose effect is in field values or scroll position, not in the page structure.
VALUE_ACTIONS = ("type", "select_option", "scroll", "screenshot", "wait", "switch_tab")


def wants_screenshot(state: AgentState, ctx: Context) -> bool:
    """every_step always; otherwise whenever a model with vision may look at the picture (``auto`` decides per
    call whether to send it, so it needs one taken whatever ``screenshot_mode`` says)."""
    return ctx.screenshot_mode == "every_step" or (ctx.uses_model and ctx.vision in ("on", "auto"))


def loop_signals(state: AgentState, new: dict[str, Any], ctx: Context) -> dict[str, Any]:
    """stagnation_count, world_frozen, no_progress_steps and the loop trigger after a fresh observation."""
    last = state.get("last_result") or {}
    acted = bool(last) and last.get("action") not in (None, "translate")
    structure_same = new["mapping_hash"] == state.get("mapping_hash")
    same_world = (
        acted
        and new["url"] == state.get("url")
        and new["dom_hash"] == state.get("dom_hash")
        and new["candidate_hash"] == state.get("candidate_hash")
    )
    value_action = last.get("action") in VALUE_ACTIONS and last.get("status") == "success"
    stagnation = int(state.get("stagnation_count", 0))
    if acted:
        stagnation = stagnation + 1 if structure_same and not value_action else 0
    world_frozen = same_world and not value_action
    no_progress = int(state.get("no_progress_steps", 0))
    if acted:
        no_progress = no_progress + 1 if (world_frozen or last.get("status") != "success") else 0
    trigger: LoopTrigger | None = None
    if int(state.get("repeat_count", 0)) >= ctx.repeat_limit:
        trigger = TRIGGER_REPEAT
    elif world_frozen and no_progress >= 2:
        trigger = TRIGGER_WORLD_FROZEN
    elif stagnation >= ctx.stagnation_limit:
        trigger = TRIGGER_STAGNATION
    return {
        "stagnation_count": stagnation,
        "world_frozen": world_frozen,
        "no_progress_steps": no_progress,
        "loop_trigger": trigger,
    }


@graph_node("observe")
async def observe(state: AgentState, ctx: Context) -> dict[str, Any]:
    """Observe the active tab; the observation's ``text`` is exactly what a model will see."""
    session = await ensure_session(state, ctx)
    events = session.drain_events()
    # Tab titles are otherwise refreshed by load events that may still be queued: the tab list the model reads
    # would name the previous page (bounded per tab; never raises).
    await session.refresh_tabs()
    screenshot_rel = None
    screenshot_path = None
    if wants_screenshot(state, ctx):
        screenshot_rel = f"screenshots/obs-{int(state.get('seq', 0)) + 1:04d}.png"
        screenshot_path = str(Path(state["run_dir"]) / screenshot_rel)
    obs = await observe_session(
        session,
        goal=state.get("goal", ""),
        previous=state.get("observation") or None,
        options=observe_options(ctx),
        screenshot_path=screenshot_path,
    )
    # A secret's value the page shows (a field, an echo in its text) reaches neither the model nor the records.
    secrets = ctx.secret_store()
    obs, events = secrets.mask_data(obs), secrets.mask_data(events)
    if screenshot_path and not obs.get("screenshot_path"):
        screenshot_rel = None
    new = {
        "url": obs.get("url", ""),
        "title": obs.get("title", ""),
        "mapping_hash": obs.get("mapping_hash", ""),
        "candidate_hash": obs.get("candidate_hash", ""),
        "dom_hash": obs.get("dom_hash", ""),
    }
    previous_doc = (state.get("observation") or {}).get("document_id")
    new_document = bool(previous_doc) and previous_doc != obs.get("document_id")
    visited = list(state.get("visited_urls") or [])
    if new["url"] and new["url"] not in visited:
        visited.append(new["url"])
    update: dict[str, Any] = {
        **new,
        "prev_url": state.get("url", ""),
        "prev_mapping_hash": state.get("mapping_hash", ""),
        "prev_candidate_hash": state.get("candidate_hash", ""),
        "prev_dom_hash": state.get("dom_hash", ""),
        "observation": dict(obs),
        "tabs": list(obs.get("tabs") or session.tabs()),
        "active_tab_id": obs.get("active_tab_id") or session.active_tab_id,
        "context_events": events,
        "tab_events": [e for e in events if e.get("type") in ("tab_opened", "tab_closed")],
        "page_type": obs.get("page_type", "other"),
        "listing_detected": obs.get("page_type") == "listing",
        "observations": int(state.get("observations", 0)) + 1,
        "visited_urls": visited,
        **loop_signals(state, new, ctx),
        # element ids belong to one document: after a navigation the old ids mean nothing
        **({"avoid_elements": []} if new_document else {}),
        "_screenshot": screenshot_rel,
        "_note": f"{len(obs.get('elements') or [])} elements, {obs.get('chars', 0)} chars, "
        f"page_type={obs.get('page_type')}, {obs.get('observe_ms', 0)} ms",
    }
    return update
