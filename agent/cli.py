"""Command line: ``python -m agent run | observe | resume | runs | demo``.

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
import os
import shlex
import signal
import sys
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path
from typing import Any, TextIO

from agent.cli_settings import (  # noqa: F401 - context_from_args is part of the CLI's API
    checked_settings,
    context_from_args,
    observe_target,
    stdin_is_tty,
)
from agent.config import ConfigError, load_context, load_settings
from agent.context import Context
from agent.settings_checks import check_browser_executable
from agent.terminals import UNVERIFIED

EXIT_OK, EXIT_NOT_SATISFIED, EXIT_USAGE = 0, 1, 2
EXIT_SIGINT, EXIT_SIGTERM = 130, 143

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
    p.add_argument("--planner", metavar="{auto,rules,openai}", help="planning backend (default: auto)")
    p.add_argument("--model", help="model name for the openai backend")
    p.add_argument("--base-url", help="OpenAI-compatible server URL (vLLM, Ollama, llama.cpp ...)")
    p.add_argument("--judge", metavar="{rules,model}", help="who judges a success claim (default: rules)")
    # Setting values stay text here: agent.settings_rules validates flags, env and files alike.
    p.add_argument("--max-steps", help="most browser actions the run may take (>= 1)")
    p.add_argument("--max-seconds", help="wall-clock budget in seconds (> 0)")
    p.add_argument("--headed", action="store_true", help="show the browser window")
    p.add_argument("--yes", action="store_true", help="approve risky actions without asking")
    p.add_argument(
        "--no-input", action="store_true", help="never prompt (confirm denies, ask_user stops the run)"
    )
    p.add_argument("--json", action="store_true", help="print one JSON object with the result")
    p.add_argument("--plain", action="store_true", help="plain progress lines (for logs and CI)")
    p.add_argument("--record-dir", help="where runs/<run_id>/ are written (default: runs)")
    p.add_argument("--run-id", help="id of the new run (default: generated; letters, digits, . _ -)")
    p.add_argument("--config", help="YAML settings file")
    p.add_argument("--screenshots", metavar="{never,on_demand,every_step}", help="screenshot mode")


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
    res.add_argument("--yes", action="store_true", help="approve risky actions without asking")
    res.add_argument(
        "--no-input", action="store_true", help="never prompt (confirm denies, ask_user stops the run)"
    )
    res.add_argument("--headed", action="store_true", help="show the browser window")

    runs = sub.add_parser("runs", help="list recent runs and how they ended")
    runs.add_argument("--record-dir", default=None)
    runs.add_argument("--limit", type=_positive_int, default=20)
    runs.add_argument("--json", action="store_true")

    demo = sub.add_parser("demo", help="run a goal offline on the bundled demo site")
    demo.add_argument("goal", nargs="?", help="goal to run instead of the default demo goal")
    demo.add_argument("--json", action="store_true")
    demo.add_argument("--plain", action="store_true")
    demo.add_argument("--headed", action="store_true")
    demo.add_argument("--record-dir", help="where runs/<run_id>/ are written (default: runs)")
    return parser


# --------------------------------------------------------------------------------------------------------------
# output


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
    if result.get("final_answer") and result.get("terminal_type") == "goal_satisfied":
        print(f"answer: {result['final_answer']}")
    if result.get("terminal_reason") == UNVERIFIED:
        found = f" (found: {result['candidate_answer']})" if result.get("candidate_answer") else ""
        missing = "; ".join(result.get("missing") or []) or result.get("stop_reason") or "no evidence"
        print(f"Not verified: {missing}{found}")
    if result.get("question") and not result.get("terminal_type"):
        print(f"waiting for: {result['question']}")
    if (
        result.get("stop_reason")
        and result.get("terminal_type") != "goal_satisfied"
        and (result.get("terminal_reason") != UNVERIFIED)
    ):
        print(f"reason: {result['stop_reason']}")
    usage = result.get("usage") or {}
    if usage.get("calls"):
        print(
            f"model: {usage.get('calls')} calls, {usage.get('total_tokens')} tokens, ${usage.get('cost_usd', 0):.4f}"
        )
    if result.get("run_dir"):
        print(f"records: {result['run_dir']}  (trace.jsonl, result.json, report.html)")


def exit_code(result: dict[str, Any]) -> int:
    return EXIT_OK if result.get("terminal_type") == "goal_satisfied" else EXIT_NOT_SATISFIED


def make_display(plain: bool, as_json: bool):
    from agent.display import ProgressDisplay, wants_plain

    return ProgressDisplay(
        stream=sys.stderr,
        plain=wants_plain(plain=plain, as_json=as_json, stream=sys.stderr, term=os.environ.get("TERM")),
    )


# --------------------------------------------------------------------------------------------------------------
# questions at the terminal


@contextlib.contextmanager
def _ctrl_c_raises() -> Iterator[None]:
    """While blocked reading a line, let Ctrl-C raise KeyboardInterrupt at once.

    asyncio's own SIGINT handler only cancels the main task, which cannot happen while the event loop's thread
    is blocked in ``readline``; the default handler interrupts the read itself.
    """
    try:
        previous = signal.signal(signal.SIGINT, signal.default_int_handler)
    except ValueError:  # not the main thread
        yield
        return
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)


class TerminalPrompter:
    """Answers the graph's interrupts at the terminal: confirm (approve / deny / edit) and ask_user (free text).

    Questions go to ``out`` (stderr), answers come from ``stdin``: stdout stays clean for ``--json``. Ctrl-C at
    a question returns None (the run stays paused and resumable) and sets ``interrupted``; end of input denies a
    risky action and, at a question, ends the run.
    """

    def __init__(
        self,
        display: Any = None,
        *,
        stdin: TextIO | None = None,
        out: TextIO | None = None,
        auto_approve: bool = False,
    ):
        self.display = display
        self.stdin = stdin or sys.stdin
        self.out = out or sys.stderr
        self.auto_approve = auto_approve
        self.interrupted = False

    def __call__(self, payload: dict[str, Any]) -> Any:
        if payload.get("type") == "confirm" and self.auto_approve:
            return {"decision": "approve"}
        paused = self.display.paused() if self.display is not None else contextlib.nullcontext()
        with paused:
            try:
                with _ctrl_c_raises():
                    if payload.get("type") == "confirm":
                        return self._confirm(payload)
                    return self._ask(payload)
            except KeyboardInterrupt:
                self.interrupted = True
                self._say("\n(stopped at the question: the run is paused and can be resumed)")
                return None

    def _say(self, text: str) -> None:
        print(text, file=self.out, flush=True)

    def _read(self, prompt: str) -> str | None:
        """One line without its newline; None at end of input."""
        self.out.write(prompt)
        self.out.flush()
        line = self.stdin.readline()
        if line == "":
            return None
        return line.rstrip("\r\n")

    def _confirm(self, payload: dict[str, Any]) -> dict[str, Any]:
        action = payload.get("action") or {}
        what = " ".join(str(p) for p in (action.get("action"), payload.get("target")) if p)
        self._say(f"\n? Allow {what}?" if what else f"\n? {payload.get('question') or 'Allow this action?'}")
        for reason in payload.get("reasons") or []:
            self._say(f"    why:    {reason}")
        if action.get("args"):
            self._say(f"    args:   {json.dumps(action.get('args'), ensure_ascii=False)[:200]}")
        if payload.get("url"):
            self._say(f"    page:   {payload['url']}")
        while True:
            answer = self._read("  approve / deny / edit [a/d/e] (Enter = deny): ")
            if answer is None:
                self._say("")
                return {"decision": "deny", "reason": "because the input ended before an answer"}
            word = answer.strip().lower()
            if word in ("a", "approve", "y", "yes"):
                return {"decision": "approve"}
            if word in ("d", "deny", "n", "no", ""):
                return {"decision": "deny"}
            if word in ("e", "edit"):
                edited = self._edit(action)
                if edited is not None:
                    return {"decision": "edit", "action": edited}
                continue
            self._say(f"  please answer a, d or e (not {answer!r})")

    def _edit(self, action: dict[str, Any]) -> dict[str, Any] | None:
        example = json.dumps({k: action.get(k) for k in ("action", "element_id", "args")}, ensure_ascii=False)
        self._say(f"  current: {example}")
        raw = self._read("  new action as JSON (Enter = back): ")
        if not raw or not raw.strip():
            return None
        try:
            value = json.loads(raw)
        except json.JSONDecodeError as exc:
            self._say(f"  not valid JSON: {exc}")
            return None
        if not isinstance(value, dict):
            self._say("  the action must be a JSON object")
            return None
        return value

    def _ask(self, payload: dict[str, Any]) -> dict[str, Any]:
        self._say(f"\n? {payload.get('question') or 'The agent has a question.'}")
        answer = self._read("  your answer (Ctrl-D = stop the run): ")
        if answer is None:
            self._say("")
            return {"stop": True, "reason": "the input ended before an answer"}
        return {"answer": answer}


def answer_without_terminal(payload: dict[str, Any]) -> dict[str, Any]:
    """The answer when no one can be asked: deny a risky action, end the run at a question.

    (The nodes reach the same decision themselves when the context is not interactive; this value only
    lets a run resumed at a pending question go on to that decision.)
    """
    return {
        "decision": "deny",
        "reason": "because there is no one to ask (no terminal, or --no-input)",
        "stop": True,
    }


# --------------------------------------------------------------------------------------------------------------
# commands


def _track(run_id: str, record_dir: str, as_json: bool) -> None:
    _active.clear()
    _active.update(run_id=run_id, record_dir=record_dir, as_json=as_json)


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
    _track(str(ctx.run_id), ctx.record_dir, args.json)
    display = make_display(args.plain, args.json)
    prompter = (
        TerminalPrompter(display, auto_approve=ctx.confirm_policy == "auto") if ctx.interactive else None
    )
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
    from agent.runner import RunBusyError, RunNotFoundError, check_resumable, resume_run

    _stop_on_sigterm()
    record_dir = args.record_dir or load_context().record_dir
    try:
        check_resumable(args.run_id, record_dir)
    except (RunNotFoundError, RunBusyError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return EXIT_USAGE
    interactive = stdin_is_tty() and not args.no_input
    overrides: dict[str, Any] = {"interactive": interactive}
    if args.yes:
        overrides["confirm_policy"] = "auto"
    if args.headed:
        overrides["headless"] = False
    _track(args.run_id, record_dir, args.json)
    display = make_display(args.plain, args.json)
    prompter = TerminalPrompter(display, auto_approve=args.yes) if interactive else None
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
        print(
            f"\n{why}; the browser was closed. The run is resumable; continue with: {hint}", file=sys.stderr
        )
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
        handler = {"run": cmd_run, "resume": cmd_resume, "observe": cmd_observe, "demo": cmd_demo}[
            args.command
        ]
        return asyncio.run(handler(args))
    except ConfigError as exc:
        print(f"error: {one_line(str(exc))}", file=sys.stderr)
        return EXIT_USAGE
    except KeyboardInterrupt:
        return _stopped(EXIT_SIGINT, "stopped (Ctrl-C)")
    except asyncio.CancelledError:
        return _stopped(EXIT_SIGTERM, "stopped (SIGTERM)")
