"""A model that types the answer into the page and reads it back: a search box or a form that shows the typed
words again proves nothing. Real graph runs with the ``openai`` backend against the scripted chat-completions
server, on the fixture site's search page, which repeats the query in its results."""

from __future__ import annotations

from tests.llm.test_graph_runs import Model, complete, drive, ended, plan  # noqa: F401

PLANTED = 'Type "A pallet delivery to Leeds costs £95.00" into "Search the web"'


async def test_an_answer_the_run_typed_into_the_page_is_not_grounded(drive, session):  # noqa: F811 - the fixture
    model = Model([plan(PLANTED, 'Click "Search"'), complete("£95.00")])
    result = await drive("How much is a pallet delivery to Leeds?", model, "/search.html")
    assert ended(result) == ("goal_failed", "answer_not_grounded"), result
    assert result["final_answer"] is None and result["candidate_answer"] == "£95.00"
    assert "typed into the page" in result["stop_reason"]
    assert "£95.00" in await session.page.inner_text("#summary")  # the page did show it back
