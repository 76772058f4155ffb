"""Pure rules of the FSM: terminals, stages, goal classification, evidence, safety."""

from __future__ import annotations

import pytest

from agent.dom.text import keywords
from agent.evidence import action_signature, answer_grounded, goal_hits
from agent.goals import goal_kind, task_mode, validate_goal
from agent.safety import analyze_action
from agent.stages import STAGES, allowed_actions, promote
from agent.terminals import TERMINAL_REASONS, TERMINAL_TYPES, normalize, terminal_for


def test_every_reason_maps_to_a_known_type_and_budgets_are_budgets():
    for reason, kind in TERMINAL_REASONS.items():
        assert kind in TERMINAL_TYPES
        if reason.startswith("max_"):
            assert kind == "budget_exhausted"
    assert terminal_for("something new") == "goal_failed"


@pytest.mark.parametrize(
    ("given", "expected"),
    [
        (("goal_satisfied", "answer_found"), ("goal_satisfied", "answer_found")),
        (("goal_satisfied", "max_steps"), ("budget_exhausted", "max_steps")),
        ((None, None), ("goal_failed", "node_error")),
        (("weird", "weirder"), ("goal_failed", "node_error")),
        (("loop_stuck", None), ("loop_stuck", "world_frozen")),
    ],
)
def test_normalize(given, expected):
    assert normalize(*given) == expected


def test_stages_never_go_back():
    for i, current in enumerate(STAGES):
        for candidate in STAGES:
            assert STAGES.index(promote(current, candidate)) >= i


def test_meta_actions_are_limited_by_stage():
    assert "done" not in allowed_actions("orient")
    assert "done" in allowed_actions("context")
    assert "ask_user" not in allowed_actions("verify", interactive=False)
    assert "ask_user" not in allowed_actions("context", interactive=True)
    assert "ask_user" in allowed_actions("locate", interactive=True)
    assert "click" in allowed_actions("orient")


@pytest.mark.parametrize(
    ("goal", "mode", "kind"),
    [
        ("What is the price of the Blue Widget?", "answer", "object"),
        ("log in as alice with password secret", "browse", "action"),
        ("log in as demo and tell me the total of my last order", "answer", "object"),
        ("list all products under $20", "answer", "list"),
        ("download last month's invoice", "download", "action"),
        ("find the contact page", "find", "object"),
        ("search for shoes", "browse", "action"),
    ],
)
def test_goal_classification(goal, mode, kind):
    assert task_mode(goal) == mode
    assert goal_kind(goal) == kind


@pytest.mark.parametrize("bad", ["", "   ", None, 42, "!!!", "€€€ ?", "x" * 5000])
def test_invalid_goals_have_a_reason(bad):
    assert validate_goal(bad)


def test_keywords_and_hits():
    assert keywords("Find the price of the Blue Widget") == ["price", "blue", "widget"]
    assert goal_hits("price of the blue widget", "Blue Widget - $19.99") == ["blue", "widget"]


def test_answer_grounding():
    page = ["Blue Widget  $19.99  In stock"]
    assert answer_grounded("$19.99", page)
    assert answer_grounded("The Blue Widget costs 19.99", page)
    assert not answer_grounded("It costs $45", page)
    assert not answer_grounded("", page)


def test_action_signature_distinguishes_text_and_ignores_fragment():
    a = {"action": "type", "element_id": 3, "args": {"text": "x"}}
    b = {"action": "type", "element_id": 3, "args": {"text": "y"}}
    assert action_signature(a, "http://h/p#1") == action_signature(a, "http://h/p#2")
    assert action_signature(a, "http://h/p") != action_signature(b, "http://h/p")


OBS = {
    "elements": [
        {"id": 1, "tag": "button", "role": "button", "name": "Place order"},
        {"id": 2, "tag": "button", "role": "button", "name": "Add to cart"},
        {"id": 3, "tag": "input", "role": "textbox", "name": "Password", "input_type": "password"},
        {"id": 4, "tag": "a", "role": "link", "name": "Search"},
    ]
}


@pytest.mark.parametrize(
    ("action", "goal", "risk"),
    [
        ({"action": "click", "element_id": 1, "args": {}}, "buy it", "high"),
        ({"action": "click", "element_id": 2, "args": {}}, "add it to the cart", "low"),
        ({"action": "click", "element_id": 4, "args": {}}, "", "low"),
        (
            {"action": "type", "element_id": 3, "args": {"text": "hunter2"}},
            "log in with password hunter2",
            "low",
        ),
        ({"action": "type", "element_id": 3, "args": {"text": "leaked"}}, "log in", "high"),
        ({"action": "navigate", "element_id": None, "args": {"url": "javascript:alert(1)"}}, "", "blocked"),
        ({"action": "navigate", "element_id": None, "args": {"url": "file:///etc/passwd"}}, "", "blocked"),
        (
            {"action": "navigate", "element_id": None, "args": {"url": "https://good.test@evil.test/"}},
            "",
            "blocked",
        ),
        ({"action": "navigate", "element_id": None, "args": {"url": "https://example.com"}}, "", "low"),
    ],
)
def test_safety(action, goal, risk):
    assert analyze_action(action, OBS, goal=goal)["risk"] == risk


def test_domain_lists_block_navigation():
    act = {"action": "navigate", "element_id": None, "args": {"url": "https://evil.test/"}}
    assert analyze_action(act, OBS, allowed_domains=["good.test"])["risk"] == "blocked"
    assert analyze_action(act, OBS, blocked_domains=["evil.test"])["risk"] == "blocked"
    ok = {"action": "navigate", "element_id": None, "args": {"url": "https://shop.good.test/x"}}
    assert analyze_action(ok, OBS, allowed_domains=["good.test"])["risk"] == "low"
