"""translate(): grounding one step on hand-built observations, and failing clearly instead of guessing."""

from __future__ import annotations

import pytest

from agent.planning.offline import translate_step
from tests.planning import pages


def run(step, observation, **extra):
    return translate_step({"plan_step": step, "observation": observation, **extra})


def grounded(step, observation, **extra):
    result = run(step, observation, **extra)
    assert result["status"] == "success", result["message"]
    assert result["error_type"] == "none"
    return result["action"]


def element(observation, eid):
    return next(e for e in observation["elements"] if e["id"] == eid)


LOGIN = pages.login_page()
SHOP = pages.shop_listing()
FORM = pages.form_page()


@pytest.mark.parametrize(
    ("step", "name"),
    [
        ('Type "alice" into "username"', "Email or username"),
        ('Type "alice@x.io" into "email"', "Email or username"),
        ("enter alice as the login", "Email or username"),
        ('Type "s3cret" into "password"', "Password"),
        ("put s3cret in the password box", "Password"),
    ],
)
def test_type_finds_the_field_by_label_synonym_and_input_type(step, name):
    action = grounded(step, LOGIN)
    assert action["action"] == "type"
    assert element(LOGIN, action["element_id"])["name"] == name
    assert action["args"]["clear"] is True
    assert "submit" not in action["args"]


def test_password_is_never_typed_into_a_visible_text_field_and_not_echoed():
    action = grounded('Type "hunter2" into "password"', LOGIN)
    assert element(LOGIN, action["element_id"])["input_type"] == "password"
    assert "hunter2" not in action["reasoning"]


def test_submit_flag_only_when_the_step_says_so():
    action = grounded('Type "shoes" into "Search products" and press Enter', SHOP)
    assert action["args"] == {"text": "shoes", "clear": True, "submit": True}


def test_submit_the_login_form_clicks_the_form_button_not_the_header_link():
    history = [{"action": "type", "element_id": 7, "status": "success", "url": LOGIN["url"]}]
    action = grounded("Submit the login form", LOGIN, history=history)
    assert action == {"action": "click", "element_id": 9, "args": {}, "reasoning": action["reasoning"]}


def test_submit_without_a_button_presses_enter_in_the_last_field():
    obs = pages.Page("https://x.test/", "Search")
    obs.add("input", name="Query", input_type="text", x=100, y=100)
    observation = obs.build()
    history = [{"action": "type", "element_id": 1, "status": "success", "url": "https://x.test/"}]
    action = grounded("Submit the form", observation, history=history)
    assert action["action"] == "press_key" and action["args"] == {"key": "Enter"}


@pytest.mark.parametrize(
    ("step", "eid"),
    [
        ("click the Sign in button", 9),
        ("click sign in", 9),
        ('Click the "Sign in" link', 4),
        ("go to the login page", 4),
        ("click forgot password", 10),
        ("tap Privacy", 11),
    ],
)
def test_click_matches_name_role_and_prefers_main_content(step, eid):
    action = grounded(step, LOGIN)
    assert (action["action"], action["element_id"]) == ("click", eid)


def test_ambiguous_when_two_different_elements_tie():
    result = run("click add to cart", SHOP)
    assert result["status"] == "failure" and result["error_type"] == "ambiguous_step"
    assert result["action"] is None
    assert "Add to cart" in result["message"]
    widget = run("click widget", SHOP)
    assert widget["error_type"] == "ambiguous_step"


def test_context_anchor_resolves_the_ambiguity():
    action = grounded('Click the "Add to cart" button for "Red Gizmo"', SHOP)
    gizmo = next(e for e in SHOP["elements"] if e.get("text") == "Red Gizmo")
    assert action["element_id"] == gizmo["id"] + 2  # the card's own button, not the neighbour's
    assert grounded("add the Blue Widget to the cart", SHOP)["element_id"] == 9


def test_exact_name_beats_a_longer_one():
    assert grounded("click Blue Widget", SHOP)["element_id"] == 7
    assert grounded("click Blue Widget Pro", SHOP)["element_id"] == 10


