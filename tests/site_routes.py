"""Dynamic routes of the fixture site (served by agent.util.static_server on 127.0.0.1).

Each route gets the request handler and returns (status, headers, body); the query string is in handler.path.

/api/items?offset=&limit=  JSON page of the infinite-scroll feed (100 posts in all)
/download?name=            an attachment; the suggested file name defaults to "../../evil.txt"
/slow                      holds the response until the client gives up (a page that never loads)
/slow?delay=S              answers after S seconds (at most 30)
/status?code=N             an HTML page with HTTP status N
/redirect?to=URL           302 to URL
/echo                      an HTML page that shows the query string (forms that GET somewhere)

Pages that begin with a ``<!-- shell: title="..." section="..." -->`` line hold only what goes inside
``<main>`` (and the scripts after it): they are served wrapped in the one shared page shell (:data:`SHELL`;
``shell_routes`` does the same for another site with its own shell),
so the browser gets the same complete HTML as before while the head and header are written once. Their forms
share one handler, ``onSubmit`` in ``tests/support/forms.js`` (served at ``/forms.js``).
"""

from __future__ import annotations

import html
import io
import json
import re
import select
import socket
import time
from collections.abc import Callable
from http.server import SimpleHTTPRequestHandler
from pathlib import Path
from urllib.parse import parse_qs, urlsplit

Response = tuple[int, dict[str, str], bytes]
Route = Callable[[SimpleHTTPRequestHandler], Response]
FEED_SIZE = 100


def _query(handler: SimpleHTTPRequestHandler) -> dict[str, str]:
    return {k: v[-1] for k, v in parse_qs(urlsplit(handler.path).query).items()}


def _html(title: str, body: str, status: int = 200) -> Response:
    page = f"<!doctype html><html lang='en'><head><meta charset='utf-8'><title>{html.escape(title)}</title></head><body>{body}</body></html>"
    return status, {"Content-Type": "text/html; charset=utf-8"}, page.encode()


def items(handler: SimpleHTTPRequestHandler) -> Response:
    """A page of feed posts; a short pause makes the load visible to the settle logic, like a real API."""
    q = _query(handler)
    offset = max(0, int(q.get("offset", "0") or 0))
    limit = min(50, max(1, int(q.get("limit", "20") or 20)))
    time.sleep(0.15)
    end = min(FEED_SIZE, offset + limit)
    data = {
        "items": [
            {"id": i + 1, "title": f"Post {i + 1}: notes from day {i + 1}"} for i in range(offset, end)
        ],
        "more": end < FEED_SIZE,
    }
    return 200, {"Content-Type": "application/json"}, json.dumps(data).encode()


def download(handler: SimpleHTTPRequestHandler) -> Response:
    name = _query(handler).get("name", "../../evil.txt")
    quoted = name.replace("\\", "\\\\").replace('"', '\\"')
    headers = {
        "Content-Type": "application/octet-stream",
        "Content-Disposition": f'attachment; filename="{quoted}"',
    }
    return 200, headers, f"downloaded content of {name}\n".encode()


def _client_gone(sock: socket.socket) -> bool:
    try:
        readable, _, _ = select.select([sock], [], [], 0)
        return bool(readable) and sock.recv(1, socket.MSG_PEEK) == b""
    except OSError:
        return True


def slow(handler: SimpleHTTPRequestHandler) -> Response:
    """Never answers while the browser waits (or answers after ``delay`` seconds)."""
    q = _query(handler)
    deadline = time.monotonic() + min(30.0, float(q["delay"])) if "delay" in q else time.monotonic() + 120.0
    while time.monotonic() < deadline:
        if _client_gone(handler.connection):
            handler.wfile = (
                io.BytesIO()
            )  # nobody is listening: swallow the late answer instead of a broken pipe
            break
        time.sleep(0.05)
    return _html("Finally loaded", "<h1>Finally loaded</h1><p>This page took its time.</p>")


def status(handler: SimpleHTTPRequestHandler) -> Response:
    code = int(_query(handler).get("code", "404") or 404)
    return _html(
        f"Error {code}", f"<h1>Error {code}</h1><p>The page you asked for is not available.</p>", code
    )


def redirect(handler: SimpleHTTPRequestHandler) -> Response:
    target = _query(handler).get("to", "/index.html")
    return 302, {"Location": target, "Content-Type": "text/plain"}, b"redirecting"


def echo(handler: SimpleHTTPRequestHandler) -> Response:
    pairs = "".join(
        f"<li><b>{html.escape(k)}</b>: <span>{html.escape(v)}</span></li>" for k, v in _query(handler).items()
    )
    return _html("Form received", f"<h1>Form received</h1><ul id='fields'>{pairs}</ul>")


SITE_DIR = Path(__file__).parent / "site"
SHELL = (
    '<!doctype html>\n<html lang="en">\n<head><meta charset="utf-8"><title>{title} - Test site</title>'
    '<link rel="stylesheet" href="/style.css"></head>\n<body>\n'
    '<header class="site"><a href="/index.html">Home</a><strong>{section}</strong></header>\n<main>\n'
    "{content}</body>\n</html>\n"
)
_SHELL_LINE = re.compile(r"^<!-- shell: (.*?) -->\n")
_SHELL_FIELD = re.compile(r'(\w+)="([^"]*)"')


def shell_page(path: Path, shell: str = SHELL) -> str | None:
    """The complete HTML of a page written for ``shell`` (its first line gives the shell's fields), or None for
    a page that is complete on its own."""
    text = path.read_text(encoding="utf-8")
    match = _SHELL_LINE.match(text)
    if match is None:
        return None
    return shell.format(**dict(_SHELL_FIELD.findall(match.group(1))), content=text[match.end() :])


#: The pages' shared form handling (``onSubmit``), served at ``/forms.js`` next to every site's shell pages.
FORMS_SCRIPT = Path(__file__).parent / "support" / "forms.js"


def _forms_script(_handler: SimpleHTTPRequestHandler) -> Response:
    return 200, {"Content-Type": "text/javascript; charset=utf-8"}, FORMS_SCRIPT.read_bytes()


def shell_routes(root: Path, shell: str = SHELL) -> dict[str, Route]:
    """A route per shell page under ``root`` (at its URL path), serving it whole, and ``/forms.js``; other files
    stay static."""

    def route_for(path: Path) -> Route:
        def route(_handler: SimpleHTTPRequestHandler) -> Response:
            return 200, {"Content-Type": "text/html; charset=utf-8"}, (shell_page(path, shell) or "").encode()

        return route

    routes: dict[str, Route] = {"/forms.js": _forms_script}
    for page in sorted(p for p in root.rglob("*.html") if shell_page(p, shell) is not None):
        url = "/" + page.relative_to(root).as_posix()
        routes[url] = route_for(page)
        if page.name == "index.html":  # the folder's own URL serves its index, as a static server would
            routes[url.removesuffix("index.html")] = routes[url]
    return routes


ROUTES = {
    "/api/items": items,
    "/download": download,
    "/slow": slow,
    "/status": status,
    "/redirect": redirect,
    "/echo": echo,
    **shell_routes(SITE_DIR),
}
