"""Forms that ask in parts or act on ticked rows, and prices given by period: a date into Day/Month/Year lists,
'Renew selected' after the item's tick box, the week's price among day rates."""

from __future__ import annotations

from agent.planning.offline.intents import TypeText
from agent.planning.offline.questions import analyze
from agent.planning.offline.reading import answer_question
from agent.planning.offline.records.goal import read_record_goal
from agent.planning.offline.records.row_actions import ticked_row_control
from agent.planning.offline.split_dates import split_date_steps
from tests.planning import pages


def _dob_form(with_own_field: bool = False) -> pages.Observation:
    p = pages.Page("https://dental.test/portal/login", "Patient login")
    p.add("input", name="Patient number", x=100, y=150)
    if with_own_field:
        p.add("input", name="Date of birth", x=100, y=200)
    p.add("select", name="Day", x=100, y=250, options=["Day", *map(str, range(1, 32))])
    p.add(
        "select",
        name="Month",
        x=200,
        y=250,
        options=["Month", "January", "February", "March", "April", "May"],
    )
    p.add("select", name="Year", x=300, y=250, options=["Year", "1990", "1989", "1988"])
    p.add("p", "Treatments from £25.00", y=400, interactive=False)
    return p.build()


def test_a_date_goes_into_day_month_and_year_lists_as_they_offer_it():
    for said in ("12 May 1988", "12/05/1988"):  # (a page in pounds writes the day first)
        assert split_date_steps(TypeText(said, "date of birth"), _dob_form()) == [
            'Select "12" from "Day"',
            'Select "May" from "Month"',
            'Select "1988" from "Year"',
        ]
    assert split_date_steps(TypeText("12 May 1988", "date of birth"), _dob_form(with_own_field=True)) is None
    assert split_date_steps(TypeText("12 June 1988", "date of birth"), _dob_form()) is None  # no such option


def _loans() -> pages.Observation:
    p = pages.Page("https://lib.test/account/loans", "Loans")
    for n, title in enumerate(["The Quiet Tide", "Bread Baking for Beginners", "Bread Baking for Kids"]):
        p.add("input", name=f"Select {title}", input_type="checkbox", x=100, y=200 + 40 * n)
        p.link(title, f"https://lib.test/item/{n}", x=200, y=200 + 40 * n)
    p.add("button", "Renew selected", x=100, y=400, w=140)
    p.add("button", "Renew all", x=260, y=400, w=120)
    return p.build()


def test_the_item_s_tick_box_then_the_control_for_what_is_ticked():
    goal = read_record_goal("renew Bread Baking for Beginners on my library account")
    assert goal is not None
    box, bulk = ticked_row_control(goal, _loans(), set())
    assert (box["name"], bulk["text"]) == ("Select Bread Baking for Beginners", "Renew selected")
    other = read_record_goal("renew The Long Field on my library account")
    assert other is not None and ticked_row_control(other, _loans(), set()) is None


def _prices() -> pages.Observation:
    p = pages.Page("https://hire.test/vehicles/g", "7-seater people carrier | Kestrel Vehicle Rental")
    p.add("h1", "7-seater people carrier", y=60, interactive=False)
    p.add("h3", "Prices", y=200, interactive=False)
    for n, line in enumerate(["1 to 2 days: £76.00 a day", "3 to 6 days: £68.00 a day", "7 days: £408.00"]):
        p.add("p", line, y=240 + 30 * n, interactive=False)
    return p.build()


def test_a_week_s_price_is_the_one_labelled_for_seven_days_not_a_day_rate():
    asked = "what does Kestrel charge to rent a 7 seater for a whole week?"
    query = analyze(asked)
    assert (query.attr, query.entity) == ("price", "7 seater for a whole week at Kestrel")
    answer = answer_question(asked, _prices())
    assert answer.found and answer.text == "£408.00"
    members = pages.Page("https://gym.test/prices", "Prices | Fitzone")
    members.add("p", "Members: £30.00 a week / Non-members: £45.00 a week", y=100, interactive=False)
    weekly = answer_question("what is the non-members price for a week?", members.build())
    assert weekly.found and weekly.text == "£45.00"  # each is a week's: the one asked stays


def _chose(field: str, option: str) -> dict:
    return {
        "action": "select_option",
        "status": "success",
        "target": f'combobox "{field}"',
        "args": {"option": option},
        "effect": {"target": {"value": option, "selected": [option]}},
    }


def test_the_judge_takes_a_date_from_its_day_month_and_year_fields():
    from agent.planning.verify.judge import _in_parts

    part = {
        "id": "p2",
        "kind": "field",
        "text": "the date of birth holds 12 May 1988",
        "value": "12 May 1988",
    }
    chosen = [_chose("Day", "12"), _chose("Month", "May"), _chose("Year", "1988")]
    plain = {"url": "https://clinic.test/portal", "page_text": "Your appointments"}
    assert _in_parts(part, chosen, plain)[0] is not None
    assert _in_parts(part, [*chosen[:1], _chose("Month", "June"), chosen[2]], plain)[0] is None
    assert _in_parts(part, chosen[:2], plain)[0] is None
    assert (
        _in_parts(part, [*chosen, _chose("Day", "3")], plain)[0] is None
    )  # the day chosen last is what it holds
    either = {
        **part,
        "value": "12/05/1988",
    }  # 12 May or 5 December: a date that reads two ways proves neither on a page that does not say which
    assert _in_parts(either, chosen, plain)[0] is None
    # a page in pounds writes the day first, as the planner read it: 12 May, and 5 December is not it
    pounds = {**plain, "page_text": "Left to pay £270.00"}
    assert _in_parts(either, chosen, pounds)[0] is not None
    december = [_chose("Day", "5"), _chose("Month", "December"), _chose("Year", "1988")]
    assert _in_parts(either, december, pounds)[0] is None
    month_first = {**plain, "page_text": "Date of birth (MM/DD/YYYY) Currency: $ USD | £ GBP"}
    assert _in_parts(either, chosen, month_first)[0] is None  # the page's own MM/DD wins over a '£' on it