@pytest.mark.parametrize(
    ("step", "text"),
    [
        ("Click the first result", "Blue Widget"),
        ("Click the third product", "Green Widget"),
        ("click the last product", "Silver Sprocket"),
    ],
)
def test_ordinals_index_the_main_listing(step, text):
    action = grounded(step, SHOP)
    assert element(SHOP, action["element_id"])["text"] == text


def test_first_search_result_skips_the_search_box_and_header():
    results = pages.search_results()
    action = grounded("open the first result", results)
    assert element(results, action["element_id"])["text"].startswith("Best running shoes")


def test_avoid_elements_are_never_chosen():
    action = grounded("click the Sign in button", LOGIN, avoid_elements=[9])
    assert action["element_id"] != 9
    result = run("click Blue Widget", SHOP, avoid_elements=[7])
    assert result["status"] == "success" and result["action"]["element_id"] != 7


def test_a_failed_identical_action_is_not_repeated():
    step = 'Click the "Sign in" button'
    history = [
        {"plan_step": step, "action": "click", "element_id": 9, "status": "failure", "url": LOGIN["url"]}
    ]
    action = grounded(step, LOGIN, history=history)
    assert action["element_id"] != 9


def test_disallowed_action_is_a_tool_limit():
    result = run("Navigate to https://x.test/", LOGIN, allowed_actions=["click", "type"])
    assert (result["status"], result["error_type"]) == ("failure", "tool_limit")


def test_not_found_is_reported_not_guessed():
    result = run("click the Checkout button", SHOP)
    assert (result["status"], result["error_type"]) == ("failure", "element_not_found")
    assert result["action"] is None


def test_unknown_step_is_a_failure_with_the_supported_phrasings():
    result = run("do a barrel roll", SHOP)
    assert result["status"] == "failure" and "search for" in result["message"]


def test_select_option_uses_the_exact_option_label():
    action = grounded("select blue from the color dropdown", FORM)
    assert action == {
        "action": "select_option",
        "element_id": 5,
        "args": {"option": "Blue"},
        "reasoning": action["reasoning"],
    }
    assert grounded("choose large in size", FORM)["args"] == {"option": "Large"}
    assert grounded("set the size to Medium", FORM)["action"] == "select_option"


def test_missing_option_lists_the_options():
    result = run('Select "Purple" from "Color"', FORM)
    assert result["error_type"] == "element_not_found" and '"Blue"' in result["message"]


def test_checkbox_is_clicked_only_when_its_state_differs():
    assert grounded("check the newsletter box", FORM)["action"] == "wait"  # already checked: no toggle
    assert grounded("uncheck newsletter", FORM) == {
        "action": "click",
        "element_id": 7,
        "args": {},
        "reasoning": 'uncheck checkbox "Subscribe to newsletter" (id 7)',
    }
    assert grounded("tick I agree to the terms", FORM)["element_id"] == 8
    assert grounded("select express shipping", FORM)["element_id"] == 9
    assert grounded("choose standard shipping", FORM)["action"] == "wait"


def test_type_without_a_field_needs_a_single_candidate():
    assert run('Type "hello"', FORM)["error_type"] == "ambiguous_step"
    one = pages.Page("https://x.test/", "One field")
    one.add("input", name="", input_type="text")
    assert grounded('Type "hello"', one.build())["element_id"] == 1


def test_cookie_banner_accept_button():
    wall = pages.cookie_wall()
    action = grounded("Dismiss the cookie banner", wall)
    assert element(wall, action["element_id"])["text"] == "Accept all"
    assert run("Dismiss the cookie banner", SHOP)["error_type"] == "element_not_found"


def test_scrolling_steps():
    assert grounded("Scroll down", SHOP)["args"] == {"direction": "down", "amount": "page"}
    assert grounded("scroll up 300 pixels", SHOP)["args"] == {"direction": "up", "amount": 300}
    assert grounded("Scroll to the bottom", SHOP)["args"] == {"direction": "down", "amount": 2750}
    far = grounded('Scroll to "Silver Sprocket"', SHOP)
    assert far["action"] == "scroll" and far["args"]["direction"] == "down" and far["args"]["amount"] > 2000


