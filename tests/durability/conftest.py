"""Fixtures of the durability and human-in-the-loop tests: the click-counting site and a record directory."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.durability.clicks import ClickSite


@pytest.fixture(scope="session")
def click_site() -> Iterator[ClickSite]:
    """Pages whose buttons report every click to the server; counters are per name, so use unique names."""
    with ClickSite() as site:
        yield site


@pytest.fixture
def record_dir(tmp_path):
    path = tmp_path / "runs"
    path.mkdir()
    return path
