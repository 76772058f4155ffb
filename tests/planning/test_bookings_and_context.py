"""Bookings, orders and applications read from the details people give ('for 2 adults, arriving 9 August 2027 for
4 nights ... mobile 07700 900614') and put into the form's own fields; accounts stated rather than asked for ('My
login is x / pw', 'booking reference QK7R2M (surname Sinclair)'); a sentence that tells the situation ("I'm 23
and want to hire a car from Redway") beside a question; 'the last time' names no 'Time' column."""

from __future__ import annotations

import pytest

from agent.planning.offline.grammar import parse_goal
from agent.planning.offline.intents import Ask, Submit, TypeText
from agent.planning.offline.page import site_words
from agent.planning.offline.questions import Query
from agent.planning.offline.records.bookings import detailed, is_booking, read_booking
from agent.planning.offline.records.fills import plan_fills
from agent.planning.offline.records.plan import plan_record
from agent.planning.offline.records.which import record_goal_of
from agent.planning.offline.tables import table_answer
from agent.planning.verify.parts import goal_parts
from tests.planning.pages import Page


@pytest.mark.parametrize(
    ("goal", "fields"),
    [
        ("Log into the Alderbrook client area as rd@example.com, password Collie2026. What did Biscuit weigh?",
         [("email", "rd@example.com"), ("password", "Collie2026")]),
        ("My login is rd@example.com / Collie2026. What did Biscuit weigh?",
         [("email", "rd@example.com"), ("password", "Collie2026")]),
        ("Account: rd@example.com, password Collie2026. What did Biscuit weigh?",
         [("email", "rd@example.com"), ("password", "Collie2026")]),
        ("Sign in to my Redway account (hb@example.com / Tarmac-77). When is my van due back?",
         [("email", "hb@example.com"), ("password", "Tarmac-77")]),
        ("On Riverline Jobs (ah@example.com / Lantern#58), what is the status of my application?",
         [("email", "ah@example.com"), ("password", "Lantern#58")]),
        ("Login: ta@example.com / Crimp2027. What is my membership number?",
         [("email", "ta@example.com"), ("password", "Crimp2027")]),
        ("Username j.whitfield, password Harbour!42. How many tickets do I have open?",
         [("username", "j.whitfield"), ("password", "Harbour!42")]),
        ("Sign in to my Ravenscar account. Email ta@example.com, password Crimp2027. What is my membership number?",
         [("email", "ta@example.com"), ("password", "Crimp2027")]),
        ("Log in to the Wharf Playhouse website (da@example.com, password Footlights9). Which seats do I have?",
         [("email", "da@example.com"), ("password", "Footlights9")]),
        ("Member RW-2291, passphrase Jute-Hemp-7. What is my next booking?",
         [("member", "RW-2291"), ("passphrase", "Jute-Hemp-7")]),
        ("My Ropeworks member ID is RW-2291, passphrase Jute-Hemp-7. What is my next booking?",
         [("member id", "RW-2291"), ("passphrase", "Jute-Hemp-7")]),
        ("Log into Brightwell (account BW-40718823, password Kettle-on-55). How much was my last bill?",
         [("account", "BW-40718823"), ("password", "Kettle-on-55")]),
        ("My account number is BW-40718823 and my password is Kettle-on-55. How much was my last bill?",
         [("account number", "BW-40718823"), ("password", "Kettle-on-55")]),
        ("Sign in with op@example.com and Kettle-on-55. How much was my last bill?",
         [("email", "op@example.com"), ("password", "Kettle-on-55")]),
        ("Members' login hb@example.com, password Spinning-Jenny3. What is my next booking?",
         [("email", "hb@example.com"), ("password", "Spinning-Jenny3")]),
        ("Use my Ropeworks account (RW-2291 / Jute-Hemp-7) to tell me my next booking.",
         [("username", "RW-2291"), ("password", "Jute-Hemp-7")]),
    ],
)  # fmt: skip
def test_an_account_stated_rather_than_asked_for_logs_in(goal, fields):
    parsed = parse_goal(goal)
    assert not parsed.unknown, parsed.unknown
    assert any(isinstance(i, Submit) and i.purpose == "login" for i in parsed.intents)
    assert [(i.field, i.text) for i in parsed.intents if isinstance(i, TypeText)] == fields
    assert isinstance(parsed.intents[-1], Ask)


