"""Changes asked through the user's situation, in real runs on a small stateful members' site (its own markup):
a booking cancelled when the user only says what they will miss ('I can't make Thursday's pilates. Please
cancel it'), an order opened from its number on the row that names it and cancelled with the reason the user
gave chosen from the page's list, and an item ordered again by ticking it on a repeat-order form and choosing
where to collect it. The site's state says what was done; nothing else may change, and a reason the user never
gave is never chosen for them."""

from __future__ import annotations

import html
from collections.abc import Iterator
from http.server import SimpleHTTPRequestHandler

import pytest

from agent.runner import run_goal
from agent.util.static_server import StaticServer
from tests.support.factories import offline_context
from tests.support.small_site import Response, flash, page, posted, query, redirect

SITE = "Ashcombe Art Club"
LOGIN = "Member AV-3310, password Larch-41."
BOOKINGS = {
    "B-101": ("Pilates", "Tuesday 1 December 2026", "18:00"),
    "B-102": ("Pilates", "Thursday 3 December 2026", "18:00"),
    "B-103": ("Book club", "Thursday 3 December 2026", "19:30"),
    "B-104": ("Quiz night", "Saturday 5 December 2026", "19:00"),
}
ORDERS = {
    "AO-5501": ("Watercolour pad A4", "Delivered"),
    "AO-5522": ("Watercolour pad A4", "Awaiting dispatch"),
    "AO-5530": ("Sketchbook, spiral bound", "Awaiting dispatch"),
}
REASONS = (
    "Choose a reason",
    "I found it cheaper elsewhere",
    "My plans have changed",
    "I ordered the wrong size",
)
ITEMS = {"p1": "Acrylic paint set (12 colours)", "p2": "Sketchbook, spiral bound", "p3": "Watercolour pad A4"}
PLACES = ("Collect from Northgate", "Collect from Harbour Street", "Deliver to my address")
STATE: dict[str, object] = {}
NAV = "<a href='/account'>My account</a> <a href='/login'>Sign in</a>"


def _reset() -> None:
    STATE.update(signed_in=False, bookings=dict.fromkeys(BOOKINGS, "Booked"), reasons={}, new_orders=[])
    STATE["orders"] = {k: v[1] for k, v in ORDERS.items()}


def _shell(title: str, body: str, handler: SimpleHTTPRequestHandler) -> Response:
    aside = (
        "<aside><h3>Your account</h3><a href='/account/bookings'>My bookings</a> <a href='/account/orders'>"
        "My orders</a> <a href='/account/reorder'>Order again</a><p>Home studio: Northgate</p></aside>"
    )
    return page(SITE, title, flash(handler) + body, nav=NAV, aside=aside if STATE["signed_in"] else "")


def _home(handler: SimpleHTTPRequestHandler) -> Response:
    return _shell("Home", "<h1>Ashcombe Art Club</h1><p>Classes, clubs and art supplies.</p>", handler)


def _login(handler: SimpleHTTPRequestHandler) -> Response:
    if handler.command == "POST":
        sent = {k: v[-1] for k, v in posted(handler).items()}
        if sent.get("member") == "AV-3310" and sent.get("password") == "Larch-41":
            STATE["signed_in"] = True
            return redirect("/account")
        return _shell("Sign in", "<h1>Sign in</h1><p role='alert'>Those details are not right.</p>", handler)
    return _shell(
        "Sign in",
        "<h1>Sign in</h1><form method='post'><label for='m'>Member number</label><input id='m' name='member'>"
        "<label for='p'>Password</label><input id='p' name='password' type='password'><button>Sign in</button>"
        "</form>",
        handler,
    )


def _signed_in(handler: SimpleHTTPRequestHandler) -> Response | None:
    return None if STATE["signed_in"] else redirect("/login")


def _account(handler: SimpleHTTPRequestHandler) -> Response:
    return _signed_in(handler) or _shell(
        "My account",
        "<h1>My account</h1><p>Welcome back, Priya.</p><p>Membership renews in March.</p>",
        handler,
    )


def _bookings(handler: SimpleHTTPRequestHandler) -> Response:
    rows = "".join(
        f"<tr><td>{ref}</td><td>{what}</td><td>{day}</td><td>{time}</td><td>{STATE['bookings'][ref]}</td><td>"
        + (
            f"<a href='/account/cancel-booking?ref={ref}'>Cancel</a>"
            if STATE["bookings"][ref] == "Booked"
            else ""
        )
        + "</td></tr>"
        for ref, (what, day, time) in BOOKINGS.items()
    )
    head = "<tr><th>Ref</th><th>Session</th><th>Date</th><th>Time</th><th>Status</th><th></th></tr>"
    return _signed_in(handler) or _shell(
        "My bookings", f"<h1>My bookings</h1><table>{head}{rows}</table>", handler
    )


