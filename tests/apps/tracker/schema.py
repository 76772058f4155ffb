"""Quillbox tracker: the SQLite schema and the seeded project (fixed times, so ids and dates never move)."""

from __future__ import annotations

import sqlite3
from pathlib import Path

SCHEMA = """
CREATE TABLE account (username TEXT PRIMARY KEY, password TEXT NOT NULL, fullname TEXT NOT NULL);
CREATE TABLE session (sid TEXT PRIMARY KEY, username TEXT NOT NULL, created INTEGER NOT NULL);
CREATE TABLE milestone (name TEXT PRIMARY KEY, due TEXT NOT NULL, description TEXT NOT NULL DEFAULT '');
CREATE TABLE component (name TEXT PRIMARY KEY, owner TEXT NOT NULL DEFAULT '');
CREATE TABLE ticket (
    id INTEGER PRIMARY KEY AUTOINCREMENT, type TEXT NOT NULL, summary TEXT NOT NULL,
    description TEXT NOT NULL DEFAULT '', priority TEXT NOT NULL, component TEXT NOT NULL DEFAULT '',
    milestone TEXT NOT NULL DEFAULT '', status TEXT NOT NULL, resolution TEXT NOT NULL DEFAULT '',
    owner TEXT NOT NULL DEFAULT '', reporter TEXT NOT NULL, keywords TEXT NOT NULL DEFAULT '',
    created INTEGER NOT NULL, changed INTEGER NOT NULL, revision INTEGER NOT NULL DEFAULT 1);
CREATE TABLE comment (
    id INTEGER PRIMARY KEY AUTOINCREMENT, ticket INTEGER NOT NULL REFERENCES ticket(id),
    author TEXT NOT NULL, body TEXT NOT NULL, created INTEGER NOT NULL);
CREATE TABLE ticket_change (
    id INTEGER PRIMARY KEY AUTOINCREMENT, ticket INTEGER NOT NULL, author TEXT NOT NULL, field TEXT NOT NULL,
    oldvalue TEXT, newvalue TEXT, created INTEGER NOT NULL);
CREATE TABLE wiki (name TEXT PRIMARY KEY, body TEXT NOT NULL, revision INTEGER NOT NULL, author TEXT NOT NULL,
    edited INTEGER NOT NULL, note TEXT NOT NULL DEFAULT '');
CREATE TABLE wiki_history (id INTEGER PRIMARY KEY AUTOINCREMENT, name TEXT NOT NULL, revision INTEGER NOT NULL,
    body TEXT NOT NULL, author TEXT NOT NULL, edited INTEGER NOT NULL, note TEXT NOT NULL DEFAULT '');
"""

TYPES = ("defect", "enhancement", "task")
PRIORITIES = ("blocker", "critical", "major", "minor", "trivial")
RESOLUTIONS = ("fixed", "invalid", "wontfix", "duplicate", "worksforme")
OPEN_STATUSES = ("new", "assigned", "accepted", "reopened")

ACCOUNTS = [
    ("alice", "alice-pass-7", "Alice Moreau"),
    ("bob", "bob-pass-3", "Bob Okafor"),
    ("carol", "carol-pass-1", "Carol Nguyen"),
    ("dave", "dave-secret", "Dave Lindqvist"),
    ("admin", "quill-admin", "Site Admin"),
]
MILESTONES = [
    ("1.4", "2026-12-04", "Maintenance release: crash fixes only."),
    ("2.0", "2027-03-15", "Sync engine rewrite and the new editor."),
    ("2.1", "2027-06-30", "Battery, notifications and housekeeping."),
]
COMPONENTS = [
    ("editor", "alice"),
    ("sync", "bob"),
    ("export", "alice"),
    ("notifications", "bob"),
    ("accounts", "dave"),
    ("docs", "carol"),
    ("ui", "carol"),
]

