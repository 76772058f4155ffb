"""Quillbox tracker: the HTML of its pages (layout, wiki markup, ticket forms)."""

from __future__ import annotations

import datetime as dt
import re
from html import escape
from typing import Any

from tests.apps.tracker.schema import PRIORITIES, RESOLUTIONS, TYPES

STYLE = """
body{font:14px/1.45 Verdana,Arial,sans-serif;margin:0;color:#222}
#banner{background:#2b3a42;color:#fff;padding:8px 16px;display:flex;justify-content:space-between}
#banner a{color:#cde}#metanav form{display:inline}#metanav button{background:none;border:0;color:#cde;
cursor:pointer;text-decoration:underline;font:inherit}
#mainnav{background:#e7ecef;padding:6px 16px}#mainnav a{margin-right:14px}
#content{padding:12px 20px;max-width:980px}
.props th{text-align:right;font-weight:normal;color:#555;padding-right:8px}.props td{padding-right:24px}
.warning{background:#fde8e8;border:1px solid #d77;padding:8px;margin:8px 0}
.notice{background:#e8f6e8;border:1px solid #7b7;padding:8px;margin:8px 0}
.preview{border:2px dashed #aaa;padding:8px;margin:8px 0;background:#fafaf2}
table.listing{border-collapse:collapse}table.listing td,table.listing th{border:1px solid #ccd;padding:3px 8px}
.change{border-top:1px solid #ddd;margin-top:10px;padding-top:6px}.trac-status{color:#777}
fieldset{margin:10px 0}textarea{width:95%}
"""


def page(title: str, body: str, *, user: str | None, token: str, flash: str = "") -> str:
    """The whole document: banner with the account links, the main menu, then ``body``."""
    if user:
        meta = (
            f'logged in as <strong>{escape(user)}</strong> | <form method="post" action="/logout">'
            f'{token_field(token)}<button type="submit">Logout</button></form>'
        )
    else:
        meta = '<a href="/login">Login</a>'
    notice = f'<div class="notice">{escape(flash)}</div>' if flash else ""
    return (
        f"<!DOCTYPE html><html><head><meta charset='utf-8'><title>{escape(title)} – Quillbox</title>"
        f"<style>{STYLE}</style></head><body>"
        f'<div id="banner"><span><a href="/">Quillbox</a> · issues and docs</span>'
        f'<span id="metanav">{meta}</span></div>'
        '<div id="mainnav"><a href="/wiki/WikiStart">Wiki</a><a href="/roadmap">Roadmap</a>'
        '<a href="/report">View Tickets</a><a href="/newticket">New Ticket</a><a href="/search">Search</a>'
        '<form action="/search" style="display:inline;float:right"><input type="search" name="q" size="18" '
        'aria-label="Search the project"> <input type="submit" value="Search"></form></div>'
        f'<div id="content">{notice}{body}</div></body></html>'
    )


def token_field(token: str) -> str:
    return f'<input type="hidden" name="__token" value="{escape(token)}">'


def wiki_html(text: str) -> str:
    """The wiki's small markup: == headings ==, * bullets, || table || rows, CamelCase links, paragraphs."""
    out: list[str] = []
    in_list = in_table = False
    for line in text.replace("\r\n", "\n").split("\n"):
        stripped = line.strip()
        if in_list and not stripped.startswith("* "):
            out.append("</ul>")
            in_list = False
        if in_table and not stripped.startswith("||"):
            out.append("</table>")
            in_table = False
        if not stripped:
            continue
        if m := re.fullmatch(r"(=+)\s*(.*?)\s*=+", stripped):
            level = min(len(m.group(1)) + 1, 4)
            out.append(f"<h{level}>{_links(m.group(2))}</h{level}>")
        elif stripped.startswith("* "):
            if not in_list:
                out.append("<ul>")
                in_list = True
            out.append(f"<li>{_links(stripped[2:])}</li>")
        elif stripped.startswith("||"):
            if not in_table:
                out.append('<table class="listing wiki">')
                in_table = True
            cells = [c.strip() for c in stripped.strip("|").split("||")]
            out.append("<tr>" + "".join(f"<td>{_links(c)}</td>" for c in cells) + "</tr>")
        else:
            out.append(f"<p>{_links(stripped)}</p>")
    out.append("</ul>" if in_list else "")
    out.append("</table>" if in_table else "")
    return "".join(out)


