"""The model path with tools: a scripted model (real HTTP, the real graph, real Chromium) reads a PDF with
pdf_extract, asks for a model analysis of it, and calls an MCP tool, once with arguments its schema refuses."""

from __future__ import annotations

import sys
from pathlib import Path

from agent.context import Context
from agent.nodes.tool_calls import NO_MODEL_FOR_ANALYSIS, tool_step
from agent.runner import run_goal
from tests.llm.fake_openai import text
from tests.llm.test_graph_runs import Model, action, complete, ended, model_context, plan, prompts, trace

LIBRARY = {
    "library": {
        "command": sys.executable,
        "args": [str(Path(__file__).parents[1] / "mcp" / "library_server.py")],
    }
}


def executor(*replies):
    """Executor replies in order; a request without a plan step (the PDF analysis) gets the model's text."""
    queue = list(replies)

    def answer(prompt: str):
        if "PLAN STEP:" not in prompt:
            return text("The fee is 42 euros a year [page 2].")
        return queue.pop(0)

    return answer


async def test_the_model_reads_a_pdf_with_find_and_quotes_it(fake_openai, session, tmp_path, pdf_url):
    answer = "The annual membership fee is 42 euros, paid each January. (page 2)"
    model = Model(
        [plan("Find the membership fee in the PDF"), complete(answer)],
        executor(action("pdf_extract", mode="find", query="membership fee")),
    )
    fake_openai.responder = model
    ctx = model_context(fake_openai, tmp_path, pdf_url)
    result = await run_goal(
        "What is the annual membership fee?", ctx, start_url=pdf_url + "/handbook.pdf", session=session
    )
    assert ended(result) == ("goal_satisfied", "answer_found")
    assert result["evidence"][0]["element"] == "PDF page 2"
    second = prompts(fake_openai, "planner")[1]
    assert "THE TAB SHOWS A PDF" in second and "TOOL RESULTS" in second
    assert "[page 2] The annual membership fee is 42 euros" in second


async def test_pdf_analysis_asks_the_model_and_needs_one(fake_openai, session, tmp_path, pdf_url):
    await session.page.goto(pdf_url + "/handbook.pdf")
    step = {
        "action": "pdf_extract",
        "element_id": None,
        "args": {"mode": "analysis", "task": "What does it cost?"},
    }
    observation = {"url": session.page.url}
    alone = await tool_step({}, Context(), session, step, observation)
    assert alone["status"] == "failure" and alone["message"] == NO_MODEL_FOR_ANALYSIS
    fake_openai.responder = Model([], executor())
    analysed = await tool_step({}, model_context(fake_openai, tmp_path, pdf_url), session, step, observation)
    assert analysed["status"] == "success", analysed["message"]
    assert analysed["extracted"].startswith("The fee is 42 euros a year [page 2].")
    sent = prompts(fake_openai)[-1]
    assert "What does it cost?" in sent and "membership fee is 42 euros" in sent


async def test_the_model_calls_an_mcp_tool_and_bad_arguments_are_a_recorded_failure(
    fake_openai, session, tmp_path, site_url
):
    said = "The Riverside library branch is open from 09:30 to 18:00 on weekdays."
    model = Model(
        [
            plan("Call the MCP tool library_hours for Riverside"),
            plan("Call it again with the branch name"),
            complete(said),
        ],
        executor(
            action("mcp", tool="library_hours", arguments={"branch": 7}),
            action("mcp", tool="library_hours", arguments={"branch": "Riverside"}),
        ),
    )
    fake_openai.responder = model
    ctx = model_context(fake_openai, tmp_path, site_url, mcp_servers=LIBRARY, max_seconds=110.0)
    result = await run_goal(
        'What are the opening hours of the "Riverside" library branch?',
        ctx,
        start_url=site_url + "/index.html",
        session=session,
    )
    assert ended(result) == ("goal_satisfied", "answer_found"), result["stop_reason"]
    assert result["evidence"][0]["element"] == "MCP tool library_hours"
    runs = [r["result"] for r in trace(result, "execute")]
    assert [r["status"] for r in runs] == ["failure", "success"]
    assert runs[0]["error_type"] == "tool_limit" and "branch: 7 is not of type 'string'" in runs[0]["message"]
    assert "- library_hours: Opening hours of a library branch" in prompts(fake_openai, "planner")[0]
