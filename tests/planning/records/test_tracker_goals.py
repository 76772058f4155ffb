"""Record goals on the tracker, run for real (Chromium, the graph, the offline planner), checked in its database:
the requested change is there, nothing else changed, and every success carries the re-read value as evidence."""

from __future__ import annotations

from dataclasses import dataclass

import pytest

from agent import terminals

pytestmark = pytest.mark.asyncio(loop_scope="session")

UNCHANGED_OTHERS = "SELECT id, summary, priority, owner, status FROM ticket WHERE id != ?"


@dataclass(frozen=True)
class Case:
    goal: str
    check: str  # SQL that returns exactly ``want`` after the goal is done
    want: list[tuple]
    evidence: str  # a value the success evidence must quote
    path: str = "/"


CASES = [
    Case(
        'File a new defect titled "Crash when saving a draft" with priority critical',
        "SELECT priority FROM ticket WHERE summary = 'Crash when saving a draft'",
        [("critical",)],
        "critical",
    ),
    Case(
        'Create a ticket called "Dark mode for the editor" saying "Many users asked for it."',
        "SELECT description FROM ticket WHERE summary = 'Dark mode for the editor'",
        [("Many users asked for it.",)],
        "Many users asked for it",
    ),
    Case(
        'Add a comment to the ticket about the login timeout saying "Seen again on Monday"',
        "SELECT text FROM comment WHERE ticket = 3",
        [("Seen again on Monday",)],
        "Seen again on Monday",
    ),
    Case(
        "The bug where the laptop does not wake from sleep is worse than we thought. Raise its priority to critical",
        "SELECT priority FROM ticket WHERE id = 1",
        [("critical",)],
        "critical",
    ),
    Case(
        "The ticket about the CSV export dropping rows is done. Please close that ticket as fixed",
        "SELECT status, resolution FROM ticket WHERE id = 2",
        [("closed", "fixed")],
        "closed",
    ),
    Case(
        "Assign the ticket about printing receipts to alice",
        "SELECT owner FROM ticket WHERE id = 4",
        [("alice",)],
        "alice",
    ),
    Case(
        'Create a wiki page called TeamContacts that says "Ask Dana about the servers"',
        "SELECT text FROM page WHERE name = 'TeamContacts'",
        [("Ask Dana about the servers",)],
        "Ask Dana",
    ),
    Case(
        'Add a last step to the release checklist in the wiki: "Announce on the mailing list"',
        "SELECT text FROM page WHERE name = 'ReleaseChecklist'",
        [("Run the test suite\nTag the release\nUpload the packages\nAnnounce on the mailing list",)],
        "Announce on the mailing list",
    ),
    Case(
        'In the meeting notes, replace "on Tuesdays" with "on Wednesdays"',
        "SELECT text FROM page WHERE name = 'MeetingNotes'",
        [("Weekly meeting on Wednesdays at ten.",)],
        "Wednesdays",
    ),
]


@pytest.mark.parametrize("case", CASES, ids=[c.goal[:50] for c in CASES])
async def test_record_goal_is_done_and_proven(run_tracker, tracker, case: Case):
    app, _ = tracker
    before = app.query("SELECT id, summary, priority, owner, status FROM ticket")
    result, _ = await run_tracker(case.goal, case.path)
    assert result["terminal_type"] == terminals.GOAL_SATISFIED, (
        result["terminal_reason"],
        result.get("stop_reason"),
    )
    assert app.query(case.check) == case.want
    quotes = " ".join(str(e.get("quote") or "") for e in result.get("evidence") or [])
    assert case.evidence.lower() in quotes.lower(), result.get("evidence")
    changed = [
        row
        for row in app.query("SELECT id, summary, priority, owner, status FROM ticket")
        if row not in before
    ]
    assert len(changed) <= 1, changed  # one record created or changed, no other


@pytest.mark.parametrize(
    ("goal", "page"),
    [
        ('Use the search to look for "wake from sleep" and open the ticket it finds', "/ticket?id=1"),
        ("Take me to the ticket about accented letters in search", "/ticket?id=5"),
    ],
)
async def test_open_the_record_the_goal_describes(run_tracker, goal, page):
    result, _ = await run_tracker(goal)
    assert result["terminal_type"] == terminals.GOAL_SATISFIED, (
        result["terminal_reason"],
        result.get("stop_reason"),
    )
    assert result["url"].endswith(page)


async def test_a_refused_save_is_not_claimed(run_tracker, tracker):
    app, _ = tracker
    result, _ = await run_tracker('File a new ticket with priority blocker saying "no summary given"')
    assert result["terminal_type"] != terminals.GOAL_SATISFIED, result.get("final_answer")
    assert app.query("SELECT COUNT(*) FROM ticket") == [(5,)]


async def test_a_question_about_a_record_is_read_from_its_own_page(run_tracker):
    result, _ = await run_tracker("Who is assigned to the ticket about printing receipts?")
    assert (result["terminal_type"], result["terminal_reason"]) == ("goal_satisfied", "answer_found"), (
        result.get("stop_reason")
    )
    assert result["final_answer"] == "bob"
    assert result["url"].endswith("/ticket?id=4")


async def test_a_closed_ticket_is_reopened_by_its_workflow_choice(run_tracker, tracker):
    """'Reopen' is a choice of the ticket's workflow radio group; the proof is the record's own Status field."""
    app, _ = tracker
    app.query("UPDATE ticket SET status = 'closed', resolution = 'fixed' WHERE id = 5")
    result, _ = await run_tracker("Reopen ticket #5")
    assert result["terminal_type"] == terminals.GOAL_SATISFIED, result.get("stop_reason")
    assert app.query("SELECT status, resolution FROM ticket WHERE id = 5") == [("reopened", "")]
    quotes = " ".join(str(e.get("quote") or "") for e in result.get("evidence") or [])
    assert "Status: reopened" in quotes, result.get("evidence")
