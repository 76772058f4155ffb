"""The domain policy of a session: allowed and blocked domains enforced on every document request.

Request routing refuses a document on a refused host before it loads; a main frame that still lands on one
(through a redirect, which routing cannot see) is sent to about:blank at once. Refusals are recorded so the
action that caused them can say why (``blocked_since``).
"""

from __future__ import annotations

import asyncio
import contextlib
from typing import Any

from agent.browser.session_base import SessionState, TabState
from agent.browser.urls import check_domain


class DomainPolicyMixin(SessionState):
    """Domain guard of a :class:`agent.browser.session.BrowserSession`."""

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

    def _record_blocked(self, url: str, reason: str, tab: TabState | None) -> None:
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

    async def _leave_refused(self, tab: TabState) -> None:
        with contextlib.suppress(Exception):
            await asyncio.wait_for(tab.page.goto("about:blank"), 5)
