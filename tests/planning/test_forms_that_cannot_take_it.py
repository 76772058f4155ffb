"""A form that cannot take what the goal gives is never sent with something else: a day its list of dates does not
offer ('17 March' where 12, 19 and 24 March are offered), a choice it shows greyed out ('Fix 12 Green - sold out')
whose look-alike ('Fix 12 Green Saver') is free; and a page after the save that says the change was not made
('The hall isn't reserved yet', 'We couldn't accept your gas reading') is a refusal, whatever thanks it gives."""

from __future__ import annotations

from agent.planning.offline.grammar import parse_goal
from agent.planning.offline.records.fills import not_offered, plan_fills
from agent.planning.offline.records.proof import read_change, refusal
from agent.planning.offline.records.which import record_goal_of
from tests.planning.pages import Page

YOGA = "Book me on the yoga class on Tuesday 17 March 2026 - name Ravi Kumar, email ravi.kumar@example.org"
TARIFF = "Log in as maya.r@example.com with password Meadow-42 and switch my energy tariff to Fix 12 Green"


def _class_form(days: list[str]) -> Page:
    p = Page("http://leisure.test/classes/yoga", "Yoga - Fernhill Leisure Centre")
    p.add("h1", "Yoga", y=60)
    p.add("select", name="Class date", y=120, options=days, value=days[0])
    p.add("input", name="Name", y=170, input_type="text")
    p.add("input", name="Email", y=220, input_type="email")
    p.add("button", "Book my place", y=270)
    return p


def test_a_day_the_list_of_dates_does_not_offer_is_refused_not_left_to_the_default():
    goal = record_goal_of(parse_goal(YOGA))
    assert goal is not None
    page = _class_form(["Thursday 12 March 2026", "Thursday 19 March 2026", "Tuesday 24 March 2026"]).build()
    fills, missing = plan_fills(goal, page)
    assert "17 March 2026" in missing and all(f.how != "select" for f in fills)
    said = not_offered(goal, page, missing)
    assert "'Class date' offers Thursday 12 March 2026" in said and said.endswith("not 17 March 2026")


def test_the_day_asked_is_chosen_by_its_date_never_by_a_similar_looking_one():
    goal = record_goal_of(parse_goal(YOGA))
    assert goal is not None
    page = _class_form(["Thursday 12 March 2026", "Tuesday 17 March 2026", "Tuesday 24 March 2026"]).build()
    fills, missing = plan_fills(goal, page)
    assert not missing and not not_offered(goal, page, missing)
    assert [f.value for f in fills if f.how == "select"] == ["Tuesday 17 March 2026"]


def _tariffs(sold_out: bool) -> Page:
    p = Page("http://energy.test/account/tariff", "My tariff - Kestrel Energy")
    p.add("h1", "My tariff", y=60)
    p.add("input", name="Fix 12 – 24.1p/kWh, 12 months", y=120, input_type="radio", checked=False)
    p.add("input", name="Fix 12 Green – sold out" if sold_out else "Fix 12 Green – 24.5p/kWh", y=150,
          input_type="radio", checked=False, disabled=sold_out)  # fmt: skip
    p.add(
        "input",
        name="Fix 12 Green Saver – 23.9p/kWh, paperless only",
        y=180,
        input_type="radio",
        checked=False,
    )
    p.add("button", "Switch tariff", y=240)
    return p


def test_a_choice_shown_greyed_out_is_not_swapped_for_its_look_alike():
    goal = record_goal_of(parse_goal(TARIFF))
    assert goal is not None
    page = _tariffs(sold_out=True).build()
    fills, missing = plan_fills(goal, page)
    assert all("Saver" not in str(f.element.get("name")) for f in fills) and "Fix 12 Green" in missing
    assert not_offered(goal, page, missing) == "'Fix 12 Green – sold out' cannot be chosen on this page"
    free = _tariffs(sold_out=False).build()
    fills, missing = plan_fills(goal, free)
    assert not missing and [f.element.get("name") for f in fills if f.how == "check"] == [
        "Fix 12 Green – 24.5p/kWh"
    ]


def _after_save(*lines: str) -> dict:
    p = Page("http://leisure.test/parties/enquiry", "Thank you - Fernhill Leisure Centre")
    p.add("h1", "Thank you, Dan!", y=60)
    for n, line in enumerate(lines):
        p.add("p", line, y=100 + 30 * n)
    return p.build()


def test_a_page_saying_the_change_was_not_made_is_a_refusal_whatever_thanks_it_gives():
    for line in (
        "We've received your party enquiry for 2026-06-06. The hall isn't reserved yet: our team will email you.",
        "We couldn't accept your gas reading (08412): it's lower than your last reading.",
        "Cancellation request received. Your booking has not been cancelled yet.",
        "Your application was declined.",
    ):
        assert refusal(_after_save(line)) == line[:200], line
    goal = record_goal_of(
        parse_goal("Book the sports hall on 6 June 2026. Name Dan Reid, email dan.reid@example.org.")
    )
    assert goal is not None
    reading = read_change(goal, _after_save("Dan Reid, dan.reid@example.org", "The hall isn't reserved yet."))
    assert not reading.proven and "isn't reserved" in reading.problem


def test_a_page_confirming_the_change_is_no_refusal():
    for line in (
        "Your booking is confirmed. Reference FH-2231.",
        "Thanks! Electricity reading 24871 received on 3 March 2026.",
        "Nothing else to do: we'll email your receipt.",
        "Haven't registered yet? Create an account to manage your bookings.",
        "Please note we cannot change bookings within 48 hours of the start.",
        "Changing rooms are not reserved.",
        "You haven't placed any orders yet.",
    ):
        assert refusal(_after_save(line)) == "", line


def test_a_list_of_other_days_for_another_date_is_no_refusal():
    goal = record_goal_of(
        parse_goal("Book the Boathouse Suite for 2 adults arriving 9 August 2027, email priya@example.org")
    )
    assert goal is not None
    p = Page("http://stay.test/book/details", "Your details")
    p.add(
        "select", name="Departure date", y=100, options=["Tue 10 August 2027", "Fri 13 August 2027"], value=""
    )
    p.add("input", name="Email address", y=200, input_type="email")
    p.add("button", "Continue", y=250)
    page = p.build()
    fills, missing = plan_fills(goal, page)
    assert "9 August 2027" in missing and not_offered(goal, page, missing) == ""


def test_a_line_telling_what_was_asked_and_not_done_proves_nothing():
    goal = record_goal_of(
        parse_goal("Book a tennis court on 14 March 2026 at 10:00 for Sam Lee, email sam.lee@example.org")
    )
    assert goal is not None
    moved = "The 10:00 slot had just been taken, so we've given you the next available time."

    def booked(time_line: str, *more: str) -> dict:
        p = Page("http://leisure.test/courts/booked", "Booked! - Fernhill Leisure Centre")
        p.add("h1", "Booked! Court 2 is yours.", y=60)
        for n, line in enumerate(("Name: Sam Lee", "Email: sam.lee@example.org", "Date: Saturday 14 March 2026",
                                  time_line, *more)):  # fmt: skip
            p.add("p", line, y=100 + 30 * n)
        return p.build()

    reading = read_change(goal, booked("Time: 11:00", moved))
    assert not reading.proven and [
        u for u in reading.unseen if u.startswith("10:00 (the page says: The 10:00")
    ]
    assert read_change(goal, booked("Time: 10:00")).proven
