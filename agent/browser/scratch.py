"""A browser session's scratch directory (temporary profile, HOME, downloads), and the sweep of those a killed
process left behind.

A session removes its directory when it closes, also on Ctrl-C or SIGTERM. A process killed outright (SIGKILL,
the OOM killer, a lost container) cannot, and each such run left a profile of a few megabytes in the temp
directory for good. So the owner holds an exclusive ``flock`` on a file in its directory for as long as it
lives; the kernel lets go of it when the process ends, however it ends. A new session removes every scratch
directory whose lock nobody holds. A directory without that file (made by an older version) is left alone, and
so is one made in the last minute (its owner may be about to take the lock).

Playwright starts Chromium in a process group of its own, so killing the owner's group does not kill its
browser at once: that Chromium lives on (for a fraction of a second, or seconds on a loaded machine) and keeps
writing into its profile until it notices its pipe is gone. A directory a live process still names on its
command line is left for a later sweep.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import tempfile
import time
from pathlib import Path
from typing import IO

try:
    import fcntl
except ImportError:  # not POSIX: no owner locks, no sweep
    fcntl = None  # type: ignore[assignment]

PREFIX = "wayfinder-browser-"
LOCK_NAME = "owner.lock"
#: A directory younger than this is never swept, locked or not.
MIN_AGE_S = 60.0


class ScratchDir:
    """A new scratch directory, locked for this process until :meth:`remove`."""

    def __init__(self) -> None:
        self.path = Path(tempfile.mkdtemp(prefix=PREFIX))
        self._lock: IO[bytes] | None = None
        if fcntl is not None:
            with contextlib.suppress(OSError):
                lock = (self.path / LOCK_NAME).open("wb")  # not inherited by Chromium (close-on-exec)
                fcntl.flock(lock.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
                self._lock = lock

    def remove(self) -> None:
        """Delete the directory, then let go of the lock (the other way round, a sweep could race us)."""
        shutil.rmtree(self.path, ignore_errors=True)
        if self._lock is not None:
            with contextlib.suppress(OSError):
                self._lock.close()
            self._lock = None


def sweep_abandoned(root: Path | None = None, now: float | None = None) -> list[Path]:
    """Remove the scratch directories under ``root`` (the temp directory) whose owner is gone; return them."""
    if fcntl is None:
        return []
    root = root or Path(tempfile.gettempdir())
    now = time.time() if now is None else now
    removed: list[Path] = []
    try:
        candidates = [p for p in root.iterdir() if p.name.startswith(PREFIX)]
    except OSError:
        return removed
    in_use = _named_by_live_processes() if candidates else ""
    for path in candidates:
        if _abandoned(path, now) and str(path) + os.sep not in in_use:
            shutil.rmtree(path, ignore_errors=True)
            if not path.exists():  # (a Chromium its owner left running may still write there: next time)
                removed.append(path)
    return removed


def _named_by_live_processes() -> str:
    """The command lines of this machine's live processes, one per line (Linux ``/proc``; elsewhere empty)."""
    lines: list[str] = []
    with contextlib.suppress(OSError):
        for entry in os.scandir("/proc"):
            if entry.name.isdigit():
                with contextlib.suppress(OSError), open(os.path.join(entry.path, "cmdline"), "rb") as fh:
                    lines.append(fh.read().replace(b"\0", b" ").decode("utf-8", "replace"))
    return "\n".join(lines)


def _abandoned(path: Path, now: float) -> bool:
    try:
        if not path.is_dir() or path.is_symlink() or now - path.stat().st_mtime < MIN_AGE_S:
            return False
        fd = os.open(path / LOCK_NAME, os.O_RDONLY | os.O_NOFOLLOW)
    except OSError:  # no lock file (an older version's, or not ours to read): left alone
        return False
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        return False  # held: its owner is alive
    finally:
        os.close(fd)  # (a lock we took goes with the descriptor)
    return True
