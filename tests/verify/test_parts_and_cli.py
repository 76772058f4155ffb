"""Goal parts from the offline parser, the judge on recorded histories, and how the CLI reports an unproven run."""

from __future__ import annotations

from agent.cli_output import exit_code, print_result
from agent.planning.verify import goal_parts, judge


def kinds(goal: str) -> list[tuple[str, str]]:
    return [
        (p["kind"], p.get("target") or p.get("question") or p.get("value") or "") for p in goal_parts(goal)
    ]


def test_goals_break_into_checkable_parts():
    assert kinds("log in as alice with password secret, then tell me the total of my last order") == [
        ("field", "username"),
        ("field", "password"),
        ("login", "alice"),
        ("answer", "tell me the total of my last order"),
    ]
    assert kinds("select Canada from the Country dropdown and check Remember me") == [
        ("option", "Country"),
        ("check", "Remember me"),
    ]
    assert kinds("go to http://shop.test/cart then click Checkout") == [
        ("destination", "http://shop.test/cart"),
        ("click", "Checkout"),
    ]
    assert kinds("search for salt and pepper") == [("search", "salt and pepper")]
    # a clause the grammar cannot read still has to be shown done (a model planner may carry it out)
    assert kinds("log in and create a page") == [("login", ""), ("task", "create a page")]
    assert kinds("log in as ada with password pw1 and create a page")[-1] == ("task", "create a page")


def test_a_described_value_is_not_proven_by_typing_the_description():
    [part] = goal_parts('Enter an item that starts with "An" and ends with "ica".')
    assert part["kind"] == "task" and part["describes"]
    typed = _typed(1, part["target"], "Item")
    verdict = judge([part], [typed], {}, answer="")
    assert verdict["evidence"] == [] and "cannot be checked against a description" in verdict["missing"][0]


def test_list_and_superlative_answers_are_checked_by_the_names_they_give():
    from agent.planning.verify import quote_candidates

    [best] = goal_parts("Which Electronics product has the best rating?")
    answer = "Noise-Cancelling Headphones (Rated 4.6 out of 5 (175 reviews))"
    assert quote_candidates(best, answer) == ["Noise-Cancelling Headphones"]
    [listed] = goal_parts("list the products under $20")
    assert quote_candidates(listed, "Mug ($8.00); Pen ($2.50)") == ["Mug", "Pen"]


def test_secret_values_never_appear_in_the_part_text():
    part = goal_parts("log in as alice with password hunter2")[1]
    assert part["secret"] and "hunter2" not in part["text"]


def test_answer_parts_name_the_subject_their_block_must_hold():
    [part] = goal_parts("what is the price of the Cast Iron Skillet?")
    assert part["answer_kind"] == "attribute"
    assert part["subject"] == ["cast", "iron", "skillet"] and part["need"] == 2


def _typed(step, value, field, shown=None, errors=()):
    return {
        "step": step,
        "status": "success",
        "action": "type",
        "args": {"text": value},
        "target": f'textbox "{field}"',
        "effect": {"changed": True, "errors": list(errors), "target": {"value": shown or value}},
    }


def test_typing_is_proven_by_the_value_the_field_holds():
    parts = goal_parts("type 555-1234 into the phone field")
    ok = judge(parts, [_typed(1, "555-1234", "Phone")], {}, answer="")
    assert ok["missing"] == [] and ok["evidence"][0]["quote"] == "field holds 555-1234"
    reformatted = judge(parts, [_typed(1, "555-1234", "Phone", shown="5551234")], {}, answer="")
    assert reformatted["evidence"] == [] and "does not show the value" in reformatted["missing"][0]
    refused = judge(parts, [_typed(1, "555-1234", "Phone", errors=["Invalid phone number"])], {}, answer="")
    assert "Invalid phone number" in refused["missing"][0]


