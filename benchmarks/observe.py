"""Observation benchmark: what one observation costs and what it shows, page by page.

For each page: open it the way the agent does (a ``navigate`` action, which waits for the page to settle), then
observe it ``--runs`` times. Every run reloads the page and takes a *cold* observation (first look at a fresh
document, no previous observation) and a *warm* one (the same document again, with the previous observation, as
the agent does on its next step). Reported per page: median and p90 of both, the elements marked, shown and
omitted, the characters of the text the model gets, an approximate token count (chars / 4, not a tokenizer),
and the resident memory of Python, the Playwright driver and Chromium read from /proc.

Pages: the bundled demo site (``agent/demo/site``), the test fixture site (``tests/site``) and generated
listings of 500 and 2000 product cards (built here, deterministic). Settings are the agent's defaults
(``ObserveOptions.from_context`` of the shipped configuration).

    python -m benchmarks.observe [--runs N] [--quick] [--pages demo,fixture,listing] [--out DIR]
"""

from __future__ import annotations

import argparse
import asyncio
import html
import random
import re
import shlex
import shutil
import sys
import tempfile
import time
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, urlsplit

from benchmarks.common import (
    REPO_ROOT,
    approx_tokens,
    context_settings,
    environment,
    environment_md,
    load_average,
    md_table,
    memory_snapshot,
    peak_of,
    results_dir,
    summary,
    write_json,
)

#: Demo site pages (path relative to the site root).
DEMO_PAGES: tuple[str, ...] = (
    "index.html",
    "products.html",
    "product.html?id=1",
    "search.html?q=mug",
    "login.html",
    "account.html",
    "cart.html",
    "contact.html",
)

#: Fixture site pages that load on their own (no never-ending requests, no dialogs on load).
FIXTURE_PAGES: tuple[str, ...] = (
    "index.html",
    "article.html",
    "buttons.html",
    "cookies.html",
    "frame-form.html",
    "iframe.html",
    "login.html",
    "search.html",
    "select.html",
    "shadow.html",
    "store.html",
    "tabs.html",
    "observe/listing.html",
    "observe/form.html",
    "observe/hidden.html",
    "observe/occluded.html",
    "observe/shadow.html",
    "observe/crossorigin.html",
)

#: Generated listings: (card count, goal). The goal names a card far down the page, to see whether the
#: goal-aware ranking shows it; the no-goal runs show what a page without a goal hint costs.
LISTINGS: tuple[tuple[int, str], ...] = (
    (500, ""),
    (2000, ""),
    (2000, "What is the price of Product 1377?"),
)
QUICK_LISTINGS: tuple[tuple[int, str], ...] = ((500, ""),)

_WORDS = (
    "alpine canvas cedar copper delta ember field granite harbor indigo juniper kettle linen maple nimbus "
    "orchard pebble quartz river saddle timber umber velvet willow yarrow zephyr"
).split()
_CATEGORIES = ("Kitchen", "Outdoors", "Office", "Garden", "Electronics", "Books")


def listing_html(n: int, seed: int = 7) -> str:
    """A product listing of ``n`` cards (deterministic for a given seed): header, filters, cards, footer."""
    rng = random.Random(seed * 1_000_003 + n)
    cards = []
    for i in range(1, n + 1):
        name = f"Product {i:04d}"
        words = " ".join(rng.choice(_WORDS) for _ in range(8))
        price = rng.randint(199, 19999) / 100
        rating = rng.randint(10, 50) / 10
        category = rng.choice(_CATEGORIES)
        cards.append(
            f'<article class="card" id="p{i}"><img alt="{name}" width="80" height="80" '
            f'src="data:image/gif;base64,R0lGODlhAQABAAAAACw=">'
            f'<h3><a href="#p{i}">{name}</a></h3><p class="cat">{category}</p>'
            f'<p class="price">${price:.2f}</p><p class="rating">Rated {rating} of 5</p>'
            f'<p class="desc">{html.escape(words)}</p>'
            f'<button type="button" aria-label="Add {name} to cart">Add to cart</button></article>'
        )
    options = "".join(f"<option>{c}</option>" for c in _CATEGORIES)
    return (
        "<!doctype html><html lang='en'><head><meta charset='utf-8'>"
        f"<title>Listing of {n} products</title><style>"
        "body{font-family:sans-serif;margin:0} header,footer{padding:8px 16px;background:#eee}"
        "main{display:flex} aside{width:200px;padding:8px} "
        ".grid{display:grid;grid-template-columns:repeat(4,1fr);gap:8px;flex:1;padding:8px}"
        ".card{border:1px solid #ccc;padding:6px}</style></head><body>"
        "<header><a href='#'>Home</a> <a href='#'>Deals</a> <a href='#'>Account</a>"
        "<form role='search' onsubmit='return false'><input type='search' name='q' placeholder='Search products'>"
        "<button>Search</button></form></header><main><aside><h2>Filters</h2>"
        f"<label>Category <select name='category'><option value=''>All</option>{options}</select></label>"
        "<label><input type='checkbox' name='stock'> In stock only</label>"
        "<label>Max price <input type='number' name='max'></label></aside>"
        f"<section><h1>All products</h1><p>Showing {n} products</p><div class='grid'>{''.join(cards)}</div>"
        "</section></main><footer><a href='#'>About</a> <a href='#'>Contact</a> <a href='#'>Terms</a></footer>"
        "</body></html>"
    )


