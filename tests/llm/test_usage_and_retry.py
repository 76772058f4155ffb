"""Pure helpers: usage sums and cost, backoff delays, error messages."""

from __future__ import annotations

import pytest

from agent.context import Context
from agent.llm.client import MAX_BACKOFF_S, backoff_delay, resolve_api_key
from agent.llm.usage import add_usage, cost_usd, empty_usage, sum_usage, usage_from_metadata


def test_usage_from_metadata_prices_tokens() -> None:
    usage = usage_from_metadata(
        {"input_tokens": 2000, "output_tokens": 500, "total_tokens": 2500},
        price_per_1k_input=0.15,
        price_per_1k_output=0.6,
    )
    assert usage == {
        "input_tokens": 2000,
        "output_tokens": 500,
        "total_tokens": 2500,
        "calls": 1,
        "cost_usd": pytest.approx(0.3 + 0.3),
    }


def test_missing_usage_still_counts_the_call() -> None:
    assert usage_from_metadata(None) == {**empty_usage(), "calls": 1}


def test_add_and_sum_usage() -> None:
    a = {"input_tokens": 10, "output_tokens": 2, "total_tokens": 12, "calls": 1, "cost_usd": 0.5}
    b = {"input_tokens": 5, "output_tokens": 1, "total_tokens": 6, "calls": 1, "cost_usd": 0.25}
    assert add_usage(a, b) == {
        "input_tokens": 15,
        "output_tokens": 3,
        "total_tokens": 18,
        "calls": 2,
        "cost_usd": 0.75,
    }
    assert add_usage(a, None) == {**a}
    assert sum_usage([a, b, None, {}]) == add_usage(a, b)
    assert cost_usd(1000, 1000, 1.0, 2.0) == 3.0


def test_backoff_is_exponential_with_bounded_jitter() -> None:
    assert backoff_delay(0, 0.1, rng=lambda: 0.0) == pytest.approx(0.1)
    assert backoff_delay(2, 0.1, rng=lambda: 0.0) == pytest.approx(0.4)
    assert backoff_delay(2, 0.1, rng=lambda: 1.0) == pytest.approx(0.5)
    assert backoff_delay(30, 1.0) == MAX_BACKOFF_S


def test_retry_after_wins_but_is_capped() -> None:
    assert backoff_delay(3, 1.0, retry_after_s=0.2) == 0.2
    assert backoff_delay(0, 1.0, retry_after_s=3600) == MAX_BACKOFF_S


def test_api_key_falls_back_to_env_then_placeholder(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    assert resolve_api_key(None) == "not-needed"
    monkeypatch.setenv("OPENAI_API_KEY", "sk-env")
    assert resolve_api_key(None) == "sk-env"
    assert resolve_api_key("sk-set") == "sk-set"


def test_max_call_seconds_covers_retries_and_the_reask() -> None:
    from agent.planning.llm import max_call_seconds

    ctx = Context(model_timeout_s=10.0, model_max_retries=2, model_retry_backoff_s=1.0)
    # attempts: 10 s, then (after a timeout) 20 s each; backoffs 1.25 + 2.5; twice for the re-ask
    assert max_call_seconds(ctx) == 2 * (10.0 + 20.0 + 20.0 + 1.25 + 2.5)
    assert max_call_seconds(Context(model_timeout_s=1.0, model_max_retries=0)) == 2.0
