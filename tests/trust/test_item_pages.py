"""Acting on an item whose control is on its own page, and answering on a site that the question names, in real
runs on a small stateful site (its own markup): a class joined from its page through a catalogue and a
confirmation that asks for a tick, a token revoked after typing its name, an invoice's total read from the
invoice that the billing section lists, and a price asked "at <site>" read from the site's own content but
never from a side block about another venue. The server's state says what was done."""

from __future__ import annotations

import html
from collections.abc import Iterator
from http.server import SimpleHTTPRequestHandler
from pathlib import Path
from urllib.parse import parse_qs, quote, urlsplit

import pytest

from agent.runner import run_goal
from agent.util.static_server import StaticServer
from tests.support.factories import offline_context

CLASSES = {
    "1": ("Pottery for Beginners", 4),
    "2": ("Life Drawing", 0),
    "3": ("Pottery Glazing Masterclass", 2),
}
TOKENS = {"t1": "deploy-bot-old", "t2": "deploy-bot", "t3": "metrics"}
STATE: dict[str, dict] = {}
_HTML = {"Content-Type": "text/html; charset=utf-8"}


def _reset() -> None:
    STATE["joined"] = {"3": True}
    STATE["tokens"] = {k: "Active" for k in TOKENS}


def _page(title: str, body: str, aside: str = "") -> tuple[int, dict[str, str], bytes]:
    doc = (
        f"<!doctype html><html><head><title>{html.escape(title)} - Quayside Arts Centre</title></head><body>"
        "<header><a href='/'>Quayside Arts Centre</a> <nav><a href='/account'>My classes</a> "
        "<a href='/classes'>Class list</a> <a href='/billing'>Billing</a> <a href='/tokens'>Access tokens</a> "
        f"<a href='/prices'>Prices</a></nav></header><main>{body}</main>{aside}</body></html>"
    )
    return 200, _HTML, doc.encode()


def _query(handler: SimpleHTTPRequestHandler, name: str) -> str:
    return parse_qs(urlsplit(handler.path).query).get(name, [""])[-1]


def _form(handler: SimpleHTTPRequestHandler) -> dict[str, str]:
    length = int(handler.headers.get("Content-Length") or 0)
    return {k: v[-1] for k, v in parse_qs(handler.rfile.read(length).decode()).items()}


def _account(handler: SimpleHTTPRequestHandler) -> tuple[int, dict[str, str], bytes]:
    msg = _query(handler, "msg")
    mine = "".join(f"<li>{html.escape(CLASSES[k][0])}</li>" for k in STATE["joined"])
    flash = f"<p role='status'>{html.escape(msg)}</p>" if msg else ""
    return _page("My classes", f"{flash}<h1>My classes</h1><ul>{mine}</ul>")


def _classes(handler: SimpleHTTPRequestHandler) -> tuple[int, dict[str, str], bytes]:
    rows = "".join(
        f"<tr><td><a href='/class?id={k}'>{html.escape(t)}</a></td><td>{places} places left</td></tr>"
        for k, (t, places) in CLASSES.items()
    )
    return _page(
        "Class list", f"<h1>Class list</h1><table><tr><th>Class</th><th>Places</th></tr>{rows}</table>"
    )


def _class(handler: SimpleHTTPRequestHandler) -> tuple[int, dict[str, str], bytes]:
    key = _query(handler, "id")
    title, places = CLASSES[key]
    if key in STATE["joined"]:
        action = "<p>You are booked on this class.</p>"
    elif places:
        action = f"<p><a href='/enrol?id={key}'>Enrol on this class</a></p>"
    else:
        action = "<p>This class is full.</p>"
    return _page(title, f"<h1>{html.escape(title)}</h1><p>Six Tuesday evenings in the studio.</p>{action}")


