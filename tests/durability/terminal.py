"""Drive ``python -m agent ...`` in a real pseudo-terminal, the way a person at a terminal would.

The child gets the pty as stdin and stderr (and stdout unless ``separate_stdout``), as its controlling
terminal: typing ``\\x03`` sends SIGINT to its whole foreground process group (Python, the Playwright driver
and Chromium), exactly like Ctrl-C. A reader thread drains the pty so a redrawing display never blocks.
Only the standard library is used (``pty``, ``termios``), so no extra test dependency is needed.
"""

from __future__ import annotations

import contextlib
import fcntl
import os
import re
import signal
import struct
import subprocess
import sys
import termios
import threading
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
ANSI = re.compile(r"\x1b\[[0-9;?]*[ -/]*[@-~]|\x1b\][^\x07]*\x07|\x1b[=>()][0-9A-Za-z]?|[\x0e\x0f]")

#: Makes the pty (fd 0) the controlling terminal of the new session, then runs the real command.
_CTTY_EXEC = "import fcntl, os, sys, termios; fcntl.ioctl(0, termios.TIOCSCTTY, 0); os.execvp(sys.argv[1], sys.argv[1:])"


def strip_ansi(text: str) -> str:
    return ANSI.sub("", text).replace("\r", "")


def agent_env(**extra: str) -> dict[str, str]:
    """The environment of a CLI child: unbuffered, a real terminal type, no colour overrides."""
    env = {
        k: v
        for k, v in os.environ.items()
        if k not in ("NO_COLOR", "FORCE_COLOR", "COLUMNS", "LINES") and not k.startswith("WAYFINDER_")
    }
    env.update({"PYTHONUNBUFFERED": "1", "TERM": "xterm-256color", "PYTHONPATH": str(REPO)})
    env.update(extra)
    return env


def agent_command(*args: str) -> list[str]:
    return [sys.executable, "-m", "agent", *args]


class Terminal:
    """One child process on a pseudo-terminal."""

    def __init__(
        self,
        argv: list[str],
        *,
        env: dict[str, str] | None = None,
        cwd: str | Path | None = None,
        cols: int = 120,
        rows: int = 40,
        separate_stdout: bool = False,
    ):
        master, slave = os.openpty()
        fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", rows, cols, 0, 0))
        self._master = master
        self._raw = bytearray()
        self._stdout = bytearray()
        self._cond = threading.Condition()
        self._pos = 0
        self.proc = subprocess.Popen(
            [sys.executable, "-c", _CTTY_EXEC, *argv],
            stdin=slave,
            stdout=subprocess.PIPE if separate_stdout else slave,
            stderr=slave,
            env=env if env is not None else agent_env(),
            cwd=str(cwd or REPO),
            start_new_session=True,
            close_fds=True,
        )
        os.close(slave)
        self._threads = [threading.Thread(target=self._pump_pty, daemon=True)]
        if separate_stdout:
            self._threads.append(threading.Thread(target=self._pump_stdout, daemon=True))
        for thread in self._threads:
            thread.start()

    # --- reading ------------------------------------------------------------------------------------

    def _pump_pty(self) -> None:
        while True:
            try:
                chunk = os.read(self._master, 65536)
            except OSError:  # EIO: every slave end is closed
                chunk = b""
            with self._cond:
                if not chunk:
                    self._cond.notify_all()
                    return
                self._raw += chunk
                self._cond.notify_all()

    def _pump_stdout(self) -> None:
        assert self.proc.stdout is not None
        for chunk in iter(lambda: self.proc.stdout.read1(65536), b""):  # type: ignore[union-attr]
            with self._cond:
                self._stdout += chunk

    @property
    def raw(self) -> str:
        with self._cond:
            return self._raw.decode("utf-8", "replace")

    @property
    def text(self) -> str:
        """Everything the terminal showed so far, without escape sequences."""
        return strip_ansi(self.raw)

    @property
    def stdout(self) -> str:
        with self._cond:
            return self._stdout.decode("utf-8", "replace")

    def expect(self, pattern: str, timeout: float = 30.0) -> re.Match[str]:
        """Wait until ``pattern`` (a regex) shows up after the previous match; fail with the screen's text."""
        rx = re.compile(pattern)
        deadline = time.monotonic() + timeout
        with self._cond:
            while True:
                text = strip_ansi(self._raw.decode("utf-8", "replace"))
                match = rx.search(text, self._pos)
                if match:
                    self._pos = match.end()
                    return match
                left = deadline - time.monotonic()
                if left <= 0 or (self.proc.poll() is not None and not self._threads[0].is_alive()):
                    raise AssertionError(
                        f"{pattern!r} did not show up in {timeout:g}s; screen:\n{text[-3000:]}"
                    )
                self._cond.wait(min(left, 0.2))

    # --- writing and signals ----------------------------------------------------------------------------

    def send(self, text: str) -> None:
        os.write(self._master, text.encode())

    def sendline(self, text: str = "") -> None:
        self.send(text + "\r")

    def ctrl_c(self) -> None:
        self.send("\x03")

    def kill(self, sig: int = signal.SIGKILL) -> None:
        """Signal the child alone (SIGKILL: the process dies with no clean-up, like a crash)."""
        with contextlib.suppress(ProcessLookupError):
            os.kill(self.proc.pid, sig)

    def wait(self, timeout: float = 60.0) -> int:
        code = self.proc.wait(timeout)
        for thread in self._threads:
            thread.join(5)
        return code

    def close(self) -> None:
        """Make sure nothing is left behind: the child's whole process group is killed."""
        if self.proc.poll() is None:
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.killpg(self.proc.pid, signal.SIGKILL)
            with contextlib.suppress(subprocess.TimeoutExpired):
                self.proc.wait(10)
        else:
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.killpg(self.proc.pid, signal.SIGKILL)  # a browser orphaned by a SIGKILL'ed parent
        with contextlib.suppress(OSError):
            os.close(self._master)
        if self.proc.stdout is not None:
            self.proc.stdout.close()

    def __enter__(self) -> Terminal:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
