"""Changes to the user's own account said the way people say them: news of a change ('My mobile number has
changed to X. Please update it'), a list of readings after a colon, a switch to a named plan. Each is read as a
record goal, reached by the link named for what it changes, and proven only by what the page keeps."""

from __future__ import annotations

from agent.planning.offline.grammar import parse_goal
from agent.planning.offline.intents import TypeText
from agent.planning.offline.leads import login_lead
from agent.planning.offline.records.bookings import read_booking
from agent.planning.offline.records.finding import subject_link
from agent.planning.offline.records.goal import read_record_goal
from agent.planning.offline.records.plan import leading_intents, plan_record
from agent.planning.offline.records.progress import pending_save, placed_values, reread
from agent.planning.offline.records.proof import read_change, refusal
from agent.planning.offline.records.restate import restate
from agent.planning.offline.records.which import record_goal_of
from tests.planning.pages import Page


def test_news_of_a_change_is_the_update_it_asks_for():
    goal = read_record_goal(
        "My mobile number has changed to 07700 900 512. Please update it on my Hollybank Pharmacy account so I "
        "still get the texts. Email m.ellison@example.com, password Camomile8."
    )
    assert goal is not None and goal.op == "update"
    assert goal.settings == (("mobile number", "07700 900 512"),)
    other = read_record_goal("I've got a new email address: jo@new.org. Please update my details.")
    assert other is not None and other.settings == (("email address", "jo@new.org"),)
    assert restate("My address is now 4 Mill Lane.") == "Update my address to 4 Mill Lane."
    assert restate("My name is Ann. What is my balance?") == "My name is Ann. What is my balance?"


def test_a_list_after_a_colon_gives_each_field_its_figure():
    goal = read_record_goal("Submit my meter readings to Brightwell: electric 24871, gas 08412.")
    assert goal is not None and goal.op == "create"
    assert goal.settings == (("electric", "24871"), ("gas", "08412"))
    said = "Book the room: Tuesday at 2pm, for three people."  # not a list of figures: as it was
    assert restate(said) == said


def test_a_named_value_of_several_words_and_a_brand_before_the_field():
    goal = read_record_goal("Switch my Brightwell energy tariff to Fix 12 Green.")
    assert goal is not None and goal.settings == (("energy tariff", "Fix 12 Green"),)
    plate = read_record_goal("Can you update the registration on my July crossing to Skerrow to YK27 HBN?")
    assert plate is not None and plate.settings == (("registration", "YK27 HBN"),)
    moved = read_record_goal("Move ticket 12 to milestone 2.1")
    assert moved is not None and moved.settings == (("milestone", "2.1"),)


def test_an_own_details_update_the_grammar_also_reads_is_the_record_goal_and_logs_in_first():
    """'Update my mobile number to X. Email ..., password ...' was typed into a 'mobile number' field before the
    log-in: the grammar's guess at the change is no leading step."""
    parsed = parse_goal(
        "Update my mobile number to 07700 900 512. Email m.e@example.com, password Camomile8."
    )
    record = record_goal_of(parsed)
    assert record is not None and record.op == "update"
    leading = leading_intents(parsed, record)
    assert [i.text for i in leading if isinstance(i, TypeText)] == ["m.e@example.com", "Camomile8"]


def _portal() -> Page:
    p = Page("http://energy.test/my", "My account - Brightwell")
    for n, (text, href) in enumerate(
        [
            ("Overview", "/my"),
            ("Bills", "/my/bills"),
            ("Meter readings", "/my/readings"),
            ("My tariff", "/my/tariff"),
        ]
    ):
        p.link(text, href, y=60 + 30 * n, zone="nav")
    p.add("h1", "Welcome back, Owen", y=200)
    return p


def test_the_link_named_for_what_the_change_is_about_is_followed():
    readings = read_record_goal("Submit my meter readings to Brightwell: electric 24871, gas 08412.")
    tariff = read_record_goal("Switch my Brightwell energy tariff to Fix 12 Green.")
    observation = _portal().build()
    assert subject_link(readings, observation, set())["name"] == "Meter readings"
    assert subject_link(tariff, observation, set())["name"] == "My tariff"
    assert subject_link(readings, observation, {"Meter readings"}) is None
    history = [{"plan_step": "Submit the login form", "status": "success", "url": "http://energy.test/login"}]
    planned = plan_record({"observation": observation, "history": history}, readings)
    assert planned["proposed_actions"] == ['Click the "Meter readings" link']


def _tariff_form(alert: str = "", checked: bool = False) -> Page:
    p = Page("http://energy.test/my/tariff", "My tariff - Brightwell")
    p.add("h1", "My tariff", y=60)
    if alert:
        p.add("div", alert, role="alert", y=90, w=600)
    p.add("input", "", name="Brightwell Fix 12 Green", input_type="radio", checked=checked, y=120)
    p.text("Brightwell Fix 12 Green - 24.02p/kWh electricity, exit fee £75")
    p.add("input", "", name="I've read the tariff information", input_type="checkbox", role="checkbox", y=160)
    p.add("button", "Switch tariff", y=200)
    return p


def test_a_form_back_with_an_alert_is_a_refusal_and_an_offered_choice_is_no_proof():
    """The switch was refused ('Please confirm ...') and the form came back with the radio still chosen: its
    own label once passed as the tariff 'shown'."""
    goal = read_record_goal("Switch my Brightwell energy tariff to Fix 12 Green.")
    refused = _tariff_form("Please confirm you've read the tariff information.", checked=True).build()
    assert refusal(refused) == "Please confirm you've read the tariff information."
    reading = read_change(goal, _tariff_form(checked=True).build())
    assert not reading.proven
    saved = Page("http://energy.test/my/tariff", "My tariff")
    saved.add("button", "Switch tariff", y=200)
    saved.add("div", "Your details have been saved.", role="alert", y=90)
    assert refusal(saved.build()) == ""


