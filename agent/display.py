"""Live progress for the CLI: stage, step, action, target, result, URL, elapsed time and tokens.

Two modes, both writing to stderr so stdout stays clean for ``--json``:

- **rich** (an interactive terminal): a live status line (spinner, the node running now, stage, step, elapsed,
  tokens, URL) above a table of the latest steps; it is paused while the agent asks a question. When the run
  ends the live area is cleared and the ending line and the whole table are printed once, as plain output
  (a live area taller than the terminal cannot be redrawn). Columns fit the console: numbers are never cut,
  target and result give way, and the URL column shows only when there is room for it;
- **plain** (``--plain``, ``--json``, stderr not a terminal, ``TERM=dumb``): one line per step and one for the
  end, nothing redrawn, for logs and CI.

The ``format_*`` functions are pure and shared by both modes.
"""

from __future__ import annotations

import contextlib
import sys
import time
from collections.abc import Iterator
from typing import Any, TextIO

from agent.terminals import BUDGET_EXHAUSTED, GOAL_FAILED, GOAL_SATISFIED, LOOP_STUCK

STATUS_MARKS = {"success": "ok", "failure": "FAIL", "denied": "DENIED", "answered": "answered"}
STATUS_STYLES = {"success": "green", "failure": "red", "denied": "yellow", "answered": "cyan"}
TERMINAL_STYLES = {
    GOAL_SATISFIED: "bold green",
    GOAL_FAILED: "bold red",
    LOOP_STUCK: "bold yellow",
    BUDGET_EXHAUSTED: "bold yellow",
}
#: Step rows shown while the run is live (the full table is drawn when it ends).
LIVE_ROWS = 12
#: Widest target, result and URL cells; the URL column is shown only when the rest fits beside it.
TARGET_WIDTH, RESULT_WIDTH, URL_WIDTH = 40, 60, 50


def format_elapsed(seconds: float | None) -> str:
    """'7.5s', '1m05s', '1h02m' (for status lines and step rows)."""
    s = max(0.0, float(seconds or 0.0))
    if s < 60:
        return f"{s:.1f}s"
    if s < 3600:
        return f"{int(s // 60)}m{int(s % 60):02d}s"
    return f"{int(s // 3600)}h{int(s % 3600 // 60):02d}m"


def format_tokens(usage: dict[str, Any] | None) -> str:
    """'1,234 tok' (plus cost when known), or '' when no model was used."""
    usage = usage or {}
    total = int(usage.get("total_tokens") or 0)
    if not total:
        return ""
    cost = float(usage.get("cost_usd") or 0.0)
    return f"{total:,} tok" + (f" ${cost:.4f}" if cost else "")


