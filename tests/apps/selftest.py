"""The self-test both applications share: the right clicks pass a goal's check, doing nothing fails it."""

from __future__ import annotations

from typing import Any

from tests.apps.harness import AppGoal, Application, Solution


async def solved_problems(app: Application, goal: AppGoal, solution: Solution, page: Any) -> list[str]:
    """Run the scripted solution on a fresh database; what the check still finds wrong (none expected)."""
    before = app.reset()
    await page.goto(app.base_url + goal.start)
    found = await solution(page, app.base_url)
    return app.judge(goal, before, found if isinstance(found, str) else None, page.url)


async def idle_problems(app: Application, page: Any) -> dict[str, list[str]]:
    """Open each goal's start page and do nothing else: what the check finds wrong, per goal (something is
    expected for every one). Goals that start on the same page share one visit to it."""
    found: dict[str, list[str]] = {}
    for start in dict.fromkeys(g.start for g in app.goals):
        before = app.reset()
        await page.goto(app.base_url + start)
        for goal in (g for g in app.goals if g.start == start):
            found[goal.name] = app.judge(goal, before, None, page.url)
    return found


async def fill_fields(page: Any, id_of: str, fields: dict[str, str]) -> None:
    """Set each field (found by the id ``id_of % name``): a select by its option's text, else by typing."""
    for name, value in fields.items():
        control = page.locator("#" + id_of % name)
        if await control.evaluate("e => e.tagName") == "SELECT":
            await control.select_option(label=value)
        else:
            await control.fill(value)
