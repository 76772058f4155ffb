"""Shared fixtures: the fixture site on loopback and a real Chromium.

Area-specific fixtures live in each test folder's own conftest.py.
"""

from __future__ import annotations

import os
import tempfile
from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import pytest
import pytest_asyncio

from agent.browser.launch import CHROMIUM_FLAGS, resolve_executable
from agent.util.static_server import StaticServer

SITE_ROOT = Path(__file__).parent / "site"

#: Tests that stop a run at a chosen instant (signals, kills, time budgets): `make test` runs them after the
#: parallel part, one at a time, so the other worker's load never moves the instant they aim at.
SOLO_FOLDERS = ("durability",)
SOLO_FILES = ("tests/llm/test_stopping.py", "tests/batch/test_batch.py", "tests/cli/test_cli.py")


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    root = Path(__file__).parent
    for item in items:
        path = Path(str(item.fspath)).resolve()
        relative = path.relative_to(root.parent).as_posix() if path.is_relative_to(root.parent) else ""
        if relative in SOLO_FILES or any(part in SOLO_FOLDERS for part in path.relative_to(root).parts[:1]):
            item.add_marker(pytest.mark.solo)


def _site_routes() -> dict:
    try:
        from tests.site_routes import ROUTES
    except ImportError:
        return {}
    return ROUTES


@pytest.fixture(scope="session")
def site_url() -> Iterator[str]:
    """Base URL (no trailing slash) of the fixture site served on 127.0.0.1."""
    with StaticServer(SITE_ROOT, routes=_site_routes()) as server:
        yield server.base_url


@pytest.fixture(scope="session", autouse=True)
def _isolated_home() -> Iterator[None]:
    """Chromium writes into HOME even for --version: give the whole test session a temporary one."""
    with tempfile.TemporaryDirectory(prefix="wayfinder-home-") as home:
        old = os.environ.get("HOME")
        os.environ["HOME"] = home
        os.environ.setdefault("XDG_CONFIG_HOME", os.path.join(home, ".config"))
        os.environ.setdefault("XDG_CACHE_HOME", os.path.join(home, ".cache"))
        try:
            yield
        finally:
            if old is not None:
                os.environ["HOME"] = old


@pytest.fixture(autouse=True)
def _fresh_model_memory(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch) -> None:
    """Every test starts with no structured-output method remembered: an empty cache directory of its own
    (XDG_CACHE_HOME, inherited by subprocesses) and nothing negotiated in this process."""
    from agent.llm.structured import forget_run_memory

    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path_factory.mktemp("xdg-cache")))
    forget_run_memory()


@pytest_asyncio.fixture(scope="session", loop_scope="session")
async def pw_browser() -> AsyncIterator[object]:
    """One raw Playwright Chromium for the whole test session (for tests below the session layer)."""
    from playwright.async_api import async_playwright

    executable = resolve_executable()
    async with async_playwright() as pw:
        browser = await pw.chromium.launch(
            headless=True, executable_path=executable, args=list(CHROMIUM_FLAGS)
        )
        yield browser
        await browser.close()


@pytest_asyncio.fixture(loop_scope="session")
async def page(pw_browser) -> AsyncIterator[object]:
    """A fresh raw Playwright page in its own context."""
    context = await pw_browser.new_context(viewport={"width": 1280, "height": 900})
    page = await context.new_page()
    yield page
    await context.close()


def browser_test_options(site_url: str, **overrides: object):
    """BrowserOptions for tests: short timeouts, and web search pointed at the fixture site's search page."""
    from agent.browser.options import BrowserOptions

    values: dict = {
        "action_timeout_s": 4.0,
        "navigation_timeout_s": 6.0,
        "search_url_template": site_url + "/search.html?q={query}",
    }
    values.update(overrides)
    return BrowserOptions(**values)


async def reusable_session(holder: dict, options: object) -> object:
    """``holder["session"]``, started with ``options`` (in ``holder["run_dir"]``) on first use and restarted
    when a test left it dead."""
    from agent.browser.session import BrowserSession

    shared = holder["session"]
    if shared is None or not shared.is_alive:
        if shared is not None:
            await shared.close()
        shared = await BrowserSession.start(options, holder["run_dir"])
        holder["session"] = shared
    return shared


@pytest_asyncio.fixture(scope="session", loop_scope="session")
async def _shared_browser(site_url, tmp_path_factory) -> AsyncIterator[dict]:
    """Holder of the one BrowserSession shared by the test session (Chromium starts once, ~1-2 s)."""
    holder: dict = {"run_dir": tmp_path_factory.mktemp("shared-run"), "session": None}
    yield holder
    if holder["session"] is not None:
        await holder["session"].close()


@pytest_asyncio.fixture(loop_scope="session")
async def session(_shared_browser, site_url) -> AsyncIterator[object]:
    """The shared BrowserSession reset to one blank tab: no cookies, storage, events; default test options.

    Started on first use and restarted if a test left it dead. A test that kills the browser or needs other
    launch options starts its own BrowserSession instead.
    """
    shared = await reusable_session(_shared_browser, browser_test_options(site_url))
    options = browser_test_options(site_url)
    options.downloads_dir = shared.downloads_dir
    shared.options = options
    await shared.set_domain_policy([], [])
    await shared.reset()
    yield shared
