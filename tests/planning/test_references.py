"""Regressions found by the MiniWoB++ benchmark: references are not typed literally, and 'login' names a
button rather than the username field."""

from __future__ import annotations

import pytest

from agent.planning.offline import parse_goal
from agent.planning.offline.grammar import parse_goal as grammar_parse


@pytest.mark.parametrize(
    "goal",
    [
        "type that into the textbox",
        "Enter the value of Last name into the text field",
        "Type the text below into the field",
        "enter it",
    ],
)
def test_references_are_not_understood_rather_than_typed_literally(goal):
    parsed = parse_goal(goal)
    assert not parsed.intents and parsed.unknown


def test_quoted_text_is_still_typed_literally():
    parsed = grammar_parse('type "it" into the search box')
    assert parsed.intents[0].text == "it"


def test_login_is_not_a_synonym_of_username():
    from agent.planning.offline.text import similarity, synonym_weight

    assert synonym_weight("login", "username") == 0
    assert synonym_weight("login", "signin") > 0
    assert similarity("login", "Username") < similarity("login", "Log in")
