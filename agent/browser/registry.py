"""Live browser sessions keyed by run (thread) id.

Playwright objects cannot live in graph state (the checkpointer must serialize it), so nodes look their session
up here by run id. A session belongs to the event loop that started it; one found dead, or from another loop
(e.g. a new process or test loop), is replaced by a fresh one on ``open``.

A session is also let go when nobody will use it: after ``idle_timeout_s`` without use (a run paused at a
question, a thread nobody resumes), or as soon as its ``still_wanted`` probe says no (the thread was deleted).
One sweeper task per event loop checks every few seconds and ends when the loop has no sessions left.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import Awaitable, Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

from agent.browser.options import BrowserOptions
from agent.browser.session import BrowserSession

#: Seconds between two sweeps for idle or unwanted sessions (at most; shorter for short idle timeouts).
SWEEP_INTERVAL_S = 5.0

StillWanted = Callable[[], Awaitable[bool]]


@dataclass
class _Entry:
    session: BrowserSession
    loop: asyncio.AbstractEventLoop
    idle_timeout_s: float = 0.0
    still_wanted: StillWanted | None = None
    last_used: float = field(default_factory=time.monotonic)


_sessions: dict[str, _Entry] = {}
#: Run ids whose session belongs to the caller (``adopt``): the registry forgets them but never closes them.
_borrowed: set[str] = set()
_locks: dict[tuple[str, int], asyncio.Lock] = {}
_sweepers: dict[int, asyncio.Task] = {}
#: Run ids with a graph node running now (see ``in_use``).
_busy: dict[str, int] = {}


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
    if not entry.session.is_alive or entry.loop is not _current_loop() or entry.loop.is_closed():
        return None
    entry.last_used = time.monotonic()
    return entry.session


@contextlib.contextmanager
def in_use(run_id: str | None) -> Iterator[None]:
    """While this block runs, ``run_id``'s browser is busy: never idle, never closed by the sweeper."""
    key = run_id or ""
    _busy[key] = _busy.get(key, 0) + 1
    try:
        yield
    finally:
        _busy[key] -= 1
        if not _busy[key]:
            del _busy[key]
        entry = _sessions.get(key)
        if entry is not None:
            entry.last_used = time.monotonic()


async def open(  # noqa: A001
    run_id: str,
    options: BrowserOptions,
    run_dir: Path,
    *,
    idle_timeout_s: float = 0.0,
    still_wanted: StillWanted | None = None,
) -> BrowserSession:
    """Reuse the live session of ``run_id`` or start a new one (closing a dead one first).

    ``idle_timeout_s`` (0 = never) and ``still_wanted`` decide when the registry closes it by itself.
    """
    lock = _locks.setdefault((run_id, id(asyncio.get_running_loop())), asyncio.Lock())
    async with lock:
        live = get(run_id)
        if live is not None:
            return live
        stale = _sessions.pop(run_id, None)
        if stale is not None and stale.loop is _current_loop():
            await stale.session.close()
        session = await BrowserSession.start(options, run_dir)
        loop = asyncio.get_running_loop()
        _sessions[run_id] = _Entry(session, loop, idle_timeout_s, still_wanted)
        if idle_timeout_s > 0 or still_wanted is not None:
            _ensure_sweeper(loop)
        return session


def adopt(run_id: str, session: BrowserSession) -> None:
    """Use a session the caller owns for ``run_id`` (bring your own browser); ``close`` will only forget it."""
    _sessions[run_id] = _Entry(session, asyncio.get_running_loop())
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
    if entry is not None and entry.loop is _current_loop():
        with contextlib.suppress(Exception):
            await entry.session.close()
    if loop is not None and not any(e.loop is loop for e in _sessions.values()):
        sweeper = _sweepers.get(id(loop))
        if sweeper is not None and sweeper is not asyncio.current_task():
            sweeper.cancel()  # nothing left to watch on this loop


async def close_all() -> None:
    """Close every session this event loop owns; forget the rest (their loop is gone)."""
    for run_id in list(_sessions):
        await close(run_id)


def run_ids() -> list[str]:
    """Run ids with a registered session (alive or not)."""
    return list(_sessions)


def _ensure_sweeper(loop: asyncio.AbstractEventLoop) -> None:
    task = _sweepers.get(id(loop))
    if task is None or task.done():
        _sweepers[id(loop)] = loop.create_task(_sweep(loop), name="wayfinder-browser-sweeper")


async def _unwanted(entry: _Entry, now: float) -> bool:
    if entry.idle_timeout_s > 0 and now - entry.last_used >= entry.idle_timeout_s:
        return True
    if entry.still_wanted is None:
        return False
    try:
        return not await asyncio.wait_for(entry.still_wanted(), timeout=SWEEP_INTERVAL_S)
    except Exception:  # noqa: BLE001 - a probe that cannot tell keeps the browser
        return False


async def _sweep(loop: asyncio.AbstractEventLoop) -> None:
    """Close this loop's sessions nobody will use again; end when the loop has none left."""
    try:
        while True:
            mine = {rid: e for rid, e in _sessions.items() if e.loop is loop and rid not in _borrowed}
            if not mine:
                return
            timeouts = [e.idle_timeout_s for e in mine.values() if e.idle_timeout_s > 0]
            await asyncio.sleep(min([SWEEP_INTERVAL_S, *(t / 2 for t in timeouts)]))
            now = time.monotonic()
            for run_id, entry in mine.items():
                if run_id in _busy or _sessions.get(run_id) is not entry:
                    continue
                if await _unwanted(entry, now) and run_id not in _busy:
                    await close(run_id)
    finally:
        _sweepers.pop(id(loop), None)
