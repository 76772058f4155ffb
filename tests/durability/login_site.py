"""A loopback login flow whose server keeps the session in a cookie, for the resume tests.

- ``GET /login?run=R`` the sign-in form (``&banner=1`` adds a cookie banner, shown by the page's script until
  it is accepted; accepting stores the choice in localStorage and a cookie, and every showing is reported to
  ``/api/banner?run=R`` so the test can count them);
- ``POST /login?run=R`` counts the attempt, and with the right user and password sets an HttpOnly session
  cookie and redirects to ``/account?run=R``; a wrong one shows the form again with an error;
- ``GET /account?run=R`` greets the signed-in user, or redirects to the form without a valid session cookie.

Counters live in the test process: ``site.posts("R")`` is the number of login POSTs run R made.
"""

from __future__ import annotations

import html
import secrets
import threading
from collections import Counter
from http.cookies import SimpleCookie
from http.server import SimpleHTTPRequestHandler
from urllib.parse import parse_qs, urlsplit

from agent.util.static_server import StaticServer
from tests.durability.clicks import PAGES

USER, PASSWORD = "alice", "s3cret-pw"
GOAL = f"log in as {USER} with password {PASSWORD}"

_BANNER = """
<div id="consent" hidden style="position:fixed;left:0;right:0;bottom:0;padding:16px;background:#222;color:#fff">
  We use cookies to keep you signed in. <button type="button" id="accept">Accept cookies</button>
</div>
<script>
  const run = new URLSearchParams(location.search).get("run") || "";
  const banner = document.getElementById("consent");
  if (localStorage.getItem("consent") !== "yes") {
    banner.hidden = false;
    fetch("/api/banner?run=" + encodeURIComponent(run), {method: "POST"});
  }
  document.getElementById("accept").addEventListener("click", () => {
    localStorage.setItem("consent", "yes");
    document.cookie = "consent=yes; path=/";
    banner.hidden = true;
  });
</script>"""


def _page(title: str, body: str) -> bytes:
    return (
        f'<!doctype html><html lang="en"><head><meta charset="utf-8"><title>{title}</title></head>'
        f"<body>{body}</body></html>"
    ).encode()


class LoginSite(StaticServer):
    def __init__(self) -> None:
        self._lock = threading.Lock()
        self.login_posts: Counter[str] = Counter()
        self.banners: Counter[str] = Counter()
        self._sessions: dict[str, str] = {}  # token -> user
        #: runs whose form was redesigned (the username field renamed and relabelled), as a site update would
        self.redesigned: set[str] = set()
        super().__init__(
            PAGES, routes={"/login": self._login, "/account": self._account, "/api/banner": self._banner}
        )

    def posts(self, run: str) -> int:
        with self._lock:
            return self.login_posts[run]

    def banner_shows(self, run: str) -> int:
        with self._lock:
            return self.banners[run]

    def url(self, run: str, *, banner: bool = False) -> str:
        return f"{self.base_url}/login?run={run}" + ("&banner=1" if banner else "")

    @staticmethod
    def _query(handler: SimpleHTTPRequestHandler) -> dict[str, str]:
        return {k: v[-1] for k, v in parse_qs(urlsplit(handler.path).query).items()}

    def _user(self, handler: SimpleHTTPRequestHandler) -> str | None:
        cookie = SimpleCookie(handler.headers.get("Cookie") or "")
        token = cookie["session"].value if "session" in cookie else ""
        with self._lock:
            return self._sessions.get(token)

    def _form(self, query: dict[str, str], error: str = "") -> bytes:
        run = html.escape(query.get("run", ""), quote=True)
        banner = "&amp;banner=1" if query.get("banner") else ""
        message = f'<p role="alert" class="error">{html.escape(error)}</p>' if error else ""
        user_field = (
            '<label for="acct">E-mail</label> <input id="acct" name="email" autocomplete="off">'
            if query.get("run", "") in self.redesigned
            else '<label for="user">Username</label> <input id="user" name="username" autocomplete="off">'
        )
        return _page(
            "Sign in",
            f"<h1>Sign in</h1>{message}"
            f'<form method="post" action="/login?run={run}{banner}">{user_field}<br>'
            '<label for="pw">Password</label> <input id="pw" name="password" type="password"><br>'
            '<button type="submit">Log in</button></form>' + (_BANNER if query.get("banner") else ""),
        )

    def _login(self, handler: SimpleHTTPRequestHandler) -> tuple[int, dict[str, str], bytes]:
        query = self._query(handler)
        html_type = {"Content-Type": "text/html; charset=utf-8"}
        if handler.command != "POST":
            return 200, html_type, self._form(query)
        length = int(handler.headers.get("Content-Length") or 0)
        fields = {k: v[-1] for k, v in parse_qs(handler.rfile.read(length).decode()).items()}
        run = query.get("run", "")
        with self._lock:
            self.login_posts[run] += 1
        if (fields.get("username"), fields.get("password")) != (USER, PASSWORD):
            return 200, html_type, self._form(query, "Wrong username or password.")
        token = secrets.token_hex(8)
        with self._lock:
            self._sessions[token] = USER
        banner = "&banner=1" if query.get("banner") else ""
        return (
            303,
            {
                "Location": f"/account?run={run}{banner}",
                "Set-Cookie": f"session={token}; Path=/; HttpOnly; SameSite=Lax",
            },
            b"",
        )

    def _account(self, handler: SimpleHTTPRequestHandler) -> tuple[int, dict[str, str], bytes]:
        query = self._query(handler)
        user = self._user(handler)
        if user is None:
            run = query.get("run", "")
            return 303, {"Location": f"/login?run={run}"}, b""
        banner = _BANNER if query.get("banner") else ""
        body = f'<h1>Your account</h1><p>Welcome, {user}!</p><a href="/logout">Log out</a>{banner}'
        return 200, {"Content-Type": "text/html; charset=utf-8"}, _page("Your account", body)

    def _banner(self, handler: SimpleHTTPRequestHandler) -> tuple[int, dict[str, str], bytes]:
        with self._lock:
            self.banners[self._query(handler).get("run", "")] += 1
        return 200, {"Content-Type": "application/json"}, b"{}"
