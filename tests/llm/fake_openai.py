"""A scripted OpenAI-compatible chat-completions server on 127.0.0.1, for tests of the real request path.

``ChatOpenAI(base_url=server.base_url)`` talks to it over real HTTP, so the SDK's request building, response
parsing, error mapping and timeouts are all exercised. Each request takes the next entry of the script:

- a ``str`` or ``dict`` (dicts are JSON-encoded): answered the way the request asks — as a tool call when the
  request carries ``tools`` (to the tool ``tool_choice`` names, else the first), else as message content;
- :func:`text` (always content, even when tools were offered), :func:`tool_call` (always a tool call);
- :func:`http_error` (a status with an OpenAI-style error body), :func:`hang` (no answer for a while);
- :func:`delayed` (any reply, after a pause);
- a callable ``f(body) -> entry`` deciding from the request body (e.g. planner or executor prompt);
  :func:`refusing` wraps one so it refuses structured-output formats the way real servers do.

When the script is empty, ``responder`` (a callable like the above) answers, else the server returns a 400
naming the problem. Every request body is recorded in ``requests``; the usage figures sent back are in
``usages``. Reuse from other test folders: ``from tests.llm.fake_openai import FakeOpenAIServer`` or import
the :func:`fake_openai` and :func:`fake_openai_session` fixtures into a conftest.
"""

from __future__ import annotations

import contextlib
import itertools
import json
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import pytest


@dataclass
class Reply:
    """One scripted answer. ``kind``: auto | content | tool | error | hang."""

    kind: str = "auto"
    payload: Any = ""
    status: int = 200
    delay_s: float = 0.0
    usage: dict[str, int] | None = None
    headers: dict[str, str] = field(default_factory=dict)
    tool_name: str | None = None
    finish_reason: str | None = None  # e.g. "length": the reply was cut at max_tokens


Entry = str | dict | Reply | Callable[[dict[str, Any]], Any]


def text(content: str, *, usage: dict[str, int] | None = None) -> Reply:
    """Message content, whatever the request asked for (e.g. no tool call under function_calling)."""
    return Reply(kind="content", payload=content, usage=usage)


def tool_call(
    arguments: dict | str, *, name: str | None = None, usage: dict[str, int] | None = None
) -> Reply:
    """A tool call with these arguments (a string is sent verbatim, so it may be broken JSON)."""
    return Reply(kind="tool", payload=arguments, tool_name=name, usage=usage)


def auto(payload: dict | str, *, usage: dict[str, int] | None = None) -> Reply:
    """Content or tool call, as the request asks; use this to set usage figures on a plain reply."""
    return Reply(kind="auto", payload=payload, usage=usage)


def http_error(status: int, message: str = "", *, headers: dict[str, str] | None = None) -> Reply:
    return Reply(kind="error", status=status, payload=message or f"scripted {status}", headers=headers or {})


def hang(seconds: float = 30.0) -> Reply:
    """Hold the request open without answering (released early when the server stops)."""
    return Reply(kind="hang", delay_s=seconds)


def delayed(entry: Entry, seconds: float) -> Reply:
    reply = _as_reply(entry, {})
    reply.delay_s = seconds
    return reply


#: llama-cpp-python's server answer to ``response_format: json_schema`` (HTTP 500), as measured.
LLAMA_CPP_JSON_SCHEMA_500 = (
    "1 validation error:\n  {'type': 'literal_error', 'loc': ('body', 'response_format', 'type'), "
    "'msg': \"Input should be 'text' or 'json_object'\", 'input': 'json_schema'}"
)
#: What other servers say when they take no tools or no JSON mode (HTTP 400).
NO_TOOLS_400 = "this server does not support tools (tool_choice / tools)"
NO_JSON_MODE_400 = "response_format type json_object is not supported"


def refusing(*refused: str, answer: Entry) -> Callable[[dict[str, Any]], Any]:
    """A responder that refuses the request formats named in ``refused`` (``json_schema``: a 500 worded like
    llama.cpp's; ``tools`` and ``json_object``: a 400) and otherwise answers with ``answer``."""

    def respond(body: dict[str, Any]) -> Any:
        kind = (body.get("response_format") or {}).get("type")
        if kind == "json_schema" and "json_schema" in refused:
            return http_error(500, LLAMA_CPP_JSON_SCHEMA_500)
        if body.get("tools") and "tools" in refused:
            return http_error(400, NO_TOOLS_400)
        if kind == "json_object" and "json_object" in refused:
            return http_error(400, NO_JSON_MODE_400)
        return answer

    return respond


