"""Goals on the fixture site through the model path, answered by a real model (SmolLM2-135M on llama.cpp).

A 135M model is weak: it proposes ids that do not exist and claims completion with made-up answers. Answer
quality is therefore not asserted; what a small model cannot break is: every run ends with a valid terminal
inside its budget, nothing raises a traceback, the agent's token counts equal the server's own usage figures,
``auto`` negotiates its way past llama.cpp's json_schema 500 to a method that works (and each method is used
once, forced by the setting), and no goal is reported satisfied without recorded evidence.
"""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any

import pytest

from agent.context import Context
from agent.llm.structured import cache_path
from agent.prompts import system_prompt
from agent.runner import run_goal
from agent.terminals import BUDGET_EXHAUSTED, GOAL_FAILED, GOAL_SATISFIED, LOOP_STUCK, normalize
from tests.durability.helpers import one_json_object, run_cli
from tests.durability.terminal import agent_env
from tests.model.server import MODEL_ALIAS, LlamaServer, RecordingProxy
from tests.support.factories import trace_records

#: A run takes up to max_seconds plus its overrun; the server's start and warm-up come on top for the first.
pytestmark = pytest.mark.timeout(360)

#: Settings that fit a 135M model on two shared cores: short replies, small pages, few steps, and a time
#: budget each run must end inside. A request that still times out is retried once at most (twice the time).
MODEL_RUN: dict[str, Any] = {
    "planner": "openai",
    "model": MODEL_ALIAS,
    "max_steps": 2,
    "max_planner_calls": 2,
    "max_failures": 3,
    "max_seconds": 75.0,
    "model_timeout_s": 60.0,
    "model_max_retries": 0,
    "planner_max_output_tokens": 128,
    "executor_max_output_tokens": 64,
    "max_elements": 15,
    "max_chars": 2000,
    "action_timeout_s": 6.0,
    "navigation_timeout_s": 8.0,
}
#: What a run may take beyond max_seconds: the step that was running when the budget ran out (its action or
#: page reading is bounded by the action timeout) and writing the records.
OVERRUN_S = 15.0
TERMINALS = (GOAL_SATISFIED, GOAL_FAILED, LOOP_STUCK, BUDGET_EXHAUSTED)


def _context(proxy: RecordingProxy, tmp_path: Path, method: str) -> Context:
    return Context(
        **MODEL_RUN,
        base_url=proxy.base_url,
        structured_output_method=method,
        record_dir=str(tmp_path / "runs"),
    )


def _timed_out(result: dict[str, Any]) -> bool:
    """A request the agent gave up on: the server may still have answered it, to no one."""
    notes = " ".join(str(r.get("note") or "") for r in trace_records(result["run_dir"]))
    return "timed out" in notes + str(result.get("stop_reason"))


def assert_sound_run(result: dict[str, Any], proxy: RecordingProxy, max_seconds: float) -> None:
    """What every run must show, whatever the model said."""
    kind, reason = result["terminal_type"], result["terminal_reason"]
    assert kind in TERMINALS and normalize(kind, reason) == (kind, reason), result
    assert result["elapsed_s"] <= max_seconds + OVERRUN_S, result["elapsed_s"]
    records = (Path(result["run_dir"]) / "trace.jsonl").read_text(encoding="utf-8")
    assert "Traceback" not in records + json.dumps(result)
    if kind == GOAL_SATISFIED:  # never without evidence
        assert result["evidence"] and not result["missing"], result
    answered = [e.usage for e in proxy.exchanges if e.status == 200 and e.usage]
    assert all(e.status in (0, 200) or e.structured == "json_schema" for e in proxy.exchanges), (
        proxy.exchanges
    )
    usage = result["usage"]
    served = {k: sum(u[k] for u in answered) for k in ("prompt_tokens", "completion_tokens", "total_tokens")}
    if _timed_out(result):  # an abandoned request may have been answered after the agent left
        assert usage["input_tokens"] <= served["prompt_tokens"] and usage["calls"] <= len(answered)
    else:
        assert usage["calls"] == len(answered)
        assert usage["input_tokens"] == served["prompt_tokens"]
        assert usage["output_tokens"] == served["completion_tokens"]
        assert usage["total_tokens"] == served["total_tokens"]
    calls = [r["call_usage"] for r in trace_records(result["run_dir"]) if r.get("call_usage")]
    assert sum(c["input_tokens"] for c in calls) == usage["input_tokens"]  # prompt tokens per call, traced


