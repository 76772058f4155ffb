"""What the goal asked and the page did not give: a price asked in euros or dollars that the page gives in pounds,
last year's price where the page has only today's, a new email address or mobile number the site keeps pending
until a link or code is used, and tickets the site cut to fewer than asked while saying 'confirmed'. Real graph
runs of the offline planner in real Chromium on a small stateful site (its own markup); the server's state says
what was done. Each trap has its control: the same site answering or acting as asked ends satisfied."""

from __future__ import annotations

import html
from collections.abc import Iterator
from datetime import date
from http.server import SimpleHTTPRequestHandler
from pathlib import Path
from urllib.parse import parse_qs

import pytest

from agent.evidence import echoes_typed
from agent.planning.verify.asked_terms import currency_mismatch, past_time_unsaid, years_before_now
from agent.runner import run_goal
from agent.util.page_errors import not_done
from agent.util.static_server import StaticServer
from tests.support.factories import offline_context

_HTML = {"Content-Type": "text/html; charset=utf-8"}
LAST_YEAR = date.today().year - 1
STATE: dict[str, object] = {}


def _reset() -> None:
    STATE.clear()
    STATE.update(email="jo.marsh@example.com", mobile="07700 900111", postcode="QA1 2BB", orders=[])


def _page(title: str, body: str) -> tuple[int, dict[str, str], bytes]:
    doc = (
        f"<!doctype html><html><head><title>{html.escape(title)} | Quayside Arts</title></head><body>"
        "<header><a href='/'>Quayside Arts</a><nav><a href='/shop/lantern'>Shop</a> "
        "<a href='/account'>My account</a> <a href='/whats-on/snow-queen'>What's on</a></nav></header>"
        f"<main>{body}</main></body></html>"
    )
    return 200, _HTML, doc.encode()


def _form(handler: SimpleHTTPRequestHandler) -> dict[str, str]:
    length = int(handler.headers.get("Content-Length") or 0)
    return {k: v[-1] for k, v in parse_qs(handler.rfile.read(length).decode()).items()}


def _lantern(handler: SimpleHTTPRequestHandler) -> tuple[int, dict[str, str], bytes]:
    history = f"<p>Price in {LAST_YEAR}: £58.00</p>" if "history" in handler.path else ""
    return _page(
        "Harbour lantern",
        "<h1>Harbour lantern</h1><p>Hand-blown glass, made in our studio.</p>"
        f"<p class='price'>£64.00</p>{history}<p>Free delivery on orders over £80.</p>",
    )


def _account(handler: SimpleHTTPRequestHandler) -> tuple[int, dict[str, str], bytes]:
    """Details form: a new email waits for a link, a new mobile for a code; the name is saved at once."""
    notes = ""
    if handler.command == "POST":
        form = _form(handler)
        notes = "<p class='ok'>Thanks, your changes are in.</p>"
        if form.get("email") and form["email"] != STATE["email"]:
            notes += (
                f"<p>We've emailed a link to {html.escape(form['email'])}. Your email address will change "
                "once you follow it.</p>"
            )
        if form.get("mobile") and form["mobile"] != STATE["mobile"]:
            notes += (
                f"<p>We've texted a code to {html.escape(form['mobile'])}. Until you enter it we'll keep "
                f"using {STATE['mobile']}.</p>"
            )
        if form.get("display"):
            STATE["display"] = form["display"]
        if form.get("postcode") and form["postcode"] != STATE["postcode"]:
            STATE["draft"] = form["postcode"]  # kept as a draft until proof of address arrives
    if STATE.get("draft"):
        notes += (
            "<p>Change of address pending: send us proof of address first. Until then your postcode stays "
            f"{STATE['postcode']}.</p>"
        )
    return _page(
        "Your details",
        f"<h1>Your details</h1>{notes}<form method='post' action='/account'>"
        f"<label>Display name <input name='display' value='{html.escape(str(STATE.get('display', 'Jo')))}'></label>"
        f"<label>Email <input type='email' name='email' value='{STATE['email']}'></label>"
        f"<label>Mobile <input type='tel' name='mobile' value='{STATE['mobile']}'></label>"
        f"<label>Postcode <input name='postcode' value='{STATE.get('draft') or STATE['postcode']}'></label>"
        "<button>Save details</button></form>",
    )


