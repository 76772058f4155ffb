"""The answer judge reads a record's property sheet (a definition list, a table of rows each led by its own
label) as one item named by what heads it; a table whose rows are items (one row names the subject) stays a
list, where a cell answers only for its own row. Real Chromium, the judge's own quote reading."""

from __future__ import annotations

import pytest

from agent.browser.effects import read_quote

pytestmark = pytest.mark.asyncio(loop_scope="session")

SUBJECT = ["assigned", "request", "broken", "heater"]

REQUEST = """<main><h1>Request #41: Heater in room 12 is broken</h1>
<dl><dt>Requester</dt><dd>Ana Silva</dd><dt>Assignee</dt><dd>Omar Haddad</dd><dt>Urgency</dt><dd>high</dd></dl>
<p>The heater clicks and stays cold.</p></main>"""

PROPERTIES = """<main><h1>Request #41: Heater in room 12 is broken</h1>
<table><tr><th>Requester:</th><td>Ana Silva</td><th>Assignee:</th><td>Omar Haddad</td></tr>
<tr><th>Urgency:</th><td>high</td><th>Room:</th><td>12</td></tr></table></main>"""

#: Rows that are items: the row headers name heaters, one of them the subject's.
MODELS = """<main><h1>Heater models</h1>
<table><tr><th>Breeze 200</th><td>$40</td></tr><tr><th>Breeze 300</th><td>$55</td></tr></table></main>"""


async def _reading(session, html: str, quote: str, subject: list[str], need: int) -> list[dict]:
    await session.page.set_content(html)
    reading = await read_quote(session, quote, subject, need)
    assert reading is not None
    return reading["found"]


@pytest.mark.parametrize("html", [REQUEST, PROPERTIES], ids=["definition list", "property table"])
async def test_a_value_in_a_property_sheet_is_named_by_the_record_heading(session, html):
    found = await _reading(session, html, "Omar Haddad", SUBJECT, 2)
    assert found and found[0]["ok"], found


async def test_a_cell_of_a_row_naming_another_item_is_not_the_answer(session):
    found = await _reading(session, MODELS, "$55", ["breeze", "200"], 2)
    assert found and not found[0]["ok"], found
