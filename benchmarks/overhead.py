"""``python -m benchmarks.overhead``: the graph's own cost per step with the offline planner.

Everything a step costs except looking at the page (``observe``) and acting on it (``execute``): graph
compilation and scheduling, checkpoints, run records, the planner, the translator, the checks. Measured on real
runs (real Chromium, real LangGraph, real SQLite checkpoints) of the demo store's goal, from each run's own trace:
a step's overhead is the wall time from the end of the previous ``execute`` (or the call of ``run_goal``) to the
end of this one, minus the ``node_ms`` of the ``observe`` and ``execute`` records in between and, on the first
step, the time ``start`` spent opening the start page (its ``navigate`` action's own ``execution_time_ms``).

    python -m benchmarks.overhead              # 7 runs of the demo goal
    python -m benchmarks.overhead --runs 2     # the smoke-test size
"""

from __future__ import annotations

import argparse
import asyncio
import shlex
import shutil
import sys
import tempfile
import time
from dataclasses import replace
from pathlib import Path
from typing import Any

from benchmarks.common import environment, fmt, load_average, md_table, results_dir, save_report, summary

#: The nodes that are the page's cost, not the graph's.
PAGE_NODES = ("observe", "execute")
#: The done-means targets of the graph's own cost (issue 14).
FIRST_STEP_TARGET_MS = 50.0
FURTHER_STEP_TARGET_MS = 10.0


def step_overheads(trace: list[dict[str, Any]], started: float, ended: float) -> dict[str, Any]:
    """Per-step overhead (ms) of one run from its trace: steps end at each ``execute`` record; the closing
    segment (after the last action: the last look at the page, the goal check, finalize) is reported apart."""
    steps: list[float] = []
    since, page_ms = started, 0.0
    for record in sorted(trace, key=lambda r: int(r.get("seq") or 0)):
        node = record.get("node")
        if node in PAGE_NODES:
            page_ms += float(record.get("node_ms") or 0.0)
        elif node == "start":
            page_ms += float((record.get("result") or {}).get("execution_time_ms") or 0.0)
        if node == "execute":
            ts = float(record.get("ts") or since)
            steps.append(max(0.0, (ts - since) * 1000 - page_ms))
            since, page_ms = ts, 0.0
    closing = max(0.0, (ended - since) * 1000 - page_ms)
    return {"steps_ms": [round(s, 1) for s in steps], "closing_ms": round(closing, 1)}


async def measure(runs: int, log: bool = True) -> dict[str, Any]:
    """``runs`` runs of the demo goal in one process and one browser; their per-step overheads."""
    from agent.browser.session import BrowserSession
    from agent.config import load_context
    from agent.demo.server import DEMO_GOAL, DEMO_START_PATH, serve_demo
    from agent.records import read_trace
    from agent.runner import run_goal
    from benchmarks.overhead_floor import floor_per_action, last_values

    records = Path(tempfile.mkdtemp(prefix="wayfinder-bench-overhead-"))
    ctx = load_context(env={}, overrides={"planner": "rules", "record_dir": str(records / "runs")})
    server = serve_demo()
    rows: list[dict[str, Any]] = []
    floors: list[float] = []
    least_floors: list[float] = []
    session = None
    try:
        options = ctx.browser_options(records / "browser")
        options.allow_private = True
        session = await BrowserSession.start(options, records / "browser")
        for k in range(runs):
            await session.reset()
            started = time.time()
            events: list[dict[str, Any]] = []
            result = await run_goal(  # with a progress listener, as the CLI's live display has
                DEMO_GOAL,
                replace(ctx),
                start_url=server.base_url + DEMO_START_PATH,
                session=session,
                on_event=events.append,
            )
            ended = time.time()
            run_dir = Path(str(result.get("run_dir")))
            trace = read_trace(run_dir / "trace.jsonl")
            # interleaved with the runs, so both meet the same machine: the empty graph, from this run's state
            values = last_values(run_dir / "checkpoints.sqlite")
            floors.append(await floor_per_action(values))
            least_floors.append(await floor_per_action(values, least_state=True))
            row = {
                "run": k + 1,
                "terminal": f"{result.get('terminal_type')}/{result.get('terminal_reason')}",
                "wall_ms": round((ended - started) * 1000, 1),
                "page_ms": round(
                    sum(float(r.get("node_ms") or 0) for r in trace if r.get("node") in PAGE_NODES), 1
                ),
                **step_overheads(trace, started, ended),
            }
            rows.append(row)
            if log:
                print(
                    f"  overhead run {k + 1}: steps {row['steps_ms']} ms, closing {row['closing_ms']} ms "
                    f"({row['terminal']})",
                    flush=True,
                )
    finally:
        if session is not None:
            await session.close()
        server.stop()
        shutil.rmtree(records, ignore_errors=True)
    firsts = [r["steps_ms"][0] for r in rows if r["steps_ms"]]
    further = [s for r in rows for s in r["steps_ms"][1:]]
    return {
        "runs": rows,
        "first_step_first_run_ms": firsts[0] if firsts else None,
        "first_step_ms": summary(firsts),
        "further_step_ms": summary(further),
        "closing_ms": summary(r["closing_ms"] for r in rows),
        "floor_per_action_ms": summary(floors),
        "least_state_floor_per_action_ms": summary(least_floors),
        "targets": {"first_step_ms": FIRST_STEP_TARGET_MS, "further_step_ms": FURTHER_STEP_TARGET_MS},
    }


