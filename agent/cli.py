"""Command line: ``python -m agent run | observe | resume | runs | demo | batch`` (batch: :mod:`agent.batch`).

Exit codes: 0 goal_satisfied (or a successful command), 1 any other terminal (and a run left paused or
unfinished), 2 usage/config errors (bad flags, a bad ``--config`` file or setting, an unknown or busy run id,
a URL ``observe`` cannot open), 130 stopped with Ctrl-C, 143 stopped with SIGTERM.

An empty or blank goal is not a usage error: it is a run that ends ``goal_failed/invalid_goal`` (exit 1),
with its records, like the same goal given through the Python API or LangGraph Studio.

Human in the loop: at a terminal, a risky action is shown for approve / deny / edit and the agent's questions
(ask_user) are answered in free text. ``--yes`` approves risky actions without asking. With no terminal on
stdin, or ``--no-input``, risky actions are denied and a question ends the run (``user_input_required``).
Ctrl-C at a question (or during a run) closes the browser and leaves the run resumable:
``python -m agent resume RUN_ID`` asks again and goes on.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import signal
import sys
from dataclasses import replace
from pathlib import Path
from typing import Any

from agent.batch import add_batch_parser, cmd_batch
from agent.cli_output import (
    EXIT_NOT_SATISFIED,
    EXIT_OK,
    EXIT_SIGINT,
    EXIT_SIGTERM,
    EXIT_USAGE,
    exit_code,
    format_runs,
    make_display,
    one_line,
    print_result,
    resume_command,
)
from agent.cli_prompter import TerminalPrompter, answer_without_terminal
from agent.cli_settings import (  # noqa: F401 - context_from_args is part of the CLI's API
    checked_settings,
    context_from_args,
    model_line,
    observe_target,
    stdin_is_tty,
)
from agent.config import ConfigError, load_context, load_settings
from agent.settings_checks import check_browser_executable, check_cdp_endpoint
from agent.settings_rules import validate_setting

#: The run the current command drives (for the "how to resume" hint after Ctrl-C / SIGTERM).
_active: dict[str, Any] = {}


class _Parser(argparse.ArgumentParser):
    """argparse that exits with 2 and one clear line on usage errors."""

    def error(self, message: str) -> None:  # type: ignore[override]
        self.print_usage(sys.stderr)
        print(f"error: {message}", file=sys.stderr)
        raise SystemExit(EXIT_USAGE)


def _positive_int(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be at least 1, not {value}")
    return value


def _add_run_options(p: argparse.ArgumentParser) -> None:
    p.add_argument("--start-url", help="page to open before the first step")
    add_setting_options(p)
    p.add_argument(
        "--no-input", action="store_true", help="never prompt (confirm denies, ask_user stops the run)"
    )
    p.add_argument("--json", action="store_true", help="print one JSON object with the result")
    p.add_argument("--plain", action="store_true", help="plain progress lines (for logs and CI)")
    p.add_argument("--record-dir", help="where runs/<run_id>/ are written (default: runs)")
    p.add_argument("--run-id", help="id of the new run (default: generated; letters, digits, . _ -)")


def add_setting_options(p: argparse.ArgumentParser) -> None:
    """The flags that set a run's settings (shared by ``run`` and ``batch``)."""
    p.add_argument("--planner", metavar="{auto,rules,openai}", help="planning backend (default: auto)")
    p.add_argument("--model", help="model name for the openai backend")
    p.add_argument("--base-url", help="OpenAI-compatible server URL (vLLM, Ollama, llama.cpp ...)")
    p.add_argument(
        "--structured-output",
        metavar="{auto,json_schema,function_calling,json_mode,text}",
        help="how replies are structured (default: auto, negotiated with the server and remembered)",
    )
    p.add_argument("--judge", metavar="{rules,model}", help="who judges a success claim (default: rules)")
    # Setting values stay text here: agent.settings_rules validates flags, env and files alike.
    p.add_argument("--max-steps", help="most browser actions the run may take (>= 1)")
    p.add_argument("--max-seconds", help="wall-clock budget in seconds (> 0)")
    p.add_argument("--headed", action="store_true", help="show the browser window")
    _add_cdp_option(p)
    _add_safety_options(p)
    p.add_argument("--config", help="YAML settings file")
    p.add_argument("--screenshots", metavar="{never,on_demand,every_step}", help="screenshot mode")
    p.add_argument("--allowed-domains", metavar="A,B", help="only these domains (and subdomains) may load")
    p.add_argument("--blocked-domains", metavar="C,D", help="domains that may never load (wins over allowed)")
    p.add_argument(
        "--allow-local",
        action="store_true",
        help="let the browser reach loopback, private, link-local and cloud metadata addresses",
    )


def _add_cdp_option(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "--cdp-url",
        metavar="URL",
        help="drive a running browser (its DevTools http(s):// or ws(s):// URL) in a context of its own",
    )


