"""Faults of the model and the page: broken or empty replies, rate limits, a bad key, a page that never loads,
and the budgets that bound a run whatever happens."""

from __future__ import annotations

import time

import pytest

from tests.llm.fake_openai import http_error, text
from tests.llm.test_graph_runs import Model, P, action, complete, ended, plan

PRICE = ("what is the price of the walnut desk?", "review.html")


@pytest.mark.parametrize(
    "reply",
    [
        text('{"action": "click", "element_id": '),  # truncated JSON
        action("teleport", 1),  # an action that does not exist
        text(""),  # nothing at all
    ],
    ids=["truncated", "unknown", "empty"],
)
async def test_a_broken_executor_reply_is_re_asked_then_ends_cleanly(drive, session, site, reply):
    model = Model([plan('Click "Place order"')] * 4, executor=lambda _prompt: reply)
    result = await drive("order the walnut desk", model, site.url("review.html"), confirm_policy="auto")

    assert ended(result) in (("goal_failed", "model_error"), ("goal_failed", "invalid_action")), result
    assert result["steps"] == 0 and site.collected("desk-order") == []


async def test_an_empty_plan_is_re_asked_then_ends_cleanly(drive, session, site):
    model = Model([plan()] * 6)
    result = await drive("order the walnut desk", model, site.url("review.html"), confirm_policy="auto")

    assert ended(result)[0] == "goal_failed", result
    assert result["steps"] == 0 and site.collected("desk-order") == []


@pytest.mark.parametrize("status", [429, 503])
async def test_rate_limits_and_outages_are_retried_after_a_pause(drive, fake_openai, site, status):
    model = Model([http_error(status, "busy", headers={"retry-after-ms": "200"}), complete("$240.00")])
    started = time.monotonic()
    result = await drive(PRICE[0], model, site.url(PRICE[1]))

    assert ended(result) == ("goal_satisfied", "answer_found"), result
    assert model.kinds == [P, P] and fake_openai.requests[0] == fake_openai.requests[1]
    assert time.monotonic() - started >= 0.2


async def test_a_bad_key_is_not_retried(drive, fake_openai, site):
    model = Model([http_error(401, "Incorrect API key provided")] * 4)
    result = await drive(PRICE[0], model, site.url(PRICE[1]), model_max_retries=3)

    assert ended(result) == ("goal_failed", "model_error"), result
    assert len(fake_openai.requests) == 1


async def test_a_page_that_never_loads_ends_the_run_cleanly(drive, fake_openai, site):
    started = time.monotonic()
    result = await drive("what is on this page?", Model([]), site.url("never"), navigation_timeout_s=2.0)

    assert time.monotonic() - started < 20
    assert ended(result)[0] == "goal_failed", result
    assert result["final_answer"] is None
    assert fake_openai.requests == []  # nothing to show a model: it is not asked


async def test_the_model_call_budget_is_hard(drive, fake_openai, site):
    model = Model([plan('Click "Refresh prices"')] * 10)
    result = await drive("refresh the prices", model, site.url("still.html"), max_model_calls=3)

    assert ended(result) == ("budget_exhausted", "max_model_calls"), result
    assert len(fake_openai.requests) == 3  # checked before every planner and executor request
    assert result["stop_reason"] == "model call budget of 3 used"


async def test_failures_in_a_row_are_a_hard_budget(drive, fake_openai, site):
    model = Model([plan('Click "A button that is not there"')] * 10)
    result = await drive(
        "press the missing button", model, site.url("still.html"), max_consecutive_failures=2
    )

    assert ended(result) == ("budget_exhausted", "max_failures"), result
    assert result["stop_reason"].startswith("2 failed steps in a row")
