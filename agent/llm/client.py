"""Building the chat model and calling it with a hard timeout and our own bounded retries.

The SDK's own retries are switched off (``max_retries=0``) so one place decides what is retried (429, 5xx,
connection errors, timeouts) and what is not (400/401/403/404, a refused structured-output format), and so
every attempt has a wall-clock bound: an ``asyncio.wait_for`` around the request, because the HTTP timeout
alone does not bound a server that trickles bytes.

A request we gave up on may still run on the server (llama.cpp's server finishes a non-streamed generation
even after the client closed the connection, and serves one request at a time), so a retry after a timeout
would wait behind it. Each request therefore asks for at most ``max_tokens`` output tokens (bounding that
leftover work), a timeout is retried at most once, with twice the time, and only when the run's remaining
time (``deadline``) allows it; no attempt outlives the deadline.
"""

from __future__ import annotations

import asyncio
import os
import random
import time
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any, TypeVar

from agent.llm.errors import ModelCallError, classify
from agent.types import KIND_TIMEOUT

if TYPE_CHECKING:
    from langchain_openai import ChatOpenAI

T = TypeVar("T")

#: Used when neither a model nor a key is configured: local servers ignore both.
DEFAULT_MODEL = "gpt-4o-mini"
PLACEHOLDER_API_KEY = "not-needed"
#: Longest pause between two attempts, whatever the backoff or Retry-After says.
MAX_BACKOFF_S = 20.0


def resolve_api_key(setting: str | None) -> str:
    """The configured key, else OPENAI_API_KEY, else a placeholder so keyless local servers work."""
    return setting or os.environ.get("OPENAI_API_KEY") or PLACEHOLDER_API_KEY


def make_chat_model(
    *,
    model: str | None,
    base_url: str | None,
    api_key: str | None,
    temperature: float,
    timeout_s: float,
    max_tokens: int | None = None,
) -> ChatOpenAI:
    """A ChatOpenAI on the chat-completions protocol (what vLLM, Ollama and llama.cpp speak), no SDK retries.

    ``max_tokens`` bounds each reply. LangChain sends it as ``max_completion_tokens``, which OpenAI wants but
    llama.cpp's server ignores, so other servers get the classic ``max_tokens`` as well (same value).
    """
    kwargs: dict[str, Any] = {
        "model": model or DEFAULT_MODEL,
        "api_key": resolve_api_key(api_key),
        "temperature": temperature,
        # the HTTP client's own bound leaves room for the one longer attempt after a timeout (see
        # call_with_retries); asyncio.wait_for bounds each attempt exactly
        "timeout": 2 * timeout_s,
        "max_retries": 0,
        "use_responses_api": False,
        # Streaming would switch to a different request path; structured replies gain nothing from it.
        "disable_streaming": True,
    }
    if base_url:
        kwargs["base_url"] = base_url
    if max_tokens:
        kwargs["max_tokens"] = max_tokens
        if base_url:
            kwargs["extra_body"] = {"max_tokens": max_tokens}
    # imported here: langchain_openai and the OpenAI SDK take ~0.6 s to load, which a run with the offline
    # planner (the default) would pay for nothing
    from langchain_openai import ChatOpenAI

    return ChatOpenAI(**kwargs)


def backoff_delay(
    attempt: int,
    base_s: float,
    *,
    retry_after_s: float | None = None,
    rng: Callable[[], float] = random.random,
) -> float:
    """Seconds to wait before retry number ``attempt + 1``: exponential with up to 25% jitter, or the
    server's Retry-After when it gave one; never more than :data:`MAX_BACKOFF_S`."""
    if retry_after_s is not None:
        return min(MAX_BACKOFF_S, retry_after_s)
    delay = base_s * (2**attempt) * (1.0 + 0.25 * rng())
    return min(MAX_BACKOFF_S, delay)


async def call_with_retries(
    make_call: Callable[[], Awaitable[T]],
    *,
    timeout_s: float,
    max_retries: int,
    base_s: float,
    base_url: str | None,
    sleep: Callable[[float], Awaitable[Any]] = asyncio.sleep,
    deadline: float | None = None,
) -> T:
    """Run ``make_call()`` with a timeout per attempt and up to ``max_retries`` retries on transient errors.

    ``deadline`` (``time.monotonic()`` seconds) is when the run's time budget ends: no attempt runs past it,
    and a retry that could not finish before it is not started. A timed-out attempt is retried once at most,
    with twice ``timeout_s`` (it may wait behind the abandoned generation). Raises :class:`ModelCallError`
    (kind ``model_error`` or ``timeout``) when it gives up.
    """
    attempt = 0
    limit = timeout_s
    timed_out = False
    while True:
        left = None if deadline is None else deadline - time.monotonic()
        if left is not None and left <= 0:
            raise ModelCallError(
                "no time left in the run's budget for a model request", kind=KIND_TIMEOUT
            ).after_attempts(attempt)
        bound = limit if left is None else min(limit, left)
        try:
            return await asyncio.wait_for(make_call(), timeout=bound)
        except asyncio.CancelledError:
            raise
        except Exception as exc:
            error = classify(exc, timeout_s=round(bound, 1), base_url=base_url)
            if error.kind == KIND_TIMEOUT:
                limit = 2 * timeout_s
                retry = not timed_out and (left is None or left - bound >= limit)
                timed_out = True
            else:
                retry = error.retryable
            if not retry or attempt >= max_retries:
                raise error.after_attempts(attempt + 1) from exc
            await sleep(backoff_delay(attempt, base_s, retry_after_s=error.retry_after_s))
            attempt += 1


__all__ = [
    "DEFAULT_MODEL",
    "MAX_BACKOFF_S",
    "ModelCallError",
    "backoff_delay",
    "call_with_retries",
    "make_chat_model",
    "resolve_api_key",
]
