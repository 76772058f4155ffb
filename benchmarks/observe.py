"""Observation benchmark, side by side: our ``observe`` beside browser-use's page state and Playwright's
``aria_snapshot()``, on the same pages in one run, interleaved.

For each page and each of ``--runs`` runs: our browser opens the page the way the agent does (a ``navigate``
action, which waits for the page to settle) and takes a *cold* observation (a fresh document) and a *warm* one
(the same document again with the previous observation, as on the agent's next step); Playwright's
``aria_snapshot()`` reads the same document; then browser-use's own browser opens the page and takes its page
state twice (its first and its next step). Reported per page: medians, ratios of our time to both peers',
tokens of each text the model would get (tiktoken o200k_base, offline), elements, and our counts; then the
off-screen recall over goal/page pairs (is a target named in the goal, far down the page, in the text with its
value?). Without browser-use installed the report says so and shows our and aria_snapshot's columns.

    python -m benchmarks.observe [--runs N] [--quick] [--pages demo,fixture,generated] [--out DIR]
"""

from __future__ import annotations

import argparse
import asyncio
import re
import shlex
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from benchmarks import pages as bench_pages
from benchmarks.common import (
    REPO_ROOT,
    context_settings,
    environment,
    load_average,
    memory_snapshot,
    peak_of,
    results_dir,
    save_report,
    summary,
)
from benchmarks.observe_report import to_markdown
from benchmarks.peers import aria_elements, aria_snapshot, browser_use_version, start_browser_use
from benchmarks.tokens import count_tokens

GROUPS = ("demo", "fixture", "generated")
DEFAULT_RUNS = 7


async def _open(session: Any, url: str) -> tuple[float, str]:
    from agent.browser.actions import execute_action

    started = time.perf_counter()
    result = await execute_action(session, {"action": "navigate", "element_id": None, "args": {"url": url}})
    session.drain_events()
    return (time.perf_counter() - started) * 1000, "" if result.get("status") == "success" else str(
        result.get("message") or result.get("error_type") or "navigation failed"
    )


_CARD = re.compile(r"Product (\d{4})")
_UNREADABLE = re.compile(r"\(page could not be read: ([^\n]*)\)")


def _unreadable(observation: dict[str, Any]) -> str | None:
    """The reason when the marking pass failed (timeout, crash): the observation then lists no elements."""
    match = _UNREADABLE.search(observation.get("text") or "")
    if match and not observation.get("elements"):
        return match.group(1)
    return None


def _median(values: list[float]) -> float | None:
    return round(statistics.median(values), 1) if values else None


def _ratio(ours: float | None, theirs: float | None) -> float | None:
    return round(ours / theirs, 2) if ours is not None and theirs else None


