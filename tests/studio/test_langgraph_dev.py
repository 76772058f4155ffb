"""The graph served by ``langgraph dev`` (what LangGraph Studio talks to), driven through ``langgraph_sdk``.

One real ``langgraph dev`` process for the module, on a free loopback port, offline (no tracing, no analytics,
no version check, no browser, no reload). It runs in a scratch directory (it writes ``./.langgraph_api``) from
a copy of the repository's ``langgraph.json`` whose relative paths are made absolute, so what is served is
exactly what the real file declares. The server's own blocking-call detector (blockbuster) is on, as in
Studio: a blocking call in a node would end the run with ``node_error``, and the tests would see it.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest
from langgraph_sdk import get_client
from langgraph_sdk.schema import Command

from tests.embedding.site import account_site
from tests.support.factories import offline_settings

REPO = Path(__file__).resolve().parents[2]
CONFIG = REPO / "langgraph.json"
GRAPH_ID = "wayfinder"
STARTUP_TIMEOUT_S = 60.0
RUN_TIMEOUT_S = 60.0


# ---------------------------------------------------------------------------------------------------------
# The server
# ---------------------------------------------------------------------------------------------------------


def _free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def _absolute_config(config: dict) -> dict:
    """The config with absolute paths (``langgraph dev`` resolves relative ones against its working directory)."""
    out = dict(config)
    out["dependencies"] = [
        str((REPO / dep).resolve()) if dep.startswith(".") else dep for dep in config["dependencies"]
    ]
    graphs = {}
    for name, spec in config["graphs"].items():
        path, variable = spec.rsplit(":", 1)
        graphs[name] = f"{(REPO / path).resolve()}:{variable}" if "/" in path else spec
    out["graphs"] = graphs
    return out


def _children(pid: int) -> list[int]:
    """Every live descendant of ``pid`` (from /proc)."""
    parents: dict[int, list[int]] = {}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        with contextlib.suppress(OSError, IndexError, ValueError):
            ppid = int((entry / "stat").read_text().rsplit(")", 1)[1].split()[1])
            parents.setdefault(ppid, []).append(int(entry.name))
    out, todo = [], [pid]
    while todo:
        for child in parents.get(todo.pop(), []):
            out.append(child)
            todo.append(child)
    return out


def _alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except (OSError, IndexError):
        return False
    return state != "Z"


@dataclass
class DevServer:
    url: str
    process: subprocess.Popen
    log_path: Path

    def log(self) -> str:
        return self.log_path.read_text(encoding="utf-8", errors="replace")


def _wait_until_ready(server: DevServer) -> None:
    deadline = time.monotonic() + STARTUP_TIMEOUT_S
    while time.monotonic() < deadline:
        if server.process.poll() is not None:
            pytest.fail(f"langgraph dev exited with {server.process.returncode}:\n{server.log()[-4000:]}")
        with contextlib.suppress(OSError), urllib.request.urlopen(server.url + "/ok", timeout=2) as response:
            if response.status == 200:
                return
        time.sleep(0.2)
    pytest.fail(f"langgraph dev did not answer within {STARTUP_TIMEOUT_S:.0f}s:\n{server.log()[-4000:]}")


def _stop(server: DevServer) -> list[int]:
    """SIGTERM the server's process group, then SIGKILL what is left; returns descendants that outlived it."""
    family = _children(server.process.pid)
    with contextlib.suppress(ProcessLookupError):
        os.killpg(server.process.pid, signal.SIGTERM)
    try:
        server.process.wait(timeout=15)
    except subprocess.TimeoutExpired:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(server.process.pid, signal.SIGKILL)
        server.process.wait(timeout=5)
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline and any(_alive(pid) for pid in family):
        time.sleep(0.1)
    leftovers = [pid for pid in family if _alive(pid)]
    for pid in leftovers:  # processes this test started (through the server): never leave them behind
        with contextlib.suppress(ProcessLookupError):
            os.kill(pid, signal.SIGKILL)
    return leftovers


