"""BrowserSession: one Playwright, one Chromium, one context and its tabs, plus what happened in them.

The session is the only owner of Playwright objects; the graph only ever sees tab ids and plain event dicts.
It follows tabs the page opens (they become active), answers dialogs by policy so a page can never block the run,
saves downloads under a sanitized name inside the run directory, and records events (url_changed, dom_changed,
tab_opened, tab_closed, dialog, download) until the next observation drains them. Every call that talks to the
browser is bounded, so a crashed tab or a browser closed underneath us gives a clear error, never a hang.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import re
import shutil
import signal
import tempfile
import time
import unicodedata
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from agent.browser.launch import CHROMIUM_FLAGS, resolve_executable
from agent.browser.options import BrowserOptions
from agent.browser.urls import check_domain
from agent.types import BrowserEvent, TabInfo

#: Binding the page calls (throttled) when the DOM changes, and with "popup" when it is about to open a tab.
DOM_BINDING = "__wayfinderDomChanged"

#: Installed in every frame of every page: a cheap MutationObserver that reports "something changed" at once,
#: then at most every 150 ms. Attribute writes of our own marking pass (data-agent-*) are ignored so observing is not a change.
DOM_WATCH_SCRIPT = """
(() => {
  if (window.__wayfinderDomWatch) return;
  window.__wayfinderDomWatch = true;
  const ours = (node) => {
    const el = node && (node.nodeType === 1 ? node : node.parentElement);
    return !!(el && el.closest && el.closest('[data-agent-overlay]'));
  };
  const relevant = (r) => {
    if (r.type === 'attributes' && r.attributeName && r.attributeName.startsWith('data-agent')) return false;
    if (ours(r.target)) return false;
    if (r.type === 'childList') {
      const nodes = [...r.addedNodes, ...r.removedNodes];
      if (nodes.length && nodes.every((n) => n.nodeType === 1 && n.hasAttribute && n.hasAttribute('data-agent-overlay')))
        return false;
    }
    return true;
  };
  // Leading edge at once (the action that caused it is still settling), then at most every 150 ms.
  let blocked = false, dirty = false;
  const fire = () => {
    const notify = window.__wayfinderDomChanged;
    if (typeof notify === 'function') notify().catch(() => {});
  };
  const release = () => {
    if (dirty) { dirty = false; fire(); setTimeout(release, 150); } else { blocked = false; }
  };
  const observer = new MutationObserver((records) => {
    if (!records.some(relevant)) return;
    if (blocked) { dirty = true; return; }
    blocked = true;
    fire();
    setTimeout(release, 150);
  });
  observer.observe(document, { subtree: true, childList: true, characterData: true, attributes: true });
  // Say "a tab is about to open" (target=_blank link, window.open), so settling waits for the new tab.
  const popup = () => { const notify = window.__wayfinderDomChanged; if (typeof notify === 'function') notify('popup').catch(() => {}); };
  document.addEventListener('click', (event) => {
    const a = event.target && event.target.closest && event.target.closest('a[href][target]');
    if (a && !['', '_self', '_top', '_parent'].includes(a.target.toLowerCase())) popup();
  }, true);
  // A Proxy keeps window.open looking native to the page.
  window.open = new Proxy(window.open, { apply(target, self, args) { popup(); return Reflect.apply(target, self, args); } });
})();
"""

_IGNORED_RESOURCES = frozenset({"eventsource", "websocket", "media"})
_CLOSE_STEP_S = 8.0
_LAUNCH_TIMEOUT_S = 45.0
_MAX_MESSAGE = 500


class BrowserSessionError(RuntimeError):
    """The session cannot do what was asked; the message says why in plain words."""


class BrowserClosedError(BrowserSessionError):
    """The browser (or our context) is gone: closed by us, by the user, or it crashed."""


_RESERVED_CHARS = re.compile(r'[<>:"|?*\x00-\x1f\x7f]')
_WINDOWS_RESERVED = frozenset(
    {"con", "prn", "aux", "nul", *(f"com{i}" for i in range(1, 10)), *(f"lpt{i}" for i in range(1, 10))}
)


def safe_filename(name: str | None, default: str = "download", max_bytes: int = 150) -> str:
    """A file name that cannot leave its directory: no directories, ``..``, absolute paths or control chars."""
    text = unicodedata.normalize("NFC", name or "")
    text = text.replace("\\", "/").split("/")[-1]  # last path component only
    text = _RESERVED_CHARS.sub("_", text)
    text = "".join(ch for ch in text if unicodedata.category(ch)[0] != "C")
    text = re.sub(r"\.{2,}", ".", text)  # no ".." left anywhere (Chromium turns "../x" into "_.._x")
    text = re.sub(r"\s+", " ", text).strip()
    text = re.sub(r"^[\s._-]+", "", text).rstrip(". ")  # no hidden files, no option-like names
    if not text or set(text) <= {".", "_", " "}:
        text = default
    stem, dot, ext = text.rpartition(".")
    if not dot:
        stem, ext = text, ""
    if stem.lower() in _WINDOWS_RESERVED:
        stem = f"_{stem}"
    ext = ext[:16]
    budget = max_bytes - len(ext.encode()) - (1 if ext else 0)
    stem_bytes = stem.encode()[: max(budget, 1)]
    stem = stem_bytes.decode("utf-8", errors="ignore").rstrip() or default
    return f"{stem}.{ext}" if ext else stem


def _clip(text: str | None, limit: int = _MAX_MESSAGE) -> str:
    text = text or ""
    return text if len(text) <= limit else text[: limit - 1] + "\u2026"


@dataclass
class _Tab:
    id: str
    page: Any  # playwright Page
    url: str = ""
    title: str = ""
    crashed: bool = False
    inflight: int = 0
    failures: dict[int, int] = field(default_factory=dict)
    opened_event: BrowserEvent | None = None


class BrowserSession:
    """Playwright + Chromium + one context + tabs + events. Create with ``await BrowserSession.start(...)``."""

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
        self._profile: Path | None = None
        self._tabs: dict[str, _Tab] = {}
        self._by_page: dict[int, _Tab] = {}
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
        self._net_activity = 0.0  # monotonic time of the last request start/end (settling)
        self._popup_expected = 0.0  # when a page last said it is opening a tab
        self._page_opened = 0.0  # when the last new tab arrived

    # ---------------------------------------------------------------------------------------------- lifecycle

    @classmethod
    async def start(cls, options: BrowserOptions, run_dir: Path) -> BrowserSession:
        """Launch Chromium (or attach over CDP when ``options.cdp_url`` is set) and open the first tab."""
        session = cls(options, run_dir)
        try:
            await asyncio.wait_for(session._start(), _LAUNCH_TIMEOUT_S)
        except BaseException as exc:
            await session.close()
            if isinstance(exc, asyncio.TimeoutError):
                raise BrowserSessionError(f"Chromium did not start within {_LAUNCH_TIMEOUT_S:.0f}s") from exc
            raise
        return session

    async def _start(self) -> None:
        from playwright.async_api import async_playwright

        # File-system work runs in a thread: no blocking calls on the event loop (`langgraph dev` forbids them).
        await asyncio.to_thread(self.run_dir.mkdir, parents=True, exist_ok=True)
        self._tmp = Path(await asyncio.to_thread(tempfile.mkdtemp, prefix="wayfinder-browser-"))
        self._pw = await async_playwright().start()
        opts = self.options
        if opts.cdp_url:
            self._browser = await self._pw.chromium.connect_over_cdp(
                opts.cdp_url, timeout=opts.navigation_timeout_s * 1000
            )
            self._browser.on("disconnected", lambda _b: self._mark_dead("the browser disconnected (CDP)"))
            if self._browser.contexts:
                self._context = self._browser.contexts[0]
                self._own_context = False
            else:
                self._context = await self._browser.new_context(**self._context_kwargs())
        else:
            executable = await asyncio.to_thread(resolve_executable, opts.executable)
            self._profile = self._tmp / "profile"
            home = self._tmp / "home"
            env = dict(os.environ)
            for key, sub in (
                ("HOME", ""),
                ("XDG_CONFIG_HOME", ".config"),
                ("XDG_CACHE_HOME", ".cache"),
                ("XDG_DATA_HOME", ".local/share"),
                ("XDG_RUNTIME_DIR", "runtime"),
            ):
                path = home / sub if sub else home
                await asyncio.to_thread(path.mkdir, parents=True, exist_ok=True, mode=0o700)
                env[key] = str(path)
            self._context = await self._pw.chromium.launch_persistent_context(
                str(self._profile),
                executable_path=executable,
                headless=opts.headless,
                args=[*CHROMIUM_FLAGS, *opts.extra_args],
                env=env,
                downloads_path=str(self._tmp / "incoming"),
                accept_downloads=True,
                handle_sigint=False,
                handle_sigterm=False,
                handle_sighup=False,
                timeout=_LAUNCH_TIMEOUT_S * 1000,
                **self._context_kwargs(),
            )
        ctx = self._context
        ctx.set_default_timeout(opts.action_timeout_s * 1000)
        ctx.set_default_navigation_timeout(opts.navigation_timeout_s * 1000)
        await ctx.expose_binding(DOM_BINDING, self._on_dom_binding)
        await ctx.add_init_script(DOM_WATCH_SCRIPT)
        ctx.on("page", self._on_page)
        ctx.on("dialog", self._on_dialog)
        ctx.on("close", lambda _c: self._mark_dead("the browser context was closed"))
        await self.set_domain_policy(opts.allowed_domains, opts.blocked_domains)
        for page in ctx.pages:
            self._register(page, emit=False)
            with contextlib.suppress(Exception):
                await asyncio.wait_for(page.evaluate(DOM_WATCH_SCRIPT), 2)
        if not self._tabs:
            await ctx.new_page()  # registered (and activated) by _on_page
        if self._active is None and self._tabs:
            self._active = list(self._tabs)[-1]
        self.drain_events()

    def _context_kwargs(self) -> dict[str, Any]:
        opts = self.options
        kwargs: dict[str, Any] = {
            "viewport": {"width": opts.viewport_width, "height": opts.viewport_height},
            "locale": opts.locale,
        }
        if opts.user_agent:
            kwargs["user_agent"] = opts.user_agent
        if not opts.cdp_url:
            return kwargs
        kwargs["accept_downloads"] = True
        return kwargs

    @property
    def is_alive(self) -> bool:
        """False once closed or once the browser went away underneath us."""
        return not self._closed and not self._closing and self._dead_reason is None

    @property
    def profile_dir(self) -> Path | None:
        """The temporary Chromium profile of a launched browser (None when attached over CDP)."""
        return self._profile

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

    async def close(self) -> None:
        """Close tabs, browser and Playwright; remove the temporary profile. Idempotent, bounded, never raises."""
        if self._close_task is None:
            self._close_task = asyncio.ensure_future(self._close())
        with contextlib.suppress(Exception):
            await asyncio.shield(self._close_task)

    async def _close(self) -> None:
        self._closing = True
        for task in list(self._tasks):
            task.cancel()
        for waiter in self._event_waiters:
            if not waiter.done():
                waiter.set_result(None)  # wake waiters; they see _closing and return
        clean = True
        if self._context is not None and (self._own_context or not self.attached):
            clean = await self._bounded(self._context.close(), _CLOSE_STEP_S) and clean
        if self._browser is not None:
            clean = await self._bounded(self._browser.close(), _CLOSE_STEP_S) and clean
        if self._pw is not None:
            clean = await self._bounded(self._pw.stop(), _CLOSE_STEP_S) and clean
        if not clean:
            self._kill_leftovers()
        if self._tmp is not None:
            try:
                await asyncio.to_thread(shutil.rmtree, self._tmp, ignore_errors=True)
            except RuntimeError:  # the loop's executor is already shut down (interpreter exit)
                shutil.rmtree(self._tmp, ignore_errors=True)
        self._closed = True

    @staticmethod
    async def _bounded(awaitable: Any, seconds: float) -> bool:
        try:
            await asyncio.wait_for(awaitable, seconds)
            return True
        except Exception:
            return False

    def _kill_leftovers(self) -> None:
        """Last resort after a hung close: end the Chromium processes that use our own profile directory."""
        if self._profile is None or not Path("/proc").is_dir():
            return
        marker = str(self._profile).encode()
        for entry in Path("/proc").iterdir():
            if not entry.name.isdigit():
                continue
            try:
                if marker in (entry / "cmdline").read_bytes():
                    os.kill(int(entry.name), signal.SIGKILL)
            except (OSError, ValueError):
                continue

    async def reset(self) -> None:
        """Return to one blank tab with no cookies, storage, events or failure counts (reuse a warm browser).

        A new tab (not a reused one) so history is empty too; the clean-up steps run concurrently.
        """
        self._check_alive()
        fresh = await self._context.new_page()
        keep = self._register(fresh, emit=False)
        self._active = keep.id
        others = [tab for tab in self._tabs.values() if tab is not keep]
        for tab in others:
            self._forget(tab)
        origins, self._origins = sorted(self._origins), set()

        async def clear_storage() -> None:
            if not origins:
                return
            cdp = await self._context.new_cdp_session(fresh)
            for origin in origins:
                await cdp.send(
                    "Storage.clearDataForOrigin",
                    {
                        "origin": origin,
                        "storageTypes": "local_storage,indexeddb,cache_storage,service_workers",
                    },
                )
            await cdp.detach()

        await asyncio.gather(
            *(self._bounded(tab.page.close(), 5) for tab in others),
            self._bounded(self._context.clear_cookies(), 5),
            self._bounded(clear_storage(), 5),
            self._bounded(self._wait_downloads(5), 6),
        )
        self._events.clear()
        self._blocked.clear()
        self._mark_seq = self._seq

    # ---------------------------------------------------------------------------------------------- tabs

    def _register(self, page: Any, *, emit: bool) -> _Tab:
        existing = self._by_page.get(id(page))
        if existing is not None:
            return existing
        tab = _Tab(id=f"t{self._next_tab}", page=page, url=page.url)
        self._next_tab += 1
        self._tabs[tab.id] = tab
        self._by_page[id(page)] = tab
        page.on("close", lambda _p: self._on_close(tab))
        page.on("crash", lambda _p: self._on_crash(tab))
        page.on("framenavigated", lambda frame: self._on_navigated(tab, frame))
        page.on("download", lambda download: self._spawn(self._on_download(tab, download)))
        page.on("request", lambda req: self._on_request(tab, req, +1))
        page.on("requestfinished", lambda req: self._on_request(tab, req, -1))
        page.on("requestfailed", lambda req: self._on_request(tab, req, -1))
        page.on("domcontentloaded", lambda _p: self._spawn(self._refresh_title(tab)))
        page.on("load", lambda _p: self._spawn(self._refresh_title(tab)))
        if emit:
            tab.opened_event = self._emit({"type": "tab_opened", "tab_id": tab.id, "url": page.url})
        return tab

    def _forget(self, tab: _Tab) -> None:
        self._tabs.pop(tab.id, None)
        self._by_page.pop(id(tab.page), None)

    def _on_page(self, page: Any) -> None:
        """Any new page (popup, target=_blank, window.open, or ours) becomes the active tab."""
        if self._closing:
            return
        tab = self._register(page, emit=True)
        self._active = tab.id
        self._page_opened = time.monotonic()

    def _on_close(self, tab: _Tab) -> None:
        if tab.id not in self._tabs:
            return
        self._forget(tab)
        if self._closing:
            return
        self._emit({"type": "tab_closed", "tab_id": tab.id, "url": tab.url})
        if self._active == tab.id:
            self._active = list(self._tabs)[-1] if self._tabs else None

    def _on_crash(self, tab: _Tab) -> None:
        tab.crashed = True

    def _on_navigated(self, tab: _Tab, frame: Any) -> None:
        if frame != tab.page.main_frame:
            return
        previous, url = tab.url, frame.url
        if url == previous:
            return
        tab.url = url
        tab.failures.clear()  # element ids belong to a document
        self._net_activity = time.monotonic()
        refused = self._refused(url)
        if refused:  # reached through a redirect, which request routing cannot see
            self._record_blocked(url, refused, tab)
            self._spawn(self._leave_refused(tab))
        origin = _origin(url)
        if origin:
            self._origins.add(origin)
        if tab.opened_event is not None and any(e is tab.opened_event for _, e in self._events):
            tab.opened_event["url"] = url  # a popup starts at about:blank; report where it went
        if tab.id == self._active:
            self._emit({"type": "url_changed", "tab_id": tab.id, "url": url, "previous_url": previous})

    def _on_request(self, tab: _Tab, request: Any, delta: int) -> None:
        with contextlib.suppress(Exception):
            if request.resource_type in _IGNORED_RESOURCES:
                return
        tab.inflight = max(0, tab.inflight + delta)
        self._net_activity = time.monotonic()

    async def _refresh_title(self, tab: _Tab) -> None:
        with contextlib.suppress(Exception):
            tab.title = await asyncio.wait_for(tab.page.title(), 2)

    @property
    def page(self) -> Any:
        """The active tab's Playwright Page. Raises BrowserClosedError when the browser is gone."""
        self._check_alive()
        tab = self._tabs.get(self._active or "")
        if tab is None:
            raise BrowserSessionError("no open tab; open one with new_tab() or navigate")
        return tab.page

    @property
    def active_tab_id(self) -> str | None:
        return self._active if self._active in self._tabs else None

    @property
    def context(self) -> Any:
        self._check_alive()
        return self._context

    @property
    def active_crashed(self) -> bool:
        tab = self._tabs.get(self._active or "")
        return bool(tab and tab.crashed)

    @property
    def failure_counts(self) -> dict[int, int]:
        """Failed element actions per element id in the active tab's current document (cleared on navigation)."""
        tab = self._tabs.get(self._active or "")
        return tab.failures if tab else {}

    def tab_id_of(self, page: Any) -> str | None:
        tab = self._by_page.get(id(page))
        return tab.id if tab else None

    def tabs(self) -> list[TabInfo]:
        """Open tabs in opening order. Titles are refreshed on load events and by ``refresh_tabs()``."""
        out: list[TabInfo] = []
        for tab in self._tabs.values():
            url = tab.url
            with contextlib.suppress(Exception):
                url = tab.page.url
            out.append({"id": tab.id, "url": url, "title": tab.title, "active": tab.id == self._active})
        return out

    async def refresh_tabs(self) -> list[TabInfo]:
        """``tabs()`` with every title read from its page now (bounded)."""
        await asyncio.gather(
            *(self._refresh_title(t) for t in list(self._tabs.values())), return_exceptions=True
        )
        return self.tabs()

    async def switch_tab(self, tab_id: str) -> TabInfo:
        """Make ``tab_id`` the active tab. KeyError (naming the open tabs) for an unknown id."""
        self._check_alive()
        if tab_id not in self._tabs:
            raise KeyError(f"no tab {tab_id!r}; open tabs: {', '.join(self._tabs) or 'none'}")
        self._active = tab_id
        tab = self._tabs[tab_id]
        await self._bounded(tab.page.bring_to_front(), 2)
        await self._refresh_title(tab)
        return next(t for t in self.tabs() if t["id"] == tab_id)

    async def new_tab(self, url: str | None = None) -> str:
        """Open a tab, make it active, navigate to ``url`` if given; returns the tab id."""
        self._check_alive()
        page = await asyncio.wait_for(self._context.new_page(), self.options.navigation_timeout_s)
        tab = self._register(page, emit=True)
        self._active = tab.id
        if url:
            await page.goto(
                url, wait_until="domcontentloaded", timeout=self.options.navigation_timeout_s * 1000
            )
        return tab.id

    async def ensure_page(self) -> Any:
        """The active page, opening a blank tab first when the page closed its last one."""
        self._check_alive()
        if not self._tabs:
            await self.new_tab()
        elif self._active not in self._tabs:
            self._active = list(self._tabs)[-1]
        return self.page

    async def replace_crashed_tab(self) -> str:
        """Close the crashed active tab and open a fresh one in its place; returns the new tab id."""
        tab = self._tabs.get(self._active or "")
        if tab is not None:
            await self._bounded(tab.page.close(), 3)
            if tab.id in self._tabs:
                self._on_close(tab)
        return await self.new_tab()

    async def stop_loading(self, page: Any = None) -> None:
        """Abort a pending navigation (like the Stop button), so a timed-out load does not leave the tab stuck."""
        page = page or self.page

        async def stop() -> None:
            cdp = await self._context.new_cdp_session(page)
            try:
                await cdp.send("Page.stopLoading")
            finally:
                await cdp.detach()

        await self._bounded(stop(), 2)

    async def locate(self, element_id: int | str | None) -> Any:
        """Locator of ``[data-agent-id=N]`` in any frame of the active page (open shadow roots pierced), or None."""
        if element_id is None:
            return None
        try:
            ident = int(element_id)
        except (TypeError, ValueError):
            return None
        page = self.page
        selector = f'[data-agent-id="{ident}"]'
        for frame in list(page.frames):
            if frame.is_detached():
                continue
            locator = frame.locator(selector)
            try:
                count = await asyncio.wait_for(locator.count(), 2)
            except Exception:
                continue
            if count:
                return locator.first
        return None

    # ---------------------------------------------------------------------------------------------- events

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
        event: BrowserEvent = {
            "type": "dialog",
            "dialog_type": kind,
            "message": _clip(dialog.message),
            "handled": "accepted" if accept else "dismissed",
        }
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
            event["handled"] = _clip(f"error: {exc}".splitlines()[0], 200)

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

    async def _on_download(self, tab: _Tab, download: Any) -> None:
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
                    "suggested_filename": _clip(suggested, 300),
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
                    "suggested_filename": _clip(suggested, 300),
                    "message": _clip(f"download failed: {exc}".splitlines()[0]),
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

    def _spawn(self, coro: Any) -> None:
        if self._closing:
            coro.close()
            return
        task = asyncio.ensure_future(coro)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    # ---------------------------------------------------------------------------------------------- domain guard

    async def set_domain_policy(
        self, allowed: list[str] | None = None, blocked: list[str] | None = None
    ) -> None:
        """Set the allowed/blocked domain lists and enforce them on every document request in the context.

        Request routing sends each request through Python, so it is installed only while a list is set.
        Redirect hops are not routable in Playwright; a main frame that lands on a refused host is sent to
        about:blank at once (see _on_navigated).
        """
        self._check_alive()
        self.options.allowed_domains = list(allowed or [])
        self.options.blocked_domains = list(blocked or [])
        wanted = bool(self.options.allowed_domains or self.options.blocked_domains)
        if wanted and not self._guard_installed:
            await self._context.route("**/*", self._guard_route)
            self._guard_installed = True
        elif not wanted and self._guard_installed:
            await self._context.unroute("**/*", self._guard_route)
            self._guard_installed = False

    def _refused(self, url: str) -> str | None:
        opts = self.options
        if not (opts.allowed_domains or opts.blocked_domains) or not url.startswith(("http:", "https:")):
            return None
        check = check_domain(url, opts.allowed_domains, opts.blocked_domains)
        return None if check.ok else check.reason

    def _record_blocked(self, url: str, reason: str, tab: _Tab | None) -> None:
        self._seq += 1  # a tick without an event, so blocked_since(mark) sees it
        self._blocked.append((self._seq, {"url": url, "reason": reason, "tab_id": tab.id if tab else ""}))
        del self._blocked[:-50]

    def blocked_since(self, mark: int) -> list[dict[str, str]]:
        """Navigations the domain guard refused after ``mark`` (url, reason, tab_id)."""
        return [dict(entry) for seq, entry in self._blocked if seq > mark]

    async def _guard_route(self, route: Any) -> None:
        request = route.request
        reason = None
        with contextlib.suppress(Exception):
            if request.resource_type == "document":
                reason = self._refused(request.url)
        if reason is None:
            with contextlib.suppress(Exception):
                await route.continue_()
            return
        tab = None
        with contextlib.suppress(Exception):
            frame = request.frame
            tab = self._by_page.get(id(frame.page))
        self._record_blocked(request.url, reason, tab)
        # "aborted", not "blockedbyclient": the tab keeps its page instead of showing Chromium's error page.
        with contextlib.suppress(Exception):
            await route.abort("aborted")
        # Chromium drops a popup whose first navigation is aborted (tested); should one survive as an empty
        # opener-owned tab, close it.
        with contextlib.suppress(Exception):
            page = request.frame.page
            fresh = tab is not None and request.frame == page.main_frame and page.url in ("", "about:blank")
            if fresh and await page.opener() is not None:
                await page.close()

    async def _leave_refused(self, tab: _Tab) -> None:
        with contextlib.suppress(Exception):
            await asyncio.wait_for(tab.page.goto("about:blank"), 5)

    # ---------------------------------------------------------------------------------------------- settling

    async def wait_for_settle(
        self, timeout: float, *, quiet_ms: int = 200, idle_ms: int = 100, since: float | None = None
    ) -> None:
        """Let a navigation or XHR caused by an action land, bounded by ``timeout``; never raises.

        Done when the DOM is ready, no request is in flight and none started or ended for ``quiet_ms`` (or for
        ``idle_ms`` when the network stayed silent since the call: a click that only changed the DOM costs
        ~0.2 s). Cheaper than Playwright's networkidle, which always waits 500 ms. Downloads the action started
        are waited for too, so their events land in the action's result. ``since`` (monotonic) is when the
        action began: a tab the page announced opening after it is waited for.
        """
        started = time.monotonic()
        deadline = started + max(0.0, timeout)
        await asyncio.sleep(min(0.05, max(0.0, timeout)))  # give a click's navigation time to start
        current = self._tabs.get(self._active or "")
        if current is not None and not current.crashed:
            # A round trip to the page: binding calls it made before (e.g. "popup") have reached us after it.
            await self._bounded(current.page.evaluate("0"), max(0.0, min(1.0, deadline - time.monotonic())))
        if self._popup_expected > (since or started):  # the page is opening a tab: wait for it to arrive
            # At most 3 s: a popup the popup blocker or the domain guard stops never arrives.
            until = min(deadline, self._popup_expected + 3.0)
            while self._page_opened < self._popup_expected and time.monotonic() < until:
                await asyncio.sleep(0.03)
        tab = self._tabs.get(self._active or "")
        if tab is None or tab.crashed or not self.is_alive:
            return
        remaining = deadline - time.monotonic()
        if remaining > 0:
            await self._bounded(tab.page.wait_for_load_state("domcontentloaded"), remaining)
        while time.monotonic() < deadline:
            tab = self._tabs.get(self._active or "")
            if tab is None:
                return
            now = time.monotonic()
            if tab.inflight <= 0 and self._downloads_pending <= 0:
                active = self._net_activity > started
                window = (quiet_ms if active else idle_ms) / 1000
                if now - max(self._net_activity, started) >= window:
                    break
            await asyncio.sleep(0.03)
        tab = self._tabs.get(self._active or "")
        remaining = deadline - time.monotonic()
        if tab is not None and remaining > 0:
            await self._bounded(tab.page.wait_for_load_state("domcontentloaded"), remaining)


def _origin(url: str) -> str | None:
    match = re.match(r"^(https?://[^/?#]+)", url or "")
    return match.group(1) if match else None
