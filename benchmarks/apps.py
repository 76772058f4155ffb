"""Application goals: the agent acting on real web applications, each goal checked in the application's database.

Two applications, both on 127.0.0.1 and both started here: Quillbox (``tests/apps/tracker``, an issue tracker
and wiki written for the tests in the manner of real ones) and Shopdesk (``tests/apps/shopdesk``, the Django
admin over a small shop project; Django is installed from the package index into a cached virtualenv on first
use). Every goal starts from a fresh copy of the seeded database and a fresh browser state. A goal is *done* when
the database holds exactly the requested change (nothing more, nothing lost), the answer holds the true value
and the browser ends where a navigation goal asked. A *false claim* is a ``goal_satisfied`` on a goal that is
not done. Runs use the offline planner with risky actions approved (``--yes``): the goals ask for the changes.

    python -m benchmarks.apps [--apps quillbox,shopdesk] [--goals NAME,NAME] [--quick] [--out DIR] [--write-docs]
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import shlex
import shutil
import sys
import tempfile
import time
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path
from typing import Any

from benchmarks import common
from benchmarks.fixture_goals import AGENT_SETTINGS as FIXTURE_SETTINGS
from tests.apps.shopdesk.project import AppUnavailable

APPS = ("quillbox", "shopdesk")
DOCS = common.REPO_ROOT / "docs" / "BENCHMARKS.md"

#: The fixture-goal settings (offline planner, loopback only, risky actions approved), with room for goals
#: of several parts (sign in, find the record, fill the form, save, read it again).
AGENT_SETTINGS: dict[str, Any] = {**FIXTURE_SETTINGS, "max_steps": 25, "max_seconds": 120.0}


@contextlib.contextmanager
def running(name: str) -> Iterator[Any]:
    """The application ``name`` on loopback (an :class:`tests.apps.harness.Application`) and its install time."""
    if name == "quillbox":
        from tests.apps.tracker.goals import running_tracker

        with running_tracker() as app:
            yield app, 0.0
    elif name == "shopdesk":
        from tests.apps.shopdesk.goals import running_shopdesk
        from tests.apps.shopdesk.project import ensure_installed

        _, _, install_s = ensure_installed()
        with running_shopdesk() as app:
            yield app, install_s
    else:
        raise ValueError(f"unknown application {name!r}; choose from {', '.join(APPS)}")


async def run_app_goal(session: Any, ctx: Any, app: Any, goal: Any) -> dict[str, Any]:
    """One goal on a fresh database and browser state; judged in the database. Never raises."""
    from agent.runner import run_goal

    row: dict[str, Any] = {"app": app.name, "name": goal.name, "kind": goal.kind, "goal": goal.goal}
    before = app.reset()
    t0 = time.perf_counter()
    result: dict[str, Any] = {}
    try:
        await session.reset()
        search = app.base_url + "/search?q={query}"
        session.options.search_url_template = search
        result = await asyncio.wait_for(
            run_goal(
                goal.goal,
                replace(ctx, search_url_template=search),
                start_url=app.base_url + goal.start,
                session=session,
            ),
            ctx.max_seconds + 60,
        )  # fmt: skip
        row["error"] = None
    except Exception as exc:  # noqa: BLE001 - a harness failure is recorded, never hidden
        row["error"] = f"{type(exc).__name__}: {str(exc)[:200]}"
    row["elapsed_s"] = round(time.perf_counter() - t0, 2)
    final_url = ""
    with contextlib.suppress(Exception):
        final_url = session.page.url
    problems = app.judge(goal, before, result.get("final_answer"), final_url)
    claimed = result.get("terminal_type") == "goal_satisfied"
    row.update(
        terminal_type=result.get("terminal_type"),
        terminal_reason=result.get("terminal_reason"),
        steps=result.get("steps"),
        final_answer=result.get("final_answer") or None,
        evidence=[e.get("quote") for e in result.get("evidence") or [] if isinstance(e, dict)][:3],
        final_url=final_url,
        problems=problems[:5],
        done=not problems and not row["error"],
        claimed=claimed,
        false_claim=claimed and bool(problems),
    )
    return row


def aggregate(rows: list[dict[str, Any]], apps: list[str], install: dict[str, float]) -> dict[str, Any]:
    per_app = {}
    for name in apps:
        mine = [r for r in rows if r["app_key"] == name]
        if not mine:
            continue
        claims = common.claim_figures((r["claimed"], r["done"]) for r in mine)
        per_app[name] = {
            **claims,
            "kinds": {
                k: f"{sum(r['done'] for r in mine if r['kind'] == k)}/{sum(r['kind'] == k for r in mine)}"
                for k in ("action", "answer", "navigation")
            },  # fmt: skip
            "mean_steps": round(sum(r.get("steps") or 0 for r in mine) / len(mine), 2),
            "elapsed_s": common.summary([r["elapsed_s"] for r in mine], 2),
            "harness_errors": sum(1 for r in mine if r.get("error")),
            "install_s": round(install.get(name, 0.0), 1),
        }
    overall = common.claim_figures((r["claimed"], r["done"]) for r in rows)
    overall["false_claim_goals"] = [f"{r['app_key']}: {r['name']}" for r in rows if r["false_claim"]]
    return {"per_app": per_app, "overall": overall}


def summary_line(o: dict[str, Any]) -> str:
    return common.claims_summary("application goals", o, success="done")


def to_markdown(report: dict[str, Any]) -> str:
    per_app = report["per_app"]
    lines = [
        common.environment_md(report["environment"]),
        "",
        common.md_table(
            [
                "application",
                "goals",
                "done",
                "actions / answers / navigation done",
                "goal_satisfied",
                "false claims",
                "mean steps",
                "median s per goal",
                "install s (this run)",
            ],
            [
                [
                    name,
                    f["runs"],
                    f"{f['success']} ({common.pct(f['success_rate'])})",
                    " / ".join(f["kinds"].values()),
                    f["claimed"],
                    f["false_claims"],
                    f["mean_steps"],
                    f["elapsed_s"]["median"],
                    f["install_s"],
                ]
                for name, f in per_app.items()
            ],
        ),  # fmt: skip
        "",
        f"{summary_line(report['overall'])}. Wall time {report['wall_s']} s.",
        *(f"Not run: {name} ({why})." for name, why in report.get("unavailable", {}).items()),
        "",
        common.md_table(
            [
                "application",
                "goal",
                "terminal",
                "done",
                "false claim",
                "steps",
                "s",
                "what the database check found",
            ],
            [
                [
                    r["app_key"],
                    r["goal"],
                    r.get("error") or f"{r['terminal_type']}/{r['terminal_reason']}",
                    r["done"],
                    r["false_claim"],
                    r["steps"],
                    common.fmt(r["elapsed_s"], 1),
                    (r["problems"] or ["-"])[0][:90],
                ]
                for r in report["goals"]
            ],
        ),  # fmt: skip
    ]
    return "\n".join(lines)


def select(app_goals: list[Any], names: list[str] | None, quick: bool, smoke: tuple[str, ...]) -> list[Any]:
    if names:
        return [g for g in app_goals if g.name in names]
    return [g for g in app_goals if g.name in smoke] if quick else list(app_goals)


def _smoke(name: str) -> tuple[str, ...]:
    if name == "quillbox":
        from tests.apps.tracker.goals import SMOKE_GOALS
    else:
        from tests.apps.shopdesk.goals import SMOKE_GOALS
    return SMOKE_GOALS


def _print_row(row: dict[str, Any]) -> None:
    mark = "FALSE" if row["false_claim"] else ("done " if row["done"] else "--   ")
    print(
        f"  {mark} {row['app_key']:8} {row.get('error') or row['terminal_type']}/{row['terminal_reason']} "
        f"{row['steps']} steps {common.fmt(row['elapsed_s'], 1)} s | {row['goal'][:80]}",
        flush=True,
    )


async def run(
    *,
    apps: list[str],
    out_dir: Path,
    names: list[str] | None = None,
    quick: bool = False,
    command: str | None = None,
    log: bool = True,
) -> dict[str, Any]:  # fmt: skip
    """Run the goals of ``apps``; write ``apps.json`` and ``apps.md`` into ``out_dir``."""
    from agent.config import load_context

    records = Path(tempfile.mkdtemp(prefix="wayfinder-bench-apps-"))
    ctx = load_context(env={}, overrides={**AGENT_SETTINGS, "record_dir": str(records / "runs")})
    started, load_start = time.perf_counter(), common.load_average()
    rows: list[dict[str, Any]] = []
    install: dict[str, float] = {}
    unavailable: dict[str, str] = {}
    user_agent = None
    session = await common.live_session(None, ctx, records / "browser")
    try:
        user_agent = await session.page.evaluate("() => navigator.userAgent")
        for key in apps:
            try:
                with running(key) as (app, install_s):
                    install[key] = install_s
                    for goal in select(app.goals, names, quick, _smoke(key)):
                        session = await common.live_session(session, ctx, records / "browser")
                        rows.append({"app_key": key, **await run_app_goal(session, ctx, app, goal)})
                        if log:
                            _print_row(rows[-1])
            except AppUnavailable as exc:
                unavailable[key] = str(exc)
                print(f"  {key}: not run ({exc})", flush=True)
    finally:
        await session.close()
    report = {
        "benchmark": "apps",
        "environment": common.environment(user_agent, command, load_start),
        "agent_settings": common.context_settings(ctx),
        **aggregate(rows, apps, install),
        "goals": rows,
        "unavailable": unavailable,
        "wall_s": round(time.perf_counter() - started, 1),
    }
    common.write_json(out_dir / "apps.json", report)
    (out_dir / "apps.md").write_text(to_markdown(report), encoding="utf-8")
    shutil.rmtree(records, ignore_errors=True)
    return report


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.apps", description=__doc__.split("\n\n")[0])
    parser.add_argument("--apps", default=",".join(APPS), help=f"comma list of: {', '.join(APPS)}")
    parser.add_argument("--goals", default=None, help="only these goal names (comma list)")
    parser.add_argument("--quick", action="store_true", help="the few goals `make test` runs")
    parser.add_argument("--out", default=None, help="results root (default bench-results/)")
    parser.add_argument("--write-docs", action="store_true", help="put the table into docs/BENCHMARKS.md")
    args = parser.parse_args(argv)
    apps = [a.strip() for a in args.apps.split(",") if a.strip()]
    unknown = [a for a in apps if a not in APPS]
    if unknown or not apps:
        parser.error(
            f"unknown application(s): {', '.join(unknown) or '(none)'}; choose from {', '.join(APPS)}"
        )
    names = [n.strip() for n in args.goals.split(",")] if args.goals else None
    out_dir = common.results_dir(args.out)
    command = (
        "python -m benchmarks.apps " + " ".join(shlex.quote(a) for a in (argv or sys.argv[1:]))
    ).strip()
    report = asyncio.run(run(apps=apps, out_dir=out_dir, names=names, quick=args.quick, command=command))
    if args.write_docs:  # the apps section of docs/BENCHMARKS.md, through the shared report machinery
        from benchmarks.report import update_doc

        update_doc(out_dir, DOCS)
    print(f"{summary_line(report['overall'])}; results: {out_dir}/apps.json, {out_dir}/apps.md")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
