"""Wordings and pages a review of the account-change and account-question work found mis-read: each once made
a change the goal did not ask for, dropped the one it did, or let a value pass that the page does not give."""

from __future__ import annotations

from agent.planning.offline.grammar import parse_goal
from agent.planning.offline.intents import Ask, TypeText
from agent.planning.offline.questions import analyze
from agent.planning.offline.records.confirming import acknowledgement
from agent.planning.offline.records.goal import read_record_goal
from agent.planning.offline.records.plan import leading_intents
from agent.planning.offline.records.progress import CLICKED
from agent.planning.offline.records.proof import read_change, refusal
from agent.planning.offline.records.which import record_goal_of
from agent.planning.offline.values import VALUE_RX, value_by_label_words
from tests.planning.pages import Page


def test_news_of_a_login_a_state_or_beside_another_change_is_only_the_situation():
    cases = {
        "My username is now dana_k. Log in with password pw1 and update my phone number to 07700900123.": (
            "phone number",
            "07700900123",
        ),
        "My password is now Summer2024. Log in as jo and change my email to a@b.com": ("email", "a@b.com"),
        "My phone is now 07700 900123. Log in as jo / pw and change my email to y@z.com": (
            "email",
            "y@z.com",
        ),
    }
    for goal, setting in cases.items():
        read = read_record_goal(goal)
        assert read is not None and read.settings == (setting,) and read.about == "", goal
    assert read_record_goal("My account is now locked. Please unlock it.") is None


def test_two_changes_to_ones_own_details_stay_with_the_grammar():
    parsed = parse_goal("Update my email to a@b.com and my phone number to 07700900123")
    assert record_goal_of(parsed) is None


def test_a_value_typed_by_the_login_is_never_taken_for_the_changes_own():
    parsed = parse_goal("Log in as dana@x.io with password Harbour22 and update my name to Dana")
    record = record_goal_of(parsed)
    typed = [i.text for i in leading_intents(parsed, record) if isinstance(i, TypeText)]
    assert typed == ["dana@x.io", "Harbour22"]
    slash = parse_goal("Log in as jo@x.org / pass1 and update my mobile number to 07700 900123")
    assert [i.text for i in leading_intents(slash, record_goal_of(slash)) if isinstance(i, TypeText)] == [
        "jo@x.org",
        "pass1",
    ]  # ('pass1' is the password, not 'pass' and '1')


def test_a_sentence_about_a_record_the_user_made_still_names_it():
    read = read_record_goal("I opened a ticket about battery drain last week. Please close it.")
    assert read is not None and read.noun == "ticket" and "battery drain" in read.about


def test_account_words_are_dropped_only_from_the_users_own_account_and_paying_for_a_plan_is_its_price():
    saver = analyze("What is the interest rate on the Easy Saver account?")
    assert "Easy Saver" in saver.entity
    assert analyze("How much do I have to pay for the premium plan?").attr != "balance"
    assert analyze("how much have I still got to pay on my glasses").attr == "balance"


def test_an_alert_that_says_nothing_was_saved_is_a_refusal():
    p = Page("http://e.test/my/tariff", "My tariff")
    p.add("input", "", name="Brightwell Fix 12 Green", input_type="radio", y=120)
    p.add("div", "Details not updated - please tick the box", role="alert", y=90, w=600)
    p.add("button", "Switch tariff", y=200)
    assert refusal(p.build()) == "Details not updated - please tick the box"


def test_a_label_alone_gives_the_next_lines_value_before_a_later_line_of_another_balance():
    lines = ["Current balance", "£137.50", "Recent payments", "Opening balance on 1 April: £0.00"]
    assert value_by_label_words(lines, "balance", VALUE_RX["money"])[0] == "£137.50"


def test_a_box_offering_marketing_is_never_ticked_for_the_user():
    p = Page("http://e.test/form", "Form")
    p.add("input", "", name="I agree to receive marketing emails from our partners", input_type="checkbox",
          role="checkbox", y=100)  # fmt: skip
    assert acknowledgement(p.build()) is None


def test_that_and_it_point_back_only_where_they_stand_for_the_thing():
    boots = parse_goal("I'm looking for hiking boots. What is the cheapest pair that would fit a size 9?")
    asked = [i.question for i in boots.intents if isinstance(i, Ask)]
    assert asked and "pair that would fit" in asked[0]
    hotel = parse_goal(
        "I'm looking for a quiet hotel. Does the Grand Hotel Lisbon have a pool, and is it heated?"
    )
    assert all("quiet hotel heated" not in i.question for i in hotel.intents if isinstance(i, Ask))


def test_a_tick_boxs_label_hides_only_its_own_line():
    read = read_record_goal("Update my email address to new@x.com")
    p = Page("http://e.test/details", "My details")
    p.add("input", "", name="Email", input_type="checkbox", role="checkbox", checked=True, y=100)
    p.text("Email: new@x.com")
    assert read_change(read, p.build()).proven


def test_a_bookings_reference_with_a_password_is_no_account_and_a_quoted_quote_is_a_target():
    assert parse_goal("Booking ref no. BK-5521, password Harbour1").unknown
    m = CLICKED.match("Click 'Say \"hi\"'")
    assert m is not None and m.group("t") == 'Say "hi"'
