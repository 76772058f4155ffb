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


async def loaded_frames(page, fragment: str, count: int = 1) -> list:
    """The page's frames whose address holds ``fragment``, once ``count`` of them exist and have loaded (a
    cross-origin child frame starts loading after its parent's load event)."""
    frames: list = []
    for _ in range(100):
        frames = [f for f in page.frames if fragment in f.url]
        if len(frames) >= count:
            break
        await page.wait_for_timeout(50)
    assert len(frames) >= count, f"only {len(frames)} frame(s) with {fragment!r} loaded"
    for frame in frames:
        await frame.wait_for_load_state("load")
    return frames
