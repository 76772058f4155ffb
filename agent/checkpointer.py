"""The runner's checkpointer: SQLite in WAL mode, written on the run's own loop, ordered after the run's trace
records, with its writes counted.

Used by :mod:`agent.runner` (``run_goal``, ``resume_run``); a graph embedded elsewhere brings its own.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator, Awaitable, Callable, Iterator
from pathlib import Path
from typing import Any

from langgraph.checkpoint.sqlite import SqliteSaver

from agent.records import records_written


class RunSaver(SqliteSaver):
    """LangGraph's SQLite saver with its async methods run inline on the event loop.

    A checkpoint is a few small rows committed to a WAL file without an fsync: tens of microseconds. The
    aiosqlite saver sends each statement to a thread of its own and waits for the answer, which cost a
    millisecond or more per graph node on a busy machine, several times the write itself. Only the runner uses
    this class: its loop may block that long. (``langgraph dev`` refuses blocking calls in nodes; it brings its
    own checkpointer, as does an embedding app.)
    """

    async def aget_tuple(self, config: Any) -> Any:
        return self.get_tuple(config)

    async def alist(self, config: Any, *, filter: Any = None, before: Any = None, limit: Any = None):  # noqa: A002
        for item in self.list(config, filter=filter, before=before, limit=limit):
            yield item

    async def aput(self, config: Any, checkpoint: Any, metadata: Any, new_versions: Any) -> Any:
        return self.put(config, checkpoint, metadata, new_versions)

    async def aput_writes(self, config: Any, writes: Any, task_id: str, task_path: str = "") -> None:
        self.put_writes(config, writes, task_id, task_path)

    async def adelete_thread(self, thread_id: str) -> None:
        self.delete_thread(thread_id)


@contextlib.contextmanager
def _connected(saver_class: type[SqliteSaver], path: Path) -> Iterator[SqliteSaver]:
    with saver_class.from_conn_string(str(path)) as saver:
        saver.conn.execute("PRAGMA synchronous=NORMAL")  # first: creating the tables fsync'ed several times
        saver.setup()
        yield saver


@contextlib.asynccontextmanager
async def open_checkpointer(
    path: Path, saver_class: type[SqliteSaver] = RunSaver
) -> AsyncIterator[SqliteSaver]:
    """The run's SQLite checkpointer, in WAL mode with ``synchronous=NORMAL``: a commit is in the file (it
    survives the process being killed) without an fsync per graph node, which cost the step more than the
    nodes themselves. Each checkpoint waits until the trace records before it are written, so the trace never
    lags the checkpoints on disk."""
    with _connected(saver_class, path) as saver:
        for name in ("aput", "aput_writes"):
            setattr(saver, name, _after_records(getattr(saver, name)))
        yield saver


def _after_records(write: Callable[..., Awaitable[Any]]) -> Callable[..., Awaitable[Any]]:
    async def after_records(*args: Any, **kwargs: Any) -> Any:
        await records_written()
        return await write(*args, **kwargs)

    return after_records


class PendingWrites:
    """Counts one saver's checkpoint writes in progress, so a stopped run can let them finish.

    A run stopped inside a node has LangGraph save the node's error from a done-callback, in a task no one
    awaits; closing the database under that write can leave the file locked for a resume in this process.
    """

    def __init__(self, saver: Any) -> None:
        self.count = 0
        self.idle = asyncio.Event()
        self.idle.set()
        for name in ("aput", "aput_writes"):
            setattr(saver, name, self._counted(getattr(saver, name)))

    def _counted(self, write: Callable[..., Awaitable[Any]]) -> Callable[..., Awaitable[Any]]:
        async def counted(*args: Any, **kwargs: Any) -> Any:
            self.count += 1
            self.idle.clear()
            try:
                return await write(*args, **kwargs)
            finally:
                self.count -= 1
                if self.count == 0:
                    self.idle.set()

        return counted

    async def settle(self, timeout: float = 10.0) -> None:
        await asyncio.sleep(0)  # a write scheduled just now starts first
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(self.idle.wait(), timeout)