def _as_reply(entry: Any, body: dict[str, Any]) -> Reply:
    while callable(entry) and not isinstance(entry, Reply):
        entry = entry(body)
    if isinstance(entry, Reply):
        return Reply(**entry.__dict__)
    if isinstance(entry, dict | str):
        return Reply(kind="auto", payload=entry)
    raise TypeError(f"fake_openai: unsupported script entry {entry!r}")


def _estimate_tokens(value: Any) -> int:
    return max(1, len(json.dumps(value, ensure_ascii=False)) // 4)


def last_user_text(body: dict[str, Any]) -> str:
    """All text of the request's messages joined, for callables that answer by prompt content."""
    parts = []
    for message in body.get("messages", []):
        content = message.get("content")
        if isinstance(content, str):
            parts.append(content)
        elif isinstance(content, list):
            parts += [c.get("text", "") for c in content if isinstance(c, dict)]
    return "\n".join(parts)


def is_planner_request(body: dict[str, Any]) -> bool:
    """True for a Wayfinder planner request, False for an executor one (by the schema or system prompt)."""
    blob = json.dumps(body.get("response_format") or body.get("tools") or "")
    if "planner_output" in blob:
        return True
    if "executor_output" in blob:
        return False
    messages = body.get("messages") or [{}]
    return "You are the planner" in str(messages[0].get("content", ""))


class _Server(ThreadingHTTPServer):
    daemon_threads = True
    block_on_close = False
    fake: FakeOpenAIServer


class _Handler(BaseHTTPRequestHandler):
    server: _Server

    def log_message(self, format: str, *args: Any) -> None:  # noqa: A002 - silence request logging
        return

    def _send_json(self, status: int, payload: Any, headers: dict[str, str] | None = None) -> None:
        data = json.dumps(payload).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        for key, value in (headers or {}).items():
            self.send_header(key, value)
        self.end_headers()
        with contextlib.suppress(BrokenPipeError, ConnectionResetError):  # the client gave up (timeout test)
            self.wfile.write(data)

    def do_GET(self) -> None:  # noqa: N802 - http.server naming
        if self.path.rstrip("/").endswith("/models"):
            model = self.server.fake.model
            self._send_json(200, {"object": "list", "data": [{"id": model, "object": "model"}]})
        else:
            self._send_json(404, {"error": {"message": f"no route {self.path}", "type": "not_found"}})

    def do_POST(self) -> None:  # noqa: N802
        length = int(self.headers.get("Content-Length") or 0)
        raw = self.rfile.read(length) if length else b""
        try:
            body = json.loads(raw or b"{}")
        except json.JSONDecodeError:
            self._send_json(400, {"error": {"message": "fake_openai: request body is not JSON"}})
            return
        fake = self.server.fake
        if not self.path.rstrip("/").endswith("/chat/completions"):
            self._send_json(404, {"error": {"message": f"fake_openai: no route {self.path}"}})
            return
        released = fake._stopping
        fake._record(body, {k.lower(): v for k, v in self.headers.items()}, self.path)
        if body.get("stream"):
            self._send_json(400, {"error": {"message": "fake_openai: streaming is not supported"}})
            return
        try:
            reply = fake._next_reply(body)
        except Exception as exc:  # a broken script must fail the test loudly, not hang it
            self._send_json(400, {"error": {"message": f"fake_openai: script error: {exc!r}"}})
            return
        if reply is None:
            self._send_json(400, {"error": {"message": "fake_openai: no scripted reply left"}})
            return
        if reply.kind == "hang":
            released.wait(reply.delay_s)
            self.close_connection = True
            return
        if reply.delay_s:
            released.wait(reply.delay_s)
        if reply.kind == "error":
            error = {"message": reply.payload, "type": "scripted_error", "code": reply.status}
            self._send_json(reply.status, {"error": error}, reply.headers)
            return
        self._send_json(200, fake._completion(body, reply), reply.headers)


class FakeOpenAIServer:
    """The scripted chat-completions server. Use as a context manager, or start()/stop()."""

    def __init__(self, script: list[Entry] | None = None, *, model: str = "fake-model") -> None:
        self.model = model
        self.script: list[Entry] = list(script or [])
        self.responder: Callable[[dict[str, Any]], Any] | None = None
        self.requests: list[dict[str, Any]] = []
        self.headers: list[dict[str, str]] = []  # lower-cased names, plus ":path"
        self.usages: list[dict[str, int]] = []
        self._lock = threading.Lock()
        self._stopping = threading.Event()
        self._ids = itertools.count(1)
        self._server: _Server | None = None
        self._thread: threading.Thread | None = None

    # --- lifecycle --------------------------------------------------------------------------------------

    def start(self) -> FakeOpenAIServer:
        self._server = _Server(("127.0.0.1", 0), _Handler)
        self._server.fake = self
        self._thread = threading.Thread(
            target=self._server.serve_forever, args=(0.05,), name="fake-openai", daemon=True
        )
        self._thread.start()
        return self

    def stop(self) -> None:
        self._stopping.set()
        if self._server is not None:
            self._server.shutdown()
            self._server.server_close()
            self._server = None

    def __enter__(self) -> FakeOpenAIServer:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()

    @property
    def url(self) -> str:
        assert self._server is not None, "server not started"
        host, port = self._server.server_address[:2]
        return f"http://{host}:{port}"

    @property
    def base_url(self) -> str:
        """What to pass as ``base_url`` to ChatOpenAI / Context."""
        return self.url + "/v1"

    # --- scripting --------------------------------------------------------------------------------------

    def reset(self) -> None:
        """Forget the script, the responder and the record; release any request still hanging."""
        with self._lock:
            self.script.clear()
            self.responder = None
            self.requests.clear()
            self.headers.clear()
            self.usages.clear()
            self._stopping.set()
            self._stopping = threading.Event()

    def push(self, *entries: Entry) -> FakeOpenAIServer:
        with self._lock:
            self.script.extend(entries)
        return self

    @property
    def total_usage(self) -> dict[str, int]:
        """Sums of the usage figures this server has sent."""
        keys = ("prompt_tokens", "completion_tokens", "total_tokens")
        return {k: sum(u[k] for u in self.usages) for k in keys}

    def _record(self, body: dict[str, Any], headers: dict[str, str], path: str) -> None:
        with self._lock:
            self.requests.append(body)
            self.headers.append({**headers, ":path": path})

    def _next_reply(self, body: dict[str, Any]) -> Reply | None:
        with self._lock:
            entry = self.script.pop(0) if self.script else self.responder
        if entry is None:
            return None
        return _as_reply(entry, body)

    # --- answering --------------------------------------------------------------------------------------

    @staticmethod
    def _forced_tool(body: dict[str, Any]) -> str | None:
        tools = body.get("tools") or []
        if not tools:
            return None
        choice = body.get("tool_choice")
        if isinstance(choice, dict):
            return (choice.get("function") or {}).get("name")
        if isinstance(choice, str) and choice not in ("auto", "required", "none"):
            return choice
        if choice == "none":
            return None
        return tools[0].get("function", {}).get("name")

    def _completion(self, body: dict[str, Any], reply: Reply) -> dict[str, Any]:
        payload = reply.payload
        as_text = payload if isinstance(payload, str) else json.dumps(payload)
        tool = reply.tool_name or self._forced_tool(body)
        use_tool = reply.kind == "tool" or (reply.kind == "auto" and tool is not None)
        message: dict[str, Any] = {"role": "assistant", "content": None if use_tool else as_text}
        if use_tool:
            tools = body.get("tools") or [{}]
            name = tool or tools[0].get("function", {}).get("name") or "tool"
            message["tool_calls"] = [
                {
                    "id": f"call_{next(self._ids)}",
                    "type": "function",
                    "function": {"name": name, "arguments": as_text},
                }
            ]
        usage = dict(reply.usage) if reply.usage else {}
        usage.setdefault("prompt_tokens", _estimate_tokens(body.get("messages", [])))
        usage.setdefault("completion_tokens", _estimate_tokens(as_text))
        usage.setdefault("total_tokens", usage["prompt_tokens"] + usage["completion_tokens"])
        with self._lock:
            self.usages.append(usage)
        return {
            "id": f"chatcmpl-{next(self._ids)}",
            "object": "chat.completion",
            "created": int(time.time()),
            "model": body.get("model") or self.model,
            "choices": [
                {
                    "index": 0,
                    "message": message,
                    "finish_reason": reply.finish_reason or ("tool_calls" if use_tool else "stop"),
                }
            ],
            "usage": usage,
        }


@pytest.fixture(scope="session")
def fake_openai_session() -> Iterator[FakeOpenAIServer]:
    """One server for the session: a fresh port per test would cost a new HTTP client (TLS setup) per test."""
    with FakeOpenAIServer() as server:
        yield server


@pytest.fixture
def fake_openai(fake_openai_session: FakeOpenAIServer) -> Iterator[FakeOpenAIServer]:
    """The session's :class:`FakeOpenAIServer`, reset to an empty script and record for this test."""
    fake_openai_session.reset()
    yield fake_openai_session
    fake_openai_session.reset()
