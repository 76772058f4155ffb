"""A model's ``taskComplete`` is a claim, judged like any other: real graph runs in real Chromium, with the
planner and executor answered over real HTTP by the scripted server (tests/llm/fake_openai.py)."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from agent.runner import run_goal
from tests.llm.test_graph_runs import Model, action, complete, ground, model_context, plan, plan_step

PRICE = "what is the price of the Blue Widget?"
LOGIN_STEPS = ('Type "ada" into "Username"', 'Type "pw1" into "Password"', 'Click "Sign in"')


@pytest.fixture
def drive(fake_openai, session, tmp_path, trap_url):
    async def go(goal: str, model: Model, path: str) -> dict:
        fake_openai.responder = model
        ctx = model_context(fake_openai, tmp_path, trap_url)
        return await run_goal(goal, ctx, start_url=trap_url + path, session=session)

    return go


def saved(result):
    return json.loads((Path(result["run_dir"]) / "result.json").read_text())


@pytest.mark.parametrize(
    ("claim", "reason"),
    [
        ("1.0 (success) | 2 seconds.", "answer_not_grounded"),  # invented: nothing like it on the page
        ("$9.99", "unverified"),  # on the page, but another product's price in the sidebar
    ],
)
async def test_an_unfounded_answer_claim_is_not_success(drive, claim, reason):
    result = await drive(PRICE, Model([complete(claim)]), "/product.html")
    assert (result["terminal_type"], result["terminal_reason"]) == ("goal_failed", reason)
    assert result["final_answer"] is None
    assert saved(result)["candidate_answer"] == claim


async def test_a_grounded_answer_claim_is_accepted_with_its_quote(drive):
    result = await drive(PRICE, Model([complete("The Blue Widget costs $12.50.")]), "/product.html")
    assert (result["terminal_type"], result["terminal_reason"]) == ("goal_satisfied", "answer_found")
    [proof] = saved(result)["evidence"]
    assert proof["quote"] == "$12.50" and proof["kind"] == "answer"


async def test_completion_claimed_before_acting_is_not_success(drive, session):
    result = await drive("log in as ada with password pw1", Model([complete("Logged in.")]), "/login.html")
    assert (result["terminal_type"], result["terminal_reason"]) == ("goal_failed", "stage_not_advanced")
    assert await session.page.is_visible("#login")


GOAL = "log in as ada with password pw1 and create a page"


async def test_login_and_create_after_only_the_login_is_not_success(drive, session):
    model = Model([plan(*LOGIN_STEPS), complete("Logged in and created the page.")])
    result = await drive(GOAL, model, "/login.html")
    assert (result["terminal_type"], result["terminal_reason"]) == ("goal_failed", "unverified")
    on_disk = saved(result)
    assert [p["kind"] for p in on_disk["goal_parts"]] == ["field", "field", "login", "task"]
    assert [e["part"] for e in on_disk["evidence"]] == ["p1", "p2", "p3"]  # the login is proven ...
    assert "'create a page'" in on_disk["missing"][0]  # ... the page creation is not
    assert await session.page.inner_text("#made") == ""


def executor(prompt: str):
    """``ground``, also for elements marked new ("*[7] button ...") since the last observation."""
    target = re.findall(r'"([^"]*)"', plan_step(prompt))[-1]
    for number, name in re.findall(r'^\*\[(\d+)\] \S+ "([^"]*)"', prompt, re.M):
        if name == target:
            return action("click", int(number))
    return ground(prompt)


async def test_login_and_create_when_both_happened_is_success(drive, session):
    model = Model([plan(*LOGIN_STEPS), plan('Click "Create page"'), complete("Created the page.")], executor)
    result = await drive(GOAL, model, "/login.html")
    assert (result["terminal_type"], result["terminal_reason"]) == ("goal_satisfied", "action_verified")
    evidence = saved(result)["evidence"]
    assert evidence[2]["quote"].startswith("signed-in name shown")
    assert 'Page "Untitled" created' in evidence[3]["quote"]
    assert await session.page.inner_text("#made") == 'Page "Untitled" created'