def test_a_booking_reference_and_surname_open_the_booking():
    parsed = parse_goal(
        "My Skerry Air booking reference is QK7R2M (surname Sinclair). What seat is Morag in?"
    )
    typed = [(i.field, i.text) for i in parsed.intents if isinstance(i, TypeText)]
    assert typed == [("booking reference", "QK7R2M"), ("surname", "Sinclair")]
    assert isinstance(parsed.intents[-1], Ask)


def test_a_sentence_that_tells_the_situation_keeps_only_where_for_the_question():
    goal = "I'm 23 and want to hire a car from Redway. How much per day is their young driver surcharge?"
    parsed = parse_goal(goal)
    assert parsed.understood and parsed.context == ("I'm 23 and want to hire a car from Redway",)
    assert [i.question for i in parsed.intents] == [
        "How much per day is their young driver surcharge from Redway"
    ]
    assert [p["kind"] for p in goal_parts(goal)] == ["answer"]  # the situation is no task the judge waits for


def test_a_situation_beside_an_action_is_still_refused():
    """Said beside an action it may be a detail the action needs ('Weekly emails are enough'): not dropped."""
    parsed = parse_goal("It's for a birthday. Click the Order button")
    assert parsed.unknown == ("It's for a birthday",)


def test_the_last_time_names_no_time_column():
    """'What did Biscuit weigh the last time he was weighed?' was answered '14:40' from an appointments table."""
    p = Page("http://vet.test/client", "Client area")
    for n, head in enumerate(("Date", "Time", "Pet", "Reason")):
        p.add("th", head, x=100 + 150 * n, y=200, w=140, role="columnheader")
    for n, cell in enumerate(("Tuesday 8 December 2026", "14:40", "Biscuit", "Follow-up")):
        p.add("td", cell, x=100 + 150 * n, y=240, w=140, role="cell")
    question = "What did Biscuit weigh the last time he was weighed"
    found = table_answer(Query(kind="generic", question=question), p.build())
    assert found is None or not found.found or found.text != "14:40"


def test_the_place_in_the_sites_own_name_is_the_sites():
    p = Page("http://gh.test/policies", "Good to know – Saltings Guest House")
    p.link("Saltings Guest House · Wrenham-next-the-Sea", "/", y=20, zone="header")
    assert {"saltings", "wrenham"} <= site_words(p.build())


BOATHOUSE = (
    "Book the Boathouse Suite at Saltings Guest House for 2 adults and 2 children, arriving 9 August 2027 for 4 "
    "nights, bed and breakfast, and we're bringing one dog. Lead guest Priya Raman, priya.raman@example.org, "
    "mobile 07700 900614."
)


def test_a_bookings_details_are_read_by_what_they_are():
    goal = read_booking(BOATHOUSE)
    assert goal is not None and is_booking(goal) and detailed(goal) and goal.about == "Boathouse Suite"
    assert dict(goal.settings) == {
        "email": "priya.raman@example.org",
        "mobile": "07700 900614",
        "full name": "Priya Raman",
        "arrival date": "9 August 2027",
        "adults": "2 adults",
        "children": "2 children",
        "nights": "4 nights",
        "dog": "1 dog",
    }
    van = read_booking(
        "Book a medium van from Redway's Newbury branch, picking up on Saturday 12 June 2027 at 10:00 and "
        "returning on Monday 14 June 2027 at 17:00. Driver: Daniel Osei, daniel.osei@example.com, born 3 April 1992."
    )
    assert van is not None and dict(van.settings) == {
        "email": "daniel.osei@example.com",
        "full name": "Daniel Osei",
        "pick-up date": "12 June 2027",
        "pick-up time": "10:00",
        "return date": "14 June 2027",
        "return time": "17:00",
        "date of birth": "3 April 1992",
    }


