"""MiniWoB++ with Wayfinder: the agent gets each task's instruction as its goal and acts on the task page.

The harness (this module) is the environment: it serves ``miniwob/html`` from the installed ``miniwob`` package on
127.0.0.1, and for each (task, seed) episode it

1. loads the task page (a fresh load for every episode) in one BrowserSession started once for the whole run;
2. hides the HUD with a stylesheet (``#reward-display`` with "Last reward / Time left", the click canvas, and the
   START cover that core.js shows again once an episode has ended - clicking it would start a new unseeded
   episode), then ``Math.seedrandom(seed); core.EPISODE_MAX_TIME = ...; core.startEpisodeReal()``;
3. wraps ``core.endEpisode`` (observation only: it calls the original) so the raw reward of the *first* end of
   the episode is kept and reported to Python through a binding, whatever the agent does afterwards;
4. reads the instruction with ``core.getUtterance()`` (``["utterance"]`` when it is a dict) and calls
   ``run_goal(utterance, ctx, session=session)`` with the offline rules planner, small budgets and a temporary
   record directory; the agent starts on the task page (no start URL) and sees whatever it observes there;
5. after the run, reads ``WOB_DONE_GLOBAL`` and the kept reward. Success = raw reward > 0 (BrowserGym's rule);
   strict success = raw reward == 1. An episode that never ended scores as a failure.

Nothing in ``agent/`` knows about MiniWoB: the agent gets only the goal and the page.

    python -m benchmarks.miniwob [--tasks all|quick|a,b,c] [--seeds 0-1|0,5,9] [--quick] [--keep-runs] [--out DIR]
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import shlex
import shutil
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from benchmarks.common import (
    context_settings,
    environment,
    fmt,
    load_average,
    memory_snapshot,
    results_dir,
    write_json,
)
from benchmarks.miniwob_report import aggregate, summary_line, to_markdown
from benchmarks.miniwob_tasks import (
    DEFAULT_SEEDS,
    NONDETERMINISTIC_TASKS,
    QUICK_TASKS,
    all_task_pages,
    dom_tasks,
    html_root,
    is_excluded,
)

#: Hidden by the harness: the reward/timer HUD, the click visualizer and the START cover (see the docstring).
HIDE_CSS = "#reward-display, #click-canvas, #sync-task-cover { display: none !important; }"

BINDING = "__wayfinderBenchEpisodeEnd"

#: Installed after the page loaded and before the episode starts. Keeps the first end of the episode.
HOOK_JS = (
    """(token) => {
  window.__benchToken = token;
  window.__benchEnd = null;
  if (!core.__benchWrapped) {
    const original = core.endEpisode;
    core.endEpisode = function () {
      const live = core.EP_TIMER !== null;  // core.js ignores every end after the first one
      const out = original.apply(this, arguments);
      if (live && window.__benchEnd === null) {
        window.__benchEnd = {
          raw: WOB_RAW_REWARD_GLOBAL, reward: WOB_REWARD_GLOBAL,
          reason: WOB_REWARD_REASON == null ? null : String(WOB_REWARD_REASON),
          t: Date.now(), token: window.__benchToken,
        };
        const report = window."""
    + BINDING
    + """;
        if (typeof report === 'function') report(window.__benchEnd).catch(() => {});
      }
      return out;
    };
    core.__benchWrapped = true;
  }
}"""
)

START_JS = """([seed, ms]) => {
  Math.seedrandom(seed);
  core.EPISODE_MAX_TIME = ms;
  core.startEpisodeReal();
}"""

UTTERANCE_JS = """() => {
  const u = core.getUtterance();
  return (u && typeof u === 'object') ? (u.utterance || '') : String(u || '');
}"""

READ_JS = """() => ({
  done: typeof WOB_DONE_GLOBAL === 'undefined' ? null : WOB_DONE_GLOBAL,
  raw: typeof WOB_RAW_REWARD_GLOBAL === 'undefined' ? null : WOB_RAW_REWARD_GLOBAL,
  first: window.__benchEnd || null,
})"""

#: Agent settings of every episode (on top of the shipped defaults; WAYFINDER_* variables are ignored).
AGENT_SETTINGS: dict[str, Any] = {
    "planner": "rules",
    "max_steps": 8,
    "max_seconds": 30.0,
    "confirm_policy": "auto",  # no person to ask: risky actions (e.g. "Delete") are approved
    "interactive": False,
    "screenshot_mode": "never",
    # The task pages are on loopback; a goal the agent reads as a web search must not leave the machine (it
    # would make results depend on the network). Refused navigations end as the agent decides.
    "allowed_domains": ["127.0.0.1"],
}


def parse_seeds(text: str) -> list[int]:
    """ "0-4" -> [0, 1, 2, 3, 4]; "3,7" -> [3, 7]. Non-negative integers only (seedrandom(5) and ('5') differ)."""
    seeds: list[int] = []
    for part in (p.strip() for p in text.split(",")):
        if not part:
            continue
        lo, sep, hi = part.partition("-")
        if not lo.isdigit() or (sep and not hi.isdigit()):
            raise ValueError(f"bad seed {part!r}: use non-negative integers, e.g. 0-4 or 0,5,9")
        seeds.extend(range(int(lo), int(hi) + 1) if sep else [int(lo)])
    if not seeds:
        raise ValueError("no seeds given")
    return list(dict.fromkeys(seeds))


def resolve_tasks(text: str, root: Path) -> list[str]:
    """ "all" (every DOM task; also "default"), "quick" or a comma list of task names."""
    key = text.strip().lower()
    if key == "quick":
        return list(QUICK_TASKS)
    if key in ("all", "default"):
        return dom_tasks(root)
    pages = set(all_task_pages(root))
    tasks = [t.strip() for t in text.split(",") if t.strip()]
    unknown = [t for t in tasks if t not in pages]
    if unknown:
        raise ValueError(f"no such MiniWoB task page: {', '.join(unknown)}")
    return list(dict.fromkeys(tasks))


class EndCollector:
    """Receives the first end of each episode from the page (through the binding), keyed by episode token."""

    def __init__(self) -> None:
        self.ends: dict[str, dict[str, Any]] = {}

    def __call__(self, _source: Any, data: Any) -> None:
        if isinstance(data, dict) and data.get("token"):
            self.ends.setdefault(str(data["token"]), data)


def _trace(run_dir: Path) -> list[dict[str, Any]]:
    path = run_dir / "trace.jsonl"
    records = []
    with contextlib.suppress(OSError):
        for line in path.read_text(encoding="utf-8").splitlines():
            with contextlib.suppress(ValueError):
                records.append(json.loads(line))
    return records


def _actions(records: list[dict[str, Any]], end_ts: float | None) -> tuple[list[dict[str, Any]], int]:
    """The browser actions the agent executed (from its trace), and how many started after the episode ended."""
    out, after = [], 0
    for rec in records:
        if rec.get("node") != "execute" or not isinstance(rec.get("action"), dict):
            continue
        action = rec["action"]
        result = rec.get("result") or {}
        args = action.get("args") or {}
        started = float(rec.get("ts") or 0) - float(rec.get("node_ms") or 0) / 1000
        late = end_ts is not None and started > end_ts
        after += late
        out.append(
            {
                "action": action.get("action"),
                "element_id": action.get("element_id"),
                "args": {k: (str(v)[:80]) for k, v in args.items()} if isinstance(args, dict) else {},
                "status": result.get("status"),
                "after_end": late,
            }
        )
    return out, after


__all__ = ["aggregate", "main", "parse_seeds", "resolve_tasks", "run", "run_episode", "to_markdown"]


def _clip(text: Any, n: int = 300) -> str | None:
    if text is None:
        return None
    text = str(text)
    return text if len(text) <= n else text[: n - 1] + "\u2026"


async def _start_session(ctx: Any, run_dir: Path, collector: EndCollector) -> Any:
    from agent.browser.session import BrowserSession

    options = ctx.browser_options(run_dir)
    options.allow_private = True  # the episodes are served on loopback and opened before each run starts
    session = await BrowserSession.start(options, run_dir)
    await session.context.expose_binding(BINDING, collector)
    return session


async def _only_first_tab(session: Any) -> Any:
    """Close tabs an earlier episode opened and make the first one active; the page episodes run in."""
    for page in list(session.context.pages)[1:]:
        with contextlib.suppress(Exception):
            await page.close()
    tabs = session.tabs()
    if tabs and not tabs[0]["active"]:
        await session.switch_tab(tabs[0]["id"])
    return await session.ensure_page()


async def run_episode(
    session: Any, collector: EndCollector, base_url: str, task: str, seed: int, ctx: Any, episode_ms: int
) -> dict[str, Any]:
    """One (task, seed) episode: start it, let the agent act, read the reward. Never raises."""
    from agent.runner import run_goal

    token = f"{task}:{seed}:{time.monotonic_ns()}"
    row: dict[str, Any] = {"task": task, "seed": seed, "utterance": None, "error": None}
    started = time.perf_counter()
    try:
        page = await _only_first_tab(session)
        await page.goto(f"{base_url}/miniwob/{task}.html", wait_until="load")
        await page.add_style_tag(content=HIDE_CSS)
        await page.evaluate(HOOK_JS, token)
        await page.evaluate(START_JS, [int(seed), int(episode_ms)])
        for _ in range(50):
            if await page.evaluate("() => typeof WOB_TASK_READY === 'undefined' || WOB_TASK_READY !== false"):
                break
            await asyncio.sleep(0.1)
        row["utterance"] = (await page.evaluate(UTTERANCE_JS)).strip()
        session.drain_events()
    except Exception as exc:  # noqa: BLE001 - a harness failure is recorded, never hidden
        row["error"] = f"episode start failed: {type(exc).__name__}: {_clip(exc, 200)}"
        return row
    row["start_ms"] = round((time.perf_counter() - started) * 1000, 1)
    if not row["utterance"]:
        row["error"] = "the task gave no instruction"
        return row

    agent_start = time.time()
    t0 = time.perf_counter()
    result: dict[str, Any] = {}
    try:
        result = await asyncio.wait_for(
            run_goal(row["utterance"], ctx, session=session), ctx.max_seconds + 90
        )
    except TimeoutError:
        row["error"] = "the agent run did not return within max_seconds + 90 s (harness stopped it)"
    except Exception as exc:  # noqa: BLE001
        row["error"] = f"run_goal raised {type(exc).__name__}: {_clip(exc, 200)}"
    row["elapsed_s"] = round(time.perf_counter() - t0, 2)

    state: dict[str, Any] = {}
    with contextlib.suppress(Exception):
        state = await asyncio.wait_for(session.page.evaluate(READ_JS), 5)
    first = collector.ends.get(token)
    row["end_source"] = "binding" if first is not None else None
    if first is None and isinstance(state.get("first"), dict) and state["first"].get("token") == token:
        first = state["first"]
        row["end_source"] = "page"
    end_ts = float(first["t"]) / 1000 if first and first.get("t") is not None else None
    raw = first.get("raw") if first else None
    row.update(
        {
            "ended": first is not None,
            "done_after_run": state.get("done"),
            "raw_reward": raw,
            "reward": first.get("reward") if first else None,
            "reward_reason": first.get("reason") if first else None,
            "success": raw is not None and raw > 0,
            "strict_success": raw is not None and raw == 1,
            "ended_after_s": round(end_ts - agent_start, 2) if end_ts else None,
            "terminal_type": result.get("terminal_type") or result.get("status"),
            "terminal_reason": result.get("terminal_reason"),
            "steps": result.get("steps"),
            "final_answer": _clip(result.get("final_answer")),
            "stop_reason": _clip(result.get("stop_reason")),
            "run_id": result.get("run_id"),
        }
    )
    run_dir = Path(result["run_dir"]) if result.get("run_dir") else None
    actions, after = _actions(_trace(run_dir), end_ts) if run_dir else ([], 0)
    row["actions"] = actions
    row["actions_after_end"] = after
    return row


async def run(
    *,
    tasks: list[str],
    seeds: list[int],
    out_dir: Path,
    keep_runs: bool = False,
    command: str | None = None,
    max_steps: int | None = None,
    max_seconds: float | None = None,
    episode_ms: int | None = None,
    log: bool = True,
) -> dict[str, Any]:
    """Run every (task, seed) episode; write ``miniwob.json`` and ``miniwob.md`` into ``out_dir``."""
    from agent.config import load_context
    from agent.util.static_server import StaticServer

    root = html_root()
    settings = dict(AGENT_SETTINGS)
    if max_steps is not None:
        settings["max_steps"] = int(max_steps)
    if max_seconds is not None:
        settings["max_seconds"] = float(max_seconds)
    records = Path(tempfile.mkdtemp(prefix="wayfinder-bench-miniwob-"))
    settings["record_dir"] = str(records / "runs")
    ctx = load_context(env={}, overrides=settings)
    episode_ms = int(episode_ms or (ctx.max_seconds + 30) * 1000)
    collector = EndCollector()
    started = time.perf_counter()
    load_start = load_average()
    episodes: list[dict[str, Any]] = []
    memory: list[dict[str, Any] | None] = []
    user_agent = None
    server = StaticServer(root).start()
    session = None
    try:
        session = await _start_session(ctx, records / "browser", collector)
        user_agent = await session.page.evaluate("() => navigator.userAgent")
        total = len(tasks) * len(seeds)
        for task in tasks:
            for seed in seeds:
                if not session.is_alive:
                    await session.close()
                    session = await _start_session(ctx, records / "browser", collector)
                row = await run_episode(session, collector, server.base_url, task, seed, ctx, episode_ms)
                episodes.append(row)
                if log:
                    mark = "ok " if row.get("success") else ("ERR" if row.get("error") else "-- ")
                    print(
                        f"  [{len(episodes):>3}/{total}] {mark} {task:28} seed {seed:<3} raw {fmt(row.get('raw_reward'))!s:5} "
                        f"{row.get('terminal_type') or row.get('error')}/{row.get('terminal_reason')} "
                        f"steps {row.get('steps')} {fmt(row.get('elapsed_s'), 2)} s  | {_clip(row.get('utterance'), 70)}",
                        flush=True,
                    )
            memory.append(memory_snapshot())
    finally:
        if session is not None:
            await session.close()
        server.stop()
    agg = aggregate(episodes, tasks)
    report = {
        "benchmark": "miniwob",
        "environment": environment(user_agent, command, load_start),
        "agent_settings": {k: v for k, v in context_settings(ctx).items() if k != "record_dir"},
        "harness": {
            "episode_max_time_ms": episode_ms,
            "hidden_css": HIDE_CSS,
            "reload_every_episode": True,
            "success_rule": "raw reward > 0 (BrowserGym); strict: raw reward == 1; never ended = failure",
            "nondeterministic_tasks_in_run": sorted(set(tasks) & NONDETERMINISTIC_TASKS),
            "excluded_tasks_in_run": sorted(t for t in tasks if is_excluded(t)),
        },
        "tasks": tasks,
        "seeds": seeds,
        **agg,
        "episodes": episodes,
        "memory_samples": memory,
        "wall_s": round(time.perf_counter() - started, 1),
    }
    write_json(out_dir / "miniwob.json", report)
    (out_dir / "miniwob.md").write_text(to_markdown(report), encoding="utf-8")
    if keep_runs:
        shutil.copytree(records / "runs", out_dir / "miniwob-runs", dirs_exist_ok=True)
    shutil.rmtree(records, ignore_errors=True)
    return report


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m benchmarks.miniwob", description=__doc__.split("\n\n")[0]
    )
    parser.add_argument(
        "--tasks", default=None, help="all (default: every DOM task) | quick | comma list of task names"
    )
    parser.add_argument(
        "--seeds", default=None, help=f"seeds, e.g. 0-4 or 0,5,9 (default {DEFAULT_SEEDS}; 0 with --quick)"
    )
    parser.add_argument("--quick", action="store_true", help="the smoke-test size: 2 tasks, seed 0")
    parser.add_argument("--max-steps", type=int, default=None, help="agent step budget (default 8)")
    parser.add_argument("--max-seconds", type=float, default=None, help="agent time budget (default 30)")
    parser.add_argument(
        "--keep-runs", action="store_true", help="copy the agent's run records into the results"
    )
    parser.add_argument("--list", action="store_true", help="print the task sets and exit")
    parser.add_argument("--out", default=None, help="results root (default bench-results/)")
    args = parser.parse_args(argv)
    try:
        root = html_root()
    except ModuleNotFoundError as exc:
        print(exc, file=sys.stderr)
        return 2
    if args.list:
        print("quick:", " ".join(QUICK_TASKS))
        print(f"all = default ({len(dom_tasks(root))} DOM tasks):", " ".join(dom_tasks(root)))
        excluded = [t for t in all_task_pages(root) if is_excluded(t)]
        print(f"excluded ({len(excluded)}: pixel/drag/drawing, unregistered):", " ".join(excluded))
        return 0
    try:
        tasks = resolve_tasks(args.tasks or ("quick" if args.quick else "all"), root)
        seeds = parse_seeds(args.seeds or ("0" if args.quick else DEFAULT_SEEDS))
    except ValueError as exc:
        parser.error(str(exc))
    out_dir = results_dir(args.out)
    command = (
        "python -m benchmarks.miniwob " + " ".join(shlex.quote(a) for a in (argv or sys.argv[1:]))
    ).strip()
    report = asyncio.run(
        run(
            tasks=tasks,
            seeds=seeds,
            out_dir=out_dir,
            keep_runs=args.keep_runs,
            command=command,
            max_steps=args.max_steps,
            max_seconds=args.max_seconds,
        )
    )
    print(f"{summary_line(report['overall'])}; results: {out_dir}/miniwob.json, {out_dir}/miniwob.md")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