def test_what_is_left_to_pay_is_the_balance_not_the_first_cost_under_the_title():
    p = pages.Page("https://dental.test/portal/plan", "Your treatment plan")
    p.add("h1", "Your treatment plan", y=60, interactive=False)
    p.add("p", "Treatment Status Cost", y=120, interactive=False)
    p.add("p", "Examination and X-rays Done 14 July 2026 £78.00", y=150, interactive=False)
    p.add("p", "White filling, upper left 6 To do £145.00", y=180, interactive=False)
    p.add("p", "Total estimate £223.00", y=210, interactive=False)
    p.add("p", "Left to pay £145.00", y=240, interactive=False)
    answer = answer_question("how much I've still got left to pay on my treatment plan", p.build())
    assert answer.found and answer.text == "£145.00"


def test_a_lookup_s_result_is_the_one_that_names_the_place_asked_too():
    from agent.planning.offline.lookup import lookup_result

    p = pages.Page("https://council.test/bins/search?q=Orchard+Road", "Choose your street")
    p.link("Orchard Road, Kingsbridge Green (AS7 2xx)", "https://council.test/bins/street/1", y=200)
    p.link("Orchard Road, Ashcombe (AS3 5xx)", "https://council.test/bins/street/2", y=230)
    sent = [
        {
            "plan_step": 'Type "Orchard Road" into "Street name or postcode" and press Enter',
            "status": "success",
        }
    ]
    asked = "what day is the recycling collected on Orchard Road in Ashcombe?"
    found = lookup_result(asked, p.build(), sent)
    assert found is not None and found["text"].startswith("Orchard Road, Ashcombe")
    assert lookup_result("what day is the recycling collected on Orchard Road?", p.build(), sent) is None


def test_a_booking_form_takes_the_person_named_and_the_length_said():
    from agent.planning.offline.records.bookings import read_booking
    from agent.planning.offline.records.fills import plan_fills

    p = pages.Page("https://dental.test/portal/book", "Book an appointment")
    for n, label in enumerate(["Check-up with a dentist (20 min)", "Hygiene appointment (30 minutes)",
                               "Hygiene appointment (45 minutes)"]):  # fmt: skip
        p.add("input", name=label, input_type="radio", x=100, y=150 + 30 * n, attrs={"name": "type"})
    p.add("select", name="Who with?", x=100, y=260,
          options=["Choose who you'd like to see", "Dr Anya Sorensen (Dentist)", "Beth Carrow (Dental hygienist)"])  # fmt: skip
    p.add("input", name="Which day?", input_type="date", x=100, y=300)
    p.add("button", "Show available times", x=100, y=340, w=160)
    goal = read_booking(
        "Book me a 45-minute hygiene appointment with Beth Carrow on Thursday 4th Feb 2027 at 11:15am"
    )
    assert goal is not None
    fills, _ = plan_fills(goal, p.build())
    chosen = {f.how: f.value for f in fills if f.how in ("select", "check")}
    assert chosen == {"select": "Beth Carrow (Dental hygienist)", "check": "Hygiene appointment (45 minutes)"}


def test_a_price_in_a_line_of_several_is_the_one_after_the_name_and_its_period_counts():
    p = pages.Page("https://hire.test/", "Hire")
    p.add("h3", "Popular", y=100, interactive=False)
    p.add(
        "p",
        "Compact from £42.00/day 7-seater from £68.00/day Large van from £64.00/day",
        y=130,
        interactive=False,
    )
    p.link("7-seater", "https://hire.test/vehicles/g", y=160)
    per_day = answer_question("how much is the 7-seater per day?", p.build())
    # 'from £68.00/day' is the least of the 7-seater's prices: its own page (linked) says what a day costs
    assert not per_day.found and "starting price" in per_day.text
    cheapest = answer_question("what is the starting price of the 7-seater per day?", p.build())
    assert cheapest.found and cheapest.text == "£68.00"
    week = answer_question("what does Kestrel charge to rent a 7 seater for a whole week?", p.build())
    assert not week.found  # a day's price is no week's


def test_an_option_chosen_is_shown_by_its_name_with_the_figures_it_was_told_apart_by():
    from agent.planning.offline.records.proof import _option_shown

    lines = ["Booked: Hygiene appointment (45 minutes) with Beth Carrow on 4 February 2027 at 11:15am."]
    assert _option_shown("Beth Carrow (Dental hygienist)", lines) == lines
    assert _option_shown("Hygiene appointment (30 minutes) (30 min)", lines) == []
    assert _option_shown("Carrow (hygienist)", lines) == []  # one word is no name to go by


def test_a_date_box_named_for_another_day_is_not_the_day_part():
    from agent.planning.verify.judge import _in_parts

    part = {
        "id": "p2",
        "kind": "field",
        "text": "the date of birth holds 12 May 1988",
        "value": "12 May 1988",
    }
    chosen = [
        _chose("Day", "12"),
        _chose("Month", "May"),
        _chose("Year", "1988"),
        _chose("3. Which day?", "2027-02-04"),
    ]
    assert _in_parts(part, chosen, {})[0] is not None  # the booking's own date box is no 'Day' field


def test_the_period_asked_is_no_word_the_answer_s_block_must_say():
    from agent.planning.verify.parts import answer_part

    part = answer_part("what does Kestrel charge to rent a 7 seater for a whole week?")
    assert "week" not in part["subject"] and "whole" not in part["subject"] and "seater" in part["subject"]
