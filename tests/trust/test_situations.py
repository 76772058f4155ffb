"""A question asked after the situation it is about ("I'm looking for The Salt Road by Imogen Hale. What's its
call number?"): 'its' is the book the user is after, read on that book's page (its h1 is the library's name, its
h2 the book's title, its author in the record's sheet), never another book's page that happens to be open.
Real graph runs with the offline planner in real Chromium."""

from __future__ import annotations

from tests.trust.test_traps import assert_honest_failure
from tests.trust.test_traps_unseen import assert_claim_quotes

GOAL = "I'm looking for The Salt Road by Imogen Hale. What's its call number?"


async def test_its_is_the_book_the_user_is_after_read_on_its_own_page(trap_run):
    result, _ = await trap_run(GOAL, "/library5/salt-road.html")
    assert result["terminal_type"] == "goal_satisfied", result.get("stop_reason")
    assert_claim_quotes(result, "FIC HAL", "/library5/salt-road.html")


async def test_another_books_page_never_answers_for_it(trap_run):
    """The first version dropped the situation and answered '005.133 BEL' here: a false success."""
    result, _ = await trap_run(GOAL, "/library5/python.html")
    assert_honest_failure(result, "005.133", "BEL")


async def test_a_reference_asked_for_by_its_month_is_read_from_its_row(trap_run):
    """The row's first cell is the answer itself: the row is named by the date in it ('October')."""
    result, _ = await trap_run("Find the booking reference for my October stay", "/library5/stays.html")
    assert result["terminal_type"] == "goal_satisfied", result.get("stop_reason")
    assert_claim_quotes(result, "KG-931", "/library5/stays.html")


async def test_the_last_time_is_the_latest_date_and_names_no_time_column(trap_run):
    """'the last time he was weighed' was once answered '14:40' from the appointments' Time column."""
    result, _ = await trap_run("What did Biscuit weigh the last time he was weighed?", "/library5/pet.html")
    assert result["terminal_type"] == "goal_satisfied", result.get("stop_reason")
    assert_claim_quotes(result, "18.4 kg", "/library5/pet.html")


async def test_a_price_per_day_is_no_surcharge_per_day(trap_run):
    result, _ = await trap_run(
        "I'm 23 and want to hire a car from Brackley. How much per day is their young driver surcharge?",
        "/library5/vehicles.html",
    )
    assert_honest_failure(result, "£34", "£41")
