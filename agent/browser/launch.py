"""Find a Chromium to drive and the flags it needs.

Order: an executable forced by setting or ``WAYFINDER_BROWSER_EXECUTABLE``; a Playwright-managed Chromium;
a system Chromium. Nothing found means a clear error that says how to get one, never a cryptic Playwright
traceback.
"""

from __future__ import annotations

import glob
import os
import shutil
from pathlib import Path

EXECUTABLE_ENV = "WAYFINDER_BROWSER_EXECUTABLE"

#: Flags Chromium needs in containers and closed networks (no sandbox as root, no GPU, no phoning home).
CHROMIUM_FLAGS: tuple[str, ...] = (
    "--no-sandbox",
    "--disable-gpu",
    "--disable-dev-shm-usage",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--disable-quic",
    "--no-first-run",
    "--no-default-browser-check",
    "--disable-features=Translate,MediaRouter,OptimizationHints",
)

SYSTEM_CANDIDATES: tuple[str, ...] = (
    "chromium",
    "chromium-browser",
    "google-chrome",
    "google-chrome-stable",
)

INSTALL_HINT = (
    "No Chromium found. Install one of: `python -m playwright install chromium` (needs internet), "
    "`apt-get install -y chromium` (Debian/Ubuntu, as root), or point Wayfinder at an executable with "
    f"{EXECUTABLE_ENV}=/path/to/chrome (or the `browser_executable` setting)."
)


class BrowserNotFoundError(RuntimeError):
    """No usable Chromium executable; the message says how to install one."""


def playwright_managed_chromium() -> str | None:
    """Path of a Chromium that `playwright install` put in its cache, if any."""
    roots = []
    if os.environ.get("PLAYWRIGHT_BROWSERS_PATH"):
        roots.append(Path(os.environ["PLAYWRIGHT_BROWSERS_PATH"]))
    roots.append(Path.home() / ".cache" / "ms-playwright")
    patterns = (
        "chromium-*/chrome-linux*/chrome",
        "chromium-*/chrome-mac*/Chromium.app/Contents/MacOS/Chromium",
        "chromium-*/chrome-mac*/Google Chrome for Testing.app/Contents/MacOS/Google Chrome for Testing",
        "chromium-*/chrome-win*/chrome.exe",
    )
    for root in roots:
        for pattern in patterns:
            hits = sorted(glob.glob(str(root / pattern)), reverse=True)
            for hit in hits:
                if os.access(hit, os.X_OK):
                    return hit
    return None


def system_chromium() -> str | None:
    """First Chromium-family browser on PATH (or at /usr/bin/chromium)."""
    for name in SYSTEM_CANDIDATES:
        found = shutil.which(name)
        if found:
            return found
    if os.access("/usr/bin/chromium", os.X_OK):
        return "/usr/bin/chromium"
    return None


def resolve_executable(explicit: str | None = None) -> str:
    """The Chromium executable to launch, or raise BrowserNotFoundError with install advice."""
    forced = explicit or os.environ.get(EXECUTABLE_ENV)
    if forced:
        if os.access(forced, os.X_OK):
            return forced
        found = shutil.which(forced)
        if found:
            return found
        raise BrowserNotFoundError(f"Browser executable {forced!r} does not exist or is not executable.")
    for finder in (playwright_managed_chromium, system_chromium):
        path = finder()
        if path:
            return path
    raise BrowserNotFoundError(INSTALL_HINT)
