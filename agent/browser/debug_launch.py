"""A Chromium with a DevTools port on loopback, for runs that attach to it over CDP (``cdp_url``).

A batch shares one such browser between its tasks, each in a browser context of its own; tests start one as
"the user's browser". It gets a temporary profile and HOME (removed when it stops), its own process group (a
Ctrl-C at the terminal reaches the agent, which closes its contexts, not the browser under it), and a port
the kernel picks: Chromium writes it to ``DevToolsActivePort`` in the profile, which is read here.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import subprocess
import tempfile
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from agent.browser.launch import CHROMIUM_FLAGS, resolve_executable

#: Seconds Chromium may take to open its DevTools port.
START_TIMEOUT_S = 30.0


class DebuggableChromiumError(RuntimeError):
    """The browser did not start or never opened its DevTools port."""


@dataclass
class DebuggableChromium:
    """A running Chromium: its DevTools URL (``http://127.0.0.1:PORT``) and process."""

    cdp_url: str
    process: subprocess.Popen
    profile: Path

    def stop(self, timeout: float = 10.0) -> None:
        """End the browser (terminate, then kill) and remove its profile. Idempotent."""
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(timeout)
        shutil.rmtree(self.profile, ignore_errors=True)


def start_debuggable_chromium(
    *urls: str, executable: str | None = None, headless: bool = True, args: tuple[str, ...] = ()
) -> DebuggableChromium:
    """Start Chromium with a DevTools port on 127.0.0.1 and ``urls`` open in its tabs."""
    profile = Path(tempfile.mkdtemp(prefix="wayfinder-cdp-"))
    command = [
        resolve_executable(executable),
        *CHROMIUM_FLAGS,
        *(["--headless"] if headless else []),
        "--remote-debugging-address=127.0.0.1",
        "--remote-debugging-port=0",
        f"--user-data-dir={profile}",
        *args,
        *(urls or ("about:blank",)),
    ]
    env = dict(os.environ, HOME=str(profile), XDG_CONFIG_HOME=str(profile / ".config"))
    process = subprocess.Popen(
        command,
        stdin=subprocess.DEVNULL,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        env=env,
        start_new_session=True,
    )
    browser = DebuggableChromium("", process, profile)
    deadline = time.monotonic() + START_TIMEOUT_S
    port_file = profile / "DevToolsActivePort"
    while time.monotonic() < deadline:
        if process.poll() is not None:
            browser.stop()
            raise DebuggableChromiumError(f"Chromium exited with code {process.returncode} before it started")
        with contextlib.suppress(OSError, ValueError, IndexError):
            port = int(port_file.read_text(encoding="utf-8").splitlines()[0])
            browser.cdp_url = f"http://127.0.0.1:{port}"
            return browser
        time.sleep(0.05)
    browser.stop()
    raise DebuggableChromiumError(f"Chromium opened no DevTools port within {START_TIMEOUT_S:.0f}s")


@contextlib.contextmanager
def debuggable_chromium(
    *urls: str, executable: str | None = None, headless: bool = True, args: tuple[str, ...] = ()
) -> Iterator[DebuggableChromium]:
    """:func:`start_debuggable_chromium` as a context manager: the browser is stopped on the way out."""
    browser = start_debuggable_chromium(*urls, executable=executable, headless=headless, args=args)
    try:
        yield browser
    finally:
        browser.stop()