# id: type, summary, priority, component, milestone, status, resolution, owner, reporter, keywords, description
TICKETS = [
    (
        "defect",
        "Crash when exporting notes to PDF",
        "critical",
        "export",
        "1.4",
        "new",
        "",
        "alice",
        "mira",
        "pdf",
        "Exporting any note with an embedded image to PDF closes the app without a message.",
    ),
    (
        "defect",
        "Sync stalls after wake from sleep",
        "major",
        "sync",
        "2.0",
        "assigned",
        "",
        "bob",
        "tomas",
        "",
        "After the laptop wakes from sleep the sync spinner keeps turning and nothing uploads until restart.",
    ),
    (
        "defect",
        "Dark mode colours wrong in the settings dialog",
        "minor",
        "ui",
        "1.4",
        "assigned",
        "",
        "carol",
        "alice",
        "theme",
        "Labels in the settings dialog are dark grey on black when dark mode is on.",
    ),
    (
        "enhancement",
        "Keyboard shortcut for a new note",
        "minor",
        "editor",
        "2.0",
        "new",
        "",
        "alice",
        "bob",
        "",
        "Ctrl+N should open a new note in the current notebook.",
    ),
    (
        "defect",
        "Attachments larger than 20 MB are silently dropped",
        "major",
        "sync",
        "2.0",
        "new",
        "",
        "dave",
        "carol",
        "",
        "Big attachments never reach the other devices and no error is shown.",
    ),
    (
        "defect",
        "Typo on the onboarding screen",
        "trivial",
        "ui",
        "1.4",
        "closed",
        "fixed",
        "carol",
        "dave",
        "",
        "The welcome screen says 'Wellcome'.",
    ),
    (
        "defect",
        "Search ignores accented characters",
        "major",
        "editor",
        "2.0",
        "accepted",
        "",
        "alice",
        "ines",
        "search",
        "Searching for 'cafe' does not find notes containing 'café'.",
    ),
    (
        "defect",
        "Battery drain while idle in the background",
        "critical",
        "sync",
        "2.1",
        "assigned",
        "",
        "bob",
        "mira",
        "power",
        "The app polls the server every second when it is in the background.",
    ),
    (
        "enhancement",
        "Support tables in Markdown notes",
        "major",
        "editor",
        "2.1",
        "new",
        "",
        "",
        "ines",
        "",
        "Pipe tables should render as tables in the preview.",
    ),
    (
        "defect",
        "Login fails when the password contains a colon",
        "major",
        "accounts",
        "1.4",
        "new",
        "",
        "dave",
        "tomas",
        "",
        "Passwords such as 'a:b' are rejected with 'invalid credentials'.",
    ),
    (
        "task",
        "Document the backup format",
        "minor",
        "docs",
        "2.0",
        "new",
        "",
        "carol",
        "alice",
        "",
        "Describe the layout of the .qbx archive for people writing importers.",
    ),
    (
        "defect",
        "Tag list does not refresh after a rename",
        "minor",
        "ui",
        "2.0",
        "closed",
        "fixed",
        "alice",
        "bob",
        "",
        "Renaming a tag leaves the old name in the sidebar until restart.",
    ),
    (
        "defect",
        "Reminder notifications arrive twice",
        "major",
        "notifications",
        "2.0",
        "assigned",
        "",
        "bob",
        "carol",
        "",
        "Every reminder fires two notifications a few seconds apart.",
    ),
    (
        "defect",
        "Export to HTML loses images",
        "major",
        "export",
        "2.0",
        "new",
        "",
        "alice",
        "mira",
        "",
        "Images are linked to a temporary folder that is deleted after the export.",
    ),
    (
        "task",
        "Move the build to the new SDK",
        "major",
        "",
        "2.1",
        "new",
        "",
        "dave",
        "dave",
        "build",
        "The old SDK stops being supported in spring.",
    ),
    (
        "defect",
        "Trash is not emptied after 30 days",
        "minor",
        "editor",
        "2.1",
        "new",
        "",
        "carol",
        "ines",
        "",
        "Notes deleted months ago are still in the trash.",
    ),
    (
        "defect",
        "Calendar view starts the week on the wrong day",
        "minor",
        "ui",
        "1.4",
        "new",
        "",
        "bob",
        "tomas",
        "",
        "The week starts on Sunday even when the system setting says Monday.",
    ),
    (
        "enhancement",
        "Offer a portable build",
        "trivial",
        "",
        "",
        "new",
        "",
        "",
        "mira",
        "",
        "A build that runs from a USB stick without installing.",
    ),
]

COMMENTS = [
    (1, "bob", "Confirmed on 1.3.1 with a PNG image.", 1763000000),
    (2, "alice", "Only happens on the Wi-Fi adapter that powers down during sleep.", 1763100000),
    (13, "carol", "Looks like both the scheduler and the OS queue fire.", 1763200000),
]

WIKI = [
    (
        "WikiStart",
        "== Welcome to the Quillbox project ==\nThis wiki collects how we build and release Quillbox.\n"
        "* ReleaseChecklist\n* CodingStyle\n* OnCallRota\n* MeetingNotes",
    ),
    (
        "ReleaseChecklist",
        "== Release checklist ==\n* Freeze the branch\n* Run the full test suite\n"
        "* Update the changelog\n* Tag the release\n* Upload the installers",
    ),
    (
        "CodingStyle",
        "== Coding style ==\nFunctions that recieve a callback must document when it is called.\n"
        "Use four spaces for indentation.\nKeep lines under 100 characters.",
    ),
    (
        "OnCallRota",
        "== On-call rota ==\n|| Week || Person ||\n|| 48 || bob ||\n|| 49 || carol ||\n|| 50 || dave ||",
    ),
    (
        "MeetingNotes",
        "== Meeting notes ==\n2026-11-10: agreed to ship 1.4 before the 2.0 beta.\n"
        "2026-11-17: sync rewrite is on track.",
    ),
]

SEED_TIME = 1762000000


def create_database(path: Path) -> Path:
    """Write the seeded project into a new SQLite file at ``path``."""
    path.parent.mkdir(parents=True, exist_ok=True)
    if path.exists():
        path.unlink()
    con = sqlite3.connect(path)
    try:
        con.executescript(SCHEMA)
        con.executemany("INSERT INTO account VALUES (?, ?, ?)", ACCOUNTS)
        con.executemany("INSERT INTO milestone VALUES (?, ?, ?)", MILESTONES)
        con.executemany("INSERT INTO component VALUES (?, ?)", COMPONENTS)
        for n, row in enumerate(TICKETS, start=1):
            kind, summary, prio, comp, ms, status, res, owner, reporter, keywords, desc = row
            created = SEED_TIME + n * 3600
            con.execute(
                "INSERT INTO ticket (type, summary, description, priority, component, milestone, status,"
                " resolution, owner, reporter, keywords, created, changed) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?)",
                (
                    kind,
                    summary,
                    desc,
                    prio,
                    comp,
                    ms,
                    status,
                    res,
                    owner,
                    reporter,
                    keywords,
                    created,
                    created,
                ),
            )
        con.executemany("INSERT INTO comment (ticket, author, body, created) VALUES (?, ?, ?, ?)", COMMENTS)
        for name, body in WIKI:
            con.execute("INSERT INTO wiki VALUES (?, ?, 1, 'admin', ?, '')", (name, body, SEED_TIME))
            con.execute(
                "INSERT INTO wiki_history (name, revision, body, author, edited) VALUES (?, 1, ?, 'admin', ?)",
                (name, body, SEED_TIME),
            )
        con.commit()
    finally:
        con.close()
    return path
