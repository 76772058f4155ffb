"""Fixtures of the browser-layer tests (the shared ``session`` lives in tests/conftest.py)."""

from __future__ import annotations

import pytest


@pytest.fixture
def site(site_url: str) -> str:
    """Base URL of the fixture site (short name for readability)."""
    return site_url