async def measure_page(
    session: Any, spec: dict[str, Any], runs: int, options: Any, peer: Any = None
) -> dict[str, Any]:
    """One page, ``runs`` times: ours cold + warm, aria_snapshot, browser-use first + next state; its row."""
    from agent.dom.observe import observe

    goal = spec.get("goal", "")
    cold_ms: list[float] = []
    warm_ms: list[float] = []
    load_ms: list[float] = []
    good: dict[str, Any] | None = None
    last: dict[str, Any] = {}
    errors: list[str] = []
    failed = {"cold": 0, "warm": 0}
    observe_errors: list[str] = []
    warm_new: list[int] = []
    stable = True
    aria_ms: list[float] = []
    aria_text = ""
    aria_errors: list[str] = []
    bu_cold: list[float] = []
    bu_warm: list[float] = []
    bu_text, bu_elements, bu_errors = "", 0, []
    for _ in range(runs):
        took, error = await _open(session, spec["url"])
        load_ms.append(took)
        if error:
            errors.append(error)
        started = time.perf_counter()
        cold = await observe(session, goal=goal, options=options)
        cold_ms.append((time.perf_counter() - started) * 1000)
        started = time.perf_counter()
        warm = await observe(session, goal=goal, previous=cold, options=options)
        warm_ms.append((time.perf_counter() - started) * 1000)
        for kind, obs in (("cold", cold), ("warm", warm)):
            problem = _unreadable(obs)
            if problem is not None:
                failed[kind] += 1
                observe_errors.append(problem)
        if _unreadable(cold) is None and _unreadable(warm) is None:
            warm_new.append(sum(1 for e in warm.get("elements") or [] if e.get("new")))
            stable = stable and sorted(e.get("id") for e in cold.get("elements") or []) == sorted(
                e.get("id") for e in warm.get("elements") or []
            )
        if good is None and _unreadable(cold) is None:
            good = dict(cold)
        last = dict(cold)
        took, text_now, aria_error = await aria_snapshot(session.page)
        if aria_error:
            aria_errors.append(aria_error)
        else:
            aria_ms.append(took)
            aria_text = text_now
        if peer is not None:
            try:
                await peer.open(spec["url"])
                took, bu_text, bu_elements = await peer.state()
                bu_cold.append(took)
                took, _, _ = await peer.state()
                bu_warm.append(took)
            except Exception as exc:  # noqa: BLE001 - the peer's failure is reported, not ours
                bu_errors.append(f"{type(exc).__name__}: {str(exc)[:160]}")
    last = good or last  # sizes come from a cold observation that could read the page, when there was one
    elements = last.get("elements") or []
    text = last.get("text") or ""
    row: dict[str, Any] = {
        "group": spec["group"],
        "page": spec["name"],
        "url": spec["url"],
        "goal": goal,
        "runs": runs,
        "load_ms": summary(load_ms),
        "observe_cold_ms": summary(cold_ms),
        "observe_warm_ms": summary(warm_ms),
        "elements_marked": len(elements),
        "elements_interactive": sum(1 for e in elements if e.get("interactive")),
        "elements_shown": len(last.get("kept_ids") or []),
        "elements_omitted": int(last.get("omitted") or 0),
        "text_chars": len(text),
        "tokens": count_tokens(text),
        "page_text_chars": len(last.get("page_text") or ""),
        "frames": len(last.get("frames") or []),
        "page_type": last.get("page_type"),
        "warm_new_elements_max": max(warm_new) if warm_new else None,
        "ids_stable_cold_to_warm": stable,
        "errors": sorted(set(errors)),
        "failed_observations": failed,
        "observe_errors": sorted(set(observe_errors)),
        "memory": memory_snapshot(),
        "aria_ms": summary(aria_ms),
        "aria_tokens": count_tokens(aria_text),
        "aria_elements": aria_elements(aria_text),
        "aria_errors": sorted(set(aria_errors)),
        "browser_use": None
        if peer is None
        else {
            "cold_ms": summary(bu_cold),
            "warm_ms": summary(bu_warm),
            "tokens": count_tokens(bu_text),
            "elements": bu_elements,
            "errors": sorted(set(bu_errors)),
        },
    }
    cold, warm = _median(cold_ms), _median(warm_ms)
    row["ratios"] = {
        "cold_to_aria": _ratio(cold, _median(aria_ms)),
        "warm_to_aria": _ratio(warm, _median(aria_ms)),
        "cold_to_browser_use": _ratio(cold, _median(bu_cold)),
        "warm_to_browser_use": _ratio(warm, _median(bu_warm)),
    }
    row["_texts"] = {"ours": text, "aria": aria_text, "browser_use": bu_text}
    if spec.get("cards"):
        shown = {int(m) for m in _CARD.findall(text)}
        row["cards_total"] = spec["cards"]
        row["cards_shown"] = len(shown)
        target = _CARD.search(goal)
        if target:
            row["goal_card_shown"] = int(target.group(1)) in shown
    return row


async def measure_recall(
    session: Any, gen_url: str, options: Any, texts: dict[str, dict[str, str]], quick: bool
) -> dict[str, Any]:
    """Each pair: our cold observation with the pair's goal, and the peers' text of that page (they take no
    goal); a system recalls the target when its text holds the target's name and value."""
    from agent.dom.observe import observe

    paths = {"listing-500": "/listing?n=500", "listing-2000": "/listing?n=2000", "article-8000": "/article"}
    rows = []
    opened = None
    for pair in bench_pages.recall_pairs(quick):
        if opened != pair.page:
            await _open(session, gen_url + paths[pair.page])
            opened = pair.page
        observation = await observe(session, goal=pair.goal, options=options)
        ours = observation.get("text") or ""
        peer_texts = texts.get(pair.page) or {}
        rows.append(
            {
                "page": pair.page,
                "goal": pair.goal,
                "name": pair.name,
                "value": pair.value,
                "ours": bench_pages.recalled(ours, pair),
                "ours_tokens": count_tokens(ours),
                "aria": bench_pages.recalled(peer_texts.get("aria", ""), pair) if peer_texts else None,
                "browser_use": bench_pages.recalled(peer_texts["browser_use"], pair)
                if peer_texts.get("browser_use")
                else None,
            }
        )

    def rate(key: str) -> float | None:
        seen = [r[key] for r in rows if r[key] is not None]
        return round(sum(seen) / len(seen), 3) if seen else None

    return {
        "pairs": rows,
        "ours": rate("ours"),
        "aria": rate("aria"),
        "browser_use": rate("browser_use"),
    }


