"""No module under agent/ (Python or JavaScript) grows past 500 lines: a bigger one is split by job."""

from __future__ import annotations

from pathlib import Path

AGENT_DIR = Path(__file__).resolve().parents[2] / "agent"
MAX_LINES = 500


def test_no_module_over_the_limit():
    modules = sorted([*AGENT_DIR.rglob("*.py"), *AGENT_DIR.rglob("*.js")])
    assert len(modules) > 50, "the walk found too few modules: is AGENT_DIR right?"
    sizes = {path: len(path.read_text(encoding="utf-8").splitlines()) for path in modules}
    too_big = [
        f"{path.relative_to(AGENT_DIR.parent)}: {n} lines" for path, n in sizes.items() if n > MAX_LINES
    ]
    assert not too_big, f"split these by job (at most {MAX_LINES} lines each):\n" + "\n".join(too_big)
