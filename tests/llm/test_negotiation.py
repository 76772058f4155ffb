"""Structured-output negotiation against servers that refuse formats the way real ones do.

The scripted server answers ``response_format: json_schema`` with llama.cpp's HTTP 500, and may refuse tools
or JSON mode with a 400. With the default ``auto`` the backend must move on to the next method, get a usable
reply, remember the method for the run and in the user's cache (each test has its own XDG_CACHE_HOME), and
record it in the usage; a forced method must fail at once with a hint, and an ordinary 500 must not switch.
"""

from __future__ import annotations

import datetime as dt
import json

import pytest

from agent.llm import structured
from agent.planning.llm import OpenAIBackend
from tests.llm.fake_openai import (
    LLAMA_CPP_JSON_SCHEMA_500,
    FakeOpenAIServer,
    Reply,
    auto,
    hang,
    http_error,
    refusing,
    text,
)
from tests.llm.helpers import executor_reply, plan_request, planner_reply, translate_request
from tests.llm.test_graph_runs import (  # noqa: F401 - drive is a fixture
    LOGIN,
    LOGIN_STEPS,
    Model,
    complete,
    drive,
    plan,
    result_json,
    trace,
)


def _format(body: dict) -> str:
    """How a request asked for structure: the response_format type, "tools", or "text"."""
    if body.get("tools"):
        return "tools"
    return (body.get("response_format") or {}).get("type") or "text"


def _system(body: dict) -> str:
    return str(body["messages"][0]["content"])


async def test_a_llama_cpp_500_on_json_schema_falls_back_to_function_calling_and_is_remembered(
    fake_openai: FakeOpenAIServer, make_context
) -> None:
    fake_openai.responder = refusing("json_schema", answer=planner_reply())
    result = await OpenAIBackend(make_context()).plan(plan_request())

    assert not result.get("error"), result
    assert result["proposed_actions"] == ["Scroll down to the price section"]
    assert [_format(b) for b in fake_openai.requests] == ["json_schema", "tools"]
    # the refused request sent no usage: only the answered one counts, and it names its method
    assert result["usage"]["calls"] == 1 and result["usage"]["structured_output"] == "function_calling"
    assert result["usage"]["input_tokens"] == fake_openai.total_usage["prompt_tokens"]

    cached = json.loads(structured.cache_path().read_text(encoding="utf-8"))
    entry = cached[fake_openai.base_url]
    assert entry["method"] == "function_calling" and entry["date"] == dt.date.today().isoformat()

    # the run (and a later run, from the cache) starts with the method that worked: no refused request
    fake_openai.requests.clear()
    fake_openai.responder = refusing("json_schema", answer=executor_reply())
    translated = await OpenAIBackend(make_context()).translate(translate_request())
    assert translated["status"] == "success", translated
    assert [_format(b) for b in fake_openai.requests] == ["tools"]
    structured.forget_run_memory()
    fake_openai.requests.clear()
    fake_openai.responder = refusing("json_schema", answer=planner_reply())
    assert not (await OpenAIBackend(make_context()).plan(plan_request())).get("error")
    assert [_format(b) for b in fake_openai.requests] == ["tools"]


@pytest.mark.parametrize(
    ("refused", "expected", "formats"),
    [
        (("json_schema", "tools"), "json_mode", ["json_schema", "tools", "json_object"]),
        (("json_schema", "tools", "json_object"), "text", ["json_schema", "tools", "json_object", "text"]),
    ],
)
async def test_each_refusal_moves_on_to_the_next_method(
    fake_openai: FakeOpenAIServer, make_context, refused, expected, formats
) -> None:
    prose = "Sure! Here is my plan:\n```json\n" + json.dumps(planner_reply()) + "\n```\nGood luck."
    fake_openai.responder = refusing(*refused, answer=text(prose))
    result = await OpenAIBackend(make_context()).plan(plan_request())

    assert not result.get("error"), result
    assert result["usage"]["structured_output"] == expected
    assert [_format(b) for b in fake_openai.requests] == formats
    # the schema travels in the system prompt once the request no longer carries it
    assert "JSON schema of your answer" not in _system(fake_openai.requests[0])
    assert "JSON schema of your answer" in _system(fake_openai.requests[-1])
    assert structured.remembered(fake_openai.base_url)[0] == expected


async def test_a_refused_method_is_not_tried_again_in_the_run_even_before_an_answer(
    fake_openai: FakeOpenAIServer, make_context
) -> None:
    fake_openai.push(http_error(500, LLAMA_CPP_JSON_SCHEMA_500), hang(30), auto(planner_reply()))
    backend = OpenAIBackend(make_context(model_timeout_s=0.5, model_max_retries=0))
    assert (await backend.plan(plan_request()))["error_kind"] == "timeout"
    assert not (await backend.plan(plan_request())).get("error")
    assert [_format(b) for b in fake_openai.requests] == ["json_schema", "tools", "tools"]