def _links(text: str) -> str:
    return re.sub(r"\b([A-Z][a-z]+(?:[A-Z][a-z0-9]+)+)\b", r'<a href="/wiki/\1">\1</a>', escape(text))


def day(stamp: int) -> str:
    return dt.datetime.fromtimestamp(stamp, dt.UTC).strftime("%Y-%m-%d %H:%M")


def long_date(iso: str) -> str:
    return dt.date.fromisoformat(iso).strftime("%B %-d, %Y")


def options(values: Any, selected: str, blank: bool = False) -> str:
    items = ([""] if blank else []) + list(values)
    return "".join(
        f'<option value="{escape(v)}"{" selected" if v == selected else ""}>{escape(v) or "&nbsp;"}</option>'
        for v in items
    )


def ticket_fields(values: dict[str, str], milestones: list[str], components: list[str], new: bool) -> str:
    """The properties table of the new-ticket form and of the "Modify" section."""

    def row(label: str, name: str, control: str) -> str:
        return f'<tr><th><label for="field-{name}">{label}:</label></th><td>{control}</td></tr>'

    def text(name: str, size: int = 40) -> str:
        return f'<input type="text" id="field-{name}" name="field_{name}" size="{size}" value="{escape(values.get(name, ""))}">'

    def select(name: str, choices: Any, blank: bool = False) -> str:
        return f'<select id="field-{name}" name="field_{name}">{options(choices, values.get(name, ""), blank)}</select>'

    rows = [
        row("Summary", "summary", text("summary", 70)),
        row("Type", "type", select("type", TYPES)),
        row("Priority", "priority", select("priority", PRIORITIES)),
        row("Milestone", "milestone", select("milestone", milestones, blank=True)),
        row("Component", "component", select("component", components, blank=True)),
        row("Keywords", "keywords", text("keywords")),
    ]
    if new:
        rows.insert(
            1,
            '<tr><th><label for="field-description">Description:</label></th><td><textarea id="field-description"'
            f' name="field_description" rows="8" cols="70">{escape(values.get("description", ""))}</textarea></td></tr>',
        )
        rows.append(row("Owner", "owner", text("owner", 20)))
    return '<table class="props">' + "".join(rows) + "</table>"


def action_fieldset(ticket: dict[str, Any], chosen: str, resolution: str, reassign: str) -> str:
    """The workflow radio buttons of a ticket: what happens to its status."""
    status = ticket["status"]

    def radio(value: str, label: str, extra: str = "") -> str:
        checked = " checked" if chosen == value else ""
        return (
            f'<div><input type="radio" id="action_{value}" name="action" value="{value}"{checked}>'
            f' <label for="action_{value}">{label}</label>{extra}</div>'
        )

    parts = [radio("leave", f"leave as {escape(status)}")]
    if status == "closed":
        parts.append(radio("reopen", "reopen"))
    else:
        parts.append(radio("accept", "accept (take ownership)"))
        parts.append(
            radio(
                "resolve",
                "resolve",
                ' as <select id="action_resolve_resolution" name="action_resolve_resolution" '
                f'aria-label="resolution">{options(RESOLUTIONS, resolution or "fixed")}</select>',
            )
        )
        parts.append(
            radio(
                "reassign",
                "reassign to",
                ' <input type="text" id="action_reassign_owner" name="action_reassign_owner" size="12" '
                f'aria-label="new owner" value="{escape(reassign)}">',
            )
        )
    return "<fieldset><legend>Action</legend>" + "".join(parts) + "</fieldset>"


def table(headers: list[str], rows: list[list[str]]) -> str:
    head = "".join(f"<th>{escape(h)}</th>" for h in headers)
    body = "".join("<tr>" + "".join(f"<td>{c}</td>" for c in r) + "</tr>" for r in rows)
    return f'<table class="listing"><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>'
