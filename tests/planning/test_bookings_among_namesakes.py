"""A booking whose item has namesakes: search results list the same walk twice, told apart only by the day on the
line under each link. The planner opens the one of the day asked, fills its form (the count of places before
what they are for: '2 places on the winter walk') and is satisfied by the confirmation; the server's state
says which walk was booked. A real graph run of the offline planner in real Chromium on its own small site."""

from __future__ import annotations

import html
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import parse_qs

import pytest

from agent.planning.offline.records.bookings import read_booking
from agent.runner import run_goal
from agent.util.static_server import StaticServer
from tests.support.factories import offline_context

_HTML = {"Content-Type": "text/html; charset=utf-8"}
WALKS = {"w1": "Saturday 5 December 2026, 10:00", "w2": "Saturday 12 December 2026, 10:00"}
BOOKED: list[dict[str, str]] = []
GOAL = (
    "Please book 2 places on the winter walk on Hallam Moor on Saturday 12 December 2026. Name: Ola Berg, "
    "email ola.berg@example.com."
)


def _page(title: str, body: str) -> tuple[int, dict[str, str], bytes]:
    doc = (
        f"<!doctype html><html><head><title>{html.escape(title)} | Hallam Rangers</title></head><body>"
        "<header><a href='/'>Hallam Rangers</a><form action='/search'><label>Search <input name='q'></label>"
        "<button>Go</button></form></header>"
        f"<main>{body}</main></body></html>"
    )
    return 200, _HTML, doc.encode()


def _search(handler) -> tuple[int, dict[str, str], bytes]:
    items = "".join(
        f"<li><h2><a href='/walks/{key}'>Winter walk: Hallam Moor</a></h2><p>{day}</p></li>"
        for key, day in WALKS.items()
    )
    return _page("Search", f"<h1>Search</h1><p>2 results</p><ol>{items}</ol>")


def _walk(handler) -> tuple[int, dict[str, str], bytes]:
    key = handler.path.rstrip("/").split("/")[-1]
    if handler.command == "POST":
        length = int(handler.headers.get("Content-Length") or 0)
        form = {k: v[-1] for k, v in parse_qs(handler.rfile.read(length).decode()).items()}
        BOOKED.append({**form, "walk": key})
        return _page(
            "Booking confirmed",
            f"<h1>Booking confirmed</h1><p>Winter walk: Hallam Moor, {WALKS[key]}</p>"
            f"<p>{html.escape(form.get('places', ''))} places for {html.escape(form.get('name', ''))}. We've emailed "
            f"{html.escape(form.get('email', ''))}.</p>",
        )
    places = "".join(f"<option>{n}</option>" for n in range(1, 6))
    return _page(
        "Winter walk: Hallam Moor",
        f"<h1>Winter walk: Hallam Moor</h1><p>{WALKS[key]}. Meet at the car park.</p>"
        f"<form method='post' action='/walks/{key}'><label>Places <select name='places'>{places}</select></label>"
        "<label>Full name <input name='name'></label><label>Email <input type='email' name='email'></label>"
        "<button>Book places</button></form>",
    )


@pytest.fixture(scope="module")
def rangers_url() -> Iterator[str]:
    routes = {"/search": _search, "/walks/w1": _walk, "/walks/w2": _walk}
    with StaticServer(Path(__file__).parent, routes=routes) as server:
        yield server.base_url


def test_the_count_of_places_is_no_item():
    goal = read_booking(GOAL)
    assert goal is not None and goal.about == "winter walk"
    assert ("places", "2 places") in goal.settings


async def test_the_namesake_of_the_day_asked_is_booked(session, rangers_url, tmp_path):
    BOOKED.clear()
    ctx = offline_context(
        tmp_path / "runs", action_timeout_s=5.0, max_seconds=90.0, max_steps=15, confirm_policy="auto"
    )
    result = await run_goal(GOAL, ctx, start_url=rangers_url + "/search?q=winter+walk", session=session)
    assert (result["terminal_type"], result["terminal_reason"]) == ("goal_satisfied", "action_verified"), (
        result
    )
    [booking] = BOOKED
    assert (booking["walk"], booking["places"], booking["name"], booking["email"]) == (
        "w2",
        "2",
        "Ola Berg",
        "ola.berg@example.com",
    )
