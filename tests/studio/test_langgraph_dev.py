"""The graph served by ``langgraph dev`` (what LangGraph Studio talks to), driven through ``langgraph_sdk``.

The server is the session's one ``langgraph dev`` process (tests/studio/conftest.py).
"""

from __future__ import annotations

import json
from pathlib import Path

from langgraph_sdk import get_client
from langgraph_sdk.schema import Command

from tests.embedding.site import account_site
from tests.studio.conftest import (
    CONFIG,
    GRAPH_ID,
    REPO,
    custom_events,
    no_blocking_errors,
    stream_run,
    updates,
)

# ---------------------------------------------------------------------------------------------------------
# Tests
# ---------------------------------------------------------------------------------------------------------


def test_langgraph_json_is_valid_and_points_at_the_studio_graph():
    from langgraph_cli.config import validate_config_file

    config = validate_config_file(CONFIG)
    assert config["python_version"] == "3.11"
    assert config["dependencies"] == ["."]
    assert config["graphs"] == {GRAPH_ID: "./agent/graph.py:graph"}
    env = config.get("env")
    assert env is None or isinstance(env, dict), (
        "a .env path would make a fresh clone depend on a missing file"
    )
    path, variable = config["graphs"][GRAPH_ID].split(":")
    assert (REPO / path).is_file() and variable == "graph"
    from agent.graph import graph

    assert graph.checkpointer is None  # langgraph dev refuses a graph compiled with its own checkpointer


async def test_studio_sees_the_goal_form_and_the_settings_form(dev_server):
    client = get_client(url=dev_server.url)
    assistants = await client.assistants.search(graph_id=GRAPH_ID)
    assert assistants, "langgraph dev registered no assistant for the graph"
    schemas = await client.assistants.get_schemas(assistants[0]["assistant_id"])

    assert set(schemas["input_schema"]["properties"]) == {"goal", "start_url"}
    outputs = set(schemas["output_schema"]["properties"])
    assert {"terminal_type", "terminal_reason", "final_answer", "run_id"} <= outputs
    settings = schemas["context_schema"]["properties"]
    assert {"planner", "model", "confirm_policy", "interactive", "record_dir", "max_steps"} <= set(settings)
    assert all(field.get("description") for field in settings.values()), "every setting needs a description"
    assert settings["max_steps"]["type"] == "integer" and settings["max_steps"]["default"] == 30


async def test_a_run_streams_step_events_and_ends_goal_satisfied(dev_server, site_url, context):
    client = get_client(url=dev_server.url)
    thread = await client.threads.create()
    parts = await stream_run(
        client,
        thread["thread_id"],
        context=context,
        input={"goal": "log in as alice with password secret", "start_url": site_url + "/login.html"},
    )

    custom = custom_events(parts)
    steps = [e for e in custom if e.get("event") == "step"]
    assert [s["action"] for s in steps] == ["type", "type", "click"]
    assert all(s["status"] == "success" for s in steps)
    assert {"start", "observe", "planner", "execute", "finalize"} <= {
        e.get("node") for e in custom if e.get("event") == "node"
    }
    assert any("finalize" in u for u in updates(parts))

    # Each node's `updates` chunk says what it decided, in a few hundred bytes (no page text, no element list).
    decided: dict[str, list[dict]] = {}
    for chunk in updates(parts):
        for node, update in chunk.items():
            assert isinstance(update, dict) and update.get("decision", {}).get("node") == node, (node, update)
            assert len(json.dumps(update)) < 8000, (node, len(json.dumps(update)))
            decided.setdefault(node, []).append(update["decision"])
    observed = decided["observe"][0]
    assert observed["url"].endswith("/login.html") and observed["title"] and observed["elements"] > 0
    assert any(d["plan"] for d in decided["planner"])
    typed = [d["action"] for d in decided["translate"] if d["action"]["action"] == "type"]
    assert [t["args"]["text"] for t in typed] == ["alice", "********"]  # the password is masked
    assert {d["risk"] for d in decided["safety"]} == {"low"}
    assert decided["goal_check"][-1]["met"] == decided["goal_check"][-1]["parts"] > 0
    assert all(isinstance(d["score"], float) for d in decided["progress"])
    assert decided["finalize"][0]["terminal_type"] == "goal_satisfied"

    state = await client.threads.get_state(thread["thread_id"])
    values = state["values"]
    assert (values["terminal_type"], values["terminal_reason"]) == ("goal_satisfied", "action_verified")
    assert "Welcome, alice" in values["final_answer"]
    assert not state["next"]
    # The run id is the thread id, and the settings reached the server: the records are where we said.
    run_dir = Path(context["record_dir"]) / thread["thread_id"]
    assert values["run_id"] == thread["thread_id"]
    result = json.loads((run_dir / "result.json").read_text())
    assert result["terminal_type"] == "goal_satisfied"
    assert (run_dir / "trace.jsonl").stat().st_size > 0
    no_blocking_errors(dev_server)


async def test_a_confirm_interrupt_is_resumed_through_the_sdk(dev_server, context):
    client = get_client(url=dev_server.url)
    context = {**context, "interactive": True, "confirm_policy": "ask"}
    with account_site() as site:
        thread = await client.threads.create()
        thread_id = thread["thread_id"]
        parts = await stream_run(
            client, thread_id, context=context, input={"goal": "click Delete account", "start_url": site.url}
        )

        # The run paused before the risky click: the interrupt is in the stream and in the thread state.
        interrupts = [u["__interrupt__"] for u in updates(parts) if "__interrupt__" in u]
        assert len(interrupts) == 1
        payload = interrupts[0][0]["value"]
        assert payload["type"] == "confirm" and payload["action"]["action"] == "click"
        assert "Delete account" in payload["target"]
        state = await client.threads.get_state(thread_id)
        assert state["next"] == ["confirm"]
        assert [i["value"]["type"] for i in state["interrupts"]] == ["confirm"]
        thread_info = await client.threads.get(thread_id)
        assert thread_info["status"] == "interrupted"
        assert site.deletions == 0  # nothing ran yet

        # Approve it, the way Studio's "resume" does.
        parts = await stream_run(
            client, thread_id, context=context, command=Command(resume={"decision": "approve"})
        )
        steps = [e for e in custom_events(parts) if e.get("event") == "step"]
        assert [(s["action"], s["status"]) for s in steps] == [("click", "success")]

        state = await client.threads.get_state(thread_id)
        values = state["values"]
        assert (values["terminal_type"], values["terminal_reason"]) == ("goal_satisfied", "action_verified")
        assert "Account deleted (1)" in values["final_answer"]  # the page's own counter, read by the agent
        assert not state["next"] and not state["interrupts"]
        assert site.deletions == 1  # the click ran exactly once
    no_blocking_errors(dev_server)
