"""Questions whose answer is one link away from an index built of cards: every card's link says only
"Read more" and goes to an opaque address (topic-3.html), so only the card's heading and description say where
it leads. The offline planner must pick the card by them and read the answer on the page it opens."""

from __future__ import annotations

import pytest


@pytest.mark.parametrize(
    ("goal", "answer", "page"),
    [
        ("How long are statements kept?", "7 years", "topic-3.html"),
        ("What is the fee for sending money abroad?", "£4", "topic-2.html"),
        ("How many days of notice do savings withdrawals need?", "35", "topic-4.html"),
    ],
)
async def test_a_card_is_chosen_by_its_heading_and_description(run_widget, session, goal, answer, page):
    result, _ = await run_widget(goal, "help/index.html", max_steps=12)
    assert result["terminal_type"] == "goal_satisfied", result["stop_reason"]
    assert answer in result["final_answer"]
    assert session.page.url.endswith("/help/" + page)
    (proof,) = [e for e in result["evidence"] if e["kind"] == "answer"]
    assert proof["source"].split("#")[0].endswith("/help/" + page)
