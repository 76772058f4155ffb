"""The answer judge's reading of blocks that belong to the page's own subject without naming it: a price box
beside the box that holds the page's heading, and a table's summary row ('Total', 'Left to pay') under a heading
naming the subject. Each has a look-alike that must stay refused: a box of other items' prices, a related box,
a data row of the table. Real Chromium, the judge's own quote reading."""

from __future__ import annotations

import pytest

from agent.browser.effects import read_quote

pytestmark = pytest.mark.asyncio(loop_scope="session")

VAN = ["cargo", "van", "hillside"]


def _two_columns(details: str, side: str) -> str:
    return f"""<html><head><title>Cargo van | Hillside Motors</title></head><body>
<div class="top"><a href="/">Hillside Motors</a> <a href="/fleet">Fleet</a></div>
<div class="cols"><div class="panel"><h1>Cargo van</h1><p>Renault Master or similar, 3 seats.</p>{details}</div>
<div class="panel">{side}</div></div></body></html>"""


DETAILS = "<p>Load length 3.1 m. Payload 1,200 kg. Available at the city and airport branches.</p>"
PRICES = (
    "<h3>Prices</h3><p>1 to 3 days: £55.00 a day<br>4 to 6 days: £49.00 a day<br>7 days: £315.00</p>"
    '<p><a href="/book">Check availability</a></p>'
)


async def _found(session, html: str, quote: str, subject: list[str], need: int) -> list[dict]:
    await session.page.set_content(html)
    reading = await read_quote(session, quote, subject, need)
    assert reading is not None
    return reading["found"]


async def test_a_price_box_beside_the_item_s_heading_speaks_for_the_item(session):
    found = await _found(session, _two_columns(DETAILS, PRICES), "£315.00", VAN, 3)
    assert found and found[0]["ok"], found


@pytest.mark.parametrize(
    "side",
    [
        # other items' prices, told apart by their names
        "<h3>Prices</h3><p>Estate car: £42.00 a day<br>Minibus: £95.00 a day</p>",
        # the subject named on one line: the box is a list of items, the quote's line is another's
        "<h3>Prices</h3><p>Cargo van: £55.00 a day<br>Luton van: £315.00 a week</p>",
        # a box of related items, not the item's own prices
        "<h3>You may also like</h3><p>Luton van from £315.00</p>",
        # the price inside a link to another page
        '<h3>Prices</h3><p><a href="/fleet/luton">Luton van: £315.00</a></p>',
    ],
    ids=["other items", "subject on another line", "related box", "linked"],
)
async def test_a_box_beside_the_heading_that_names_other_items_is_refused(session, side):
    quote = "£315.00" if "315" in side else "£42.00"
    found = await _found(session, _two_columns(DETAILS, side), quote, VAN, 3)
    assert found and not found[0]["ok"], found


PLAN = ["repayment", "plan"]


def _plan_page(heading: str) -> str:
    return f"""<html><head><title>{heading} | Northgate Credit Union</title></head><body><main><h1>{heading}</h1>
<table><thead><tr><th>Item</th><th>Status</th><th>Amount</th></tr></thead><tbody>
<tr><td>Instalment 1</td><td>Paid</td><td>£120.00</td></tr><tr><td>Instalment 2</td><td>Due</td><td>£135.00</td></tr>
<tr><th colspan="2">Total</th><th>£255.00</th></tr><tr><th colspan="2">Still to pay</th><th>£135.50</th></tr>
</tbody></table></main></body></html>"""


async def test_a_summary_row_under_a_heading_naming_the_subject_answers(session):
    found = await _found(session, _plan_page("Your repayment plan"), "£135.50", PLAN, 2)
    assert found and found[0]["ok"], found


async def test_a_data_row_or_a_page_about_something_else_does_not(session):
    found = await _found(session, _plan_page("Your repayment plan"), "£120.00", PLAN, 2)
    assert found and not found[0]["ok"], found  # a row of the list: it names none of the subject
    found = await _found(session, _plan_page("Your savings account"), "£135.50", PLAN, 2)
    assert found and not found[0]["ok"], found


PET = """<html><head><title>Juniper - Oakmoor Vets</title></head><body><main><h1>Juniper</h1>
<dl><dt>Species</dt><dd>Cat</dd></dl><h2>Weight history</h2>
<table><thead><tr><th>Date</th><th>Weight</th></tr></thead><tbody>
<tr><td>Mon 2 March 2026</td><td>5.1 kg</td></tr><tr><td>Wed 4 November 2026</td><td>5.4 kg</td></tr>
<tr><td>Tue 14 July 2026</td><td>5.6 kg</td></tr></tbody></table></main></body></html>"""


