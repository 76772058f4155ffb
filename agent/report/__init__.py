"""Render ``runs/<run_id>/report.html`` from a run's ``trace.jsonl`` and ``result.json``.

The report is one self-contained HTML file that works from ``file://`` with no server: inline CSS, no
JavaScript at all (a Content-Security-Policy forbids scripts), screenshots embedded as ``data:`` URIs while the
total stays small, else linked relative to the run dir. Everything in a trace can come from a web page or a
model, so the Jinja2 template autoescapes every value and only ``http(s)`` URLs become links. The renderer does
not fail on bad input: a missing ``result.json``, a truncated last trace line, an empty trace or odd field types
all produce a report that says what was missing.

Layout: :mod:`.loading` reads the records, :mod:`.view` turns them into plain data, ``templates/report.html``
(with ``report.css``) draws it. Usage: ``write_report(run_dir)``, or ``python -m agent.report RUNS/<run_id>``.
"""

from __future__ import annotations

import functools
import sys
from pathlib import Path

from jinja2 import Environment, PackageLoader, select_autoescape

from agent.report.loading import EMBED_LIMIT_BYTES, REPORT_NAME, RESULT_NAME, TERMINAL_LABELS, TRACE_NAME
from agent.report.view import report_view

__all__ = [
    "EMBED_LIMIT_BYTES",
    "REPORT_NAME",
    "RESULT_NAME",
    "TERMINAL_LABELS",
    "TRACE_NAME",
    "main",
    "render_report",
    "write_report",
]


@functools.cache
def _environment() -> Environment:
    return Environment(
        loader=PackageLoader("agent.report", "templates"),
        autoescape=select_autoescape(["html"], default_for_string=True, default=True),
        trim_blocks=True,
        lstrip_blocks=True,
        keep_trailing_newline=True,
    )


def render_report(run_dir: Path | str, *, embed_limit_bytes: int = EMBED_LIMIT_BYTES) -> str:
    """The report HTML of a run dir as a string (see :func:`write_report`)."""
    view = report_view(Path(run_dir), embed_limit_bytes)
    return (
        _environment()
        .get_template("report.html")
        .render(**view, trace_name=TRACE_NAME, result_name=RESULT_NAME)
    )


def write_report(run_dir: Path | str, *, embed_limit_bytes: int = EMBED_LIMIT_BYTES) -> Path:
    """Write ``run_dir/report.html`` and return its path.

    Screenshots are embedded when their total size is at most ``embed_limit_bytes``, else linked relative to the
    run dir (so the report still opens from ``file://``). The file is written atomically. Only a missing run
    directory raises (``NotADirectoryError``); missing or damaged files inside it are described in the report.
    """
    run_dir = Path(run_dir)
    if not run_dir.is_dir():
        raise NotADirectoryError(f"not a run directory: {run_dir}")
    target = run_dir / REPORT_NAME
    tmp = run_dir / (REPORT_NAME + ".tmp")
    tmp.write_text(render_report(run_dir, embed_limit_bytes=embed_limit_bytes), encoding="utf-8")
    tmp.replace(target)
    return target


def main(argv: list[str] | None = None) -> int:
    """``python -m agent.report RUN_DIR [...]``: (re)write the report of each run dir and print its path."""
    args = sys.argv[1:] if argv is None else argv
    if not args:
        print("usage: python -m agent.report RUN_DIR [RUN_DIR ...]", file=sys.stderr)
        return 2
    for arg in args:
        print(write_report(Path(arg)))
    return 0