def test_a_simple_booking_stays_the_grammars_and_a_detailed_one_is_a_form():
    assert (
        record_goal_of(parse_goal('Book a place on the Raku Weekend for "Dana Ruiz" with email "d@x.org"'))
        is None
    )
    assert read_booking("Book a table") is None  # no detail to fill or prove it by
    assert is_booking(record_goal_of(parse_goal(BOATHOUSE)))


def _details_form() -> Page:
    p = Page("http://gh.test/book/details", "Your details – Saltings Guest House")
    p.add("h1", "Your details", y=60)
    p.add("input", "", name="Room only", input_type="radio", role="radio", checked=True, y=100)
    p.add("input", "", name="Bed & breakfast (+£12.00 per person per night)", input_type="radio", role="radio",
          checked=False, y=130)  # fmt: skip
    p.add("select", "", name="Dogs", options=["No dogs", "1 dog", "2 dogs"], y=170)
    p.add("select", "", name="Adults", options=["1", "2", "3", "4"], y=200)
    p.add("input", "", name="First name", input_type="text", y=240)
    p.add("input", "", name="Last name", input_type="text", y=270)
    p.add("input", "", name="Email address", input_type="email", y=300)
    p.add("input", "", name="Mobile number", input_type="tel", y=330)
    p.add("input", "", name="I have read the booking conditions", input_type="checkbox", role="checkbox",
          checked=False, y=370)  # fmt: skip
    p.add("button", "Confirm booking", y=420)
    return p


def test_a_bookings_form_takes_counts_options_said_in_passing_and_a_split_name():
    goal = read_booking(BOATHOUSE)
    fills, _ = plan_fills(goal, _details_form().build())
    placed = {(f.label, f.value, f.how) for f in fills}
    assert ("Dogs", "1 dog", "select") in placed
    assert ("Adults", "2", "select") in placed
    assert ("First name", "Priya", "type") in placed and ("Last name", "Raman", "type") in placed
    assert ("Email address", "priya.raman@example.org", "type") in placed
    assert ("Mobile number", "07700 900614", "type") in placed
    assert any(f.how == "check" and f.label.startswith("Bed & breakfast") for f in fills)


def test_a_bookings_form_is_filled_in_its_stages_and_its_conditions_ticked():
    said = "Book the Boathouse Suite for 2 adults arriving 9 August 2027, email priya@example.org"
    goal = read_booking(said)
    result = plan_record({"goal": said, "observation": _details_form().build(), "history": []}, goal)
    assert result["proposed_actions"] == [
        'Type "priya@example.org" into "Email address"',
        'Select "2" from "Adults"',
        'Check "I have read the booking conditions"',
        'Click the "Confirm booking" button',
    ]


def test_a_booking_goes_to_the_items_own_control_first():
    goal = read_booking(BOATHOUSE)
    p = Page("http://gh.test/rooms", "Rooms – Saltings Guest House")
    p.add("h2", "Samphire", y=100)
    p.add("button", "Book", y=130, x=100)
    p.add("h2", "Boathouse Suite", y=300)
    p.add("button", "Book", y=330, x=100)
    result = plan_record({"goal": BOATHOUSE, "observation": p.build(), "history": []}, goal)
    assert result["proposed_actions"] and "Book" in result["proposed_actions"][0]


