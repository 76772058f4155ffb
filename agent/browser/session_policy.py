"""The network guard of a session: domain lists and address rules enforced on the browser's own requests.

At the root, a launched browser sends every connection through the session's guard proxy
(:mod:`agent.browser.guard_proxy`): each host is resolved once, every address checked, and the connection
made to one of those very addresses; blocked domains are refused there too. That holds for anything
Chromium connects for (popups' first hops, prefetches, workers) and against DNS rebinding. Above it, three
layers that see each request and give the structured ``navigation_blocked`` failure:
- context routing (every tab, popup, ``window.open`` and frame from its first request): a document or frame
  request must pass the domain lists, and every request, of any kind, must reach an address the
  :class:`~agent.browser.netguard.AddressPolicy` permits;
- a CDP ``Fetch`` interception per tab, which Chromium pauses at every redirect hop (routing never sees
  those): each hop is checked the same way and failed before it is sent;
- a main frame that still lands on a refused URL (a hop in a tab opened before its interception was ready,
  a ``data:``/``blob:`` document) is sent to about:blank at once.
Refusals are recorded so the action that caused them can say why (``blocked_since``).
"""

from __future__ import annotations

import asyncio
import contextlib
import re
from typing import Any

from agent.browser.guard_proxy import PROXY_FAILURE, GuardProxy, host_port
from agent.browser.netguard import AddressPolicy, HostChecker, LookupFailure
from agent.browser.session_base import SessionState, TabState
from agent.browser.urls import ALLOWED_SCHEMES, check_domain, host_of

#: Documents a main frame may show besides http(s) pages.
_HARMLESS_DOCUMENTS = ("about:blank", "about:srcdoc", "chrome-error:")
#: Init script taking WebRTC's connection objects away from pages (the guard cannot see its traffic).
_NO_WEBRTC = """(() => { for (const name of ['RTCPeerConnection', 'webkitRTCPeerConnection', 'RTCIceTransport']) {
  try { Object.defineProperty(globalThis, name, { value: undefined, configurable: false, writable: false }); }
  catch (e) {} } })();"""


