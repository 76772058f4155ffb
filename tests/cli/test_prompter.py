"""Answering the agent's questions at the terminal (agent.cli_prompter.TerminalPrompter), input scripted line by line.

The pty tests in tests/durability drive the same code in a real terminal; these cover every branch quickly.
"""

from __future__ import annotations

import io
import signal

import pytest

from agent.cli_prompter import TerminalPrompter, answer_without_terminal
from agent.cli_settings import context_from_args
from agent.nodes.confirm import parse_decision

CONFIRM = {
    "type": "confirm",
    "question": 'Allow click button "Buy now"? (clicking may have side effects)',
    "action": {"action": "click", "element_id": 3, "args": {}},
    "target": 'button "Buy now"',
    "reasons": ['clicking button "Buy now" may have side effects'],
    "url": "http://shop.test/",
    "choices": ["approve", "deny", "edit"],
}
ASK = {"type": "ask_user", "question": "Which colour?", "url": "http://shop.test/"}


def prompt(payload, typed: str, **kwargs):
    out = io.StringIO()
    prompter = TerminalPrompter(stdin=io.StringIO(typed), out=out, **kwargs)
    return prompter(payload), out.getvalue(), prompter


@pytest.mark.parametrize(
    ("typed", "decision"),
    [
        ("a\n", "approved"),
        ("approve\n", "approved"),
        ("Y\n", "approved"),
        ("d\n", "denied"),
        ("no\n", "denied"),
        ("\n", "denied"),  # Enter = deny
        ("", "denied"),  # end of input: silence never approves
        ("what?\na\n", "denied"),  # consent is strict: anything but an approval denies
        ("ok\n", "denied"),
        ("sure\n", "denied"),
        ("yes please\n", "denied"),
        ("yes!\n", "denied"),
        ("  YES \n", "approved"),
    ],
)
def test_confirm_answers(typed, decision):
    answer, shown, _ = prompt(CONFIRM, typed)
    assert parse_decision(answer)[0] == decision
    assert shown.startswith('\n? Allow click button "Buy now"?\n')
    assert "why:    clicking button" in shown and "page:   http://shop.test/" in shown
    assert shown.count("approve / deny / edit [a/d/e]") == 1


def test_confirm_edit_takes_a_json_action_and_rejects_junk():
    typed = "e\n{not json\ne\n[1, 2]\ne\n\ne\n" + '{"action": "click", "element_id": 5}\n'
    answer, shown, _ = prompt(CONFIRM, typed)
    assert answer == {"decision": "edit", "action": {"action": "click", "element_id": 5}}
    assert parse_decision(answer) == ("edited", {"action": "click", "element_id": 5})
    assert "not valid JSON" in shown and "must be a JSON object" in shown
    assert 'current: {"action": "click", "element_id": 3, "args": {}}' in shown


def test_confirm_at_end_of_input_says_why_it_was_denied():
    answer, _, _ = prompt(CONFIRM, "")
    assert answer["decision"] == "deny" and "input ended" in answer["reason"]


def test_yes_approves_without_asking():
    answer, shown, _ = prompt(CONFIRM, "", auto_approve=True)
    assert answer == {"decision": "approve"} and shown == ""
    answer, shown, _ = prompt(ASK, "blue\n", auto_approve=True)  # --yes never answers questions
    assert answer == {"answer": "blue"} and "? Which colour?" in shown


def test_ask_user_answers():
    assert prompt(ASK, "blue, please\n")[0] == {"answer": "blue, please"}
    assert prompt(ASK, "\n")[0] == {"answer": ""}
    answer, _, _ = prompt(ASK, "")  # Ctrl-D: stop the run here
    assert answer["stop"] is True


def test_ctrl_c_at_a_question_leaves_the_run_paused():
    class CtrlC(io.StringIO):
        def readline(self, *args):
            raise KeyboardInterrupt

    out = io.StringIO()
    prompter = TerminalPrompter(stdin=CtrlC(), out=out)
    before = signal.getsignal(signal.SIGINT)
    assert prompter(CONFIRM) is None and prompter.interrupted
    assert signal.getsignal(signal.SIGINT) is before  # the handler is restored
    assert "the run is paused and can be resumed" in out.getvalue()


def test_no_terminal_answers_deny_and_stop():
    answer = answer_without_terminal(CONFIRM)
    assert parse_decision(answer)[0] == "denied" and answer["stop"] is True
    assert "no one to ask" in answer["reason"]


def test_interactive_only_with_a_terminal_and_without_no_input(monkeypatch):
    import argparse

    from agent.cli import build_parser

    class TTY(io.StringIO):
        def isatty(self):
            return True

    args = build_parser().parse_args(["run", "x"])
    monkeypatch.setattr("sys.stdin", io.StringIO())
    assert context_from_args(args).interactive is False
    monkeypatch.setattr("sys.stdin", TTY())
    assert context_from_args(args).interactive is True
    assert context_from_args(argparse.Namespace(**{**vars(args), "no_input": True})).interactive is False
    yes = build_parser().parse_args(["run", "x", "--yes", "--run-id", "my-run"])
    ctx = context_from_args(yes)
    assert ctx.confirm_policy == "auto" and ctx.run_id == "my-run"
