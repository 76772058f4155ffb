"""Which structured-output method a server accepts, found by trying, and remembered.

Servers differ: OpenAI takes ``response_format: json_schema``; llama.cpp's Python server answers it with HTTP 500
("Input should be 'text' or 'json_object'") but takes tools; some take neither. With the setting ``auto`` the
client starts with ``json_schema`` and, when the server *refuses the request format* (400, 422 or 500 whose body
names response_format / json_schema / tools), moves on: ``function_calling``, then ``json_mode``, then plain
``text`` (the schema in the prompt, our lenient parser and jsonschema validation either way). Any other failure
(a timeout, a 401, a bad reply) is not a refusal and never changes the method.

The method that worked is remembered for the process (so every later call of the run starts there) and per
base URL in the user's cache directory (``$XDG_CACHE_HOME/wayfinder/structured_output.json``) with its date; an
entry older than :data:`CACHE_MAX_AGE_DAYS` is tried afresh.
"""

from __future__ import annotations

import contextlib
import datetime as dt
import json
import os
import threading
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from langchain_core.messages import AIMessage, BaseMessage
from langchain_core.runnables import Runnable, RunnableLambda

from agent.llm.errors import ModelCallError

#: The methods, in the order ``auto`` tries them.
METHODS = ("json_schema", "function_calling", "json_mode", "text")
AUTO = "auto"
SETTING_CHOICES = (AUTO, *METHODS)
#: Methods whose request does not carry the schema: it goes into the system prompt instead.
SCHEMA_IN_PROMPT = ("json_mode", "text")
CACHE_MAX_AGE_DAYS = 30
DEFAULT_SERVER = "https://api.openai.com/v1"


def next_method(method: str) -> str | None:
    """The method ``auto`` tries after ``method`` was refused (None after plain text)."""
    index = METHODS.index(method)
    return METHODS[index + 1] if index + 1 < len(METHODS) else None


def server_key(base_url: str | None) -> str:
    """The server a method is remembered for: its base URL without a trailing slash."""
    return (base_url or DEFAULT_SERVER).rstrip("/")


# ---------------------------------------------------------------------------------------------------------
# Memory: this process, and the user's cache directory
# ---------------------------------------------------------------------------------------------------------


def cache_path() -> Path:
    """``$XDG_CACHE_HOME/wayfinder/structured_output.json`` (``~/.cache`` when XDG_CACHE_HOME is unset)."""
    root = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(root) / "wayfinder" / "structured_output.json"


_lock = threading.Lock()
#: server key -> method that worked in this process (the run's memory).
_negotiated: dict[str, str] = {}
#: server key -> method this process wrote to the cache (written once per method).
_saved: dict[str, str] = {}


def _read_cache() -> dict[str, Any]:
    with contextlib.suppress(OSError, ValueError):
        data = json.loads(cache_path().read_text(encoding="utf-8"))
        if isinstance(data, dict):
            return data
    return {}


def remembered(base_url: str | None, *, today: dt.date | None = None) -> tuple[str, str] | None:
    """(method, date) this server worked with, from this process or the cache while the entry is fresh."""
    key = server_key(base_url)
    with _lock:
        if key in _negotiated:
            return _negotiated[key], (today or dt.date.today()).isoformat()
    entry = _read_cache().get(key)
    if not isinstance(entry, dict) or entry.get("method") not in METHODS:
        return None
    try:
        when = dt.date.fromisoformat(str(entry.get("date")))
    except ValueError:
        return None
    if ((today or dt.date.today()) - when).days > CACHE_MAX_AGE_DAYS:
        return None
    return entry["method"], when.isoformat()


def remember(base_url: str | None, method: str, *, model: str | None = None) -> None:
    """Note that ``method`` works with this server, for the run and in the cache (best effort on disk)."""
    key = server_key(base_url)
    with _lock:
        if _saved.get(key) == method:
            return
        _negotiated[key] = method
        _saved[key] = method
    with _lock, contextlib.suppress(OSError):
        data = _read_cache()
        data[key] = {"method": method, "model": model, "date": dt.date.today().isoformat()}
        path = cache_path()
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_suffix(".tmp")
        tmp.write_text(json.dumps(data, indent=1, sort_keys=True), encoding="utf-8")
        tmp.replace(path)


def note_refusal(base_url: str | None, following: str) -> None:
    """A method was refused: the rest of the run starts with ``following`` (the cache on disk is written
    only once a method has answered)."""
    with _lock:
        _negotiated[server_key(base_url)] = following


def forget_run_memory() -> None:
    """Forget what this process negotiated (tests; the cache on disk stays)."""
    with _lock:
        _negotiated.clear()
        _saved.clear()


def starting_method(setting: str, base_url: str | None) -> tuple[str, str]:
    """The method to send first and why: ``(method, "set")``, ``(method, "remembered 2026-11-25")`` or
    ``("json_schema", "auto")`` when nothing is known about this server yet."""
    if setting != AUTO:
        return setting, "set"
    known = remembered(base_url)
    if known is not None:
        return known[0], f"remembered {known[1]}"
    return METHODS[0], AUTO


