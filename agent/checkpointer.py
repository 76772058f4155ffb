"""The runner's checkpointer: SQLite in WAL mode, written on the run's own loop, ordered after the run's trace
records, with its writes counted.

Used by :mod:`agent.runner` (``run_goal``, ``resume_run``); a graph embedded elsewhere brings its own.
"""

from __future__ import annotations

import asyncio
import contextlib
import sqlite3
import tempfile
import threading
from collections.abc import AsyncIterator, Awaitable, Callable, Iterator, Sequence
from pathlib import Path
from typing import Any

from langgraph.checkpoint.base import WRITES_IDX_MAP
from langgraph.checkpoint.sqlite import SqliteSaver

from agent.records import records_written


class RunSaver(SqliteSaver):
    """LangGraph's SQLite saver with its async methods run inline on the event loop, and a node's writes kept
    only where no checkpoint follows them.

    A checkpoint is a few small rows committed to a WAL file without an fsync: tens of microseconds. The
    aiosqlite saver sends each statement to a thread of its own and waits for the answer, which cost a
    millisecond or more per graph node on a busy machine, several times the write itself. Only the runner uses
    this class: its loop may block that long. (``langgraph dev`` refuses blocking calls in nodes; it brings its
    own checkpointer, as does an embedding app.)
    """

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._held: list[tuple[Any, list[tuple[str, Any]], str, str]] = []

    def get_tuple(self, config: Any) -> Any:
        self.write_held()
        return super().get_tuple(config)

    def list(self, config: Any, *, filter: Any = None, before: Any = None, limit: Any = None) -> Any:  # noqa: A002
        self.write_held()
        return super().list(config, filter=filter, before=before, limit=limit)

    async def aget_tuple(self, config: Any) -> Any:
        return self.get_tuple(config)

    async def alist(self, config: Any, *, filter: Any = None, before: Any = None, limit: Any = None):  # noqa: A002
        for item in self.list(config, filter=filter, before=before, limit=limit):
            yield item

    async def aput(self, config: Any, checkpoint: Any, metadata: Any, new_versions: Any) -> Any:
        return self.put(config, checkpoint, metadata, new_versions)

    async def aput_writes(self, config: Any, writes: Any, task_id: str, task_path: str = "") -> None:
        self.put_writes(config, writes, task_id, task_path)

    def put(self, config: Any, checkpoint: Any, metadata: Any, new_versions: Any) -> Any:
        """The checkpoint, in one commit. The node writes held for the checkpoint before it are in this one's
        state now: nothing reads them once it is saved (the runner never replays an older checkpoint)."""
        parent = config["configurable"].get("checkpoint_id")
        held = [h for h in self._held if h[0]["configurable"].get("checkpoint_id") == parent]
        self._held = [h for h in self._held if h[0]["configurable"].get("checkpoint_id") != parent]
        self.write_held()
        try:
            return super().put(config, checkpoint, metadata, new_versions)
        except BaseException:
            self._held = held  # not saved: the output stays, written when the run closes its database
            raise

    def put_writes(
        self, config: Any, writes: Sequence[tuple[str, Any]], task_id: str, task_path: str = ""
    ) -> None:
        """A node's writes, held until it is known whether a checkpoint follows them: one commit per graph step,
        and no write serialized twice (the checkpoint after a node holds its output already).

        They are written only where no checkpoint follows: a run stopped (Ctrl-C, a cancelled task, a failed
        checkpoint) between a node's end and its checkpoint keeps them, and a resume commits that output
        instead of running the node again; a read (``get_tuple``) sees them. A process killed there loses
        them, the same as dying just before the node ended (a resume runs it again, and ``execute`` never
        repeats an action its trace already holds). Writes that stand alone - an interrupt, an error, a resume
        value: no checkpoint follows them - are committed at once, with any writes before them.
        """
        if any(channel in WRITES_IDX_MAP for channel, _ in writes):
            self.write_held()
            super().put_writes(config, writes, task_id, task_path)
            return
        self._held.append((config, list(writes), task_id, task_path))

    def write_held(self) -> None:
        """Write the held node writes into the open transaction (committed with the next commit)."""
        held, self._held = self._held, []
        for config, writes, task_id, task_path in held:
            configurable = config["configurable"]
            rows = [
                (
                    str(configurable["thread_id"]),
                    str(configurable["checkpoint_ns"]),
                    str(configurable["checkpoint_id"]),
                    task_id,
                    task_path,
                    idx,
                    channel,
                    *self.serde.dumps_typed(value),
                )
                for idx, (channel, value) in enumerate(writes)
            ]
            with self.lock:
                self.setup()
                self.conn.executemany(
                    _INSERT_WRITES, rows
                )  # the transaction stays open until the next commit

    async def adelete_thread(self, thread_id: str) -> None:
        self.delete_thread(thread_id)


_INSERT_WRITES = (
    "INSERT OR IGNORE INTO writes (thread_id, checkpoint_ns, checkpoint_id, task_id, task_path, idx, channel, "
    "type, value) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)"
)


@contextlib.contextmanager
def _connected(saver_class: type[SqliteSaver], path: Path) -> Iterator[SqliteSaver]:
    _start_from_empty_database(path, saver_class)
    with saver_class.from_conn_string(str(path)) as saver:
        saver.conn.execute("PRAGMA synchronous=NORMAL")  # first: creating the tables fsync'ed several times
        saver.setup()
        try:
            yield saver
        finally:
            with contextlib.suppress(sqlite3.Error):
                if isinstance(saver, RunSaver):
                    saver.write_held()
                saver.conn.commit()  # writes still waiting for their checkpoint (a run stopped between the two)


_empty_databases: dict[Callable[..., None], bytes] = {}  # by the saver's table set-up
_empty_lock = threading.Lock()


def _empty_database(saver_class: type[SqliteSaver]) -> bytes:
    """An empty database set up by ``saver_class`` (WAL mode, tables), made once per process."""
    with _empty_lock:
        empty = _empty_databases.get(saver_class.setup)
        if empty is None:
            with tempfile.TemporaryDirectory(prefix="wayfinder-empty-db-") as tmp:
                model = Path(tmp) / "empty.sqlite"
                with saver_class.from_conn_string(str(model)) as saver:
                    # a scratch file read back whole once closed: no fsync while the tables are made
                    saver.conn.execute("PRAGMA synchronous=OFF")
                    saver.setup()
                empty = _empty_databases[saver_class.setup] = model.read_bytes()  # closed: the WAL is in it
        return empty


def _start_from_empty_database(path: Path, saver_class: type[SqliteSaver]) -> None:
    """A new run's database starts as a copy of an empty one already set up: one small file write instead of
    the journal switch and the table creation, which took 5-15 ms of a first step on a busy machine. An
    existing file (a resumed run) is left as it is."""
    empty = _empty_database(saver_class)
    try:
        with path.open("xb") as fh:
            fh.write(empty)
    except FileExistsError:
        return
    except OSError:
        path.unlink(missing_ok=True)  # half a file is no database: SQLite makes a new one instead
        raise


# Made while the process starts (the CLI reads its settings, the browser starts), not in the first run's first
# step, which waits for it only if it comes sooner.
def _make_empty_database_early() -> None:
    with contextlib.suppress(Exception):  # the first run makes it itself, and says why if it cannot
        _empty_database(RunSaver)


threading.Thread(target=_make_empty_database_early, name="wayfinder-empty-db", daemon=True).start()


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