def _cancel_booking(handler: SimpleHTTPRequestHandler) -> Response:
    ref = query(handler, "ref")
    what, day, _ = BOOKINGS[ref]
    if handler.command == "POST":
        STATE["bookings"][ref] = "Cancelled"
        return redirect("/account/bookings", f"We've cancelled your place at {what} on {day}.")
    return _signed_in(handler) or _shell(
        "Cancel booking",
        f"<h1>Cancel {what} on {day}?</h1><form method='post' action='/account/cancel-booking?ref={ref}'>"
        "<button>Yes, cancel it</button> <a href='/account/bookings'>No, keep it</a></form>",
        handler,
    )


def _orders(handler: SimpleHTTPRequestHandler) -> Response:
    rows = "".join(
        f"<tr><td><a href='/account/order?n={n}'>{n}</a></td><td>{html.escape(item)}</td>"
        f"<td>{STATE['orders'][n]}</td></tr>"
        for n, (item, _) in ORDERS.items()
    )
    head = "<tr><th>Order</th><th>Items</th><th>Status</th></tr>"
    return _signed_in(handler) or _shell(
        "My orders", f"<h1>My orders</h1><table>{head}{rows}</table>", handler
    )


def _order(handler: SimpleHTTPRequestHandler) -> Response:
    n = query(handler, "n")
    item, _ = ORDERS[n]
    cancel = f"<p><a href='/account/cancel-order?n={n}'>Cancel this order</a></p>"
    body = (
        f"<h1>Order {n}</h1><dl><dt>Items</dt><dd>{html.escape(item)}</dd><dt>Status</dt>"
        f"<dd>{STATE['orders'][n]}</dd></dl>{cancel if STATE['orders'][n] == 'Awaiting dispatch' else ''}"
    )
    return _signed_in(handler) or _shell(f"Order {n}", body, handler)


def _cancel_order(handler: SimpleHTTPRequestHandler) -> Response:
    n = query(handler, "n")
    problem = ""
    if handler.command == "POST":
        reason = posted(handler).get("reason", [""])[-1]
        if reason and reason != REASONS[0]:
            STATE["orders"][n] = "Cancelled"
            STATE["reasons"][n] = reason
            return redirect(f"/account/order?n={n}", f"Order {n} has been cancelled.")
        problem = "<div role='alert'><h2>There is a problem</h2><p>Tell us why you're cancelling</p></div>"
    options = "".join(f"<option>{html.escape(r)}</option>" for r in REASONS)
    return _signed_in(handler) or _shell(
        "Cancel order",
        f"<h1>Cancel order {n}?</h1>{problem}<form method='post' action='/account/cancel-order?n={n}'>"
        f"<label for='r'>Why are you cancelling?</label><select id='r' name='reason'>{options}</select>"
        f"<button>Cancel order</button> <a href='/account/order?n={n}'>Keep order</a></form>",
        handler,
    )


def _reorder(handler: SimpleHTTPRequestHandler) -> Response:
    if handler.command == "POST":
        sent = posted(handler)
        items = [ITEMS[k] for k in sent.get("item", []) if k in ITEMS]
        STATE["news"] = bool(sent.get("news"))
        where = sent.get("where", [""])[-1]
        if items and where in PLACES:
            STATE["new_orders"].append((items, where))
            listed = "".join(f"<li>{html.escape(i)}</li>" for i in items)
            return _shell(
                "Order placed",
                f"<h1>Order placed</h1><p>Thank you. Your order AO-5600 is on its way to the shop.</p><dl>"
                f"<dt>Items</dt><dd><ul>{listed}</ul></dd><dt>Delivery</dt><dd>{html.escape(where)}</dd></dl>",
                handler,
            )
    boxes = "".join(
        f"<p><input type='checkbox' id='{k}' name='item' value='{k}'><label for='{k}'>{html.escape(v)}</label></p>"
        for k, v in ITEMS.items()
    )
    places = "".join(f"<option>{html.escape(p)}</option>" for p in PLACES)
    return _signed_in(handler) or _shell(
        "Order again",
        f"<h1>Order again</h1><form method='post'><fieldset><legend>Things you've ordered before</legend>{boxes}"
        "</fieldset><p><input type='checkbox' id='news' name='news' value='yes'><label for='news'>Email me about new "
        f"acrylic paint ranges</label></p><label for='w'>How would you like to get it?</label><select id='w' name='where'>{places}"
        "</select><button>Place order</button></form>",
        handler,
    )


