"""A small tracker with a wiki for the record-planner tests: SQLite storage, a form token on every form, a
listing, a search page, ticket pages with a property table, comments, a collapsed "Modify Ticket" section with a
preview, a new-ticket form that validates, wiki pages with edit/preview/save. Goals are checked in its database.
"""

from __future__ import annotations

import html
import sqlite3
from pathlib import Path
from urllib.parse import parse_qs, quote, urlsplit

Response = tuple[int, dict[str, str], bytes]
TOKEN = "f0rm-t0ken-7731"
PRIORITIES = ("trivial", "minor", "major", "critical", "blocker")
TICKETS = [
    ("Laptop does not wake from sleep after closing the lid", "Seen on the 14 inch model.", "major", "bob"),
    ("Export to CSV drops the last row", "Any report with more than 10 rows.", "minor", "carol"),
    ("Login times out after five minutes", "Users are sent back to the start page.", "major", "alice"),
    ("Printing a receipt cuts off the footer", "Thermal printers only.", "trivial", "bob"),
    ("Search ignores accented letters", "Searching cafe does not find café.", "minor", "dave"),
]
PAGES = [
    ("ReleaseChecklist", "Run the test suite\nTag the release\nUpload the packages"),
    ("MeetingNotes", "Weekly meeting on Tuesdays at ten."),
]


def seed(db: Path) -> None:
    with sqlite3.connect(db) as con:
        con.executescript(
            "CREATE TABLE ticket (id INTEGER PRIMARY KEY, summary TEXT, description TEXT, priority TEXT,"
            " owner TEXT, status TEXT DEFAULT 'new', resolution TEXT DEFAULT '');"
            "CREATE TABLE comment (id INTEGER PRIMARY KEY, ticket INTEGER, text TEXT);"
            "CREATE TABLE page (name TEXT PRIMARY KEY, text TEXT);"
        )
        con.executemany(
            "INSERT INTO ticket (summary, description, priority, owner) VALUES (?,?,?,?)", TICKETS
        )
        con.executemany("INSERT INTO page VALUES (?,?)", PAGES)


def _e(text: object) -> str:
    return html.escape(str(text))


