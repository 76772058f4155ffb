"""Record goals on the members roster (markup unlike the Django admin's): run for real (Chromium, the graph, the
offline planner), checked in its database; each success carries what the page read again showed."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

import pytest

from agent import terminals
from agent.runner import run_goal
from agent.util.static_server import StaticServer
from tests.planning.records.roster import MEMBERS, Roster
from tests.support.factories import offline_context, trace_records

pytestmark = pytest.mark.asyncio(loop_scope="session")
FIELDS = "name, email, town, state, since, team, remarks"


@pytest.fixture
def roster(tmp_path) -> Iterator[tuple[Roster, str]]:
    app = Roster(tmp_path / "roster.sqlite")
    with StaticServer(tmp_path, routes=app.routes()) as server:
        yield app, server.base_url


@dataclass(frozen=True)
class Case:
    goal: str
    check: str  # SQL whose rows must be ``want`` afterwards
    want: list[tuple]
    untouched: str  # SQL for the rows nothing may change
    evidence: str  # what the success's evidence must quote


CASES = [
    Case(  # a field named in the goal, the record named right after its noun, its row read after the save
        "Change the town of member Ola Nordmann to Narvik",
        "SELECT town FROM member WHERE id = 1",
        [("Narvik",)],
        "SELECT * FROM member WHERE id != 1",
        "Narvik",
    ),
    Case(  # a new record from the join form: 'town Tromso' fills the field labelled Town
        'Add a member named "Kari Holm" with email kari@holm.example, town Alta, member since 2026-04-01',
        "SELECT name, email, town, since FROM member WHERE id = 6",
        [("Kari Holm", "kari@holm.example", "Alta", "2026-04-01")],
        "SELECT * FROM member WHERE id <= 5",
        "Alta",
    ),
    Case(  # 'the date': the one field holding a date, whatever its label ('Member since')
        "Change the date of member Per Hansen to 2026-05-17",
        "SELECT since FROM member WHERE id = 2",
        [("2026-05-17",)],
        "SELECT * FROM member WHERE id != 2",
        "2026-05-17",
    ),
    Case(  # the right value beside the wrong one; a dropdown chosen by its option text
        "Member Liv Berg belongs to Blue, not Green: fix its team.",
        "SELECT team FROM member WHERE id = 3",
        [("Blue",)],
        "SELECT * FROM member WHERE id != 3",
        "Blue",
    ),
    Case(  # a line added to a box that keeps its text, proven by the record's own form opened again
        'Add a note to member Ola Nordmann: "Prefers e-mail." Keep the existing remarks.',
        "SELECT remarks FROM member WHERE id = 1",
        [("Keys returned.\nPrefers e-mail.",)],
        "SELECT * FROM member WHERE id != 1",
        "Prefers e-mail.",
    ),
    Case(  # the record's remove control, then the page that asks to confirm
        'Remove the member "Siri Lund"',
        "SELECT COUNT(*) FROM member WHERE id = 5",
        [(0,)],
        "SELECT * FROM member WHERE id != 5",
        "Siri Lund was removed",
    ),
]


@pytest.mark.timeout(240)
@pytest.mark.parametrize("case", CASES, ids=lambda c: c.goal[:40])
async def test_roster_goal_is_done_and_proven(session, roster, tmp_path, case):
    app, base = roster
    before = app.query(case.untouched)
    ctx = offline_context(tmp_path / "runs", max_steps=20, max_seconds=90.0, confirm_policy="auto")
    await session.set_domain_policy([], [])
    result = await run_goal(case.goal, ctx, start_url=base + "/", session=session)
    assert result["terminal_type"] == terminals.GOAL_SATISFIED, result.get("stop_reason")
    got = [tuple(r) for r in app.query(case.check)]
    if "remarks" in case.check:  # the browser sends a textarea's line break as CRLF
        got = [tuple(str(v).replace("\r\n", "\n") for v in r) for r in got]
    assert got == case.want
    assert app.query(case.untouched) == before, "another record changed"
    quotes = " ".join(str(e.get("quote") or "") for e in result.get("evidence") or [])
    assert case.evidence.lower() in quotes.lower(), quotes
    if case.goal.startswith("Remove"):
        safety = [r for r in trace_records(result["run_dir"]) if r.get("node") == "safety"]
        assert any("risk high" in str(r.get("note")) or "agrees" in str(r.get("note")) for r in safety), [
            r.get("note") for r in safety
        ]


async def _ask(session, base, tmp_path, question):
    ctx = offline_context(tmp_path / "runs", max_steps=10, max_seconds=60.0)
    await session.set_domain_policy([], [])
    return await run_goal(question, ctx, start_url=base + "/", session=session)


@pytest.mark.timeout(240)
async def test_pending_members_are_counted_in_their_column(session, roster, tmp_path):
    result = await _ask(session, roster[1], tmp_path, "How many members are pending?")
    assert result["terminal_type"] == terminals.GOAL_SATISFIED, result.get("stop_reason")
    assert result["final_answer"].strip() == str(sum(1 for m in MEMBERS if m[3] == "pending")) == "3"


@pytest.mark.timeout(240)
async def test_a_members_town_is_read_from_its_row(session, roster, tmp_path):
    """The row's name is a plain cell with a link here (the admin's is a row header): the answer is the cell under
    'Town' in that row. The judge reads a row's other cells as other items, so the run may end unverified with
    the answer as its candidate; it never claims another member's town."""
    result = await _ask(session, roster[1], tmp_path, "Which town is the member Per Hansen in?")
    said = result.get("final_answer") or result.get("candidate_answer") or ""
    assert said.strip() == "Bergen", result.get("stop_reason")
    assert result["terminal_type"] in (terminals.GOAL_SATISFIED, terminals.GOAL_FAILED)