def test_a_value_the_form_offers_in_a_dropdown_is_proven_by_the_option_selected():
    """'Register ... for 2 places': the form's 'Number of places' is a dropdown, so the 2 is chosen, not typed."""
    parts = goal_parts("type 2 into the places field")
    effect = {"changed": True, "errors": [], "target": {"selected": ["2"], "value": "2"}}
    chosen = {
        "step": 3,
        "status": "success",
        "action": "select_option",
        "args": {"option": "2"},
        "effect": effect,
    }
    assert judge(parts, [chosen], {}, answer="")["evidence"][0]["quote"] == "selected '2'"
    effect["target"]["selected"] = ["1"]
    assert "nothing was typed" in judge(parts, [chosen], {}, answer="")["missing"][0]


def test_a_login_is_proven_by_the_page_after_it_not_by_typing():
    parts = goal_parts("log in as alice with password secret")
    typed = [_typed(1, "alice", "Username"), _typed(2, "secret", "Password", shown="••••••")]
    typed[1]["effect"]["target"].update(value_len=6, secret=True)
    only_typed = judge(parts, typed, {}, answer="")
    assert [e["part"] for e in only_typed["evidence"]] == ["p1", "p2"]
    assert "no step sent the form" in only_typed["missing"][0]
    clicked = {
        "step": 3,
        "status": "success",
        "action": "click",
        "target": 'button "Sign in"',
        "effect": {"changed": True, "errors": [], "appeared": ["Signed in as alice"], "summary": "appeared"},
    }
    proven = judge(parts, [*typed, clicked], {}, answer="")
    assert (
        proven["missing"] == []
        and proven["evidence"][2]["quote"] == "signed-in name shown: Signed in as alice"
    )
    still_form = {**clicked, "effect": {**clicked["effect"], "appeared": ["Welcome back"]}}
    observation = {"url": "http://x.test/login", "elements": [{"input_type": "password"}]}
    unproven = judge(parts, [*typed, still_form], observation, answer="")
    assert "shows no signed-in user" in unproven["missing"][0]


def test_our_own_messages_and_search_listings_never_answer():
    from agent.nodes.goal_check import judge_claim

    refused = {
        "status": "failure",
        "action": "click",
        "error_type": "navigation_blocked",
        "message": "blocked http://evil.test/: denied destination",
    }
    page = {"url": "http://shop.test/", "title": "Shop", "page_text": "Blue Widget\nPrice $12.50"}
    state = {"goal": "what is the price of the Blue Widget?", "observation": page, "history": [refused]}
    verdict = judge_claim(state, {"answer": "denied destination"})
    assert (verdict["terminal_type"], verdict["terminal_reason"]) == ("goal_failed", "answer_not_grounded")
    assert judge_claim(state, {"answer": "$12.50"})["terminal_type"] == "goal_satisfied"
    listing = {**page, "url": "http://shop.test/search?q=blue+widget"}
    verdict = judge_claim({**state, "observation": listing}, {"answer": "$12.50"})
    assert (verdict["terminal_type"], verdict["terminal_reason"]) == ("goal_failed", "unverified")
    assert "search results listing" in verdict["missing"][0]


def test_a_date_never_counts_and_a_navigation_trail_never_answers():
    """Both quoted from the page and naming the subject, yet neither answers: a count given as a date's digits,
    a value given as the breadcrumb of the record's page."""
    from agent.nodes.goal_check import judge_claim

    admin = {
        "url": "http://admin.test/orders/customer/3/change/",
        "title": "Chen Wei | Admin",
        "page_text": "Home › Orders › Customers › Chen Wei\nName: Chen Wei\nCity: Singapore\nOrders: 4 pending\n"
        "Placed on Nov. 4, 2026",
    }
    city = {"goal": "Which city is the customer Chen Wei in?", "observation": admin, "history": []}
    verdict = judge_claim(city, {"answer": "Home › Orders › Customers › Chen Wei"})
    assert verdict["terminal_type"] == "goal_failed" and "navigation trail" in verdict["missing"][0]
    assert judge_claim(city, {"answer": "Singapore"})["terminal_type"] == "goal_satisfied"
    pending = {**city, "goal": "tell me how many orders are pending"}
    for dated in ("Nov. 4, 2026", "2026-11-04"):
        verdict = judge_claim(pending, {"answer": dated})
        assert verdict["terminal_type"] == "goal_failed" and "number" in verdict["missing"][0], dated
    assert judge_claim(pending, {"answer": "4 pending"})["terminal_type"] == "goal_satisfied"


