"""Quillbox tracker: tickets - the new-ticket form, a ticket's page with comments and changes, the query page."""

from __future__ import annotations

import time
from html import escape
from typing import Any

from tests.apps.tracker.pages import (
    action_fieldset,
    day,
    options,
    table,
    ticket_fields,
    token_field,
    wiki_html,
)
from tests.apps.tracker.schema import OPEN_STATUSES, PRIORITIES, RESOLUTIONS, TYPES
from tests.apps.tracker.web import HttpError, Request, Response, html, redirect

EDITABLE = ("summary", "type", "priority", "milestone", "component", "keywords")


def _choices(req: Request) -> tuple[list[str], list[str]]:
    milestones = [r[0] for r in req.db.execute("SELECT name FROM milestone ORDER BY due")]
    components = [r[0] for r in req.db.execute("SELECT name FROM component ORDER BY name")]
    return milestones, components


def _author_row(req: Request, label: str) -> str:
    if req.user:
        return ""
    return (
        f'<p><label for="author">{label}</label> <input type="text" id="author" name="author" size="30" '
        f'value="{escape(req.arg("author"))}"></p>'
    )


def new_ticket(req: Request) -> Response:
    milestones, components = _choices(req)
    values = {"type": "defect", "priority": "major"}
    errors: list[str] = []
    preview = ""
    if req.method == "POST":
        req.check_token()
        values = {k: req.arg(f"field_{k}").strip() for k in (*EDITABLE, "description", "owner")}
        if not values["summary"]:
            errors.append("Tickets must contain a summary.")
        if values["type"] not in TYPES or values["priority"] not in PRIORITIES:
            errors.append("Invalid value for type or priority.")
        if values["milestone"] and values["milestone"] not in milestones:
            errors.append(f"Milestone {values['milestone']} does not exist.")
        if not errors and "preview" not in req.form:
            now = int(time.time())
            cur = req.db.execute(
                "INSERT INTO ticket (type, summary, description, priority, component, milestone, status,"
                " owner, reporter, keywords, created, changed) VALUES (?,?,?,?,?,?,?,?,?,?,?,?)",
                (
                    values["type"], values["summary"], values["description"], values["priority"],
                    values["component"], values["milestone"], "assigned" if values["owner"] else "new",
                    values["owner"], req.author, values["keywords"], now, now,
                ),
            )  # fmt: skip
            return redirect(f"/ticket/{cur.lastrowid}?created=1")
        if not errors:
            preview = (
                '<div class="preview"><h3>Preview (not saved yet)</h3>'
                f"<h2>{escape(values['summary'])}</h2>{wiki_html(values['description'])}</div>"
            )
    warning = "".join(f'<div class="warning">{escape(e)}</div>' for e in errors)
    body = (
        f"<h1>Create New Ticket</h1>{warning}{preview}"
        f'<form method="post" action="/newticket" id="propertyform">{token_field(req.token)}'
        f"{_author_row(req, 'Your email or username:')}"
        f"<fieldset><legend>Properties</legend>{ticket_fields(values, milestones, components, new=True)}"
        "</fieldset>"
        '<div class="buttons"><input type="submit" name="preview" value="Preview"> '
        '<input type="submit" name="submit" value="Create ticket"></div></form>'
    )
    return html(req, "New Ticket", body)


def _load(req: Request, ticket_id: str) -> dict[str, Any]:
    row = (
        req.db.execute("SELECT * FROM ticket WHERE id = ?", (ticket_id,)).fetchone()
        if ticket_id.isdigit()
        else None
    )
    if row is None:
        raise HttpError("404 Not Found", f"Ticket {ticket_id} does not exist.")
    return dict(row)


def ticket(req: Request, ticket_id: str) -> Response:
    tk = _load(req, ticket_id)
    errors: list[str] = []
    preview = ""
    values = {k: tk[k] for k in EDITABLE}
    chosen, resolution, reassign, comment = "leave", "", "", ""
    if req.method == "POST":
        req.check_token()
        values = {k: req.arg(f"field_{k}", tk[k]).strip() for k in EDITABLE}
        chosen = req.arg("action", "leave")
        resolution = req.arg("action_resolve_resolution")
        reassign = req.arg("action_reassign_owner").strip()
        comment = req.arg("comment").strip()
        if str(tk["revision"]) != req.arg("revision"):
            errors.append(
                "Sorry, can not save your changes. This ticket has been modified by someone else since you "
                "started (a mid-air collision). Reload the ticket to see the new version."
            )
        changes = _changes(tk, values, chosen, resolution, reassign, req.author, errors)
        if not values["summary"]:
            errors.append("Tickets must contain a summary.")
        if not errors and not changes and not comment:
            errors.append("No changes to save: write a comment or change a field first.")
        if not errors and "preview" not in req.form:
            _save(req, tk, changes, comment)
            return redirect(f"/ticket/{tk['id']}?saved=1#changelog")
        if not errors:
            shown = "".join(
                f"<li><strong>{escape(f)}</strong> → {escape(str(v))}</li>" for f, v in changes.items()
            )
            preview = (
                f'<div class="preview"><h3>Preview of your changes (not saved yet)</h3><ul>{shown}</ul>'
                f"{wiki_html(comment)}</div>"
            )
    flash = "Your changes have been saved." if req.query.get("saved") else ""
    flash = "The ticket has been created." if req.query.get("created") else flash
    return html(req, f"#{tk['id']} ({tk['summary']})", _ticket_body(req, tk, errors, preview, values,
                                                                   (chosen, resolution, reassign, comment)),
                flash=flash)  # fmt: skip


