"""Trace files held open for appending, so a node's record costs one write, not an open, a write and a close.

Opening the trace for every record cost a tenth of a millisecond or more per graph node on a busy machine. A few
files stay open (the runs this process wrote to last); one that was deleted or replaced since (a run directory
removed, a trace moved away) is opened again by name, so a record never goes to a file no one can read.
"""

from __future__ import annotations

import os
import threading
from collections import OrderedDict
from pathlib import Path

#: Open trace files at most (a batch runs many runs in one process; the rest are opened again when written to).
MAX_OPEN = 16

_open: OrderedDict[str, tuple[int, int, int]] = OrderedDict()  # path -> (fd, device, inode)
_lock = threading.Lock()


def append_line(path: Path, line: bytes) -> int:
    """Append ``line`` to the file at ``path`` (created if missing) and return the file's size before it: where
    the line went, unless another process appended meanwhile."""
    with _lock:
        fd = _descriptor(str(path))
        before = os.fstat(fd).st_size
        view = memoryview(line)
        while view:  # a regular file takes it all at once; a short write (a signal) goes on where it stopped
            view = view[os.write(fd, view) :]
        return before


def close_all() -> None:
    """Close every trace file held open (tests; a process that is about to fork)."""
    with _lock:
        while _open:
            os.close(_open.popitem()[1][0])


def _descriptor(path: str) -> int:
    held = _open.get(path)
    if held is not None:
        fd, device, inode = held
        try:
            now = os.stat(path)
        except FileNotFoundError:
            now = None
        if now is not None and (now.st_dev, now.st_ino) == (device, inode):
            _open.move_to_end(path)
            return fd
        os.close(fd)  # deleted or replaced: the name is what counts
        del _open[path]
    fd = os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT | getattr(os, "O_CLOEXEC", 0), 0o666)
    opened = os.fstat(fd)
    _open[path] = (fd, opened.st_dev, opened.st_ino)
    while len(_open) > MAX_OPEN:
        os.close(_open.popitem(last=False)[1][0])
    return fd