class DomainPolicyMixin(SessionState):
    """Network guard of a :class:`agent.browser.session.BrowserSession`."""

    async def set_domain_policy(
        self, allowed: list[str] | None = None, blocked: list[str] | None = None
    ) -> None:
        """Set the allowed/blocked domain lists (blocked wins) for every document and frame request."""
        self._check_alive()
        self.options.allowed_domains = list(allowed or [])
        self.options.blocked_domains = list(blocked or [])
        await self._apply_guard()

    async def set_address_policy(self, *, allow_private: bool, allow_local: bool) -> None:
        """Which address classes requests may reach (see :mod:`agent.browser.netguard`)."""
        self._check_alive()
        self.options.allow_private = allow_private
        self.options.allow_local = allow_local
        await self._apply_guard()

    @property
    def address_policy(self) -> AddressPolicy:
        return AddressPolicy(allow_private=self.options.allow_private, allow_local=self.options.allow_local)

    @property
    def host_checker(self) -> HostChecker:
        """The guard's resolver and cache (rebuilt when the options name another resolver)."""
        resolver = self.options.resolver
        if self._checker is None or self._checker_for is not resolver:
            self._checker, self._checker_for = HostChecker(resolver), resolver
        return self._checker

    async def _start_proxy(self) -> GuardProxy:
        """Start the guard proxy that this session's browser connects through (see the module docstring)."""
        loop = asyncio.get_running_loop()

        def refused(target: str, reason: str) -> None:  # on the proxy's thread
            # A name with no address is no policy decision (Chromium's own services, offline): not recorded.
            if not isinstance(reason, LookupFailure) and not loop.is_closed():
                loop.call_soon_threadsafe(self._record_blocked, target, reason, None)

        self._proxy = await GuardProxy(
            self._proxy_gate, dialer=self.options.dialer, on_refused=refused
        ).start()
        return self._proxy

    def _proxy_gate(self, host: str, port: int, lookup: bool) -> tuple[list[str], str | None] | None:
        """Where the guard proxy may connect for ``host``: never a blocked domain, only checked addresses.
        (The allowed list is for documents and frames, which the proxy cannot tell from subresources.)"""
        blocked = list(self.options.blocked_domains)
        if blocked:
            check = check_domain(f"http://{host_port(host, port)}/", [], blocked)
            if not check.ok:
                return [], check.reason
        return self.host_checker.checked_addresses(host, self.address_policy, lookup=lookup)

    def net_error(self, url: str, code: str | None) -> str | None:
        """Chromium's error for a failed load of ``url``, with the guard proxy's real cause put back (through
        the proxy every connection that could not be made reads ``ERR_SOCKS_CONNECTION_FAILED``)."""
        if code == PROXY_FAILURE and self._proxy is not None:
            return self._proxy.failure_for(url) or code
        return code

    def _guard_wanted(self) -> bool:
        opts = self.options
        return bool(opts.allowed_domains or opts.blocked_domains) or not self.address_policy.open

    async def _apply_guard(self) -> None:
        """Install or remove the routing and per-tab interception to match the options (each request goes
        through Python while they are installed, so they are off when there is nothing to check)."""
        wanted = self._guard_wanted()
        if wanted and not self._guard_installed:
            await self._context.route("**/*", self._guard_route)
            self._guard_installed = True
            if not self._sockets_guarded:  # no unroute for these: installed once, they check the policy live
                await self._context.route_web_socket(re.compile(".*"), self._guard_websocket)
                self._sockets_guarded = True
        if not self.address_policy.open and not self._webrtc_off:
            # WebRTC opens UDP and TCP (TURN) connections to any address a page names, past every request hook.
            await self._context.add_init_script(_NO_WEBRTC)
            self._webrtc_off = True
        elif not wanted and self._guard_installed:
            await self._context.unroute("**/*", self._guard_route)
            self._guard_installed = False
        await asyncio.gather(*(self._intercept_redirects(tab) for tab in list(self._tabs.values())))

    async def refusal(self, url: str, *, document: bool) -> str | None:
        """Why the guard refuses a request for ``url`` (None when it may go): the domain lists for documents
        and frames, the address rules for every request. Only http(s) requests reach the network."""
        if not url.startswith(("http:", "https:")):
            return None
        opts = self.options
        if document and (opts.allowed_domains or opts.blocked_domains):
            check = check_domain(url, opts.allowed_domains, opts.blocked_domains)
            if not check.ok:
                return check.reason
        host = host_of(url)
        if not host:
            return f"URL {url!r} has no host"
        return await self.host_checker.refusal_async(host, self.address_policy)

    def _record_blocked(
        self, url: str, reason: str, tab: TabState | None, *, main_frame: bool = False
    ) -> None:
        """Note a refusal; ``main_frame``: it was a tab's own page (not a frame's, not a resource's), the only
        kind that means the action that caused it opened nothing."""
        self._seq += 1  # a tick without an event, so blocked_since(mark) sees it
        entry = {"url": url, "reason": reason, "tab_id": tab.id if tab else "", "main_frame": main_frame}
        self._blocked.append((self._seq, entry))
        del self._blocked[:-50]

    def blocked_since(self, mark: int) -> list[dict[str, Any]]:
        """Requests the network guard refused after ``mark`` (url, reason, tab_id, main_frame)."""
        return [dict(entry) for seq, entry in self._blocked if seq > mark]

    async def _guard_route(self, route: Any) -> None:
        request = route.request
        reason = None
        try:
            document = request.resource_type == "document"
            reason = await self.refusal(request.url, document=document)
        except Exception as exc:  # noqa: BLE001 - fail closed: a request the guard cannot judge does not go
            reason = f"the network guard could not check {request.url}: {exc}"
        tab, main_frame = None, False
        with contextlib.suppress(Exception):  # (a service worker's request has no frame)
            tab = self._by_page.get(id(request.frame.page))
            main_frame = document and request.frame.parent_frame is None
        if reason is None:
            if tab is not None and (tab.fetch is None or isinstance(tab.fetch, asyncio.Future)):
                # A tab this new (a popup) may not pause its requests yet: its redirect hops must be seen too.
                await self._intercept_redirects(tab)
            with contextlib.suppress(Exception):
                await route.continue_()
            return
        self._record_blocked(request.url, reason, tab, main_frame=main_frame)
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

    async def _guard_websocket(self, socket: Any) -> None:
        """A page's WebSocket: connected only when its address and host pass, like any other request."""
        url = str(socket.url)
        http_url = re.sub(r"^ws", "http", url, flags=re.IGNORECASE)
        try:
            reason = await self.refusal(http_url, document=False) if self._guard_wanted() else None
        except Exception as exc:  # noqa: BLE001 - fail closed
            reason = f"the network guard could not check {url}: {exc}"
        if reason is None:
            socket.connect_to_server()
            return
        self._record_blocked(url, reason, None)
        with contextlib.suppress(Exception):
            await socket.close(code=1008, reason="refused by the network guard")

    # ------------------------------------------------------------------------------------------ redirect hops

    async def _intercept_redirects(self, tab: TabState) -> None:
        """Start (or stop) pausing ``tab``'s requests in Chromium so every redirect hop can be checked; while
        it starts, ``tab.fetch`` holds the task others wait for."""
        wanted = self._guard_wanted() and not self._closing
        if wanted and tab.fetch is None:
            tab.fetch = asyncio.ensure_future(self._enable_fetch(tab))
        if isinstance(tab.fetch, asyncio.Future):
            with contextlib.suppress(Exception):
                await asyncio.shield(tab.fetch)
        if not wanted and tab.fetch is not None:
            cdp, tab.fetch = tab.fetch, None
            with contextlib.suppress(Exception):
                await cdp.send("Fetch.disable")
                await cdp.detach()

    async def _enable_fetch(self, tab: TabState) -> None:
        try:
            cdp = await self._context.new_cdp_session(tab.page)
            cdp.on("Fetch.requestPaused", lambda event: self._spawn(self._on_paused(cdp, tab, event)))
            await cdp.send("Fetch.enable", {"patterns": [{"urlPattern": "*", "requestStage": "Request"}]})
            tab.fetch = cdp
            self._spawn(self._learn_main_frame(cdp, tab))
        except Exception:  # noqa: BLE001 - a tab that closed meanwhile; routing still guards it
            tab.fetch = None

    @staticmethod
    async def _learn_main_frame(cdp: Any, tab: TabState) -> None:
        """The tab's top frame id: a page target's own id (asked of the browser, not of the page, which may
        still be paused at its start and answer nothing until its first requests are let through)."""
        with contextlib.suppress(Exception):
            info = await asyncio.wait_for(cdp.send("Target.getTargetInfo"), 5)
            tab.main_frame_id = str(info["targetInfo"]["targetId"])

    async def _on_paused(self, cdp: Any, tab: TabState, event: dict[str, Any]) -> None:
        """A paused request: first hops were judged by routing already; a redirect hop is judged here."""
        request_id = event.get("requestId")
        reason = None
        if event.get("redirectedRequestId"):
            url = str((event.get("request") or {}).get("url") or "")
            document = event.get("resourceType") == "Document"
            try:
                reason = await self.refusal(url, document=document)
            except Exception as exc:  # noqa: BLE001 - fail closed
                reason = f"the network guard could not check {url}: {exc}"
            if reason is not None:
                main_frame = (
                    document and bool(tab.main_frame_id) and event.get("frameId") == tab.main_frame_id
                )
                self._record_blocked(
                    url, f"redirected to a refused address: {reason}", tab, main_frame=main_frame
                )
        with contextlib.suppress(Exception):
            if reason is None:
                await cdp.send("Fetch.continueRequest", {"requestId": request_id})
            else:
                await cdp.send("Fetch.failRequest", {"requestId": request_id, "errorReason": "Aborted"})

    # ------------------------------------------------------------------------------------- landed documents

    def _check_landed(self, tab: TabState, url: str) -> None:
        """A main frame committed ``url``: leave it at once when the guard refuses it."""
        if url.startswith(_HARMLESS_DOCUMENTS) or not self._guard_wanted():
            return
        scheme = url.split(":", 1)[0].lower()
        if scheme not in ALLOWED_SCHEMES:
            reason = f"the {scheme}: scheme is not allowed for pages (only http and https)"
            self._record_blocked(url, reason, tab, main_frame=True)
            self._spawn(self._leave_refused(tab))
            return
        self._spawn(self._leave_if_refused(tab, url))

    async def _leave_if_refused(self, tab: TabState, url: str) -> None:
        reason = await self.refusal(url, document=True)
        if reason is not None:
            self._record_blocked(url, reason, tab, main_frame=True)
            await self._leave_refused(tab)

    async def _leave_refused(self, tab: TabState) -> None:
        with contextlib.suppress(Exception):
            await asyncio.wait_for(tab.page.goto("about:blank"), 5)