def test_a_change_seen_only_by_the_next_observation_counts_for_the_last_step():
    from agent.nodes.goal_check import judge_claim

    click = {
        "step": 1,
        "status": "success",
        "action": "click",
        "target": 'button "Load more"',
        "effect": {"changed": False, "errors": [], "summary": "nothing changed"},
    }
    state = {
        "goal": "click Load more",
        "history": [click],
        "observation": {},
        "dom_hash": "a",
        "prev_dom_hash": "a",
    }
    assert judge_claim(state, {"answer": ""})["terminal_reason"] == "unverified"
    late = judge_claim({**state, "dom_hash": "b"}, {"answer": ""})
    assert late["terminal_type"] == "goal_satisfied"
    assert (
        late["goal_evidence"][0]["quote"] == "the page changed after the step (seen by the next observation)"
    )
    assert click["effect"]["changed"] is False  # the recorded history is not rewritten


def test_a_click_on_a_text_that_mentions_the_item_does_not_prove_the_item_was_clicked():
    """A tip spelling out the menu path holds the leaf's name; clicking it while the submenu opened late changed
    the page, but the item the goal names was never clicked. A control keeps its long label as its name."""
    parts = goal_parts("Select File>Export>PDF")
    assert [p["kind"] for p in parts] == ["click"]

    def clicked(target: str) -> dict:
        effect = {"changed": True, "errors": [], "summary": "appeared: PDF | HTML"}
        return {"step": 3, "status": "success", "action": "click", "target": target, "effect": effect}

    tip = clicked('p "Tip: choose File>Export>PDF to save a copy, or Edit>Redo to bring"')
    verdict = judge(parts, [tip], {}, answer="")
    assert not verdict["evidence"] and "no step acted on it" in verdict["missing"][0]
    for target in ('menuitem "PDF"', 'li "PDF"', 'link "PDF - a printable copy of this report"'):
        assert judge(parts, [clicked(target)], {}, answer="")["evidence"], target


def test_a_click_that_led_to_an_error_page_is_not_proven():
    """ "Open the pricing page": the link was clicked and the page changed, but to a 404 or a 500."""
    parts = goal_parts("Click Pricing")
    effect = {"changed": True, "navigated": True, "errors": [], "summary": "navigated", "http_status": 404}
    item = {"step": 1, "status": "success", "action": "click", "target": 'link "Pricing"', "effect": effect}
    verdict = judge(parts, [item], {}, answer="")
    assert not verdict["evidence"] and "HTTP 404" in verdict["missing"][0]
    effect.pop("http_status")
    assert judge(parts, [item], {}, answer="")["evidence"]


def test_the_cli_says_not_verified_and_prints_no_answer(capsys):
    result = {
        "terminal_type": "goal_failed",
        "terminal_reason": "unverified",
        "final_answer": None,
        "candidate_answer": "$9.99",
        "missing": ["found a price, but not in the block that names the Blue Widget"],
        "stop_reason": "not verified: found a price, but not in the block that names the Blue Widget",
        "steps": 2,
    }
    print_result(result, as_json=False)
    out = capsys.readouterr().out
    assert (
        "Not verified: found a price, but not in the block that names the Blue Widget (found: $9.99)" in out
    )
    assert "answer:" not in out
    assert exit_code(result) == 1
    print_result({**result, "terminal_reason": "user_declined", "final_answer": "stale text"}, as_json=False)
    assert "answer:" not in capsys.readouterr().out  # failure text is never printed as an answer


def test_a_refusal_worded_without_error_words_is_still_an_error():
    """'doesn't look right ... nothing was saved' is a rejection, in the page effects and in the page reading."""
    from agent.util.page_errors import ERROR_MESSAGE, is_error_message

    refusal = "Hmm, that address doesn't look right. Nothing was saved."
    assert is_error_message(refusal) and ERROR_MESSAGE.search(refusal)
    assert is_error_message("Your message was not sent") and ERROR_MESSAGE.search("Your message was not sent")
    assert not is_error_message("Thanks, saved!") and not ERROR_MESSAGE.search(
        "Thanks, your message was sent."
    )
