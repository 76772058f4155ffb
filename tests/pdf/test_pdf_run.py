"""Whole offline runs on a PDF: the answer comes from the document with its page number as evidence."""

from __future__ import annotations

from agent.runner import run_goal
from tests.support.factories import offline_context, trace_records


async def _run(tmp_path, session, goal, start, **overrides):
    ctx = offline_context(tmp_path / "runs", **{"max_steps": 8, **overrides})
    result = await run_goal(goal, ctx, start_url=start, session=session)
    return result, trace_records(result["run_dir"])


async def test_a_pdf_question_is_answered_with_its_page(tmp_path, session, pdf_url):
    result, records = await _run(
        tmp_path, session, "What is the annual membership fee?", pdf_url + "/handbook.pdf"
    )
    assert (result["terminal_type"], result["terminal_reason"]) == ("goal_satisfied", "answer_found")
    assert result["final_answer"] == "The annual membership fee is 42 euros, paid each January. (page 2)"
    [proof] = result["evidence"]
    assert proof["element"] == "PDF page 2" and proof["section"] == "page 2"
    assert "42 euros" in proof["quote"]
    acted = [r["action"]["action"] for r in records if r.get("node") == "execute"]
    assert acted == ["pdf_extract"]


async def test_a_question_the_pdf_does_not_answer_ends_not_found(tmp_path, session, pdf_url):
    result, records = await _run(
        tmp_path, session, "What is the swimming pool depth?", pdf_url + "/handbook.pdf"
    )
    assert (result["terminal_type"], result["terminal_reason"]) == ("goal_failed", "answer_not_found")
    modes = [r["action"]["args"]["mode"] for r in records if r.get("node") == "execute"]
    assert modes == ["find", "text"]  # searched, then read, then said so


async def test_the_answer_past_the_page_limit_is_not_claimed(tmp_path, session, pdf_url):
    result, records = await _run(
        tmp_path, session, "What does the lighthouse keeper do?", pdf_url + "/long.pdf"
    )
    assert result["terminal_type"] == "goal_failed"
    messages = [r["result"]["message"] for r in records if r.get("node") == "execute"]
    assert messages and all("only the first 50 of 60 pages" in m for m in messages)
