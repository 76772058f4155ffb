"""Trap pages in markup the first trap set did not use (tests/trust/pages/unseen): cards in a grid, definition
lists, a table with row spans, apps that render with script after load, a soft 404 sent with HTTP 200, errors
shown only later in a toast or a banner. Each run is a real graph run in real Chromium on the loopback trap site,
with the offline planner or the scripted model (tests/llm/fake_openai.py). A run either makes no claim, or claims
with an evidence quote that holds the true value on the right page.
"""

from __future__ import annotations

import pytest

from agent.runner import run_goal
from tests.llm.fake_openai import fake_openai, fake_openai_session  # noqa: F401 - fixtures
from tests.llm.test_graph_runs import Model, complete, model_context, plan
from tests.support.wordings import wordings
from tests.trust.test_traps import assert_honest_failure

U = "/unseen"


def assert_claim_quotes(result: dict, value: str, page: str) -> None:
    """A success claim whose answer holds ``value``, proven by a quote of it taken on ``page``."""
    assert (result["terminal_type"], result["terminal_reason"]) == ("goal_satisfied", "answer_found"), (
        result.get("stop_reason"),
        result.get("candidate_answer"),
    )
    assert value in (result["final_answer"] or ""), result["final_answer"]
    quotes = [e for e in result.get("evidence") or [] if value in (e.get("quote") or "")]
    assert quotes and quotes[0]["url"].split("?")[0].endswith(page), result.get("evidence")


def assert_true_or_no_claim(result: dict, value: str, page: str, *wrong: str) -> None:
    """Either the true value with its quote, or an honest failure that offers none of the ``wrong`` values."""
    if result["terminal_type"] == "goal_satisfied":
        assert_claim_quotes(result, value, page)
    else:
        assert_honest_failure(result, *wrong)


# --- answers: look-alike items in the main content --------------------------------------------------------


async def test_a_look_alike_card_in_a_grid_is_not_the_answer(trap_run):
    """The Blue Widget's card gives no price; the cards beside it price the Blue Widget Pro and Mini, whose
    names hold every word of the subject."""
    result, _ = await trap_run("what is the price of the Blue Widget?", f"{U}/widgets.html")
    assert_honest_failure(result, "$40.00", "40.00", "$9.00")


async def test_the_named_card_of_a_grid_gives_the_price(trap_run):
    result, _ = await trap_run("How much is the Blue Widget?", f"{U}/widgets-priced.html")
    assert_true_or_no_claim(result, "25.00", "/widgets-priced.html", "40.00", "9.00")


async def test_a_look_alike_term_in_a_definition_list_is_not_the_answer(trap_run):
    result, _ = await trap_run("How much does the Trailhead 2 tent weigh?", f"{U}/tents.html")
    assert_honest_failure(result, "0.4 kg", "2.1 kg", "0.4", "2.1")


async def test_a_related_products_strip_in_the_main_content_is_not_the_answer(trap_run):
    result, _ = await trap_run("What is the price of the Cobalt backpack?", f"{U}/backpack.html")
    assert_honest_failure(result, "$14.00", "$65.00", "$12.00")


# --- answers: tables ---------------------------------------------------------------------------------------


async def test_a_cell_under_a_row_span_belongs_to_the_spanning_row(trap_run):
    """'Team' spans two rows: the North America row of the Team plan holds no word 'Team' of its own."""
    result, _ = await trap_run(
        "What is the monthly price of the Team plan in North America?", f"{U}/plans.html"
    )
    assert_true_or_no_claim(result, "$32", "/plans.html", "$10", "$99", "€29")


async def test_a_plan_without_the_asked_region_has_no_answer(trap_run):
    result, _ = await trap_run("What does the Enterprise plan cost in Europe?", f"{U}/plans.html")
    assert_honest_failure(result, "€9", "€29", "$99")


async def test_a_row_that_mentions_the_subject_in_a_note_is_another_row(trap_run):
    """Order 1043 has no row; the row of order 1042 names it in its note."""
    result, _ = await trap_run("What was the total of order 1043?", f"{U}/orders.html")
    assert_honest_failure(result, "$80.00", "80.00", "$52.00", "$17.50")


# --- answers: apps, error views, banners, dates, counts -----------------------------------------------------


async def test_a_page_rendered_by_script_after_load_gives_the_price(trap_run):
    result, _ = await trap_run("what is the price of the Arc desk lamp?", f"{U}/spa-lamp.html")
    assert_claim_quotes(result, "48.00", "/spa-lamp.html")


@wordings("What is the price of the Orion desk lamp?", "how much does the orion desk lamp cost")
async def test_an_apps_own_not_found_view_is_not_the_answer(trap_run, goal):
    result, _ = await trap_run(goal, f"{U}/spa-missing.html")
    assert_honest_failure(result, "$89.00", "$15.00", "$48.00", "can't find")


@wordings("What does the Halcyon blender cost?", "What is the warranty on the Halcyon blender?")
async def test_a_soft_404_sent_with_http_200_is_not_the_answer(trap_run, session, trap_url, goal):
    response = await session.page.request.get(trap_url + f"{U}/products/halcyon-blender")
    assert response.status == 200
    result, _ = await trap_run(goal, f"{U}/products/halcyon-blender")
    assert_honest_failure(result, "$24.00", "$18.00", "couldn't find", "doesn't exist")


