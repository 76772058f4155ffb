"""Whole runs of the real graph with the offline planner in real Chromium, checked on the page's own state.

Goals are worded the many ways people write them; every terminal type is reached.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from agent.stages import STAGES

TERMINALS = {"goal_satisfied", "goal_failed", "loop_stuck", "budget_exhausted"}


def assert_clean_run(result, records):
    """Invariants of every run: a valid terminal, monotonic stages, contiguous trace, a result on disk."""
    assert result["terminal_type"] in TERMINALS
    assert result["terminal_reason"]
    stages = [STAGES.index(r["stage"]) for r in records if r.get("stage") in STAGES]
    assert stages == sorted(stages), "the stage went backwards"
    seqs = [r["seq"] for r in records]
    assert seqs == list(range(1, len(seqs) + 1)), "trace records lost or duplicated"
    assert records[-1]["node"] == "finalize"
    on_disk = json.loads((Path(result["run_dir"]) / "result.json").read_text())
    assert on_disk["terminal_type"] == result["terminal_type"]


LOGIN_GOALS = [
    "log in as alice with password secret",
    "Sign in using the username alice and the password secret",
    "type alice into the username field, then enter secret in the password box and click Sign in",
    "Please enter 'alice' as the username and 'secret' as the password, then press the Sign in button.",
]


@pytest.mark.parametrize("goal", LOGIN_GOALS)
async def test_login_goals(run, session, goal):
    result, records = await run(goal, "/login.html")
    assert_clean_run(result, records)
    assert (result["terminal_type"], result["terminal_reason"]) == ("goal_satisfied", "action_verified")
    assert await session.page.inner_text("#status") == "Welcome, alice"
    assert result["stage"] == "done"


async def test_wrong_password_is_not_reported_as_success(run, session):
    result, records = await run("log in as alice with password hunter2", "/login.html")
    assert_clean_run(result, records)
    assert await session.page.inner_text("#status") == "Invalid username or password"
    assert result["terminal_type"] == "goal_failed"


@pytest.mark.parametrize(
    ("path", "goal", "check"),
    [
        (
            "/shadow.html",
            "enter 12345 as the postcode and click Check delivery",
            ("#result", "Delivery available to 12345"),
        ),
        ("/dialogs.html", "click Show alert", ("#result", "Alert closed")),
        ("/replace.html", "click Reload list, then click Cygnus", None),
        ("/buttons.html", "type SAVE10 into the coupon code field", None),
    ],
)
async def test_action_goals(run, session, path, goal, check):
    result, records = await run(goal, path)
    assert_clean_run(result, records)
    assert result["terminal_type"] == "goal_satisfied", result["stop_reason"]
    if check:
        selector, expected = check
        assert (await session.page.inner_text(selector)).strip() == expected


async def test_select_goal_sets_the_dropdown(run, session):
    result, records = await run("select Canada from the Country dropdown", "/select.html")
    assert_clean_run(result, records)
    assert result["terminal_type"] == "goal_satisfied"
    value = await session.page.eval_on_selector("select", "s => s.options[s.selectedIndex].text")
    assert value == "Canada"


async def test_iframe_newsletter_signup(run, session):
    result, records = await run("sign up for the newsletter with ada@example.com", "/iframe.html")
    assert_clean_run(result, records)
    assert result["terminal_type"] == "goal_satisfied"
    frame = next(f for f in session.page.frames if f is not session.page.main_frame)
    assert "ada@example.com" in await frame.inner_text("body")


async def test_coupon_is_really_typed(run, session):
    result, _ = await run("fill the coupon code with SAVE10", "/buttons.html")
    assert result["terminal_type"] == "goal_satisfied"
    assert "SAVE10" in await session.page.evaluate(
        "() => [...document.querySelectorAll('input')].map(i => i.value).join(' ')"
    )


@pytest.mark.parametrize(
    ("path", "goal", "answer"),
    [
        ("/store.html", "what is the price of the reading lamp?", "$34.50"),
        ("/store.html", "How much does the Desk lamp cost?", "$24.99"),
        ("/store.html", "search the store for lamp and tell me how many products there are", "3"),
        ("/infinite.html", "what is the title of post 57?", "Post 57"),
    ],
)
async def test_questions_are_answered_from_the_page(run, path, goal, answer):
    result, records = await run(goal, path)
    assert_clean_run(result, records)
    assert (result["terminal_type"], result["terminal_reason"]) == ("goal_satisfied", "answer_found")
    assert answer in result["final_answer"]


async def test_long_listing_is_scanned_by_scrolling(run, session):
    result, records = await run("what is the title of post 57?", "/infinite.html")
    assert result["terminal_reason"] == "answer_found"
    scrolls = [
        r for r in records if r["node"] == "execute" and (r.get("action") or {}).get("action") == "scroll"
    ]
    assert scrolls, "post 57 is not loaded until the feed is scrolled"
    assert await session.page.locator("text=Post 57").count() >= 1


async def test_new_tab_is_followed(run, session):
    result, records = await run(
        "open product details in a new tab and tell me the product name", "/tabs.html"
    )
    assert_clean_run(result, records)
    assert len(session.tabs()) == 2 and session.active_tab_id == session.tabs()[-1]["id"]
    # The new tab's heading "Product details" repeats the goal's words and names no product: never the answer.
    # The offline planner does not yet pick the name out of the sentence, so an honest ending is "not verified".
    if result["terminal_type"] == "goal_satisfied":
        assert "Trail Runner" in result["final_answer"], result
    else:
        assert result["terminal_reason"] in ("unverified", "answer_not_found"), result
        assert result["final_answer"] is None


async def test_search_uses_the_search_engine_without_a_search_box(run, session, site_url):
    result, records = await run("search for kettles", "/article.html")
    assert_clean_run(result, records)
    assert result["terminal_type"] == "goal_satisfied"
    assert session.page.url.startswith(site_url + "/search.html?q=kettles")


# --- every terminal type -------------------------------------------------------------------------------------


async def test_goal_not_understood_is_insufficient_knowledge(run):
    result, records = await run("xyzzy frobnicate the quux", "/index.html")
    assert_clean_run(result, records)
    assert (result["terminal_type"], result["terminal_reason"]) == ("goal_failed", "insufficient_knowledge")
    # failure text goes to stop_reason; final_answer holds only a verified answer
    assert "could not understand" in result["stop_reason"]
    assert result["final_answer"] is None


async def test_risky_action_without_a_person_is_denied_and_never_runs(run, session):
    result, records = await run("click Delete all items", "/dialogs.html")
    assert_clean_run(result, records)
    assert (result["terminal_type"], result["terminal_reason"]) == ("goal_failed", "user_declined")
    assert (await session.page.inner_text("#result")).strip() == ""
    assert not [r for r in records if r["node"] == "execute"]


async def test_risky_action_with_auto_confirm_runs_and_the_page_dialog_is_dismissed(run, session):
    result, records = await run("click Delete all items", "/dialogs.html", confirm_policy="auto")
    assert_clean_run(result, records)
    assert result["terminal_type"] == "goal_satisfied"
    # the agent approved its own click, but the page's confirm("Delete all items?") is never auto-accepted
    assert (await session.page.inner_text("#result")).strip() == "Confirm returned: false"


async def test_empty_goal_is_invalid(run):
    result, records = await run("   ", "/index.html")
    assert_clean_run(result, records)
    assert (result["terminal_type"], result["terminal_reason"]) == ("goal_failed", "invalid_goal")


@pytest.mark.parametrize("start", ["javascript:alert(1)", "http://127.0.0.1:9/unreachable"])
async def test_bad_start_url_is_navigation_blocked(run, start, make_ctx, session):
    from agent.runner import run_goal

    result = await run_goal("click Sign in", make_ctx(), start_url=start, session=session)
    assert (result["terminal_type"], result["terminal_reason"]) == ("goal_failed", "navigation_blocked")
    assert result["stop_reason"]


async def test_step_budget_is_exhausted(run):
    result, records = await run("log in as alice with password secret", "/login.html", max_steps=1)
    assert_clean_run(result, records)
    assert (result["terminal_type"], result["terminal_reason"]) == ("budget_exhausted", "max_steps")
    assert result["steps"] == 1


async def test_time_budget_is_exhausted(run):
    result, records = await run("what is the title of post 99?", "/infinite.html", max_seconds=0.5)
    assert_clean_run(result, records)
    assert (result["terminal_type"], result["terminal_reason"]) == ("budget_exhausted", "max_seconds")


async def test_loop_is_detected_and_ends_loop_stuck(run, monkeypatch):
    """A planner that keeps clicking a button that changes nothing: mitigation, then loop_stuck."""
    from agent import runtime
    from tests.graph.scripted import StubbornBackend

    monkeypatch.setattr(runtime, "backend_for", lambda ctx: StubbornBackend("Terms and conditions"))
    result, records = await run("accept the terms", "/buttons.html", max_auto_scrolls=1, repeat_limit=2)
    assert_clean_run(result, records)
    assert result["terminal_type"] == "loop_stuck"
    notes = [r["note"] for r in records if r["node"] == "loop_mitigation" and r["note"]]
    assert notes, "loop mitigation ran before giving up"


async def test_article_title_is_its_main_heading(run):
    result, records = await run("what is the title of the article?", "/article.html?title=About+Wayfinder")
    assert_clean_run(result, records)
    assert result["terminal_reason"] == "answer_found"
    assert result["final_answer"] == "About Wayfinder"
