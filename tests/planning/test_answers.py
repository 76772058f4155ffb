"""Answering questions from page text and element geometry; scanning on when the answer is not there yet."""

from __future__ import annotations

import pytest

from agent.planning.offline import answer_question, translate_step
from agent.planning.offline.questions import analyze
from tests.planning import pages

SHOP = pages.shop_listing()
TEAM = pages.directory_page()


#: (page, question, the answer read from it)
ANSWERS = [
    # a price is read from the product's own card
    (SHOP, "what is the price of the Blue Widget", "$19.99"),
    (SHOP, "What's the price of the Blue Widget Pro?", "$49.00"),
    (SHOP, "how much is the Red Gizmo", "$27.99"),
    (SHOP, "how much does the Silver Sprocket cost?", "$53.99"),
    (SHOP, "get the cost of the Green Gadget", "$23.99"),
    (SHOP, "what is the price of the third product", "$16.99"),
    (SHOP, "what is the title of the first result", "Blue Widget"),
    (SHOP, "which product is the cheapest?", "Green Widget ($16.99)"),
    (SHOP, "what is the most expensive product", "Silver Sprocket ($53.99)"),
    # counts
    (SHOP, "how many products are there", "30"),
    (SHOP, "How many products cost less than $20?", "4"),
    (SHOP, "count the products over $50", "2"),
    # contact details near the person
    (TEAM, "find the email of Jane Doe", "jane.doe@corp.test"),
    (TEAM, "What is John Smith's email address?", "john.smith@corp.test"),
    (TEAM, "what is the phone number of Ann Lee", "+1 555 010 4000"),
    (TEAM, "when was the company founded?", "March 3, 2011"),
    (TEAM, "who works in Support?", "Ann Lee"),
]


@pytest.mark.parametrize(("page", "question", "answer"), ANSWERS, ids=[q for _, q, _ in ANSWERS])
def test_the_answer_is_read_from_the_block_it_belongs_to(page, question, answer):
    found = answer_question(question, page)
    assert found.found, found.text
    assert found.text == answer


def test_count_from_stated_total_text():
    assert answer_question("how many results are there?", pages.search_results()).text == "1,240"


def test_count_by_counting_cards_when_the_page_states_no_total():
    page = pages.Page("https://shop.test/sale", "Sale")
    for n in range(7):
        page.link(f"Lamp model {n}", f"https://shop.test/item/{n}", y=100 + n * 50)
    assert answer_question("how many items are listed?", page.build()).text == "7"


def test_list_with_a_price_filter():
    found = answer_question("list all products under $20", SHOP)
    assert (
        found.text
        == "Blue Widget ($19.99); Green Widget ($16.99); Black Widget ($19.99); Blue Gadget ($17.99)"
    )


def test_page_message_after_logging_in():
    found = answer_question("what does the page say after logging in", pages.dashboard_page())
    assert found.found and found.text == "Welcome back, alice! You have 3 new messages."


def test_heading_and_title():
    assert answer_question("what is the main heading", SHOP).text == "All products"
    assert answer_question("what is the title of the page", SHOP).text == "Products - Shop"


def test_yes_no_stock_question():
    page = pages.Page("https://shop.test/p/1", "Blue Widget")
    page.add("h1", "Blue Widget", interactive=False, y=80)
    page.add("span", "$19.99", interactive=False, y=130)
    page.add("span", "Out of stock", interactive=False, y=160)
    assert answer_question("Is the Blue Widget in stock?", page.build()).text == "No (Out of stock)"


def test_missing_answer_is_not_invented():
    found = answer_question("what is the price of the Purple Widget", SHOP)
    assert not found.found
    assert found.text == "Could not find the price of Purple Widget on the page."
    assert not answer_question("who is the CEO of Initech?", TEAM).found


def test_question_analysis():
    q = analyze("what is the price of the Blue Widget")
    assert (q.kind, q.attr, q.entity, q.value_type) == ("attribute", "price", "Blue Widget", "money")
    assert analyze("how many products cost less than $20").price_filter == ("<", 20.0)
    assert analyze("what is the phone number of Ann Lee").kind == "attribute"
    assert analyze("what does the page say").kind == "message"


def ask(step, observation, history=(), goal=""):
    return translate_step(
        {"plan_step": step, "observation": observation, "history": list(history), "goal": goal}
    )