def test_the_fixed_part_of_the_prompts_stays_lean(llama_server: LlamaServer) -> None:
    """The system prompts, counted by the model's own tokenizer (docs/MODELS.md has the figures)."""
    planner = llama_server.tokens(system_prompt("planner"))
    executor = llama_server.tokens(system_prompt("executor"))
    print(f"fixed prompt tokens: planner {planner}, executor {executor}")
    # 2436 and 1599 before the cut; 815 and 743 after it; 1048 and 932 once the prompts described the page moves,
    # pdf_extract and MCP tools (seven more actions)
    assert planner <= 1100 and executor <= 1000, (planner, executor)


@pytest.mark.parametrize(
    ("method", "wire", "goal", "page"),  # each method forced once
    [
        ("function_calling", "tools", "log in as alice with password secret", "/login.html"),
        ("json_mode", "json_object", "what is the byline of the article?", "/article.html"),
        ("text", "text", "choose Express in the shipping method", "/select.html"),
    ],
)
async def test_a_forced_method_runs_a_goal_to_a_sound_end(
    proxy, session, site_url, tmp_path, method, wire, goal, page
):
    ctx = _context(proxy, tmp_path, method)
    result = await run_goal(goal, ctx, start_url=site_url + page, session=session)

    assert_sound_run(result, proxy, ctx.max_seconds)
    assert proxy.exchanges and {e.structured for e in proxy.exchanges} == {wire}
    if result["usage"]["calls"]:  # at least one reply came in time (a loaded machine may allow none)
        assert result["usage"]["structured_output"] == method
    assert not cache_path().exists()  # a forced method is not negotiated, so nothing is remembered


async def test_a_forced_json_schema_is_refused_by_llama_cpp_and_ends_at_once(
    proxy, session, site_url, tmp_path
):
    ctx = _context(proxy, tmp_path, "json_schema")
    started = time.monotonic()
    result = await run_goal("what is the title of the article?", ctx, start_url=site_url + "/article.html",
                            session=session)  # fmt: skip

    assert_sound_run(result, proxy, ctx.max_seconds)
    assert (result["terminal_type"], result["terminal_reason"]) == (GOAL_FAILED, "model_error")
    assert "set structured_output_method auto" in result["stop_reason"]
    assert [(e.structured, e.status) for e in proxy.exchanges] == [("json_schema", 500)]  # not retried
    assert time.monotonic() - started < 30


def test_auto_through_the_cli_negotiates_past_the_json_schema_500(proxy, site_url, tmp_path):
    settings = {f"WAYFINDER_{k.upper()}": str(v) for k, v in MODEL_RUN.items()}
    env = agent_env(**settings)
    done = run_cli(
        "run", "what is the title of the article?", "--base-url", proxy.base_url, "--start-url",
        site_url + "/article.html", "--record-dir", str(tmp_path / "runs"), "--json",
        timeout=MODEL_RUN["max_seconds"] + 90, env=env,
    )  # fmt: skip

    assert done.returncode in (0, 1), done.stderr[-3000:]
    assert done.stderr.splitlines()[0] == (
        f"model {MODEL_ALIAS} at {proxy.base_url}; structured output: auto (trying json_schema first)"
    )
    for noise in ("Traceback", "Future exception was never retrieved", "Task was destroyed"):
        assert noise not in done.stderr, done.stderr[-3000:]
    result = one_json_object(done.stdout)
    assert_sound_run(result, proxy, MODEL_RUN["max_seconds"])
    # json_schema refused with llama.cpp's 500, then function calling works and is used for every call
    first, *rest = proxy.exchanges
    assert (first.structured, first.status) == ("json_schema", 500) and "json_object" in first.error
    assert rest and all(e.structured == "tools" and e.status in (0, 200) for e in rest)
    assert result["usage"]["structured_output"] == "function_calling"  # set once the server took tools
    if result["usage"]["calls"]:  # remembered once a reply came with it
        saved = json.loads(cache_path().read_text(encoding="utf-8"))[proxy.base_url]
        assert saved["method"] == "function_calling" and saved["date"]
