"""Bookings made through a site's own forms, in real runs on a small stateful site (its own markup): the day, the
time and the party size go into the availability search, the item asked for is chosen among those free, the
booker's details and a tick of the conditions go into the details form, and the run ends satisfied only on the
page that confirms the booking. A booking the site refuses (a day it is closed) is no success. The server's
state says what was done."""

from __future__ import annotations

import html
from collections.abc import Iterator
from http.server import SimpleHTTPRequestHandler
from pathlib import Path
from urllib.parse import parse_qs, urlencode, urlsplit

import pytest

from agent.runner import run_goal
from agent.util.static_server import StaticServer
from tests.support.factories import offline_context

CRAFT = {"single": ("Single kayak", 1, 30), "double": ("Double kayak", 2, 45), "sup": ("Paddleboard", 1, 25)}
STATE: dict[str, list[dict[str, str]]] = {"bookings": []}
_HTML = {"Content-Type": "text/html; charset=utf-8"}


def _page(title: str, body: str) -> tuple[int, dict[str, str], bytes]:
    doc = (
        f"<!doctype html><html><head><title>{html.escape(title)} | Gullhaven Paddle Co.</title></head><body>"
        "<header><a href='/'>Gullhaven Paddle Co.</a><nav><a href='/trips'>Trips</a> <a href='/book'>Book now</a> "
        "<a href='/faq'>FAQ</a></nav></header>"
        f"<main>{body}</main><aside><h3>Also on the quay</h3><p>Seal trips with Tern Boats: £18 per adult.</p>"
        "</aside></body></html>"
    )
    return 200, _HTML, doc.encode()


def _query(handler: SimpleHTTPRequestHandler) -> dict[str, str]:
    return {k: v[-1] for k, v in parse_qs(urlsplit(handler.path).query).items()}


def _home(handler: SimpleHTTPRequestHandler) -> tuple[int, dict[str, str], bytes]:
    return _page("Kayak and paddleboard hire", "<h1>Paddle the Gullhaven estuary</h1><p>Hire by the session, "
                 "mornings at 09:00 and afternoons at 13:00. Closed on Mondays.</p><p><a href='/book'>Check "
                 "availability</a></p>")  # fmt: skip


def _book(handler: SimpleHTTPRequestHandler) -> tuple[int, dict[str, str], bytes]:
    q = _query(handler)
    times = "".join(
        f"<option{' selected' if q.get('time') == t else ''}>{t}</option>" for t in ("09:00", "13:00")
    )
    people = "".join(
        f"<option{' selected' if q.get('people') == str(n) else ''}>{n}</option>" for n in range(1, 5)
    )
    form = (
        "<h1>Check availability</h1><form method='get' action='/book'>"
        f"<label for='d'>Trip date</label><input type='date' id='d' name='date' value='{html.escape(q.get('date', ''))}'>"
        f"<label for='t'>Start time</label><select id='t' name='time'>{times}</select>"
        f"<label for='p'>People</label><select id='p' name='people'>{people}</select>"
        "<button type='submit'>Check availability</button></form>"
    )
    if not q.get("date"):
        return _page("Book a trip", form)
    rows = ""
    for key, (name, seats, price) in CRAFT.items():
        link = "/details?" + urlencode({**q, "craft": key})
        rows += (f"<tr><td><a href='/trips#{key}'>{name}</a><br><small>Seats {seats}</small></td>"
                 f"<td>£{price} per session</td><td><a href='{link}'>Select</a></td></tr>")  # fmt: skip
    return _page("Book a trip", f"{form}<h2>Free on {html.escape(q['date'])}</h2><table><tr><th>Craft</th>"
                 f"<th>Price</th><th></th></tr>{rows}</table>")  # fmt: skip


