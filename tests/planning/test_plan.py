"""plan(): next steps from the goal, completed_steps and the page; completion and clear give-ups."""

from __future__ import annotations

from agent.planning.offline import plan_goal
from agent.planning.offline.grammar import parse_goal
from agent.planning.offline.planner import RETRY_SCROLL_STEP, completed_count, overlay_step
from tests.planning import pages

LOGIN_GOAL = "go to app.test/login, log in as alice with password s3cret, then tell me what the page says"
LOGIN_STEPS = ['Type "alice" into "username"', 'Type "s3cret" into "password"', "Submit the login form"]


def plan(goal, observation, completed=(), history=(), **extra):
    return plan_goal(
        {
            "goal": goal,
            "observation": observation,
            "completed_steps": list(completed),
            "history": list(history),
            **extra,
        }
    )


def test_first_step_on_a_blank_page_is_the_navigation_and_the_queue_stops_there():
    result = plan(LOGIN_GOAL, pages.blank_page())
    assert result["task_complete"] is False
    assert result["proposed_actions"] == ["Navigate to https://app.test/login"]


def test_form_steps_are_queued_up_to_the_submit():
    result = plan(LOGIN_GOAL, pages.login_page(), completed=["Navigate to https://app.test/login"])
    assert result["proposed_actions"] == LOGIN_STEPS


def test_completed_steps_are_skipped():
    result = plan(
        LOGIN_GOAL, pages.login_page(), completed=["Navigate to https://app.test/login", *LOGIN_STEPS[:2]]
    )
    assert result["proposed_actions"] == ["Submit the login form"]


def test_question_is_answered_on_the_page_after_the_actions():
    result = plan(
        LOGIN_GOAL, pages.dashboard_page(), completed=["Navigate to https://app.test/login", *LOGIN_STEPS]
    )
    assert result["task_complete"] is True and result["success"] is True
    assert result["final_answer"] == "Welcome back, alice! You have 3 new messages."


def test_goal_without_question_completes_with_a_summary_that_hides_the_password():
    goal = "log in as alice with password s3cret"
    result = plan(goal, pages.dashboard_page(), completed=LOGIN_STEPS)
    assert result["task_complete"] is True and result["success"] is True
    assert "s3cret" not in result["final_answer"]
    assert result["final_answer"].startswith('Done: typed "alice" into "username"')
    assert result["proposed_actions"] == []


def test_search_and_a_link_click_end_the_queue():
    shop = pages.shop_listing()
    assert plan("search for shoes and click the first result", shop)["proposed_actions"] == [
        'Search for "shoes"'
    ]
    result = plan("click Blue Widget, then click the Add to cart button", shop)
    assert result["proposed_actions"] == ['Click "Blue Widget"']


def test_non_navigating_clicks_and_form_fills_are_batched():
    form = pages.form_page()
    result = plan(
        "select Blue from Color, choose Large in size, type hi into message, tick the terms box and "
        "click Place order",
        form,
    )
    assert result["proposed_actions"] == [
        'Select "Blue" from "Color"',
        'Select "Large" from "size"',
        'Type "hi" into "message"',
        'Check "terms"',
        'Click "Place order"',
    ]


def test_at_most_five_steps():
    goal = "; ".join(f'type "{n}" into the message box' for n in range(8))
    result = plan(goal, pages.form_page())
    assert len(result["proposed_actions"]) == 5


def test_checkbox_already_in_the_wanted_state_is_skipped():
    form = pages.form_page()
    result = plan("check the newsletter box and click Place order", form)
    assert result["proposed_actions"] == ['Click "Place order"']
    done = plan("check the newsletter box", form)
    assert done["task_complete"] is True and done["success"] is True


def test_completed_steps_are_a_multiset_in_order():
    actions = list(parse_goal("click Next, type a into the comment box, click Next").actions)
    assert completed_count(actions, ['Click "Next"']) == 1
    assert completed_count(actions, ['Click "Next"', 'Type "a" into "comment"']) == 2
    assert completed_count(actions, ['Click "Next"', 'Type "a" into "comment"', 'Click "Next"']) == 3
    assert completed_count(actions, ["something else"]) == 0


def test_cookie_wall_is_cleared_before_anything_else():
    wall = pages.cookie_wall()
    result = plan("click the first story", wall)
    assert result["proposed_actions"] == [overlay_step("cookie"), "Click the first story"]


def test_overlay_is_not_retried_forever():
    wall = pages.cookie_wall()
    history = [{"plan_step": overlay_step("cookie"), "action": "click", "status": "success"}] * 2
    assert plan("click the first story", wall, history=history)["proposed_actions"] == [
        "Click the first story"
    ]


def test_goal_that_itself_accepts_cookies_is_not_doubled():
    result = plan("accept cookies then click the first story", pages.cookie_wall())
    assert result["proposed_actions"] == ["Accept the cookie banner", "Click the first story"]


#: The history item of a step the translator could not ground: there is no Checkout button on the listing.
CHECKOUT_NOT_FOUND = {
    "plan_step": 'Click the "Checkout" button',
    "action": "translate",
    "status": "failure",
    "error_type": "element_not_found",
    "message": 'no button "Checkout" on the page',
}


def test_element_not_found_with_content_below_scrolls_and_retries():
    result = plan("click the Checkout button", pages.shop_listing(), history=[CHECKOUT_NOT_FOUND])
    assert result["proposed_actions"] == [RETRY_SCROLL_STEP, 'Click the "Checkout" button']