def test_the_acknowledgement_box_is_ticked_with_the_change():
    goal = read_record_goal("Switch my Brightwell energy tariff to Fix 12 Green.")
    history = [
        {"plan_step": 'Click the "My tariff" link', "status": "success", "url": "http://energy.test/my"}
    ]
    planned = plan_record({"observation": _tariff_form().build(), "history": history}, goal)
    steps = planned["proposed_actions"]
    assert (
        'Check "I\'ve read the tariff information"' in steps
        and steps[-1] == 'Click the "Switch tariff" button'
    )


def test_a_link_named_like_a_save_opens_a_page_and_saves_nothing():
    """'Update details' is the link to the form, not its save: read as a save, the form opened again after the
    real save was taken for an unsaved one and the proof in its fields never read."""
    history = [
        {
            "plan_step": 'Type "07700 900 512" into "Mobile phone"',
            "status": "success",
            "url": "http://x.test/d",
        },
        {"plan_step": 'Click the "Save changes" button', "status": "success", "url": "http://x.test/d"},
        {"plan_step": 'Click the "Update details" link', "status": "success", "url": "http://x.test/"},
    ]
    assert pending_save(history, ("update",))
    assert reread(history, ("update",))


def test_a_click_near_an_anchor_names_its_own_target_and_role():
    """'Click the "Book a lesson" link near "Overview"' was read as a click on 'Book a lesson" link near
    "Overview' with no role: a save of the booking, which then ended 'saved' with nothing filled."""
    history = [
        {"plan_step": "Submit the login form", "status": "success", "url": "http://d.test/login"},
        {
            "plan_step": 'Click the "Book a lesson" link near "Overview"',
            "status": "success",
            "url": "http://d.test/",
        },
    ]
    assert not pending_save(history, ("book",))


def test_a_heading_over_a_form_still_empty_confirms_no_booking():
    """'Rob's booked times' heads a table beside the empty booking form: the booking is not made."""
    goal = read_booking("Book me a driving lesson on Wednesday 16 June 2027 at 1pm.")
    p = Page("http://d.test/pupils/book", "Book a lesson")
    p.add("h1", "Book a lesson", y=60)
    p.add("input", "", name="Date", input_type="date", y=100)
    p.add("button", "Book lesson", y=140)
    p.add("h2", "Rob's booked times", y=200)
    p.text("Wednesday 16 June 2027 11:00–12:00, 15:00–17:00")
    reading = read_change(goal, p.build())
    assert not reading.proven


def test_news_said_with_a_booking_reference_changes_the_booking_and_its_lookup_is_no_change():
    goal = (
        "Hello, we've got a new landline, 01632 960 118. Could you change it on our Skerry Air booking? "
        "Booking QK7R2M, surname Sinclair."
    )
    parsed = parse_goal(goal)
    typed = [i for i in parsed.intents if isinstance(i, TypeText)]
    assert [(t.field, t.text) for t in typed] == [("booking reference", "QK7R2M"), ("surname", "Sinclair")]
    assert not any(getattr(i, "option", None) == "it" for i in parsed.intents)  # no option called 'it'
    record = record_goal_of(parsed)
    assert (
        record is not None and record.op == "update" and record.settings == (("landline", "01632 960 118"),)
    )
    history = [
        {"plan_step": 'Type "QK7R2M" into "booking reference"', "status": "success"},
        {"plan_step": 'Type "Sinclair" into "surname"', "status": "success"},
        {"plan_step": "Submit the form", "status": "success"},
        {"plan_step": 'Type "01632 960 118" into "Landline"', "status": "success"},
    ]
    assert placed_values(history) == ("01632 960 118",)  # the reference and the name only looked it up


def test_it_pointing_back_at_news_is_neither_an_option_nor_a_field():
    for clause in (
        "Please change it on my booking to the 10:15 flight.",
        "Change it in the booking to Tuesday.",
    ):
        parsed = parse_goal(clause)
        assert not parsed.understood and not parsed.intents, parsed.intents


def test_a_bare_reference_with_a_surname_looks_for_the_booking_first_then_a_log_in():
    pending = list(parse_goal("Reference KQ7M4T, surname Okafor.").intents)
    home = Page("http://air.test/", "Kittiwake Air")
    home.add("a", "Book flights", href="/book", y=40)
    home.add("a", "Manage booking", href="/manage", y=40, x=300)
    assert login_lead(pending, home.build()) == 'Click the "manage booking" link'
    club = Page("http://club.test/", "Millbrook Club")
    club.add("a", "Log in", href="/login", y=40)
    assert login_lead(pending, club.build()) == 'Click the "log in" link'
    member = parse_goal("Member reference 4451, surname Okafor.").intents
    assert [i.field for i in member if isinstance(i, TypeText)][0] != "booking reference"  # an account's


def test_a_phone_number_the_page_spaces_otherwise_is_the_one_saved():
    goal = read_record_goal("Please change the mobile number on my Brightwell account to 07700 900464.")
    assert goal is not None
    for shown, proven in (
        ("07700 900 464", True),
        ("+44 7700 900464", True),
        ("07700 900 465", False),
        ("17700 900464", False),
    ):
        page = Page("http://energy.test/my/details", "Your details")
        page.add("input", "", name="Mobile number", value=shown, y=120)
        page.add("button", "Save details", y=180)
        assert read_change(goal, page.build(), (), reread=True).proven is proven, shown
