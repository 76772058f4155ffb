"""``python -m benchmarks``: observation side by side, graph overhead, MiniWoB++, the fixture goals and the
application goals, into one results directory, and (``--report``) the results sections and charts of
docs/BENCHMARKS.md.

    python -m benchmarks --report docs/BENCHMARKS.md   # what `make bench` runs
    python -m benchmarks --quick                       # the smoke-test size

Writes ``<out>/<UTC timestamp>/``: observe, overhead, miniwob, fixture_goals and apps (.json and .md each) and
summary.md (all tables).
"""

from __future__ import annotations

import argparse
import asyncio
import shlex
import sys
from pathlib import Path

from benchmarks import apps, fixture_goals, miniwob, observe, overhead
from benchmarks import report as results_doc
from benchmarks.common import results_dir
from benchmarks.miniwob_tasks import DEFAULT_SEEDS, html_root

#: Every benchmark, in the order they run.
BENCHMARKS = ("overhead", "observe", "miniwob", "fixtures", "apps")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks", description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="smoke-test size: a few pages, 2 MiniWoB tasks")
    parser.add_argument(
        "--only",
        default=None,
        metavar="NAMES",
        help=f"run only these benchmarks (comma-separated: {','.join(BENCHMARKS)})",
    )
    parser.add_argument("--runs", type=int, default=None, help="observation runs per page (default 7)")
    parser.add_argument("--no-peers", action="store_true", help="observation without browser-use")
    parser.add_argument(
        "--report", default=None, metavar="DOC", help="then update DOC's results sections and charts"
    )
    parser.add_argument("--tasks", default=None, help="MiniWoB tasks: all | quick | a,b,c")
    parser.add_argument("--seeds", default=None, help=f"MiniWoB seeds (default {DEFAULT_SEEDS})")
    parser.add_argument("--keep-runs", action="store_true", help="keep the agent's MiniWoB run records")
    parser.add_argument("--out", default=None, help="results root (default bench-results/)")
    args = parser.parse_args(argv)
    only = set(args.only.split(",")) if args.only else set(BENCHMARKS)
    if only - set(BENCHMARKS):
        parser.error(f"--only: unknown benchmark(s) {', '.join(sorted(only - set(BENCHMARKS)))}")
    # --quick leaves the application goals out (they have their own smoke test in `make test`)
    if args.quick and not args.only:
        only.discard("apps")
    command = ("python -m benchmarks " + " ".join(shlex.quote(a) for a in (argv or sys.argv[1:]))).strip()
    tasks = seeds = None
    if "miniwob" in only:
        try:
            root = html_root()
        except ModuleNotFoundError as exc:
            print(exc, file=sys.stderr)
            return 2
        try:
            tasks = miniwob.resolve_tasks(args.tasks or ("quick" if args.quick else "all"), root)
            seeds = miniwob.parse_seeds(args.seeds or ("0" if args.quick else DEFAULT_SEEDS))
        except ValueError as exc:
            parser.error(str(exc))
    runs = args.runs or (2 if args.quick else observe.DEFAULT_RUNS)
    out_dir = results_dir(args.out)
    print(f"Wayfinder benchmarks -> {out_dir}", flush=True)

    async def every_benchmark() -> tuple[list[str], list[str]]:
        parts, short = [], []
        # first: a step's own cost, before the observation benchmark has grown the process to a GB or more
        if "overhead" in only:
            print("graph overhead", flush=True)
            report = await overhead.run(runs=2 if args.quick else 7, out_dir=out_dir, command=command)
            parts.append(overhead.to_markdown(report))
            short.append(parts[-1])
        if "observe" in only:
            print(f"observation benchmark ({runs} runs per page)", flush=True)
            report = await observe.run(
                runs=runs, quick=args.quick, out_dir=out_dir, command=command, peers=not args.no_peers
            )
            parts.append(observe.to_markdown(report))
            short.append(parts[-1])
        if "miniwob" in only:
            print(f"MiniWoB++: {len(tasks)} task(s) x seeds {seeds}", flush=True)
            report = await miniwob.run(
                tasks=tasks, seeds=seeds, out_dir=out_dir, keep_runs=args.keep_runs, command=command
            )
            parts.append(miniwob.to_markdown(report))
            short.append(miniwob.to_markdown(report, per_task=False) + "\n(per-task table: miniwob.md)\n")
        if "fixtures" in only:
            goals = fixture_goals.select_goals(list(fixture_goals.SITES), args.quick)
            print(f"fixture goals: {len(goals)} goal(s)", flush=True)
            report = await fixture_goals.run(goals=goals, out_dir=out_dir, command=command)
            parts.append(fixture_goals.to_markdown(report))
            short.append(
                fixture_goals.summary_line(report["overall"]) + " (per-goal table: fixture_goals.md)\n"
            )
        if "apps" in only:
            print("application goals (Quillbox, the Django admin)", flush=True)
            report = await apps.run(apps=list(apps.APPS), out_dir=out_dir, quick=args.quick, command=command)
            parts.append(apps.to_markdown(report))
            short.append(apps.summary_line(report["overall"]) + " (per-goal table: apps.md)\n")
        return parts, short

    parts, short = asyncio.run(every_benchmark())
    (out_dir / "summary.md").write_text("\n\n".join(parts), encoding="utf-8")
    print()
    print("\n\n".join(short))
    print(f"results: {out_dir}")
    if args.report:
        written = results_doc.update_doc(out_dir, Path(args.report))
        print(f"{args.report}: sections {', '.join(written)}; charts in {Path(args.report).parent / 'bench'}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