async def run(
    *,
    runs: int = DEFAULT_RUNS,
    quick: bool = False,
    groups: set[str] | None = None,
    out_dir: Path | None = None,
    command: str | None = None,
    peers: bool = True,
) -> dict[str, Any]:
    """Run the observation benchmark; write ``observe.json`` and ``observe.md`` into ``out_dir``."""
    from agent.browser.launch import resolve_executable
    from agent.browser.session import BrowserSession
    from agent.config import load_context
    from agent.demo.server import serve_demo
    from agent.dom.options import ObserveOptions
    from agent.util.static_server import StaticServer

    groups = groups or set(GROUPS)
    out_dir = out_dir or results_dir()
    ctx = load_context(env={})  # the shipped defaults; WAYFINDER_* variables do not change a benchmark
    options = ObserveOptions.from_context(ctx)
    started = time.perf_counter()
    load_start = load_average()
    count_tokens("")  # the tokenizer table is provisioned (offline) before anything is timed
    demo = serve_demo()
    fixture = StaticServer(REPO_ROOT / "tests" / "site", routes=bench_pages.fixture_routes()).start()
    gen_root = Path(tempfile.mkdtemp(prefix="wayfinder-bench-gen-"))
    gen = StaticServer(gen_root, routes=bench_pages.generated_routes()).start()
    session = peer = None
    peer_note = "not asked for (--no-peers)"
    recall: dict[str, Any] = {}
    try:
        browser_options = ctx.browser_options(gen_root / "run")
        browser_options.allow_private = True  # the measured pages are served on loopback
        session = await BrowserSession.start(browser_options, gen_root / "run")
        user_agent = await session.page.evaluate("() => navigator.userAgent")
        if peers:
            peer, peer_note = await start_browser_use(
                resolve_executable(ctx.browser_executable), (ctx.viewport_width, ctx.viewport_height)
            )
        specs = bench_pages.page_specs(demo.base_url, fixture.base_url, gen.base_url, groups, quick)
        rows, texts = [], {}
        for spec in specs:
            row = await measure_page(session, spec, runs, options, peer)
            texts[spec["name"]] = {k: v for k, v in row.pop("_texts").items() if k != "ours"}
            rows.append(row)
            bu = row["browser_use"] or {}
            print(
                f"  observe {row['page'][:30]:30} cold {row['observe_cold_ms']['median']} warm "
                f"{row['observe_warm_ms']['median']} ms, aria {row['aria_ms']['median']} ms, browser-use "
                f"{(bu.get('cold_ms') or {}).get('median')} ms; tokens {row['tokens']} / {row['aria_tokens']} / "
                f"{bu.get('tokens')}",
                flush=True,
            )
        if "generated" in groups:
            recall = await measure_recall(session, gen.base_url, options, texts, quick)
        memory_peaks = {
            key: peak_of([row["memory"] for row in rows], key)
            for key in ("browser_pss_mb", "browser_rss_mb", "driver_pss_mb", "python_peak_mb")
        }
    finally:
        if peer is not None:
            await peer.stop()
        if session is not None:
            await session.close()
        for server in (demo, fixture, gen):
            server.stop()
        shutil.rmtree(gen_root, ignore_errors=True)
    report = {
        "benchmark": "observe",
        "environment": {**environment(user_agent, command, load_start), "browser_use": browser_use_version()},
        "settings": {
            "observe_options": {k: getattr(options, k) for k in vars(options)},
            "viewport": [ctx.viewport_width, ctx.viewport_height],
            "context": context_settings(ctx),
        },
        "runs": runs,
        "quick": quick,
        "tokenizer": "tiktoken o200k_base (table from bpe-openai, offline)",
        "browser_use_measured": peer is not None,
        "browser_use_note": None if peer is not None else peer_note,
        "pages": rows,
        "recall": recall,
        "memory_peaks": memory_peaks,
        "wall_s": round(time.perf_counter() - started, 1),
    }
    return save_report(out_dir, "observe", report, to_markdown(report))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m benchmarks.observe", description=__doc__.split("\n\n")[0]
    )
    parser.add_argument(
        "--runs", type=int, default=None, help=f"runs per page (default {DEFAULT_RUNS}; 2 with --quick)"
    )
    parser.add_argument("--quick", action="store_true", help="a few pages, 2 runs: the smoke-test size")
    parser.add_argument("--pages", default=",".join(GROUPS), help="groups: " + ",".join(GROUPS))
    parser.add_argument("--no-peers", action="store_true", help="leave browser-use out (aria_snapshot stays)")
    parser.add_argument("--out", default=None, help="results root (default bench-results/)")
    args = parser.parse_args(argv)
    runs = args.runs or (2 if args.quick else DEFAULT_RUNS)
    if runs < 1:
        parser.error("--runs must be at least 1")
    groups = {g.strip() for g in args.pages.split(",") if g.strip()}
    unknown = groups - set(GROUPS)
    if unknown:
        parser.error(f"unknown page group(s): {', '.join(sorted(unknown))}")
    out_dir = results_dir(args.out)
    command = "python -m benchmarks.observe " + " ".join(shlex.quote(a) for a in (argv or sys.argv[1:]))
    report = asyncio.run(
        run(
            runs=runs,
            quick=args.quick,
            groups=groups,
            out_dir=out_dir,
            command=command.strip(),
            peers=not args.no_peers,
        )
    )
    print(to_markdown(report))
    print(f"results: {out_dir}/observe.json, {out_dir}/observe.md")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
