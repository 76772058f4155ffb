"""A fourth markup set (tests/trust/pages/unseen4): a museum site without a search box. Its answers sit one or
two links from the home page with no link naming them, its exhibition pages price tickets by visitor in a table
beside an 'Also showing' list that prices other tickets, and its people are named by 'Run by' and 'Words by'.
Real graph runs with the offline planner in real Chromium."""

from __future__ import annotations

from tests.trust.test_traps import assert_honest_failure
from tests.trust.test_traps_unseen import assert_claim_quotes, assert_true_or_no_claim

U = "/unseen4/gallery"


async def test_a_child_ticket_is_read_from_its_row_not_from_the_adult_price_beside_it(trap_run):
    result, _ = await trap_run(
        "How much is a child ticket for the Ember glass exhibition?", f"{U}/ex/ember.html"
    )
    assert_true_or_no_claim(result, "£5", "/ex/ember.html", "£12", "£9")


async def test_another_exhibitions_child_price_is_no_answer_where_none_is_given(trap_run):
    """Salt Roads prices adults and families only; its 'Also showing' list prices a child ticket to Ember."""
    result, _ = await trap_run("How much is a child ticket for Salt Roads?", f"{U}/ex/salt-roads.html")
    assert_honest_failure(result, "£5", "£10", "£25")


async def test_who_runs_a_session_is_found_by_looking_around_a_site_without_search(trap_run):
    """No link on the home page names the session: the planner looks in the site's sections, then follows
    the session's link, and reads 'Run by'."""
    result, _ = await trap_run("Who runs the Glassblowing taster?", f"{U}/index.html")
    assert result["terminal_type"] == "goal_satisfied", result.get("stop_reason")
    assert_claim_quotes(result, "Ines Carvalho", "/learning/taster.html")


async def test_the_writer_of_an_article_found_by_its_topic(trap_run):
    result, _ = await trap_run("Who wrote the journal post about rebuilding the kiln?", f"{U}/index.html")
    assert result["terminal_type"] == "goal_satisfied", result.get("stop_reason")
    assert_claim_quotes(result, "Hal Moreno", "/journal/kiln.html")
    assert "Ada Lindqvist" not in (result.get("final_answer") or "")


# --- a department site: people's pages with a column of colleagues, a staff list, a committee table ----------


async def test_a_colleagues_office_hours_beside_a_persons_page_are_not_theirs(trap_run):
    """Dr Duarte's page gives no office hours; its side column (a plain div) gives Dr Berg's."""
    result, _ = await trap_run("When are Dr Ines Duarte's office hours?", "/unseen4/dept/ines-duarte.html")
    assert_honest_failure(result, "09:00", "10:30")


async def test_another_staff_members_phone_and_the_footers_are_no_answer(trap_run):
    """Dr Berg has no phone on the staff page; a technician's line and the footer have one each."""
    result, _ = await trap_run("What's Dr Tomas Berg's phone number?", "/unseen4/dept/staff.html")
    assert_honest_failure(result, "770 142", "770 100", "1632")


async def test_their_email_in_a_second_question_is_the_one_the_first_asks_about(trap_run):
    result, _ = await trap_run(
        "Who is the representative for the second year and what's their email address?",
        "/unseen4/dept/council.html",
    )
    assert "c.flynn" not in (result.get("final_answer") or "")
    assert "l.vogt" not in (result.get("final_answer") or "")
    if result["terminal_type"] == "goal_satisfied":
        assert "d.patel@uni.example" in result["final_answer"]


async def test_a_days_hours_in_a_side_block_headed_for_the_subject_answer(trap_run):
    """The side block is headed 'Visitor centre opening hours' and gives each day's hours in a definition list."""
    result, _ = await trap_run(
        "What time does the visitor centre close on a Friday?", "/unseen4/dept/index.html"
    )
    assert_true_or_no_claim(result, "3:30pm", "/dept/index.html", "5:00pm")
    assert result["terminal_type"] == "goal_satisfied", result.get("stop_reason")