def _changes(
    tk: dict, values: dict, chosen: str, resolution: str, reassign: str, author: str, errors: list
) -> dict:
    changes = {k: v for k, v in values.items() if v != tk[k]}
    if (
        "type" in changes
        and changes["type"] not in TYPES
        or "priority" in changes
        and changes["priority"] not in PRIORITIES
    ):
        errors.append("Invalid value for type or priority.")
    if chosen == "resolve":
        if resolution not in RESOLUTIONS:
            errors.append("Choose a resolution.")
        changes.update(status="closed", resolution=resolution)
    elif chosen == "reopen":
        changes.update(status="reopened", resolution="")
    elif chosen == "accept":
        changes.update(status="accepted", owner=author)
    elif chosen == "reassign":
        if not reassign:
            errors.append("Name the person to reassign the ticket to.")
        changes.update(status="assigned", owner=reassign)
    return {k: v for k, v in changes.items() if v != tk.get(k)}


def _save(req: Request, tk: dict, changes: dict, comment: str) -> None:
    now = int(time.time())
    for column, value in changes.items():
        req.db.execute(f"UPDATE ticket SET {column} = ? WHERE id = ?", (value, tk["id"]))  # noqa: S608
        req.db.execute(
            "INSERT INTO ticket_change (ticket, author, field, oldvalue, newvalue, created) VALUES (?,?,?,?,?,?)",
            (tk["id"], req.author, column, tk[column], value, now),
        )
    if comment:
        req.db.execute(
            "INSERT INTO comment (ticket, author, body, created) VALUES (?,?,?,?)",
            (tk["id"], req.author, comment, now),
        )
    req.db.execute("UPDATE ticket SET changed = ?, revision = revision + 1 WHERE id = ?", (now, tk["id"]))


def _ticket_body(req: Request, tk: dict, errors: list, preview: str, values: dict, state: tuple) -> str:
    chosen, resolution, reassign, comment = state
    milestones, components = _choices(req)
    status = tk["status"] + (f": {tk['resolution']}" if tk["resolution"] else "")
    cells = [
        ("Reported by", escape(tk["reporter"])),
        ("Owned by", escape(tk["owner"] or "(nobody)")),
        ("Priority", escape(tk["priority"])),
        ("Milestone", _milestone_link(tk["milestone"])),
        ("Component", escape(tk["component"])),
        ("Keywords", escape(tk["keywords"])),
    ]
    rows = [
        f"<tr><th>{a}:</th><td>{va}</td><th>{b}:</th><td>{vb}</td></tr>"
        for (a, va), (b, vb) in zip(cells[::2], cells[1::2], strict=True)
    ]
    props = f'<table class="props">{"".join(rows)}</table>'
    history = []
    for c in req.db.execute("SELECT * FROM comment WHERE ticket = ? ORDER BY id", (tk["id"],)):
        history.append(
            f'<div class="change"><h3>Changed {day(c["created"])} by {escape(c["author"])}</h3>'
            f'<div class="comment">{wiki_html(c["body"])}</div></div>'
        )
    for c in req.db.execute("SELECT * FROM ticket_change WHERE ticket = ? ORDER BY id", (tk["id"],)):
        history.append(
            f'<div class="change"><ul><li><strong>{escape(c["field"])}</strong> changed from '
            f"<em>{escape(c['oldvalue'] or '')}</em> to <em>{escape(c['newvalue'] or '')}</em> "
            f"by {escape(c['author'])}</li></ul></div>"
        )
    warning = "".join(f'<div class="warning">{escape(e)}</div>' for e in errors)
    return (
        f'<h1 id="trac-ticket-title">Ticket #{tk["id"]} <span class="trac-status">({escape(status)} '
        f'{escape(tk["type"])})</span></h1><h2 class="summary">{escape(tk["summary"])}</h2>'
        f"<p>Opened {day(tk['created'])} · Last modified {day(tk['changed'])}</p>{props}"
        f'<h3>Description</h3><div class="description">{wiki_html(tk["description"])}</div>'
        f'<h2 id="changelog">Change History</h2>{"".join(history) or "<p>No changes yet.</p>"}'
        f"{warning}{preview}"
        f'<form method="post" action="/ticket/{tk["id"]}#trac-add-comment" id="propertyform">'
        f'{token_field(req.token)}<input type="hidden" name="revision" value="{tk["revision"]}">'
        f'<h2 id="trac-add-comment">Add a comment</h2>{_author_row(req, "Your email or username:")}'
        f'<textarea id="comment" name="comment" rows="6" cols="70">{escape(comment)}</textarea>'
        f"<details{' open' if req.method == 'POST' else ''}><summary>Modify Ticket</summary>"
        f"<fieldset><legend>Properties</legend>{ticket_fields(values, milestones, components, new=False)}"
        f"</fieldset>{action_fieldset(tk, chosen, resolution, reassign)}</details>"
        '<div class="buttons"><input type="submit" name="preview" value="Preview"> '
        '<input type="submit" name="submit" value="Submit changes"></div></form>'
    )


