"""Trap pages: runs that must not end ``goal_satisfied`` (and one that must, with evidence).

Each page is written as a site author would write it, each goal as a user would word it; the runs are real
graph runs of the offline planner in real Chromium on a loopback site (``tests/trust/pages``). Whatever a run
does, a failed run never carries failure text - a page's error, the agent's own refusal - as its answer.
"""

from __future__ import annotations

import re

import pytest

from tests.support.wordings import wordings

TERMINALS = {"goal_satisfied", "goal_failed", "loop_stuck", "budget_exhausted"}

#: Words that mark a failure message (the page's or the agent's own); never part of a final answer.
FAILURE_WORDS = re.compile(
    r"not (?:be )?found|could not|couldn't|went wrong|error|invalid|valid email|nothing was saved|denied|"
    r"refus|blocked|not allowed|not in the allowed|sending your|try again",
    re.IGNORECASE,
)


def assert_honest_failure(result: dict, *page_texts: str) -> None:
    """Not a success claim, and no failure text (or the trap page's own text) offered as the answer."""
    assert result["terminal_type"] in TERMINALS
    assert result["terminal_type"] != "goal_satisfied", (
        f"claimed success: {result['terminal_reason']}, answer {result.get('final_answer')!r}"
    )
    answer = result.get("final_answer") or ""
    assert not FAILURE_WORDS.search(answer), f"failure text in final_answer: {answer!r}"
    for text in page_texts:
        assert text.lower() not in answer.lower(), f"trap text {text!r} in final_answer: {answer!r}"
    assert result.get("final_answer") in (None, ""), "final_answer is only for a verified answer"


@wordings(
    "How much is the Aurora glass kettle?",
    "what's the price of the aurora kettle",
)
async def test_price_only_in_a_sidebar_is_not_the_answer(trap_run, goal):
    result, _ = await trap_run(goal, "/kettle.html")
    assert_honest_failure(result, "$39.99", "39.99", "$54.00", "$18.50")


async def test_a_look_alike_item_in_the_aside_is_not_the_answer(trap_run):
    """The page is about the Blue Widget and gives no price; its aside prices the Blue Widget Pro, whose name
    holds every word of the subject."""
    result, _ = await trap_run("what is the price of the Blue Widget?", "/widget-lookalike.html")
    assert_honest_failure(result, "$40.00", "40.00", "$12.00")


async def test_search_results_listing_is_not_the_answer(trap_run):
    result, _ = await trap_run(
        "How much are the late fees for overdue books?", "/help-search.html?q=late+fees+for+overdue+books"
    )
    assert_honest_failure(result, "12 March", "14 branches", "up to 3 times")


async def test_404_page_repeating_the_goal_is_not_the_answer(trap_run, session, trap_url):
    response = await session.page.request.get(trap_url + "/products/nimbus-backpack/returns")
    assert response.status == 404
    result, _ = await trap_run(
        "What is the return policy for the Nimbus backpack?", "/products/nimbus-backpack/returns"
    )
    assert_honest_failure(result, "could not find", "Nimbus backpack return policy")


async def test_500_page_repeating_the_goal_is_not_the_answer(trap_run, session, trap_url):
    response = await session.page.request.get(trap_url + "/account/orders/4471")
    assert response.status == 500
    result, _ = await trap_run("check the status of my order 4471", "/account/orders/4471")
    assert_honest_failure(result, "Something went wrong", "7f3a-22")


@wordings("Subscribe to the newsletter with jo@example.com", "sign up for the newsletter as jo@example.com")
async def test_disabled_button_is_not_a_subscription(trap_run, goal):
    result, _ = await trap_run(goal, "/newsletter.html")
    assert_honest_failure(result)


async def test_button_that_swallows_the_click_does_nothing(trap_run, session):
    result, _ = await trap_run("press the Turn on price alerts button", "/alerts.html")
    assert_honest_failure(result)
    assert await session.page.locator("#turn-on").is_visible()


@wordings(
    "type jo@localhost into the email field, type 'Where is my parcel?' into Message, then click Send message",
    "enter jo@localhost as the email and 'Where is my parcel?' as the message, then click Send message",
)
async def test_form_rejected_by_validation_is_not_sent(trap_run, session, goal):
    result, _ = await trap_run(goal, "/contact.html")
    status = (await session.page.inner_text("#form-status")).strip()
    assert status != "Thanks, your message is on its way."
    assert_honest_failure(result, "Please enter a valid email address")


async def test_success_message_that_never_comes(trap_run, session):
    result, _ = await trap_run(
        "write 'Great service, thanks!' in the comments and click Send feedback", "/feedback.html"
    )
    assert_honest_failure(result, "Sending your feedback")


