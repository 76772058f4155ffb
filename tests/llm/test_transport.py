"""Transport over real HTTP: retries and backoff, errors that are not retried, timeouts, keys, usage and cost."""

from __future__ import annotations

import socket
import time

import pytest

from agent.planning.llm import OpenAIBackend
from tests.llm.fake_openai import FakeOpenAIServer, auto, hang, http_error, text
from tests.llm.helpers import executor_reply, plan_request, planner_reply, translate_request


class SleepRecorder:
    """Stands in for asyncio.sleep: records the backoff delays without waiting."""

    def __init__(self) -> None:
        self.delays: list[float] = []

    async def __call__(self, delay: float) -> None:
        self.delays.append(delay)


async def test_500_then_success(fake_openai: FakeOpenAIServer, make_context) -> None:
    fake_openai.push(http_error(500, "upstream exploded"), planner_reply())
    result = await OpenAIBackend(make_context()).plan(plan_request())
    assert "error" not in result
    assert result["proposed_actions"] == planner_reply()["proposedActions"]
    assert len(fake_openai.requests) == 2
    assert result["usage"]["calls"] == 1  # the failed attempt returned no usage


async def test_429_is_retried_honouring_retry_after(fake_openai: FakeOpenAIServer, make_context) -> None:
    sleep = SleepRecorder()
    fake_openai.push(http_error(429, "slow down", headers={"Retry-After": "0.05"}), executor_reply())
    result = await OpenAIBackend(make_context(), sleep=sleep).translate(translate_request())
    assert result["action"]["element_id"] == 5
    assert len(fake_openai.requests) == 2
    assert sleep.delays == [0.05]


async def test_backoff_grows_and_retries_are_bounded(fake_openai: FakeOpenAIServer, make_context) -> None:
    sleep = SleepRecorder()
    fake_openai.push(*[http_error(503, "overloaded")] * 5)
    backend = OpenAIBackend(make_context(model_max_retries=2, model_retry_backoff_s=0.5), sleep=sleep)
    result = await backend.plan(plan_request())
    assert result["error_kind"] == "model_error"
    assert result["error"] == "model server returned 503 Service Unavailable: overloaded (after 3 attempts)"
    assert len(fake_openai.requests) == 3
    assert len(sleep.delays) == 2
    assert 0.5 <= sleep.delays[0] <= 0.625 and 1.0 <= sleep.delays[1] <= 1.25


@pytest.mark.parametrize(
    ("status", "phrase"),
    [(400, "Bad Request"), (401, "Unauthorized"), (403, "Forbidden"), (404, "Not Found")],
)
async def test_client_errors_are_not_retried(
    fake_openai: FakeOpenAIServer, make_context, status: int, phrase: str
) -> None:
    fake_openai.push(http_error(status, "Incorrect API key provided"), planner_reply())
    result = await OpenAIBackend(make_context()).plan(plan_request())
    assert len(fake_openai.requests) == 1
    assert result["error_kind"] == "model_error"
    assert result["error"] == f"model server returned {status} {phrase}: Incorrect API key provided"
    assert result["proposed_actions"] == [] and result["task_complete"] is False


async def test_hanging_server_hits_the_timeout(fake_openai: FakeOpenAIServer, make_context) -> None:
    fake_openai.push(hang(30))
    backend = OpenAIBackend(make_context(model_timeout_s=1.0, model_max_retries=0))
    started = time.monotonic()
    result = await backend.plan(plan_request())
    elapsed = time.monotonic() - started
    assert result["error_kind"] == "timeout"
    assert result["error"].startswith("model request timed out after 1 s")
    assert elapsed < 3.0


async def test_a_timeout_is_retried(fake_openai: FakeOpenAIServer, make_context) -> None:
    fake_openai.push(hang(30), executor_reply())
    backend = OpenAIBackend(make_context(model_timeout_s=0.5, model_max_retries=1))
    result = await backend.translate(translate_request())
    assert result["action"]["action"] == "click"
    assert len(fake_openai.requests) == 2


async def test_a_timeout_is_retried_once_only_with_twice_the_time(
    fake_openai: FakeOpenAIServer, make_context
) -> None:
    """A request given up on may still run on a one-at-a-time server: the retry gets room to wait behind it,
    and a second timeout is not retried again (it would queue behind two abandoned generations)."""
    fake_openai.push(hang(30), hang(30), executor_reply())
    backend = OpenAIBackend(make_context(model_timeout_s=0.4, model_max_retries=3))
    started = time.monotonic()
    result = await backend.translate(translate_request())
    elapsed = time.monotonic() - started
    assert result["error_kind"] == "timeout" and result["error"].endswith("(after 2 attempts)")
    # the re-ask is not made after a transport error: one question, two attempts (0.4 s, then 0.8 s)
    assert len(fake_openai.requests) == 2
    assert 1.2 <= elapsed < 3.0


async def test_no_retry_starts_that_the_run_budget_cannot_finish(fake_openai: FakeOpenAIServer, make_context):
    """The planner's metrics say how much of max_seconds is left: attempts stop at that deadline."""
    fake_openai.push(hang(30), hang(30), planner_reply())
    backend = OpenAIBackend(make_context(model_timeout_s=1.0, model_max_retries=3, max_seconds=10.0))
    started = time.monotonic()
    request = plan_request(metrics={"tool_calls": 0, "errors": 0, "observations": 1, "elapsed_s": 9.3})
    result = await backend.plan(request)
    elapsed = time.monotonic() - started
    assert result["error_kind"] == "timeout" and len(fake_openai.requests) == 1
    assert "after 0.7 s" in result["error"] and elapsed < 1.5


