"""Answers a page itself says are not the one asked: a sentence saying the figure is not given yet, another
section's value on a flat page of headings ('Brightwell Plus' before 'Brightwell Plus Family'), a short sibling
section taken for a heading (Westgate's hours above Eastgate's), a side block's look-alike on the item's own page
('Lumo X Lite 128GB' beside 'Lumo X'), a struck-out or 'Was' price, another year's period, a price without VAT
for one with it, a pack's price for one unit, and 'Northern Ireland' for Ireland. Real Chromium for the page
readings, the judge's own checks for the rest."""

from __future__ import annotations

import pytest

from agent.browser.effects import read_quote
from agent.planning.verify.answers import (
    _units_mismatch,
    former_price,
    modified_name,
    near_quote,
    not_an_answer,
    qualifier_mismatch,
)
from agent.planning.verify.parts import answer_part

on_a_page = pytest.mark.asyncio(loop_scope="session")


async def _found(session, html: str, quote: str, question: str) -> dict:
    part = answer_part(question)
    await session.page.set_content(html)
    reading = await read_quote(session, quote, part["subject"], part["need"], must=part["must"])
    assert reading is not None and reading["found"], reading
    return reading["found"][0]


PLUS = """<html><head><title>Brightwell Plus</title></head><body><main><h1>Brightwell Plus</h1>
<p>Free next-day delivery on everything.</p>
<h2>Brightwell Plus</h2><p><span>£4.99 a month</span>, cancel anytime.</p><p>Or pay yearly: <b>£49.00 a year</b>.</p>
<h2>Brightwell Plus Family</h2><p>Up to 5 people.</p><p><span>£7.99 a month</span>, cancel anytime.</p>
<p>Family is only available as a monthly membership.</p></main></body></html>"""


@on_a_page
async def test_on_a_flat_page_a_value_belongs_to_its_own_heading_s_part(session):
    assert not (await _found(session, PLUS, "£49.00", "What's the yearly price of Brightwell Plus Family?"))[
        "ok"
    ]
    assert (await _found(session, PLUS, "£7.99", "How much is Brightwell Plus Family a month?"))["ok"]
    assert (await _found(session, PLUS, "£49.00", "How much is Brightwell Plus per year?"))["ok"]


LIBRARIES = """<html><head><title>Libraries</title></head><body><main><h1>Library opening hours</h1>
<section><h2>Westgate Library</h2><p>12 Market Street</p><table><tr><th>Monday – Friday</th><td>9:00 – 17:00</td></tr>
<tr><th>Saturday</th><td>9:00 – 13:00</td></tr></table></section>
<section><h2>Eastgate Library</h2><p>4 Station Road</p><table><tr><th>Monday – Saturday</th><td>9:00 – 17:30</td></tr>
<tr><th>Sunday</th><td>10:00 – 16:00</td></tr></table></section></main></body></html>"""


@on_a_page
async def test_a_sibling_section_is_no_heading_of_the_next(session):
    sunday = await _found(
        session, LIBRARIES, "10:00 – 16:00", "What time does Westgate library open on Sundays?"
    )
    assert not sunday["ok"]
    assert (await _found(session, LIBRARIES, "9:00 – 13:00", "When is Westgate library open on Saturdays?"))[
        "ok"
    ]


PHONE = """<html><head><title>Lumo X</title></head><body><main><h1>Lumo X</h1><p>6.4" OLED, 50 MP camera.</p>
<h2>Choose your storage</h2><table><tr><th>Storage</th><th>Price</th></tr><tr><td>256GB</td><td>£799.00</td></tr>
<tr><td>512GB</td><td>£949.00</td></tr></table>
<aside><h3>Looking for something smaller?</h3><p>Lumo X Lite 128GB – £599.00</p></aside></main></body></html>"""


@on_a_page
async def test_a_side_block_on_the_item_s_own_page_speaks_of_another_item(session):
    lite = await _found(session, PHONE, "£599.00", "How much is the Lumo X with 128GB of storage?")
    assert not lite["ok"] and "side block" in lite["why"]


