"""Make sure a Chromium is available: `python -m agent.browser.provision` (run by `make setup`).

Tries, in order: an existing Playwright-managed Chromium, `playwright install chromium`, a system Chromium,
`apt-get install -y chromium` when running as root; otherwise exits 1 with install advice.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys

from agent.browser.launch import (
    INSTALL_HINT,
    BrowserNotFoundError,
    playwright_managed_chromium,
    resolve_executable,
    system_chromium,
)


def _run(cmd: list[str], timeout: float) -> bool:
    try:
        proc = subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, timeout=timeout)
    except (OSError, subprocess.TimeoutExpired):
        return False
    return proc.returncode == 0


def provision() -> str:
    """Return the executable path that will be used, installing one if needed."""
    try:
        return resolve_executable()
    except BrowserNotFoundError:
        pass
    if _run([sys.executable, "-m", "playwright", "install", "chromium"], timeout=600):
        found = playwright_managed_chromium()
        if found:
            return found
    found = system_chromium()
    if found:
        return found
    is_root = hasattr(os, "geteuid") and os.geteuid() == 0
    if is_root and shutil.which("apt-get"):
        env = dict(os.environ, DEBIAN_FRONTEND="noninteractive")
        subprocess.run(["apt-get", "update", "-qq"], env=env, check=False)
        subprocess.run(["apt-get", "install", "-y", "-qq", "chromium"], env=env, check=False)
        found = system_chromium()
        if found:
            return found
    raise BrowserNotFoundError(INSTALL_HINT)


def main() -> int:
    try:
        path = provision()
    except BrowserNotFoundError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 1
    print(f"browser: {path}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
