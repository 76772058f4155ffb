"""Asking at the terminal: a risky action is approved, denied or edited, the agent's questions get free text.

:class:`TerminalPrompter` answers the graph's interrupts when someone is at the terminal;
:func:`answer_without_terminal` is the answer when no one is.
"""

from __future__ import annotations

import contextlib
import json
import signal
import sys
from collections.abc import Iterator
from typing import Any, TextIO


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


#: What approves a risky action at the prompt: yes, y, approve, or the menu's letter a. Consent is strict:
#: every other answer ("ok", "sure", "yes please", a typo) denies the action; only "e" opens the editor.
APPROVE_WORDS = ("a", "approve", "y", "yes")


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
            answer = self._read("  approve / deny / edit [a/d/e] (anything else = deny): ")
            if answer is None:
                self._say("")
                return {"decision": "deny", "reason": "because the input ended before an answer"}
            word = answer.strip().lower()
            if word in APPROVE_WORDS:
                return {"decision": "approve"}
            if word in ("e", "edit"):
                edited = self._edit(action)
                if edited is not None:
                    return {"decision": "edit", "action": edited}
                continue
            if word not in ("d", "deny", "n", "no", ""):
                self._say(f"  {answer.strip()[:40]!r} is not an approval: denied")
                return {
                    "decision": "deny",
                    "reason": f"because the answer {answer.strip()[:40]!r} is not an approval",
                }
            return {"decision": "deny"}

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