LAMP = """<html><head><title>Aurora desk lamp</title></head><body><main><h1>Aurora desk lamp</h1>
<p class="price">Now £49.00 <del>£65.00</del></p><p>Was £65.00, save £16.</p></main></body></html>"""


@on_a_page
async def test_a_former_price_is_no_price(session):
    struck = await _found(session, LAMP, "£65.00", "How much does the Aurora desk lamp cost?")
    assert former_price(struck, "£65.00") == "it is struck out on the page (a former price)"
    assert (
        former_price({"line": "Was £65.00, save £16."}, "£65.00") == "the page says it was the price before"
    )
    now = await _found(session, LAMP, "£49.00", "How much does the Aurora desk lamp cost?")
    assert now["ok"] and former_price(now, "£49.00") == ""


def test_a_sentence_saying_the_figure_is_not_given_answers_nothing():
    part = answer_part("How loud is the Vela S5? I need the noise level in dB.")
    assert "not given" in not_an_answer(
        part, "Noise figures for the S5 will be added once testing is complete."
    )
    assert not_an_answer(part, "65 dB") == ""
    assert "no figure" in not_an_answer(answer_part("How heavy is the Vela S5?"), "Light and easy to carry")
    assert not_an_answer(answer_part("How far is Westgate library from the station?"), "A short walk") == ""
    assert not_an_answer(answer_part("What is the status of my booking?"), "Not yet confirmed") == ""
    yes_no = answer_part("Is express delivery available to the Highlands?")
    assert not_an_answer(yes_no, "Not available") == ""
    assert not_an_answer(answer_part("What does express delivery to the Highlands cost?"), "Not available")


def test_another_period_vat_or_pack_is_said_of_something_else():
    garden = "How much is the garden waste subscription for 2025/26?"
    assert "2024/25" in qualifier_mismatch(garden, "The 2024/25 subscription costs £52 per bin")
    assert qualifier_mismatch(garden, "The 2025/26 subscription costs £55 per bin") == ""
    pallet = "How much does a pallet delivery cost including VAT?"
    assert qualifier_mismatch(pallet, "from £120.00 Price (ex VAT)")
    assert qualifier_mismatch("How much does a pallet delivery cost?", "from £120.00 Price (ex VAT)") == ""
    bulb = "How much does a single Lumen GU10 bulb cost?"
    assert (
        _units_mismatch(bulb, "£12.00", "Lumen GU10 LED bulbs (pack of 4)")
        == "the page sells it as a pack of 4"
    )
    assert _units_mismatch(bulb, "£3.00 per bulb", "Lumen GU10 LED bulbs (pack of 4)") == ""
    assert qualifier_mismatch(bulb, "Also available: pack of 2 – £7.00")
    # the line beside the quote speaks only where the quote's own text says nothing of its kind
    hours = "Monday – Friday 9:00 – 17:00\nSaturday 10:00 – 14:00"
    saturday = "What time is Westgate library open on Saturday?"
    assert qualifier_mismatch(saturday, "9:00 – 17:00", near_quote(hours, "9:00 – 17:00"))
    assert qualifier_mismatch(saturday, "10:00 – 14:00", near_quote(hours, "10:00 – 14:00")) == ""
    assert qualifier_mismatch(
        pallet, "£100.00 ex VAT", near_quote("£100.00 ex VAT £120.00 inc VAT", "£100.00")
    )
    fee = near_quote(
        "The 2024/25 subscription costs £52 per bin (£47 by Direct Debit). The 2025/26 fee is not set.", "£52"
    )
    assert "2024/25" in qualifier_mismatch(garden, "£52 per bin", fee)


def test_a_place_named_with_a_word_before_it_is_another_place():
    ireland = answer_part("How much is standard delivery to Ireland?")
    assert "Northern Ireland" in modified_name(ireland, "Northern Ireland £7.95 £12.95")
    assert modified_name(ireland, "Ireland £14.95") == ""
    both = "Standard delivery: Ireland £14.95 · Northern Ireland £7.95"
    assert modified_name(ireland, near_quote(both, "£14.95")) == ""
    assert modified_name(ireland, near_quote(both, "£7.95"))
    assert modified_name(ireland, "We deliver to Ireland (including Northern Ireland) for £9.95.") == ""
    assert (
        modified_name(
            answer_part("How much is standard delivery to Northern Ireland?"), "Northern Ireland £7.95"
        )
        == ""
    )


