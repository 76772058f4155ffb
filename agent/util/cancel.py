"""Finishing a bounded piece of work although the task running it was cancelled (Ctrl-C, SIGTERM, a stop).

Some work must not be cut in half: an action whose effect may already have reached a server is worth
finishing and noting, so that a resumed run knows it happened instead of doing it again.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable
from typing import TypeVar

T = TypeVar("T")


async def run_through_cancel(work: Awaitable[T]) -> tuple[T, asyncio.CancelledError | None]:
    """Await ``work`` to its end even if the caller is cancelled meanwhile (once or more).

    Returns its result and the cancellation that arrived meanwhile (None when none did): the caller keeps
    the result and then raises the cancellation, so the stop still happens, only later. ``work`` must be
    bounded by its own time limit: that is how long a stop waits. When ``work`` fails, its exception is
    raised, or the cancellation if one arrived.
    """
    task = asyncio.ensure_future(work)
    stop: asyncio.CancelledError | None = None
    while not task.done():
        try:
            await asyncio.wait([task])  # unlike awaiting the task, never cancels it
        except asyncio.CancelledError as exc:
            stop = stop or exc
    if stop is not None and (task.cancelled() or task.exception() is not None):
        raise stop
    return task.result(), stop  # raises the work's own exception when it failed
