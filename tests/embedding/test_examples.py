"""Every example under examples/ runs as written against the demo store started the way the README starts it,
and docs/EMBEDDING.md shows each one exactly as it is on disk. A parent's own settings type is refused with a
message naming the node that failed and the setting."""

from __future__ import annotations

import re
import socket
import subprocess
import sys
import time
import urllib.request
from dataclasses import dataclass
from pathlib import Path

import pytest
from langgraph.graph import END, START, StateGraph
from typing_extensions import TypedDict

from agent import build_graph

REPO = Path(__file__).resolve().parents[2]
EXAMPLES = sorted(p for p in (REPO / "examples").glob("*.py") if not p.name.startswith("_"))
DOC = REPO / "docs" / "EMBEDDING.md"
INCLUDE = re.compile(r"<!-- example: (\S+) [^\n]*-->\n```python\n(.*?)```\n", re.DOTALL)


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


@pytest.fixture(scope="module")
def demo_store():
    """``python -m agent.demo.server PORT``, as the README starts it."""
    port = _free_port()
    process = subprocess.Popen(
        [sys.executable, "-m", "agent.demo.server", str(port)],
        cwd=REPO,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 30
        while True:
            try:
                with urllib.request.urlopen(url + "/", timeout=2):
                    break
            except OSError:
                assert process.poll() is None and time.monotonic() < deadline, "the demo store did not start"
                time.sleep(0.2)
        yield url
    finally:
        process.terminate()
        process.wait(timeout=10)


def test_the_doc_shows_every_example_exactly_as_it_is_on_disk():
    shown = {path: code for path, code in INCLUDE.findall(DOC.read_text(encoding="utf-8"))}
    assert set(shown) == {f"examples/{p.name}" for p in EXAMPLES}
    for path, code in shown.items():
        assert code == (REPO / path).read_text(encoding="utf-8"), f"{path} differs from docs/EMBEDDING.md"


@pytest.mark.parametrize("example", EXAMPLES, ids=lambda p: p.name)
def test_each_example_runs_against_the_demo_store(example, demo_store, tmp_path):
    done = subprocess.run(
        [sys.executable, str(example), demo_store],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=180,
    )
    assert done.returncode == 0, done.stdout + done.stderr[-3000:]
    assert "Traceback" not in done.stderr


@dataclass
class ParentSettings:
    """A parent app's own settings type, not Wayfinder's Context."""

    tenant: str = "acme"


class ParentState(TypedDict, total=False):
    goal: str
    terminal_type: str | None
    terminal_reason: str | None
    stop_reason: str | None


async def test_a_parents_own_settings_type_is_refused_naming_the_node_and_the_setting():
    builder = StateGraph(ParentState, context_schema=ParentSettings)
    builder.add_node("browse", build_graph())
    builder.add_edge(START, "browse")
    builder.add_edge("browse", END)
    result = await builder.compile().ainvoke({"goal": "click Go"}, context=ParentSettings())
    assert (result["terminal_type"], result["terminal_reason"]) == ("goal_failed", "node_error")
    assert result["stop_reason"].startswith("start failed: the run's settings cannot be used")
    assert "'tenant'" in result["stop_reason"] and "ParentSettings" in result["stop_reason"]
