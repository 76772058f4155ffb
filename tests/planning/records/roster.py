"""A members roster for the record-planner tests, shaped apart from the Django admin and the tracker: a members
table of plain cells, an edit form of <label for> fields (a date held as text under 'Member since', a team
dropdown, a remarks box), a flash message after each save, removal through a page that asks "Do you really want
to ...?", and a join form. SQLite storage, a form token on every form; goals are checked in its database.
"""

from __future__ import annotations

import html
import sqlite3
from pathlib import Path
from urllib.parse import parse_qs, urlsplit

Response = tuple[int, dict[str, str], bytes]
TOKEN = "r0ster-7d1e"
TEAMS = ("Red", "Blue", "Green")
MEMBERS = [
    ("Ola Nordmann", "ola@roster.example", "Oslo", "active", "2025-02-10", "Red", "Keys returned."),
    ("Per Hansen", "per@roster.example", "Bergen", "pending", "2025-06-01", "Blue", ""),
    ("Liv Berg", "liv@roster.example", "Tromso", "active", "2024-11-20", "Green", ""),
    ("Jon Dahl", "jon@roster.example", "Oslo", "pending", "2026-01-05", "Red", ""),
    ("Siri Lund", "siri@roster.example", "Bodo", "pending", "2026-02-14", "Blue", ""),
]
COLUMNS = "name, email, town, state, since, team, remarks"


def _e(text: object) -> str:
    return html.escape(str(text))


class Roster:
    def __init__(self, db: Path):
        self.db = db
        with sqlite3.connect(db) as con:
            con.execute(f"CREATE TABLE member (id INTEGER PRIMARY KEY, {COLUMNS})")
            con.executemany(f"INSERT INTO member ({COLUMNS}) VALUES (?,?,?,?,?,?,?)", MEMBERS)
        self.flash = ""

    def query(self, sql: str, *args: object) -> list[tuple]:
        with sqlite3.connect(self.db) as con:
            return list(con.execute(sql, args))

    def routes(self) -> dict:
        return {"/": self.members, "/member": self.member, "/join": self.join, "/remove": self.remove}

    @staticmethod
    def _page(title: str, body: str, status: int = 200) -> Response:
        page = (
            f"<!doctype html><html><head><title>{_e(title)} · Roster</title></head><body>"
            f'<div class="top"><a href="/">Members</a> <a href="/join">Add a member</a></div>'
            f'<div class="content">{body}</div></body></html>'
        )
        return status, {"Content-Type": "text/html; charset=utf-8"}, page.encode()

    @staticmethod
    def _args(handler) -> dict[str, str]:
        args = {k: v[-1] for k, v in parse_qs(urlsplit(handler.path).query).items()}
        if handler.command == "POST":
            body = handler.rfile.read(int(handler.headers.get("Content-Length") or 0)).decode()
            args.update({k: v[-1] for k, v in parse_qs(body, keep_blank_values=True).items()})
        return args

    def _back(self, message: str) -> Response:
        self.flash = message
        return 303, {"Location": "/"}, b""

    def members(self, handler) -> Response:
        flash, self.flash = self.flash, ""
        rows = "".join(
            f'<tr><td><a href="/member?id={i}">{_e(n)}</a></td><td>{_e(m)}</td><td>{_e(t)}</td><td>{_e(s)}</td>'
            f"<td>{_e(j)}</td><td>{_e(team)}</td></tr>"
            for i, n, m, t, s, j, team in self.query("SELECT id, name, email, town, state, since, team FROM member")
        )  # fmt: skip
        head = (
            "<tr><th>Member</th><th>E-mail</th><th>Town</th><th>State</th><th>Joined</th><th>Team</th></tr>"
        )
        note = f'<div class="flash">{_e(flash)}</div>' if flash else ""
        return self._page("Members", f"{note}<h2>Our members</h2><table>{head}{rows}</table>")

    def _form(self, action: str, values: dict[str, str], button: str, error: str = "") -> str:
        teams = "".join(
            f"<option{' selected' if t == values.get('team') else ''}>{t}</option>" for t in TEAMS
        )
        field = '<div class="row"><label for="{0}">{1}</label> <input id="{0}" name="{0}" value="{2}"></div>'
        return (
            f'{error}<form method="post" action="{action}"><input type="hidden" name="token" value="{TOKEN}">'
            + field.format("name", "Full name", _e(values.get("name", "")))
            + field.format("email", "E-mail", _e(values.get("email", "")))
            + field.format("town", "Town", _e(values.get("town", "")))
            + field.format("since", "Member since", _e(values.get("since", "")))
            + f'<div class="row"><label for="team">Team</label> <select id="team" name="team">{teams}</select></div>'
            + f'<div class="row"><label for="remarks">Remarks</label> <textarea id="remarks" name="remarks">'
            f"{_e(values.get('remarks', ''))}</textarea></div><button>{button}</button></form>"
        )

    def _posted(self, args: dict[str, str]) -> tuple[dict[str, str], str]:
        values = {k: args.get(k, "").strip() for k in ("name", "email", "town", "since", "team", "remarks")}
        missing = [k for k in ("name", "email", "town", "since") if not values[k]]
        error = f'<p class="problem">Please correct: {", ".join(missing)} is required.</p>' if missing else ""
        return values, error

    def member(self, handler) -> Response:
        args = self._args(handler)
        found = self.query(f"SELECT {COLUMNS} FROM member WHERE id = ?", args.get("id", "0"))
        if not found:
            return self._page("Not found", "<h2>No such member</h2>", 404)
        values = dict(zip([c.strip() for c in COLUMNS.split(",")], found[0], strict=True))
        error = ""
        if handler.command == "POST" and args.get("token") == TOKEN:
            values, error = self._posted(args)
            if not error:
                sets = ", ".join(f"{k}=?" for k in values)
                self.query(f"UPDATE member SET {sets} WHERE id=?", *values.values(), args["id"])
                return self._back(f"Saved the changes to {values['name']}.")
        body = (
            f"<h2>{_e(values['name'])}</h2>"
            + self._form(f"/member?id={args['id']}", values, "Update member", error)
            + f'<p><a href="/remove?id={args["id"]}">Remove member</a></p>'
        )
        return self._page(values["name"], body)

    def join(self, handler) -> Response:
        args = self._args(handler)
        values, error = {"team": "Red"}, ""
        if handler.command == "POST" and args.get("token") == TOKEN:
            values, error = self._posted(args)
            if not error:
                cols = ", ".join(values)
                self.query(
                    f"INSERT INTO member ({cols}, state) VALUES (?,?,?,?,?,?, 'pending')", *values.values()
                )
                return self._back(f"Welcome, {values['name']}!")
        return self._page("Join", "<h2>New member</h2>" + self._form("/join", values, "Add member", error))

    def remove(self, handler) -> Response:
        args = self._args(handler)
        found = self.query("SELECT name FROM member WHERE id = ?", args.get("id", "0"))
        if not found:
            return self._page("Not found", "<h2>No such member</h2>", 404)
        if handler.command == "POST" and args.get("token") == TOKEN:
            self.query("DELETE FROM member WHERE id = ?", args["id"])
            return self._back(f"{found[0][0]} was removed from the roster.")
        body = (
            f"<h2>Remove {_e(found[0][0])}</h2><p>Do you really want to delete {_e(found[0][0])}? This cannot be "
            f'undone.</p><form method="post" action="/remove?id={args["id"]}"><input type="hidden" name="token" '
            f'value="{TOKEN}"><button>Confirm removal</button> <a href="/member?id={args["id"]}">Keep member</a></form>'
        )
        return self._page("Remove member", body)
