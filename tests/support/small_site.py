"""The pieces of a small stateful test site served by :class:`agent.util.static_server.StaticServer` routes:
a page in the site's shell, a redirect after a form is sent, and the values a request carries. Tests write
their own pages and state; these helpers only keep each test from writing the same plumbing again."""

from __future__ import annotations

import html
from http.server import SimpleHTTPRequestHandler
from urllib.parse import parse_qs, quote, urlsplit

Response = tuple[int, dict[str, str], bytes]
HTML = {"Content-Type": "text/html; charset=utf-8"}


def page(site: str, title: str, body: str, *, nav: str = "", aside: str = "") -> Response:
    """A page of ``site``: its banner with a link home and ``nav``, ``body`` as the main content."""
    doc = (
        f"<!doctype html><html><head><meta charset='utf-8'><title>{html.escape(title)} | {html.escape(site)}"
        f"</title></head><body><header><a href='/'>{html.escape(site)}</a><nav>{nav}</nav></header>"
        f"<main>{body}</main>{aside}<footer><p>{html.escape(site)}</p></footer></body></html>"
    )
    return 200, HTML, doc.encode()


def redirect(path: str, message: str = "") -> Response:
    """A 303 to ``path`` after a form was sent, with ``message`` for the next page to show."""
    where = f"{path}{'&' if '?' in path else '?'}msg={quote(message)}" if message else path
    return 303, {"Location": where}, b""


def query(handler: SimpleHTTPRequestHandler, name: str) -> str:
    """The last value of ``name`` in the request's query string ('' when absent)."""
    return parse_qs(urlsplit(handler.path).query).get(name, [""])[-1]


def posted(handler: SimpleHTTPRequestHandler) -> dict[str, list[str]]:
    """The fields of a posted form, every value of each."""
    length = int(handler.headers.get("Content-Length") or 0)
    return parse_qs(handler.rfile.read(length).decode())


def flash(handler: SimpleHTTPRequestHandler) -> str:
    """The message a redirect left for this page, as a status line ('' when none)."""
    msg = query(handler, "msg")
    return f"<p role='status'>{html.escape(msg)}</p>" if msg else ""
