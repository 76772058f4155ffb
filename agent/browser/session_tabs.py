"""Tabs of a session: following the tabs a page opens, the active tab, finding marked elements, settling.

Any new page (popup, target=_blank, window.open, or ours) becomes the active tab. Settling waits, bounded,
for the navigation or XHR an action caused to land, so the next observation sees the result.
"""

from __future__ import annotations

import asyncio
import contextlib
import re
import time
from typing import Any

from agent.browser.session_base import BrowserSessionError, SessionState, TabState
from agent.types import TabInfo

_IGNORED_RESOURCES = frozenset({"eventsource", "websocket", "media"})


class TabsMixin(SessionState):
    """Tabs, the active page, element lookup and settling of a :class:`agent.browser.session.BrowserSession`."""

    def _register(self, page: Any, *, emit: bool) -> TabState:
        existing = self._by_page.get(id(page))
        if existing is not None:
            return existing
        tab = TabState(id=f"t{self._next_tab}", page=page, url=page.url)
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
        self._spawn(self._intercept_redirects(tab))  # type: ignore[attr-defined]
        self._check_landed(tab, page.url)  # type: ignore[attr-defined]  # a popup may arrive already loaded
        if emit:
            tab.opened_event = self._emit({"type": "tab_opened", "tab_id": tab.id, "url": page.url})
        return tab

    def _forget(self, tab: TabState) -> None:
        self._tabs.pop(tab.id, None)
        self._by_page.pop(id(tab.page), None)

    def _on_page(self, page: Any) -> None:
        """Any new page (popup, target=_blank, window.open, or ours) becomes the active tab."""
        if self._closing:
            return
        tab = self._register(page, emit=True)
        self._active = tab.id
        self._page_opened = time.monotonic()

    def _on_close(self, tab: TabState) -> None:
        if tab.id not in self._tabs:
            return
        self._forget(tab)
        if self._closing:
            return
        self._emit({"type": "tab_closed", "tab_id": tab.id, "url": tab.url})
        if self._active == tab.id:
            self._active = list(self._tabs)[-1] if self._tabs else None

    def _on_crash(self, tab: TabState) -> None:
        tab.crashed = True

    def _on_navigated(self, tab: TabState, frame: Any) -> None:
        if frame != tab.page.main_frame:
            return
        previous, url = tab.url, frame.url
        if url == previous:
            return
        tab.url = url
        tab.failures.clear()  # element ids belong to a document
        self._net_activity = time.monotonic()
        self._check_landed(tab, url)  # type: ignore[attr-defined]  # the network guard's last layer
        origin = _origin(url)
        if origin:
            self._origins.add(origin)
        if tab.opened_event is not None and any(e is tab.opened_event for _, e in self._events):
            tab.opened_event["url"] = url  # a popup starts at about:blank; report where it went
        if tab.id == self._active:
            self._emit({"type": "url_changed", "tab_id": tab.id, "url": url, "previous_url": previous})

    def _on_request(self, tab: TabState, request: Any, delta: int) -> None:
        with contextlib.suppress(Exception):
            if request.resource_type in _IGNORED_RESOURCES:
                return
        tab.inflight = max(0, tab.inflight + delta)
        self._net_activity = time.monotonic()

    async def _refresh_title(self, tab: TabState) -> None:
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
    """scheme://host[:port] of an http(s) URL (whose storage reset() clears), else None."""
    match = re.match(r"^(https?://[^/?#]+)", url or "")
    return match.group(1) if match else None
