"""Prices a site mentions in passing are not the price asked: a home page's 'from £29.00' teaser, a side block
about a partner centre, the first row of a table whose rows differ by size ('Up to 30 cm' / 'Up to 60 cm').
The planner goes on to the page of prices and reads the row and column asked ('a 60cm locker', 'online'); a
question put after a condition ('If I book ..., how much will it cost?') asks the price of what the condition
names. Real graph runs of the offline planner in real Chromium on a small site of its own markup."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import date
from pathlib import Path

import pytest

from agent.planning.offline.dates import with_this_year
from agent.planning.offline.grammar import parse_goal
from agent.planning.offline.intents import Ask
from agent.planning.offline.questions import analyze
from agent.runner import run_goal
from agent.util.static_server import StaticServer
from tests.support.factories import offline_context

_HTML = {"Content-Type": "text/html; charset=utf-8"}
_ASIDE = (
    "<aside><h3>Riverside Leisure</h3><p>Our partner centre across the river has its own prices:</p>"
    "<ul><li>Gold: £27.00 a month</li><li>Swim only: £18.00 a month</li></ul></aside>"
)


def _page(title: str, body: str, aside: str = _ASIDE) -> tuple[int, dict[str, str], bytes]:
    doc = (
        f"<!doctype html><html><head><title>{title} | Fernhill Sports Hub</title></head><body>"
        "<header><a href='/'>Fernhill Sports Hub</a><nav><a href='/'>Home</a> <a href='/timetable'>Timetable</a> "
        "<a href='/prices'>Prices and memberships</a> <a href='/contact'>Contact us</a></nav></header>"
        f"<main>{body}</main>{aside}</body></html>"
    )
    return 200, _HTML, doc.encode()


def _home(handler) -> tuple[int, dict[str, str], bytes]:
    return _page(
        "Welcome",
        "<h1>Welcome to Fernhill Sports Hub</h1><p>Gym, pool and thirty classes a week on Mill Road.</p>"
        "<ul><li>Gold membership – from £29.00 a month</li><li>New: Saturday morning bootcamp</li></ul>",
    )


def _prices(handler) -> tuple[int, dict[str, str], bytes]:
    return _page(
        "Prices and memberships",
        "<h1>Prices and memberships</h1><p>All prices from 1 January.</p><h2>Memberships</h2><table>"
        "<tr><th>Membership</th><th>Monthly</th><th>Annual</th></tr>"
        "<tr><td>Gold</td><td>£34.00</td><td>£370.00</td></tr>"
        "<tr><td>Silver</td><td>£25.00</td><td>£270.00</td></tr></table>"
        "<h2>Lockers</h2><table><tr><th>Locker (per month)</th><th>Booked online</th><th>At reception</th></tr>"
        "<tr><td>Up to 30 cm</td><td>£6.00</td><td>£8.00</td></tr>"
        "<tr><td>Up to 60 cm</td><td>£9.00</td><td>£11.00</td></tr></table>",
        aside="<aside><h3>Company memberships</h3><p>Teams of ten or more: Gold from £30.00 a month each.</p></aside>",
    )


_Y = date.today().year


def _courts(handler) -> tuple[int, dict[str, str], bytes]:
    return _page(
        "Court hire",
        "<h1>Court hire</h1><p>Charges change on 1 January each year.</p><table><tr><th>Court</th>"
        f"<th>{_Y} prices (from 1 January)</th><th>{_Y - 1} prices</th></tr>"
        "<tr><td>Badminton court (per hour)</td><td>£12.40</td><td>£11.80</td></tr>"
        "<tr><td>Squash court (per hour)</td><td>£10.20</td><td>£9.60</td></tr></table>",
    )


def _other(handler) -> tuple[int, dict[str, str], bytes]:
    return _page("Timetable", "<h1>This week</h1><p>Spin, Monday 07:00. Yoga, Tuesday 18:30.</p>")


@pytest.fixture(scope="module")
def hub_url() -> Iterator[str]:
    routes = {"/": _home, "/prices": _prices, "/courts": _courts, "/timetable": _other, "/contact": _other}
    with StaticServer(Path(__file__).parent, routes=routes) as server:
        yield server.base_url


@pytest.mark.parametrize(
    ("goal", "price"),
    [
        ("What does the Gold membership at Fernhill Sports Hub cost per month?", "£34.00"),
        (
            "Thinking of joining Fernhill Sports Hub. What does their Gold membership cost per month?",
            "£34.00",
        ),
        ("If I book a 60cm locker online with Fernhill Sports Hub, how much will it cost?", "£9.00"),
    ],
)
async def test_the_price_asked_is_read_on_the_page_of_prices(session, hub_url, tmp_path, goal, price):
    ctx = offline_context(tmp_path / "runs", action_timeout_s=5.0, max_seconds=90.0, max_steps=15)
    result = await run_goal(goal, ctx, start_url=hub_url + "/", session=session)
    assert (result["terminal_type"], result["terminal_reason"]) == ("goal_satisfied", "answer_found"), result
    assert price in result["final_answer"]
    assert session.page.url.endswith("/prices")


def test_a_question_after_a_condition_asks_the_price_of_what_it_names():
    parsed = parse_goal("If I add a 23kg hold bag online with Kittiwake Air, how much will it cost?")
    assert parsed.intents == (Ask("how much will a 23kg hold bag online with Kittiwake Air cost"),)
    query = analyze(parsed.intents[0].question)
    assert (query.attr, query.entity) == ("price", "23 kg hold bag online with Kittiwake Air")
    # a condition that names no purchase, or more than the one thing, stays a condition of its question
    assert parse_goal("If I cancel, will I get a refund?").intents == (
        Ask("If I cancel, will I get a refund"),
    )
    for said in (
        "If I add a 23kg hold bag at the airport, how much will it cost?",
        "If I add two 23kg hold bags online, how much will it cost?",
        "If I book a double room for three nights, how much will it cost?",
    ):
        [asked] = parse_goal(said).intents
        assert isinstance(asked, Ask) and asked.question.startswith("how much will it cost If I")


@pytest.mark.parametrize(
    ("question", "entity"),
    [
        ("What does a day pass cost per person?", "day pass"),
        ("How much did the lantern cost last year?", "lantern"),
        ("How much is a 128GB phone case?", "128 GB phone case"),
    ],
)
def test_what_a_price_question_is_about(question, entity):
    query = analyze(question)
    assert (query.attr, query.entity) == ("price", entity)


async def test_this_year_s_charge_is_read_in_this_year_s_column(session, hub_url, tmp_path):
    goal = "What does Fernhill Sports Hub charge per hour for a squash court this year?"
    ctx = offline_context(tmp_path / "runs", action_timeout_s=5.0, max_seconds=90.0, max_steps=15)
    result = await run_goal(goal, ctx, start_url=hub_url + "/courts", session=session)
    assert (result["terminal_type"], result["terminal_reason"]) == ("goal_satisfied", "answer_found"), result
    assert "£10.20" in result["final_answer"]
    assert analyze(goal).entity == "squash court per hour at Fernhill Sports Hub"
    assert (
        with_this_year("What is the fee this year?", "2026 prices", date(2026, 5, 1))
        == "What is the fee this year 2026?"
    )
    # a year split in two ('2025/26') is this year's only from September: before, the one begun last year may be
    split = "2026/27 (from 1 April 2026) 2025/26"
    assert (
        with_this_year("What is the fee this year?", split, date(2026, 11, 1))
        == "What is the fee this year 2026?"
    )
    assert (
        with_this_year("What is the fee this year?", split, date(2026, 2, 1)) == "What is the fee this year?"
    )
