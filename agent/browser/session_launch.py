"""Starting and stopping a session: launch Chromium (or attach over CDP), reset it for reuse, close it.

Launching uses :func:`agent.browser.launch.resolve_executable` and ``CHROMIUM_FLAGS``; the browser gets a
throw-away profile and HOME under a temporary directory that ``close`` removes again. Every step is bounded:
a browser that hangs on close is killed by its profile path. Attached over CDP, the run works in a browser
context of its own, closed at the end; the user's browser and tabs stay as they were.

Storage state in and out: ``save_storage_state`` writes the cookies, every origin's localStorage and the
active tab's sessionStorage to a file (atomically, readable by the owner only); ``load_storage_state`` gives a
new browser the cookies and localStorage back, and ``seed_session_storage`` the active tab's sessionStorage
before its page is reopened. That is how a resumed run keeps its logged-in session and dismissed banners.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import signal
from pathlib import Path
from typing import Any, Self

from agent.browser.launch import CHROMIUM_FLAGS, resolve_executable
from agent.browser.options import BrowserOptions
from agent.browser.scratch import ScratchDir, sweep_abandoned
from agent.browser.scripts import browser_script
from agent.browser.session_base import BrowserSessionError, SessionState
from agent.browser.session_events import DOM_BINDING
from agent.browser.session_tabs import _origin

_CLOSE_STEP_S = 8.0
_LAUNCH_TIMEOUT_S = 45.0
#: Upper bound for reading or restoring the storage state (a page that hangs its scripts cannot stall a step).
_STORAGE_S = 5.0
_SESSION_STORAGE_JS = (
    "() => Object.fromEntries(Object.keys(sessionStorage).map(k => [k, sessionStorage.getItem(k)]))"
)
_SEED_SESSION_STORAGE_JS = (
    "items => { for (const [k, v] of Object.entries(items)) sessionStorage.setItem(k, v); }"
)


class StorageStateError(Exception):
    """The saved storage state cannot be used (missing, unreadable, not the expected shape)."""


def _write_private_json(path: Path, data: dict[str, Any]) -> None:
    """Write ``data`` to ``path`` atomically, readable by the owner only (it holds session cookies)."""
    tmp = path.with_name(f"{path.name}.{os.getpid()}.tmp")
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "w", encoding="utf-8") as fh:
        fh.write(json.dumps(data, ensure_ascii=False))
        fh.flush()
        os.fsync(fh.fileno())
    tmp.replace(path)


def read_storage_file(path: Path) -> dict[str, Any]:
    """The saved storage state in ``path``; StorageStateError says why it cannot be used."""
    try:
        data = json.loads(Path(path).read_text(encoding="utf-8"))
    except FileNotFoundError as exc:
        raise StorageStateError("no saved browser state") from exc
    except (OSError, ValueError) as exc:
        raise StorageStateError(f"the saved browser state is unreadable ({type(exc).__name__})") from exc
    if (
        not isinstance(data, dict)
        or not isinstance(data.get("cookies"), list)
        or not isinstance(data.get("origins"), list)
    ):
        raise StorageStateError("the saved browser state is not in the expected shape")
    return data


#: Profile preferences of a launched browser. No network prediction: Chromium would otherwise open a TCP
#: connection to a navigation's host (and to hosts it guesses) before any request reaches the network guard.
_PREFERENCES = {"net": {"network_prediction_options": 2}}


def _write_preferences(profile: Path) -> None:
    (profile / "Default").mkdir(parents=True, exist_ok=True)
    (profile / "Default" / "Preferences").write_text(json.dumps(_PREFERENCES), encoding="utf-8")


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
        self._scratch = await asyncio.to_thread(ScratchDir)
        self._tmp = self._scratch.path
        # what killed processes left behind, beside the launch (never raises; nothing waits for it)
        asyncio.get_running_loop().run_in_executor(None, sweep_abandoned)
        self._pw = await async_playwright().start()
        opts = self.options
        if opts.cdp_url:
            await self._attach(opts.cdp_url)
        else:
            executable = await asyncio.to_thread(resolve_executable, opts.executable)
            self._profile = self._tmp / "profile"
            await asyncio.to_thread(_write_preferences, self._profile)
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
            proxy = await self._start_proxy()
            self._context = await self._pw.chromium.launch_persistent_context(
                str(self._profile),
                executable_path=executable,
                headless=opts.headless,
                args=[*CHROMIUM_FLAGS, *opts.extra_args, *proxy.chromium_args()],  # last: a flag of ours wins
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

    async def _attach(self, cdp_url: str) -> None:
        """Attach to the user's running browser and work in a browser context of our own: the user's tabs,
        cookies and pages are never touched, our viewport applies, and closing our context at the end takes
        our tabs (and every mark we set in them) away while the browser keeps running."""
        from playwright.async_api import Error as PlaywrightError

        try:
            self._browser = await self._pw.chromium.connect_over_cdp(
                cdp_url, timeout=self.options.navigation_timeout_s * 1000
            )
        except PlaywrightError as exc:
            reason = (str(exc).strip().splitlines() or ["no answer"])[0]
            raise BrowserSessionError(f"cannot attach to the browser at {cdp_url}: {reason[:200]}") from None
        self._browser.on("disconnected", lambda _b: self._mark_dead("the browser disconnected (CDP)"))
        proxy = await self._start_proxy()  # our context's own proxy: the user's contexts keep theirs
        self._context = await self._browser.new_context(
            proxy={"server": proxy.server, "bypass": "<-loopback>"}, **self._context_kwargs()
        )
        self._own_context = True

    def _context_kwargs(self) -> dict[str, Any]:
        opts = self.options
        kwargs: dict[str, Any] = {
            "viewport": {"width": opts.viewport_width, "height": opts.viewport_height},
            "locale": opts.locale,
            # A service worker's own requests (and their redirect hops) live outside the tabs' interception.
            "service_workers": "block",
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
        if self._proxy is not None:
            await self._proxy.stop()
        if self._scratch is not None:
            try:
                await asyncio.to_thread(self._scratch.remove)
            except RuntimeError:  # the loop's executor is already shut down (interpreter exit)
                self._scratch.remove()
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

    async def save_storage_state(self, path: Path) -> bool:
        """Save cookies, localStorage and the active tab's sessionStorage to ``path``. Never raises; False
        when the browser could not be read (the previous file is then left as it was)."""
        try:
            data = await asyncio.wait_for(self._read_storage_state(), _STORAGE_S)
            await asyncio.to_thread(_write_private_json, Path(path), data)
        except Exception:  # noqa: BLE001 - a closed browser or a busy page: keep the last good state
            return False
        return True

    async def _read_storage_state(self) -> dict[str, Any]:
        self._check_alive()
        state = await self._context.storage_state()
        page = self.page
        origin = _origin(page.url)
        items: dict[str, str] = {}
        if origin:
            with contextlib.suppress(Exception):
                items = await asyncio.wait_for(page.evaluate(_SESSION_STORAGE_JS), 2)
        return {
            "url": page.url,
            "cookies": state.get("cookies") or [],
            "origins": state.get("origins") or [],
            "session_storage": {"origin": origin, "items": items if isinstance(items, dict) else {}},
        }

    async def load_storage_state(self, path: Path) -> dict[str, Any]:
        """Give this browser the cookies and localStorage saved in ``path``; returns the saved state (its
        ``session_storage`` is for :meth:`seed_session_storage`). StorageStateError when it cannot."""
        data = await asyncio.to_thread(read_storage_file, Path(path))
        self._check_alive()
        try:
            await asyncio.wait_for(
                self._context.set_storage_state({"cookies": data["cookies"], "origins": data["origins"]}),
                _STORAGE_S,
            )
        except Exception as exc:  # noqa: BLE001 - a malformed cookie or origin entry, a timeout
            raise StorageStateError(f"the saved browser state was refused ({type(exc).__name__})") from exc
        return data

    async def seed_session_storage(self, url: str, saved: dict[str, Any]) -> bool:
        """Put the saved sessionStorage of ``url``'s origin into the active tab before ``url`` is opened:
        a blank stand-in page is served at ``url`` (nothing reaches the site), filled, then left."""
        session_storage = saved.get("session_storage") or {}
        items = session_storage.get("items")
        if not items or not isinstance(items, dict) or session_storage.get("origin") != _origin(url):
            return False
        page = self.page

        async def blank(route: Any) -> None:
            await route.fulfill(status=200, content_type="text/html", body="<!doctype html><title></title>")

        target = url.split("#", 1)[0]
        try:
            await page.route(target, blank)
            await asyncio.wait_for(page.goto(target, wait_until="commit"), _STORAGE_S)
            await asyncio.wait_for(page.evaluate(_SEED_SESSION_STORAGE_JS, items), 2)
            return True
        except Exception:  # noqa: BLE001 - the page is reopened anyway; only sessionStorage is missing
            return False
        finally:
            with contextlib.suppress(Exception):
                await page.unroute(target, blank)

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