def test_answer_step_emits_done_with_the_answer():
    result = ask("Answer: what is the price of the Blue Widget?", SHOP)
    assert result["action"]["action"] == "done"
    assert result["action"]["args"] == {"answer": "$19.99", "success": True}


def test_answer_step_scrolls_while_there_is_content_below():
    result = ask("Answer: what is the price of the Purple Widget?", SHOP)
    assert result["action"]["action"] == "scroll"
    assert result["action"]["args"] == {"direction": "down", "amount": "page"}


def test_answer_step_gives_up_when_the_page_is_exhausted():
    bottom = pages.shop_listing(scroll_y=2700)
    result = ask("Answer: what is the price of the Purple Widget?", bottom)
    assert result["action"]["action"] == "done"
    assert result["action"]["args"]["success"] is False
    assert result["action"]["args"]["answer"].startswith("Could not find")


def test_a_scroll_that_moved_nothing_ends_the_scan():
    history = [
        {"action": "scroll", "status": "success", "message": "scrolled: no change (already at the end)"}
    ]
    result = ask("Answer: what is the price of the Purple Widget?", SHOP, history=history)
    assert result["action"]["action"] == "done" and result["action"]["args"]["success"] is False


def test_scan_is_bounded():
    history = [{"action": "scroll", "status": "success", "message": "scrolled down"}] * 20
    result = ask("Answer: what is the price of the Purple Widget?", SHOP, history=history)
    assert result["action"]["action"] == "done"


def test_answer_step_answers_all_questions_of_the_goal():
    goal = "what is the price of the Blue Widget and how many products are there"
    result = ask("Answer: what is the price of the Blue Widget?", SHOP, goal=goal)
    assert result["action"]["args"]["answer"] == (
        "what is the price of the Blue Widget: $19.99; how many products are there: 30"
    )


def test_done_not_allowed_is_a_tool_limit_that_still_carries_the_answer():
    result = translate_step(
        {
            "plan_step": "Answer: what is the price of the Blue Widget?",
            "observation": SHOP,
            "allowed_actions": ["click", "scroll"],
        }
    )
    assert result["error_type"] == "tool_limit" and "$19.99" in result["message"]


def catalog_page() -> pages.Observation:
    """Cards whose category and rating only appear in the page text (as on many real listings)."""
    p = pages.Page("https://shop.test/products", "All products")
    p.add("h1", "All products", y=60, interactive=False)
    p.text("Showing 5 of 5 products")
    cards = [
        ("Trail Mug", "Kitchen", "$12.99", "4.6", 49),
        ("Headphones", "Electronics", "$149.00", "4.6", 175),
        ("Power Bank", "Electronics", "$29.00", "4.3", 69),
        ("Notebook A5", "Office", "$13.90", "4.8", 64),
        ("Charger 65W", "Electronics", "$35.99", "4.5", 32),
    ]
    for n, (name, category, price, rating, reviews) in enumerate(cards):
        x, y = 100 + (n % 3) * 300, 150 + (n // 3) * 300
        p.link(name, f"https://shop.test/p/{n}", x=x, y=y)
        p.text(category)
        p.add("p", price, x=x, y=y + 40, w=80, interactive=False)
        p.add("p", f"Rated {rating} out of 5 ({reviews} reviews)", x=x, y=y + 70, interactive=False)
        p.add("button", "Add to cart", x=x, y=y + 110, w=120)
    return p.build()


def test_qualifiers_read_from_the_card_text_and_rating_superlatives():
    page = catalog_page()
    assert answer_question("Which Electronics product has the best rating?", page).text == (
        "Headphones (Rated 4.6 out of 5 (175 reviews))"
    )
    assert answer_question("which product is the top rated?", page).text.startswith("Notebook A5")
    assert answer_question("what is the cheapest Electronics product", page).text == "Power Bank ($29.00)"
    assert answer_question("how many Electronics products are there?", page).text == "3"  # not the stated 5
    assert answer_question("how many products are there?", page).text == "5"


def test_a_model_number_before_a_price_is_not_money():
    page = catalog_page()
    assert answer_question("what is the price of the Notebook A5", page).text == "$13.90"
    assert answer_question("list the Office products under $20", page).text == "Notebook A5 ($13.90)"
