"""Starting and stopping a session: launch Chromium (or attach over CDP), reset it for reuse, close it.

Launching uses :func:`agent.browser.launch.resolve_executable` and ``CHROMIUM_FLAGS``; the browser gets a
throw-away profile and HOME under a temporary directory that ``close`` removes again. Every step is bounded:
a browser that hangs on close is killed by its profile path.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import shutil
import signal
import tempfile
from pathlib import Path
from typing import Any, Self

from agent.browser.launch import CHROMIUM_FLAGS, resolve_executable
from agent.browser.options import BrowserOptions
from agent.browser.scripts import browser_script
from agent.browser.session_base import BrowserSessionError, SessionState
from agent.browser.session_events import DOM_BINDING

_CLOSE_STEP_S = 8.0
_LAUNCH_TIMEOUT_S = 45.0


class LaunchMixin(SessionState):
    """Lifecycle of a :class:`agent.browser.session.BrowserSession`."""

    @classmethod
    async def start(cls, options: BrowserOptions, run_dir: Path) -> Self:
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
        await ctx.add_init_script(browser_script("dom_watch"))
        ctx.on("page", self._on_page)
        ctx.on("dialog", self._on_dialog)
        ctx.on("close", lambda _c: self._mark_dead("the browser context was closed"))
        await self.set_domain_policy(opts.allowed_domains, opts.blocked_domains)
        for page in ctx.pages:
            self._register(page, emit=False)
            with contextlib.suppress(Exception):
                await asyncio.wait_for(page.evaluate(browser_script("dom_watch")), 2)
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
    def profile_dir(self) -> Path | None:
        """The temporary Chromium profile of a launched browser (None when attached over CDP)."""
        return self._profile

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
