"""Trap pages of a third markup set (tests/trust/pages/unseen3): a list page whose intro talks about opening hours
in general, a venue page whose side column (placed first on screen) gives another venue's Saturday hours, a
timetable whose rows name the venue on other days, a yearly figure for another year, and a prose sentence in the
section a limit is asked from. Real graph runs with the offline planner in real Chromium."""

from __future__ import annotations

from tests.trust.test_traps import assert_honest_failure
from tests.trust.test_traps_unseen import assert_true_or_no_claim

U = "/unseen3"


async def test_the_hours_of_one_venue_are_read_on_its_own_page(trap_run):
    result, _ = await trap_run(
        "What are the Saturday opening hours of Quayside Baths?", f"{U}/pools/index.html"
    )
    assert_true_or_no_claim(result, "08:00", "/pools/quayside.html", "vary from pool", "07:00", "09:00")


async def test_a_timetable_row_on_another_day_does_not_give_saturday_hours(trap_run):
    result, _ = await trap_run(
        "What are the Saturday opening hours of the Quayside pool?", f"{U}/classes.html"
    )
    assert_honest_failure(result, "Tuesdays 10:00", "Thursdays 19:30", "Saturdays 09:00")


async def test_another_years_figure_is_not_the_answer(trap_run):
    result, _ = await trap_run("How many swimmers did the pools welcome in 2024?", f"{U}/annual.html")
    assert_honest_failure(result, "184,000")


async def test_a_limit_is_a_figure_not_a_sentence_of_its_section(trap_run):
    result, _ = await trap_run("What is the archive size limit?", f"{U}/annual.html")
    assert_true_or_no_claim(result, "40", "/annual.html", "Membership records", "own servers")
