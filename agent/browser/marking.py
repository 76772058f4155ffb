"""The hook through which the browser layer re-marks a page without importing the observation layer.

Element ids (``data-agent-id``) are written by the observation layer's marking pass (``agent/dom``). The
actions' "wiggle" fallback runs that pass again after the page re-rendered an element, but the browser layer
sits below ``dom`` and must not import it. So ``agent.dom.observe`` registers its marker here when it is
imported. Every element id an action can be given came from an observation, and every observation goes through
``agent.dom.observe``, so the marker is registered whenever there is an id to look for; with none registered,
re-marking is skipped (the other fallbacks still run).
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Awaitable, Callable
from typing import Any

#: ``marker(page)`` marks every reachable frame of ``page`` with ``data-agent-id`` attributes.
PageMarker = Callable[[Any], Awaitable[Any]]

_marker: PageMarker | None = None


def set_page_marker(marker: PageMarker | None) -> None:
    """Install the marking pass the actions use to re-mark a page (``None`` removes it)."""
    global _marker
    _marker = marker


def page_marker() -> PageMarker | None:
    """The installed marking pass, or None."""
    return _marker


async def remark_page(page: Any, timeout: float) -> bool:
    """Run the installed marking pass on ``page`` within ``timeout`` seconds; False when none ran to the end."""
    marker = _marker
    if marker is None:
        return False
    with contextlib.suppress(Exception):
        await asyncio.wait_for(marker(page), timeout)
        return True
    return False
