"""A record told by its day ('cancel her appointment on the 10th of december'): the row whose date is that
day, said in any spelling; two rows on that day are no choice without a name; a 'Find us' link is directions,
not the site's search."""

from __future__ import annotations

from agent.planning.offline.dates import days_said, same_day
from agent.planning.offline.records.finding import find_record
from agent.planning.offline.records.goal import read_record_goal
from agent.planning.offline.records.row_actions import row_control
from tests.planning.pages import Page


def test_a_day_is_read_in_its_spellings_and_never_from_other_words():
    assert days_said("cancel her appointment on the 10th of december") == [(10, 12, None)]
    assert days_said("Thu 10 December 2026, 15:00") == [(10, 12, 2026)]
    assert days_said("my booking for March 3rd, 2027") == [(3, 3, 2027)]
    assert days_said("the 3 mayors decide 4 marches") == []
    assert same_day((10, 12, None), "Thu 10 Dec 2026") and not same_day((10, 12, 2025), "Thu 10 Dec 2026")


def _appointments(*rows: tuple[str, str]) -> Page:
    p = Page("http://vets.test/account/appointments", "Appointments")
    p.add("h1", "Appointments", y=60)
    for n, (day, pet) in enumerate(rows):
        y = 120 + 40 * n
        p.add("td", day, x=100, y=y, block=f"#r{n}")
        p.add("td", pet, x=300, y=y, block=f"#r{n}")
        p.add("td", "Booked", x=450, y=y, block=f"#r{n}")
        p.link("Cancel", f"/account/appointments/{n}/cancel", x=560, y=y, w=60, block=f"#r{n}")
    return p


def test_the_row_of_the_day_said_is_the_one_acted_on():
    page = _appointments(("Tue 8 December 2026", "Pepper"), ("Thu 10 December 2026", "Clover")).build()
    goal = read_record_goal("please cancel her vet appointment on the 10th of december")
    control = row_control(goal, page, set())
    assert control is not None and control["attrs"]["href"] == "/account/appointments/1/cancel"


def test_two_rows_on_the_day_need_the_name_said():
    page = _appointments(("Thu 10 December 2026", "Pepper"), ("Thu 10 December 2026", "Clover")).build()
    assert row_control(read_record_goal("cancel the appointment on 10 December"), page, set()) is None
    control = row_control(read_record_goal("cancel Clover's appointment on 10 December"), page, set())
    assert control is not None and control["attrs"]["href"] == "/account/appointments/1/cancel"


def test_find_us_is_no_search_page():
    p = Page("http://vets.test/account", "My pets")
    p.link("Appointments", "http://vets.test/account/appointments", y=100, zone="nav")
    p.link("Find us", "http://vets.test/contact", y=600, zone="footer")
    goal = read_record_goal("cancel my appointment on the 10th of december")
    found = find_record(goal, p.build(), [], {"record": {}})
    assert found["proposed_actions"] == ['Click the "Appointments" link']


def test_a_booking_named_by_its_holiday_is_the_row_whose_dates_take_it_in():
    from agent.planning.offline.reading import answer_question

    p = Page("http://hire.test/account", "Your bookings")
    heads = ("Reference", "Vehicle", "Pick-up", "Return")
    for n, head in enumerate(heads):
        p.add("th", head, x=100 + 160 * n, y=160, w=150, role="columnheader")
    rows = [
        ("FH-1102", "Estate", "Dockside Sun 20 Dec 2026, 10:00", "Dockside Sun 27 Dec 2026, 10:00"),
        ("FH-1175", "Estate", "Dockside Fri 26 Mar 2027, 09:00", "Dockside Tue 30 Mar 2027, 17:00"),
    ]
    for r, (ref, *cells) in enumerate(rows):
        top = 200 + 50 * r
        p.link(ref, f"http://hire.test/account/bookings/{ref}", x=100, y=top + 16, w=90, h=18)  # mid-row
        for n, cell in enumerate(cells, start=1):
            p.add("td", cell, x=100 + 160 * n, y=top, w=150, h=50, role="cell")
    page = p.build()
    easter = answer_question("What's the booking reference for my Easter hire from Dockside?", page)
    assert (easter.found, easter.text) == (True, "FH-1175"), easter  # Easter Sunday 2027 is 28 March
    christmas = answer_question("What's the booking reference for my Christmas hire?", page)
    assert (christmas.found, christmas.text) == (True, "FH-1102"), christmas
