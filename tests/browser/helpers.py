"""Helpers for browser-layer tests: open fixture pages, find marked elements, run actions."""

from __future__ import annotations

import contextlib
import subprocess
from collections.abc import Iterator
from typing import Any

from agent.browser.actions import execute_action
from agent.browser.debug_launch import debuggable_chromium as start_debuggable
from agent.types import ActionResult


async def act(
    session: Any, name: str, element_id: int | None = None, observation: Any = None, **args: Any
) -> ActionResult:
    """Run one action the way the graph does and return its result."""
    return await execute_action(
        session, {"action": name, "element_id": element_id, "args": args}, observation=observation
    )


async def open_page(session: Any, url: str) -> ActionResult:
    """Navigate and consume the navigation's events, so a test sees only what it causes."""
    result = await act(session, "navigate", url=url)
    assert result["status"] == "success", result
    session.drain_events()
    return result


async def open_and_find(session: Any, url: str, name: str) -> dict[str, Any]:
    """Open ``url`` and return its marked element named ``name`` (see :func:`find`)."""
    await open_page(session, url)
    return await find(session, name)


async def find(session: Any, name: str, *, role: str | None = None) -> dict[str, Any]:
    """Mark the page with the observation layer and return the element whose name (or text) is ``name``."""
    from agent.dom.observe import mark_frames

    elements = await mark_frames(session.page)
    for exact in (True, False):
        for element in elements:
            if role and element.get("role") != role:
                continue
            label = element.get("name") or ""
            text = element.get("text") or ""
            if (label == name or text == name) if exact else (name in label or name in text):
                return element
    raise AssertionError(f"no marked element named {name!r}; have {[e.get('name') for e in elements]}")


@contextlib.contextmanager
def debuggable_chromium(*urls: str, args: tuple[str, ...] = ()) -> Iterator[tuple[str, subprocess.Popen]]:
    """A headless Chromium of "the user's", with a DevTools port on loopback, ``args`` on its command line and
    ``urls`` open in its tabs: yields (the http:// CDP URL, the process); stopped and its profile removed
    afterwards."""
    with start_debuggable(*urls, args=args) as browser:
        yield browser.cdp_url, browser.process
