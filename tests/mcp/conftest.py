"""The MCP tests' servers: the library server on stdio (started by the agent), and one that cannot start."""

from __future__ import annotations

import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

LIBRARY_SERVER = Path(__file__).parent / "library_server.py"


@pytest.fixture
def library_servers() -> dict:
    return {"library": {"command": sys.executable, "args": [str(LIBRARY_SERVER)]}}


@pytest.fixture
def broken_servers() -> dict:
    """A server whose process exits at once, before it speaks MCP."""
    return {"broken": {"command": sys.executable, "args": ["-c", "import sys; sys.exit(3)"]}}


@pytest.fixture
def library_http_url() -> Iterator[str]:
    """The library server on streamable HTTP in its own process, stopped after the test."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    process = subprocess.Popen(
        [sys.executable, str(LIBRARY_SERVER), "--http", str(port)],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            try:
                socket.create_connection(("127.0.0.1", port), timeout=1).close()
                break
            except OSError:
                assert process.poll() is None, "the HTTP MCP server exited"
                time.sleep(0.2)
        yield f"http://127.0.0.1:{port}/mcp"
    finally:
        process.terminate()
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