class Tracker:
    """The application: ``routes()`` for the loopback server, ``db`` for the checks."""

    def __init__(self, db: Path):
        self.db = db
        seed(db)

    def query(self, sql: str, *args: object) -> list[tuple]:
        with sqlite3.connect(self.db) as con:
            return list(con.execute(sql, args))

    def routes(self) -> dict:
        return {
            "/": self.home, "/tickets": self.listing, "/ticket": self.ticket, "/newticket": self.new_ticket,
            "/search": self.search, "/wiki": self.wiki, "/wiki/edit": self.wiki_edit, "/wiki/new": self.wiki_new,
            "/wiki/index": self.wiki_index,
        }  # fmt: skip

    # -- plumbing ---------------------------------------------------------------------------------------------
    @staticmethod
    def _page(title: str, body: str, status: int = 200) -> Response:
        nav = (
            '<nav><a href="/">Home</a> <a href="/tickets">View Tickets</a> <a href="/newticket">New Ticket</a> '
            '<a href="/wiki/index">Wiki</a></nav><form action="/search" method="get" role="search">'
            '<input type="search" name="q" aria-label="Search"><button>Search</button></form>'
        )
        page = f"<!doctype html><html><head><title>{_e(title)} - Bugtrap</title></head><body>{nav}<main>{body}</main></body></html>"
        return status, {"Content-Type": "text/html; charset=utf-8"}, page.encode()

    @staticmethod
    def _redirect(to: str) -> Response:
        return 303, {"Location": to}, b""

    @staticmethod
    def _args(handler) -> dict[str, str]:
        args = {k: v[-1] for k, v in parse_qs(urlsplit(handler.path).query).items()}
        if handler.command == "POST":
            length = int(handler.headers.get("Content-Length") or 0)
            body = handler.rfile.read(length).decode()
            args.update({k: v[-1] for k, v in parse_qs(body, keep_blank_values=True).items()})
        return args

    @staticmethod
    def _token() -> str:
        return f'<input type="hidden" name="__token" value="{TOKEN}">'

    # -- tickets ----------------------------------------------------------------------------------------------
    def home(self, handler) -> Response:
        return self._page("Home", "<h1>Bugtrap</h1><p>Welcome to the project tracker.</p>")

    def listing(self, handler) -> Response:
        rows = "".join(
            f'<tr><td><a href="/ticket?id={i}">#{i}</a></td><td><a href="/ticket?id={i}">{_e(s)}</a></td>'
            f"<td>{_e(st)}</td><td>{_e(p)}</td><td>{_e(o)}</td></tr>"
            for i, s, st, p, o in self.query("SELECT id, summary, status, priority, owner FROM ticket")
        )
        head = "<tr><th>Ticket</th><th>Summary</th><th>Status</th><th>Priority</th><th>Owner</th></tr>"
        return self._page("Tickets", f"<h1>All tickets</h1><table>{head}{rows}</table>")

    def ticket(self, handler) -> Response:
        args = self._args(handler)
        found = self.query("SELECT * FROM ticket WHERE id = ?", args.get("id", "0"))
        if not found:
            return self._page("Not found", "<h1>No such ticket</h1>", 404)
        tid, summary, description, priority, owner, status, resolution = found[0]
        preview = ""
        if handler.command == "POST":
            if args.get("__token") != TOKEN:
                return self._page("Error", "<h1>Missing or invalid form token</h1>", 400)
            if args.get("comment", "").strip() and "preview" not in args:
                self.query("INSERT INTO comment (ticket, text) VALUES (?, ?)", tid, args["comment"].strip())
            if "priority" in args:
                new = (args["priority"], args.get("owner", owner))
                if "preview" in args:
                    preview = f'<div class="preview"><h2>Preview</h2><p>Priority: {_e(new[0])}, owner: {_e(new[1])}</p></div>'
                    priority, owner = new
                else:
                    action = args.get("action", "leave")
                    if action == "resolve":
                        status, resolution = "closed", args.get("resolution", "fixed")
                    elif action == "reopen":
                        status, resolution = "reopened", ""
                    self.query(
                        "UPDATE ticket SET priority=?, owner=?, status=?, resolution=? WHERE id=?",
                        *new, status, resolution, tid,
                    )  # fmt: skip
            if not preview:
                return self._redirect(f"/ticket?id={tid}")
        comments = "".join(
            f"<li>{_e(t)}</li>" for (t,) in self.query("SELECT text FROM comment WHERE ticket=?", tid)
        )
        props = (
            f"<table class='properties'><tr><th>Status:</th><td>{_e(status)}</td><th>Resolution:</th>"
            f"<td>{_e(resolution)}</td></tr><tr><th>Priority:</th><td>{_e(priority)}</td><th>Owned by:</th>"
            f"<td>{_e(owner)}</td></tr></table>"
        )
        options = "".join(f"<option{' selected' if p == priority else ''}>{p}</option>" for p in PRIORITIES)
        resolutions = "".join(f"<option>{r}</option>" for r in ("fixed", "invalid", "wontfix", "duplicate"))
        last = "reopen" if status == "closed" else "resolve"
        last_label = (
            "reopen"
            if status == "closed"
            else f'resolve as <select name="resolution" aria-label="Resolution">{resolutions}</select>'
        )
        modify = (
            f'<details{" open" if preview else ""}><summary>Modify Ticket</summary><form method="post" action="/ticket?id={tid}">'
            f'{self._token()}<label>Priority <select name="priority">{options}</select></label> '
            f'<label>Owner <input name="owner" value="{_e(owner)}"></label><fieldset><legend>Action</legend>'
            f'<label><input type="radio" name="action" value="leave" checked> leave as {_e(status)}</label> '
            f'<label><input type="radio" name="action" value="{last}"> {last_label}</label></fieldset>'
            '<button name="preview" value="1">Preview</button> <button name="submit" value="1">Submit changes</button>'
            "</form></details>"
        )
        comment = (
            f'<form method="post" action="/ticket?id={tid}">{self._token()}<h3>Add a comment</h3>'
            '<label>Comment <textarea name="comment" rows="4"></textarea></label><button>Submit comment</button></form>'
        )
        body = (
            f"<h1>#{tid} {_e(summary)}</h1>{props}<p>{_e(description)}</p>{preview}<h2>Comments</h2><ul>{comments}</ul>"
            f"{comment}{modify}"
        )
        return self._page(f"#{tid} {summary}", body)

    def new_ticket(self, handler) -> Response:
        args = self._args(handler)
        error = ""
        if handler.command == "POST":
            if args.get("__token") != TOKEN:
                return self._page("Error", "<h1>Missing or invalid form token</h1>", 400)
            if not args.get("summary", "").strip():
                error = '<p role="alert" class="error">Summary is required.</p>'
            elif "preview" not in args:
                with sqlite3.connect(self.db) as con:
                    cur = con.execute(
                        "INSERT INTO ticket (summary, description, priority, owner) VALUES (?,?,?,?)",
                        (
                            args["summary"].strip(),
                            args.get("description", ""),
                            args.get("priority", "major"),
                            "",
                        ),
                    )
                return self._redirect(f"/ticket?id={cur.lastrowid}")
        options = "".join(
            f"<option{' selected' if p == args.get('priority', 'major') else ''}>{p}</option>"
            for p in PRIORITIES
        )
        body = (
            f'<h1>Create New Ticket</h1>{error}<form method="post" action="/newticket">{self._token()}'
            f'<label>Summary <input name="summary" value="{_e(args.get("summary", ""))}"></label>'
            f'<label>Description <textarea name="description">{_e(args.get("description", ""))}</textarea></label>'
            f'<label>Priority <select name="priority">{options}</select></label>'
            '<button name="preview" value="1">Preview</button> <button name="create" value="1">Create ticket</button></form>'
        )
        return self._page("New Ticket", body)

    def search(self, handler) -> Response:
        q = self._args(handler).get("q", "").strip().lower()
        words = q.split()
        hits = [
            (i, s) for i, s, d in self.query("SELECT id, summary, description FROM ticket")
            if words and all(w in f"{s} {d}".lower() for w in words)
        ]  # fmt: skip
        pages = [
            n
            for n, t in self.query("SELECT name, text FROM page")
            if words and all(w in f"{n} {t}".lower() for w in words)
        ]
        items = "".join(f'<li><a href="/ticket?id={i}">#{i}: {_e(s)}</a></li>' for i, s in hits)
        items += "".join(f'<li><a href="/wiki?page={quote(n)}">{_e(n)}</a></li>' for n in pages)
        return self._page(
            "Search", f"<h1>Search results for {_e(q)}</h1><ul>{items or '<li>No matches</li>'}</ul>"
        )

    # -- wiki -------------------------------------------------------------------------------------------------
    def wiki_index(self, handler) -> Response:
        items = "".join(
            f'<li><a href="/wiki?page={quote(n)}">{_e(n)}</a></li>'
            for (n,) in self.query("SELECT name FROM page")
        )
        return self._page(
            "Wiki index",
            f'<h1>Wiki index</h1><ul>{items}</ul><p><a href="/wiki/new">Create a new page</a></p>',
        )

    def wiki(self, handler) -> Response:
        name = self._args(handler).get("page", "")
        found = self.query("SELECT text FROM page WHERE name = ?", name)
        if not found:
            return self._page("Not found", "<h1>No such page</h1>", 404)
        lines = "".join(f"<p>{_e(line)}</p>" for line in found[0][0].splitlines())
        return self._page(
            name,
            f'<h1>{_e(name)}</h1>{lines}<p><a href="/wiki/edit?page={quote(name)}">Edit this page</a></p>',
        )

    def _wiki_form(self, action: str, name: str, text: str, named: bool, preview: str = "") -> str:
        field = f'<label>Page name <input name="name" value="{_e(name)}"></label>' if named else ""
        return (
            f'{preview}<form method="post" action="{action}">{self._token()}{field}'
            f'<label>Page text <textarea name="text" rows="10">{_e(text)}</textarea></label>'
            '<button name="preview" value="1">Preview</button> <button name="save" value="1">Save page</button> '
            '<a href="/wiki/index">Cancel</a></form>'
        )

    def _wiki_save(self, handler, args: dict[str, str], name: str, named: bool, action: str) -> Response:
        if args.get("__token") != TOKEN:
            return self._page("Error", "<h1>Missing or invalid form token</h1>", 400)
        if "preview" in args:
            shown = "".join(f"<p>{_e(line)}</p>" for line in args.get("text", "").splitlines())
            preview = f'<div class="preview"><h2>Preview</h2>{shown}</div>'
            return self._page(
                f"Editing {name}",
                f"<h1>Editing {_e(name)}</h1>"
                + self._wiki_form(action, name, args.get("text", ""), named, preview),
            )
        self.query(
            "INSERT OR REPLACE INTO page VALUES (?, ?)", name, args.get("text", "").replace("\r\n", "\n")
        )
        return self._redirect(f"/wiki?page={quote(name)}")

    def wiki_edit(self, handler) -> Response:
        args = self._args(handler)
        name = args.get("page", "")
        if handler.command == "POST":
            return self._wiki_save(handler, args, name, False, f"/wiki/edit?page={quote(name)}")
        text = (self.query("SELECT text FROM page WHERE name = ?", name) or [("",)])[0][0]
        return self._page(
            f"Editing {name}",
            f"<h1>Editing {_e(name)}</h1>"
            + self._wiki_form(f"/wiki/edit?page={quote(name)}", name, text, False),
        )

    def wiki_new(self, handler) -> Response:
        args = self._args(handler)
        if handler.command == "POST":
            return self._wiki_save(handler, args, args.get("name", "").strip(), True, "/wiki/new")
        return self._page(
            "New wiki page", "<h1>Create a new wiki page</h1>" + self._wiki_form("/wiki/new", "", "", True)
        )