def to_markdown(report: dict[str, Any]) -> str:
    first, further, closing = report["first_step_ms"], report["further_step_ms"], report["closing_ms"]
    rows = [
        [
            "first step, first run in the process",
            report["first_step_first_run_ms"],
            "-",
            FIRST_STEP_TARGET_MS,
        ],
        ["first step (every run)", first["median"], first["max"], FIRST_STEP_TARGET_MS],
        ["further steps", further["median"], further["max"], FURTHER_STEP_TARGET_MS],
        ["closing (after the last action)", closing["median"], closing["max"], "-"],
    ]
    floor = report.get("floor_per_action_ms") or {}
    if floor.get("n"):
        rows.append(["LangGraph floor of one action (six empty nodes)", floor["median"], floor["max"], "-"])
    least = report.get("least_state_floor_per_action_ms") or {}
    if least.get("n"):
        rows.append(["the same floor with a one-key state", least["median"], least["max"], "-"])
    per_run = [
        [r["run"], r["terminal"], ", ".join(fmt(s) for s in r["steps_ms"]), r["closing_ms"]]
        for r in report["runs"]
    ]
    return "\n".join(
        [
            "## Graph overhead",
            "",
            f"`{report['environment']['command']}`: {len(report['runs'])} run(s) of the demo goal with the offline "
            "planner in one process and one browser. Overhead = a step's wall time minus its `observe` and "
            "`execute` node time (from the run's own trace). The floor is the same graph shape with nodes that do "
            "nothing (this state, each node routing itself as the runner's do, the SQLite checkpointer written "
            "before each next step), run after each run: what LangGraph itself costs per action on this machine "
            "(`benchmarks/overhead_floor.py`); then again with a state of one key (the step count), LangGraph's "
            "least cost whatever the state holds.",
            "",
            md_table(["segment", "median ms", "max ms", "target ms"], rows),
            "",
            md_table(["run", "terminal", "per-step overhead ms", "closing ms"], per_run),
            "",
        ]
    )


async def run(*, runs: int, out_dir: Path, command: str | None = None, log: bool = True) -> dict[str, Any]:
    """Measure; write ``overhead.json`` and ``overhead.md`` into ``out_dir``."""
    load_start = load_average()
    started = time.perf_counter()
    measured = await measure(runs, log=log)
    report = {
        "benchmark": "overhead",
        "environment": environment(None, command, load_start),
        **measured,
        "wall_s": round(time.perf_counter() - started, 1),
    }
    return save_report(out_dir, "overhead", report, to_markdown(report))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m benchmarks.overhead", description=__doc__.split("\n\n")[0]
    )
    parser.add_argument("--runs", type=int, default=7, help="runs of the demo goal (default 7)")
    parser.add_argument("--out", default=None, help="results root (default bench-results/)")
    args = parser.parse_args(argv)
    if args.runs < 1:
        parser.error("--runs must be at least 1")
    out_dir = results_dir(args.out)
    command = "python -m benchmarks.overhead " + " ".join(shlex.quote(a) for a in (argv or sys.argv[1:]))
    report = asyncio.run(run(runs=args.runs, out_dir=out_dir, command=command.strip()))
    print(to_markdown(report))
    print(f"results: {out_dir}/overhead.json, {out_dir}/overhead.md")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