def _listing_route(handler: Any) -> tuple[int, dict[str, str], bytes]:
    query = parse_qs(urlsplit(handler.path).query)
    n = max(1, min(10_000, int((query.get("n") or ["500"])[0])))
    return 200, {"Content-Type": "text/html; charset=utf-8"}, listing_html(n).encode()


def _fixture_routes() -> dict:
    try:
        from tests.site_routes import ROUTES
    except ImportError:
        return {}
    return dict(ROUTES)


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


async def measure_page(session: Any, spec: dict[str, Any], runs: int, options: Any) -> dict[str, Any]:
    """Observe one page ``runs`` times (cold + warm each time); the page's row of the report."""
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
        "approx_tokens": approx_tokens(len(text)),
        "page_text_chars": len(last.get("page_text") or ""),
        "frames": len(last.get("frames") or []),
        "page_type": last.get("page_type"),
        "warm_new_elements_max": max(warm_new) if warm_new else None,
        "ids_stable_cold_to_warm": stable,
        "errors": sorted(set(errors)),
        "failed_observations": failed,
        "observe_errors": sorted(set(observe_errors)),
        "memory": memory_snapshot(),
    }
    if spec.get("cards"):
        shown = {int(m) for m in _CARD.findall(text)}
        row["cards_total"] = spec["cards"]
        row["cards_shown"] = len(shown)
        target = _CARD.search(goal)
        if target:
            row["goal_card_shown"] = int(target.group(1)) in shown
    return row


def page_specs(demo_url: str, fixture_url: str, gen_url: str, groups: set[str], quick: bool) -> list[dict]:
    specs: list[dict[str, Any]] = []
    if "demo" in groups:
        pages = DEMO_PAGES[:1] if quick else DEMO_PAGES
        specs += [{"group": "demo", "name": p, "url": f"{demo_url}/{p}"} for p in pages]
    if "fixture" in groups:
        pages = FIXTURE_PAGES[:1] if quick else FIXTURE_PAGES
        specs += [{"group": "fixture", "name": p, "url": f"{fixture_url}/{p}"} for p in pages]
    if "listing" in groups:
        for n, goal in QUICK_LISTINGS if quick else LISTINGS:
            name = f"listing-{n}" + (" (goal)" if goal else "")
            specs.append(
                {
                    "group": "listing",
                    "name": name,
                    "url": f"{gen_url}/listing?n={n}",
                    "goal": goal,
                    "cards": n,
                }
            )
    return specs


def to_markdown(report: dict[str, Any]) -> str:
    rows = []
    for r in report["pages"]:
        cards = f"{r['cards_shown']}/{r['cards_total']}" if "cards_total" in r else "-"
        if r.get("goal_card_shown") is not None:
            cards += " (target shown)" if r["goal_card_shown"] else " (target NOT shown)"
        mem = r.get("memory") or {}
        fails = r.get("failed_observations") or {}
        rows.append(
            [
                r["group"],
                r["page"],
                r["observe_cold_ms"]["median"],
                r["observe_cold_ms"]["p90"],
                r["observe_warm_ms"]["median"],
                r["observe_warm_ms"]["p90"],
                f"{fails.get('cold', 0)}/{fails.get('warm', 0)}",
                r["elements_marked"],
                r["elements_shown"],
                r["elements_omitted"],
                r["text_chars"],
                r["approx_tokens"],
                cards,
                mem.get("browser_pss_mb"),
            ]
        )
    head = [
        "group",
        "page",
        "cold ms med",
        "cold ms p90",
        "warm ms med",
        "warm ms p90",
        "unreadable cold/warm",
        "marked",
        "shown",
        "omitted",
        "chars",
        "~tokens",
        "cards shown",
        "Chromium PSS MB",
    ]
    peaks = report.get("memory_peaks") or {}
    return "\n".join(
        [
            "# Observation benchmark",
            "",
            environment_md(report["environment"]),
            "",
            f"{report['runs']} run(s) per page; each run reloads the page, then observes cold (fresh document) and "
            "warm (again, with the previous observation). Times are wall-clock ms around `observe()`. `~tokens` is "
            "chars/4, an approximation, not a tokenizer. `marked` = elements the marking pass found, `shown` = "
            "elements listed in the model's text, `omitted` = marked but left out. Chromium PSS is the summed "
            "proportional set size of the browser processes, read from /proc after the page's runs.",
            "",
            md_table(head, rows),
            "",
            "`unreadable` counts observations in which the marking pass failed (e.g. it hit the agent's "
            f"{report['settings']['observe_options'].get('frame_timeout_s')} s frame timeout) and the agent would "
            "have seen no elements; their time is included in the medians. Sizes come from a readable cold "
            "observation when there was one."
            + "".join(
                f"\n- {r['page']}: " + "; ".join(r["observe_errors"])
                for r in report["pages"]
                if r.get("observe_errors")
            ),
            "",
            f"Memory (largest sample after a page): Chromium PSS {peaks.get('browser_pss_mb')} MB "
            f"(RSS sum {peaks.get('browser_rss_mb')} MB), Playwright driver PSS {peaks.get('driver_pss_mb')} MB; "
            f"Python peak RSS {peaks.get('python_peak_mb')} MB. Total wall time: {report['wall_s']} s.",
            "",
        ]
    )


