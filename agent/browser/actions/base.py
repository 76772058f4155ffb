"""What every action module shares: the outcome of an action, the running action's budget, and small helpers.

An action handler takes an :class:`ActionRun` (session, arguments, deadline) and returns an :class:`Outcome`;
it may raise :class:`ActionFailed` with a planner-facing message, which the dispatcher turns into a failure.
"""

from __future__ import annotations

import asyncio
import time
from dataclasses import dataclass
from typing import Any

from agent.browser.session import BrowserSession
from agent.types import Element, Observation
from agent.util.elements import element_summary

#: Actions that load a page; they get ``options.navigation_timeout_s`` instead of ``action_timeout_s``.
NAVIGATION_ACTIONS = ("navigate", "search", "go_back", "go_forward")
#: Actions on one observed element, with the fallback chain of :mod:`agent.browser.actions.elements`.
ELEMENT_ACTIONS = ("click", "type", "select_option")
#: Event types that show a page reacted to an action.
PAGE_CHANGE_EVENTS = ("url_changed", "dom_changed", "tab_opened")


class ActionFailed(Exception):
    """A failure with a planner-facing message; ends the action (or the current fallback stage)."""

    def __init__(self, error_type: str, message: str, *, final: bool = False):
        super().__init__(message)
        self.error_type = error_type
        self.message = message
        self.final = final  # True: no later fallback can fix this (disabled, read-only, overlay)


@dataclass
class Outcome:
    status: str
    error_type: str
    message: str
    fallback: str | None = None
    extracted: str | None = None


def ok(message: str, **kw: Any) -> Outcome:
    """A success with the message the planner reads."""
    return Outcome("success", "none", message, **kw)


def fail(error_type: str, message: str) -> Outcome:
    """A failure of ``error_type`` with the message the planner reads."""
    return Outcome("failure", error_type, message)


@dataclass
class ActionRun:
    """One action being executed: what to do, on which session, and until when."""

    session: BrowserSession
    name: str
    args: dict[str, Any]
    element_id: int | None
    observation: Observation | None
    deadline: float
    mark: int
    started: float = 0.0  # monotonic start of the action
    attempt_cap: float | None = (
        None  # shorter Playwright timeouts for one attempt (see elements.element_action)
    )

    def remaining(self, margin: float = 0.0) -> float:
        return max(0.0, self.deadline - time.monotonic() - margin)

    def ms(self, cap: float, margin: float = 0.3) -> float:
        """A Playwright timeout (ms) of at most ``cap`` seconds that still fits the action's budget."""
        return max(50.0, min(cap, self.remaining(margin)) * 1000)

    @property
    def options(self) -> Any:
        return self.session.options


def short_error(exc: BaseException) -> str:
    """The first line of an exception's text, bounded: Playwright messages carry long call logs."""
    text = str(exc).strip() or type(exc).__name__
    first = text.splitlines()[0]
    return first[:300]


def is_timeout(exc: BaseException) -> bool:
    """An asyncio timeout or Playwright's own TimeoutError (matched by name: no Playwright import)."""
    return isinstance(exc, asyncio.TimeoutError) or type(exc).__name__ == "TimeoutError"


def describe(desc: Element | None, element_id: int | None) -> str:
    """``element 12 (button "Sign in")`` for messages; ``element 12`` when nothing describes it."""
    if not desc:
        return f"element {element_id}"
    return f"element {element_id} ({element_summary(desc)})"


async def settle(run: ActionRun, cap: float | None = None) -> None:
    """Give the page up to ``cap`` (default ``settle_timeout_s``, never past the deadline) to land the effect."""
    cap = run.options.settle_timeout_s if cap is None else cap
    await run.session.wait_for_settle(min(cap, run.remaining(0.2)), since=run.started)


def navigated(run: ActionRun) -> bool:
    """A URL change or a new tab since the action began."""
    return any(e.get("type") in ("url_changed", "tab_opened") for e in run.session.events_since(run.mark))


def page_changed(session: BrowserSession, mark: int) -> bool:
    """The page reacted (URL, DOM or a new tab) since ``mark``."""
    return any(e.get("type") in PAGE_CHANGE_EVENTS for e in session.events_since(mark))