def _results_page() -> Page:
    """Rooms free for the dates: each row's name is a link set at the top of its cell, its 'Select' mid-row."""
    p = Page("http://gh.test/book?arrival=2027-08-09&nights=4", "Check availability – Saltings Guest House")
    p.add("h2", "Rooms for Mon 9 August 2027 to Fri 13 August 2027", y=900)
    for n, (room, free) in enumerate(
        (("Samphire", "Sleeps 2 – too small"), ("Boathouse Suite", "Available"))
    ):
        y = 1000 + 70 * n
        p.link(room, f"/rooms/{n}", x=130, y=y + 2, w=100, h=16, block=f"#r{n}")
        p.add("td", free, x=470, y=y - 10, w=290, h=61, role="cell", block=f"#r{n}")
        if free == "Available":
            p.link("Select", f"/book/details?room={n}", x=772, y=y, w=70, h=37, block=f"#r{n}")
    return p


def test_after_the_availability_search_the_rooms_own_select_is_used():
    goal = read_booking(BOATHOUSE)
    history = [{"plan_step": 'Click the "Check availability" button', "status": "success"}]
    result = plan_record(
        {"goal": BOATHOUSE, "observation": _results_page().build(), "history": history}, goal
    )
    assert result["proposed_actions"][0].startswith('Click the "Select" link'), result


def test_a_date_field_that_shows_the_day_in_its_own_format_holds_it():
    from agent.planning.offline.records.forms import Fill, holds

    field = {"id": 1, "tag": "input", "input_type": "date", "value": "2027-03-11", "name": "Date"}
    assert holds(Fill(field, "11 March 2027", "type", "date"))  # not typed a second time
    assert not holds(Fill(field, "12 March 2027", "type", "date"))


def test_a_booking_is_proven_only_on_a_page_that_confirms_it():
    from agent.planning.offline.records.proof import read_change

    said = "Book Pepper in for her vaccination on Thursday 11 March 2027 at 10:20"
    goal = read_booking(said)
    form = Page("http://vet.test/client/appointments/new", "Book an appointment")
    form.add("h1", "Book an appointment", y=60)
    form.add("input", "", name="Date", input_type="date", value="2027-03-11", y=100)
    form.add("td", "Thursday 11 March 2027 at 10:20", y=140)  # a summary beside the form still being filled
    assert not read_change(goal, form.build()).proven
    done = Page("http://vet.test/client/appointments/new", "Appointment booked")
    done.add("h1", "Appointment booked", y=60)
    done.add("td", "Thursday 11 March 2027 at 10:20", y=140)
    assert read_change(goal, done.build()).proven


def test_before_a_booking_only_its_login_is_done():
    """The grammar reads the booking's own sentence as a click and a typing; only the log-in goes first."""
    from agent.planning.offline.records.plan import leading_goal

    said = (
        "Book Pepper in for her yearly vaccination with Dr Nadia Frost on Thursday 11 March 2027 at 10:20. "
        "My login is rd@example.com / Collie2026."
    )
    parsed = parse_goal(said)
    assert leading_goal(parsed, record_goal_of(parsed)) == (
        'Type "rd@example.com" into "email"; Type "Collie2026" into "password"; Submit the login form'
    )


def test_what_the_user_is_after_is_what_its_means():
    """ "I'm looking for The Salt Road by Imogen Hale. What's its call number?" was once answered with another
    book's call number: the situation was dropped and 'its' pointed at whatever page was open."""
    parsed = parse_goal("I'm looking for The Salt Road by Imogen Hale. What's its call number?")
    assert [i.question for i in parsed.intents] == ["What's the call number of The Salt Road by Imogen Hale"]


@pytest.mark.parametrize(
    "goal",
    ["I'm new here. What's its call number?", "I'm new here. What's their phone number?"],
)
def test_a_question_pointing_back_at_what_the_situation_never_names_is_refused(goal):
    assert parse_goal(goal).unknown == ("I'm new here",)


