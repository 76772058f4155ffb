"""Events of a session: what happened in its tabs until the next observation drains it.

Events (url_changed, dom_changed, tab_opened, tab_closed, dialog, download) are kept in order with a sequence
number, so an action can ask what happened since it began (``event_mark`` / ``events_since``) without consuming
them. Dialogs are answered at once by policy so a page can never block the run (a confirm() naming an
irreversible action is dismissed whatever the policy; a beforeunload is answered like any confirm, and the
navigation that met it says so); downloads are saved under a
sanitized name inside the run's downloads folder. The page reports DOM changes through the ``DOM_BINDING``
binding, which the watcher script ``agent/browser/js/dom_watch.js`` calls.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from pathlib import Path
from typing import Any

from agent.browser.filenames import safe_filename
from agent.browser.session_base import BrowserSessionError, SessionState, TabState, clip_message
from agent.types import BrowserEvent
from agent.util.risk_words import risky_text

#: Binding the page calls (throttled) when the DOM changes, and with "popup" when it is about to open a tab.
DOM_BINDING = "__wayfinderDomChanged"


class EventsMixin(SessionState):
    """Events, dialogs and downloads of a :class:`agent.browser.session.BrowserSession`."""

    def _emit(self, event: BrowserEvent) -> BrowserEvent:
        event.setdefault("ts", round(time.time(), 3))
        self._seq += 1
        self._events.append((self._seq, event))
        for waiter in list(self._event_waiters):
            if not waiter.done():
                waiter.set_result(None)
        return event

    def _pending_events(self) -> list[BrowserEvent]:
        return [e for _, e in self._events]

    def drain_events(self) -> list[BrowserEvent]:
        """Events since the last drain, oldest first; the next observation calls this."""
        events = self._pending_events()
        self._events.clear()
        self._mark_seq = self._seq
        return events

    def peek_events(self) -> list[BrowserEvent]:
        """Pending events without consuming them."""
        return [dict(e) for e in self._pending_events()]  # type: ignore[misc]

    def event_mark(self) -> int:
        """A position in the event stream; ``events_since(mark)`` returns what happened after it."""
        self._mark_seq = self._seq
        return self._seq

    def events_since(self, mark: int) -> list[BrowserEvent]:
        return [dict(e) for s, e in self._events if s > mark]  # type: ignore[misc]

    async def wait_for_event(
        self, event_type: str, *, since: int = 0, timeout: float = 5.0
    ) -> BrowserEvent | None:
        """The first pending event of ``event_type`` after mark ``since``, waiting up to ``timeout`` seconds."""
        deadline = time.monotonic() + timeout
        while True:
            for seq, event in self._events:
                if seq > since and event.get("type") == event_type:
                    return event
            remaining = deadline - time.monotonic()
            if remaining <= 0 or self._closing:
                return None
            waiter = asyncio.get_running_loop().create_future()
            self._event_waiters.append(waiter)
            try:
                await asyncio.wait_for(waiter, remaining)
            except TimeoutError:
                pass
            finally:
                self._event_waiters.remove(waiter)

    def _on_dom_binding(self, source: dict[str, Any], *args: Any) -> None:
        if args and args[0] == "popup":
            self._popup_expected = time.monotonic()
            return
        page = source.get("page")
        tab = self._by_page.get(id(page))
        if tab is None or tab.id != self._active or self._closing:
            return
        floor = self._mark_seq
        for seq, event in self._events:
            if seq > floor and event.get("type") == "dom_changed" and event.get("tab_id") == tab.id:
                return
        url = tab.url
        with contextlib.suppress(Exception):
            url = page.url
        self._emit({"type": "dom_changed", "tab_id": tab.id, "url": url})

    async def _on_dialog(self, dialog: Any) -> None:
        """Answer every dialog at once by policy, so no page can block the run.

        The event is recorded before answering: answering a beforeunload lets the navigation fail, and whoever
        sees that failure must already find the reason among the events.
        """
        kind = dialog.type
        accept = self.options.dialog_policy == "accept" or kind == "alert"
        # A page's confirm() guarding something irreversible ("Delete all?") is never accepted by policy: the
        # agent's own confirm step is where a person approves such an action, not a setting.
        guarded = kind in ("confirm", "prompt") and risky_text(dialog.message)
        accept = accept and not guarded
        event: BrowserEvent = {
            "type": "dialog",
            "dialog_type": kind,
            "message": clip_message(dialog.message),
            "handled": "accepted" if accept else "dismissed",
        }
        if guarded:
            event["risky"] = True
        tab = self._by_page.get(id(dialog.page)) if dialog.page is not None else None
        if tab is not None:
            event["tab_id"] = tab.id
            event["url"] = tab.url
        self._emit(event)
        try:
            if accept:
                await dialog.accept(dialog.default_value) if kind == "prompt" else await dialog.accept()
            else:
                await dialog.dismiss()
        except Exception as exc:  # already handled, or the page went away
            event["handled"] = clip_message(f"error: {exc}".splitlines()[0], 200)

    def _reserve_download_path(self, suggested: str) -> Path:
        if not self.downloads_dir.is_dir():
            self.downloads_dir.mkdir(parents=True, exist_ok=True)
        name = safe_filename(suggested)
        stem, dot, ext = name.rpartition(".")
        if not dot:
            stem, ext = name, ""
        candidate, n = name, 1
        while candidate in self._reserved_names or (self.downloads_dir / candidate).exists():
            candidate = f"{stem} ({n}).{ext}" if ext else f"{stem} ({n})"
            n += 1
        self._reserved_names.add(candidate)
        path = (self.downloads_dir / candidate).resolve()
        if (
            path.parent != self.downloads_dir.resolve()
        ):  # defense in depth; safe_filename already guarantees it
            raise BrowserSessionError(f"refusing download path outside the downloads dir: {path}")
        return path

    async def _on_download(self, tab: TabState, download: Any) -> None:
        self._downloads_pending += 1
        suggested = ""
        try:
            suggested = download.suggested_filename
            await asyncio.to_thread(self.downloads_dir.mkdir, parents=True, exist_ok=True)  # off the loop
            path = self._reserve_download_path(suggested)
            await download.save_as(path)
            self._emit(
                {
                    "type": "download",
                    "tab_id": tab.id,
                    "filename": path.name,
                    "path": str(path),
                    "url": download.url,
                    "suggested_filename": clip_message(suggested, 300),
                }
            )
        except Exception as exc:
            self._emit(
                {
                    "type": "download",
                    "tab_id": tab.id,
                    "filename": "",
                    "path": "",
                    "url": getattr(download, "url", ""),
                    "suggested_filename": clip_message(suggested, 300),
                    "message": clip_message(f"download failed: {exc}".splitlines()[0]),
                }
            )
        finally:
            self._downloads_pending -= 1

    @property
    def downloads_pending(self) -> int:
        return self._downloads_pending

    async def _wait_downloads(self, timeout: float) -> None:
        deadline = time.monotonic() + timeout
        while self._downloads_pending > 0 and time.monotonic() < deadline:
            await asyncio.sleep(0.05)
