"""Quillbox tracker: the WSGI application (login, wiki, roadmap, search, tickets) and a loopback server for it.

python -m tests.apps.tracker.app [PORT]     # serve a freshly seeded copy on 127.0.0.1
"""

from __future__ import annotations

import contextlib
import re
import shutil
import sqlite3
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Iterable, Iterator
from html import escape
from pathlib import Path
from socketserver import ThreadingMixIn
from typing import Any
from wsgiref.simple_server import WSGIRequestHandler, WSGIServer, make_server

from tests.apps.tracker import tickets
from tests.apps.tracker.pages import long_date, table, token_field, wiki_html
from tests.apps.tracker.schema import create_database
from tests.apps.tracker.web import HttpError, Request, Response, html, open_db, redirect, url

PAGE_NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_./-]*$")


def login(req: Request) -> Response:
    error = ""
    if req.method == "POST":
        req.check_token()
        row = req.db.execute(
            "SELECT username FROM account WHERE username = ? AND password = ?",
            (req.arg("user"), req.arg("password")),
        ).fetchone()
        if row:
            req.sign_in(row[0])
            return redirect(req.arg("referer") or "/wiki/WikiStart")
        error = '<div class="warning">Invalid username or password. Please try again.</div>'
    body = (
        f'<h1>Login</h1>{error}<form method="post" action="/login" id="acctmgr_loginform">'
        f'{token_field(req.token)}<input type="hidden" name="referer" value="{escape(req.arg("referer"))}">'
        '<div><label for="user">Username:</label> <input type="text" id="user" name="user" size="20"></div>'
        '<div><label for="password">Password:</label> <input type="password" id="password" name="password" '
        'size="20"></div><input type="submit" value="Login"></form>'
    )
    return html(req, "Login", body)


def logout(req: Request) -> Response:
    req.check_token()
    req.sign_out()
    return redirect("/wiki/WikiStart")


def wiki_index(req: Request) -> Response:
    if req.arg("name"):
        name = req.arg("name").strip().replace(" ", "")
        if not PAGE_NAME.match(name):
            return html(
                req, "Title Index", '<div class="warning">Invalid page name.</div>', status="400 Bad Request"
            )
        return redirect(url(f"/wiki/{name}?action=edit"))
    names = [r[0] for r in req.db.execute("SELECT name FROM wiki ORDER BY name")]
    items = "".join(f'<li><a href="/wiki/{escape(n)}">{escape(n)}</a></li>' for n in names)
    body = (
        f"<h1>Title Index</h1><ul>{items}</ul><h2>New page</h2>"
        '<form method="get" action="/wiki"><label for="pagename">Page name</label> '
        '<input id="pagename" name="name" size="30"> <input type="submit" value="Create page"></form>'
    )
    return html(req, "Title Index", body)


def wiki_page(req: Request, name: str) -> Response:
    row = req.db.execute("SELECT * FROM wiki WHERE name = ?", (name,)).fetchone()
    if req.method == "POST" or req.arg("action") == "edit":
        return _wiki_edit(req, name, row)
    if row is None:
        body = (
            f"<h1>{escape(name)}</h1><p>The page {escape(name)} does not exist. You can create it here.</p>"
            f'<form method="get" action="/wiki/{escape(name)}"><input type="hidden" name="action" value="edit">'
            '<input type="submit" value="Create this page"></form>'
        )
        return html(req, name, body, status="404 Not Found")
    flash = f"Your changes have been saved in version {row['revision']}." if req.query.get("saved") else ""
    body = (
        f'<div class="wikipage">{wiki_html(row["body"])}</div>'
        f'<p class="lastmod">Version {row["revision"]}, last modified by {escape(row["author"])}</p>'
        f'<form method="get" action="/wiki/{escape(name)}"><input type="hidden" name="action" value="edit">'
        '<input type="submit" value="Edit this page"></form>'
    )
    return html(req, name, body, flash=flash)