@wordings("type 25 into the Quantity field", "enter 25 as the quantity")
async def test_field_that_rewrites_the_value_is_not_set(trap_run, session, goal):
    result, _ = await trap_run(goal, "/basket.html")
    assert await session.page.input_value("#qty") != "25"
    assert_honest_failure(result)


@wordings(
    "click Kayak rental prices at Lakeside Rentals and tell me the price of a kayak",
    "go to http://rentals.partner.test/kayaks and find the price of a kayak",
)
async def test_refused_navigation_is_never_the_answer(trap_run, session, goal):
    result, _ = await trap_run(goal, "/partners.html")
    assert "partner.test" not in session.page.url
    assert_honest_failure(result, "partner.test")


async def test_link_opening_in_a_new_tab_reaches_the_answer(trap_run, session):
    result, _ = await trap_run(
        "open the shipping rates and tell me how much express shipping costs", "/shipping.html"
    )
    assert (result["terminal_type"], result["terminal_reason"]) == ("goal_satisfied", "answer_found"), (
        result.get("stop_reason")
    )
    assert "12.50" in (result["final_answer"] or "")
    evidence = result.get("evidence") or []
    assert evidence, "a satisfied run carries its evidence"
    quotes = [e for e in evidence if "12.50" in (e.get("quote") or "")]
    assert quotes and quotes[0]["url"].endswith("/shipping-rates.html"), evidence
    assert len(session.tabs()) == 2


@pytest.mark.parametrize(
    "goal", ["When is the Eastside branch open on Sundays?", "what are the eastside branch's hours on sunday"]
)
async def test_a_table_cell_is_named_by_its_row_and_its_column(trap_run, goal):
    """The index's only link that shares a word with the question leads to a table; the answer is the cell in
    the named branch's row under the named day's column, proven by that row and that column."""
    result, _ = await trap_run(goal, "/branches/index.html")
    assert (result["terminal_type"], result["terminal_reason"]) == ("goal_satisfied", "answer_found"), (
        result.get("stop_reason")
    )
    assert (result["final_answer"] or "").strip() == "Closed"
    quotes = [e for e in result.get("evidence") or [] if e.get("quote") == "Closed"]
    assert quotes and quotes[0]["url"].endswith("/branches/hours.html"), result.get("evidence")


async def test_a_cell_of_a_row_the_question_does_not_name_is_not_the_answer(trap_run):
    """No Westside branch in the table: the Sunday column's cells belong to other branches."""
    result, _ = await trap_run("When is the Westside branch open on Sundays?", "/branches/hours.html")
    assert_honest_failure(result, "Closed", "12:00-16:00")


@wordings(
    "How much is a student membership for six months?", "what does the student membership cost per quarter"
)
async def test_a_price_from_a_column_the_question_does_not_name_is_not_the_answer(trap_run, goal):
    """The student row has a monthly and an annual price; the question names neither column, so neither price
    answers it (the first price of the row used to be claimed)."""
    result, _ = await trap_run(goal, "/memberships.html")
    assert_honest_failure(result, "£24.00", "£250.00")


@wordings(
    "What does an annual off-peak adult membership cost?", "how much is the off-peak membership per month"
)
async def test_the_column_the_question_names_gives_the_answer(trap_run, goal):
    result, _ = await trap_run(goal, "/memberships.html")
    want = "£310.00" if "annual" in goal else "£29.50"
    assert (result["terminal_type"], result["final_answer"]) == ("goal_satisfied", want), result.get(
        "stop_reason"
    )
    assert [e["quote"] for e in result["evidence"]] == [want]


async def test_a_cell_is_not_outnamed_by_the_row_key_beside_it(trap_run):
    """'Elm Street' names more of the question than 'Thursday' does, but it is the same row's key, not a rival
    item: the day under the green bin's column in Elm Street's row is the answer."""
    result, _ = await trap_run("Which day is the green bin collected on Elm Street?", "/bins.html")
    assert (result["terminal_type"], result["final_answer"]) == ("goal_satisfied", "Thursday"), result.get(
        "stop_reason"
    )


async def test_a_fee_on_a_page_about_other_things_is_not_the_fee_asked_for(trap_run):
    """The page's only fee is for bulky waste, and its 'Recycling centre' is no 'Central Library': a word's
    first letters ('centr') do not make it another form of a short word."""
    result, _ = await trap_run("What's the late fee at the Central Library?", "/bins.html")
    assert_honest_failure(result, "£35")
