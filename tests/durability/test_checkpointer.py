"""The runner's checkpointer: a node's writes are held and dropped once the checkpoint after them holds their
output (one commit per graph step), kept where a run stopped before that checkpoint; writes that no checkpoint
follows (an interrupt, an error) are committed at once, and whatever is still waiting when the run closes its
database; a new run's database starts from an empty one that is already set up."""

from __future__ import annotations

import contextlib
import sqlite3
from pathlib import Path

import pytest
from langgraph.checkpoint.base import empty_checkpoint
from langgraph.checkpoint.serde.types import INTERRUPT

from agent.checkpointer import open_checkpointer


def _config(checkpoint_id: str = "") -> dict:
    return {"configurable": {"thread_id": "t", "checkpoint_ns": "", "checkpoint_id": checkpoint_id}}


def _writes_on_disk(path: Path) -> list[str]:
    """The write channels another process sees (only what is committed)."""
    with contextlib.closing(sqlite3.connect(path)) as db:
        return [row[0] for row in db.execute("SELECT channel FROM writes ORDER BY rowid")]


async def test_a_nodes_writes_are_read_by_its_run_and_dropped_once_its_checkpoint_holds_them(tmp_path):
    path = tmp_path / "checkpoints.sqlite"
    async with open_checkpointer(path) as saver:
        first = saver.put(_config(), empty_checkpoint(), {}, {})
        await saver.aput_writes(first, [("seq", 1), ("decision", {"node": "observe"})], "task-1")
        assert _writes_on_disk(path) == []  # not a commit of their own
        assert [w[1] for w in saver.get_tuple(first).pending_writes] == [
            "seq",
            "decision",
        ]  # this run sees them
        second = await saver.aput(first, empty_checkpoint(), {}, {})
        assert _writes_on_disk(path) == ["seq", "decision"]  # read before it: committed with the checkpoint
        await saver.aput_writes(second, [("seq", 2)], "task-2")
        await saver.aput(second, empty_checkpoint(), {}, {})  # the checkpoint after them holds them
        assert _writes_on_disk(path) == ["seq", "decision"]
        assert saver.get_tuple(second).pending_writes == []


async def test_an_interrupt_is_on_disk_at_once_with_the_writes_before_it(tmp_path):
    path = tmp_path / "checkpoints.sqlite"
    async with open_checkpointer(path) as saver:
        first = saver.put(_config(), empty_checkpoint(), {}, {})
        await saver.aput_writes(first, [("seq", 1)], "task-1")
        await saver.aput_writes(first, [(INTERRUPT, {"type": "confirm"})], "task-2")
        assert _writes_on_disk(path) == ["seq", INTERRUPT]  # no checkpoint follows a question: it cannot wait


async def test_writes_still_waiting_when_the_run_closes_its_database_are_kept(tmp_path):
    path = tmp_path / "checkpoints.sqlite"
    async with open_checkpointer(path) as saver:
        first = saver.put(_config(), empty_checkpoint(), {}, {})
        await saver.aput_writes(first, [("seq", 1)], "task-1")
    assert _writes_on_disk(path) == ["seq"]


async def test_a_new_database_is_set_up_and_an_existing_one_is_left_as_it_is(tmp_path):
    path = tmp_path / "new.sqlite"
    async with open_checkpointer(path) as saver:
        saver.put(_config(), empty_checkpoint(), {}, {})
    with contextlib.closing(sqlite3.connect(path)) as db:
        assert db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
        assert db.execute("SELECT count(*) FROM checkpoints").fetchone()[0] == 1
    async with open_checkpointer(path) as saver:  # reopened (a resume): its checkpoint is still there
        assert saver.get_tuple({"configurable": {"thread_id": "t", "checkpoint_ns": ""}}) is not None
    other = tmp_path / "other.sqlite"
    async with open_checkpointer(other):
        pass
    assert other.read_bytes()[:16] == b"SQLite format 3\x00"


async def test_a_nodes_writes_are_kept_when_the_checkpoint_after_them_cannot_be_saved(tmp_path):
    path = tmp_path / "checkpoints.sqlite"
    async with open_checkpointer(path) as saver:
        first = saver.put(_config(), empty_checkpoint(), {}, {})
        await saver.aput_writes(first, [("seq", 2)], "task-1")
        saver.conn.execute("ALTER TABLE checkpoints RENAME TO gone")  # the next checkpoint cannot be saved
        with pytest.raises(sqlite3.OperationalError):
            await saver.aput(first, empty_checkpoint(), {}, {})
    assert _writes_on_disk(path) == ["seq"]  # the node's output is there for the resume
