"""One real ``langgraph dev`` process for the Studio tests (shared by the session), driven through ``langgraph_sdk``.

It runs on a free loopback port, offline (no tracing, no analytics, no version check, no browser, no reload),
in a scratch directory (it writes ``./.langgraph_api``) from a copy of the repository's ``langgraph.json`` whose
relative paths are made absolute, so what is served is exactly what the real file declares. Its TMPDIR is a
directory of its own, so the Chromium processes it starts can be counted by their profile path. The server's
own blocking-call detector (blockbuster) is on, as in Studio: a blocking call in a node would end the run with
``node_error``, and the tests would see it.
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

from tests.support.factories import offline_settings

REPO = Path(__file__).resolve().parents[2]
CONFIG = REPO / "langgraph.json"
GRAPH_ID = "wayfinder"
STARTUP_TIMEOUT_S = 60.0
RUN_TIMEOUT_S = 60.0


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
    #: The server's temporary directory (its TMPDIR): every Chromium profile of the server lives under it.
    tmp_dir: Path

    def log(self) -> str:
        return self.log_path.read_text(encoding="utf-8", errors="replace")

    def chromium_processes(self) -> list[int]:
        """Live processes whose command line holds the server's profile directory (its Chromiums)."""
        marker = str(self.tmp_dir).encode()
        found = []
        for entry in Path("/proc").iterdir():
            if not entry.name.isdigit():
                continue
            with contextlib.suppress(OSError):
                if marker in (entry / "cmdline").read_bytes() and _alive(int(entry.name)):
                    found.append(int(entry.name))
        return found

    def wait_for_no_chromium(self, timeout: float = 30.0) -> list[int]:
        """[] once no Chromium of the server is left, else what is still running after ``timeout``."""
        deadline = time.monotonic() + timeout
        while (left := self.chromium_processes()) and time.monotonic() < deadline:
            time.sleep(0.25)
        return left


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


@pytest.fixture(scope="session")
def dev_server(tmp_path_factory) -> Iterator[DevServer]:
    workdir = tmp_path_factory.mktemp("langgraph-dev")
    config_path = workdir / "langgraph.json"
    config_path.write_text(json.dumps(_absolute_config(json.loads(CONFIG.read_text()))), encoding="utf-8")
    port = _free_port()
    tmp_dir = workdir / "tmp"
    tmp_dir.mkdir()
    env = {
        "TMPDIR": str(tmp_dir),
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
    server = DevServer(url=f"http://127.0.0.1:{port}", process=process, log_path=log_path, tmp_dir=tmp_dir)
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


async def stream_run(client, thread_id: str, **kwargs) -> list:
    parts = []
    async with asyncio.timeout(RUN_TIMEOUT_S):
        async for part in client.runs.stream(
            thread_id, GRAPH_ID, stream_mode=["updates", "custom"], **kwargs
        ):
            parts.append(part)
    return parts


def custom_events(parts: list) -> list[dict]:
    return [p.data for p in parts if p.event == "custom"]


def updates(parts: list) -> list[dict]:
    return [p.data for p in parts if p.event == "updates"]


def no_blocking_errors(server: DevServer) -> None:
    log = server.log()
    assert "BlockingError" not in log and "Blocking call" not in log, log[-4000:]