def short_url(url: str | None, width: int = 60) -> str:
    """The URL without its scheme, cut in the middle to ``width`` characters."""
    text = str(url or "")
    for scheme in ("https://", "http://"):
        if text.startswith(scheme):
            text = text[len(scheme) :]
            break
    if len(text) <= width:
        return text
    keep = max(4, width - 1)
    return text[: keep // 2] + "…" + text[-(keep - keep // 2) :]


def format_step(event: dict[str, Any]) -> str:
    """One progress line for a step event (pure, for tests and plain mode)."""
    status = event.get("status") or "-"
    mark = STATUS_MARKS.get(status, status)
    target = f" {event['target']}" if event.get("target") else ""
    usage = event.get("usage") or {}
    tokens = f" tok={usage.get('total_tokens')}" if usage.get("total_tokens") else ""
    line = f"[{event.get('step', 0):>3}] {event.get('stage', '?'):<7} {event.get('action') or '?'}{target} -> {mark}"
    if status in ("failure", "denied") and event.get("message"):
        line += f" ({str(event['message'])[:100]})"
    if event.get("effect"):  # what the page shows changed, e.g. "nothing changed"
        line += f" [{str(event['effect'])[:100]}]"
    return f"{line}  {event.get('url', '')}{tokens}"


def format_status(status: dict[str, Any], elapsed_s: float | None = None) -> str:
    """The live status line: 'planner · stage locate · step 3 · 12.3s · 1,234 tok · 127.0.0.1/shop.html'."""
    parts = [str(status.get("node") or "starting")]
    if status.get("stage"):
        parts.append(f"stage {status['stage']}")
    parts.append(f"step {int(status.get('step') or 0)}")
    parts.append(format_elapsed(elapsed_s if elapsed_s is not None else status.get("elapsed_s")))
    tokens = format_tokens(status.get("usage"))
    if tokens:
        parts.append(tokens)
    if status.get("url"):
        parts.append(short_url(status["url"]))
    if status.get("effect"):  # what the last action did to the page, e.g. "nothing changed"
        parts.append(f"last step: {str(status['effect'])[:60]}")
    return " · ".join(parts)


def format_end(terminal_type: str | None, reason: str | None, elapsed_s: float | None = None) -> str:
    """'end: goal_satisfied/answer_found (7.5s)'."""
    tail = f" ({format_elapsed(elapsed_s)})" if elapsed_s is not None else ""
    return f"end: {terminal_type or '?'}/{reason or '-'}{tail}"


def wants_plain(
    *, plain: bool = False, as_json: bool = False, stream: TextIO | None = None, term: str | None = None
) -> bool:
    """Plain lines unless we are talking to a real terminal and nobody asked for plain output."""
    stream = stream if stream is not None else sys.stderr
    try:
        tty = stream.isatty()
    except (AttributeError, ValueError):
        tty = False
    return plain or as_json or not tty or (term or "").lower() == "dumb"


def start_live(console: Any, renderable: Any) -> Any:
    """A started rich Live area redrawn from ``renderable()`` 8 times a second; cleared when stopped."""
    from rich.live import Live

    live = Live(
        console=console,
        refresh_per_second=8,
        transient=True,
        vertical_overflow="ellipsis",
        get_renderable=renderable,
        redirect_stdout=False,
    )
    live.start()
    return live


class ProgressDisplay:
    """Receives the graph's custom stream events (``{"event": "node" | "step", ...}``) and shows them."""

    def __init__(
        self,
        stream: TextIO = sys.stderr,
        plain: bool = True,
        *,
        live_rows: int = LIVE_ROWS,
        console: Any = None,
    ):
        self.stream = stream
        self.plain = plain
        self.live_rows = live_rows
        self.title = ""
        self.rows: list[dict[str, Any]] = []
        self.status: dict[str, Any] = {}
        self.end: dict[str, Any] | None = None
        self._started = time.monotonic()
        self._clock: tuple[float, float] | None = (
            None  # (run elapsed_s, monotonic time) of the last node event
        )
        self._tag: str | None = None  # "approved" etc. for the next step row
        self._effect: str | None = None  # what the last step did to the page, for the status line
        self._running_seen = False  # "running" events name the node now at work (older streams lack them)
        self._console: Any = console  # a rich Console to draw on (default: one on ``stream``)
        self._live: Any = None
        self._spinner: Any = None

    # --- lifecycle ----------------------------------------------------------------------------------

    def start(self, title: str, *, run_id: str | None = None, run_dir: str | None = None) -> None:
        self.title = title
        self._started = time.monotonic()
        if self.plain:
            if run_id:
                print(
                    f"run {run_id}: {title[:100]}" + (f"  (records: {run_dir})" if run_dir else ""),
                    file=self.stream,
                    flush=True,
                )
            return
        from rich.console import Console
        from rich.spinner import Spinner

        if self._console is None:
            self._console = Console(file=self.stream, highlight=False)
        header = f"[bold]{_escape(title[:100])}[/bold]"
        if run_id:
            header += f"  [dim]run {run_id}[/dim]"
        self._console.print(header)
        self._spinner = Spinner("dots", text="starting", style="cyan")
        self._start_live()

    def _start_live(self) -> None:
        self._live = start_live(self._console, self._renderable)

    def stop(self) -> None:
        """Clear the live area and print the final frame: the ending line over every step."""
        if self._live is not None:
            self._live.stop()
            self._live = None
            self._console.print(self._renderable(final=True))

    @contextlib.contextmanager
    def paused(self) -> Iterator[None]:
        """Stop redrawing while a question is asked at the terminal, then go on below it."""
        if self._live is None:
            yield
            return
        self._live.stop()
        try:
            yield
        finally:
            self._start_live()

    # --- events -------------------------------------------------------------------------------------

    def elapsed(self) -> float:
        """Seconds the run has taken: this process's clock, or the run's own (across resumptions) if larger."""
        own = time.monotonic() - self._started
        if self._clock is not None:
            base, at = self._clock
            return max(own, base + time.monotonic() - at)
        return own

    def on_event(self, event: dict[str, Any]) -> None:
        if not isinstance(event, dict):
            return
        kind = event.get("event")
        if kind == "running":
            self._running_seen = True
            self._set_status(event, node=True)
        elif kind == "node":
            self._on_node(event)
        elif kind == "step":
            self._add_row({**event, "status": event.get("status") or "-", "tag": self._tag})
            self._tag = None
            self._effect = event.get("effect")

    def _on_node(self, event: dict[str, Any]) -> None:
        if event.get("elapsed_s") is not None:
            self._clock = (float(event["elapsed_s"]), time.monotonic())
        self._set_status(event, node=not self._running_seen)
        node, note = event.get("node"), str(event.get("note") or "")
        if node == "confirm":
            if event.get("terminal_type"):
                self._add_row(
                    {
                        "step": event.get("step"),
                        "stage": event.get("stage"),
                        "action": "confirm",
                        "target": "",
                        "status": "denied",
                        "message": note,
                        "url": event.get("url"),
                    }
                )
            elif note:
                self._tag = "auto-approved" if "confirm_policy=auto" in note else note.split(" ", 1)[0]
        elif node == "ask_user" and not event.get("terminal_type"):
            self._add_row(
                {
                    "step": event.get("step"),
                    "stage": event.get("stage"),
                    "action": "ask_user",
                    "target": note.removeprefix("asked: ")[:60],
                    "status": "answered",
                    "url": event.get("url"),
                }
            )
        if node == "finalize" and event.get("terminal_type"):
            self.end = {
                "terminal_type": event.get("terminal_type"),
                "terminal_reason": event.get("terminal_reason"),
                "elapsed_s": event.get("elapsed_s"),
            }
            if self.plain:
                print(
                    f"{format_elapsed(self.elapsed()):>6} {format_end(self.end['terminal_type'], self.end['terminal_reason'])}",
                    file=self.stream,
                    flush=True,
                )

    def _set_status(self, event: dict[str, Any], *, node: bool) -> None:
        """Take the event's stage, URL and usage; the step only ever goes up (a run ending while it prepares
        step N+1 records step N), the node only from events that name the node running now."""
        step = max(int(self.status.get("step") or 0), int(event.get("step") or 0))
        fresh = {k: event.get(k) for k in ("stage", "url", "usage") if event.get(k) not in (None, "")}
        self.status = {**self.status, **fresh, "step": step, "effect": self._effect}
        if node and event.get("node"):
            self.status["node"] = event["node"]
        if self._spinner is not None:
            self._spinner.update(text=format_status(self.status, self.elapsed()))

    def _add_row(self, row: dict[str, Any]) -> None:
        row = {**row, "elapsed": self.elapsed()}
        self.rows.append(row)
        if self.plain:
            line = format_step(row)
            if row.get("tag"):
                line += f"  [{row['tag']}]"
            print(f"{format_elapsed(row['elapsed']):>6} {line}", file=self.stream, flush=True)

    # --- rich rendering -----------------------------------------------------------------------------

    def _renderable(self, final: bool = False) -> Any:
        from rich.console import Group
        from rich.text import Text

        rows = self.rows if final else self.rows[-self.live_rows :]
        hidden = len(self.rows) - len(rows)
        table = _Fitted(lambda width: self._table(rows, width))
        parts: list[Any] = []
        if final:
            if self.end:
                style = TERMINAL_STYLES.get(str(self.end["terminal_type"]), "bold")
                parts.append(
                    Text(
                        format_end(self.end["terminal_type"], self.end["terminal_reason"], self.elapsed()),
                        style=style,
                    )
                )
            else:
                parts.append(
                    Text(f"stopped · {format_status(self.status, self.elapsed())}", style="bold yellow")
                )
        elif self._spinner is not None:
            self._spinner.update(text=format_status(self.status, self.elapsed()))
            parts.append(self._spinner)
        if hidden:
            parts.append(Text(f"… {hidden} earlier step{'s' if hidden != 1 else ''}", style="dim"))
        if self.rows:
            parts.append(table)
        return Group(*parts)

    def _table(self, rows: list[dict[str, Any]], width: int) -> Any:
        """The steps table, fitted to the console: step, time, stage and action keep their full width (numbers
        are never cut); target and result give way, cut with an ellipsis; the URL only on a wide console."""
        from rich.table import Table
        from rich.text import Text

        cells = [_row_cells(row) for row in rows]
        table = Table(box=None, pad_edge=False, show_edge=False, header_style="bold dim", expand=False)
        fixed = 0
        for index, (name, justify, style) in enumerate(
            (("#", "right", ""), ("time", "right", "dim"), ("stage", "left", ""), ("action", "left", ""))
        ):
            column_width = max([len(name)] + [len(c[index]) for c in cells])
            fixed += column_width + 2
            table.add_column(name, justify=justify, style=style, width=column_width, no_wrap=True)
        table.add_column("target", max_width=TARGET_WIDTH)
        table.add_column("result", max_width=RESULT_WIDTH)
        results = [_result_text(row) for row in rows]
        urls = [short_url(row.get("url"), URL_WIDTH) for row in rows]
        natural = max([6] + [len(str(r.get("target") or "")) for r in rows])
        natural = min(natural, TARGET_WIDTH) + min(max([6] + [len(r) for r in results]), RESULT_WIDTH)
        wide = fixed + natural + 2 + max([3] + [len(u) for u in urls]) <= width  # room for the URL too
        if wide:
            table.add_column("url", max_width=URL_WIDTH, style="dim")
        cut: dict[str, Any] = {"no_wrap": True, "overflow": "ellipsis"}
        for row, texts, result, url in zip(rows, cells, results, urls, strict=True):
            extra = [Text(url, **cut)] if wide else []
            table.add_row(*texts, Text(str(row.get("target") or ""), **cut), result, *extra)
        return table


class _Fitted:
    """A renderable built for the width it is given at render time (the live area and a recording console)."""

    def __init__(self, build: Any) -> None:
        self.build = build

    def __rich_console__(self, console: Any, options: Any) -> Any:
        yield self.build(options.max_width)


def _result_text(row: dict[str, Any]) -> Any:
    """The result cell: ok / FAIL / DENIED / answered, the approval tag, and why it failed."""
    from rich.text import Text

    status = row.get("status") or "-"
    result = Text(STATUS_MARKS.get(status, status), style=STATUS_STYLES.get(status, ""), no_wrap=True)
    result.overflow = "ellipsis"
    if row.get("tag"):
        result.append(f" ({row['tag']})", style="dim")
    if status in ("failure", "denied") and row.get("message"):
        result.append(f" {str(row['message'])[:50]}", style="dim")
    return result


def _row_cells(row: dict[str, Any]) -> list[str]:
    """The fixed-width cells of a step row: step number, time, stage, action."""
    return [
        str(row.get("step") or 0),
        format_elapsed(row.get("elapsed")),
        str(row.get("stage") or ""),
        str(row.get("action") or "?"),
    ]


def _escape(text: str) -> str:
    from rich.markup import escape

    return escape(text)
