"""Command line: ``python -m agent run | observe | resume | runs | demo``.

Exit codes: 0 goal_satisfied (or a successful command), 1 any other terminal, 2 usage/config errors.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
from dataclasses import replace
from pathlib import Path
from typing import Any

from agent.config import ConfigError, load_context
from agent.context import Context

EXIT_OK, EXIT_NOT_SATISFIED, EXIT_USAGE = 0, 1, 2


class _Parser(argparse.ArgumentParser):
    """argparse that exits with 2 and one clear line on usage errors."""

    def error(self, message: str) -> None:  # type: ignore[override]
        self.print_usage(sys.stderr)
        print(f"error: {message}", file=sys.stderr)
        raise SystemExit(EXIT_USAGE)


def _add_run_options(p: argparse.ArgumentParser) -> None:
    p.add_argument("--start-url", help="page to open before the first step")
    p.add_argument("--planner", choices=["auto", "rules", "openai"], help="planning backend (default: auto)")
    p.add_argument("--model", help="model name for the openai backend")
    p.add_argument("--base-url", help="OpenAI-compatible server URL (vLLM, Ollama, llama.cpp ...)")
    p.add_argument("--max-steps", type=int, help="most browser actions the run may take")
    p.add_argument("--max-seconds", type=float, help="wall-clock budget in seconds")
    p.add_argument("--headed", action="store_true", help="show the browser window")
    p.add_argument("--yes", action="store_true", help="approve risky actions without asking")
    p.add_argument("--no-input", action="store_true", help="never prompt (confirm denies, ask_user stops the run)")
    p.add_argument("--json", action="store_true", help="print one JSON object with the result")
    p.add_argument("--plain", action="store_true", help="plain progress lines (for logs and CI)")
    p.add_argument("--record-dir", help="where runs/<run_id>/ are written (default: runs)")
    p.add_argument("--config", help="YAML settings file")
    p.add_argument("--screenshots", choices=["never", "on_demand", "every_step"], help="screenshot mode")


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(prog="python -m agent", description="Wayfinder: a browser agent for plain-language goals.")
    sub = parser.add_subparsers(dest="command", required=True, parser_class=_Parser)

    run = sub.add_parser("run", help="carry out a goal in the browser")
    run.add_argument("goal", help='what to do, e.g. "log in as alice with password secret"')
    _add_run_options(run)

    obs = sub.add_parser("observe", help="print exactly what the model would see on a page")
    obs.add_argument("url")
    obs.add_argument("--json", action="store_true", help="print one JSON object")
    obs.add_argument("--screenshot", metavar="PATH", help="also save a screenshot with numbered badges")
    obs.add_argument("--goal", default="", help="goal used to rank elements when the page is large")
    obs.add_argument("--config", help="YAML settings file")

    res = sub.add_parser("resume", help="continue an interrupted, stopped or killed run")
    res.add_argument("run_id")
    res.add_argument("--record-dir", default=None)
    res.add_argument("--json", action="store_true")
    res.add_argument("--plain", action="store_true")
    res.add_argument("--yes", action="store_true", help="approve risky actions without asking")
    res.add_argument("--no-input", action="store_true")

    runs = sub.add_parser("runs", help="list recent runs and how they ended")
    runs.add_argument("--record-dir", default=None)
    runs.add_argument("--limit", type=int, default=20)
    runs.add_argument("--json", action="store_true")

    demo = sub.add_parser("demo", help="run a goal offline on the bundled demo site")
    demo.add_argument("goal", nargs="?", help="goal to run instead of the default demo goal")
    demo.add_argument("--json", action="store_true")
    demo.add_argument("--plain", action="store_true")
    demo.add_argument("--headed", action="store_true")
    demo.add_argument("--record-dir", help="where runs/<run_id>/ are written (default: runs)")
    return parser


def context_from_args(args: argparse.Namespace) -> Context:
    overrides: dict[str, Any] = {
        "start_url": getattr(args, "start_url", None),
        "planner": getattr(args, "planner", None),
        "model": getattr(args, "model", None),
        "base_url": getattr(args, "base_url", None),
        "max_steps": getattr(args, "max_steps", None),
        "max_seconds": getattr(args, "max_seconds", None),
        "record_dir": getattr(args, "record_dir", None),
        "screenshot_mode": getattr(args, "screenshots", None),
    }
    if getattr(args, "headed", False):
        overrides["headless"] = False
    if getattr(args, "yes", False):
        overrides["confirm_policy"] = "auto"
    ctx = load_context(config_file=getattr(args, "config", None), overrides=overrides)
    # A person at a terminal can answer confirm/ask_user prompts; otherwise they deny/stop (see confirm node).
    return replace(ctx, interactive=sys.stdin.isatty() and not getattr(args, "no_input", False))


# --------------------------------------------------------------------------------------------------------------
# output


def print_result(result: dict[str, Any], as_json: bool) -> None:
    if as_json:
        print(json.dumps(result, default=str))
        return
    terminal = f"{result.get('terminal_type') or result.get('status')}/{result.get('terminal_reason') or '-'}"
    print(f"\n{terminal}  steps={result.get('steps')}  {result.get('elapsed_s')}s  url={result.get('url')}")
    if result.get("final_answer"):
        print(f"answer: {result['final_answer']}")
    if result.get("stop_reason") and result.get("terminal_type") != "goal_satisfied":
        print(f"reason: {result['stop_reason']}")
    usage = result.get("usage") or {}
    if usage.get("calls"):
        print(f"model: {usage.get('calls')} calls, {usage.get('total_tokens')} tokens, ${usage.get('cost_usd', 0):.4f}")
    if result.get("run_dir"):
        print(f"records: {result['run_dir']}  (trace.jsonl, result.json, report.html)")


def exit_code(result: dict[str, Any]) -> int:
    return EXIT_OK if result.get("terminal_type") == "goal_satisfied" else EXIT_NOT_SATISFIED


def _progress_printer(plain: bool, as_json: bool):
    from agent.display import ProgressDisplay

    return ProgressDisplay(stream=sys.stderr, plain=plain or as_json or not sys.stderr.isatty())


def ask_in_terminal(payload: dict[str, Any]) -> Any:
    """Answer an interrupt at the terminal: confirm (approve/deny/edit) or a free-text question."""
    if payload.get("type") == "confirm":
        print(f"\n? {payload.get('question')}", file=sys.stderr)
        while True:
            answer = input("  approve / deny / edit [a/d/e]: ").strip().lower()
            if answer in ("a", "approve", "y", "yes"):
                return {"decision": "approve"}
            if answer in ("d", "deny", "n", "no", ""):
                return {"decision": "deny"}
            if answer in ("e", "edit"):
                raw = input("  new action as JSON (action, element_id, args): ")
                try:
                    return {"decision": "edit", "action": json.loads(raw)}
                except json.JSONDecodeError as exc:
                    print(f"  not valid JSON: {exc}", file=sys.stderr)
    question = payload.get("question") or "The agent has a question."
    print(f"\n? {question}", file=sys.stderr)
    return {"answer": input("  your answer: ")}


# --------------------------------------------------------------------------------------------------------------
# commands


async def cmd_run(args: argparse.Namespace) -> int:
    from agent.runner import run_goal

    ctx = context_from_args(args)
    display = _progress_printer(args.plain, args.json)
    display.start(args.goal)
    try:
        result = await run_goal(args.goal, ctx, on_event=display.on_event,
                                on_interrupt=ask_in_terminal if ctx.interactive else None)
    finally:
        display.stop()
    print_result(result, args.json)
    return exit_code(result)


async def cmd_resume(args: argparse.Namespace) -> int:
    from agent.runner import RunNotFoundError, resume_run

    record_dir = args.record_dir or load_context().record_dir
    interactive = sys.stdin.isatty() and not args.no_input
    overrides: dict[str, Any] = {"interactive": interactive}
    if args.yes:
        overrides["confirm_policy"] = "auto"
    display = _progress_printer(args.plain, args.json)
    display.start(f"resume {args.run_id}")
    try:
        result = await resume_run(args.run_id, record_dir=record_dir, overrides=overrides, on_event=display.on_event,
                                  on_interrupt=ask_in_terminal if interactive else None)
    except RunNotFoundError as exc:
        display.stop()
        print(f"error: {exc}", file=sys.stderr)
        return EXIT_USAGE
    display.stop()
    print_result(result, args.json)
    return exit_code(result)


def cmd_runs(args: argparse.Namespace) -> int:
    from agent.records import list_runs

    record_dir = Path(args.record_dir or load_context().record_dir)
    runs = list_runs(record_dir, limit=args.limit)
    if args.json:
        print(json.dumps(runs, default=str))
        return EXIT_OK
    if not runs:
        print(f"no runs under {record_dir}")
        return EXIT_OK
    for r in runs:
        terminal = r.get("terminal_type") or r.get("status") or "?"
        reason = r.get("terminal_reason") or ""
        goal = (r.get("goal") or "")[:70]
        print(f"{r['run_id']:<28} {terminal:<17} {reason:<22} {goal}")
    return EXIT_OK


async def cmd_observe(args: argparse.Namespace) -> int:
    from agent.dom.cli_support import observe_url

    ctx = load_context(config_file=args.config)
    code, output = await observe_url(args.url, json_output=args.json, screenshot=args.screenshot, goal=args.goal, ctx=ctx)
    stream = sys.stdout if code == 0 else sys.stderr
    print(output, file=stream)
    return code


async def cmd_demo(args: argparse.Namespace) -> int:
    from agent.demo.server import DEMO_GOAL, serve_demo
    from agent.runner import run_goal

    goal = args.goal or DEMO_GOAL
    server = serve_demo()
    try:
        ctx = load_context(overrides={"planner": "rules", "record_dir": args.record_dir,
                                      "headless": not args.headed, "screenshot_mode": "every_step"})
        ctx = replace(ctx, interactive=False, start_url=server.base_url + "/")
        display = _progress_printer(args.plain, args.json)
        if not args.json:
            print(f"Demo site on {server.base_url}/ (offline)\nGoal: {goal}", file=sys.stderr)
        display.start(goal)
        try:
            result = await run_goal(goal, ctx, on_event=display.on_event)
        finally:
            display.stop()
    finally:
        server.stop()
    print_result(result, args.json)
    return exit_code(result)


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        if args.command == "runs":
            return cmd_runs(args)
        handler = {"run": cmd_run, "resume": cmd_resume, "observe": cmd_observe, "demo": cmd_demo}[args.command]
        return asyncio.run(handler(args))
    except ConfigError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return EXIT_USAGE
    except KeyboardInterrupt:
        print("\nstopped; continue with: python -m agent resume <run_id>", file=sys.stderr)
        return 130
