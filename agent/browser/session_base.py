"""The state every part of :class:`agent.browser.session.BrowserSession` shares, and its errors.

The session is split by job into mixins over this one state: launching and closing
(:mod:`.session_launch`), tabs and settling (:mod:`.session_tabs`), events, dialogs and downloads
(:mod:`.session_events`) and the network guard (:mod:`.session_policy`). Every attribute they use is set here,
in one ``__init__``, so the whole state of a session can be read in one place.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from agent.browser.options import BrowserOptions
from agent.types import BrowserEvent

_MAX_MESSAGE = 500


class BrowserSessionError(RuntimeError):
    """The session cannot do what was asked; the message says why in plain words."""


class BrowserClosedError(BrowserSessionError):
    """The browser (or our context) is gone: closed by us, by the user, or it crashed."""


def clip_message(text: str | None, limit: int = _MAX_MESSAGE) -> str:
    """Page-provided text (dialog messages, file names) bounded for events."""
    text = text or ""
    return text if len(text) <= limit else text[: limit - 1] + "\u2026"


@dataclass
class TabState:
    """One open tab: its Playwright page and what the session knows about it."""

    id: str
    page: Any  # playwright Page
    url: str = ""
    title: str = ""
    crashed: bool = False
    inflight: int = 0
    failures: dict[int, int] = field(default_factory=dict)
    opened_event: BrowserEvent | None = None
    fetch: Any = None  # the CDP session pausing this tab's requests for the network guard (redirect hops)
    main_frame_id: str = ""  # the CDP id of the tab's top frame (stable across its navigations), once known


class SessionState:
    """Fields and small shared helpers of a browser session (see the module docstring)."""

    def __init__(self, options: BrowserOptions, run_dir: Path):
        self.options = options
        self.run_dir = Path(run_dir)
        self.downloads_dir = (
            Path(options.downloads_dir) if options.downloads_dir else self.run_dir / "downloads"
        )
        self.screenshots_dir = self.run_dir / "screenshots"
        self.attached = bool(options.cdp_url)
        self._pw: Any = None
        self._browser: Any = None
        self._context: Any = None
        self._own_context = True
        self._tmp: Path | None = None
        self._scratch: Any = None  # agent.browser.scratch.ScratchDir: _tmp, locked while this process lives
        self._profile: Path | None = None
        self._tabs: dict[str, TabState] = {}
        self._by_page: dict[int, TabState] = {}
        self._active: str | None = None
        self._next_tab = 1
        self._events: list[tuple[int, BrowserEvent]] = []
        self._seq = 0
        self._mark_seq = 0
        self._dead_reason: str | None = None
        self._closing = False
        self._closed = False
        self._close_task: asyncio.Task | None = None
        self._tasks: set[asyncio.Task] = set()
        self._reserved_names: set[str] = set()
        self._downloads_pending = 0
        self._origins: set[str] = set()
        self._event_waiters: list[asyncio.Future] = []
        self._blocked: list[tuple[int, dict[str, str]]] = []
        self._guard_installed = False
        self._sockets_guarded = False
        self._webrtc_off = False
        self._checker: Any = None  # the network guard's HostChecker (see session_policy.host_checker)
        self._checker_for: Any = None
        self._proxy: Any = None  # the GuardProxy every connection of a launched browser goes through
        self._net_activity = 0.0  # monotonic time of the last request start/end (settling)
        self._popup_expected = 0.0  # when a page last said it is opening a tab
        self._page_opened = 0.0  # when the last new tab arrived

    @property
    def is_alive(self) -> bool:
        """False once closed or once the browser went away underneath us."""
        return not self._closed and not self._closing and self._dead_reason is None

    @property
    def dead_reason(self) -> str | None:
        return self._dead_reason

    def _mark_dead(self, reason: str) -> None:
        if self._dead_reason is None and not self._closing:
            self._dead_reason = reason

    def _check_alive(self) -> None:
        if self._closed or self._closing:
            raise BrowserClosedError("the browser session is closed")
        if self._dead_reason:
            raise BrowserClosedError(f"{self._dead_reason}; start a new session")

    @staticmethod
    async def _bounded(awaitable: Any, seconds: float) -> bool:
        try:
            await asyncio.wait_for(awaitable, seconds)
            return True
        except Exception:
            return False

    def _spawn(self, coro: Any) -> None:
        if self._closing:
            coro.close()
            return
        task = asyncio.ensure_future(coro)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)