@wordings(
    "How long does delivery take for the Fjord rain jacket?",
    "how many days until the fjord rain jacket is delivered",
)
async def test_a_cookie_banner_or_a_promo_bar_is_not_the_answer(trap_run, goal):
    result, _ = await trap_run(goal, f"{U}/jacket.html")
    assert_honest_failure(result, "30 days", "2 days", "31 May")


async def test_a_last_updated_date_is_not_when_a_sale_ends(trap_run):
    result, _ = await trap_run("When does the summer sale end?", f"{U}/sale.html")
    assert_honest_failure(result, "2 June 2026", "14 June 2026", "2 June", "14 June")


async def test_the_cards_shown_are_not_the_number_of_reviews(trap_run):
    """Three review cards show; the page says there are 128."""
    result, _ = await trap_run("How many reviews does the Cobalt backpack have?", f"{U}/reviews.html")
    if result["terminal_type"] == "goal_satisfied":
        assert (result["final_answer"] or "").strip().startswith("128"), result["final_answer"]
    else:
        assert_honest_failure(result)


# --- actions: outcomes that come late, or on another page ---------------------------------------------------


@wordings(
    "log in as ada with password pw1",
    "sign in to Quillbox with username ada and password pw1",
)
async def test_a_login_that_lands_on_a_problem_page_is_not_a_login(trap_run, goal):
    result, _ = await trap_run(goal, f"{U}/signin.html")
    assert_honest_failure(result)


async def test_a_login_form_shown_again_with_a_banner_is_not_a_login(trap_run, session):
    result, _ = await trap_run("log in as ada with password pw1", f"{U}/signin-stay.html")
    assert_honest_failure(result)
    assert await session.page.is_visible("#pw")


async def test_an_error_toast_after_saving_is_not_a_save(trap_run, session):
    result, _ = await trap_run("change the Board name to Roadmap and click Save", f"{U}/board.html")
    assert_honest_failure(result)


async def test_a_check_that_ends_in_a_rejection_is_not_an_order(trap_run, session):
    result, _ = await trap_run(
        "type 4 Elm Street as the delivery address and click Place order", f"{U}/checkout.html"
    )
    assert "placed" not in (await session.page.inner_text("#status")).lower()
    assert_honest_failure(result)


async def test_the_first_half_of_a_two_part_goal_is_not_the_goal(trap_run, session):
    result, _ = await trap_run("add the Trail mug to the cart and then go to checkout", f"{U}/mug.html")
    assert_honest_failure(result)


# --- the model path: a model's claims judged like any other -------------------------------------------------


@pytest.fixture
def drive(fake_openai, session, tmp_path, trap_url):  # noqa: F811 - the fixture imported above
    async def go(goal: str, model: Model, path: str) -> dict:
        fake_openai.responder = model
        ctx = model_context(fake_openai, tmp_path, trap_url, allowed_domains=["127.0.0.1"])
        return await run_goal(goal, ctx, start_url=trap_url + path, session=session)

    return go


async def test_a_model_that_invents_a_count_is_not_believed(drive):
    goal = "How many reviews does the Cobalt backpack have?"
    result = await drive(goal, Model([complete("The Cobalt backpack has 12 reviews.")]), f"{U}/reviews.html")
    assert result["terminal_type"] != "goal_satisfied", result.get("final_answer")


async def test_a_models_count_quoted_from_the_page_is_believed(drive):
    goal = "How many reviews does the Cobalt backpack have?"
    result = await drive(goal, Model([complete("128")]), f"{U}/reviews.html")
    assert (result["terminal_type"], result["terminal_reason"]) == ("goal_satisfied", "answer_found")


async def test_a_models_answer_from_the_page_before_a_failed_navigation_is_not_believed(drive):
    """The Spring catalogue's page fails (503); the model goes back and reads the Autumn catalogue's delivery."""
    goal = "What is the delivery time in the Spring catalogue?"
    model = Model([plan('Click "Spring catalogue"'), plan("Go back"), complete("5 working days")])
    result = await drive(goal, model, f"{U}/catalogue.html")
    assert result["terminal_type"] != "goal_satisfied", result.get("final_answer")


async def test_a_models_save_claim_after_an_error_toast_is_not_believed(drive):
    model = Model(
        [
            plan('Type "Roadmap" into "Board name"', 'Click "Save"'),
            complete("The board is now called Roadmap."),
        ]
    )
    result = await drive("change the Board name to Roadmap and click Save", model, f"{U}/board.html")
    assert result["terminal_type"] != "goal_satisfied", result.get("goal_evidence")


async def test_a_models_login_claim_on_a_problem_page_is_not_believed(drive):
    model = Model(
        [
            plan('Type "ada" into "Username"', 'Type "pw1" into "Password"', 'Click "Sign in"'),
            complete("Logged in as ada."),
        ]
    )
    result = await drive("log in as ada with password pw1", model, f"{U}/signin.html")
    assert result["terminal_type"] != "goal_satisfied", result.get("goal_evidence")


@pytest.mark.parametrize("claim", ["7", "There are 12 reviews."])
async def test_a_model_that_invents_the_number_of_items_listed_is_not_believed(drive, claim):
    """Three reviews are listed and the page says 128 in all: seven or twelve is counted nowhere."""
    result = await drive("how many reviews are there?", Model([complete(claim)]), f"{U}/reviews.html")
    assert result["terminal_type"] != "goal_satisfied", result.get("final_answer")
