"""The dispatcher: ``execute_action`` validates an Action, runs its handler within its time bound and turns
whatever happened into an ActionResult (see :mod:`agent.browser.actions` for the contract)."""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import Awaitable, Callable
from typing import Any

from agent.browser.actions.base import (
    ELEMENT_ACTIONS,
    NAVIGATION_ACTIONS,
    ActionFailed,
    ActionRun,
    Outcome,
    fail,
    is_timeout,
    ok,
    short_error,
)
from agent.browser.actions.files import screenshot_action
from agent.browser.actions.forms import press_key_action, select_action, type_action
from agent.browser.actions.navigation import (
    history_action,
    navigate_action,
    search_action,
    switch_tab_action,
)
from agent.browser.actions.pdf import pdf_extract_action
from agent.browser.actions.pointer import click_action, scroll_action
from agent.browser.session import BrowserClosedError, BrowserSession, BrowserSessionError
from agent.types import META_ACTIONS, Action, ActionResult, Observation

MAX_WAIT_S = 10.0
#: Extra time the hard ``asyncio.wait_for`` bound allows a handler for its clean-up.
GRACE_S = 0.75

Handler = Callable[[ActionRun], Awaitable[Outcome]]


def bound_for(name: str, options: Any, args: dict[str, Any]) -> float:
    """The time bound of one action: navigation, the wait itself plus 1 s, or the element-action bound."""
    if name in NAVIGATION_ACTIONS:
        return float(options.navigation_timeout_s)
    if name == "wait":
        return wait_seconds(args)[0] + 1.0
    if name == "pdf_extract":  # a download and a parse
        return float(options.navigation_timeout_s + options.action_timeout_s)
    return float(options.action_timeout_s)


def wait_seconds(args: dict[str, Any]) -> tuple[float, bool]:
    """The seconds ``wait`` asked for, clamped to [0, MAX_WAIT_S], and whether it was clamped."""
    try:
        seconds = float(args.get("seconds", 1.0))
    except (TypeError, ValueError):
        seconds = 1.0
    clamped = min(max(seconds, 0.0), MAX_WAIT_S)
    return clamped, clamped != seconds


async def _safe_url(session: BrowserSession) -> str:
    """The active tab's URL, or '' when there is none (a dead browser must not fail the result)."""
    try:
        return session.page.url
    except Exception:
        return ""


async def execute_action(
    session: BrowserSession, action: Action | dict[str, Any], *, observation: Observation | None = None
) -> ActionResult:
    """Execute one action on the active tab; see the module docstring for the contract."""
    started = time.monotonic()
    action = action if isinstance(action, dict) else {}
    name = str(action.get("action") or "")
    raw_args = action.get("args")
    args: dict[str, Any] = dict(raw_args) if isinstance(raw_args, dict) else {}
    element_id = action.get("element_id")
    with contextlib.suppress(TypeError, ValueError):
        element_id = int(element_id) if element_id is not None else None
    if not isinstance(element_id, int):
        element_id = None
    url_before = await _safe_url(session)
    mark = session.event_mark()

    outcome: Outcome
    handler = _HANDLERS.get(name)
    if name in META_ACTIONS:
        outcome = fail(
            "tool_limit", f"'{name}' is a meta action handled by the graph, not executed in the browser"
        )
    elif handler is None:
        outcome = fail("unknown", f"unknown action {name!r}")
    else:
        bound = bound_for(name, session.options, args)
        run = ActionRun(session, name, args, element_id, observation, started + bound, mark, started=started)
        try:
            outcome = await asyncio.wait_for(_guarded(handler, run), bound + GRACE_S)
        except TimeoutError:
            outcome = fail("timeout", f"{name} did not finish within {bound:.1f}s and was abandoned")
        except Exception as exc:  # belt and braces: _guarded already converts
            outcome = fail("unknown", f"{name} failed: {short_error(exc)}")

    if name in ELEMENT_ACTIONS and element_id is not None and session.is_alive:
        counts = session.failure_counts
        if outcome.status == "failure":
            counts[element_id] = counts.get(element_id, 0) + 1
        else:
            counts.pop(element_id, None)

    result: ActionResult = {
        "action": name,
        "args": args,
        "element_id": element_id,
        "status": outcome.status,  # type: ignore[typeddict-item]
        "error_type": outcome.error_type,
        "message": outcome.message,
        "execution_time_ms": int((time.monotonic() - started) * 1000),
        "events": session.events_since(mark),
        "fallback": outcome.fallback,
        "url_before": url_before,
        "url_after": await _safe_url(session),
    }
    if outcome.extracted is not None:
        result["extracted"] = outcome.extracted
    return result


async def _guarded(handler: Handler, run: ActionRun) -> Outcome:
    """Turn every exception into an outcome with the right error type."""
    try:
        session = run.session
        if not session.is_alive:
            raise BrowserClosedError(session.dead_reason or "the browser session is closed")
        if session.active_crashed and run.name not in ("navigate", "search", "switch_tab", "wait"):
            return fail(
                "unknown",
                f"tab {session.active_tab_id} crashed (its renderer is gone); navigate to a URL to continue in a "
                "fresh tab",
            )
        return await handler(run)
    except ActionFailed as exc:
        return fail(exc.error_type, exc.message)
    except BrowserClosedError as exc:
        return fail("unknown", f"the browser is gone: {exc}")
    except BrowserSessionError as exc:
        return fail("unknown", str(exc))
    except TimeoutError:
        return fail("timeout", f"{run.name} timed out")
    except Exception as exc:
        if is_timeout(exc):
            return fail("timeout", f"{run.name} timed out: {short_error(exc)}")
        if "Target page, context or browser has been closed" in str(exc) or "has been closed" in str(exc):
            if not run.session.is_alive:
                return fail("unknown", f"the browser is gone: {run.session.dead_reason}")
            return fail("unknown", f"the tab was closed during {run.name}")
        if "crash" in str(exc).lower():
            return fail("unknown", f"the tab crashed during {run.name}; navigate to continue in a fresh tab")
        return fail("unknown", f"{run.name} failed: {short_error(exc)}")


async def wait_action(run: ActionRun) -> Outcome:
    """Sleep as asked (bounded): for a page that needs time nothing else can give it."""
    seconds, clamped = wait_seconds(run.args)
    await asyncio.sleep(seconds)
    note = f" (capped at {MAX_WAIT_S:.0f}s)" if clamped else ""
    return ok(f"waited {seconds:g}s{note}")


_HANDLERS: dict[str, Handler] = {
    "click": click_action,
    "type": type_action,
    "select_option": select_action,
    "scroll": scroll_action,
    "press_key": press_key_action,
    "navigate": navigate_action,
    "search": search_action,
    "go_back": history_action,
    "go_forward": history_action,
    "switch_tab": switch_tab_action,
    "screenshot": screenshot_action,
    "wait": wait_action,
    "pdf_extract": pdf_extract_action,
}