async def test_a_reply_that_breaks_the_schema_under_plain_text_is_re_asked_and_validated(
    fake_openai: FakeOpenAIServer, make_context
) -> None:
    broken = json.dumps({**planner_reply(), "proposedActions": "not a list"})
    fake_openai.push(text(broken), text(json.dumps(planner_reply(taskComplete=True, proposedActions=[]))))
    result = await OpenAIBackend(make_context(structured_output_method="text")).plan(plan_request())

    assert result["task_complete"] is True and not result.get("error")
    assert [_format(b) for b in fake_openai.requests] == ["text", "text"]
    assert "'not a list' is not of type 'array'" in str(fake_openai.requests[1]["messages"][-1]["content"])


async def test_a_forced_method_the_server_refuses_fails_at_once_with_a_hint(
    fake_openai: FakeOpenAIServer, make_context
) -> None:
    fake_openai.responder = refusing("json_schema", answer=planner_reply())
    result = await OpenAIBackend(make_context(structured_output_method="json_schema")).plan(plan_request())

    assert len(fake_openai.requests) == 1  # a refusal is not retried
    assert result["error_kind"] == "model_error" and result["error_retryable"] is False
    assert "500" in result["error"] and "set structured_output_method auto" in result["error"]
    assert not structured.cache_path().exists()


async def test_a_server_that_refuses_everything_but_text_answers_garbage_ends_as_invalid_reply(
    fake_openai: FakeOpenAIServer, make_context
) -> None:
    fake_openai.responder = refusing("json_schema", "tools", "json_object", answer=text("I cannot do JSON."))
    result = await OpenAIBackend(make_context()).plan(plan_request())
    assert result["error_kind"] == "invalid_reply"
    assert [_format(b) for b in fake_openai.requests] == [
        "json_schema",
        "tools",
        "json_object",
        "text",
        "text",
    ]


async def test_an_ordinary_500_is_retried_with_the_same_method(fake_openai: FakeOpenAIServer, make_context):
    fake_openai.push(http_error(500, "CUDA out of memory"), auto(planner_reply()))
    result = await OpenAIBackend(make_context()).plan(plan_request())
    assert not result.get("error"), result
    assert [_format(b) for b in fake_openai.requests] == ["json_schema", "json_schema"]


def test_a_stale_cache_entry_is_negotiated_again(tmp_path, monkeypatch) -> None:
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    server = "http://127.0.0.1:9/v1"
    old = (dt.date.today() - dt.timedelta(days=structured.CACHE_MAX_AGE_DAYS + 1)).isoformat()
    structured.cache_path().parent.mkdir(parents=True)
    structured.cache_path().write_text(json.dumps({server: {"method": "json_mode", "date": old}}))
    assert structured.starting_method("auto", server + "/") == ("json_schema", "auto")
    assert "trying json_schema first" in structured.describe("auto", server)

    fresh = dt.date.today().isoformat()
    structured.cache_path().write_text(json.dumps({server: {"method": "json_mode", "date": fresh}}))
    assert structured.starting_method("auto", server) == ("json_mode", f"remembered {fresh}")
    assert structured.starting_method("function_calling", server) == ("function_calling", "set")
    structured.cache_path().write_text("{not json")
    assert structured.starting_method("auto", server) == ("json_schema", "auto")


async def test_a_full_run_against_a_llama_cpp_like_server_negotiates_and_records_it(drive, fake_openai):  # noqa: F811
    model = Model([plan(*LOGIN_STEPS), complete("Signed in as alice")])
    result = await drive(LOGIN, refusing("json_schema", answer=model), "/login.html")

    assert result["terminal_type"] == "goal_satisfied", result
    saved = result_json(result)
    assert saved["usage"]["structured_output"] == "function_calling"
    assert [_format(b) for b in fake_openai.requests][:2] == ["json_schema", "tools"]
    assert all(_format(b) == "tools" for b in fake_openai.requests[1:])
    # every answered request is counted, and each planner/translate record carries its own call's tokens
    answered = fake_openai.usages
    assert saved["usage"]["calls"] == len(answered) == len(fake_openai.requests) - 1
    calls = [r["call_usage"] for r in trace(result) if r["node"] in ("planner", "translate")]
    assert [c["input_tokens"] for c in calls] == [u["prompt_tokens"] for u in answered]
    assert {c["structured_output"] for c in calls} == {"function_calling"}


@pytest.mark.parametrize("method", ["json_schema", "json_mode"])
async def test_a_reply_cut_at_max_tokens_is_re_asked_and_counted(
    fake_openai: FakeOpenAIServer, make_context, method
) -> None:
    """LangChain raises on finish_reason "length" under a response_format; the reply and its usage are kept."""
    cut = Reply(kind="content", payload='{"userTask": "find the pri', finish_reason="length",
                usage={"prompt_tokens": 700, "completion_tokens": 16})  # fmt: skip
    fake_openai.push(cut, auto(planner_reply(), usage={"prompt_tokens": 760, "completion_tokens": 90}))
    result = await OpenAIBackend(make_context(structured_output_method=method)).plan(plan_request())

    assert not result.get("error"), result
    assert (result["usage"]["input_tokens"], result["usage"]["output_tokens"]) == (1460, 106)
    assert result["usage"]["calls"] == 2 and len(fake_openai.requests) == 2
    assert "not valid JSON" in str(fake_openai.requests[1]["messages"][-1]["content"])
