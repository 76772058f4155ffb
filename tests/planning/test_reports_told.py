"""A report of what the user tells ('The handle on my bedroom window has snapped off ... Please report it as a
repair'): the told sentences are the report's text, its form is the one its page or control calls a report (never
another form a page happens to call so), its kind is chosen by a word the telling shares with one option, it is
read again through 'View this repair', and a date goes into a text field in the format the form's example shows."""

from __future__ import annotations

from agent.planning.offline.dates import field_value
from agent.planning.offline.grammar import parse_goal
from agent.planning.offline.navigator import load_more_move
from agent.planning.offline.page import field_hint
from agent.planning.offline.records.bookings import booking_lead, form_page_words, other_form, read_booking
from agent.planning.offline.records.fills import plan_fills
from agent.planning.offline.records.forms import made_now_link
from agent.planning.offline.records.proof import _contains, _head
from agent.planning.offline.records.which import record_goal_of
from tests.planning.pages import Page

WINDOW = (
    "The handle on my bedroom window has snapped off and now the window won't shut properly. Please report it as "
    "a repair on my Brookvale Homes account - mornings are best for me to let them in. Tenancy ref BV-204417, "
    "password Kestrel-19."
)


def test_what_is_told_is_the_report_s_text_and_what_it_is_reported_as_its_kind():
    report = record_goal_of(parse_goal(WINDOW))
    assert report is not None and report.verb == "report" and report.about == "repair"
    assert (
        report.text
        == "The handle on my bedroom window has snapped off and now the window won't shut properly."
    )
    lost = read_booking(
        "I left my navy rucksack on the number 7 bus on Sunday 29 November 2026. Please report it to Corran Valley "
        "Buses lost property for me - Sam Idowu, sam.idowu@example.com."
    )
    assert lost is not None and lost.about == "Corran Valley Buses lost property"
    assert ("email", "sam.idowu@example.com") in lost.settings and lost.text.startswith(
        "I left my navy rucksack"
    )


def test_report_it_pointing_at_nothing_told_is_no_report():
    assert read_booking("Please report it as a repair.") is None


def test_a_report_s_form_words_are_a_report_s_only():
    report = record_goal_of(parse_goal(WINDOW))
    club = read_booking("Please book Leo onto the Thursday Lego club for next term.")
    assert report is not None and club is not None
    assert form_page_words(report).search("Report a repair")
    assert not form_page_words(club).search("Report an absence")


def _repair_form() -> Page:
    p = Page("http://homes.test/account/repairs/new", "Report a repair")
    p.add("h1", "Report a repair", y=60)
    p.add(
        "select",
        name="Where is the problem?",
        y=150,
        options=["Choose a room", "Kitchen", "Bedroom", "Hallway"],
    )
    p.add(
        "select",
        name="What type of repair is it?",
        y=200,
        options=["Choose a type", "Plumbing", "Electrics", "Doors and windows", "Fencing and gates", "Other"],
    )
    p.add("textarea", name="Describe the problem", y=260)
    p.add("button", "Submit repair", y=400)
    return p


def test_the_report_s_kind_is_the_one_option_its_telling_names():
    report = record_goal_of(parse_goal(WINDOW))
    fills, _ = plan_fills(report, _repair_form().build())  # type: ignore[arg-type]
    chosen = {f.element.get("name"): f.value for f in fills}
    assert chosen["What type of repair is it?"] == "Doors and windows"
    assert chosen["Where is the problem?"] == "Bedroom"
    assert chosen["Describe the problem"].startswith("The handle on my bedroom window")


def test_a_telling_that_names_no_option_chooses_none():
    report = record_goal_of(
        parse_goal(WINDOW.replace("bedroom window", "loft hatch").replace("window", "hatch"))
    )
    fills, _ = plan_fills(report, _repair_form().build())  # type: ignore[arg-type]
    assert "What type of repair is it?" not in {f.element.get("name") for f in fills}


def test_after_the_save_the_link_to_what_was_made_is_read_again():
    report = record_goal_of(parse_goal(WINDOW))
    p = Page("http://homes.test/account/repairs/new", "Repair reported")
    p.link("Repairs", "/repairs", y=20, zone="nav")
    p.add("h1", "Repair reported", y=60)
    p.link("View this repair", "/account/repairs/R-1", y=120)
    p.link("see all my repairs", "/account/repairs", y=160)
    link = made_now_link(report, p.build())  # type: ignore[arg-type]
    assert link is not None and link["attrs"]["href"] == "/account/repairs/R-1"