def _details(handler: SimpleHTTPRequestHandler) -> tuple[int, dict[str, str], bytes]:
    q = _query(handler) if handler.command == "GET" else {}
    if handler.command == "POST":
        length = int(handler.headers.get("Content-Length") or 0)
        q = {k: v[-1] for k, v in parse_qs(handler.rfile.read(length).decode()).items()}
        error = ""
        if not q.get("name") or "@" not in q.get("email", ""):
            error = "Please give the lead paddler's name and an email address."
        elif not q.get("agree"):
            error = "Please confirm you have read the safety rules."
        elif q.get("date", "") and __import__("datetime").date.fromisoformat(q["date"]).weekday() == 0:
            error = "Sorry, we are closed on Mondays. Please choose another day."
        if not error:
            STATE["bookings"].append(q)
            ref = f"GP-{400 + len(STATE['bookings'])}"
            craft = CRAFT[q["craft"]][0]
            return _page("Booking confirmed", f"<h1>Booking confirmed</h1><p>Your reference is {ref}.</p><table>"
                         f"<tr><th>Craft</th><td>{craft}</td></tr><tr><th>Date</th><td>{html.escape(q['date'])}</td></tr>"
                         f"<tr><th>Time</th><td>{html.escape(q['time'])}</td></tr>"
                         f"<tr><th>Lead paddler</th><td>{html.escape(q['name'])}</td></tr>"
                         f"<tr><th>Email</th><td>{html.escape(q['email'])}</td></tr>"
                         f"<tr><th>Mobile</th><td>{html.escape(q.get('phone', ''))}</td></tr></table>")  # fmt: skip
        q = {**q, "error": error}
    hidden = "".join(
        f"<input type='hidden' name='{k}' value='{html.escape(q.get(k, ''))}'>"
        for k in ("date", "time", "people", "craft")
    )
    flash = f"<p role='alert' class='error'>{html.escape(q['error'])}</p>" if q.get("error") else ""
    return _page("Your details", f"<h1>Your details</h1>{flash}<form method='post' action='/details'>{hidden}"
                 "<label for='n'>Lead paddler's full name</label><input id='n' name='name'>"
                 "<label for='e'>Email address</label><input id='e' type='email' name='email'>"
                 "<label for='m'>Mobile number</label><input id='m' type='tel' name='phone'>"
                 "<input type='checkbox' id='a' name='agree' value='1'><label for='a'>I have read the safety "
                 "rules</label><button type='submit'>Confirm booking</button></form>")  # fmt: skip


@pytest.fixture(scope="module")
def paddle_url() -> Iterator[str]:
    routes = {"/": _home, "/book": _book, "/details": _details}
    with StaticServer(Path(__file__).parent / "pages", routes=routes) as server:
        yield server.base_url


@pytest.fixture
def run(session, paddle_url, tmp_path):
    """``await run(goal)``: a run from the home page on a fresh site."""

    async def go(goal: str):
        STATE["bookings"].clear()
        ctx = offline_context(
            tmp_path / "runs", action_timeout_s=5.0, max_seconds=90.0, max_steps=25, confirm_policy="auto"
        )
        return await run_goal(goal, ctx, start_url=paddle_url + "/", session=session)

    return go


async def test_a_booking_is_made_in_its_stages_and_proven_by_its_confirmation(run):
    result = await run(
        "Book a double kayak for 2 people on Saturday 12 June 2027 at 13:00. Lead paddler Lena Fischer, "
        "lena.fischer@example.com, mobile 07700 900123."
    )
    assert (result["terminal_type"], result["terminal_reason"]) == ("goal_satisfied", "action_verified"), (
        result
    )
    [booking] = STATE["bookings"]
    assert (booking["date"], booking["time"], booking["people"], booking["craft"]) == (
        "2027-06-12",
        "13:00",
        "2",
        "double",
    )
    assert (booking["name"], booking["email"], booking["phone"]) == (
        "Lena Fischer",
        "lena.fischer@example.com",
        "07700 900123",
    )


async def test_a_booking_the_site_refuses_is_no_success(run):
    result = await run(
        "Book a single kayak for 1 person on Monday 14 June 2027 at 09:00. Lead paddler Lena Fischer, "
        "lena.fischer@example.com, mobile 07700 900123."
    )
    assert (result["terminal_type"], result["terminal_reason"]) == ("goal_failed", "action_rejected"), result
    assert "closed on Mondays" in result["stop_reason"]
    assert STATE["bookings"] == []
