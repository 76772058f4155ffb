"""Live progress (agent/display.py): the pure format functions, plain mode, and the rich frame's content."""

from __future__ import annotations

import asyncio
import io

import pytest
from rich.console import Console

from agent.display import (
    ProgressDisplay,
    format_elapsed,
    format_end,
    format_status,
    format_step,
    format_tokens,
    short_url,
    wants_plain,
)
from tests.durability.terminal import strip_ansi
from tests.support.factories import offline_context

STEP = {
    "event": "step",
    "step": 2,
    "stage": "locate",
    "action": "click",
    "target": 'button "Buy now"',
    "status": "success",
    "message": "clicked",
    "url": "http://127.0.0.1:8000/shop.html",
    "usage": {},
}


class FakeTTY(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_format_functions():
    assert format_elapsed(0) == "0.0s" and format_elapsed(7.46) == "7.5s"
    assert (
        format_elapsed(65) == "1m05s" and format_elapsed(3720) == "1h02m" and format_elapsed(None) == "0.0s"
    )
    assert format_tokens({}) == "" and format_tokens(None) == ""
    assert format_tokens({"total_tokens": 12345}) == "12,345 tok"
    assert format_tokens({"total_tokens": 1000, "cost_usd": 0.0123}) == "1,000 tok $0.0123"
    assert short_url("http://127.0.0.1:8000/shop.html") == "127.0.0.1:8000/shop.html"
    long = "https://example.com/" + "a" * 100 + "/end"
    assert (
        len(short_url(long, 40)) == 40 and short_url(long, 40).endswith("/end") and "…" in short_url(long, 40)
    )
    assert short_url(None) == ""

    assert format_step(STEP) == '[  2] locate  click button "Buy now" -> ok  http://127.0.0.1:8000/shop.html'
    failed = format_step(
        {**STEP, "status": "failure", "message": "element 4 is hidden", "usage": {"total_tokens": 90}}
    )
    assert "-> FAIL (element 4 is hidden)" in failed and failed.endswith("tok=90")
    assert "-> DENIED (by the user)" in format_step({**STEP, "status": "denied", "message": "by the user"})

    status = {
        "node": "planner",
        "stage": "locate",
        "step": 3,
        "url": "http://127.0.0.1:8000/a",
        "usage": {"total_tokens": 2048},
    }
    assert (
        format_status(status, 12.34)
        == "planner · stage locate · step 3 · 12.3s · 2,048 tok · 127.0.0.1:8000/a"
    )
    assert format_status({}, 0) == "starting · step 0 · 0.0s"
    assert format_end("goal_satisfied", "answer_found", 7.5) == "end: goal_satisfied/answer_found (7.5s)"


def test_plain_or_rich():
    assert wants_plain(stream=io.StringIO())  # not a terminal
    assert not wants_plain(stream=FakeTTY())
    assert wants_plain(stream=FakeTTY(), plain=True) and wants_plain(stream=FakeTTY(), as_json=True)
    assert wants_plain(stream=FakeTTY(), term="dumb")


def _events():
    node = {"event": "node", "stage": "locate", "step": 0, "url": STEP["url"], "usage": {}, "elapsed_s": 1.0}
    return [
        {**node, "node": "safety", "note": "risk high"},
        {**node, "node": "confirm", "note": "approved by the user"},
        {**node, "node": "execute", "step": 1},
        {**STEP, "step": 1},
        {**node, "node": "ask_user", "note": "asked: Which colour?", "step": 1},
        {
            **node,
            "node": "confirm",
            "note": "denied by the user",
            "terminal_type": "goal_failed",
            "terminal_reason": "user_declined",
            "step": 1,
        },
        {
            **node,
            "node": "finalize",
            "terminal_type": "goal_failed",
            "terminal_reason": "user_declined",
            "step": 1,
            "elapsed_s": 3.0,
        },
    ]


def test_plain_mode_prints_one_line_per_step_and_the_end():
    out = io.StringIO()
    display = ProgressDisplay(stream=out, plain=True)
    display.start("click Buy now", run_id="r1", run_dir="runs/r1")
    for event in _events():
        display.on_event(event)
    display.on_event("not an event")  # ignored
    display.stop()
    lines = out.getvalue().splitlines()
    assert lines[0] == "run r1: click Buy now  (records: runs/r1)"
    assert lines[1].endswith(
        '[  1] locate  click button "Buy now" -> ok  http://127.0.0.1:8000/shop.html  [approved]'
    )
    assert "ask_user Which colour? -> answered" in lines[2]
    assert "confirm -> DENIED (denied by the user)" in lines[3]
    assert lines[4].endswith("end: goal_failed/user_declined")
    assert len(lines) == 5 and "\x1b" not in out.getvalue()


def test_rich_frame_shows_a_status_line_over_a_table_of_steps():
    display = ProgressDisplay(stream=io.StringIO(), plain=False, live_rows=2)
    for n in range(1, 5):
        display.on_event({**STEP, "step": n, "target": f'button "B{n}"'})
    display.on_event(
        {
            "event": "node",
            "node": "planner",
            "stage": "verify",
            "step": 4,
            "url": STEP["url"],
            "usage": {"total_tokens": 1500},
            "elapsed_s": 9.0,
        }
    )
    console = Console(file=io.StringIO(), width=140, record=True, color_system=None)
    from rich.spinner import Spinner

    display._spinner = Spinner("dots", text="")  # what start() sets up on a terminal
    console.print(display._renderable())
    live = console.export_text()
    assert "planner · stage verify · step 4" in live and "1,500 tok" in live
    assert "… 2 earlier steps" in live
    assert 'button "B4"' in live and 'button "B1"' not in live  # only the last rows while live
    assert live.index("planner ·") < live.index("#")  # the status line is above the table

    display.on_event(
        {
            "event": "node",
            "node": "finalize",
            "terminal_type": "goal_satisfied",
            "terminal_reason": "action_verified",
            "elapsed_s": 9.5,
        }
    )
    console.print(display._renderable(final=True))
    final = console.export_text()
    assert "end: goal_satisfied/action_verified" in final
    assert all(f'button "B{n}"' in final for n in range(1, 5))  # the whole table at the end
    assert "earlier steps" not in final


def test_rich_display_pauses_for_a_question():
    out = FakeTTY()
    display = ProgressDisplay(stream=out, plain=False)
    display.start("a goal", run_id="r9")
    display.on_event({**STEP, "step": 1})
    with display.paused():
        assert display._live is None or not display._live.is_started
        out.write("? a question\n")
    assert display._live is not None and display._live.is_started
    display.stop()
    text = strip_ansi(out.getvalue())
    assert "a goal" in text and "r9" in text and "? a question" in text
    assert text.rstrip().endswith("127.0.0.1:8000/shop.html")  # the final frame (the table) is left on screen


# --- a real run's events at 80 and 160 columns -------------------------------------------------------------


@pytest.fixture(scope="module")
def demo_run_events(tmp_path_factory) -> list[dict]:
    """The custom stream events of a real offline run on the demo store (log in, read the last order)."""
    from agent.demo.server import DEMO_START_PATH, serve_demo
    from agent.runner import run_goal

    events: list[dict] = []
    server = serve_demo()
    try:
        ctx = offline_context(
            tmp_path_factory.mktemp("runs"), start_url=server.base_url + DEMO_START_PATH, max_steps=20
        )
        goal = "log in as demo with password wayfinder, then tell me the total of my last order"
        result = asyncio.run(run_goal(goal, ctx, on_event=events.append))
    finally:
        server.stop()
    assert result["terminal_type"] == "goal_satisfied", result
    return events


@pytest.mark.parametrize("width", [80, 160])
def test_the_live_display_of_a_real_run_ends_true(demo_run_events, width):
    console = Console(file=FakeTTY(), width=width, record=True, force_terminal=True, color_system=None)
    display = ProgressDisplay(stream=FakeTTY(), plain=False, live_rows=2, console=console)
    display.start("log in and read the last order", run_id="r1")
    shown_steps, named = [], []
    for event in demo_run_events:
        display.on_event(event)
        shown_steps.append(display.status.get("step") or 0)
        named.append((event.get("event"), event.get("node"), display.status.get("node")))
    display.stop()

    assert shown_steps == sorted(shown_steps)  # the step number never goes back
    # while a node runs, the status names it (not the node that finished before it)
    assert ("running", "planner", "planner") in named and ("running", "execute", "execute") in named
    steps = [e for e in demo_run_events if e.get("event") == "step"]
    assert len(steps) > 2  # more than the live area shows

    text = console.export_text()
    final = text[text.rindex("end: ") :]  # the last frame: printed once the live area closed
    lines = final.splitlines()
    assert lines[0].startswith("end: goal_satisfied/answer_found")
    assert "earlier step" not in final and "⠋" not in final
    assert all(len(line) <= width for line in lines)
    rows = [line for line in lines if line[:3].strip().isdigit()]
    assert [int(line.split()[0]) for line in rows] == [e["step"] for e in steps]  # every step, numbers whole
    for row, event in zip(rows, steps, strict=True):
        assert row.split()[2:4] == [event["stage"], event["action"]]  # stage and action uncut
        assert "ok" in row or "FAIL" in row
    assert ("127.0.0.1" in final) == (width >= 160)  # the URL column only where it fits beside the rest