async def test_the_latest_row_answers_a_question_that_asks_for_the_latest(session):
    await session.page.set_content(PET)
    latest = await read_quote(session, "5.4 kg", ["juniper"], 1, latest=["weight"])
    assert latest and latest["found"] and latest["found"][0]["ok"], latest
    # not asked for the latest: no row is picked by the heading alone; an older row is never the latest
    plain = await read_quote(session, "5.4 kg", ["juniper"], 1)
    older = await read_quote(session, "5.6 kg", ["juniper"], 1, latest=["weight"])
    assert not plain["found"][0]["ok"] and not older["found"][0]["ok"], (plain, older)


BOOKINGS = """<html><head><title>Your bookings | Fenwick Hire</title></head><body><main><h1>Your bookings</h1>
<table><thead><tr><th>Reference</th><th>Vehicle</th><th>Pick-up</th><th>Return</th></tr></thead><tbody>
<tr><td><a href="/b/1102">FH-1102</a></td><td>Estate</td><td>Dockside Sun 20 Dec 2026, 10:00</td>
<td>Dockside Sun 27 Dec 2026, 10:00</td></tr>
<tr><td><a href="/b/1175">FH-1175</a></td><td>Estate</td><td>Dockside Fri 26 Mar 2027, 09:00</td>
<td>Dockside Tue 30 Mar 2027, 17:00</td></tr></tbody></table></main></body></html>"""


async def test_a_row_whose_dates_take_in_the_holiday_names_it(session):
    from agent.planning.offline.dates import holiday_said

    name, days = holiday_said("the booking reference for my Easter hire from Dockside", 2026)
    holiday = {"name": name, "days": [d.isoformat() for d in days]}
    await session.page.set_content(BOOKINGS)
    easter = await read_quote(session, "FH-1175", ["easter", "dockside"], 2, holiday=holiday)
    december = await read_quote(session, "FH-1102", ["easter", "dockside"], 2, holiday=holiday)
    unasked = await read_quote(session, "FH-1175", ["easter", "dockside"], 2)
    assert easter["found"][0]["ok"], easter
    assert not december["found"][0]["ok"] and not unasked["found"][0]["ok"], (december, unasked)


async def test_a_latest_row_or_a_total_in_a_table_of_another_thing_is_refused(session):
    sister = PET.replace(
        "</tbody></table></main>",
        "</tbody></table><h2>Pepper (sister) - weight history</h2>"
        "<table><thead><tr><th>Date</th><th>Weight</th></tr></thead><tbody><tr><td>1 May 2026</td><td>4.1 kg</td></tr>"
        "<tr><td>9 Nov 2026</td><td>4.6 kg</td></tr></tbody></table></main>",
    )
    await session.page.set_content(sister)
    reading = await read_quote(session, "4.6 kg", ["juniper"], 1, latest=["weight"])
    assert not reading["found"][0]["ok"], reading  # two weight tables: which one is Juniper's is not said
    await session.page.set_content(PET)
    dated = await read_quote(session, "Wed 4 November 2026", ["juniper"], 1, latest=["weight"])
    assert not dated["found"][0]["ok"], dated  # the latest row's date is no weight
    savings = _plan_page("Your repayment plan").replace(
        "</table></main>",
        "</table><h2>Your savings account</h2>"
        "<table><tr><td>Deposit</td><td>£750.00</td></tr><tr><th>Balance</th><th>£750.00</th></tr></table></main>",
    )
    await session.page.set_content(savings)
    for quote in ("£135.50", "£750.00"):
        reading = await read_quote(session, quote, PLAN, 2)
        assert not reading["found"][0]["ok"], reading  # two tables with totals: whose is not said


async def test_a_booking_s_own_day_is_no_part_of_its_span_and_two_rows_name_no_holiday(session):
    from agent.planning.offline.dates import holiday_said

    name, days = holiday_said("my Easter hire", 2026)
    holiday = {"name": name, "days": [d.isoformat() for d in days]}
    booked = BOOKINGS.replace(
        "<td>Estate</td><td>Dockside Sun 20 Dec 2026",
        "<td>Estate, booked Sat 9 Jan 2027</td><td>Dockside Wed 14 Apr 2027",
    ).replace("Dockside Sun 27 Dec 2026", "Dockside Sun 18 Apr 2027")
    await session.page.set_content(booked)
    early = await read_quote(session, "FH-1102", ["easter", "dockside"], 2, holiday=holiday)
    right = await read_quote(session, "FH-1175", ["easter", "dockside"], 2, holiday=holiday)
    assert not early["found"][0]["ok"] and right["found"][0]["ok"], (early, right)