def _show(handler: SimpleHTTPRequestHandler) -> tuple[int, dict[str, str], bytes]:
    """Tickets: at most 3 per household, said in a line after the confirmation."""
    if handler.command == "POST":
        form = _form(handler)
        asked = int(form.get("seats") or 1)
        given = min(asked, 3)
        STATE["orders"].append({**form, "given": given})  # type: ignore[union-attr]
        cut = (
            f"<p>You asked for {asked} seats; each household can book up to 3, so we've booked 3.</p>"
            if given != asked
            else ""
        )
        return _page(
            "Tickets booked",
            f"<h1>Tickets booked</h1><p>The Snow Queen, {html.escape(form.get('night', ''))}</p>"
            f"<ul><li>Seats: {given}</li><li>Name: {html.escape(form.get('who', ''))}</li>"
            f"<li>Email: {html.escape(form.get('mail', ''))}</li></ul>{cut}",
        )
    seats = "".join(f"<option>{n}</option>" for n in range(1, 9))
    return _page(
        "The Snow Queen",
        "<h1>The Snow Queen</h1><p>Our winter show, £12 a seat.</p><form method='post' action='/whats-on/snow-queen'>"
        "<label>Performance <select name='night'><option>Friday 17 December 2027</option>"
        "<option>Saturday 18 December 2027</option></select></label>"
        f"<label>Seats <select name='seats'>{seats}</select></label>"
        "<label>Name on the booking <input name='who'></label><label>Email <input type='email' name='mail'></label>"
        "<button>Book seats</button></form>",
    )


@pytest.fixture(scope="module")
def arts_url() -> Iterator[str]:
    routes = {
        "/shop/lantern": _lantern,
        "/shop/lantern-history": _lantern,
        "/account": _account,
        "/whats-on/snow-queen": _show,
    }
    with StaticServer(Path(__file__).parent / "pages", routes=routes) as server:
        yield server.base_url


@pytest.fixture
def run(session, arts_url, tmp_path):
    async def go(goal: str, path: str) -> dict:
        _reset()
        ctx = offline_context(
            tmp_path / "runs", action_timeout_s=5.0, max_seconds=90.0, max_steps=20, confirm_policy="auto"
        )
        return await run_goal(goal, ctx, start_url=arts_url + path, session=session)

    return go


def _ending(result: dict) -> tuple[str, str]:
    return result["terminal_type"], result["terminal_reason"]


async def test_a_price_asked_in_another_currency_is_not_the_pound_price(run):
    result = await run("How much is the harbour lantern in euros?", "/shop/lantern")
    assert result["terminal_type"] == "goal_failed" and result["final_answer"] is None, result
    assert "euros" in result["stop_reason"] and "£64.00" in (result["candidate_answer"] or "")
    control = await run("How much is the harbour lantern?", "/shop/lantern")
    assert _ending(control) == ("goal_satisfied", "answer_found") and "£64.00" in control["final_answer"]


async def test_last_year_s_price_is_not_today_s(run):
    result = await run("How much did the harbour lantern cost last year?", "/shop/lantern")
    assert result["terminal_type"] == "goal_failed" and result["final_answer"] is None, result
    assert str(LAST_YEAR) in result["stop_reason"]
    control = await run("How much did the harbour lantern cost last year?", "/shop/lantern-history")
    assert _ending(control) == ("goal_satisfied", "answer_found") and "£58.00" in control["final_answer"]


@pytest.mark.parametrize(
    "goal",
    [
        "Change my email address to jo.new@example.net",
        "Update my mobile number to 07700 900999",
        "Update my postcode to QA9 9ZZ",
    ],
)
async def test_a_change_waiting_for_a_link_or_code_is_not_made(run, goal):
    result = await run(goal, "/account")
    assert result["terminal_type"] == "goal_failed" and result["final_answer"] is None, result
    assert (STATE["email"], STATE["mobile"], STATE["postcode"]) == (
        "jo.marsh@example.com",
        "07700 900111",
        "QA1 2BB",
    )


async def test_a_change_the_site_saves_at_once_is_made(run):
    result = await run("Change my display name to Jo Marsh", "/account")
    assert _ending(result) == ("goal_satisfied", "action_verified"), result
    assert STATE["display"] == "Jo Marsh"


async def test_seats_cut_to_fewer_than_asked_are_no_booking_as_asked(run):
    result = await run(
        'Book 5 seats for The Snow Queen on Saturday 18 December 2027 for "Rosa Bell" with email '
        '"rosa.bell@example.org"',
        "/whats-on/snow-queen",
    )
    assert result["terminal_type"] == "goal_failed" and result["final_answer"] is None, result
    [order] = STATE["orders"]  # type: ignore[misc]
    assert (order["who"], order["mail"], order["seats"]) == ("Rosa Bell", "rosa.bell@example.org", "5")


async def test_seats_booked_as_asked_are_a_booking(run):
    result = await run(
        'Book 2 seats for The Snow Queen on Saturday 18 December 2027 for "Rosa Bell" with email '
        '"rosa.bell@example.org"',
        "/whats-on/snow-queen",
    )
    assert _ending(result) == ("goal_satisfied", "action_verified"), result
    [order] = STATE["orders"]  # type: ignore[misc]
    assert (order["night"], order["who"], order["given"]) == ("Saturday 18 December 2027", "Rosa Bell", 2)


