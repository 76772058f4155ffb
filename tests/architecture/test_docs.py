"""docs/ARCHITECTURE.md draws the graph that is really compiled (scripts/draw_graph.py made the picture)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "scripts"))

import draw_graph  # noqa: E402


def test_the_documented_graph_is_the_compiled_graph():
    documented = draw_graph.documented(draw_graph.DOC.read_text(encoding="utf-8"))
    assert documented is not None, "docs/ARCHITECTURE.md lost its generated diagram block"
    assert "planner -.-> translate;" in documented
    assert documented == draw_graph.mermaid(), "stale diagram: run python scripts/draw_graph.py --write"


def test_the_script_checks_and_prints_from_the_command_line():
    run = subprocess.run(
        [sys.executable, str(ROOT / "scripts" / "draw_graph.py"), "--check"], capture_output=True, text=True
    )
    assert run.returncode == 0, run.stdout + run.stderr
    printed = subprocess.run(
        [sys.executable, str(ROOT / "scripts" / "draw_graph.py")], capture_output=True, text=True, check=True
    )
    assert printed.stdout == draw_graph.mermaid()


def test_a_changed_graph_is_caught():
    doc = draw_graph.DOC.read_text(encoding="utf-8")
    stale = draw_graph.with_diagram(doc, draw_graph.mermaid().replace("planner -.-> translate;\n", ""))
    assert draw_graph.documented(stale) != draw_graph.mermaid()
