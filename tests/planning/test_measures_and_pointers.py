"""A price asked for is never answered by a line that only points to it ('Prices: see our fees page'), and a
site keeps prices under 'Fees' or 'Charges' as much as under 'Pricing'; a weight is asked with a verb ('what
did Pepper weigh') and answered by a weight, on the latest row when the question says 'her last'."""

from __future__ import annotations

from agent.planning.offline.navigator import next_move
from agent.planning.offline.questions import analyze
from agent.planning.offline.reading import answer_question
from tests.planning.pages import Page
from tests.planning.test_answers_on_sites import _table


def test_a_weight_is_asked_with_a_verb_and_answered_on_the_latest_row():
    query = analyze("What did Juniper weigh at her last weigh-in at Oakmoor?")
    assert (query.kind, query.attr, query.entity, query.value_type) == (
        "attribute",
        "weight",
        "Juniper",
        "weight",
    )
    assert analyze("How much does the folding bike weigh?").value_type == "weight"  # not a price
    p = Page("http://vets.test/account/pets/7", "Juniper - Oakmoor Vets")
    p.add("h1", "Juniper", y=60)
    p.add("h2", "Weight history", y=160)
    _table(p, 200, ("Date", "Weight"), [("Mon 2 March 2026", "5.1 kg"), ("Tue 14 July 2026", "5.6 kg"),
                                        ("Wed 4 November 2026", "5.4 kg")])  # fmt: skip
    answer = answer_question("What did Juniper weigh at her last weigh-in at Oakmoor?", p.build())
    assert (answer.found, answer.text) == (
        True,
        "5.4 kg",
    )  # the latest date, though the table runs oldest first


def _service_page(price_line: str) -> Page:
    p = Page("http://clinic.test/treatments/physio", "Physiotherapy - Brookside Clinic")
    p.add("h1", "Physiotherapy", y=60)
    p.add("p", "Sessions last 30 or 60 minutes and include an exercise plan.", y=100)
    p.add("h2", "Prices", y=160)
    p.add("p", price_line, y=190)
    return p


def test_a_line_that_points_to_the_prices_is_no_price():
    pointer = _service_page("See our fees page for all prices.").build()
    answer = answer_question("how much is a 60 minute physiotherapy session at Brookside?", pointer)
    assert not answer.found, answer
    priced = _service_page("Physiotherapy session, 60 minutes £65.00").build()
    answer = answer_question("how much is a 60 minute physiotherapy session at Brookside?", priced)
    assert (answer.found, answer.text) == (True, "£65.00"), answer


def test_a_price_question_opens_the_fees_section():
    p = Page("http://clinic.test/", "Brookside Clinic")
    p.link("Book online", "http://clinic.test/portal", x=20, y=10, w=220, zone="nav")
    p.link("Our fees", "http://clinic.test/fees", x=260, y=10, w=80, zone="nav")
    p.link("Join the clinic", "http://clinic.test/join", x=360, y=10, w=120, zone="nav")
    p.add("h1", "Welcome to Brookside Clinic", y=60)
    move = next_move(
        analyze("how much is a 60 minute physiotherapy appointment at Brookside?"), p.build(), []
    )
    assert move is not None and move.step.endswith("/fees"), move


def test_a_figure_named_by_its_label_is_read_on_that_line_not_the_first_amount():
    p = Page("http://hire.test/vehicles/e", "Electric | Fenwick Hire")
    p.add("h1", "Electric", y=60)
    p.add("p", "Kia Niro EV or similar.", y=90)
    for n, (label, value) in enumerate(
        (("Seats", "5"), ("Security deposit", "£400.00, taken at pick-up"), ("Damage excess", "£900.00"))
    ):
        p.add("th", label, x=100, y=140 + 30 * n, role="columnheader")
        p.add("td", value, x=300, y=140 + 30 * n, role="cell")
    asked = "how much is the damage excess of the electric car from Fenwick if I don't buy their cover?"
    answer = answer_question(asked, p.build())
    assert (answer.found, answer.text) == (True, "£900.00"), answer  # not the deposit above it


def test_a_fee_is_looked_for_in_the_charges_section_before_the_catalogue_search():
    p = Page("http://lib.test/", "Westmoor Libraries")
    p.add("input", "Search the catalogue", role="searchbox", input_type="search", x=20, y=40, w=300)
    p.link("Charges and fines", "http://lib.test/charges", x=20, y=10, w=140, zone="nav")
    p.link("Events", "http://lib.test/events", x=180, y=10, w=80, zone="nav")
    p.add("h1", "Welcome to Westmoor Libraries", y=80)
    move = next_move(analyze("how much do they charge for each request to borrow a book"), p.build(), [])
    assert move is not None and move.step.endswith("/charges"), move


def test_a_weight_is_a_figure_with_its_unit_and_a_price_question_stays_one():
    from agent.planning.offline.values import VALUE_RX

    text = "Last weigh-in on the 21st of July: 5.6 kg. Owner: 1 St Mary's Road. Born at 9 st 4 lb."
    assert VALUE_RX["weight"].findall(text) == ["5.6 kg", "9 st 4 lb"]  # never '21st' or '1 St'
    bag = analyze("How much is a checked bag that weighs 23 kg on Skyline?")
    assert bag.value_type == "money" and bag.attr == "price", bag
    from agent.planning.offline.tables import asks_latest

    assert asks_latest("What did Juniper weigh at her last weigh-in?") and not asks_latest(
        "What is her last name?"
    )


def test_a_figure_with_the_option_taken_is_not_read_as_the_plain_figure():
    conditional = analyze("How much is the damage excess of the electric car if I buy the Excess Cover?")
    assert conditional.attr == "price"  # not 'damage excess': the figure with the cover is another line's
    plain = analyze("How much is the damage excess of the electric car if I don't buy the Excess Cover?")
    assert (plain.attr, plain.entity) == ("damage excess", "electric car")
