"""Requests said the way people write to a business: a greeting before and thanks after, a change asked as a
question ('could you book Leo onto the Lego club?'), what is owed with the thing and whom ('how much rent I
currently owe Brookvale Homes'), a price asked of the future, an account reference in brackets, a child booked
onto a club by first name, and the next of dated rows ('my next invoice')."""

from __future__ import annotations

from datetime import date, timedelta

import pytest

from agent.planning.offline import answer_question
from agent.planning.offline.grammar import parse_goal
from agent.planning.offline.intents import Ask, TypeText
from agent.planning.offline.leads import subject_lead
from agent.planning.offline.questions import analyze
from agent.planning.offline.records.bookings import read_booking
from agent.planning.offline.records.fills import plan_fills
from agent.planning.offline.records.goal import read_record_goal
from agent.planning.offline.records.proof import _option_shown
from agent.planning.offline.records.which import record_goal_of
from agent.planning.verify.parts import answer_part
from tests.planning.pages import Page


@pytest.mark.parametrize(
    "goal",
    [
        "Hi, what is the price of the kettle?",
        "Hello there! What is the price of the kettle? Thanks!",
        "Good morning - what is the price of the kettle? Many thanks.",
        "What is the price of the kettle? Cheers",
    ],
)
def test_a_greeting_and_thanks_ask_for_nothing(goal):
    parsed = parse_goal(goal)
    assert parsed.understood, parsed.unknown
    asked = [i.question.rstrip("?").lower() for i in parsed.intents if isinstance(i, Ask)]
    assert asked == ["what is the price of the kettle"]


def test_a_greeting_alone_is_still_not_understood():
    assert not parse_goal("Hi").understood


@pytest.mark.parametrize(
    "goal",
    [
        "Could you book Leo onto the Thursday Lego club for next term please?",
        "Can you cancel my booking for 3 May?",
        "Could you update it on my tenant account?",
    ],
)
def test_a_change_asked_as_a_question_is_never_read_as_a_question(goal):
    assert not any(isinstance(i, Ask) for i in parse_goal(goal).intents)


@pytest.mark.parametrize(
    "goal",
    [
        "Could you tell me the price of the kettle?",
        "Could you let me know what time the pool opens on Saturday?",
        "Order status of my last purchase?",
        "Book club meeting times this month?",
        "Set up fees for a business account?",
        "Could you add up how much I spent in March?",
    ],
)
def test_a_question_asked_politely_is_still_a_question(goal):
    parsed = parse_goal(goal)
    assert parsed.understood and isinstance(parsed.intents[-1], Ask)


@pytest.mark.parametrize(
    ("goal", "kept"),
    [
        ("Hi-Fi Corner: what is the price of the amplifier?", "Hi-Fi Corner"),
        ("Add a comment saying: Received the parcel, thanks", "thanks"),
        ("Leave a message: Got it. Thank you!", "Thank you"),
    ],
)
def test_words_that_only_look_like_courtesy_are_kept(goal, kept):
    from agent.planning.offline.clauses import without_courtesy

    assert kept in without_courtesy(goal)


@pytest.mark.parametrize(
    ("question", "asked"),
    [
        ("how much rent I currently owe Brookvale Homes", "what is the balance of rent"),
        ("how much rent do I owe?", "what is the balance of rent"),
        ("How much council tax do I still owe?", "what is the balance of council tax"),
        ("how much money do I owe the library", "what is the balance"),
        ("how much rent do I owe for March?", "what is the balance of rent for March"),
        ("how much interest do I owe on my loan?", "what is the balance of interest on my loan"),
        (
            "How much do I owe Tom Baker on the shared flat expenses?",
            "what is the balance of the shared flat expenses to Tom Baker",
        ),
        ("how much more do I owe?", "how much more do I owe"),
        ("How much will it cost?", "How much will it cost"),
        (
            "How much will the Saturday hire of the main hall cost?",
            "How much will the Saturday hire of the main hall cost",
        ),
        ("how much do I owe on my loan?", "what is the balance of my loan"),
        ("How much is my next storage invoice going to be?", "how much is my next storage invoice"),
        ("How much will the final bill be?", "how much is the final bill"),
        (
            "Can you check how much my next quarterly bill is going to be?",
            "how much is my next quarterly bill",
        ),
        ("find out how much our deposit is going to be", "how much is our deposit"),
        ("check how much it is going to be", "check how much it is going to be"),
    ],
)
def test_what_is_owed_and_what_will_be_are_read_plainly(question, asked):
    assert analyze(question).question == asked