async def run(
    *,
    runs: int = 5,
    quick: bool = False,
    groups: set[str] | None = None,
    out_dir: Path | None = None,
    command: str | None = None,
) -> dict[str, Any]:
    """Run the observation benchmark; write ``observe.json`` and ``observe.md`` into ``out_dir``."""
    from agent.browser.session import BrowserSession
    from agent.config import load_context
    from agent.demo.server import serve_demo
    from agent.dom.options import ObserveOptions
    from agent.util.static_server import StaticServer

    groups = groups or {"demo", "fixture", "listing"}
    out_dir = out_dir or results_dir()
    ctx = load_context(env={})  # the shipped defaults; WAYFINDER_* variables do not change a benchmark
    options = ObserveOptions.from_context(ctx)
    started = time.perf_counter()
    load_start = load_average()
    demo = serve_demo()
    fixture = StaticServer(REPO_ROOT / "tests" / "site", routes=_fixture_routes()).start()
    gen_root = Path(tempfile.mkdtemp(prefix="wayfinder-bench-gen-"))
    gen = StaticServer(gen_root, routes={"/listing": _listing_route}).start()
    session = None
    try:
        browser_options = ctx.browser_options(gen_root / "run")
        browser_options.allow_private = True  # the measured pages are served on loopback
        session = await BrowserSession.start(browser_options, gen_root / "run")
        user_agent = await session.page.evaluate("() => navigator.userAgent")
        specs = page_specs(demo.base_url, fixture.base_url, gen.base_url, groups, quick)
        pages = []
        for spec in specs:
            row = await measure_page(session, spec, runs, options)
            pages.append(row)
            print(
                f"  observe {row['group']:8} {row['page']:28} cold {row['observe_cold_ms']['median']} ms "
                f"warm {row['observe_warm_ms']['median']} ms  {row['elements_marked']} marked "
                f"{row['elements_shown']} shown  {row['text_chars']} chars",
                flush=True,
            )
        samples = [row["memory"] for row in pages]
        memory_peaks = {
            key: peak_of(samples, key)
            for key in ("browser_pss_mb", "browser_rss_mb", "driver_pss_mb", "python_peak_mb")
        }
    finally:
        if session is not None:
            await session.close()
        for server in (demo, fixture, gen):
            server.stop()
        shutil.rmtree(gen_root, ignore_errors=True)
    env = environment(user_agent, command, load_start)
    report = {
        "benchmark": "observe",
        "environment": env,
        "settings": {
            "observe_options": {k: getattr(options, k) for k in vars(options)},
            "viewport": [ctx.viewport_width, ctx.viewport_height],
            "context": context_settings(ctx),
        },
        "runs": runs,
        "quick": quick,
        "approx_tokens_note": "approx_tokens = ceil(text_chars / 4); an approximation, no tokenizer used",
        "pages": pages,
        "memory_peaks": memory_peaks,
        "wall_s": round(time.perf_counter() - started, 1),
    }
    write_json(out_dir / "observe.json", report)
    (out_dir / "observe.md").write_text(to_markdown(report), encoding="utf-8")
    return report


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m benchmarks.observe", description=__doc__.split("\n\n")[0]
    )
    parser.add_argument("--runs", type=int, default=None, help="runs per page (default 5; 2 with --quick)")
    parser.add_argument("--quick", action="store_true", help="a few pages, 2 runs: the smoke-test size")
    parser.add_argument("--pages", default="demo,fixture,listing", help="groups: demo,fixture,listing")
    parser.add_argument("--out", default=None, help="results root (default bench-results/)")
    args = parser.parse_args(argv)
    runs = args.runs or (2 if args.quick else 5)
    if runs < 1:
        parser.error("--runs must be at least 1")
    groups = {g.strip() for g in args.pages.split(",") if g.strip()}
    unknown = groups - {"demo", "fixture", "listing"}
    if unknown:
        parser.error(f"unknown page group(s): {', '.join(sorted(unknown))}")
    out_dir = results_dir(args.out)
    command = "python -m benchmarks.observe " + " ".join(shlex.quote(a) for a in (argv or sys.argv[1:]))
    asyncio.run(run(runs=runs, quick=args.quick, groups=groups, out_dir=out_dir, command=command.strip()))
    print(f"results: {out_dir}/observe.json, {out_dir}/observe.md")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
