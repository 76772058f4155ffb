"""Quillbox tracker: the goals users give an agent there, worded as they word them, each with its database check.

Ticket numbers of the seed: 1 PDF export crash, 2 sync after wake from sleep, 3 dark mode colours, 5 attachments
over 20 MB, 8 battery drain, 9 Markdown tables, 10 colon in passwords, 11 backup format, 12 tag list (closed),
13 reminders twice, 14 HTML export images, 15 new SDK, 16 trash, 17 calendar week start.
"""

from __future__ import annotations

import contextlib
import tempfile
from collections.abc import Iterator
from pathlib import Path

from tests.apps.dbdiff import Expect, Table, has_words, text_ends_with_added_line, text_replaced
from tests.apps.harness import AppGoal, Application
from tests.apps.tracker.app import serve_tracker
from tests.apps.tracker.schema import PRIORITIES, create_database

TABLES = (
    Table("ticket", ("id",), frozenset({"created", "changed", "revision"})),
    Table("comment", ("id",), frozenset({"created"})),
    Table("wiki", ("name",), frozenset({"revision", "edited", "author", "note"})),
    Table("milestone", ("name",)),
    Table("component", ("name",)),
    Table("account", ("username",)),
)

#: What a ticket holds when the new-ticket form is sent with only a summary.
DEFAULTS = {
    "ticket": {
        "type": "defect",
        "priority": "major",
        "description": "",
        "component": "",
        "milestone": "",
        "status": "new",
        "resolution": "",
        "owner": "",
        "keywords": "",
    }
}


def _ticket(n: int, **fields: object) -> Expect:
    return Expect(changed={("ticket", (n,)): fields})


def _new_ticket(**fields: object) -> Expect:
    return Expect(added={"ticket": (fields,)})


def _comment(n: int, body: str, **more: object) -> Expect:
    return Expect(added={"comment": ({"ticket": n, "body": body, **more},)})


def _new_wiki(name: str, body: str) -> Expect:
    return Expect(added={"wiki": ({"name": name, "body": body},)})


def _wiki(name: str, want: object) -> Expect:
    return Expect(changed={("wiki", (name,)): {"body": want}})


#: Everyone who owns or reported a ticket: an answer to "who" naming two of them picked no one.
PEOPLE = ("alice", "bob", "carol", "dave", "mira", "ines", "tomas")


def _one_of(name: str, wording: str, answer: str, choices: tuple[str, ...]) -> AppGoal:
    """A question whose answer is one of ``choices``; the others, in the answer, make it wrong."""
    return AppGoal(name, wording, answer=(answer,), wrong=tuple(c for c in choices if c != answer))