def test_account_details_in_brackets_never_join_the_value_before_them():
    parsed = parse_goal("Update my mobile number to 07700 900 562 (ref BV-204417, password Kestrel-19)")
    typed = [(i.field, i.text) for i in parsed.intents if isinstance(i, TypeText)]
    assert ("mobile number", "07700 900 562") in typed and ("password", "Kestrel-19") in typed
    assert ("ref number", "BV-204417") in typed
    # the account is logged in to first: the change is never typed into the log-in form
    assert typed.index(("password", "Kestrel-19")) < typed.index(("mobile number", "07700 900 562"))
    changed = parse_goal("Change my password to Kestrel-20 (ref BV-204417, password Kestrel-19)")
    steps = [(i.field, i.text) for i in changed.intents if isinstance(i, TypeText)]
    assert steps.index(("password", "Kestrel-19")) < steps.index(("password", "Kestrel-20"))


def test_words_in_brackets_that_are_no_account_details_stay_where_they_are():
    parsed = parse_goal("Type 07700 900 562 (mobile) into the phone box")
    assert any(isinstance(i, TypeText) and "(mobile)" in i.text for i in parsed.intents)


@pytest.mark.parametrize(
    "goal",
    [
        "Please book Leo onto the Thursday Lego club for next term.",
        "Sign Leo up for the Thursday Lego club.",
        "Enrol Leo on the Thursday Lego club.",
    ],
)
def test_a_child_booked_onto_a_club_is_a_booking_of_the_club(goal):
    booking = read_booking(goal)
    assert booking is not None and booking.about == "Thursday Lego club"


@pytest.mark.parametrize(
    "goal",
    [
        "Book the boat on the lake, phone 07700 900 111",
        "Book Leo on Monday 3 May",
        "Order Mochi on the menu",
        "Book Conference Room on the second floor, phone 07700 900 111",
        "Book Yoga on next Friday, phone 07700 900 111",
    ],
)
def test_a_place_or_a_day_after_on_is_no_one_booked(goal):
    booking = read_booking(goal)
    assert booking is None or (
        booking.about not in ("lake", "Monday 3 May", "menu", "second floor", "next Friday")
        and not booking.who
    )


def test_enrolling_oneself_stays_the_course_s_own_control():
    assert read_booking("enrol me on the Creative Writing Workshop") is None
    assert read_record_goal("enrol me on the Creative Writing Workshop").op == "act"  # type: ignore[union-attr]


def _club_form() -> Page:
    p = Page("http://school.test/parents/clubs", "Clubs")
    p.add("h1", "Club bookings", y=60)
    p.add(
        "select",
        name="Child",
        y=200,
        options=[
            "Choose a child",
            "Maya Mensah - Hazel class (Year 4)",
            "Leo Mensah - Robins class (Year 1)",
        ],
        value="Choose a child",
    )
    p.add(
        "select", name="Club", y=260, options=["Choose a club", "Lego Club (Thursday)", "Art Club (Friday)"]
    )
    p.add("button", "Book place", y=320)
    return p


def test_the_child_named_by_first_name_is_chosen_and_shown_by_name():
    goal = record_goal_of(
        parse_goal("Could you book Leo onto the Lego Club for next term? Login a@b.com / pw1")
    )
    assert goal is not None
    fills, _ = plan_fills(goal, _club_form().build())
    chosen = {f.element.get("name"): f.value for f in fills}
    assert chosen.get("Child") == "Leo Mensah - Robins class (Year 1)"
    assert goal.who == "Leo"
    option = "Leo Mensah - Robins class (Year 1)"
    assert _option_shown(option, ["Leo Mensah: Lego Club (Thursday)"], "Leo")
    assert not _option_shown(option, ["Maya Mensah: Lego Club (Thursday)"], "Leo")
    assert not _option_shown(option, ["Leo Mensah - Hazel class: Lego Club"], "Leo")


def test_an_option_s_description_after_a_dash_is_never_dropped_for_a_thing():
    # ('Double Room - Sea View' is not shown by a line about the Garden View room)
    assert not _option_shown("Double Room - Sea View (£120)", ["Room: Double Room - Garden View (£95)"])
    assert not _option_shown("Full Day - Saturday", ["Full Day - Sunday, 2 places"], "Leo")


def test_the_child_no_option_offers_is_missing_never_left_to_the_default():
    page = _club_form()
    page.elements[1]["name"] = "Booking for"
    page.elements[1]["options"] = ["Maya Mensah", "Sam Mensah"]
    page.elements[1]["value"] = "Maya Mensah"
    goal = record_goal_of(
        parse_goal("Could you book Leo onto the Lego Club for next term? Login a@b.com / pw1")
    )
    _, missing = plan_fills(goal, page.build())  # type: ignore[arg-type]
    assert "Leo" in missing


def test_a_child_named_surname_first_or_after_a_title_is_still_the_one():
    page = _club_form()
    page.elements[1]["options"] = ["Choose", "Mensah, Maya", "Mensah, Leo"]
    goal = record_goal_of(
        parse_goal("Could you book Leo onto the Lego Club for next term? Login a@b.com / pw1")
    )
    fills, _ = plan_fills(goal, page.build())  # type: ignore[arg-type]
    assert {f.element.get("name"): f.value for f in fills}.get("Child") == "Mensah, Leo"


