"""Bookings and applications as people word them: 'book Bramble in for his annual booster' (the booster is
booked, for Bramble), a detail stated as a sentence of its own ('His new address is ...'), and the link that
names the thing applied for with the verb before it ('Apply for single person discount')."""

from __future__ import annotations

from agent.planning.offline.records.bookings import booking_lead, booking_step, read_booking
from agent.planning.offline.records.fills import plan_fills
from tests.planning.pages import Page


def test_who_is_booked_in_is_a_detail_and_what_for_is_the_booking():
    goal = read_booking("Book Biscuit in for his dental check with Dr Moss on 3 March 2027 at 10:30am.")
    assert goal is not None and goal.about == "dental check" and "Biscuit" in goal.wording
    p = Page("http://vets.test/book", "Book")
    for n, pet in enumerate(("Pepper", "Biscuit")):
        p.add("input", pet, input_type="radio", role="radio", x=100 + 120 * n, y=200)
    fills, _ = plan_fills(goal, p.build())
    assert [f.value for f in fills if f.how == "check"] == ["Biscuit"], fills  # chosen where the form asks
    me = read_booking("Book me in for a haircut with Sam on 3 May 2027 at 3pm")
    assert me is not None and me.about == "haircut"


def test_a_detail_stated_as_a_sentence_goes_into_its_field():
    goal = read_booking(
        "Please apply for the council tax single person discount for me. My partner Ana Cole moved out on 3rd "
        "October 2026. Her new address is 8 Mill Lane, Hexham HX2 5PA."
    )
    assert goal is not None and ("new address", "8 Mill Lane, Hexham HX2 5PA") in goal.settings
    p = Page("http://council.test/ctax/spd", "Apply for single person discount")
    p.add("input", "Full name of the person who moved out", x=100, y=200)
    p.add("textarea", "Their new address, if you know it", x=100, y=260)
    fills, _ = plan_fills(goal, p.build())
    placed = {f.label: f.value for f in fills}
    assert placed.get("Their new address, if you know it") == "8 Mill Lane, Hexham HX2 5PA", fills


def test_the_link_naming_the_thing_applied_for_is_followed_before_its_section():
    goal = read_booking("Apply for the council tax single person discount. My partner Ana Cole moved out.")
    assert goal is not None
    p = Page("http://council.test/ctax/account", "Your account")
    p.link("Council tax", "http://council.test/ctax", x=20, y=10, zone="nav")
    p.link("Apply for single person discount", "http://council.test/ctax/spd", x=100, y=400)
    lead = booking_lead(goal, p.build(), set())
    assert lead is not None and lead["attrs"]["href"].endswith("/spd"), lead


def test_a_hold_on_a_book_is_a_reservation_collected_where_the_user_says():
    goal = read_booking(
        "Please put a hold on Ana Ruiz's novel The Tide Clock for me and I'll collect it from Eastgate library."
    )
    assert (
        goal is not None and goal.verb == "place" and goal.noun == "hold" and goal.about == "The Tide Clock"
    )
    assert ("collect from", "Eastgate library") in goal.settings


def test_undoing_controls_never_lead_a_booking():
    goal = read_booking("Please put a hold on The Tide Clock and I'll collect it from Eastgate library.")
    assert goal is not None
    p = Page("http://lib.test/account/holds", "Holds")
    p.add("td", "The Tide Clock", x=100, y=200, block="#h1")
    p.add("td", "Waiting (2nd in queue)", x=300, y=200, block="#h1")
    p.add("button", "Cancel hold", x=500, y=200, block="#h1")
    p.add("button", "Suspend hold", x=600, y=200, block="#h1")
    p.add("input", "Search the catalogue", role="searchbox", input_type="search", x=20, y=40)
    assert booking_lead(goal, p.build(), set()) is None
    step = booking_step(goal, p.build(), [])
    assert step is not None and step[0] == 'Search for "Tide Clock"', step


def test_a_vet_said_by_title_and_surname_and_a_service_by_its_word_are_chosen():
    goal = read_booking("Book Biscuit in for his annual booster jab with Dr Moss on 3 March 2027 at 10:30am.")
    assert goal is not None
    p = Page("http://vets.test/book", "Book")
    p.add("select", "Appointment type", options=["Choose", "Consultation", "Vaccination or booster"], y=200)
    p.add(
        "select", "Vet", options=["Choose", "Dr Ana Moss (Vet)", "Dr Li Wei (Vet)", "Kim Dunn (Nurse)"], y=260
    )
    fills, _ = plan_fills(goal, p.build())
    chosen = {f.value for f in fills if f.how == "select"}
    assert {"Vaccination or booster", "Dr Ana Moss (Vet)"} <= chosen, fills


def test_a_time_booked_is_shown_in_either_clock():
    from agent.planning.offline.records.proof import _contains

    assert _contains("Booked: Biscuit on Wed 3 March 2027 at 16:15.", "4:15pm")
    assert not _contains("Booked: Biscuit on Wed 3 March 2027 at 16:30.", "4:15pm")
    assert not _contains("Booked for Friday at 7:30pm. Deposit paid: £14.00", "2pm")  # an amount is no time


def test_an_add_on_sharing_a_word_with_the_booking_is_not_chosen():
    goal = read_booking(
        "Book an annual boiler service for 3 March 2027 at 10am. Name Ana Cole, ana@cole.example"
    )
    assert goal is not None
    p = Page("http://heat.test/book", "Book a visit")
    p.add("select", "Visit type", options=["Choose", "Annual boiler service", "Repair"], y=200)
    p.add("select", "Add a cover plan?", options=["No thanks", "Boiler cover plan - £14 a month"], y=260)
    fills, _ = plan_fills(goal, p.build())
    assert not any("cover plan" in f.value for f in fills), fills
