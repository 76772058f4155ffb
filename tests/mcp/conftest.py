"""The MCP tests' servers: the library server on stdio (started by the agent), and one that cannot start."""

from __future__ import annotations

import sys
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
