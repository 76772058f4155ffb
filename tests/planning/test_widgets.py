"""Whole offline runs in real Chromium on widget pages written for these tests, checked on the page's state."""

from __future__ import annotations

import pytest


def satisfied(result):
    assert result["terminal_type"] == "goal_satisfied", result["stop_reason"]


@pytest.mark.parametrize(
    ("goal", "log"),
    [
        ("Click button TWO.", "TWO"),
        ("Click button ONE, then click button TWO.", "ONE TWO"),
        ("press the button Done", "Done"),
    ],
)
async def test_a_role_word_followed_by_a_bare_name_names_the_button(run_widget, session, goal, log):
    result, _ = await run_widget(goal, "named-buttons.html")
    satisfied(result)
    assert (await session.page.inner_text("#log")).strip() == log


@pytest.mark.parametrize("goal", ["click the button below", "click the input field", "click the button one"])
def test_words_that_place_a_control_are_not_taken_as_its_name(goal):
    from agent.planning.offline import parse_goal

    (click,) = parse_goal(goal).intents
    assert click.target in ("button below", "", "button"), click