def _wiki_edit(req: Request, name: str, row: sqlite3.Row | None) -> Response:
    revision = row["revision"] if row else 0
    text = row["body"] if row else ""
    note, problems, preview = "", [], ""
    if req.method == "POST":
        req.check_token()
        if "cancel" in req.form:
            return redirect(url(f"/wiki/{name}"))
        text, note = req.arg("text"), req.arg("comment").strip()
        if req.arg("version") != str(revision):
            problems.append(
                "Sorry, this page has been modified by somebody else since you started editing. "
                "Your changes have not been saved."
            )
        if not text.strip():
            problems.append("The page text must not be empty.")
        elif row and text.replace("\r\n", "\n") == row["body"]:
            problems.append("Page not modified: nothing was saved.")
        if not problems and "preview" not in req.form:
            now, new_rev = int(time.time()), revision + 1
            text = text.replace("\r\n", "\n")
            req.db.execute(
                "INSERT INTO wiki VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT(name) DO UPDATE SET body=excluded.body,"
                " revision=excluded.revision, author=excluded.author, edited=excluded.edited, note=excluded.note",
                (name, text, new_rev, req.author, now, note),
            )
            req.db.execute(
                "INSERT INTO wiki_history (name, revision, body, author, edited, note) VALUES (?,?,?,?,?,?)",
                (name, new_rev, text, req.author, now, note),
            )
            return redirect(url(f"/wiki/{name}?saved=1"))
        if not problems:
            preview = f'<div class="preview"><h3>Preview (not saved)</h3>{wiki_html(text)}</div>'
    warning = "".join(f'<div class="warning">{escape(p)}</div>' for p in problems)
    author = (
        ""
        if req.user
        else (
            '<div><label for="author">Your email or username:</label> <input id="author" name="author" size="30"></div>'
        )
    )
    body = (
        f"<h1>Editing {escape(name)}</h1>{warning}{preview}"
        f'<form method="post" action="/wiki/{escape(name)}" id="edit">{token_field(req.token)}'
        f'<input type="hidden" name="version" value="{revision}">'
        f'<div><label for="text">Page source</label><br><textarea id="text" name="text" rows="14" cols="80">'
        f"{escape(text)}</textarea></div>{author}"
        '<div><label for="comment">Comment about this change (optional):</label> '
        f'<input id="comment" name="comment" size="60" value="{escape(note)}"></div>'
        '<div class="buttons"><input type="submit" name="preview" value="Preview Page"> '
        '<input type="submit" name="save" value="Submit changes"> '
        '<input type="submit" name="cancel" value="Cancel"></div></form>'
    )
    return html(req, f"Editing {name}", body)


def roadmap(req: Request) -> Response:
    parts = ["<h1>Roadmap</h1>"]
    for m in req.db.execute("SELECT * FROM milestone ORDER BY due"):
        total, closed = req.db.execute(
            "SELECT COUNT(*), SUM(status = 'closed') FROM ticket WHERE milestone = ?", (m["name"],)
        ).fetchone()
        parts.append(
            f'<div class="milestone"><h2><a href="/milestone/{m["name"]}">Milestone: {escape(m["name"])}</a></h2>'
            f'<p class="date">Due {long_date(m["due"])}</p><p>{closed or 0} of {total} tickets closed</p>'
            f"<p>{escape(m['description'])}</p></div>"
        )
    return html(req, "Roadmap", "".join(parts))


def milestone(req: Request, name: str) -> Response:
    m = req.db.execute("SELECT * FROM milestone WHERE name = ?", (name,)).fetchone()
    if m is None:
        raise HttpError("404 Not Found", f"Milestone {name} does not exist.")
    rows = req.db.execute("SELECT id, summary, status FROM ticket WHERE milestone = ? ORDER BY id", (name,))
    listing = table(
        ["Ticket", "Summary", "Status"],
        [[f'<a href="/ticket/{r[0]}">#{r[0]}</a>', escape(r[1]), escape(r[2])] for r in rows],
    )
    body = (
        f"<h1>Milestone {escape(name)}</h1><dl><dt>Due</dt><dd>{long_date(m['due'])}</dd>"
        f"<dt>Description</dt><dd>{escape(m['description'])}</dd></dl>{listing}"
    )
    return html(req, f"Milestone {name}", body)


