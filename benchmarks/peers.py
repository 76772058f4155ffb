"""The observations users would pick instead of ours, measured beside it.

- browser-use (the optional ``bench`` extra pins it): its page state as its agent takes it each step,
  ``get_browser_state_summary(include_screenshot=False)`` and the text ``dom_state.llm_representation()`` gives
  the model. Its own Chromium (the system one, headless, default extensions off: they would be downloaded),
  telemetry and cloud sync off, and a temporary HOME so nothing of the user's is read or written.
- Playwright's ``aria_snapshot()`` of the page's body: one pass over the accessibility tree, no ids, no bound.
"""

from __future__ import annotations

import contextlib
import logging
import os
import shutil
import tempfile
import time
from pathlib import Path
from typing import Any

#: Environment browser-use reads: no telemetry, no cloud, quiet logs.
BROWSER_USE_ENV = {
    "ANONYMIZED_TELEMETRY": "false",
    "BROWSER_USE_CLOUD_SYNC": "false",
    "BROWSER_USE_LOGGING_LEVEL": "error",
    "BROWSER_USE_SETUP_LOGGING": "false",
}


def browser_use_version() -> str | None:
    from importlib import metadata

    try:
        return metadata.version("browser-use")
    except metadata.PackageNotFoundError:
        return None


class BrowserUsePeer:
    """One browser-use BrowserSession for the whole benchmark; :meth:`state` times one page state."""

    def __init__(self, executable: str | None, viewport: tuple[int, int]) -> None:
        self.executable = executable
        self.viewport = viewport
        self.home = Path(tempfile.mkdtemp(prefix="wayfinder-bench-browser-use-"))
        self._saved_env: dict[str, str | None] = {}
        self.session: Any = None

    async def start(self) -> None:
        env = {
            **BROWSER_USE_ENV,
            "HOME": str(self.home),
            "XDG_CONFIG_HOME": str(self.home / ".config"),
            "XDG_CACHE_HOME": str(self.home / ".cache"),
        }
        for key, value in env.items():
            self._saved_env[key] = os.environ.get(key)
            os.environ[key] = value
        from browser_use import BrowserProfile, BrowserSession

        for name in ("browser_use", "bubus", "cdp_use"):
            logging.getLogger(name).setLevel(logging.ERROR)
        width, height = self.viewport
        profile = BrowserProfile(
            executable_path=self.executable,
            headless=True,
            enable_default_extensions=False,
            user_data_dir=str(self.home / "profile"),
            viewport={"width": width, "height": height},
            window_size={"width": width, "height": height},
        )
        self.session = BrowserSession(browser_profile=profile)
        await self.session.start()

    async def open(self, url: str) -> None:
        await self.session.navigate_to(url)

    async def state(self) -> tuple[float, str, int]:
        """(ms, the model's text, interactive elements indexed) of one fresh page state."""
        started = time.perf_counter()
        summary = await self.session.get_browser_state_summary(include_screenshot=False)
        text = summary.dom_state.llm_representation()
        took = (time.perf_counter() - started) * 1000
        return took, text, len(summary.dom_state.selector_map or {})

    async def stop(self) -> None:
        if self.session is not None:
            with contextlib.suppress(Exception):
                await self.session.kill()
        for key, value in self._saved_env.items():
            if value is None:
                os.environ.pop(key, None)
            else:
                os.environ[key] = value
        shutil.rmtree(self.home, ignore_errors=True)


async def start_browser_use(executable: str | None, viewport: tuple[int, int]) -> tuple[Any, str | None]:
    """A started :class:`BrowserUsePeer`, or None and the reason it is not measured."""
    if browser_use_version() is None:
        return (
            None,
            "browser-use is not installed (the `bench` extra; `make bench` installs it in .venv-bench)",
        )
    peer = BrowserUsePeer(executable, viewport)
    try:
        await peer.start()
    except Exception as exc:  # noqa: BLE001 - a peer that cannot start is reported, the rest still runs
        await peer.stop()
        return None, f"browser-use could not start: {type(exc).__name__}: {str(exc)[:200]}"
    return peer, None


#: Playwright's default action timeout is the session's (seconds); a snapshot of a 2,000-card page on a busy
#: machine takes longer, and a failure is reported beside the times, never fatal to the benchmark.
ARIA_TIMEOUT_MS = 120_000


async def aria_snapshot(page: Any) -> tuple[float, str, str | None]:
    """(ms, text, error) of Playwright's ``aria_snapshot()`` of the page's body."""
    started = time.perf_counter()
    try:
        text, error = await page.locator("body").aria_snapshot(timeout=ARIA_TIMEOUT_MS), None
    except Exception as exc:  # noqa: BLE001 - a timeout on a busy machine is a reported failure
        text, error = "", f"{type(exc).__name__}: {str(exc).splitlines()[0][:160]}"
    return (time.perf_counter() - started) * 1000, text, error


def aria_elements(text: str) -> int:
    """Nodes in an aria snapshot: one per ``- role`` line."""
    return sum(1 for line in text.splitlines() if line.lstrip().startswith("- "))
