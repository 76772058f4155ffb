"""The offline planner's page moves offered to a model: scan, expand, find_in_page, load_more, follow_link.

Real runs of the graph on the documentation fixture site, with the planner and executor answered over real
HTTP by the scripted loopback server. The scripted planner proposes a move by name with its subject; the
scripted executor chooses the matching ability action; the backend grounds it with the offline planner's code.
Each run must reach the answer on the page, and the page itself must show the move happened.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pytest

from agent.llm.validation import executor_errors, normalize_executor
from agent.planning.llm import OpenAIBackend
from agent.runner import run_goal
from agent.types import ABILITY_ACTIONS, BROWSER_ACTIONS
from agent.util.static_server import StaticServer
from tests.docsite.conftest import DOCSITE_ROOT, DOCSITE_SHELL
from tests.llm.fake_openai import FakeOpenAIServer, is_planner_request, last_user_text
from tests.llm.helpers import make_observation
from tests.llm.test_graph_runs import action, complete, ended, model_context, plan, plan_step, trace
from tests.site_routes import shell_routes


@pytest.fixture(scope="module")
def docsite_url() -> Iterator[str]:
    with StaticServer(DOCSITE_ROOT, routes=shell_routes(DOCSITE_ROOT, DOCSITE_SHELL)) as server:
        yield server.base_url


_MOVE = re.compile(r"^`?(" + "|".join(ABILITY_ACTIONS) + r')`?(?:\s+"([^"]*)")?\s*$')


def choose_move(prompt: str) -> dict[str, Any]:
    """An executor that picks the ability the step names (``follow_link "deployment"``), with its subject."""
    found = _MOVE.match(plan_step(prompt))
    assert found, f"not a page move: {plan_step(prompt)!r}"
    name, subject = found.group(1), found.group(2)
    return action(name, **({"subject": subject} if subject else {}))


class Planner:
    """Planner replies decided on the prompt: ``moves`` (in order) until ``answer`` shows in the browser state
    (or, with ``every_move``, until all were made), then the task is complete with that answer."""

    def __init__(self, moves: list[str], answer: str, *, every_move: bool = False) -> None:
        self.moves = list(moves)
        self.answer = answer
        self.every_move = every_move
        self.asked = 0

    def __call__(self, body: dict[str, Any]) -> Any:
        prompt = last_user_text(body)
        if not is_planner_request(body):
            return choose_move(prompt)
        self.asked += 1
        state = prompt.split("BROWSER STATE", 1)[-1]
        if not self.moves or (self.answer in state and not self.every_move):
            return complete(self.answer)
        return plan(self.moves.pop(0))


@pytest.fixture
def move_run(fake_openai, session, tmp_path, docsite_url):
    """``await move_run(path, goal, planner)``: one model run from a page of the docs site, in the shared browser."""

    async def go(path: str, goal: str, planner: Planner) -> dict[str, Any]:
        fake_openai.responder = planner
        ctx = model_context(fake_openai, tmp_path, docsite_url, max_steps=10)
        return await run_goal(goal, ctx, start_url=docsite_url + path, session=session)

    return go


async def test_follow_link_opens_the_page_an_index_entry_leads_to(move_run, session):
    planner = Planner(['follow_link "deployment guide"'], "tidewater/worker:2.4")
    result = await move_run("/index.html", "What is the worker's Docker image?", planner)
    assert session.page.url.endswith("/guide/deploy.html")
    assert ended(result)[0] == "goal_satisfied", result
    assert "tidewater/worker:2.4" in result["final_answer"]


async def test_expand_opens_the_collapsed_answer(move_run, session):
    planner = Planner(['expand "license"'], "Apache License 2.0")
    result = await move_run("/faq.html", "Which license is Tidewater under?", planner)
    opened = await session.page.evaluate(
        "() => [...document.querySelectorAll('details')].filter(d => d.open).map(d => d.querySelector('summary').textContent)"
    )
    assert opened == ["Which license is Tidewater released under?"]
    assert ended(result)[0] == "goal_satisfied", result
    assert "Apache License 2.0" in result["final_answer"]


async def test_load_more_presses_the_lists_button_until_the_item_shows(move_run, session):
    planner = Planner(["load_more"] * 6, "Kwame Mensah")
    result = await move_run("/plugins.html", "Who maintains tidewater-s3?", planner)
    assert "Kwame Mensah" in await session.page.inner_text("main")
    assert ended(result)[0] == "goal_satisfied", result
    assert "Kwame Mensah" in result["final_answer"]
    assert planner.asked >= 2  # the item was not on the first page of the list


async def test_find_in_page_and_scan_bring_the_section_into_view(move_run, session):
    for move, subject, answer in (
        ("find_in_page", "scheduler_timezone", "UTC"),
        ("scan", "job timeout", "300"),
    ):
        planner = Planner([f'{move} "{subject}"'], answer, every_move=True)
        result = await move_run("/reference.html", f"What is the default {subject}?", planner)
        anchor = subject.replace(" ", "_")
        top = await session.page.evaluate(
            f"() => document.getElementById('{anchor}').getBoundingClientRect().top"
        )
        height = await session.page.evaluate("() => window.innerHeight")
        assert await session.page.evaluate("() => window.scrollY") > 0, (move, result)
        assert 0 <= top < height, (move, top, height)
        assert [r["action"]["action"] for r in trace(result, "execute")] == ["scroll"], result
        assert ended(result)[0] == "goal_satisfied", result


# ---------------------------------------------------------------------------------------------------------
# Validation and failures, on the backend alone
# ---------------------------------------------------------------------------------------------------------


def test_abilities_are_validated_like_every_action():
    obs = make_observation()
    allowed = [*BROWSER_ACTIONS, *ABILITY_ACTIONS]
    good = normalize_executor(action("follow_link", 3, subject="sign in"))
    assert good["element_id"] is None  # the backend picks the element, never the model
    assert executor_errors(good, observation=obs, allowed_actions=allowed) == []
    missing = normalize_executor(action("follow_link"))
    assert executor_errors(missing, observation=obs, allowed_actions=allowed) == [
        "action 'follow_link' needs args.subject"
    ]
    unknown = normalize_executor(action("teleport", subject="x"))
    assert any("teleport" in e for e in executor_errors(unknown, observation=obs, allowed_actions=allowed))


async def test_a_move_with_nothing_to_act_on_is_a_grounding_failure(
    fake_openai: FakeOpenAIServer, make_context
):
    fake_openai.push(action("load_more"))
    backend = OpenAIBackend(make_context())
    obs = make_observation(
        scroll={"y": 0, "height": 900, "viewport_height": 900, "above_px": 0, "below_px": 0}
    )
    request = {
        "goal": "list every plugin",
        "plan_step": "load_more",
        "observation": obs,
        "allowed_actions": list(BROWSER_ACTIONS),
        "stage": "context",
        "history": [],
    }
    result = await backend.translate(request)
    assert result["status"] == "failure" and result["action"] is None
    assert result["error_type"] == "element_not_found"
    assert "Load more" in result["message"]
    assert result["usage"]["calls"] == 1  # the model's call is still counted


async def test_follow_link_grounds_to_the_best_scored_link(fake_openai: FakeOpenAIServer, make_context):
    fake_openai.push(action("follow_link", subject="account login"))
    backend = OpenAIBackend(make_context())
    obs = make_observation()
    for el in obs["elements"]:
        if el["id"] == 3:
            el["attrs"] = {"href": "http://shop.test/login"}
    request = {
        "goal": "log in",
        "plan_step": 'follow_link "account login"',
        "observation": obs,
        "allowed_actions": list(BROWSER_ACTIONS),
        "stage": "context",
        "history": [],
    }
    result = await backend.translate(request)
    assert result["status"] == "success", result
    assert result["action"]["action"] == "navigate"
    assert result["action"]["args"]["url"] == "http://shop.test/login"
    assert "Sign in" in result["action"]["reasoning"]
