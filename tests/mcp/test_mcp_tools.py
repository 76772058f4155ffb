"""MCP tools on a real stdio server: loading, calls, bad arguments, failures; and how the agent sees them
(the prompts, the offline planner's choice, the safety gate)."""

from __future__ import annotations

import pytest

from agent.llm.prompting import planner_user_text
from agent.planning.offline.tools import best_tool, fill_arguments, mcp_plan, tool_action
from agent.safety import analyze_action
from agent.tools.mcp import McpError, load_tools, server_connection

HOURS_SCHEMA = {"type": "object", "properties": {"branch": {"type": "string"}}, "required": ["branch"]}
CATALOG = [
    {
        "name": "library_hours",
        "description": "Opening hours of a library branch.",
        "input_schema": HOURS_SCHEMA,
    },
    {
        "name": "delete_reservation",
        "description": "Delete a book reservation for good.",
        "input_schema": {"type": "object", "properties": {"reservation_id": {"type": "integer"}}},
    },
]


async def test_load_and_call_with_arguments_checked_against_the_schema(library_servers):
    tools = await load_tools(library_servers, 60.0)
    assert {t["name"] for t in tools.catalog} == {"library_hours", "delete_reservation"}
    hours = next(t for t in tools.catalog if t["name"] == "library_hours")
    assert hours["server"] == "library" and hours["input_schema"]["required"] == ["branch"]
    assert "09:30 to 18:00" in await tools.call("library_hours", {"branch": "Riverside"})
    with pytest.raises(
        McpError, match=r"bad arguments for 'library_hours': branch: 3 is not of type 'string'"
    ):
        await tools.call("library_hours", {"branch": 3})
    with pytest.raises(McpError, match="'branch' is a required property"):
        await tools.call("library_hours", {})
    with pytest.raises(McpError, match=r"failed: .*no branch named Atlantis"):
        await tools.call("library_hours", {"branch": "Atlantis"})
    with pytest.raises(
        McpError, match=r"no MCP tool named 'renew' \(loaded: delete_reservation, library_hours\)"
    ):
        await tools.call("renew", {})


async def test_a_server_that_exits_is_one_line(broken_servers):
    with pytest.raises(McpError) as caught:
        await load_tools(broken_servers, 30.0)
    assert str(caught.value).startswith("MCP server 'broken' could not start")
    assert "\n" not in str(caught.value)


def test_connections_from_the_setting():
    assert server_connection("a", {"command": "x", "args": ["1", 2]})["args"] == ["1", "2"]
    assert server_connection("b", {"url": "http://127.0.0.1:9/mcp"})["transport"] == "streamable_http"
    for bad, why in [
        ({"args": []}, "needs 'url'"),
        ({"command": "x", "transport": "pigeon"}, "transport"),
        ("x", "mapping"),
    ]:
        with pytest.raises(ValueError, match=why):
            server_connection("c", bad)


def test_the_offline_planner_prefers_a_tool_that_fits_the_goal():
    goal = 'What are the opening hours of the "Hilltop" library branch?'
    tool, arguments = best_tool(goal, CATALOG)
    assert tool["name"] == "library_hours" and arguments == {"branch": "Hilltop"}
    planned = mcp_plan(goal, CATALOG, [])
    [step] = planned["proposed_actions"]
    assert tool_action(step)["args"] == {"tool": "library_hours", "arguments": {"branch": "Hilltop"}}
    # a goal with nothing in common, or without the value a required argument needs, stays on the page
    assert best_tool("click the Sign in link", CATALOG) is None
    assert best_tool("what are the library branch opening hours", CATALOG) is None
    assert fill_arguments(HOURS_SCHEMA, "no quotes here") is None
    # a tool that failed once is not tried again
    failed = [{"plan_step": step, "action": "mcp", "status": "failure"}]
    assert mcp_plan(goal, CATALOG, failed) is None


def test_a_risky_tool_goes_to_confirm_and_a_plain_one_does_not():
    risky = analyze_action({"action": "mcp", "args": {"tool": "delete_reservation"}}, {}, tools=CATALOG)
    assert risky["risk"] == "high" and "deletes" in risky["reasons"][0]
    plain = analyze_action({"action": "mcp", "args": {"tool": "library_hours"}}, {}, tools=CATALOG)
    assert plain["risk"] == "low"


def test_the_model_planner_sees_the_tools_the_pdf_and_tool_results():
    history = [
        {
            "step": 1,
            "action": "mcp",
            "status": "success",
            "args": {"tool": "library_hours"},
            "extracted": "open 9-5",
        }
    ]
    text = planner_user_text(
        {"goal": "g", "observation": {"page_type": "pdf"}, "tools": CATALOG, "history": history}  # type: ignore[typeddict-item]
    )
    assert "MCP TOOLS" in text and "- library_hours: Opening hours of a library branch." in text
    assert '"branch":{"type":"string"}' in text and "required ['branch']" in text
    assert "THE TAB SHOWS A PDF" in text
    assert "TOOL RESULTS" in text and "open 9-5" in text


def test_a_secret_never_goes_into_tool_arguments():
    verdict = analyze_action(
        {"action": "mcp", "args": {"tool": "library_hours", "arguments": {"branch": "<secret:PIN>"}}},
        {},
        tools=CATALOG,
    )
    assert verdict["risk"] == "blocked" and "<secret:PIN>" in verdict["reasons"][0]


async def test_a_streamable_http_server(library_http_url):
    tools = await load_tools({"library": {"url": library_http_url}}, 60.0)
    assert {t["name"] for t in tools.catalog} == {"library_hours", "delete_reservation"}
    assert "10:00 to 16:00" in await tools.call("library_hours", {"branch": "Hilltop"})