def _enrol(handler: SimpleHTTPRequestHandler) -> tuple[int, dict[str, str], bytes]:
    key = _query(handler, "id")
    title = CLASSES[key][0]
    error = ""
    if handler.command == "POST":
        if _form(handler).get("ack") == "1" and CLASSES[key][1]:
            STATE["joined"][key] = True
            return 303, {"Location": "/account?msg=" + quote(f"You are now enrolled on {title}.")}, b""
        error = "<p role='alert'>Please confirm you have read the studio safety notes.</p>"
    return _page(
        "Confirm enrolment",
        f"{error}<h1>Confirm enrolment</h1><p>You are about to enrol on {html.escape(title)}.</p>"
        f"<form method='post' action='/enrol?id={key}'><input type='checkbox' id='ack' name='ack' value='1'>"
        "<label for='ack'>I have read the studio safety notes</label> <button>Confirm enrolment</button> "
        f"<a href='/class?id={key}'>Back</a></form>",
    )


def _tokens(handler: SimpleHTTPRequestHandler) -> tuple[int, dict[str, str], bytes]:
    msg = _query(handler, "msg")
    rows = "".join(
        f"<tr><td>{name}</td><td>{STATE['tokens'][k]}</td><td>"
        + (f"<a href='/revoke?id={k}'>Revoke</a>" if STATE["tokens"][k] == "Active" else "")
        + "</td></tr>"
        for k, name in TOKENS.items()
    )
    flash = f"<p role='status'>{html.escape(msg)}</p>" if msg else ""
    return _page("Access tokens", f"{flash}<h1>Access tokens</h1><table>{rows}</table>")


def _revoke(handler: SimpleHTTPRequestHandler) -> tuple[int, dict[str, str], bytes]:
    key = _query(handler, "id")
    name = TOKENS[key]
    if handler.command == "POST":
        if _form(handler).get("confirm_name") == name:
            STATE["tokens"][key] = "Revoked"
            return 303, {"Location": "/tokens?msg=" + quote(f"Token {name} has been revoked.")}, b""
        return _page("Revoke token", "<h1>Revoke token</h1><p role='alert'>The name does not match.</p>")
    return _page(
        "Revoke token",
        f"<h1>Revoke token</h1><p>Are you sure you want to revoke {name}? This cannot be undone.</p>"
        f"<form method='post' action='/revoke?id={key}'><label for='c'>Type the token name to confirm</label> "
        "<input id='c' name='confirm_name'> <button>Revoke token</button></form>",
    )


def _billing(handler: SimpleHTTPRequestHandler) -> tuple[int, dict[str, str], bytes]:
    rows = "".join(
        f"<tr><td><a href='/invoice?n={n}'>{n}</a></td><td>{amount}</td></tr>"
        for n, amount in (("INV-2024-0011", "£40.00"), ("INV-2024-0012", "£88.10"))
    )
    return _page("Billing", f"<h1>Billing</h1><table><tr><th>Invoice</th><th>Amount</th></tr>{rows}</table>")


def _invoice(handler: SimpleHTTPRequestHandler) -> tuple[int, dict[str, str], bytes]:
    n = _query(handler, "n")
    total = {"INV-2024-0011": "£40.00", "INV-2024-0012": "£88.10"}[n]
    return _page(n, f"<h1>Invoice {n}</h1><table><tr><td>Studio hire</td><td>{total}</td></tr>"
                    f"<tr><td>Total</td><td>{total}</td></tr></table>")  # fmt: skip


def _prices(handler: SimpleHTTPRequestHandler) -> tuple[int, dict[str, str], bytes]:
    own = _query(handler, "own") != "0"
    table = "<table><tr><th>Ticket</th><th>Price</th></tr><tr><td>Adult</td><td>£11.00</td></tr>" + (
        "<tr><td>Senior</td><td>£7.20</td></tr>" if own else ""
    ) + "</table>"  # fmt: skip
    aside = "<aside><h3>At our sister venue</h3><p>Senior tickets at The Rex cinema: £5.50</p></aside>"
    return _page("Prices", f"<h1>Film tickets</h1>{table}", aside)


