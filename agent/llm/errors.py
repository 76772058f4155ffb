"""Model-call failures as one exception type with a clear message and a kind the graph can route on.

The OpenAI SDK, httpx and asyncio each raise their own exceptions; callers only need to know whether a retry
can help and what to tell the person ("model server returned 401 Unauthorized: ...").
"""

from __future__ import annotations

import asyncio
import re
from http import HTTPStatus
from typing import TYPE_CHECKING, Any

from agent.types import KIND_MODEL_ERROR, KIND_TIMEOUT, BackendErrorKind

#: Status codes worth retrying: rate limits, request timeouts, lock conflicts and server errors.
if TYPE_CHECKING:
    import openai

RETRYABLE_STATUS = frozenset({408, 409, 429})

_DETAIL_CHARS = 300
#: A request-format refusal: one of these statuses with a body naming the structured-output part it rejects.
REFUSAL_STATUS = frozenset({400, 422, 500})
_REFUSAL_WORDS = re.compile(
    r"response_format|json_schema|json_object|\btools?\b|tool_choice|function[_ ]call", re.I
)


def is_refusal(status: int | None, body: str) -> bool:
    """True when the server rejected the request's format: a 400/422/500 whose body names it."""
    return status in REFUSAL_STATUS and bool(_REFUSAL_WORDS.search(body or ""))


class ModelCallError(Exception):
    """A model request that failed. ``kind`` is ``model_error`` or ``timeout`` (the PlanResult error_kind)."""

    def __init__(
        self,
        message: str,
        *,
        kind: BackendErrorKind = KIND_MODEL_ERROR,
        retryable: bool = False,
        status: int | None = None,
        retry_after_s: float | None = None,
        refusal: bool = False,
    ) -> None:
        super().__init__(message)
        self.message = message
        self.kind = kind
        self.retryable = retryable
        self.status = status
        self.retry_after_s = retry_after_s
        #: The server rejected the request's structured-output format (see :mod:`agent.llm.structured`).
        self.refusal = refusal

    def after_attempts(self, attempts: int) -> ModelCallError:
        """The same error, its message noting how many attempts were made."""
        if attempts <= 1:
            return self
        return ModelCallError(
            f"{self.message} (after {attempts} attempts)",
            kind=self.kind,
            retryable=self.retryable,
            status=self.status,
            retry_after_s=self.retry_after_s,
            refusal=self.refusal,
        )


def _shorten(text: str, limit: int = _DETAIL_CHARS) -> str:
    text = " ".join(str(text).split())
    return text if len(text) <= limit else text[: limit - 3] + "..."


def _status_text(exc: openai.APIStatusError) -> str:
    """The server's own error message, whole: from the parsed body or the raw response text."""
    body: Any = exc.body
    if isinstance(body, dict):
        for key in ("message", "detail", "error"):
            if body.get(key):
                return body[key] if isinstance(body[key], str) else str(body[key])
    if isinstance(body, str) and body.strip():
        return body
    try:
        text = exc.response.text
    except Exception:  # an unread streaming body: fall back to the SDK message
        text = ""
    return text or exc.message


def _reason(status: int, exc: openai.APIStatusError) -> str:
    phrase = getattr(exc.response, "reason_phrase", "") or ""
    if not phrase:
        try:
            phrase = HTTPStatus(status).phrase
        except ValueError:
            phrase = ""
    return f"{status} {phrase}".strip()


def _retry_after(exc: openai.APIStatusError) -> float | None:
    """Seconds the server asked us to wait (Retry-After or retry-after-ms), when it said so."""
    headers = getattr(exc.response, "headers", None) or {}
    for name, scale in (("retry-after-ms", 0.001), ("retry-after", 1.0)):
        value = headers.get(name)
        if value is None:
            continue
        try:
            return max(0.0, float(value) * scale)
        except ValueError:
            continue
    return None


def classify(exc: BaseException, *, timeout_s: float, base_url: str | None) -> ModelCallError:
    """Turn any exception from a model call into a :class:`ModelCallError` (never raises)."""
    import openai  # here, not at the top: a run with the offline planner never loads the SDK (~0.5 s)

    server = base_url or "api.openai.com"
    if isinstance(exc, ModelCallError):
        return exc
    if isinstance(exc, openai.APITimeoutError | asyncio.TimeoutError | TimeoutError):
        return ModelCallError(
            f"model request timed out after {timeout_s:g} s (server {server})",
            kind=KIND_TIMEOUT,
            retryable=True,
        )
    if isinstance(exc, openai.APIConnectionError):
        cause = exc.__cause__ or exc
        return ModelCallError(
            f"cannot reach model server at {server}: {_shorten(str(cause))}", retryable=True
        )
    if isinstance(exc, openai.APIStatusError):
        status = exc.status_code
        text = _status_text(exc)
        refusal = is_refusal(status, text)
        retryable = not refusal and (status in RETRYABLE_STATUS or status >= 500)
        return ModelCallError(
            f"model server returned {_reason(status, exc)}: {_shorten(text)}",
            retryable=retryable,
            status=status,
            retry_after_s=_retry_after(exc),
            refusal=refusal,
        )
    return ModelCallError(f"model call failed: {type(exc).__name__}: {_shorten(str(exc))}")