def search(req: Request) -> Response:
    q = req.arg("q").strip()
    results = []
    if q:
        like = f"%{q}%"
        for r in req.db.execute(
            "SELECT id, summary, description, status FROM ticket WHERE summary LIKE ? OR description LIKE ?",
            (like, like),
        ):
            results.append(
                f'<dt><a href="/ticket/{r[0]}">#{r[0]}: {escape(r[1])}</a> ({escape(r[3])})</dt>'
                f"<dd>{escape(r[2][:160])}</dd>"
            )
        for r in req.db.execute("SELECT name, body FROM wiki WHERE name LIKE ? OR body LIKE ?", (like, like)):
            results.append(
                f'<dt><a href="/wiki/{escape(r[0])}">{escape(r[0])}</a> (wiki)</dt><dd>{escape(r[1][:160])}</dd>'
            )
    found = f"<h2>Results ({len(results)})</h2><dl>{''.join(results)}</dl>" if q else ""
    empty = "<p>No matches found.</p>" if q and not results else ""
    body = (
        '<h1>Search</h1><form method="get" action="/search" id="fullsearch"><input type="text" name="q" size="40" '
        f'value="{escape(q)}" aria-label="Search terms"> <input type="submit" value="Search"></form>{found}{empty}'
    )
    return html(req, "Search", body)


ROUTES: list[tuple[re.Pattern[str], Callable[..., Response]]] = [
    (re.compile(r"^/login$"), login),
    (re.compile(r"^/logout$"), logout),
    (re.compile(r"^/wiki/?$"), wiki_index),
    (re.compile(r"^/wiki/(.+)$"), wiki_page),
    (re.compile(r"^/newticket$"), tickets.new_ticket),
    (re.compile(r"^/ticket/([^/]+)$"), tickets.ticket),
    (re.compile(r"^/report$"), tickets.report_index),
    (re.compile(r"^/query$"), tickets.query),
    (re.compile(r"^/roadmap$"), roadmap),
    (re.compile(r"^/milestone/(.+)$"), milestone),
    (re.compile(r"^/search$"), search),
]


def make_app(db_path: Path) -> Callable[..., Iterable[bytes]]:
    """The WSGI callable; it opens ``db_path`` afresh for every request (so the file may be swapped between)."""

    def app(environ: dict[str, Any], start_response: Callable[..., Any]) -> Iterable[bytes]:
        con = open_db(db_path)
        req = Request(environ, con)
        try:
            req = Request.read(environ, con)
            resp = redirect("/wiki/WikiStart") if req.path == "/" else _dispatch(req)
            con.commit()
        except HttpError as exc:
            con.rollback()
            resp = html(
                req,
                "Error",
                f'<h1>Error</h1><div class="warning">{escape(exc.message)}</div>',
                status=exc.status,
            )
        finally:
            con.close()
        headers = [("Content-Type", "text/html; charset=utf-8"), ("Cache-Control", "no-store")]
        headers += [("Set-Cookie", c) for c in req.new_cookies]
        if resp.location:
            headers.append(("Location", resp.location))
        start_response(resp.status, headers)
        return [resp.body.encode("utf-8")]

    return app


def _dispatch(req: Request) -> Response:
    from urllib.parse import unquote

    for pattern, handler in ROUTES:
        if m := pattern.match(req.path):
            return handler(req, *(unquote(g) for g in m.groups()))
    raise HttpError("404 Not Found", f"No handler matched request to {req.path}")


class _ThreadingServer(ThreadingMixIn, WSGIServer):
    daemon_threads = True


class _QuietHandler(WSGIRequestHandler):
    def log_message(self, format: str, *args: Any) -> None:  # noqa: A002
        return


@contextlib.contextmanager
def serve_tracker(db_path: Path, port: int = 0) -> Iterator[str]:
    """Serve the tracker over ``db_path`` on 127.0.0.1 (port 0: a free one) in a daemon thread; yields its URL."""
    server = make_server("127.0.0.1", port, make_app(db_path), _ThreadingServer, _QuietHandler)
    threading.Thread(target=server.serve_forever, name="quillbox", daemon=True).start()
    try:
        yield f"http://127.0.0.1:{server.server_port}"
    finally:
        server.shutdown()
        server.server_close()


def main(argv: list[str]) -> int:
    workdir = Path(tempfile.mkdtemp(prefix="quillbox-"))
    db = create_database(workdir / "quillbox.sqlite")
    with serve_tracker(db, int(argv[0]) if argv else 0) as base_url, contextlib.suppress(KeyboardInterrupt):
        print(f"Quillbox on {base_url} (database {db}); Ctrl-C stops it", flush=True)
        threading.Event().wait()
    shutil.rmtree(workdir, ignore_errors=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
