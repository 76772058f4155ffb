"""Checks of an application's own SQLite database: exactly the requested change, and nothing else.

A goal's :class:`Expect` names the rows it may add and the fields it may change. :func:`check_change` compares
the database after a run with the seeded copy it started from, table by table and row by row (keyed by the
primary key), and lists every difference the goal did not ask for (an extra record, another field changed,
text lost) and every requested change that is missing. An empty list means the goal's change is exactly there.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

#: A wanted value: the exact value, or a predicate on the new value (given the old one too, None when added).
Want = Any
Snapshot = dict[str, dict[tuple, dict[str, Any]]]


@dataclass(frozen=True)
class Table:
    """One table the checks read: its key columns, and columns that change on their own (timestamps)."""

    name: str
    key: tuple[str, ...]
    volatile: frozenset[str] = frozenset()


@dataclass(frozen=True)
class Expect:
    """The change a goal asks for.

    added: table -> the rows that must appear (each a dict of column -> wanted value; columns it does not name
    must hold the table's defaults from ``defaults``, when given). changed: (table, key) -> column -> wanted
    value; every other column of every existing row must stay as seeded. ``allowed`` lists side effects the
    application itself makes with the change (column -> acceptable new values), which are neither required nor
    refused. With no added and no changed rows the database must be exactly as seeded.
    """

    added: Mapping[str, tuple[Mapping[str, Want], ...]] = field(default_factory=dict)
    changed: Mapping[tuple[str, tuple], Mapping[str, Want]] = field(default_factory=dict)
    allowed: Mapping[tuple[str, tuple], Mapping[str, tuple]] = field(default_factory=dict)
    removed: tuple[tuple[str, tuple], ...] = ()

    @property
    def is_change(self) -> bool:
        return bool(self.added or self.changed or self.removed)


def snapshot(db_path: Path, tables: tuple[Table, ...]) -> Snapshot:
    """Every row of ``tables`` keyed by primary key, without the volatile columns."""
    con = sqlite3.connect(f"file:{db_path}?mode=ro", uri=True)
    con.row_factory = sqlite3.Row
    try:
        out: Snapshot = {}
        for table in tables:
            rows = {}
            for row in con.execute(f"SELECT * FROM {table.name}"):  # noqa: S608 - names are ours
                data = {k: v for k, v in dict(row).items() if k not in table.volatile}
                rows[tuple(row[k] for k in table.key)] = data
            out[table.name] = rows
        return out
    finally:
        con.close()


def _matches(want: Want, new: Any, old: Any = None) -> bool:
    if callable(want):
        try:
            return bool(want(new, old))
        except Exception:  # noqa: BLE001 - a value the predicate cannot read is not the wanted one
            return False
    if isinstance(want, str) and isinstance(new, str):
        return _norm(want) == _norm(new)
    return want == new


def _norm(text: str) -> str:
    """Line endings and trailing blanks are the browser's business, not the user's."""
    return "\n".join(line.rstrip() for line in text.replace("\r\n", "\n").strip().split("\n"))


def text_ends_with_added_line(line: str) -> Callable[[Any, Any], bool]:
    """The new text keeps all of the old text, in order, and adds ``line`` after it (nothing else)."""

    def check(new: Any, old: Any) -> bool:
        old_n, new_n = _norm(old or ""), _norm(new or "")
        if not new_n.startswith(old_n):
            return False
        rest = new_n[len(old_n) :].strip("\n").strip()
        return rest.lstrip("*-# ").strip() == line.strip()

    return check


def text_replaced(before: str, after: str) -> Callable[[Any, Any], bool]:
    """The new text is the old one with every ``before`` replaced by ``after`` (nothing else)."""

    return lambda new, old: _norm(new or "") == _norm((old or "").replace(before, after))


def has_words(*words: str, keep_old: bool = True) -> Callable[[Any, Any], bool]:
    """The new value holds each of ``words`` (as whole words) and, with ``keep_old``, every old word too."""

    def check(new: Any, old: Any) -> bool:
        tokens = {w.strip(",;").lower() for w in str(new or "").split()}
        kept = {w.strip(",;").lower() for w in str(old or "").split()} if keep_old else set()
        return all(w.lower() in tokens for w in words) and kept <= tokens

    return check


def check_change(
    before: Snapshot, after: Snapshot, expect: Expect, defaults: Mapping[str, Mapping[str, Any]] | None = None
) -> list[str]:
    """Every way ``after`` differs from ``before`` other than ``expect``; and every part of ``expect`` missing."""
    problems: list[str] = []
    defaults = defaults or {}
    for table, rows_after in after.items():
        rows_before = before.get(table, {})
        new_keys = [k for k in rows_after if k not in rows_before]
        wanted = list(expect.added.get(table, ()))
        for want in wanted:
            full = {**defaults.get(table, {}), **want}
            hit = next(
                (k for k in new_keys if all(_matches(v, rows_after[k].get(c)) for c, v in full.items())), None
            )
            if hit is None:
                problems.append(
                    f"{table}: no new row with {dict(want)} (new rows: {_show(rows_after, new_keys)})"
                )
            else:
                new_keys.remove(hit)
        for key in new_keys:
            problems.append(f"{table}: unrequested new row {key}: {rows_after[key]}")
        for key, old in rows_before.items():
            if key not in rows_after:
                if (table, key) not in expect.removed:
                    problems.append(f"{table}: row {key} was deleted")
                continue
            new = rows_after[key]
            want = expect.changed.get((table, key), {})
            allowed = expect.allowed.get((table, key), {})
            for column, old_value in old.items():
                new_value = new.get(column)
                if column in want:
                    if not _matches(want[column], new_value, old_value):
                        problems.append(
                            f"{table} {key}: {column} is {new_value!r}, wanted {_show_want(want[column])}"
                        )
                elif new_value != old_value and new_value not in allowed.get(column, ()):
                    problems.append(f"{table} {key}: {column} changed from {old_value!r} to {new_value!r}")
        for gone_table, key in expect.removed:
            if gone_table == table and key in rows_after:
                problems.append(f"{table}: row {key} was not deleted")
    return problems


def _show(rows: dict[tuple, dict[str, Any]], keys: list[tuple]) -> str:
    return "; ".join(str(rows[k]) for k in keys) or "none"


def _show_want(want: Want) -> str:
    return "a value that passes its check" if callable(want) else repr(want)