def test_a_long_value_is_found_by_its_start_cut_at_a_word():
    told = (
        "The handle on my bedroom window has snapped off and now the window won't shut properly, every night."
    )
    assert _head(told).endswith("shut") and _contains(f"What's wrong {told}", _head(told))


def test_a_date_takes_the_format_the_form_shows_under_its_label():
    p = Page("http://buses.test/lost-property", "Lost property")
    box = p.add("input", name="Date of travel", y=200)
    page = p.build()
    page["page_text"] = "Lost property\nDate of travel\nFor example 2026-11-27\nApproximate time"
    hint = field_hint(box, page)
    assert hint == "For example 2026-11-27"
    assert field_value("29 November 2026", "", hint) == "2026-11-29"
    assert field_value("29 November 2026", "", "e.g. 27/11/2026") == "29/11/2026"
    assert field_value("29 November 2026", "", "e.g. 05/06/2026") == "29 November 2026"  # (either way: none)


def test_a_see_all_link_to_a_page_already_read_loads_nothing_more():
    p = Page("http://garden.test/delivery", "Delivery")
    p.link("See all charges", "/delivery", y=300)
    assert load_more_move(p.build(), []) is None
    q = Page("http://garden.test/plants", "Plants")
    q.link("See all plants", "/plants?page=2", y=300)
    assert load_more_move(q.build(), []) is not None


def test_report_it_as_a_state_is_no_new_report():
    told = "The fence repair I reported last week has been fixed. "
    assert read_booking(told + "Please report it as resolved.") is None
    report = read_booking("The tap drips. Could you report it to the council?")
    assert report is not None and report.about == "council"


def test_a_form_for_reports_is_no_way_to_a_booking_and_one_for_bookings_none_to_a_report():
    club = read_booking("Please book Leo onto the Thursday Lego club for next term.")
    report = record_goal_of(parse_goal(WINDOW))
    assert other_form(club, "Report an absence") and not other_form(club, "New booking")  # type: ignore[arg-type]
    assert not other_form(report, "Report a repair") and other_form(report, "Book a visit")  # type: ignore[arg-type]


def test_load_more_on_the_page_s_own_address_is_a_script_s_and_kept():
    p = Page("http://shop.test/product/1", "Kettle")
    p.link("Load more reviews", "/product/1", y=300)
    assert load_more_move(p.build(), []) is not None


def test_notice_is_given_on_the_unit_of_the_size_said_for_the_reason_said():
    notice = read_booking(
        "We're moving house, so please give notice on my 50 sq ft unit at Stowaway - the last day should be 15 "
        "January 2027. Customer no. SS-30917, password Harbour7."
    )
    assert notice is not None and notice.noun == "notice" and ("date", "15 January 2027") in notice.settings
    p = Page("http://store.test/account/notice", "Give notice")
    p.add("h1", "Give notice to vacate", y=60)
    units = ["Choose a unit", "C-214 - 50 sq ft at Riverside", "A-017 - 15 sq ft at Northgate"]
    p.add("select", name="Unit", y=120, options=units, value="Choose a unit")
    p.add("input", name="Move-out date (YYYY-MM-DD)", y=160)
    reasons = ["Choose a reason", "Moving house", "Cost", "Other"]
    p.add("select", name="Reason for leaving", y=200, options=reasons, value="Choose a reason")
    p.add("button", "Give notice", y=300)
    fills, missing = plan_fills(notice, p.build())
    chosen = {f.element.get("name"): f.value for f in fills}
    assert (
        chosen["Unit"] == "C-214 - 50 sq ft at Riverside" and chosen["Reason for leaving"] == "Moving house"
    )
    assert not missing


def test_the_two_of_us_are_two_places():
    booking = read_booking(
        "Book the two of us onto the winter pruning workshop. Name Priya Shah, phone 07700 900 431."
    )
    assert booking is not None and booking.about == "winter pruning workshop"
    p = Page("http://garden.test/workshops/winter", "Winter pruning")
    p.add("h1", "Winter pruning", y=60)
    p.add("select", name="Number of places", y=120, options=["1", "2", "3", "4"], value="1")
    p.add("input", name="Name", y=160)
    p.add("input", name="Phone", y=240)
    fills, _ = plan_fills(booking, p.build())
    assert {f.element.get("name"): f.value for f in fills}["Number of places"] == "2"