def test_two_children_of_that_first_name_are_no_choice():
    page = _club_form()
    page.elements[1]["options"] = ["Choose a child", "Leo Mensah - Robins", "Leo Tanaka - Hazel"]
    goal = record_goal_of(
        parse_goal("Could you book Leo onto the Lego Club for next term? Login a@b.com / pw1")
    )
    fills, _ = plan_fills(goal, page.build())  # type: ignore[arg-type]
    assert "Child" not in {f.element.get("name") for f in fills}


def test_a_link_that_acts_is_never_the_lead_to_a_reading():
    p = Page("http://dentist.test/account", "My account")
    p.link("Appointments", "/appointments", y=40, zone="nav")
    p.link("Cancel dentist appointment", "/appointments/1/cancel", y=300)
    assert (
        subject_lead(analyze("When is my dentist appointment?"), p.build()) == 'Click the "Appointments" link'
    )


def test_a_link_naming_the_whole_subject_is_followed_before_one_naming_part_of_it():
    p = Page("http://homes.test/account", "My account")
    p.link("Rent", "/rent", y=40, zone="nav")
    p.link("View rent statement and balance", "/account/rent", y=300)
    step = subject_lead(analyze("how much rent do I owe"), p.build())
    assert step == 'Click the "View rent statement and balance" link'


def _invoices(days: list[date]) -> Page:
    p = Page("http://store.test/account/invoices", "Invoices | Stowaway")
    p.add("h1", "Invoices", y=60)
    for x, head in zip((100, 250, 400), ("Invoice", "Amount", "Due date"), strict=True):
        p.add("th", head, x=x, y=120, w=140)
    for n, day in enumerate(days):
        y = 160 + 40 * n
        for x, cell in zip(
            (100, 250, 400), (f"INV-{n + 1}", f"£{100 + n}.50", f"{day.day} {day:%B %Y}"), strict=True
        ):
            p.add("td", cell, x=x, y=y, w=140)
    return p


def test_the_next_of_dated_rows_is_the_soonest_from_today_whichever_way_they_run():
    today = date.today()
    newest_first = [today + timedelta(days=40), today + timedelta(days=9), today - timedelta(days=20)]
    answer = answer_question("How much is my next storage invoice", _invoices(newest_first).build())
    assert answer.found and answer.text == "£101.50", answer
    oldest_first = list(reversed(newest_first))
    answer = answer_question("How much is my next storage invoice", _invoices(oldest_first).build())
    assert answer.found and answer.text == "£101.50", answer


def test_the_next_row_is_no_word_its_block_must_say():
    assert answer_part("How much is my next storage invoice")["subject"] == ["storage", "invoice"]
    assert "last" in answer_part("what is the price of the Last Word novel")["subject"]
    assert (
        "last" in answer_part("tell me the total of my last order")["subject"]
    )  # (the latest keeps its word)


def test_the_next_row_is_of_the_kind_the_question_names_and_by_the_day_still_to_come():
    today = date.today()
    p = Page("http://store.test/account/invoices", "Invoices | Stowaway")
    p.add("h1", "Invoices", y=60)
    heads = ("Item", "Issued", "Amount", "Due date")
    for x, head in zip((100, 250, 400, 550), heads, strict=True):
        p.add("th", head, x=x, y=120, w=140)
    rows = [("Unit rent", 109.95, 30), ("Contents insurance", 12.0, 4), ("Unit rent", 98.0, -20)]
    for n, (item, amount, offset) in enumerate(rows):
        due, issued = today + timedelta(days=offset), today - timedelta(days=40)
        cells = (item, f"{issued.day} {issued:%B %Y}", f"£{amount:.2f}", f"{due.day} {due:%B %Y}")
        for x, cell in zip((100, 250, 400, 550), cells, strict=True):
            p.add("td", cell, x=x, y=160 + 40 * n, w=140)
    answer = answer_question("How much is my next unit rent invoice", p.build())
    assert answer.found and answer.text == "£109.95", answer
    answer = answer_question("How much is my next invoice", p.build())
    assert answer.found and answer.text == "£12.00", answer


def test_a_member_at_a_business_with_details_in_brackets_logs_in_first():
    parsed = parse_goal(
        "Hello, I'm a customer at Ferndale Garden Centre (loyalty number FG-55120, password Primrose-3). "
        "What is my points balance?"
    )
    assert parsed.understood, parsed.unknown
    typed = [(i.field, i.text) for i in parsed.intents if isinstance(i, TypeText)]
    assert ("password", "Primrose-3") in typed and any(t == "FG-55120" for _, t in typed)
