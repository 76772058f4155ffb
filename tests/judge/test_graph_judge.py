"""The model judge inside real graph runs (offline planner, real Chromium, the scripted model server on
loopback): it can withhold a success the rules granted, a failing judge leaves that success and says so, and a
run the rules do not find satisfied never asks it."""

from __future__ import annotations

import json
from pathlib import Path

from agent.context import Context
from agent.runner import run_goal
from tests.llm.fake_openai import http_error, last_user_text
from tests.support.factories import judge_verdict, scripted_model_settings, trace_records

LAMP_PRICE = "what is the price of the reading lamp?"
REJECT = judge_verdict(
    False, "Not proven (scripted).", part="price of the reading lamp", part_reason="scripted rejection"
)
ACCEPT = judge_verdict(
    True,
    "The price is on the lamp's own card.",
    part="price of the reading lamp",
    part_reason="quoted from its card",
)


def judge_ctx(tmp_path, server, **overrides) -> Context:
    settings = {
        "planner": "rules",
        "model": "fake-judge",
        "judge": "model",
        "max_steps": 8,
        "max_seconds": 60.0,
    }
    settings.update(record_dir=str(tmp_path / "runs"), **overrides)
    return Context(**scripted_model_settings(server.base_url, **settings))


def notes(result) -> list[str]:
    return [record.get("note") or "" for record in trace_records(result["run_dir"])]


async def run_on_store(goal: str, ctx: Context, session, site_url: str) -> dict:
    """One real graph run of ``goal`` from the store page of the fixture site."""
    return await run_goal(goal, ctx, start_url=site_url + "/store.html", session=session)


async def test_model_judge_withholds_a_success_the_rules_granted(session, site_url, tmp_path, fake_openai):
    fake_openai.push(REJECT)
    ctx = judge_ctx(tmp_path, fake_openai)
    result = await run_on_store(LAMP_PRICE, ctx, session, site_url)
    assert (result["terminal_type"], result["terminal_reason"]) == ("goal_failed", "unverified")
    assert result["final_answer"] is None and "34.50" in (result["candidate_answer"] or "")
    assert result["judge"]["status"] == "ok" and result["judge"]["satisfied"] is False
    assert "scripted rejection" in result["stop_reason"]
    assert len(fake_openai.requests) == 1
    asked = last_user_text(fake_openai.requests[0])
    assert "reading lamp" in asked and "34.50" in asked
    assert result["usage"]["by_node"]["judge"]["calls"] == 1
    on_disk = json.loads((Path(result["run_dir"]) / "result.json").read_text())
    assert on_disk["judge"]["parts"][0]["reason"] == "scripted rejection"


async def test_an_accepting_judge_keeps_the_success(session, site_url, tmp_path, fake_openai):
    fake_openai.push(ACCEPT)
    result = await run_on_store(LAMP_PRICE, judge_ctx(tmp_path, fake_openai), session, site_url)
    assert (result["terminal_type"], result["terminal_reason"]) == ("goal_satisfied", "answer_found")
    assert "34.50" in result["final_answer"] and result["evidence"]
    assert any("model judge: satisfied" in n for n in notes(result))


async def test_a_failing_judge_leaves_the_rules_verdict_and_says_so(session, site_url, tmp_path, fake_openai):
    fake_openai.push(http_error(500), http_error(500))
    result = await run_on_store(LAMP_PRICE, judge_ctx(tmp_path, fake_openai), session, site_url)
    assert (result["terminal_type"], result["terminal_reason"]) == ("goal_satisfied", "answer_found")
    assert result["judge"]["status"] == "failed"
    assert any("the rules' verdict stands" in n for n in notes(result))


async def test_the_judge_is_not_asked_when_the_rules_refuse(session, site_url, tmp_path, fake_openai):
    fake_openai.push(ACCEPT)
    result = await run_on_store(
        "what is the price of the floor heater?", judge_ctx(tmp_path, fake_openai), session, site_url
    )
    assert result["terminal_type"] != "goal_satisfied"
    assert fake_openai.requests == []


async def test_rules_judge_never_calls_a_model(session, site_url, tmp_path, fake_openai):
    result = await run_on_store(
        LAMP_PRICE,
        judge_ctx(tmp_path, fake_openai, judge="rules"),
        session,
        site_url,
    )
    assert result["terminal_type"] == "goal_satisfied" and fake_openai.requests == []
    assert result.get("judge") is None
