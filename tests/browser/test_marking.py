"""The browser layer re-marks a page through its hook (never by importing dom), and imports only downward."""

from __future__ import annotations

import ast
from pathlib import Path

from agent.browser import marking
from agent.dom.observe import mark_frames
from tests.browser.helpers import act, open_and_find

AGENT = Path(__file__).resolve().parents[2] / "agent"
#: What each layer must never import (it sits below them).
FORBIDDEN = {
    "browser": ("agent.dom", "agent.llm", "agent.planning", "agent.nodes", "agent.graph", "agent.runner"),
    "dom": ("agent.llm", "agent.planning", "agent.nodes", "agent.graph", "agent.runner"),
}


def _imports(path: Path) -> list[str]:
    names: list[str] = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            names.extend(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names.append(node.module)
            names.extend(f"{node.module}.{alias.name}" for alias in node.names)
    return names


def test_browser_and_dom_import_only_downward() -> None:
    wrong = []
    for layer, forbidden in FORBIDDEN.items():
        files = sorted((AGENT / layer).rglob("*.py"))
        assert files, layer
        for path in files:
            for name in _imports(path):
                if name.startswith(forbidden):
                    wrong.append(f"{path.relative_to(AGENT.parent)} imports {name}")
    assert wrong == []


def test_observation_layer_installs_its_marker() -> None:
    assert marking.page_marker() is mark_frames


async def test_wiggle_remarks_a_reloaded_page_through_the_hook(session, site) -> None:
    username = await open_and_find(session, site + "/login.html", "Username")
    await session.page.reload()  # a fresh document: no element carries a data-agent-id until re-marked
    assert await session.locate(username["id"]) is None
    result = await act(session, "type", username["id"], text="alice")
    assert result["status"] == "success", result
    assert result["fallback"] == "wiggle"
    assert await session.page.input_value("#username") == "alice"


async def test_without_a_marker_a_reloaded_page_is_not_remarked(session, site) -> None:
    username = await open_and_find(session, site + "/login.html", "Username")
    await session.page.reload()
    marking.set_page_marker(None)
    try:
        result = await act(session, "type", username["id"], text="alice")
    finally:
        marking.set_page_marker(mark_frames)
    assert result["status"] == "failure"
    assert result["error_type"] == "element_not_found"
    assert await session.page.input_value("#username") == ""
    assert await session.locate(username["id"]) is None
