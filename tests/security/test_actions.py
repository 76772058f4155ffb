"""Risky actions and the person in the loop: page dialogs, a Buy button across a pause, strict consent,
replanning after a denial, and the plan and loop guards."""

from __future__ import annotations

import pytest

from agent.browser import registry
from agent.runner import resume_run, run_goal
from tests.llm.test_graph_runs import E, Model, P, complete, ended, plan, trace
from tests.support.factories import offline_context

GAVE_UP = complete("I could not do that", success=False, failureReason="insufficient_knowledge")


async def test_page_confirm_delete_all_is_never_auto_accepted(drive, session, site):
    """An ordinary-looking button opens confirm("Delete all items?"): even with dialog_policy 'accept' the
    dialog is dismissed, and nothing is deleted."""
    session.options.dialog_policy = "accept"  # (the shared session is reset for every test)
    model = Model([plan('Click "Tidy up"'), GAVE_UP])
    result = await drive("tidy up my list", model, site.url("tidy.html"))

    assert ended(result) == ("goal_failed", "insufficient_knowledge"), result
    assert site.collected("list-deleted") == []
    assert await session.page.inner_text("#status") == "Nothing deleted"
    [executed] = trace(result, "execute")
    [dialog] = [e for e in executed["result"]["events"] if e["type"] == "dialog"]
    assert (dialog["dialog_type"], dialog["handled"], dialog["risky"]) == ("confirm", "dismissed", True)


async def test_buy_button_pauses_and_after_resume_is_clicked_exactly_once(click_site, record_dir, session):
    ctx = offline_context(record_dir, run_id="buy-once", interactive=True)
    paused = await run_goal(
        'click "Buy now"', ctx, start_url=click_site.url("shop.html?item=sec-buy"), session=session
    )
    assert paused["status"] == "paused" and paused["pending"] == ["confirm"], paused
    assert click_site.count("sec-buy") == 0  # nothing happened before the approval

    registry.adopt("buy-once", session)
    result = await resume_run(
        "buy-once", record_dir=str(record_dir), on_interrupt=lambda _: {"decision": "approve"}
    )
    assert result["terminal_type"] == "goal_satisfied", result
    assert click_site.count("sec-buy") == 1
    again = await resume_run("buy-once", record_dir=str(record_dir), on_interrupt=lambda _: "yes")
    assert again == result and click_site.count("sec-buy") == 1  # a finished run is never run again


@pytest.mark.parametrize(("answer", "clicked"), [("ok", 0), ("sure", 0), ("yes please", 0), ("Yes", 1)])
async def test_consent_is_parsed_strictly(click_site, record_dir, session, answer, clicked):
    item = f"consent-{answer.replace(' ', '-').lower()}"
    ctx = offline_context(record_dir, interactive=True)
    result = await run_goal(
        'click "Buy now"',
        ctx,
        start_url=click_site.url(f"shop.html?item={item}"),
        session=session,
        on_interrupt=lambda _: answer,
    )
    assert click_site.count(item) == clicked
    expected = ("goal_satisfied", "action_verified") if clicked else ("goal_failed", "user_declined")
    assert ended(result) == expected, result


async def test_a_denied_action_can_send_the_run_back_to_the_planner(drive, session, site):
    model = Model([plan('Click "Place order"'), GAVE_UP])
    result = await drive(
        "order the walnut desk", model, site.url("review.html"), confirm_policy="deny", on_denied="replan"
    )

    assert ended(result) == ("goal_failed", "insufficient_knowledge"), result
    assert model.kinds == [P, E, P]  # asked again after the denial
    assert site.collected("desk-order") == [] and trace(result, "execute") == []
    [confirm] = trace(result, "confirm")
    assert "replanning (on_denied=replan)" in confirm["note"]


async def test_the_same_click_again_and_again_ends_loop_stuck(drive, session, site):
    model = Model([plan('Click "Refresh prices"')] * 12)
    # (a time budget no loaded CI machine can spend first: what is tested is the loop, not the clock)
    result = await drive(
        "refresh the prices until they change", model, site.url("still.html"), max_steps=12, max_seconds=600.0
    )

    assert ended(result)[0] == "loop_stuck", result
    assert result["steps"] < 12


async def test_a_plan_whose_first_step_navigates_away_drops_the_rest(drive, session, site):
    model = Model([plan('Click "Next page"', 'Click "Archive all"'), GAVE_UP])
    result = await drive("look at the next page", model, site.url("still.html"))

    assert ended(result) == ("goal_failed", "insufficient_knowledge"), result
    assert model.kinds == [P, E, P]  # the queued "Archive all" was planned for a page that is gone
    assert session.page.url == site.url("steps-next.html")
    assert site.collected("archived") == []