def _add_safety_options(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "--yes", action="store_true", help="approve risky actions without asking (= --confirm yes)"
    )
    p.add_argument(
        "--confirm",
        metavar="{ask,yes,deny}",
        help="risky actions: ask (default), yes (approve without asking) or deny (never run them)",
    )
    p.add_argument(
        "--secret",
        action="append",
        metavar="NAME=VALUE[@domain]",
        help="a secret the model sees only as <secret:NAME>, typed only on its domain (repeatable)",
    )


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(
        prog="python -m agent", description="Wayfinder: a browser agent for plain-language goals."
    )
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
    _add_safety_options(res)
    res.add_argument(
        "--no-input", action="store_true", help="never prompt (confirm denies, ask_user stops the run)"
    )
    res.add_argument("--headed", action="store_true", help="show the browser window")
    _add_cdp_option(res)

    runs = sub.add_parser("runs", help="list recent runs and how they ended")
    runs.add_argument("--record-dir", default=None)
    runs.add_argument("--limit", type=_positive_int, default=20)
    runs.add_argument("--json", action="store_true")

    add_batch_parser(sub, add_setting_options)

    demo = sub.add_parser("demo", help="run a goal offline on the bundled demo site")
    demo.add_argument("goal", nargs="?", help="goal to run instead of the default demo goal")
    demo.add_argument("--json", action="store_true")
    demo.add_argument("--plain", action="store_true")
    demo.add_argument("--headed", action="store_true")
    demo.add_argument("--record-dir", help="where runs/<run_id>/ are written (default: runs)")
    return parser


# --------------------------------------------------------------------------------------------------------------
# commands


def _track(run_id: str, record_dir: str, as_json: bool, *, attached: bool = False) -> None:
    _active.clear()
    _active.update(run_id=run_id, record_dir=record_dir, as_json=as_json, attached=attached)


def _stop_on_sigterm() -> None:
    """SIGTERM cancels the command like Ctrl-C does: the browser is closed and the run stays resumable."""
    task = asyncio.current_task()
    if task is None:
        return
    with contextlib.suppress(NotImplementedError, RuntimeError, ValueError):
        asyncio.get_running_loop().add_signal_handler(signal.SIGTERM, task.cancel)


def _finish_run(result: dict[str, Any], args: argparse.Namespace, prompter: TerminalPrompter | None) -> int:
    print_result(result, args.json)
    if result.get("terminal_type"):
        return exit_code(result)
    if result.get("run_id"):
        print(
            f"{result.get('status') or 'unfinished'}; continue with: "
            f"{resume_command(result['run_id'], _active.get('record_dir'))}",
            file=sys.stderr,
        )
    return EXIT_SIGINT if prompter is not None and prompter.interrupted else EXIT_NOT_SATISFIED


async def cmd_run(args: argparse.Namespace) -> int:
    from agent.runner import RunBusyError, prepare_run, run_goal

    _stop_on_sigterm()
    ctx = checked_settings(args)
    if ctx.run_id and (Path(ctx.record_dir) / ctx.run_id).exists():
        print(
            f"error: run {ctx.run_id} already exists under {ctx.record_dir} (resume it, or pick another id)",
            file=sys.stderr,
        )
        return EXIT_USAGE
    ctx, run_dir = prepare_run(ctx)
    _track(str(ctx.run_id), ctx.record_dir, args.json, attached=bool(ctx.cdp_url))
    display = make_display(args.plain, args.json)
    prompter = (
        TerminalPrompter(display, auto_approve=ctx.confirm_policy == "auto") if ctx.interactive else None
    )
    line = model_line(ctx)
    if line:
        print(line, file=sys.stderr, flush=True)
    display.start(args.goal, run_id=ctx.run_id, run_dir=str(run_dir))
    try:
        result = await run_goal(args.goal, ctx, on_event=display.on_event, on_interrupt=prompter)
    except RunBusyError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return EXIT_USAGE
    finally:
        display.stop()
    return _finish_run(result, args, prompter)


def _goal_of(run_dir: Path) -> str:
    with contextlib.suppress(OSError, ValueError, AttributeError):
        return str(json.loads((run_dir / "run.json").read_text(encoding="utf-8")).get("goal") or "")
    return ""