ROUTES = {
    "/": _home, "/login": _login, "/account": _account, "/account/bookings": _bookings,
    "/account/cancel-booking": _cancel_booking, "/account/orders": _orders, "/account/order": _order,
    "/account/cancel-order": _cancel_order, "/account/reorder": _reorder,
}  # fmt: skip


@pytest.fixture(scope="module")
def club_url(tmp_path_factory) -> Iterator[str]:
    with StaticServer(tmp_path_factory.mktemp("club"), routes=ROUTES) as server:
        yield server.base_url


async def _run(session, club_url: str, tmp_path, goal: str) -> dict:
    _reset()
    ctx = offline_context(
        tmp_path / "runs",
        action_timeout_s=5.0,
        max_steps=20,
        allowed_domains=["127.0.0.1"],
        confirm_policy="auto",
    )
    return await run_goal(goal, ctx, start_url=club_url + "/", session=session)


async def test_cancel_it_cancels_the_session_the_user_says_they_will_miss(session, club_url, tmp_path):
    result = await _run(
        session, club_url, tmp_path,
        f"We're visiting family that week, so I can't make Thursday's pilates. Please cancel it. {LOGIN}",
    )  # fmt: skip
    assert result["terminal_type"] == "goal_satisfied", result["stop_reason"]
    assert STATE["bookings"] == {
        "B-101": "Booked",
        "B-102": "Cancelled",
        "B-103": "Booked",
        "B-104": "Booked",
    }


async def test_a_session_the_user_names_wrongly_is_never_cancelled_in_its_place(session, club_url, tmp_path):
    for goal in (
        "I won't make the book club on Friday after all, so could you cancel my booking for it?",
        "I can't make the pilates or the quiz night. Please cancel them.",  # (two: never one of them, called done)
        "I can no longer make Thursday's pilates. Please cancel it and book me on the quiz night.",
    ):
        result = await _run(session, club_url, tmp_path, f"{goal} {LOGIN}")
        assert result["terminal_type"] != "goal_satisfied", (goal, result["final_answer"])
        assert set(STATE["bookings"].values()) == {"Booked"}, goal


async def test_an_order_is_cancelled_from_its_own_page_with_the_reason_the_user_gave(
    session, club_url, tmp_path
):
    result = await _run(
        session, club_url, tmp_path,
        "My plans have changed, so I need to cancel the watercolour pad order that's still awaiting dispatch. "
        + LOGIN,
    )  # fmt: skip
    assert result["terminal_type"] == "goal_satisfied", result["stop_reason"]
    assert STATE["orders"] == {"AO-5501": "Delivered", "AO-5522": "Cancelled", "AO-5530": "Awaiting dispatch"}
    assert STATE["reasons"] == {"AO-5522": "My plans have changed"}


async def test_no_reason_is_made_up_for_the_user(session, club_url, tmp_path):
    for goal in (
        "Please cancel the sketchbook order that's awaiting dispatch.",
        "Please cancel the watercolour pad order that's awaiting dispatch. My plans have not changed, I just "
        "don't want it.",
        "Please cancel the watercolour pad order that's awaiting dispatch; I ordered it in A4 size.",
    ):
        result = await _run(session, club_url, tmp_path, f"{goal} {LOGIN}")
        assert result["terminal_type"] != "goal_satisfied", (goal, result["final_answer"])
        assert set(STATE["orders"].values()) == {"Delivered", "Awaiting dispatch"} and not STATE["reasons"], (
            goal
        )


async def test_an_item_ordered_again_is_ticked_and_collected_where_asked(session, club_url, tmp_path):
    result = await _run(
        session, club_url, tmp_path,
        f"Please order my acrylic paint set again and have it ready to collect at the Harbour Street shop. {LOGIN}",
    )  # fmt: skip
    assert result["terminal_type"] == "goal_satisfied", result["stop_reason"]
    assert STATE["new_orders"] == [(["Acrylic paint set (12 colours)"], "Collect from Harbour Street")]
    assert STATE["news"] is False  # (the box offering news of acrylic paints is never ticked for the user)
    assert "Acrylic paint set" in str(result.get("final_answer") or "") + str(result.get("evidence") or "")