def _milestone_link(name: str) -> str:
    return f'<a href="/milestone/{escape(name)}">{escape(name)}</a>' if name else ""


def report_index(req: Request) -> Response:
    reports = [
        ("{1} Active Tickets", "/query?status=open"),
        ("{2} Active Tickets by Milestone", "/query?status=open&group=milestone"),
        ("{3} All Tickets, newest first", "/query?status=open&status=closed&order=newest"),
        ("{4} Closed Tickets", "/query?status=closed"),
    ]
    items = "".join(f'<li><a href="{href}">{escape(title)}</a></li>' for title, href in reports)
    body = f'<h1>Available Reports</h1><ul>{items}</ul><p><a href="/query">Custom query</a></p>'
    return html(req, "Available Reports", body)


def query(req: Request) -> Response:
    """The filter page: status, owner, priority, milestone, component, text; rows and how many matched."""
    statuses = req.args("status") or ["open"]
    wanted = {s for s in statuses if s != "open"} | (set(OPEN_STATUSES) if "open" in statuses else set())
    where, params = [f"status IN ({','.join('?' * len(wanted))})"], list(wanted)
    for name in ("owner", "priority", "milestone", "component", "type"):
        value = req.arg(name).strip()
        if value:
            where.append(f"{name} = ?")
            params.append(value)
    text = req.arg("text").strip()
    if text:
        where.append("(summary LIKE ? OR description LIKE ?)")
        params += [f"%{text}%", f"%{text}%"]
    order = "id DESC" if req.arg("order") == "newest" else ("milestone, id" if req.arg("group") else "id")
    rows = req.db.execute(
        f"SELECT * FROM ticket WHERE {' AND '.join(where)} ORDER BY {order}", params
    ).fetchall()  # noqa: S608
    milestones, components = _choices(req)

    def box(value: str, label: str) -> str:
        checked = " checked" if value in statuses else ""
        return f'<label><input type="checkbox" name="status" value="{value}"{checked}> {label}</label> '

    form = (
        '<form method="get" action="/query" id="query"><fieldset><legend>Filters</legend>'
        f"<div>Status: {box('open', 'open')}{box('closed', 'closed')}</div>"
        f'<div><label for="f-owner">Owner</label> <input id="f-owner" name="owner" value="{escape(req.arg("owner"))}"> '
        f'<label for="f-priority">Priority</label> <select id="f-priority" name="priority">'
        f"{options(PRIORITIES, req.arg('priority'), blank=True)}</select> "
        f'<label for="f-milestone">Milestone</label> <select id="f-milestone" name="milestone">'
        f"{options(milestones, req.arg('milestone'), blank=True)}</select> "
        f'<label for="f-component">Component</label> <select id="f-component" name="component">'
        f"{options(components, req.arg('component'), blank=True)}</select> "
        f'<label for="f-text">Summary contains</label> <input id="f-text" name="text" value="{escape(text)}"></div>'
        '</fieldset><input type="submit" value="Update"></form>'
    )
    listing = table(
        ["Ticket", "Summary", "Status", "Owner", "Type", "Priority", "Milestone"],
        [
            [f'<a href="/ticket/{r["id"]}">#{r["id"]}</a>', f'<a href="/ticket/{r["id"]}">{escape(r["summary"])}</a>',
             escape(r["status"]), escape(r["owner"]), escape(r["type"]), escape(r["priority"]), escape(r["milestone"])]
            for r in rows
        ],
    )  # fmt: skip
    count = f'<p class="numrows">({len(rows)} match{"es" if len(rows) != 1 else ""})</p>'
    return html(req, "Custom Query", f"<h1>Custom Query</h1>{form}{count}{listing}")
