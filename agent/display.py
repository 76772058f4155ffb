"""Live progress for the CLI: one line per step (stage, step, action, target, status, URL, elapsed, tokens).

Rich mode shows a spinner with the current node under the step lines; plain mode (logs, CI, --json) prints
only the step lines, to stderr, so stdout stays clean for ``--json``.
"""

from __future__ import annotations

import sys
import time
from typing import Any, TextIO


def format_step(event: dict[str, Any]) -> str:
    """One progress line for a step event (pure, for tests and plain mode)."""
    status = event.get("status") or "-"
    mark = {"success": "ok", "failure": "FAIL", "denied": "DENIED"}.get(status, status)
    target = f" {event['target']}" if event.get("target") else ""
    usage = event.get("usage") or {}
    tokens = f" tok={usage.get('total_tokens')}" if usage.get("total_tokens") else ""
    line = f"[{event.get('step', 0):>3}] {event.get('stage', '?'):<7} {event.get('action') or '?'}{target} -> {mark}"
    if status == "failure" and event.get("message"):
        line += f" ({str(event['message'])[:100]})"
    return f"{line}  {event.get('url', '')}{tokens}"


class ProgressDisplay:
    """Receives the graph's custom stream events and shows them."""

    def __init__(self, stream: TextIO = sys.stderr, plain: bool = True):
        self.stream = stream
        self.plain = plain
        self._started = time.monotonic()
        self._status = None
        self._console = None

    def start(self, title: str) -> None:
        self._started = time.monotonic()
        if self.plain:
            return
        from rich.console import Console

        self._console = Console(file=self.stream)
        self._status = self._console.status(f"[bold]{title[:80]}[/bold]")
        self._status.start()

    def stop(self) -> None:
        if self._status is not None:
            self._status.stop()
            self._status = None

    def _elapsed(self) -> str:
        return f"{time.monotonic() - self._started:5.1f}s"

    def on_event(self, event: dict[str, Any]) -> None:
        if not isinstance(event, dict):
            return
        kind = event.get("event")
        if kind == "step":
            line = f"{self._elapsed()} {format_step(event)}"
            if self._console is not None:
                style = "green" if event.get("status") == "success" else "red"
                self._console.print(line, style=style, highlight=False, markup=False)
            else:
                print(line, file=self.stream, flush=True)
        elif kind == "node" and self._status is not None:
            self._status.update(
                f"[bold]{event.get('node')}[/bold] stage={event.get('stage')} step={event.get('step')} "
                f"{self._elapsed()}  {str(event.get('url', ''))[:60]}"
            )
        elif kind == "node" and event.get("terminal_type") and event.get("node") == "finalize":
            print(f"{self._elapsed()} end: {event.get('terminal_type')}/{event.get('terminal_reason')}",
                  file=self.stream, flush=True)
