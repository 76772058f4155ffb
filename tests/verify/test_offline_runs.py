"""Whole runs with the offline planner on trap and control pages: goal_satisfied only with evidence."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

PRICE = "what is the price of the Blue Widget?"


def saved(result):
    return json.loads((Path(result["run_dir"]) / "result.json").read_text())


async def test_an_answer_is_quoted_from_the_block_that_names_its_subject(run):
    result, _ = await run(PRICE, "/product.html")
    assert (result["terminal_type"], result["terminal_reason"]) == ("goal_satisfied", "answer_found")
    assert result["final_answer"] == "$12.50"
    [proof] = saved(result)["evidence"]
    assert proof["kind"] == "answer" and proof["quote"] == "$12.50" and proof["part"] == "p1"
    assert proof["url"].endswith("/product.html") and proof["element"] == "span.amount in div.buy"
    report = (Path(result["run_dir"]) / "report.html").read_text()
    assert "Goal parts and evidence" in report and "&ldquo;$12.50&rdquo; · span.amount in div.buy" in report


async def test_a_sidebar_look_alike_is_not_the_answer(run):
    result, records = await run(PRICE, "/sidebar-only.html")
    assert result["terminal_type"] != "goal_satisfied"
    assert result["final_answer"] is None
    assert "$9.99" not in json.dumps(saved(result)["evidence"])


@pytest.mark.parametrize("code", [404, 500])
async def test_an_error_page_repeating_the_goal_is_not_an_answer(run, code):
    result, _ = await run(PRICE, f"/error?code={code}")
    assert result["terminal_type"] == "goal_failed" and result["final_answer"] is None
    assert result["terminal_reason"] == "unverified"
    on_disk = saved(result)
    assert on_disk["candidate_answer"] == "$12.50"  # what it found, kept apart from a verified answer
    assert any("error page" in m or f"HTTP {code}" in m for m in on_disk["missing"]), on_disk["missing"]


async def test_a_validation_error_after_submit_is_not_success(run, session):
    result, _ = await run("sign up for the newsletter with not-an-email", "/signup.html")
    assert result["terminal_type"] == "goal_failed" and result["final_answer"] is None
    assert "valid email" in result["stop_reason"]
    assert "Nothing was saved" in await session.page.inner_text("#msg")


async def test_a_submitted_form_carries_its_effects_as_evidence(run, session):
    result, _ = await run("sign up for the newsletter with ada@example.com", "/signup.html")
    assert (result["terminal_type"], result["terminal_reason"]) == ("goal_satisfied", "action_verified")
    evidence = saved(result)["evidence"]
    assert [e["part"] for e in evidence] == ["p1", "p2"]
    assert evidence[0]["quote"] == "field holds ada@example.com"
    assert "Thanks! ada@example.com is subscribed." in evidence[1]["quote"]


async def test_fields_options_and_boxes_are_proven_by_the_page_state(run, session):
    goal = "type Ada Lovelace into the Full name field, select Large from the Size dropdown, check I accept the terms"
    result, _ = await run(goal, "/controls.html")
    assert result["terminal_type"] == "goal_satisfied", result["stop_reason"]
    quotes = [e["quote"] for e in saved(result)["evidence"]]
    assert quotes == ["field holds Ada Lovelace", "selected 'large'", "checked=True"]
    assert await session.page.is_checked("#terms")


async def test_a_destination_is_proven_by_the_url(run, trap_url):
    result, _ = await run(f"go to {trap_url}/next.html", "/controls.html")
    assert result["terminal_type"] == "goal_satisfied"
    [proof] = saved(result)["evidence"]
    assert proof["kind"] == "url" and proof["quote"].endswith("/next.html")


async def test_a_click_that_changes_nothing_is_not_verified(run):
    result, _ = await run("click Do nothing", "/controls.html")
    assert (result["terminal_type"], result["terminal_reason"]) == ("goal_failed", "unverified")
    assert "nothing changed" in " ".join(saved(result)["missing"])
    report = (Path(result["run_dir"]) / "report.html").read_text()
    assert '<li class="unproven">' in report and "nothing changed" in report
    assert result["final_answer"] is None


async def test_a_click_whose_link_leads_to_an_error_page_is_not_done(run):
    """The link was there and was clicked, and the page changed: to a 404 page. That is no open pricing page."""
    result, records = await run("Click Pricing", "/controls.html")
    assert result["terminal_type"] != "goal_satisfied"
    clicks = [
        r for r in records if r.get("node") == "execute" and (r.get("action") or {}).get("action") == "click"
    ]
    assert clicks, "the link was clicked"
    assert any("HTTP 404" in m for m in saved(result)["missing"]), saved(result)["missing"]
    done, _ = await run("Click Next page", "/controls.html")
    assert done["terminal_type"] == "goal_satisfied"
