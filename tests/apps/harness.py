"""What the application goals share: a goal with its check, a running application over a seeded database, and
the judgement of a run from the application's own database (never from the agent's words).

A goal is *done* when the database holds exactly the requested change (nothing more, nothing lost), the final
answer holds the true value (questions) and the browser ended where the goal asked (navigation).
"""

from __future__ import annotations

import re
import shutil
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from benchmarks.fixture_goals import _answer_holds
from tests.apps.dbdiff import Expect, Snapshot, Table, check_change, snapshot

#: A scripted Playwright solution of a goal: (page, base_url) -> the answer it found (questions) or None.
Solution = Callable[[Any, str], Awaitable[str | None]]


def answer_holds(answer: str | None, expected: str) -> bool:
    """``expected`` stands in the answer as a whole value; a count (digits only) must also be the only number
    there, apart from a "(12 total)" aside: "Nov. 4, 2026" does not answer "how many" with 4."""
    if not _answer_holds(answer, expected):
        return False
    if not expected.isdigit():
        return True
    numbers = re.findall(r"\d+(?:[.,:]\d+)*", re.sub(r"\([^)]*\btotal\)", "", answer or ""))
    return set(numbers) == {expected}


@dataclass(frozen=True)
class AppGoal:
    """One goal as a user words it, where it starts, and how its outcome is checked.

    expect: the database change it asks for (none for questions and navigation: then nothing may change).
    answer: the true answer (any one of these, as a whole value, in the final answer).
    wrong: values of other records: an answer holding one of them picked the wrong record (or all of them).
    url: a regular expression the final page's path (and query) must match.
    """

    name: str
    goal: str
    expect: Expect = field(default_factory=Expect)
    answer: tuple[str, ...] = ()
    wrong: tuple[str, ...] = ()
    url: str = ""
    start: str = "/"

    @property
    def kind(self) -> str:
        if self.expect.is_change:
            return "action"
        return "answer" if self.answer else "navigation"


@dataclass
class Application:
    """A running application: where it answers, its live database file and the seeded copy each goal starts
    from, the tables its checks read, and the column defaults of a record created without them."""

    name: str
    base_url: str
    db_path: Path
    seed_path: Path
    tables: tuple[Table, ...]
    goals: list[AppGoal]
    defaults: Mapping[str, Mapping[str, Any]] = field(default_factory=dict)

    def reset(self) -> Snapshot:
        """A fresh copy of the seeded database for the next goal; returns its snapshot (the "before")."""
        for suffix in ("-journal", "-wal", "-shm"):
            Path(f"{self.db_path}{suffix}").unlink(missing_ok=True)
        shutil.copyfile(self.seed_path, self.db_path)
        return snapshot(self.db_path, self.tables)

    def judge(self, goal: AppGoal, before: Snapshot, final_answer: str | None, final_url: str) -> list[str]:
        """Everything that keeps ``goal`` from being done; an empty list means done."""
        problems = check_change(before, snapshot(self.db_path, self.tables), goal.expect, self.defaults)
        if goal.answer and not any(answer_holds(final_answer, a) for a in goal.answer):
            problems.append(f"the answer {final_answer!r} does not hold {' or '.join(goal.answer)!r}")
        elif wrong := [w for w in goal.wrong if _answer_holds(final_answer, w)]:
            problems.append(f"the answer {final_answer!r} also holds {', '.join(wrong)!r}")
        if goal.url:
            where = re.sub(r"^[a-z]+://[^/]+", "", final_url or "")
            if not re.search(goal.url, where):
                problems.append(f"the browser ended on {where!r}, not on {goal.url!r}")
        return problems

    def goal(self, name: str) -> AppGoal:
        return next(g for g in self.goals if g.name == name)
