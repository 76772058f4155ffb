"""Goals over the documentation-like fixture site, run for real (Chromium, the LangGraph graph, the offline
planner), each checked on its answer and on its evidence: the page and the section the answer was read from."""

from __future__ import annotations

from urllib.parse import urlsplit

import pytest

from agent import terminals
from tests.docsite.goals import DOC_GOALS, DocGoal

pytestmark = pytest.mark.asyncio(loop_scope="session")


def _found(evidence: list[dict]) -> list[dict]:
    return [e for e in evidence if e.get("found")]


@pytest.mark.parametrize("case", DOC_GOALS, ids=[g.goal[:48] for g in DOC_GOALS])
async def test_goal_is_answered_from_the_right_place(run_docs, case: DocGoal):
    result, evidence = await run_docs(case.goal)
    assert result["terminal_type"] == terminals.GOAL_SATISFIED, (
        result["terminal_reason"],
        result["final_answer"],
    )
    assert urlsplit(result["url"]).path == case.page
    answer = result["final_answer"] or ""
    if case.answer:
        assert any(a in answer for a in case.answer), answer
    if case.section is not None:
        found = _found(evidence)
        assert found, evidence
        assert found[0]["section"] == case.section
        assert urlsplit(found[0]["source"]).path == case.page


async def test_a_goal_in_another_language_says_the_offline_planner_does_not_understand(run_docs):
    result, _ = await run_docs("Wie viele Worker-Prozesse startet Tidewater standardmäßig?")
    assert result["terminal_type"] == terminals.GOAL_FAILED
    assert result["terminal_reason"] == terminals.INSUFFICIENT_KNOWLEDGE
    # failure text goes to stop_reason; final_answer holds only a verified answer
    assert result["final_answer"] is None
    assert "does not understand this wording" in result["stop_reason"]
    assert "configure a model" in result["stop_reason"]


async def test_a_question_the_site_cannot_answer_is_not_claimed(run_docs):
    result, evidence = await run_docs("What is the default value of queue_shard_count?", max_steps=40)
    assert result["terminal_type"] != terminals.GOAL_SATISFIED, result["final_answer"]
    assert not _found(evidence)