async def test_each_node_asks_for_its_own_max_tokens(fake_openai: FakeOpenAIServer, make_context) -> None:
    fake_openai.push(planner_reply(), executor_reply())
    backend = OpenAIBackend(make_context(planner_max_output_tokens=321, executor_max_output_tokens=123))
    await backend.plan(plan_request())
    await backend.translate(translate_request())
    planner, executor = fake_openai.requests
    # max_completion_tokens for OpenAI, and the classic max_tokens that llama.cpp's server reads
    assert (planner["max_completion_tokens"], planner["max_tokens"]) == (321, 321)
    assert (executor["max_completion_tokens"], executor["max_tokens"]) == (123, 123)


async def test_unreachable_server_is_a_clear_error(make_context) -> None:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    backend = OpenAIBackend(make_context(base_url=f"http://127.0.0.1:{port}/v1", model_max_retries=1))
    result = await backend.translate(translate_request())
    assert result["error_kind"] == "model_error"
    assert result["error"].startswith(f"cannot reach model server at http://127.0.0.1:{port}/v1")
    assert result["error"].endswith("(after 2 attempts)")
    assert result["action"] is None and result["status"] == "failure"


async def test_key_and_models_are_sent(fake_openai: FakeOpenAIServer, make_context, monkeypatch) -> None:
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    fake_openai.push(planner_reply(), executor_reply())
    backend = OpenAIBackend(make_context(api_key=None, executor_model="small-model", temperature=0.2))
    await backend.plan(plan_request())
    await backend.translate(translate_request())
    assert [h.get("authorization") for h in fake_openai.headers] == ["Bearer not-needed"] * 2
    assert [r["model"] for r in fake_openai.requests] == ["fake-model", "small-model"]
    assert all(r["temperature"] == 0.2 for r in fake_openai.requests)

    monkeypatch.setenv("OPENAI_API_KEY", "sk-from-env")
    fake_openai.push(planner_reply())
    await OpenAIBackend(make_context(api_key=None)).plan(plan_request())
    assert fake_openai.headers[-1]["authorization"] == "Bearer sk-from-env"


async def test_tokens_and_cost_match_the_server(fake_openai: FakeOpenAIServer, make_context) -> None:
    """The re-asked call's usage includes both requests; cost follows the price settings."""
    fake_openai.push(
        text("not json", usage={"prompt_tokens": 1200, "completion_tokens": 30}),
        auto(planner_reply(), usage={"prompt_tokens": 1300, "completion_tokens": 250}),
        auto(executor_reply(), usage={"prompt_tokens": 800, "completion_tokens": 40}),
    )
    backend = OpenAIBackend(make_context(price_per_1k_input=0.5, price_per_1k_output=2.0))
    plan = await backend.plan(plan_request())
    assert plan["usage"] == {
        "input_tokens": 2500,
        "output_tokens": 280,
        "total_tokens": 2780,
        "calls": 2,
        "cost_usd": pytest.approx(2.5 * 0.5 + 0.28 * 2.0),
        "structured_output": "json_schema",
    }
    translated = await backend.translate(translate_request())
    assert translated["usage"]["input_tokens"] == 800 and translated["usage"]["calls"] == 1

    served = fake_openai.total_usage
    assert plan["usage"]["input_tokens"] + translated["usage"]["input_tokens"] == served["prompt_tokens"]
    assert (
        plan["usage"]["output_tokens"] + translated["usage"]["output_tokens"] == served["completion_tokens"]
    )
    assert plan["usage"]["total_tokens"] + translated["usage"]["total_tokens"] == served["total_tokens"]


async def test_usage_is_kept_when_the_reask_fails(fake_openai: FakeOpenAIServer, make_context) -> None:
    fake_openai.push(
        text("nope", usage={"prompt_tokens": 100, "completion_tokens": 5}), http_error(401, "revoked")
    )
    result = await OpenAIBackend(make_context()).plan(plan_request())
    assert result["error_kind"] == "model_error" and "401 Unauthorized: revoked" in result["error"]
    assert result["usage"]["input_tokens"] == 100 and result["usage"]["calls"] == 1


async def test_no_local_tokenizer_is_used(fake_openai: FakeOpenAIServer, make_context, monkeypatch) -> None:
    """tiktoken downloads its tables on first use: the backend must never reach it."""
    import tiktoken

    def forbidden(*args, **kwargs):
        raise AssertionError("tiktoken was used")

    monkeypatch.setattr(tiktoken, "get_encoding", forbidden)
    monkeypatch.setattr(tiktoken, "encoding_for_model", forbidden)
    fake_openai.push(text("junk"), planner_reply(), executor_reply())
    backend = OpenAIBackend(make_context())
    assert backend.name == "openai"
    assert "error" not in await backend.plan(plan_request())
    assert "error" not in await backend.translate(translate_request())


def test_unknown_output_method_is_refused(make_context) -> None:
    with pytest.raises(ValueError, match="structured_output_method must be one of"):
        OpenAIBackend(make_context(structured_output_method="xml"))
