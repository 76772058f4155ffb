"""What the command line prints: a run's result, the runs list, the resume hint, and the exit code.

The exit codes are documented in ``agent/cli.py`` and the README.
"""

from __future__ import annotations

import json
import os
import shlex
import sys
from pathlib import Path
from typing import Any

from agent.config import ConfigError, load_context
from agent.context import Context
from agent.terminals import GOAL_SATISFIED, UNVERIFIED

EXIT_OK, EXIT_NOT_SATISFIED, EXIT_USAGE = 0, 1, 2
EXIT_SIGINT, EXIT_SIGTERM = 130, 143


def resume_command(run_id: str, record_dir: str | None = None) -> str:
    """The command that continues a run (with --record-dir when it is not the default)."""
    command = f"python -m agent resume {shlex.quote(run_id)}"
    if record_dir and Path(record_dir) != Path(load_context_quiet().record_dir):
        command += f" --record-dir {shlex.quote(str(record_dir))}"
    return command


def load_context_quiet() -> Context:
    try:
        return load_context()
    except ConfigError:
        return Context()


def one_line(text: str) -> str:
    """A message on one line (YAML errors come with a multi-line excerpt)."""
    return " ".join(part.strip() for part in text.splitlines() if part.strip() and part.strip() != "^")


def print_result(result: dict[str, Any], as_json: bool) -> None:
    if as_json:
        print(json.dumps(result, default=str), flush=True)
        return
    terminal = f"{result.get('terminal_type') or result.get('status')}/{result.get('terminal_reason') or '-'}"
    print(f"\n{terminal}  steps={result.get('steps')}  {result.get('elapsed_s')}s  url={result.get('url')}")
    if result.get("final_answer") and result.get("terminal_type") == GOAL_SATISFIED:
        print(f"answer: {result['final_answer']}")
    if result.get("terminal_reason") == UNVERIFIED:
        found = f" (found: {result['candidate_answer']})" if result.get("candidate_answer") else ""
        missing = "; ".join(result.get("missing") or []) or result.get("stop_reason") or "no evidence"
        print(f"Not verified: {missing}{found}")
    if result.get("question") and not result.get("terminal_type"):
        print(f"waiting for: {result['question']}")
    if (
        result.get("stop_reason")
        and result.get("terminal_type") != GOAL_SATISFIED
        and (result.get("terminal_reason") != UNVERIFIED)
    ):
        print(f"reason: {result['stop_reason']}")
    usage = result.get("usage") or {}
    if usage.get("calls"):
        method = f", structured output {usage['structured_output']}" if usage.get("structured_output") else ""
        print(
            f"model: {usage.get('calls')} calls, {usage.get('total_tokens')} tokens, "
            f"${usage.get('cost_usd', 0):.4f}{method}"
        )
    if result.get("run_dir"):
        print(f"records: {result['run_dir']}  (trace.jsonl, result.json, report.html)")


def exit_code(result: dict[str, Any]) -> int:
    return EXIT_OK if result.get("terminal_type") == GOAL_SATISFIED else EXIT_NOT_SATISFIED


def make_display(plain: bool, as_json: bool):
    from agent.display import ProgressDisplay, wants_plain

    return ProgressDisplay(
        stream=sys.stderr,
        plain=wants_plain(plain=plain, as_json=as_json, stream=sys.stderr, term=os.environ.get("TERM")),
    )


def format_runs(runs: list[dict[str, Any]]) -> list[str]:
    """Lines of ``python -m agent runs``: id, outcome, reason, steps, start time, goal."""
    import time

    lines = [f"{'RUN ID':<28} {'OUTCOME':<17} {'REASON':<22} {'STEPS':>5}  {'STARTED':<16} GOAL"]
    for r in runs:
        outcome = r.get("terminal_type") or r.get("status") or "?"
        reason = r.get("terminal_reason") or ("waiting for an answer" if r.get("status") == "paused" else "")
        started = r.get("started_at")
        when = time.strftime("%Y-%m-%d %H:%M", time.localtime(float(started))) if started else ""
        goal = " ".join(str(r.get("goal") or "").split())[:70]
        steps = "" if r.get("steps") is None else str(r.get("steps"))
        lines.append(f"{r['run_id']:<28} {outcome:<17} {reason:<22} {steps:>5}  {when:<16} {goal}")
        if r.get("status") == "paused" and r.get("question"):
            lines.append(f"{'':<28}   ? {str(r['question'])[:100]}")
    return lines
