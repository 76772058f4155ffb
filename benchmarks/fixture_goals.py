"""Fixture goals: the goals the tests run on the fixture site, the demo store and the trap pages, each checked
against the site's own state or the true answer, to count successes and false claims.

A goal is *verified* when its check passes: the answer holds the true value, or the page is in the state the
goal asks for. A *false claim* is a run that ended ``goal_satisfied`` although its check fails. Trap goals
cannot be met on their page (the answer is not there, the button does nothing, the form rejects the input):
their check never passes, so any ``goal_satisfied`` there is a false claim.

Nothing in ``agent/`` knows about these goals; the agent gets the goal and a start page, as in any run.

    python -m benchmarks.fixture_goals [--quick] [--sites fixture,demo,trap] [--out DIR]
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import re
import shlex
import sys
import tempfile
import time
from collections.abc import Iterator
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from benchmarks.common import (
    REPO_ROOT,
    claim_figures,
    claims_summary,
    context_settings,
    environment,
    environment_md,
    fmt,
    live_session,
    load_average,
    md_table,
    pct,
    results_dir,
    write_json,
)

SITES = ("fixture", "demo", "trap")


@dataclass(frozen=True)
class Check:
    """How the harness tells whether a goal was met, from the site itself (never from the agent's words).

    kind: ``answer`` (the final answer holds ``expected`` as a whole token), ``text`` (the element at
    ``selector`` shows ``expected``), ``js`` (``expected`` is a JS function returning true in the page),
    ``url`` (the active page's URL contains ``expected``), ``frame_text`` (a child frame shows ``expected``),
    ``never`` (a trap: the goal cannot be met on this site).
    """

    kind: str
    expected: str = ""
    selector: str = ""

    def describe(self) -> str:
        if self.kind == "never":
            return "cannot be met on this page"
        where = f" {self.selector}" if self.selector else ""
        return f"{self.kind}{where}: {self.expected}"


@dataclass(frozen=True)
class FixtureGoal:
    site: str
    path: str
    goal: str
    check: Check
    settings: dict[str, Any] = field(default_factory=dict)


SELECTED_TEXT = (
    "() => { const s = document.querySelector('select'); return s.options[s.selectedIndex].text === '%s'; }"
)
ANY_INPUT = "() => [...document.querySelectorAll('input')].some(i => i.value === '%s')"

GOALS: list[FixtureGoal] = [
    # --- the fixture site (tests/site), the goals of tests/graph/test_runs.py ---------------------------
    FixtureGoal(
        "fixture",
        "/login.html",
        "log in as alice with password secret",
        Check("text", "Welcome, alice", "#status"),
    ),
    FixtureGoal(
        "fixture",
        "/login.html",
        "Please enter 'alice' as the username and 'secret' as the password, then press the Sign in button.",
        Check("text", "Welcome, alice", "#status"),
    ),
    FixtureGoal(
        "fixture",
        "/login.html",
        "log in as alice with password hunter2",
        Check("text", "Welcome, alice", "#status"),
    ),
    FixtureGoal(
        "fixture",
        "/shadow.html",
        "enter 12345 as the postcode and click Check delivery",
        Check("text", "Delivery available to 12345", "#result"),
    ),
    FixtureGoal("fixture", "/dialogs.html", "click Show alert", Check("text", "Alert closed", "#result")),
    FixtureGoal(
        "fixture",
        "/select.html",
        "select Canada from the Country dropdown",
        Check("js", SELECTED_TEXT % "Canada"),
    ),
    FixtureGoal(
        "fixture", "/buttons.html", "fill the coupon code with SAVE10", Check("js", ANY_INPUT % "SAVE10")
    ),
    FixtureGoal(
        "fixture",
        "/iframe.html",
        "sign up for the newsletter with ada@example.com",
        Check("frame_text", "ada@example.com"),
    ),
    FixtureGoal(
        "fixture", "/store.html", "what is the price of the reading lamp?", Check("answer", "$34.50")
    ),
    FixtureGoal("fixture", "/store.html", "How much does the Desk lamp cost?", Check("answer", "$24.99")),
    FixtureGoal(
        "fixture",
        "/store.html",
        "search the store for lamp and tell me how many products there are",
        Check("answer", "3"),
    ),
    FixtureGoal("fixture", "/infinite.html", "what is the title of post 57?", Check("answer", "Post 57")),
    FixtureGoal(
        "fixture",
        "/tabs.html",
        "open product details in a new tab and tell me the product name",
        Check("answer", "Trail Runner 2"),
    ),
    FixtureGoal("fixture", "/article.html", "search for kettles", Check("url", "/search.html?q=kettles")),
    FixtureGoal(
        "fixture",
        "/article.html?title=About+Wayfinder",
        "what is the title of the article?",
        Check("answer", "About Wayfinder"),
    ),
    # --- the demo store (agent/demo), its documented goals and facts ------------------------------------
    FixtureGoal(
        "demo",
        "/index.html",
        "Log in as demo with password wayfinder, then tell me the total of my last order.",
        Check("answer", "$59.33"),
    ),
    FixtureGoal(
        "demo",
        "/index.html",
        "Search the store for mugs and tell me how many results there are.",
        Check("answer", "3"),
    ),
    FixtureGoal("demo", "/index.html", "How many products cost less than $20?", Check("answer", "10")),
    FixtureGoal(
        "demo", "/index.html", "What is the price of the Cast Iron Skillet?", Check("answer", "$34.50")
    ),
    FixtureGoal(
        "demo",
        "/index.html",
        "Sign up for the newsletter with the email ada@example.com.",
        Check("text", "Thanks for subscribing", "#newsletter-message"),
    ),
    FixtureGoal(
        "demo",
        "/index.html",
        "Which Electronics product has the best rating?",
        Check("answer", "Noise-Cancelling Headphones"),
    ),
    FixtureGoal(
        "demo",
        "/index.html",
        "Add two Dot-Grid Notebook A5 to the cart and tell me the cart total.",
        Check("answer", "$27.80"),
    ),
    # --- the trap pages (tests/trust/pages): nothing there can honestly be claimed -----------------------
    FixtureGoal("trap", "/kettle.html", "How much is the Aurora glass kettle?", Check("never")),
    FixtureGoal(
        "trap",
        "/help-search.html?q=late+fees+for+overdue+books",
        "How much are the late fees for overdue books?",
        Check("never"),
    ),
    FixtureGoal(
        "trap",
        "/products/nimbus-backpack/returns",
        "What is the return policy for the Nimbus backpack?",
        Check("never"),
    ),
    FixtureGoal("trap", "/account/orders/4471", "check the status of my order 4471", Check("never")),
    FixtureGoal(
        "trap", "/newsletter.html", "Subscribe to the newsletter with jo@example.com", Check("never")
    ),
    FixtureGoal("trap", "/alerts.html", "press the Turn on price alerts button", Check("never")),
    FixtureGoal(
        "trap",
        "/contact.html",
        "enter jo@localhost as the email and 'Where is my parcel?' as the message, then click Send message",
        Check("never"),
    ),
    FixtureGoal(
        "trap",
        "/feedback.html",
        "write 'Great service, thanks!' in the comments and click Send feedback",
        Check("never"),
    ),
    FixtureGoal("trap", "/basket.html", "type 25 into the Quantity field", Check("never")),
    FixtureGoal(
        "trap",
        "/partners.html",
        "click Kayak rental prices at Lakeside Rentals and tell me the price of a kayak",
        Check("never"),
    ),
    FixtureGoal(
        "trap",
        "/shipping.html",
        "open the shipping rates and tell me how much express shipping costs",
        Check("answer", "$12.50"),
    ),
    # --- trap pages in other markup (tests/trust/pages/unseen): grids, rowspans, apps, soft 404s, late errors --
    FixtureGoal("trap", "/unseen/widgets.html", "what is the price of the Blue Widget?", Check("never")),
    FixtureGoal(
        "trap", "/unseen/widgets-priced.html", "How much is the Blue Widget?", Check("answer", "$25.00")
    ),
    FixtureGoal("trap", "/unseen/backpack.html", "What is the price of the Cobalt backpack?", Check("never")),
    FixtureGoal(
        "trap",
        "/unseen/plans.html",
        "What is the monthly price of the Team plan in North America?",
        Check("answer", "$32"),
    ),
    FixtureGoal(
        "trap", "/unseen/plans.html", "What does the Enterprise plan cost in Europe?", Check("never")
    ),
    FixtureGoal(
        "trap", "/unseen/products/halcyon-blender", "What does the Halcyon blender cost?", Check("never")
    ),
    FixtureGoal(
        "trap",
        "/unseen/jacket.html",
        "how many days until the fjord rain jacket is delivered",
        Check("never"),
    ),
    FixtureGoal("trap", "/unseen/sale.html", "When does the summer sale end?", Check("never")),
    FixtureGoal(
        "trap",
        "/unseen/reviews.html",
        "How many reviews does the Cobalt backpack have?",
        Check("answer", "128"),
    ),
    FixtureGoal("trap", "/unseen/signin.html", "log in as ada with password pw1", Check("never")),
    FixtureGoal(
        "trap",
        "/unseen/checkout.html",
        "type 4 Elm Street as the delivery address and click Place order",
        Check("never"),
    ),
    FixtureGoal(
        "trap", "/unseen/spa-lamp.html", "what is the price of the Arc desk lamp?", Check("answer", "$48.00")
    ),
]

#: Agent settings of every run (on top of the shipped defaults; WAYFINDER_* variables are ignored).
AGENT_SETTINGS: dict[str, Any] = {
    "planner": "rules",
    "max_steps": 12,
    "max_seconds": 60.0,
    "confirm_policy": "auto",  # no person to ask: risky clicks (send, subscribe) run, the check judges them
    "interactive": False,
    "screenshot_mode": "never",
    "action_timeout_s": 6.0,
    "navigation_timeout_s": 10.0,
    "allowed_domains": ["127.0.0.1"],  # nothing leaves the machine
}


def _answer_holds(answer: str | None, expected: str) -> bool:
    """``expected`` appears in the answer as a whole token ("3" is not found in "$34.50")."""
    if not answer:
        return False
    pattern = rf"(?<![\w.]){re.escape(expected)}(?![\w]|\.\d)"
    return re.search(pattern, answer, re.IGNORECASE) is not None


async def verify(check: Check, page: Any, result: dict[str, Any]) -> bool:
    """Does the site (or the true answer) agree that the goal was met? Never raises: an unreadable page is no."""
    try:
        if check.kind == "never":
            return False
        if check.kind == "answer":
            return _answer_holds(result.get("final_answer"), check.expected)
        if check.kind == "url":
            return check.expected in page.url
        if check.kind == "text":
            locator = page.locator(check.selector).first
            return check.expected in await locator.inner_text(timeout=2000)
        if check.kind == "js":
            return bool(await page.evaluate(check.expected))
        if check.kind == "frame_text":
            for frame in page.frames:
                if frame is not page.main_frame and check.expected in await frame.inner_text("body"):
                    return True
            return False
    except Exception:  # noqa: BLE001 - a page that cannot be read does not show the goal met
        return False
    raise ValueError(f"unknown check kind {check.kind!r}")


@contextlib.contextmanager
def serve_sites() -> Iterator[dict[str, str]]:
    """The three sites on 127.0.0.1: {site: base URL}."""
    from agent.demo.server import serve_demo
    from agent.util.static_server import StaticServer
    from tests.site_routes import ROUTES as FIXTURE_ROUTES
    from tests.trust.site import PAGES as TRAP_PAGES
    from tests.trust.site import ROUTES as TRAP_ROUTES

    servers = {
        "fixture": StaticServer(REPO_ROOT / "tests" / "site", routes=FIXTURE_ROUTES).start(),
        "demo": serve_demo(),
        "trap": StaticServer(TRAP_PAGES, routes=TRAP_ROUTES).start(),
    }
    try:
        yield {name: server.base_url for name, server in servers.items()}
    finally:
        for server in servers.values():
            server.stop()


async def run_goal_row(session: Any, ctx: Any, item: FixtureGoal, base: str) -> dict[str, Any]:
    """One goal on a fresh browser state (no cookies, storage or extra tabs). Never raises."""
    from agent.runner import run_goal

    row: dict[str, Any] = {"site": item.site, "path": item.path, "goal": item.goal}
    row["check"] = item.check.describe()
    t0 = time.perf_counter()
    result: dict[str, Any] = {}
    try:
        await session.reset()
        search = base + ("/help-search.html" if item.site == "trap" else "/search.html") + "?q={query}"
        run_ctx = replace(ctx, search_url_template=search, **item.settings)
        session.options.search_url_template = search  # a passed-in session keeps its own launch options
        result = await asyncio.wait_for(
            run_goal(item.goal, run_ctx, start_url=base + item.path, session=session), ctx.max_seconds + 60
        )
        row["error"] = None
    except Exception as exc:  # noqa: BLE001 - a harness failure is recorded, never hidden
        row["error"] = f"{type(exc).__name__}: {str(exc)[:200]}"
    row["elapsed_s"] = round(time.perf_counter() - t0, 2)
    verified = await verify(item.check, session.page, result) if not row["error"] else False
    claimed = result.get("terminal_type") == "goal_satisfied"
    row.update(
        terminal_type=result.get("terminal_type"),
        terminal_reason=result.get("terminal_reason"),
        steps=result.get("steps"),
        final_answer=(result.get("final_answer") or None),
        evidence_items=len(result.get("evidence") or []),
        claimed=claimed,
        verified=verified,
        false_claim=claimed and not verified,
    )
    return row


def aggregate(rows: list[dict[str, Any]]) -> dict[str, Any]:
    """Success and false claims overall and per site (harness errors are counted apart)."""
    scored = [r for r in rows if not r.get("error")]
    per_site = {
        site: claim_figures((r["claimed"], r["verified"]) for r in scored if r["site"] == site)
        for site in SITES
        if any(r["site"] == site for r in scored)
    }
    overall = claim_figures((r["claimed"], r["verified"]) for r in scored)
    overall["harness_errors"] = len(rows) - len(scored)
    overall["false_claim_goals"] = [f"{r['site']}: {r['goal']}" for r in scored if r["false_claim"]]
    return {"overall": overall, "per_site": per_site}


def summary_line(o: dict[str, Any]) -> str:
    return claims_summary("fixture goals", o)


def to_markdown(report: dict[str, Any]) -> str:
    o = report["overall"]
    lines = [
        "# Fixture goals (offline rules planner)",
        "",
        environment_md(report["environment"]),
        "",
        "Success = the goal's own check passes (the true answer is in the final answer, or the page is in the "
        "state the goal asks for). False claim = the run ended `goal_satisfied` and the check fails. Trap "
        "goals cannot be met on their page.",
        "",
        md_table(
            ["site", "goals", "success", "goal_satisfied", "false claims", "false-claim rate"],
            [
                [
                    site,
                    f["runs"],
                    f"{f['success']} ({pct(f['success_rate'])})",
                    f["claimed"],
                    f["false_claims"],
                    pct(f["false_claim_rate"]),
                ]
                for site, f in [*report["per_site"].items(), ("all", o)]
            ],
        ),
        "",
        f"Harness errors (excluded): {o['harness_errors']}. Wall time {report['wall_s']} s.",
        "",
        "## Per goal",
        "",
        md_table(
            ["site", "goal", "terminal", "verified", "false claim", "evidence", "answer"],
            [
                [
                    r["site"],
                    r["goal"],
                    r.get("error") or f"{r['terminal_type']}/{r['terminal_reason']}",
                    r["verified"],
                    r["false_claim"],
                    r["evidence_items"],
                    (r["final_answer"] or "")[:60],
                ]
                for r in report["goals"]
            ],
        ),
        "",
    ]
    return "\n".join(lines)


def select_goals(sites: list[str], quick: bool) -> list[FixtureGoal]:
    chosen = [g for g in GOALS if g.site in sites]
    if quick:  # the first goal of each site
        seen: set[str] = set()
        chosen = [g for g in chosen if not (g.site in seen or seen.add(g.site))]
    return chosen


async def run(
    *, goals: list[FixtureGoal], out_dir: Path, command: str | None = None, log: bool = True
) -> dict[str, Any]:
    """Run every goal; write ``fixture_goals.json`` and ``fixture_goals.md`` into ``out_dir``."""
    import shutil

    from agent.browser.session import BrowserSession
    from agent.config import load_context

    records = Path(tempfile.mkdtemp(prefix="wayfinder-bench-fixtures-"))
    ctx = load_context(env={}, overrides={**AGENT_SETTINGS, "record_dir": str(records / "runs")})
    started, load_start = time.perf_counter(), load_average()
    rows: list[dict[str, Any]] = []
    user_agent = None
    with serve_sites() as bases:
        session = await BrowserSession.start(ctx.browser_options(records / "browser"), records / "browser")
        try:
            user_agent = await session.page.evaluate("() => navigator.userAgent")
            for item in goals:
                session = await live_session(session, ctx, records / "browser")
                row = await run_goal_row(session, ctx, item, bases[item.site])
                rows.append(row)
                if log:
                    mark = "FALSE" if row["false_claim"] else ("ok   " if row["verified"] else "--   ")
                    print(
                        f"  [{len(rows):>2}/{len(goals)}] {mark} {item.site:7} "
                        f"{row.get('error') or row['terminal_type']}/{row.get('terminal_reason')} "
                        f"{fmt(row['elapsed_s'], 2)} s | {item.goal[:70]}",
                        flush=True,
                    )
        finally:
            await session.close()
    report = {
        "benchmark": "fixture_goals",
        "environment": environment(user_agent, command, load_start),
        "agent_settings": {k: v for k, v in context_settings(ctx).items() if k != "record_dir"},
        **aggregate(rows),
        "goals": rows,
        "wall_s": round(time.perf_counter() - started, 1),
    }
    write_json(out_dir / "fixture_goals.json", report)
    (out_dir / "fixture_goals.md").write_text(to_markdown(report), encoding="utf-8")
    shutil.rmtree(records, ignore_errors=True)
    return report


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m benchmarks.fixture_goals", description=__doc__.split("\n\n")[0]
    )
    parser.add_argument("--quick", action="store_true", help="one goal per site")
    parser.add_argument("--sites", default=",".join(SITES), help="comma list of: fixture, demo, trap")
    parser.add_argument("--out", default=None, help="results root (default bench-results/)")
    args = parser.parse_args(argv)
    sites = [s.strip() for s in args.sites.split(",") if s.strip()]
    unknown = [s for s in sites if s not in SITES]
    if unknown or not sites:
        parser.error(f"unknown site(s): {', '.join(unknown) or '(none)'}; choose from {', '.join(SITES)}")
    out_dir = results_dir(args.out)
    command = (
        "python -m benchmarks.fixture_goals " + " ".join(shlex.quote(a) for a in (argv or sys.argv[1:]))
    ).strip()
    report = asyncio.run(run(goals=select_goals(sites, args.quick), out_dir=out_dir, command=command))
    print(
        f"{summary_line(report['overall'])}; results: {out_dir}/fixture_goals.json, {out_dir}/fixture_goals.md"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
