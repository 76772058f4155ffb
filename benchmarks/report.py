"""docs/BENCHMARKS.md's results, regenerated from a results directory: one section per benchmark, with charts.

The generated part of the file sits between ``<!-- results:start -->`` and ``<!-- results:end -->``; inside
it each benchmark owns the block between ``<!-- section:NAME:start -->`` and ``<!-- section:NAME:end -->``. A
run updates the sections it has results for and keeps the others, so benchmarks run at different times (or
added by other modules: register a renderer in :data:`RENDERERS`) share one file. The text outside the
results block is written by hand and never touched.

    python -m benchmarks.report bench-results/<stamp> [--doc docs/BENCHMARKS.md]
"""

from __future__ import annotations

import argparse
import json
import re
import shutil
from collections.abc import Callable
from pathlib import Path
from typing import Any

from benchmarks.common import REPO_ROOT

DEFAULT_DOC = REPO_ROOT / "docs" / "BENCHMARKS.md"
RESULTS_START, RESULTS_END = "<!-- results:start -->", "<!-- results:end -->"


def _observe(report: dict[str, Any], charts: Path) -> tuple[str, list[Path]]:
    from benchmarks.charts import observe_charts
    from benchmarks.observe_report import to_markdown

    return to_markdown(report), observe_charts(report, charts)


def _overhead(report: dict[str, Any], charts: Path) -> tuple[str, list[Path]]:
    from benchmarks.overhead import to_markdown

    return to_markdown(report), []


def _miniwob(report: dict[str, Any], charts: Path) -> tuple[str, list[Path]]:
    from benchmarks.charts import miniwob_chart
    from benchmarks.miniwob import to_markdown

    return to_markdown(report, per_task=False), [miniwob_chart(report, charts)]


def _fixture_goals(report: dict[str, Any], charts: Path) -> tuple[str, list[Path]]:
    from benchmarks.fixture_goals import to_markdown

    return to_markdown(report), []


def _apps(report: dict[str, Any], charts: Path) -> tuple[str, list[Path]]:
    from benchmarks.apps import to_markdown

    return to_markdown(report), []


#: Results file stem -> renderer (markdown, charts written into the charts folder), in the file's order.
RENDERERS: dict[str, Callable[[dict[str, Any], Path], tuple[str, list[Path]]]] = {
    "observe": _observe,
    "overhead": _overhead,
    "miniwob": _miniwob,
    "fixture_goals": _fixture_goals,
    "apps": _apps,
}


def demote(markdown: str, level: int = 3) -> str:
    """Headings pushed down so a benchmark's own title sits at ``level`` under the results heading."""

    levels = [len(m.group(1)) for m in re.finditer(r"^(#+) ", markdown, flags=re.MULTILINE)]
    by = level - min(levels, default=level)

    def shift(match: re.Match[str]) -> str:
        return "#" * (len(match.group(1)) + by) + " "

    return re.sub(r"^(#+) ", shift, markdown, flags=re.MULTILINE)


#: The command that runs one benchmark alone (its options are in the section on it above).
ALONE = {
    "observe": "python -m benchmarks.observe",
    "overhead": "python -m benchmarks.overhead",
    "miniwob": "python -m benchmarks.miniwob --seeds 0-1",
    "fixture_goals": "python -m benchmarks.fixture_goals",
    "apps": "python -m benchmarks.apps",
}


def section_markdown(name: str, report: dict[str, Any], doc: Path, charts_dir: Path) -> str:
    """One benchmark's block: its tables (headings demoted), its charts, the commands that reproduce them."""
    body, charts = RENDERERS[name](report, charts_dir)
    links = [f"![{p.stem}]({p.relative_to(doc.parent).as_posix()})" for p in charts]
    command = (report.get("environment") or {}).get("command")
    parts = [demote(body).rstrip()]
    if links:
        parts.append("\n".join(links))
    how = [f"measured by `{command}`" if command else "", f"alone: `{ALONE[name]}`" if name in ALONE else ""]
    how.append(
        f"tables and charts again from its results directory: `python -m benchmarks.report <results dir> "
        f"--doc {doc.name}`"
    )
    parts.append("Reproduce (from the repository root): " + "; ".join(h for h in how if h) + ".")
    return "\n\n".join(parts)


def replace_sections(text: str, sections: dict[str, str], header: str) -> str:
    """``text`` with its results block holding ``sections`` (replaced in place, or appended in order)."""
    if RESULTS_START not in text or RESULTS_END not in text:
        text = text.rstrip() + f"\n\n{RESULTS_START}\n{RESULTS_END}\n"
    head, rest = text.split(RESULTS_START, 1)
    block, tail = rest.split(RESULTS_END, 1)
    found = {
        m.group(1): m.group(0)
        for m in re.finditer(
            r"<!-- section:([\w-]+):start -->.*?<!-- section:\1:end -->", block, flags=re.DOTALL
        )
    }
    order = list(found) + [name for name in sections if name not in found]
    known = [n for n in RENDERERS if n in order] + [n for n in order if n not in RENDERERS]
    blocks = []
    for name in known:
        if name in sections:
            blocks.append(
                f"<!-- section:{name}:start -->\n{sections[name].strip()}\n<!-- section:{name}:end -->"
            )
        else:
            blocks.append(found[name])
    return (
        head
        + RESULTS_START
        + "\n"
        + header.strip()
        + "\n\n"
        + "\n\n".join(blocks)
        + "\n"
        + RESULTS_END
        + tail
    )


def update_doc(results: Path, doc: Path = DEFAULT_DOC, charts_dir: Path | None = None) -> list[str]:
    """Rewrite ``doc``'s sections for every results file in ``results``; returns the sections written."""
    doc = Path(doc)
    charts_dir = Path(charts_dir or doc.parent / "bench")
    charts_dir.mkdir(parents=True, exist_ok=True)
    sections = {}
    for name in RENDERERS:
        path = Path(results) / f"{name}.json"
        if path.is_file():
            report = json.loads(path.read_text(encoding="utf-8"))
            sections[name] = section_markdown(name, report, doc, charts_dir)
            shutil.copy(path, charts_dir / path.name)  # the numbers behind the tables, beside the charts
    header = (
        "## Latest results\n\n"
        "Generated by `make bench` (`python -m benchmarks --report docs/BENCHMARKS.md`); each section names the "
        "command that measures it alone, the machine and its load. The JSON behind each section is in "
        "`docs/bench/` beside the charts. Timings depend on the machine's load (given per section): compare "
        "ratios measured in the same run, not times across runs."
    )
    text = doc.read_text(encoding="utf-8") if doc.exists() else "# Benchmarks\n"
    doc.write_text(replace_sections(text, sections, header), encoding="utf-8")
    return list(sections)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.report", description=__doc__.split("\n\n")[0])
    parser.add_argument("results", help="a results directory (bench-results/<stamp>)")
    parser.add_argument("--doc", default=str(DEFAULT_DOC), help="the markdown file to update")
    args = parser.parse_args(argv)
    if not Path(args.results).is_dir():
        parser.error(f"{args.results} is not a directory")
    written = update_doc(Path(args.results), Path(args.doc))
    print(f"{args.doc}: sections {', '.join(written) or 'none (no results files found)'}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