def test_a_step_that_keeps_failing_ends_the_run_with_the_reason():
    result = plan("click the Checkout button", pages.shop_listing(), history=[CHECKOUT_NOT_FOUND] * 3)
    assert result["task_complete"] is True and result["success"] is False
    assert result["failure_reason"] == "step_failed"
    assert 'no button "Checkout"' in result["final_answer"]


def test_tool_limit_gives_up_at_once():
    failure = {
        "plan_step": "Navigate to https://x.test/",
        "status": "failure",
        "error_type": "tool_limit",
        "message": "navigate not allowed",
    }
    result = plan("go to x.test", pages.blank_page(), history=[failure])
    assert result["task_complete"] is True and result["success"] is False


def test_not_understood_goal_is_insufficient_knowledge():
    result = plan("make me a sandwich", pages.login_page())
    assert result["task_complete"] is True and result["success"] is False
    assert result["failure_reason"] == "insufficient_knowledge"
    assert '"make me a sandwich"' in result["final_answer"] and "log in as" in result["final_answer"]
    assert result["proposed_actions"] == []


def test_page_actions_without_a_page_ask_for_a_site_or_use_the_start_url():
    no_site = plan("click login", pages.blank_page())
    assert no_site["task_complete"] is True and no_site["failure_reason"] == "insufficient_knowledge"
    with_start = plan("click login", pages.blank_page(), start_url="app.test")
    assert with_start["proposed_actions"] == ["Navigate to https://app.test/"]


def test_question_found_on_the_page_completes_immediately():
    result = plan(
        "what is the price of the Blue Widget and how many products are there", pages.shop_listing()
    )
    assert result["task_complete"] is True and result["success"] is True
    assert result["final_answer"] == (
        "what is the price of the Blue Widget: $19.99; how many products are there: 30"
    )


def test_question_not_visible_yet_scans_down_then_gives_up_at_the_bottom():
    goal = "what is the price of the Purple Widget"
    top = plan(goal, pages.shop_listing())
    assert top["proposed_actions"] == ["Answer: what is the price of the Purple Widget?"]
    bottom = plan(goal, pages.shop_listing(scroll_y=2700))
    assert bottom["proposed_actions"] == ['Search for "Purple Widget"']  # one last lead: the site's search
    searched = [{"plan_step": 'Search for "Purple Widget"', "action": "search", "status": "success"}]
    given_up = plan(goal, pages.shop_listing(scroll_y=2700), history=searched)
    assert given_up["task_complete"] is True and given_up["success"] is False
    assert given_up["failure_reason"] == "answer_not_found"
    assert given_up["final_answer"].startswith("Could not find the price of Purple Widget")


def home_page() -> pages.Observation:
    """A shop's home page: nav links, two featured products, a cart link and a newsletter form."""
    p = pages.Page("https://shop.test/", "Shop")
    p.link("Products", "https://shop.test/products", x=200, y=20, w=80, zone="nav")
    p.link("Cart (2)", "https://shop.test/cart", x=300, y=20, w=80, zone="nav")
    p.link("Log in", "https://shop.test/login", x=1100, y=20, w=60, zone="header")
    p.add("h1", "Welcome to the shop", y=80, interactive=False)
    for n, (name, price) in enumerate([("Blue Widget", "$19.99"), ("Red Gizmo", "$27.99")]):
        p.link(name, f"https://shop.test/p/{n}", x=100 + n * 300, y=200)
        p.add("span", price, x=100 + n * 300, y=230, w=80, interactive=False)
        p.add("button", "Add to cart", x=100 + n * 300, y=260, w=120)
    p.add("input", name="Email address", x=100, y=400, input_type="email")
    p.add("button", "Subscribe", x=420, y=400, w=100)
    return p.build()


def test_collection_question_goes_to_its_section_first():
    home = home_page()
    assert plan("how many products cost less than $20?", home)["proposed_actions"] == [
        'Click the "Products" link'
    ]
    tried = [{"plan_step": 'Click the "Products" link', "action": "click", "status": "success"}]
    assert plan("how many products cost less than $20?", home, history=tried)["final_answer"] == "1"
    assert plan("how many products are there", pages.shop_listing())["final_answer"] == "30"  # already there


def test_answer_elsewhere_follows_a_link_the_question_names():
    result = plan("what is the cart total?", home_page())
    assert result["proposed_actions"] == ['Click the "Cart (2)" link']


def test_login_from_a_page_without_a_login_form_opens_the_login_page_first():
    result = plan("log in as alice with password s3cret", home_page())
    assert result["proposed_actions"] == ['Click the "log in" link']
    assert plan("log in as alice with password s3cret", pages.login_page())["proposed_actions"][0].startswith(
        "Type"
    )


def test_error_message_after_the_last_step_is_not_success():
    obs = pages.Page("https://app.test/login", "Sign in")
    obs.add("div", "Invalid password. Try again.", role="alert", interactive=False)
    result = plan("log in as alice with password nope", obs.build(), completed=LOGIN_STEPS)
    assert result["task_complete"] is True and result["success"] is False
    assert "Invalid password" in result["final_answer"]


def test_usage_is_zero():
    assert plan("scroll down", pages.shop_listing())["usage"]["total_tokens"] == 0


def test_completion_summary_quotes_what_the_page_says():
    done = pages.Page("https://shop.test/", "Shop")
    done.add("p", "Thanks for subscribing!", role="status", interactive=False)
    result = plan(
        "subscribe with a@b.io",
        done.build(),
        completed=['Type "a@b.io" into "email"', "Submit the subscription form"],
    )
    assert result["success"] is True
    assert result["final_answer"].endswith("The page says: Thanks for subscribing!")