def _course(handler: SimpleHTTPRequestHandler) -> tuple[int, dict[str, str], bytes]:
    """A course's own page: its facts as a property sheet beside another table like it, another venue's course in
    a side block."""
    sheet = "".join(
        f"<tr><th>{k}</th><td>{v}</td></tr>" for k, v in (("Department", "Ceramics"), ("Tutor", "Dr. Mina Osei"),
                                                         ("Room", "Studio 2"))
    )  # fmt: skip
    aside = "<aside><h3>At The Rex</h3><p>Life Drawing, taught by Sam Pryce</p></aside>"
    assessed = (
        "<h2>Assessment</h2><table class='grid'><tr><th>Component</th><th>Weight</th></tr><tr><td>Portfolio</td>"
        "<td>100%</td></tr></table>"
    )
    body = f"<h1>CER101: Pottery for Beginners</h1><table class='grid'>{sheet}</table>{assessed}"
    return _page("Pottery for Beginners", body, aside)


@pytest.fixture(scope="module")
def arts_url() -> Iterator[str]:
    _reset()
    routes = {"/account": _account, "/classes": _classes, "/class": _class, "/enrol": _enrol, "/tokens": _tokens,
              "/revoke": _revoke, "/billing": _billing, "/invoice": _invoice, "/prices": _prices, "/course": _course}  # fmt: skip
    with StaticServer(Path(__file__).parent / "pages", routes=routes) as server:
        yield server.base_url


@pytest.fixture
def run(session, arts_url, tmp_path):
    """``await run(goal, path)``: a run from ``path`` on a fresh site."""

    async def go(goal: str, path: str = "/account"):
        _reset()
        ctx = offline_context(
            tmp_path / "runs", action_timeout_s=5.0, max_seconds=60.0, confirm_policy="auto"
        )
        return await run_goal(goal, ctx, start_url=arts_url + path, session=session)

    return go


async def test_a_class_is_joined_from_its_own_page_ticking_what_the_confirmation_asks(run):
    result = await run("enrol me on Pottery for Beginners")
    assert (result["terminal_type"], result["terminal_reason"]) == ("goal_satisfied", "action_verified")
    assert "enrolled on Pottery for Beginners" in result["final_answer"]
    assert set(STATE["joined"]) == {"1", "3"}


async def test_a_full_class_is_no_success(run):
    result = await run("enrol me on Life Drawing")
    assert result["terminal_type"] != "goal_satisfied"
    assert set(STATE["joined"]) == {"3"}


async def test_a_token_is_revoked_by_its_exact_name_typed_to_confirm(run):
    result = await run("revoke the access token named deploy-bot", path="/tokens")
    assert result["terminal_type"] == "goal_satisfied", result.get("stop_reason")
    assert STATE["tokens"] == {"t1": "Active", "t2": "Revoked", "t3": "Active"}  # not 'deploy-bot-old'


async def test_an_invoice_total_is_read_from_the_invoice_the_billing_section_lists(run):
    result = await run("find out the total amount of invoice INV-2024-0012")
    assert result["terminal_type"] == "goal_satisfied", result.get("stop_reason")
    assert "88.10" in result["final_answer"]


async def test_a_price_asked_at_the_site_is_read_from_its_own_content(run):
    result = await run("How much is a senior ticket at Quayside Arts Centre?", path="/prices")
    assert result["terminal_type"] == "goal_satisfied", result.get("stop_reason")
    assert "7.20" in result["final_answer"]


async def test_a_side_block_about_a_sister_venue_does_not_answer_for_the_site(run):
    result = await run("How much is a senior ticket at Quayside Arts Centre?", path="/prices?own=0")
    assert result["terminal_type"] != "goal_satisfied"
    assert "5.50" not in str(result["final_answer"] or "")


async def test_who_teaches_a_course_at_the_site_is_read_from_the_courses_own_page(run):
    """The course's page never repeats the centre's name: the site's own content speaks for it."""
    result = await run("Who teaches Pottery for Beginners at Quayside Arts Centre?", path="/course")
    assert result["terminal_type"] == "goal_satisfied", result.get("stop_reason")
    assert "Mina Osei" in result["final_answer"]


async def test_a_side_block_does_not_answer_for_the_site_it_sits_on(run):
    result = await run("Who teaches Life Drawing at Quayside Arts Centre?", path="/course")
    assert result["terminal_type"] != "goal_satisfied"