def describe(setting: str, base_url: str | None) -> str:
    """One phrase for the first CLI line: ``structured output: function_calling (remembered 2026-11-25)``."""
    method, why = starting_method(setting, base_url)
    if why == "set":
        return f"structured output: {method}"
    if why == AUTO:
        return f"structured output: auto (trying {method} first)"
    return f"structured output: {method} ({why}; auto)"


# ---------------------------------------------------------------------------------------------------------
# The request for one method
# ---------------------------------------------------------------------------------------------------------


def _as_structured(message: Any) -> dict[str, Any]:
    return {"raw": message if isinstance(message, AIMessage) else None, "parsed": None, "parsing_error": None}


class _LengthSafe:
    """LangChain raises ``LengthFinishReasonError`` (and drops the reply and its usage) when a reply with a
    ``response_format`` stops at ``max_tokens``; this keeps it as a reply whose JSON will not parse, so the
    re-ask and the token counts work as for any bad reply."""

    def __init__(self, inner: Runnable) -> None:
        self.inner = inner

    async def ainvoke(self, messages: list[BaseMessage]) -> dict[str, Any]:
        import openai  # loaded with the chat model already; not at the top, so offline runs never load it

        try:
            return await self.inner.ainvoke(messages)
        except openai.LengthFinishReasonError as exc:
            completion = exc.completion
            message = completion.choices[0].message if completion.choices else None
            usage = completion.usage
            raw = AIMessage(
                content=(message.content if message else "") or "",
                usage_metadata={
                    "input_tokens": usage.prompt_tokens if usage else 0,
                    "output_tokens": usage.completion_tokens if usage else 0,
                    "total_tokens": usage.total_tokens if usage else 0,
                },
            )
            return {"raw": raw, "parsed": None, "parsing_error": exc}


def structured_runnable(chat: Any, schema: dict[str, Any], method: str) -> Any:
    """A runnable whose ``ainvoke(messages)`` returns ``{"raw", "parsed", "parsing_error"}`` for ``method``:
    LangChain's structured output, or for ``text`` the plain reply (parsed by our lenient parser later)."""
    if method == "text":
        return chat | RunnableLambda(_as_structured)
    return _LengthSafe(chat.with_structured_output(schema, method=method, include_raw=True))


@dataclass
class StructuredAsker:
    """Asks one chat model for replies of one schema, with the method negotiated as above.

    ``call(runnable, messages)`` performs one question (retries and timeouts included) and raises
    :class:`ModelCallError`; ``messages_for(method)`` builds the request for a method (``json_mode`` and
    ``text`` need the schema in the system prompt). The method a reply came with is in :attr:`last_method`.
    """

    chat: Any
    schema: dict[str, Any]
    setting: str
    base_url: str | None
    model: str | None
    call: Callable[[Runnable, list[BaseMessage]], Awaitable[dict[str, Any]]]
    last_method: str = ""
    _runnables: dict[str, Runnable] = field(default_factory=dict)

    def __post_init__(self) -> None:
        self.last_method = starting_method(self.setting, self.base_url)[0]

    def _runnable(self, method: str) -> Runnable:
        if method not in self._runnables:
            self._runnables[method] = structured_runnable(self.chat, self.schema, method)
        return self._runnables[method]

    async def ask(self, messages_for: Callable[[str], list[BaseMessage]]) -> dict[str, Any]:
        """The structured result of one question; a refused format moves ``auto`` on to the next method."""
        method = starting_method(self.setting, self.base_url)[0]
        refused: list[str] = []
        while True:
            self.last_method = method
            try:
                result = await self.call(self._runnable(method), messages_for(method))
            except ModelCallError as exc:
                following = next_method(method) if exc.refusal and self.setting == AUTO else None
                if following is None:
                    raise _explained(exc, method, refused, self.setting) from exc
                refused.append(method)
                method = following
                note_refusal(self.base_url, method)
                continue
            if self.setting == AUTO:
                remember(self.base_url, method, model=self.model)
            return result


def _explained(exc: ModelCallError, method: str, refused: list[str], setting: str) -> ModelCallError:
    """A refusal's message saying what was tried and what to set instead."""
    if not exc.refusal:
        return exc
    if setting == AUTO:
        hint = f"the server refused every structured-output method ({', '.join([*refused, method])})"
    else:
        hint = f"the server refuses structured output '{method}'; set structured_output_method auto"
    return ModelCallError(
        f"{exc.message} ({hint})", kind=exc.kind, retryable=False, status=exc.status, refusal=True
    )


__all__ = [
    "StructuredAsker",
    "AUTO",
    "METHODS",
    "SCHEMA_IN_PROMPT",
    "SETTING_CHOICES",
    "cache_path",
    "describe",
    "forget_run_memory",
    "next_method",
    "remember",
    "remembered",
    "server_key",
    "starting_method",
    "structured_runnable",
]
