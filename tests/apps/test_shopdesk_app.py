"""Shopdesk, a Django admin project installed from the package index: every goal's check is met by the right
clicks through the admin and refused when nothing is done."""

from __future__ import annotations

import pytest

from tests.apps.selftest import idle_problems, solved_problems
from tests.apps.shopdesk.goals import GOALS
from tests.apps.shopdesk.solutions import SOLUTIONS

NAMES = [g.name for g in GOALS]


def test_goal_set_is_complete():
    assert len(GOALS) >= 10 and len(set(NAMES)) == len(NAMES)
    assert set(SOLUTIONS) == set(NAMES)
    assert {g.kind for g in GOALS} == {"action", "answer", "navigation"}


@pytest.mark.parametrize("name", NAMES)
async def test_scripted_solution_passes_the_check(shopdesk, app_page, name):
    goal = shopdesk.goal(name)
    assert await solved_problems(shopdesk, goal, SOLUTIONS[name], app_page) == []


async def test_doing_nothing_fails_every_check(shopdesk, app_page):
    for goal in shopdesk.goals:
        assert await idle_problems(shopdesk, goal, app_page), goal.name