@pytest.mark.parametrize(
    "question,quote,expected",
    [
        ("What does it cost in US dollars?", "£34.00", "dollars"),
        ("How many euros is the day pass?", "£12", "euros"),
        ("Price in EUR?", "49 GBP", "euros"),
        ("How much is it in euros?", "€45.00", ""),
        ("How much is it?", "£45.00", ""),
        ("I have £50 - how much is the lamp?", "£45.00", ""),
        ("How much in dollars?", "45.00", ""),  # the quote names no currency: nothing to contradict
        ("What is the maximum weight of a checked bag in pounds?", "$35", ""),  # pounds of weight
        ("What is the price in yuan?", "¥299", ""),  # ¥ is the yuan's sign too
    ],
)
def test_the_currency_asked_for(question, quote, expected):
    found = currency_mismatch(question, quote)
    assert (expected in found and bool(found)) if expected else found == ""


def test_a_year_before_now_named_in_words():
    today = date(2026, 5, 1)
    assert years_before_now("What did the pass cost last year?", today) == {"2025"}
    assert years_before_now("What was the fee two years ago?", today) == {"2024"}
    assert years_before_now("What was the fee the year before last?", today) == {"2024"}
    assert years_before_now("How many visitors came in the past year?", today) == set()
    assert years_before_now("I bought it last year; what does it cost now?", today) == set()
    assert past_time_unsaid("What did the pass cost last year?", "", "Annual pass £40", "£40", today)
    assert not past_time_unsaid("What did the pass cost last year?", "2025 price", "£38", "£38", today)
    assert not past_time_unsaid(
        "What did the pass cost last year?", "", "Last year the pass was £38", "£38", today
    )
    # the year beside another value of the line says nothing of this one
    line = "Annual pass: £60.00 (up from £52.00 in 2025)"
    assert past_time_unsaid("What did the annual pass cost last year?", "", line, "£60.00", today)
    assert not past_time_unsaid("What did the annual pass cost last year?", "", line, "£52.00", today)
    assert not past_time_unsaid(
        "How much did I use last year?", "", "Previous year: 3,120 kWh", "3,120 kWh", today
    )
    assert not past_time_unsaid("What was the fee a year ago?", "", "Last year: £52", "£52", today)
    assert years_before_now("What did the last year of the course cost?", today) == set()


def test_lines_of_a_change_still_pending():
    assert not_done("We've sent a link to a@b.com. Your email address will change when you click it.")
    assert not_done("Your new number will be active once you've entered the code.")
    assert not_done("We've texted you a code. Until then we'll keep using 07700 900456.")
    assert not not_done(
        "Your membership ends on 31 December. Until then, you will still be able to use the gym."
    )
    assert not_done("Change of address pending: until then your supply address stays 7 Old Mill Lane.")
    assert not not_done("Your booking is confirmed. Until then, the class remains open to others.")
    assert not_done("Your email address won't change until you click the link.")
    assert not_done("We've sent you a link. Until you've verified it, we'll continue to use ana@old.example.")
    assert not_done("We'll update your email once you've confirmed it.")
    # a change made and dated, a ticket used at the gate, helper text of a form: done, or nothing said
    assert not not_done(
        "Your tariff will change on 1 December. Until then we'll keep using your current rates."
    )
    assert not not_done(
        "Your booking is confirmed. Your e-ticket will be activated once you tap it at the gate."
    )
    assert not not_done("Your choice will be saved when you click Save preferences.")
    assert not not_done("Your plan will change when your contract renews.")
    assert not not_done("Your details have been saved.")


def test_an_answer_only_the_run_typed_is_planted():
    typed = [{"action": "type", "args": {"text": "A pallet delivery to Leeds costs £95.00"}}]
    goal = "How much is a pallet delivery to Leeds?"
    assert echoes_typed("£95.00", typed, goal)
    assert echoes_typed("A pallet delivery to Leeds costs £95.00", typed, goal)
    converted = [{"action": "type", "args": {"text": "95.00"}}]
    assert echoes_typed("95.00 GBP is 110.20 EUR", converted, "convert 95.00 pounds to euros") is None
    budget = [{"action": "type", "args": {"text": "250.00"}}]
    assert echoes_typed("£250.00", budget, "Set my monthly budget to £250 and tell me the new limit") is None
    slot = [{"action": "type", "args": {"text": "14:30"}}]
    assert echoes_typed("Yes - the 14:30 slot is free", slot, "Is there a 2.30pm appointment?") is None
    searched = [{"action": "type", "args": {"text": "12345"}}]
    assert echoes_typed("Order 12345 has shipped", searched, "Where is my order 12345?") is None