@pytest.fixture(scope="module")
def dev_server(tmp_path_factory) -> Iterator[DevServer]:
    workdir = tmp_path_factory.mktemp("langgraph-dev")
    config_path = workdir / "langgraph.json"
    config_path.write_text(json.dumps(_absolute_config(json.loads(CONFIG.read_text()))), encoding="utf-8")
    port = _free_port()
    env = {
        **os.environ,
        "LANGSMITH_TRACING": "false",
        "LANGCHAIN_TRACING_V2": "false",
        "LANGGRAPH_CLI_NO_ANALYTICS": "1",
        "LANGGRAPH_NO_VERSION_CHECK": "true",  # no PyPI look-up at startup
        "PYTHONUNBUFFERED": "1",
    }
    log_path = workdir / "server.log"
    command = [
        sys.executable,
        "-m",
        "langgraph_cli",
        "dev",
        "--no-browser",
        "--no-reload",
        "--host",
        "127.0.0.1",
        "--port",
        str(port),
        "--config",
        str(config_path),
    ]
    with log_path.open("wb") as log:
        process = subprocess.Popen(
            command,
            cwd=workdir,
            env=env,
            stdout=log,
            stderr=subprocess.STDOUT,
            stdin=subprocess.DEVNULL,
            start_new_session=True,
        )
    server = DevServer(url=f"http://127.0.0.1:{port}", process=process, log_path=log_path)
    try:
        _wait_until_ready(server)
        yield server
    finally:
        leftovers = _stop(server)
    assert not leftovers, f"processes outlived the server: {leftovers}"
    assert (workdir / ".langgraph_api").is_dir()  # the server kept its data in the scratch dir, not the repo


@pytest.fixture
def context(tmp_path) -> dict:
    """Run settings sent with each run (the Studio form's values): offline planner, records in tmp."""
    return offline_settings(tmp_path / "runs", headless=True)


async def _stream(client, thread_id: str, **kwargs) -> list:
    parts = []
    async with asyncio.timeout(RUN_TIMEOUT_S):
        async for part in client.runs.stream(
            thread_id, GRAPH_ID, stream_mode=["updates", "custom"], **kwargs
        ):
            parts.append(part)
    return parts


def _custom(parts: list) -> list[dict]:
    return [p.data for p in parts if p.event == "custom"]


def _updates(parts: list) -> list[dict]:
    return [p.data for p in parts if p.event == "updates"]


def _no_blocking_errors(server: DevServer) -> None:
    log = server.log()
    assert "BlockingError" not in log and "Blocking call" not in log, log[-4000:]


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
    parts = await _stream(
        client,
        thread["thread_id"],
        context=context,
        input={"goal": "log in as alice with password secret", "start_url": site_url + "/login.html"},
    )

    custom = _custom(parts)
    steps = [e for e in custom if e.get("event") == "step"]
    assert [s["action"] for s in steps] == ["type", "type", "click"]
    assert all(s["status"] == "success" for s in steps)
    assert {"start", "observe", "planner", "execute", "finalize"} <= {
        e.get("node") for e in custom if e.get("event") == "node"
    }
    assert any("finalize" in u for u in _updates(parts))

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
    _no_blocking_errors(dev_server)


async def test_a_confirm_interrupt_is_resumed_through_the_sdk(dev_server, context):
    client = get_client(url=dev_server.url)
    context = {**context, "interactive": True, "confirm_policy": "ask"}
    with account_site() as site:
        thread = await client.threads.create()
        thread_id = thread["thread_id"]
        parts = await _stream(
            client, thread_id, context=context, input={"goal": "click Delete account", "start_url": site.url}
        )

        # The run paused before the risky click: the interrupt is in the stream and in the thread state.
        interrupts = [u["__interrupt__"] for u in _updates(parts) if "__interrupt__" in u]
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
        parts = await _stream(
            client, thread_id, context=context, command=Command(resume={"decision": "approve"})
        )
        steps = [e for e in _custom(parts) if e.get("event") == "step"]
        assert [(s["action"], s["status"]) for s in steps] == [("click", "success")]

        state = await client.threads.get_state(thread_id)
        values = state["values"]
        assert (values["terminal_type"], values["terminal_reason"]) == ("goal_satisfied", "action_verified")
        assert "Account deleted (1)" in values["final_answer"]  # the page's own counter, read by the agent
        assert not state["next"] and not state["interrupts"]
        assert site.deletions == 1  # the click ran exactly once
    _no_blocking_errors(dev_server)
