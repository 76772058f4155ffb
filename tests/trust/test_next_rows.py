"""The judge's reading of 'my next invoice': the row of the soonest day from today in the one dated table of the
page's own content answers under a heading naming the subject; a past row, another row, a page with two dated
tables and a question that asks for no next row stay refused. Real Chromium, the judge's own quote reading."""

from __future__ import annotations

from datetime import date, timedelta

import pytest

from agent.browser.effects import read_quote

pytestmark = pytest.mark.asyncio(loop_scope="session")


def _day(offset: int) -> str:
    day = date.today() + timedelta(days=offset)
    return f"{day:%a} {day.day} {day:%B %Y}"


def _invoices(extra: str = "", rows: list[tuple[str, str, str]] | None = None) -> str:
    rows = rows or [
        ("INV-3", "£109.95", _day(30)),
        ("INV-2", "£102.50", _day(3)),
        ("INV-1", "£98.00", _day(-27)),
    ]
    body = "".join(f"<tr><td>{a}</td><td>{_day(-40)}</td><td>{b}</td><td>{c}</td></tr>" for a, b, c in rows)
    return f"""<html><head><title>Invoices | Stowaway Self Storage</title></head><body><main><h1>Invoices</h1>
<table><thead><tr><th>Invoice</th><th>Issued</th><th>Amount</th><th>Due date</th></tr></thead><tbody>{body}</tbody>
</table>{extra}</main></body></html>"""


async def _ok(session, html: str, quote: str, soonest: list[str] | None = None, asked: bool = True) -> bool:
    await session.page.set_content(html)
    reading = await read_quote(session, quote, ["invoice"], 1, soonest=(soonest or []) if asked else None)
    assert reading is not None and reading["found"], reading
    return bool(reading["found"][0]["ok"])


async def test_the_soonest_row_from_today_answers_for_the_next_one(session):
    assert await _ok(session, _invoices(), "£102.50")


async def test_a_later_row_or_a_past_one_does_not(session):
    assert not await _ok(session, _invoices(), "£109.95")
    assert not await _ok(session, _invoices(), "£98.00")


async def test_without_a_next_asked_the_rows_are_read_as_before(session):
    # (a page of one subject's invoices: which row is asked is the question's, judged only when it asks the next)
    assert await _ok(session, _invoices(), "£109.95", asked=False)


async def test_a_second_dated_table_leaves_which_one_unsaid(session):
    other = (
        "<h2>Deliveries</h2><table><tr><th>Item</th><th>Day</th></tr>"
        f"<tr><td>Boxes</td><td>{_day(2)}</td></tr><tr><td>Tape</td><td>{_day(5)}</td></tr></table>"
    )
    assert not await _ok(session, _invoices(other), "£102.50")


async def test_of_rows_told_apart_by_the_question_s_words_the_soonest_of_those_answers(session):
    rows = [
        ("Unit rent", "£109.95", _day(10)),
        ("Contents insurance", "£12.00", _day(4)),
        ("Unit rent", "£98.00", _day(-20)),
    ]
    assert await _ok(session, _invoices(rows=rows), "£109.95", ["unit", "rent"])
    assert not await _ok(session, _invoices(rows=rows), "£12.00", ["unit", "rent"])
