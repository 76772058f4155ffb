"""Quillbox tracker: requests, responses, sessions and anti-forgery tokens on a plain WSGI stack."""

from __future__ import annotations

import secrets
import sqlite3
import time
from dataclasses import dataclass, field
from http.cookies import SimpleCookie
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, quote

from tests.apps.tracker.pages import page

TOKEN_COOKIE = "qb_form_token"
SESSION_COOKIE = "qb_auth"


class HttpError(Exception):
    def __init__(self, status: str, message: str) -> None:
        super().__init__(message)
        self.status = status
        self.message = message


@dataclass
class Request:
    """One request: its path, query and form values, cookies, the signed-in user and the form token."""

    environ: dict[str, Any]
    db: sqlite3.Connection
    method: str = ""
    path: str = ""
    query: dict[str, list[str]] = field(default_factory=dict)
    form: dict[str, list[str]] = field(default_factory=dict)
    cookies: dict[str, str] = field(default_factory=dict)
    user: str | None = None
    token: str = ""
    new_cookies: list[str] = field(default_factory=list)

    @classmethod
    def read(cls, environ: dict[str, Any], db: sqlite3.Connection) -> Request:
        req = cls(environ, db, environ["REQUEST_METHOD"], environ.get("PATH_INFO") or "/")
        req.query = parse_qs(environ.get("QUERY_STRING", ""), keep_blank_values=True)
        if req.method == "POST":
            size = int(environ.get("CONTENT_LENGTH") or 0)
            raw = environ["wsgi.input"].read(size).decode("utf-8", "replace")
            req.form = parse_qs(raw, keep_blank_values=True)
        jar = SimpleCookie(environ.get("HTTP_COOKIE", ""))
        req.cookies = {k: m.value for k, m in jar.items()}
        req.token = req.cookies.get(TOKEN_COOKIE) or ""
        if not req.token:
            req.token = secrets.token_hex(12)
            req.new_cookies.append(f"{TOKEN_COOKIE}={req.token}; Path=/; HttpOnly")
        sid = req.cookies.get(SESSION_COOKIE)
        if sid:
            row = db.execute("SELECT username FROM session WHERE sid = ?", (sid,)).fetchone()
            req.user = row[0] if row else None
        return req

    def arg(self, name: str, default: str = "") -> str:
        values = self.form.get(name) if self.method == "POST" else None
        values = values if values is not None else self.query.get(name)
        return values[0] if values else default

    def args(self, name: str) -> list[str]:
        return self.form.get(name) or self.query.get(name) or []

    def check_token(self) -> None:
        """Every POST must carry the token of the cookie this browser was given: no cross-site posts."""
        sent = (self.form.get("__token") or [""])[0]
        if not sent or not self.cookies.get(TOKEN_COOKIE) or sent != self.cookies[TOKEN_COOKIE]:
            raise HttpError(
                "400 Bad Request",
                "Missing or invalid form token. Do you have cookies enabled? Reload the form and try again.",
            )

    def sign_in(self, username: str) -> None:
        sid = secrets.token_hex(16)
        self.db.execute("INSERT INTO session VALUES (?, ?, ?)", (sid, username, int(time.time())))
        self.new_cookies.append(f"{SESSION_COOKIE}={sid}; Path=/; HttpOnly")
        self.user = username

    def sign_out(self) -> None:
        sid = self.cookies.get(SESSION_COOKIE)
        if sid:
            self.db.execute("DELETE FROM session WHERE sid = ?", (sid,))
        self.new_cookies.append(f"{SESSION_COOKIE}=; Path=/; Max-Age=0")
        self.user = None

    @property
    def author(self) -> str:
        return self.user or (self.arg("author").strip() or "anonymous")


@dataclass
class Response:
    status: str
    body: str = ""
    location: str = ""


def html(req: Request, title: str, body: str, *, flash: str = "", status: str = "200 OK") -> Response:
    return Response(status, page(title, body, user=req.user, token=req.token, flash=flash))


def redirect(location: str) -> Response:
    return Response("303 See Other", location=location)


def url(path: str) -> str:
    return quote(path, safe="/?=&")


def open_db(db_path: Path) -> sqlite3.Connection:
    con = sqlite3.connect(db_path, timeout=10)
    con.row_factory = sqlite3.Row
    return con
