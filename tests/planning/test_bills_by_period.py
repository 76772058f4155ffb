"""A bill asked for by its period behind a sign-in said as a favour: "Sign in to Mossbank Energy for me (email,
password P) and find out what my bill for October 2025 to March 2026 came to". The sign-in is read with its
details in brackets, 'what X came to' asks an amount, and the table's row is the one whose period cell names the
months asked ('1 October 2025 to 31 March 2026'), although its first cell is the bill's number. A real graph
run of the offline planner in real Chromium on a small site of its own markup."""

from __future__ import annotations

import html
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import parse_qs

import pytest

from agent.planning.offline.grammar import parse_goal
from agent.planning.offline.intents import Ask, Submit, TypeText
from agent.runner import run_goal
from agent.util.static_server import StaticServer
from tests.support.factories import offline_context

_HTML = {"Content-Type": "text/html; charset=utf-8"}
SIGNED_IN: dict[str, bool] = {"yes": False}
GOAL = (
    "Sign in to Mossbank Energy for me (r.okoro@example.net, password Tidewater-31) and find out what my bill "
    "for October 2025 to March 2026 came to."
)


def _page(title: str, body: str) -> tuple[int, dict[str, str], bytes]:
    nav = "<a href='/account/bills'>Bills</a> <a href='/logout'>Sign out</a>" if SIGNED_IN["yes"] else ""
    doc = (
        f"<!doctype html><html><head><title>{html.escape(title)} | Mossbank Energy</title></head><body>"
        f"<header><a href='/'>Mossbank Energy</a> <a href='/signin'>Sign in</a> {nav}</header>"
        f"<main>{body}</main></body></html>"
    )
    return 200, _HTML, doc.encode()


def _home(handler) -> tuple[int, dict[str, str], bytes]:
    return _page("Home", "<h1>Energy for the coast</h1><p>Sign in to see your bills.</p>")


def _signin(handler) -> tuple[int, dict[str, str], bytes]:
    if handler.command == "POST":
        length = int(handler.headers.get("Content-Length") or 0)
        form = {k: v[-1] for k, v in parse_qs(handler.rfile.read(length).decode()).items()}
        if (form.get("email"), form.get("password")) == ("r.okoro@example.net", "Tidewater-31"):
            SIGNED_IN["yes"] = True
            return _page(
                "Your account", "<h1>Welcome back, Rita</h1><p><a href='/account/bills'>Your bills</a></p>"
            )
    return _page(
        "Sign in",
        "<h1>Sign in</h1><form method='post' action='/signin'><label>Email address <input name='email'></label>"
        "<label>Password <input type='password' name='password'></label><button>Sign in</button></form>",
    )


def _bills(handler) -> tuple[int, dict[str, str], bytes]:
    if not SIGNED_IN["yes"]:
        return _signin(handler)
    rows = [
        ("MB-2041", "1 April 2025 to 30 September 2025", "£188.10"),
        ("MB-2290", "1 October 2025 to 31 March 2026", "£241.75"),
        ("MB-2517", "1 April 2026 to 30 September 2026", "£176.40"),
    ]
    body = "".join(f"<tr><td>{n}</td><td>{p}</td><td>{a}</td></tr>" for n, p, a in rows)
    return _page(
        "Your bills",
        "<h1>Your bills</h1><table><tr><th>Bill number</th><th>Period</th><th>Amount</th></tr>"
        f"{body}</table>",
    )


@pytest.fixture(scope="module")
def energy_url() -> Iterator[str]:
    routes = {"/": _home, "/signin": _signin, "/account/bills": _bills}
    with StaticServer(Path(__file__).parent, routes=routes) as server:
        yield server.base_url


def test_a_sign_in_said_as_a_favour_is_a_login():
    assert parse_goal(GOAL).intents == (
        TypeText("r.okoro@example.net", "email"),
        TypeText("Tidewater-31", "password"),
        Submit("login"),
        Ask("find out what my bill for October 2025 to March 2026 came to"),
    )


async def test_the_bill_of_the_period_asked_is_read_from_its_row(session, energy_url, tmp_path):
    SIGNED_IN["yes"] = False
    ctx = offline_context(tmp_path / "runs", action_timeout_s=5.0, max_seconds=90.0, max_steps=15)
    result = await run_goal(GOAL, ctx, start_url=energy_url + "/", session=session)
    assert (result["terminal_type"], result["terminal_reason"]) == ("goal_satisfied", "answer_found"), result
    assert "£241.75" in result["final_answer"]
