"""Live browser sessions keyed by run (thread) id.

Playwright objects cannot live in graph state (the checkpointer must serialize it), so nodes look their session
up here by run id. A session belongs to the event loop that started it; one found dead, or from another loop
(e.g. a new process or test loop), is replaced by a fresh one on ``open``.
"""

from __future__ import annotations

import asyncio
import contextlib
from pathlib import Path

from agent.browser.options import BrowserOptions
from agent.browser.session import BrowserSession

_sessions: dict[str, tuple[BrowserSession, asyncio.AbstractEventLoop]] = {}
#: Run ids whose session belongs to the caller (``adopt``): the registry forgets them but never closes them.
_borrowed: set[str] = set()
_locks: dict[tuple[str, int], asyncio.Lock] = {}


def _current_loop() -> asyncio.AbstractEventLoop | None:
    try:
        return asyncio.get_running_loop()
    except RuntimeError:
        return None


def get(run_id: str) -> BrowserSession | None:
    """The live session of ``run_id`` usable from this event loop, or None."""
    entry = _sessions.get(run_id)
    if entry is None:
        return None
    session, loop = entry
    if not session.is_alive or loop is not _current_loop() or loop.is_closed():
        return None
    return session


async def open(run_id: str, options: BrowserOptions, run_dir: Path) -> BrowserSession:  # noqa: A001
    """Reuse the live session of ``run_id`` or start a new one (closing a dead one first)."""
    lock = _locks.setdefault((run_id, id(asyncio.get_running_loop())), asyncio.Lock())
    async with lock:
        live = get(run_id)
        if live is not None:
            return live
        stale = _sessions.pop(run_id, None)
        if stale is not None and stale[1] is _current_loop():
            await stale[0].close()
        session = await BrowserSession.start(options, run_dir)
        _sessions[run_id] = (session, asyncio.get_running_loop())
        return session


def adopt(run_id: str, session: BrowserSession) -> None:
    """Use a session the caller owns for ``run_id`` (bring your own browser); ``close`` will only forget it."""
    _sessions[run_id] = (session, asyncio.get_running_loop())
    _borrowed.add(run_id)


async def close(run_id: str) -> None:
    """Close and forget the session of ``run_id`` (no-op when there is none). Never raises.

    A session lent with :func:`adopt` is forgotten, not closed: its owner decides when it ends.
    """
    entry = _sessions.pop(run_id, None)
    if run_id in _borrowed:
        _borrowed.discard(run_id)
        return
    loop = _current_loop()
    if loop is not None:
        _locks.pop((run_id, id(loop)), None)
    if entry is not None and entry[1] is _current_loop():
        with contextlib.suppress(Exception):
            await entry[0].close()


async def close_all() -> None:
    """Close every session this event loop owns; forget the rest (their loop is gone)."""
    for run_id in list(_sessions):
        await close(run_id)


def run_ids() -> list[str]:
    """Run ids with a registered session (alive or not)."""
    return list(_sessions)
