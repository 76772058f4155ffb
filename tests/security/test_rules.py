"""The risk rules on hand-built observations: what asks first, what is routine, what never runs."""

from __future__ import annotations

import pytest

from agent.safety import analyze_action, recorded_action

PAGE = "http://shop.test/item/1"


def _obs(*elements: dict) -> dict:
    return {"url": PAGE, "elements": [{"id": i + 1, **e} for i, e in enumerate(elements)]}


def _click(obs: dict, element_id: int = 1, goal: str = "") -> dict:
    return analyze_action({"action": "click", "element_id": element_id, "args": {}}, obs, goal=goal)


@pytest.mark.parametrize(
    ("element", "risk"),
    [
        ({"tag": "a", "role": "link", "name": "Post 57"}, "low"),  # a title, not publishing
        ({"tag": "a", "role": "link", "name": "Share"}, "low"),
        ({"tag": "a", "role": "link", "name": "Send us feedback"}, "low"),
        ({"tag": "button", "role": "button", "name": "Post comment"}, "high"),
        ({"tag": "button", "role": "button", "name": "Share"}, "high"),
        ({"tag": "button", "role": "button", "name": "Send message"}, "high"),
        ({"tag": "a", "role": "link", "name": "Buy now"}, "high"),  # money counts on links too
        ({"tag": "a", "role": "link", "name": "Delete my account"}, "high"),
        ({"tag": "button", "role": "button", "name": "Change password"}, "high"),
        ({"tag": "button", "role": "button", "name": "Add to cart"}, "low"),
        ({"tag": "a", "role": "link", "name": "Price list", "attrs": {"download": ""}}, "high"),
    ],
)
def test_what_a_click_risks(element, risk):
    assert _click(_obs(element))["risk"] == risk


def test_the_goals_words_make_an_action_expected_not_approved():
    verdict = _click(_obs({"tag": "button", "role": "button", "name": "Place order"}), goal="place the order")
    assert (
        verdict["risk"] == "high" and "the goal asks for it, but it cannot be undone" in verdict["reasons"][0]
    )


def _submit_page(button: str, **field: object) -> dict:
    """A page with a button and one filled field (``field``: the field's own keys)."""
    return _obs(
        {"tag": "button", "role": "button", "name": button}, {"tag": "input", "role": "textbox", **field}
    )


def test_submitting_payment_details():
    pay = _submit_page("Continue", name="Card", value="4111", attrs={"autocomplete": "cc-number"})
    assert "payment details" in _click(pay)["reasons"][0]
    assert _click({**pay, "elements": [pay["elements"][0]]})["risk"] == "low"  # no payment field
    password = _submit_page("Save", name="Code", input_type="password", value="********")
    assert _click(password, goal="type 4471 in both boxes, then click Save")["risk"] == "low"
    card = _submit_page("Continue", name="Card number", value="4111 1111 1111 1111")
    assert "payment details" in _click(card)["reasons"][0]


@pytest.mark.parametrize(
    "field",
    [{"name": "Library card number", "value": "4111111111111111"}, {"name": "Card number", "value": "20417"}],
)
def test_an_account_card_is_no_payment_card(field):
    """'Sign in with library card 20417 and PIN 4321': a member's card, or a number too short to pay with."""
    assert _click(_submit_page("Sign in", **field))["risk"] == "low"


def test_what_the_page_asked_for():
    lure = _obs(
        {
            "tag": "a",
            "role": "link",
            "name": "Continue here",
            "attrs": {"href": "http://evil.test/?e=jo%40ex.com"},
        }
    )
    assert (
        "sends your data ('jo@ex.com') to evil.test" in _click(lure, goal="sign jo@ex.com up")["reasons"][0]
    )
    assert _click(lure, goal="read the news")["risk"] == "low"  # an ordinary link elsewhere
    go = {"action": "navigate", "element_id": None, "args": {"url": "http://evil.test/steal"}}
    assert analyze_action(go, _obs(), goal="read the news")["risk"] == "high"
    assert analyze_action(go, _obs(), goal="open evil.test/steal")["risk"] == "low"  # the user named it
    wiki = {"action": "navigate", "element_id": None, "args": {"url": "https://en.wikipedia.org/wiki/Tea"}}
    assert analyze_action(wiki, _obs(), goal="look tea up on Wikipedia")["risk"] == "low"
    linked = _obs({"tag": "a", "role": "link", "name": "Partner", "attrs": {"href": "http://evil.test/"}})
    assert analyze_action(go, linked, goal="read the news")["risk"] == "low"  # the page links there openly
    assert analyze_action(go, {}, goal="")["risk"] == "low"  # before the first page: the user's own start


def test_a_password_typed_from_the_goal_is_hidden_in_records():
    obs = _obs({"tag": "input", "role": "textbox", "name": "Password", "input_type": "password"})
    typed = {"action": "type", "element_id": 1, "args": {"text": "hunter2x"}}
    assert recorded_action(typed, obs)["args"]["text"] == "<hidden>"
    assert recorded_action({**typed, "args": {"text": "<secret:PW>"}}, obs)["args"]["text"] == "<secret:PW>"


def test_choosing_a_file_to_upload_asks_first():
    obs = _obs({"tag": "input", "role": "button", "name": "Attachment", "input_type": "file"})
    upload = {"action": "type", "element_id": 1, "args": {"text": "report.pdf"}}
    assert analyze_action(upload, obs)["reasons"] == ["choosing 'report.pdf' to upload from this computer"]


def test_choosing_to_pay_asks_when_the_form_is_sent_not_when_the_radio_is_chosen():
    """'I'll pay (£16.95)' spends nothing when chosen; sending the form that chose it does, and asks first."""
    radio = {"tag": "input", "role": "radio", "input_type": "radio", "name": "I'll pay (£16.95)"}
    page = {
        "elements": [
            {"id": 1, **radio},
            {"id": 2, "tag": "button", "role": "button", "name": "Book appointment"},
        ]
    }
    assert analyze_action({"action": "click", "element_id": 1}, page)["risk"] == "low"
    chosen = {"elements": [{"id": 1, **radio, "checked": True}, page["elements"][1]]}
    sent = analyze_action({"action": "click", "element_id": 2}, chosen)
    assert sent["risk"] == "high" and "spends money" in sent["reasons"][0]
    assert analyze_action({"action": "click", "element_id": 2}, page)["risk"] == "low"  # nothing chosen


def test_any_way_of_sending_a_form_that_chose_to_pay_asks_first():
    radio = {
        "id": 1,
        "tag": "input",
        "role": "radio",
        "input_type": "radio",
        "name": "I'll pay (£16.95)",
        "checked": True,
    }
    field = {"id": 2, "tag": "input", "role": "textbox", "input_type": "text", "name": "Name"}
    styled = {"id": 3, "tag": "div", "role": "button", "name": "Continue"}
    page = {"elements": [radio, field, styled]}
    assert analyze_action({"action": "press_key", "args": {"key": "Enter"}}, page)["risk"] == "high"
    typed = {"action": "type", "element_id": 2, "args": {"text": "Derek", "submit": True}}
    assert analyze_action(typed, page)["risk"] == "high"
    assert analyze_action({"action": "click", "element_id": 3}, page)["risk"] == "high"