@pytest.mark.parametrize(
    ("goal", "question"),
    [
        ("My partner wants to learn to lead climb. What does Ravenscar charge for its Learn to Lead course?",
         "What does Ravenscar charge for its Learn to Lead course"),
        ("My dad is Deaf. What date is the signed performance of The Keeper at the Playhouse?",
         "What date is the signed performance of The Keeper at the Playhouse"),
        ("We've got a contractor coming next week. What's the Wi-Fi network they should connect to?",
         "What's the Wi-Fi network a contractor should connect to"),
    ],
)  # fmt: skip
def test_a_situation_is_read_past_when_the_question_stands_on_its_own(goal, question):
    parsed = parse_goal(goal)
    assert not parsed.unknown and [i.question for i in parsed.intents] == [question]


def test_a_sentence_with_a_reference_in_it_is_a_detail_never_read_past():
    """'My bike's in at Spokesmith (job SW-31877, postcode LS6 2QT)': the job the question is about."""
    parsed = parse_goal(
        "My bike's in at Spokesmith (job SW-31877, postcode LS6 2QT). What's the total they quoted?"
    )
    assert parsed.unknown == ("My bike's in at Spokesmith (job SW-31877, postcode LS6 2QT)",)


def test_a_booking_is_never_proven_by_an_alert_or_a_side_block():
    """An error alert that says 'your reference will be sent' confirms nothing; details shown only beside the
    page's own content (an aside) are not this booking's."""
    from agent.planning.offline.records.proof import read_change

    goal = read_booking("Book a double kayak on Saturday 12 June 2027 at 13:00, email lena@example.com")
    refused = Page("http://x.test/details", "Your details")
    refused.add("h1", "Your details", y=60)
    refused.add("p", "Please give a name. Your reference will be sent to lena@example.com on 12 June 2027 at 13:00",
                role="alert", y=100)  # fmt: skip
    assert not read_change(goal, refused.build()).proven
    aside = Page("http://x.test/done", "Booking confirmed")
    aside.add("h1", "Booking confirmed", y=60)
    aside.add("p", "12 June 2027 13:00 lena@example.com", zone="aside", y=100)
    assert not read_change(goal, aside.build()).proven


def test_who_acts_in_a_question_is_the_one_the_situation_introduces():
    """'they' in the question is the contractor of the situation: a page answers contractors and staff apart."""
    parsed = parse_goal(
        "We've got a contractor coming into the Northgate office next week. "
        "What's the name of the Wi-Fi network they should connect to?"
    )
    assert parsed.intents == (Ask("What's the name of the Wi-Fi network a contractor should connect to"),)
    # two people in the situation: 'they' is left as it is
    both = parse_goal(
        "My son and a contractor are coming in. What's the name of the Wi-Fi network they should connect to?"
    )
    assert all("contractor should" not in i.question for i in both.intents if isinstance(i, Ask))


def test_registering_someone_else_makes_no_account():
    """'Register her as my guest' names the guest, not an account to create with the user name 'guest'."""
    parsed = parse_goal(
        "Register her as my guest. Ropeworks login: member ID RW-2291, passphrase Jute-Hemp-7."
    )
    assert ("username", "guest") not in [(i.field, i.text) for i in parsed.intents if isinstance(i, TypeText)]


def test_a_date_goes_into_a_text_field_in_the_format_it_shows():
    from agent.planning.offline.dates import field_value

    assert field_value("4 March 1972", "", "DD/MM/YYYY") == "04/03/1972"
    assert field_value("4 March 1972", "text", "mm-dd-yyyy") == "03-04-1972"
    assert field_value("4 March 1972", "date", "DD/MM/YYYY") == "1972-03-04"  # a date input's own format wins
    assert field_value("22/08/1990", "", "DD/MM/YYYY") == "22/08/1990"  # written in figures: the user's order
    assert field_value("Derek", "", "DD/MM/YYYY") == "Derek"


def test_a_time_is_chosen_from_the_options_that_write_it_otherwise():
    from agent.planning.offline.matching import text_of_choice

    times = {"options": ["Choose a time", "09:00", "10:20", "19:00"]}
    assert text_of_choice(times, "10.20am") == "10:20"
    assert text_of_choice(times, "7pm") == "19:00"
    assert text_of_choice(times, "8pm") is None