GOALS: list[AppGoal] = [
    # --- records: create ------------------------------------------------------------------------------------
    AppGoal(
        "file-defect",
        'File a new defect titled "Printing cuts off the last line of a note" with priority critical',
        _new_ticket(summary="Printing cuts off the last line of a note", priority="critical"),
    ),
    AppGoal(
        "new-enhancement",
        'Open a new ticket called "Pin notes to the top of the list". It is an enhancement for the editor '
        "component, milestone 2.1.",
        _new_ticket(
            summary="Pin notes to the top of the list",
            type="enhancement",
            component="editor",
            milestone="2.1",
        ),
    ),
    AppGoal(
        "new-task",
        'Create a task named "Translate the help pages into Portuguese"',
        _new_ticket(summary="Translate the help pages into Portuguese", type="task"),
        start="/report",
    ),
    # --- records: comment -----------------------------------------------------------------------------------
    AppGoal(
        "comment-about",
        'Add a comment to the ticket about exporting notes to PDF saying "Also happens with the 1.3.2 build."',
        _comment(1, "Also happens with the 1.3.2 build."),
    ),
    AppGoal(
        "comment-number",
        'Comment on #14: "Images survive the HTML export when the note has no tags."',
        _comment(14, "Images survive the HTML export when the note has no tags."),
    ),
    # --- records: change one field --------------------------------------------------------------------------
    AppGoal(
        "raise-priority",
        "The bug where sync stalls after wake from sleep is worse than we thought. Raise its priority to critical.",
        _ticket(2, priority="critical"),
    ),
    AppGoal(
        "lower-priority",
        "Lower the priority of the ticket about the calendar week start to trivial",
        _ticket(17, priority="trivial"),
    ),
    AppGoal(
        "close-fixed",
        "The dark mode colours in the settings dialog are fixed now. Please close that ticket as fixed.",
        _ticket(3, status="closed", resolution="fixed"),
    ),
    AppGoal(
        "close-wontfix", "Close ticket #16 as wontfix", _ticket(16, status="closed", resolution="wontfix")
    ),
    AppGoal("reopen", "Reopen ticket #12", _ticket(12, status="reopened", resolution="")),
    AppGoal(
        "reassign",
        "Assign the ticket about Markdown tables to carol",
        Expect(
            changed={("ticket", (9,)): {"owner": "carol"}},
            allowed={("ticket", (9,)): {"status": ("assigned",)}},
        ),
    ),
    AppGoal(
        "move-milestone",
        "Move the ticket about attachments larger than 20 MB to milestone 2.1",
        _ticket(5, milestone="2.1"),
    ),
    AppGoal("set-component", "Set the component of #15 to accounts", _ticket(15, component="accounts")),
    AppGoal(
        "add-keyword",
        "Add the keyword regression to the ticket about battery drain",
        _ticket(8, keywords=has_words("regression")),
    ),
    AppGoal(
        "rename",
        'Rename ticket #11 to "Document the backup file format"',
        _ticket(11, summary="Document the backup file format"),
    ),
    # --- the wiki ------------------------------------------------------------------------------------------
    AppGoal(
        "wiki-create",
        'Create a wiki page called ReleaseNotes20 that says "Version 2.0 brings a faster sync engine."',
        Expect(
            added={"wiki": ({"name": "ReleaseNotes20", "body": "Version 2.0 brings a faster sync engine."},)}
        ),
    ),
    AppGoal(
        "wiki-create-named",
        'In the wiki, make a new page named TeamContacts with the text "Ask in the chat before paging anyone."',
        _new_wiki("TeamContacts", "Ask in the chat before paging anyone."),
    ),
    AppGoal(
        "wiki-append-step",
        'Add a last step to the release checklist in the wiki: "Announce the release on the forum"',
        _wiki("ReleaseChecklist", text_ends_with_added_line("Announce the release on the forum")),
    ),
    AppGoal(
        "wiki-typo",
        'On the CodingStyle wiki page, "recieve" is misspelled: change it to "receive".',
        _wiki("CodingStyle", text_replaced("recieve", "receive")),
    ),
    AppGoal(
        "wiki-append-line",
        'Append the line "Week 51: alice" to the OnCallRota page, keeping what is there',
        _wiki("OnCallRota", text_ends_with_added_line("Week 51: alice")),
        start="/wiki/OnCallRota",
    ),
    AppGoal(
        "wiki-replace",
        'In the meeting notes, replace "sync rewrite is on track" with "sync rewrite is two weeks late"',
        _wiki("MeetingNotes", text_replaced("sync rewrite is on track", "sync rewrite is two weeks late")),
        start="/wiki",
    ),
    # --- questions ------------------------------------------------------------------------------------------
    _one_of("who-assigned", "Who is assigned to the ticket about battery drain?", "bob", PEOPLE),
    AppGoal("milestone-due", "When is the 2.0 release due?", answer=("March 15, 2027", "2027-03-15")),
    AppGoal("count-open", "How many open tickets does alice have?", answer=("4",)),
    _one_of("priority-of", "What is the priority of ticket #5?", "major", PRIORITIES),
    _one_of("who-reported", "Who reported the ticket about the colon in passwords?", "tomas", PEOPLE),
    AppGoal("due-date", "What is the due date of milestone 2.1?", answer=("June 30, 2027", "2027-06-30")),
    # --- navigation -----------------------------------------------------------------------------------------
    AppGoal(
        "take-me", "Take me to the ticket about reminder notifications arriving twice", url=r"^/ticket/13\b"
    ),
    AppGoal(
        "search-open",
        'Use the search to look for "wake from sleep" and open the ticket it finds',
        url=r"^/ticket/2\b",
    ),
    AppGoal("open-wiki", "Open the wiki page about the on-call rota", url=r"^/wiki/OnCallRota\b"),
    # --- several parts: log in first -------------------------------------------------------------------------
    AppGoal(
        "login-create",
        'Log in as carol with password carol-pass-1, then create a ticket titled "Widget shows a stale note count"',
        _new_ticket(summary="Widget shows a stale note count", reporter="carol"),
    ),
    AppGoal(
        "login-comment",
        'Log in as dave (password: dave-secret) and comment on #10 saying "Fixed in the login rewrite, please '
        'retest."',
        _comment(10, "Fixed in the login rewrite, please retest.", author="dave"),
    ),
]

#: The goals `make test` runs through the agent (one of each kind); the bench runs them all.
SMOKE_GOALS = ("comment-about", "who-assigned", "take-me")


@contextlib.contextmanager
def running_tracker() -> Iterator[Application]:
    """The tracker on loopback over a working copy of a freshly seeded database."""
    with tempfile.TemporaryDirectory(prefix="quillbox-") as tmp:
        seed = create_database(Path(tmp) / "seed.sqlite")
        live = Path(tmp) / "live.sqlite"
        with serve_tracker(live) as base_url:
            app = Application("quillbox", base_url, live, seed, TABLES, GOALS, DEFAULTS)
            app.reset()
            yield app
