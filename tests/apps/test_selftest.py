"""Both applications' goal sets: the right clicks through the application's own pages pass every goal's
database check, and doing nothing fails every one (so a check cannot pass by itself)."""

from __future__ import annotations

import pytest

from tests.apps.selftest import idle_problems, solved_problems
from tests.apps.shopdesk.goals import GOALS as SHOPDESK_GOALS
from tests.apps.shopdesk.solutions import SOLUTIONS as SHOPDESK_SOLUTIONS
from tests.apps.tracker.goals import GOALS as TRACKER_GOALS
from tests.apps.tracker.solutions import SOLUTIONS as TRACKER_SOLUTIONS

#: The first test of Shopdesk installs Django into the cache (about a minute on a busy machine; seconds later).
pytestmark = pytest.mark.timeout(300)

SETS = {
    "tracker": (TRACKER_GOALS, TRACKER_SOLUTIONS, 25),
    "shopdesk": (SHOPDESK_GOALS, SHOPDESK_SOLUTIONS, 10),
}
CASES = [(app, goal.name) for app, (goals, _, _) in SETS.items() for goal in goals]


@pytest.mark.parametrize("app", SETS)
def test_goal_set_is_varied_and_complete(app):
    goals, solutions, at_least = SETS[app]
    names = [g.name for g in goals]
    assert len(goals) >= at_least and len(set(names)) == len(names)
    assert set(solutions) == set(names)
    assert {g.kind for g in goals} == {"action", "answer", "navigation"}


def test_wording_varies():
    openings = {g.goal.split()[0].lower() for g in TRACKER_GOALS}
    assert len(openings) >= 12, "the goals should not all start alike"


@pytest.mark.parametrize(("app", "name"), CASES)
async def test_scripted_solution_passes_the_check(request, app_page, app, name):
    running = request.getfixturevalue(app)
    solution = SETS[app][1][name]
    assert await solved_problems(running, running.goal(name), solution, app_page) == []


@pytest.mark.parametrize("app", SETS)
async def test_doing_nothing_fails_every_check(request, app_page, app):
    found = await idle_problems(request.getfixturevalue(app), app_page)
    assert len(found) == len(SETS[app][0])
    assert [name for name, problems in found.items() if not problems] == []
