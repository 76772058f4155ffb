"""The agent's question (ask_user) through the real CLI: answered in free text at a terminal; with no one to
ask (``--no-input``) the run ends with a stop_reason that says what was asked.

The offline planner never asks, so these runs use the openai backend against the scripted chat-completions
server of tests/llm (real HTTP from the CLI process): the planner asks for the colour, the executor turns that
into ``ask_user``, and once the planner's prompt carries the user's answer it completes with it.
"""

from __future__ import annotations

import threading

from tests.durability.helpers import assert_trace_intact, one_json_object, run_cli
from tests.durability.terminal import Terminal, agent_command, agent_env
from tests.llm.fake_openai import FakeOpenAIServer, is_planner_request, last_user_text

QUESTION = "Which colour of widget do you want?"
GOAL = "pick the widget colour I want"


def _plan(**fields):
    return {
        "userTask": GOAL,
        "executionHistory": "",
        "latestBrowserState": "",
        "stepByStepReasoning": "",
        "proposedActions": [],
        "taskComplete": False,
        "finalAnswer": "",
        **fields,
    }


def model(body: dict) -> dict:
    text = last_user_text(body)
    if is_planner_request(body):
        if "The user answered" in text and "teal" in text:
            return _plan(taskComplete=True, finalAnswer="You want the teal widget.", success=True)
        return _plan(proposedActions=["Ask the user which colour they want"])
    return {
        "action": "ask_user",
        "element_id": None,
        "args": {"question": QUESTION},
        "status": "success",
        "error_type": "none",
        "message": "asking the user",
        "reasoning": "only the user knows the colour",
    }


def test_ask_user_at_the_terminal_and_without_one(click_site, record_dir):
    with FakeOpenAIServer() as fake:
        fake.responder = model
        env = agent_env(OPENAI_API_KEY="test-key")
        common = [
            "--planner",
            "openai",
            "--model",
            "fake-model",
            "--base-url",
            fake.base_url,
            "--start-url",
            click_site.url("shop.html?item=ask"),
            "--record-dir",
            str(record_dir),
            "--json",
            "--max-seconds",
            "90",
        ]
        results = {}

        def no_input() -> None:
            results["no_input"] = run_cli("run", GOAL, *common, "--no-input", "--run-id", "noinput", env=env)

        thread = threading.Thread(target=no_input)
        thread.start()
        with Terminal(
            agent_command("run", GOAL, *common, "--run-id", "asked"), env=env, separate_stdout=True
        ) as term:
            term.expect(QUESTION, 90)
            term.expect(r"your answer", 10)
            term.sendline("teal, please")
            # nothing on the page was picked: the model's claim is recorded but not verified (exit 1)
            assert term.wait(90) == 1, term.text[-2000:]
        thread.join(120)

    answered = one_json_object(term.stdout)
    assert (answered["terminal_type"], answered["terminal_reason"]) == ("goal_failed", "unverified")
    assert answered["candidate_answer"] == "You want the teal widget." and answered["final_answer"] is None
    assert answered["usage"]["calls"] >= 3 and answered["usage"]["total_tokens"] > 0
    records = assert_trace_intact(record_dir / "asked")
    assert [r["note"] for r in records if r["node"] == "ask_user"] == [f"asked: {QUESTION}"]

    stopped = results["no_input"]
    assert stopped.returncode == 1, stopped.stderr[-2000:]
    result = one_json_object(stopped.stdout)
    assert (result["terminal_type"], result["terminal_reason"]) == ("goal_failed", "user_input_required")
    assert result["stop_reason"] == f"needs user input: {QUESTION}"
    assert QUESTION not in stopped.stderr.replace(result["stop_reason"], "")  # nobody was prompted
    assert click_site.count("ask") == 0