async def cmd_resume(args: argparse.Namespace) -> int:
    from agent.runner import RunBusyError, RunDamagedError, RunNotFoundError, check_resumable, resume_run

    _stop_on_sigterm()
    record_dir = args.record_dir or load_context().record_dir
    try:
        check_resumable(args.run_id, record_dir)
    except (RunNotFoundError, RunBusyError, RunDamagedError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return EXIT_USAGE
    interactive = stdin_is_tty() and not args.no_input
    overrides: dict[str, Any] = {"interactive": interactive}
    if args.yes:
        overrides["confirm_policy"] = "auto"
    if args.confirm:
        overrides["confirm_policy"] = validate_setting("confirm_policy", args.confirm, "flag --confirm")
    # Secrets are never saved with a run: a resumed run takes them from --secret, WAYFINDER_SECRETS or defaults.
    overrides["secrets"] = (
        validate_setting("secrets", args.secret, "flag --secret") if args.secret else load_context().secrets
    )
    if args.headed:
        overrides["headless"] = False
    if args.cdp_url:
        overrides["cdp_url"] = validate_setting("cdp_url", args.cdp_url, "flag --cdp-url")
        check_cdp_endpoint(overrides["cdp_url"], "flag --cdp-url")
    attached = bool(overrides.get("cdp_url") or load_context().cdp_url)
    _track(args.run_id, record_dir, args.json, attached=attached)
    display = make_display(args.plain, args.json)
    auto_approve = overrides.get("confirm_policy") == "auto"
    prompter = TerminalPrompter(display, auto_approve=auto_approve) if interactive else None
    run_dir = Path(record_dir) / args.run_id
    display.start(f"resume: {_goal_of(run_dir) or args.run_id}", run_id=args.run_id, run_dir=str(run_dir))
    try:
        result = await resume_run(
            args.run_id,
            record_dir=record_dir,
            overrides=overrides,
            on_event=display.on_event,
            on_interrupt=prompter or answer_without_terminal,
        )
    except (RunNotFoundError, RunBusyError) as exc:  # lost a race with another process
        display.stop()
        print(f"error: {exc}", file=sys.stderr)
        return EXIT_USAGE
    finally:
        display.stop()
    return _finish_run(result, args, prompter)


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
    print("\n".join(format_runs(runs)))
    unfinished = [r for r in runs if r.get("status") in ("paused", "unfinished")]
    if unfinished:
        print(f"\ncontinue one with: {resume_command('RUN_ID', str(record_dir))}")
    return EXIT_OK


async def cmd_observe(args: argparse.Namespace) -> int:
    from agent.dom.cli_support import observe_url

    settings = load_settings(config_file=args.config)
    check_browser_executable(settings.context.browser_executable, settings.source_of("browser_executable"))
    code, output = await observe_url(
        observe_target(args.url),
        json_output=args.json,
        screenshot=args.screenshot,
        goal=args.goal,
        ctx=settings.context,
    )
    stream = sys.stdout if code == 0 else sys.stderr
    print(output, file=stream)
    return code


async def cmd_demo(args: argparse.Namespace) -> int:
    from agent.demo.server import DEMO_GOAL, serve_demo
    from agent.runner import prepare_run, run_goal

    _stop_on_sigterm()
    goal = args.goal or DEMO_GOAL
    ctx = checked_settings(args, planner="rules", headless=not args.headed, screenshot_mode="every_step")
    server = serve_demo()
    try:
        ctx = replace(ctx, interactive=False, start_url=server.base_url + "/")
        ctx, run_dir = prepare_run(ctx)
        _track(str(ctx.run_id), ctx.record_dir, args.json)
        display = make_display(args.plain, args.json)
        if not args.json:
            print(f"Demo site on {server.base_url}/ (offline)\nGoal: {goal}", file=sys.stderr)
        display.start(goal, run_id=ctx.run_id, run_dir=str(run_dir))
        try:
            result = await run_goal(goal, ctx, on_event=display.on_event)
        finally:
            display.stop()
    finally:
        server.stop()
    return _finish_run(result, args, None)


def _browser_fate() -> str:
    """What became of the browser when a run was stopped: ours is closed, an attached one keeps running."""
    if _active.get("attached"):
        return "the agent's tabs were closed and your browser keeps running"
    return "the browser was closed"


def _stopped(code: int, why: str) -> int:
    run_id = _active.get("run_id")
    if run_id:
        hint = resume_command(run_id, _active.get("record_dir"))
        if _active.get("as_json"):
            run_dir = str(Path(_active.get("record_dir") or "runs") / run_id)
            print(
                json.dumps(
                    {
                        "run_id": run_id,
                        "status": "unfinished",
                        "terminal_type": None,
                        "stop_reason": why,
                        "run_dir": run_dir,
                        "resume": hint,
                    }
                ),
                flush=True,
            )
        print(f"\n{why}; {_browser_fate()}. The run is resumable; continue with: {hint}", file=sys.stderr)
    else:
        print(f"\n{why}", file=sys.stderr)
    return code


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    _active.clear()
    try:
        if args.command == "runs":
            return cmd_runs(args)
        handler = {
            "run": cmd_run,
            "resume": cmd_resume,
            "observe": cmd_observe,
            "demo": cmd_demo,
            "batch": cmd_batch,
        }[args.command]
        return asyncio.run(handler(args))
    except ConfigError as exc:
        print(f"error: {one_line(str(exc))}", file=sys.stderr)
        return EXIT_USAGE
    except KeyboardInterrupt:
        return _stopped(EXIT_SIGINT, "stopped (Ctrl-C)")
    except asyncio.CancelledError:
        return _stopped(EXIT_SIGTERM, "stopped (SIGTERM)")
