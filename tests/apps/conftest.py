"""Fixtures of the application tests: each application runs once per test module, on loopback, and one browser
context per module serves its scripted runs (cookies cleared before each)."""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterator

import pytest
import pytest_asyncio

from tests.apps.harness import Application
from tests.apps.shopdesk.goals import running_shopdesk
from tests.apps.shopdesk.project import AppUnavailable
from tests.apps.tracker.goals import running_tracker


@pytest.fixture(scope="module")
def tracker() -> Iterator[Application]:
    with running_tracker() as app:
        yield app


@pytest.fixture(scope="module")
def shopdesk() -> Iterator[Application]:
    """The Django admin; skipped (with the reason) only when pip cannot reach the package index."""
    try:
        with running_shopdesk() as app:
            yield app
    except AppUnavailable as exc:
        if exc.offline:
            pytest.skip(f"Django could not be installed from the package index: {exc}")
        raise


@pytest_asyncio.fixture(scope="module", loop_scope="session")
async def _app_context(pw_browser) -> AsyncIterator[object]:
    context = await pw_browser.new_context(viewport={"width": 1280, "height": 900})
    yield context
    await context.close()


@pytest_asyncio.fixture(loop_scope="session")
async def app_page(_app_context) -> AsyncIterator[object]:
    """A fresh tab with no cookies (so no one is signed in), in the module's browser context."""
    await _app_context.clear_cookies()
    page = await _app_context.new_page()
    yield page
    await page.close()
