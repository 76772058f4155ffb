"""Fixtures for the observation-layer tests: pages under tests/site/observe/ in the shared raw Playwright page."""

from __future__ import annotations

from collections.abc import Awaitable, Callable

import pytest


@pytest.fixture
def observe_url(site_url: str) -> Callable[[str], str]:
    """URL of a fixture page in tests/site/observe/."""
    return lambda name: f"{site_url}/observe/{name}"


@pytest.fixture
def open_page(page, observe_url) -> Callable[[str], Awaitable[object]]:
    """Navigate the test's page to a fixture page (waits for the load event) and return the page."""

    async def _open(name: str) -> object:
        await page.goto(observe_url(name), wait_until="load")
        return page

    return _open
