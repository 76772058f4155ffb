"""Whole offline runs with an MCP server on stdio: a goal the tool serves, and a server that cannot start."""

from __future__ import annotations

from agent.runner import run_goal
from tests.support.factories import offline_context, trace_records

HOURS_GOAL = 'What are the opening hours of the "Riverside" library branch?'


async def _run(tmp_path, session, goal, start, servers, **overrides):
    ctx = offline_context(
        tmp_path / "runs", **{"max_steps": 6, "max_seconds": 110.0, "mcp_servers": servers, **overrides}
    )
    result = await run_goal(goal, ctx, start_url=start, session=session)
    return result, trace_records(result["run_dir"])


async def test_an_mcp_tool_serves_the_goal_end_to_end(tmp_path, session, site_url, library_servers):
    result, records = await _run(tmp_path, session, HOURS_GOAL, site_url + "/index.html", library_servers)
    assert (result["terminal_type"], result["terminal_reason"]) == ("goal_satisfied", "answer_found")
    assert result["final_answer"] == "The Riverside library branch is open from 09:30 to 18:00 on weekdays."
    [proof] = result["evidence"]
    assert proof["element"] == "MCP tool library_hours"
    [executed] = [r for r in records if r.get("node") == "execute"]
    assert executed["action"]["action"] == "mcp"
    assert executed["action"]["args"] == {"tool": "library_hours", "arguments": {"branch": "Riverside"}}
    assert executed["result"]["status"] == "success"
    planned = next(r for r in records if r.get("node") == "planner")
    assert "library_hours" in planned["note"]  # the tool was preferred to the page


async def test_a_server_that_cannot_start_ends_the_run_with_one_line(
    tmp_path, session, site_url, broken_servers
):
    result, records = await _run(tmp_path, session, HOURS_GOAL, site_url + "/index.html", broken_servers)
    assert (result["terminal_type"], result["terminal_reason"]) == ("goal_failed", "tool_error")
    assert result["stop_reason"].startswith("MCP server 'broken' could not start")
    assert "\n" not in result["stop_reason"]
    assert not [r for r in records if r.get("node") == "execute"]


async def test_a_goal_no_tool_serves_drives_the_page(tmp_path, session, site_url, library_servers):
    """Tools are offered, not forced: a goal about the page itself is done on the page."""
    result, records = await _run(
        tmp_path, session, "click the Sign in link", site_url + "/index.html", library_servers
    )
    assert not [r for r in records if (r.get("action") or {}).get("action") == "mcp"]
    assert [r for r in records if r.get("node") == "execute"]