def test_navigation_search_and_keys():
    assert grounded("Navigate to https://x.test/", SHOP)["args"] == {"url": "https://x.test/"}
    assert grounded('Search for "lamps"', SHOP) == {
        "action": "search",
        "element_id": None,
        "args": {"query": "lamps"},
        "reasoning": 'search for "lamps"',
    }
    assert grounded("Press Escape", SHOP)["args"] == {"key": "Escape"}
    assert grounded("Go back", SHOP)["action"] == "go_back"
    assert grounded("Wait 2 seconds", SHOP)["args"] == {"seconds": 2.0}


def test_search_falls_back_to_the_search_box_when_the_search_action_is_not_allowed():
    action = grounded('Search for "lamps"', SHOP, allowed_actions=["click", "type", "scroll"])
    assert action["action"] == "type" and action["args"]["submit"] is True
    assert element(SHOP, action["element_id"])["input_type"] == "search"


def test_element_steps_on_an_empty_page_fail_cleanly():
    result = run("click login", pages.blank_page())
    assert (result["status"], result["error_type"]) == ("failure", "element_not_found")


def test_usage_is_zero_and_raw_names_the_intent():
    result = run("click sign in", LOGIN)
    assert result["usage"]["total_tokens"] == 0 and result["usage"]["calls"] == 0
    assert result["raw"]["intent"]["kind"] == "Click"


def test_a_paragraph_that_only_mentions_the_target_is_never_the_element_acted_on():
    """The instruction shown on the page ('Select 12/02/2016 as the date ...') or a tip spelling out a menu path
    holds the target's name among more words of its own: clicking it does nothing the goal asked."""
    p = pages.Page("https://app.test/book", "Book")
    p.add("div", "Select 12/02/2016 as the date and hit submit.", y=20, w=160, h=50, prose=True)
    p.add("p", "Tip: choose File>Export>PDF to save a copy.", y=80, w=300, prose=True)
    p.add(
        "input", name="", y=140, input_type="text", attrs={"id": "datepicker", "readonly": ""}, editable=False
    )
    p.add("button", "Submit", y=190, w=80)
    p.add("p", "PDF", y=240, w=60, prose=True)  # a paragraph that is the name itself stays a candidate
    page = p.build()
    assert run('Select "12/02/2016" from "date"', page)["action"] is None
    assert grounded('Click "PDF"', page)["element_id"] == 5


def _member_login(extra_box: bool = False):
    p = pages.Page("http://cowork.test/login", "Members' area - Ropeworks")
    p.add("input", "", name="Search the site", input_type="search", role="searchbox", y=20, zone="header")
    p.add("input", "", name="Your Ropeworks number", input_type="text", y=120)
    if extra_box:
        p.add("input", "", name="Company", input_type="text", y=150)
    p.add("input", "", name="Passphrase", input_type="password", y=180)
    p.add("button", "Enter", y=220)
    return p.build()


def test_an_account_number_goes_into_the_log_in_forms_one_box_whatever_its_label():
    """'Member RW-2291, passphrase ...' on a form labelled 'Your Ropeworks number': the goal's 'member' is on
    no label, and the form has one box beside the password (the header's search box is not it)."""
    page = _member_login()
    action = grounded('Type "RW-2291" into "member"', page)
    assert element(page, action["element_id"])["name"] == "Your Ropeworks number"
    assert grounded('Type "RW-2291" into "username"', page)["element_id"] == action["element_id"]
    two = _member_login(extra_box=True)  # two boxes beside the password: the page must say which
    assert run('Type "RW-2291" into "member"', two)["status"] != "success"
    assert run('Type "Wharf Street" into "street"', page)["status"] != "success"  # no account word


def test_the_log_in_forms_email_box_not_the_footers_newsletter_box():
    """'Email' in the footer (a newsletter's) matched 'email' better than the form's 'Email address' and the
    log-in failed."""
    p = pages.Page("http://books.test/account/login", "Sign in")
    p.add("input", "", name="Email address", input_type="email", y=317)
    p.add("input", "", name="Password", input_type="password", y=377)
    p.add("button", "Sign in", y=418)
    p.add("input", "", name="Email", input_type="email", y=807, zone="footer")
    p.add("button", "Join", y=801, zone="footer")
    page = p.build()
    assert (
        element(page, grounded('Type "h@x.io" into "email"', page)["element_id"])["name"] == "Email address"
    )