def test_a_name_that_leads_the_persons_details_is_the_booking_name():
    goal = record_goal_of(parse_goal(
        "Please book a flu jab at the Ashgrove branch, Thursday 7 October 2027 at 10.20am. I'm paying for it "
        "myself. Derek Hammond, born 4 March 1972, phone 07700 900 358"
    ))  # fmt: skip
    assert goal is not None
    said = dict(goal.settings)
    assert said["full name"] == "Derek Hammond" and said["time"] == "10.20am"
    assert said["date of birth"] == "4 March 1972"
    dob = record_goal_of(parse_goal("Book a yellow fever jab on 14 May 2027 at 11am. Priya Nair, date of birth "
                                    "22/08/1990, phone 07700 900 691."))  # fmt: skip
    assert dob is not None and dict(dob.settings)["date of birth"] == "22/08/1990"


def test_a_radio_is_chosen_by_what_the_goal_says_beyond_the_thing_booked():
    goal = record_goal_of(parse_goal(
        "Please book a flu jab at the Ashgrove branch on 7 October 2027 at 10.20am. I'm paying for it myself. "
        "Derek Hammond, phone 07700 900 358"
    ))  # fmt: skip
    p = Page("https://chemist.test/flu/book", "Book a flu jab")
    p.add("input", "", y=100, name="Your full name", input_type="text")
    p.add("input", "", y=140, name="Phone", input_type="tel")
    p.add(
        "input",
        "",
        y=200,
        role="radio",
        input_type="radio",
        name="I'm eligible for a free NHS flu jab",
        attrs={"name": "pay"},
    )
    p.add(
        "input", "", y=230, role="radio", input_type="radio", name="I'll pay (£16.95)", attrs={"name": "pay"}
    )
    p.add("button", "Book appointment", y=300)
    fills, _ = plan_fills(goal, p.build())
    assert [f.value for f in fills if f.how == "check"] == ["I'll pay (£16.95)"]


def test_a_verb_or_a_place_never_passes_for_the_name_that_leads_the_details():
    goal = record_goal_of(
        parse_goal("Book Derek Hammond, born 4 March 1972, a flu jab on 7 October 2027 at 10am.")
    )
    assert goal is None or dict(goal.settings).get("full name") != "Book Derek Hammond"
    later = record_goal_of(parse_goal(
        "Book a flu jab on 7 October 2027 at 10am at Greenway Surgery Derek Hammond, born 4 March 1972"
    ))  # fmt: skip
    assert later is None or dict(later.settings).get("full name") != "Surgery Derek Hammond"


def test_a_plain_word_after_the_account_is_no_password_and_card_details_are_no_login():
    words = [
        (i.field, i.text)
        for i in parse_goal("Log in with dana@x.io and continue").intents
        if isinstance(i, TypeText)
    ]
    assert ("password", "continue") not in words
    card = parse_goal("Use my card details (4111 1111 1111 1111, exp 12/27) to pay for the order.")
    assert not any(isinstance(i, Submit) and i.purpose == "login" for i in card.intents)


def test_a_radio_the_goal_says_no_to_is_never_chosen():
    goal = record_goal_of(parse_goal(
        "Book a double room for 2 adults on 9 August 2027 for 2 nights, no breakfast please. "
        "Name Ann Lee, phone 07700 900 111"
    ))  # fmt: skip
    p = Page("https://inn.test/book", "Book")
    p.add("input", "", y=100, name="Name", input_type="text")
    p.add(
        "input",
        "",
        y=200,
        role="radio",
        input_type="radio",
        name="Room with breakfast (+£12 per night)",
        attrs={"name": "board"},
    )
    p.add("input", "", y=230, role="radio", input_type="radio", name="Room only", attrs={"name": "board"})
    fills, _ = plan_fills(goal, p.build())
    assert "Room with breakfast (+£12 per night)" not in [f.value for f in fills if f.how == "check"]