def test_the_item_most_said_is_followed_but_never_one_the_goal_refuses():
    goal = read_booking(
        "Please put a hold on Dev Ramanathan's novel Salt and Ember for me - the book, not the TV series - and I'll "
        "collect it from Ferrybridge library. My library card is 2207193654 and my PIN is 7730."
    )
    p = Page("http://library.test/catalogue?q=Salt+and+Ember", "Search results")
    p.link("Salt & Ember (TV series, 2026)", "/catalogue/item/d1", y=200)
    p.link("Salt and Ember", "/catalogue/item/b2", y=260)
    lead = booking_lead(goal, p.build(), set())  # type: ignore[arg-type]
    assert lead is not None and lead["attrs"]["href"] == "/catalogue/item/b2"
    workshop = read_booking(
        "My partner and I would love to learn how to prune our old apple trees. Can you book the two of us onto "
        "Thornfield's winter pruning workshop for fruit trees? Name Priya Shah, priya.shah@example.com."
    )
    w = Page("http://garden.test/workshops", "Workshops")
    w.link("Winter pruning: roses", "/workshops/roses", y=200)
    w.link("Winter pruning: apple and pear trees", "/workshops/fruit", y=260)
    lead = booking_lead(workshop, w.build(), set())  # type: ignore[arg-type]
    assert lead is not None and lead["attrs"]["href"] == "/workshops/fruit"


def test_an_order_of_them_is_left_to_the_situation_and_another_item_s_control_never_leads():
    told = "I want ten bare-root Hidcote lavender plants for a hedge - please order them from Thornfield Nurseries "
    assert read_booking(told + "for delivery to Tom Whitaker (tom@example.com, 07700 900 615).") is None
    booking = read_booking("Order three Hidcote lavenders for delivery to Tom Whitaker, phone 07700 900 615.")
    p = Page("http://garden.test/", "Thornfield Nurseries")
    p.link("Pre-order your Christmas tree", "/christmas-trees", y=200)
    assert booking_lead(booking, p.build(), set()) is None  # type: ignore[arg-type]


def test_a_booking_confirmed_under_a_site_search_box_is_confirmed():
    from agent.planning.offline.records.proof import _confirmed, booked_form_still_shown

    p = Page("http://garden.test/workshops/fruit", "Booked")
    p.add("input", name="Search plants", y=20, placeholder="Search plants and products")
    p.add("h1", "You're booked", y=60)
    p.add("div", "2 places on Winter pruning. We've emailed priya@example.com.", y=100)
    assert _confirmed(p.build())
    booking = read_booking(
        "Book the two of us onto the winter pruning workshop. Name Priya Shah, phone 07700 900 431."
    )
    form = Page("http://garden.test/workshops/fruit", "Winter pruning")
    form.add("h1", "Winter pruning", y=60)
    form.add("input", name="Name", y=120, value="Priya Shah")
    form.add("input", name="Phone", y=160, value="07700 900 431")
    form.add("button", "Book now", y=200)
    assert booked_form_still_shown(booking, form.build(), ("Priya Shah", "07700 900 431"))  # type: ignore[arg-type]
    assert not booked_form_still_shown(booking, p.build(), ("Priya Shah",))  # type: ignore[arg-type]


def test_a_control_naming_what_the_booking_makes_leads_to_it():
    hold = read_booking(
        "Please put a hold on Salt and Ember for me and I'll collect it from Ferrybridge library. My library card is "
        "2207193654 and my PIN is 7730."
    )
    p = Page("http://library.test/catalogue/item/b2", "Salt and Ember")
    p.link("Catalogue", "/catalogue", y=20, zone="nav")
    p.add("h1", "Salt and Ember", y=60)
    p.link("Place a hold", "/catalogue/item/b2/hold", y=300)
    lead = booking_lead(hold, p.build(), set())  # type: ignore[arg-type]
    assert lead is not None and lead["attrs"]["href"] == "/catalogue/item/b2/hold"