SHOP = """<html><head><title>Shop | Brackenfold Museum of Industry</title></head><body><main><h1>Shop</h1>
<p>Our shop sells books, prints and gifts. Exhibition tickets and concessions are sold at the front desk.</p><table><tr><th>Popular item</th><th>Price</th></tr>
<tr><td>Engines of the North exhibition book</td><td>£14.99</td></tr>
<tr><td>Canal map tea towel</td><td>£8.75</td></tr></table></main></body></html>"""


@on_a_page
async def test_an_item_whose_name_ends_in_another_thing_is_not_the_thing_asked(session):
    book = await _found(
        session,
        SHOP,
        "£14.99",
        "How much is a concession ticket for the Engines of the North exhibition at Brackenfold Museum?",
    )
    assert not book["ok"] and "look-alike" in book["why"]


PAGES_THAT_STILL_ANSWER = [
    (  # a heading's wrapper with a subtitle labels the list after it
        """<html><head><title>Libraries</title></head><body><main><h1>Library opening hours</h1>
<div class="hd"><h2>Westgate Library</h2><p>12 Market Street</p></div>
<ul><li>Saturday 9:00 – 13:00</li><li>Sunday closed</li></ul>
<div class="hd"><h2>Eastgate Library</h2><p>4 Station Road</p></div>
<ul><li>Saturday 9:00 – 17:30</li><li>Sunday 10:00 – 16:00</li></ul></main></body></html>""",
        "9:00 – 13:00",
        "When is Westgate library open on Saturdays?",
    ),
    (  # the subject named in the page's introduction, the value under a plain heading
        """<html><head><title>Memberships</title></head><body><main><h1>Our memberships</h1>
<p>Brightwell Plus gives you free next-day delivery on everything.</p>
<h2>Price</h2><p><span>£4.99 a month</span></p><h2>What's included</h2><p>Early access to sales.</p></main></body></html>""",
        "£4.99",
        "How much is Brightwell Plus a month?",
    ),
    (  # a buy box saying just what is asked is the page's own
        """<html><head><title>Lumo X</title></head><body><main><h1>Lumo X</h1><aside class="buy"><h2>Lumo X 256GB</h2>
<p>£799.00</p><button>Add to basket</button></aside></main></body></html>""",
        "£799.00",
        "How much is the Lumo X with 256GB of storage?",
    ),
    (  # a question word the page never says makes no item a look-alike
        """<html><head><title>Tents</title></head><body><main><h1>Tents</h1><table><tr><th>Tent</th><th>Weight</th></tr>
<tr><td>Trailhead 2 tent</td><td>1.9 kg</td></tr><tr><td>Ridgeline 3 tent</td><td>2.6 kg</td></tr></table></main></body></html>""",
        "1.9 kg",
        "How heavy is the Trailhead 2?",
    ),
]


@on_a_page
@pytest.mark.parametrize("html,quote,question", PAGES_THAT_STILL_ANSWER)
async def test_ordinary_pages_still_answer(session, html, quote, question):
    found = await _found(session, html, quote, question)
    assert found["ok"], found


@on_a_page
async def test_hidden_text_names_no_part(session):
    hidden = """<html><head><title>Memberships</title></head><body><main><h1>Memberships</h1>
<h2>Brightwell Plus</h2><p><span>£4.99 a month</span>, cancel anytime.</p>
<div style="display:none"><p>Upgrade to Brightwell Plus Family for up to 5 people.</p></div>
<h2>Brightwell Basic</h2><p><span>£1.99 a month</span>.</p></main></body></html>"""
    assert not (await _found(session, hidden, "£4.99", "How much is Brightwell Plus Family a month?"))["ok"]
