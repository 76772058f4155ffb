"""The real-model suite (``make test-model``): a llama.cpp server with SmolLM2-135M on loopback.

These tests need the model virtualenv that ``make test-model`` builds and names in ``WAYFINDER_LLAMA_PYTHON``.
Without it (``make test``, a plain ``pytest``) they are not collected at all, so nothing is skipped and
counted as passing; ``make test-model`` always sets it, and a server that cannot start fails the suite.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from agent.prompts import system_prompt
from tests.model.server import LlamaServer, RecordingProxy, llama_python

if llama_python() is None:
    collect_ignore_glob = ["test_*.py"]


@pytest.fixture(scope="session")
def llama_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LlamaServer]:
    python = llama_python()
    assert python, "WAYFINDER_LLAMA_PYTHON must name the model virtualenv's python (run: make test-model)"
    server = LlamaServer(python, tmp_path_factory.mktemp("llama") / "server.log").start()
    try:
        server.warm_up(system_prompt("planner"), system_prompt("executor"))
        yield server
    finally:
        server.stop()


@pytest.fixture(scope="session")
def _proxy(llama_server: LlamaServer) -> Iterator[RecordingProxy]:
    proxy = RecordingProxy(llama_server.base_url).start()
    try:
        yield proxy
    finally:
        proxy.stop()


@pytest.fixture
def proxy(_proxy: RecordingProxy) -> RecordingProxy:
    """The recording proxy in front of the server, with this test's exchanges only."""
    _proxy.exchanges.clear()
    return _proxy
