"""Attaching to the user's browser (``cdp_url``): a real Chromium with a DevTools port on loopback and a tab of
the user's open; a real offline run attaches, works in a context of its own at the configured viewport, and
leaves the user's tab on its page, no ``data-agent-id`` in any page, and the browser running. A bad CDP URL is a
configuration error: one line, exit 2."""

from __future__ import annotations

import asyncio
import signal
from pathlib import Path

import pytest
from PIL import Image

from agent.runner import run_goal
from tests.browser.helpers import debuggable_chromium
from tests.durability.conftest import click_site, record_dir  # noqa: F401 - fixtures, requested by name
from tests.durability.helpers import run_cli, start_cli, wait_for
from tests.durability.terminal import agent_env
from tests.support.factories import offline_context


@pytest.fixture
def users_browser(site_url):
    """The user's Chromium, debuggable on a loopback port, with the user's own tab open on a page."""
    users_page = site_url + "/article.html"
    with debuggable_chromium(users_page) as (cdp_url, proc):
        yield cdp_url, users_page, proc


async def _every_page(cdp_url: str) -> list[tuple[str, int]]:
    """(URL, number of data-agent-id elements) of every page of every context of the browser."""
    from playwright.async_api import async_playwright

    async with async_playwright() as pw:
        browser = await pw.chromium.connect_over_cdp(cdp_url)
        try:
            found = []
            for context in browser.contexts:
                for page in context.pages:
                    marks = await page.evaluate("document.querySelectorAll('[data-agent-id]').length")
                    found.append((page.url, marks))
            return found
        finally:
            await browser.close()  # disconnects; the browser keeps running


async def test_an_attached_run_leaves_the_users_browser_as_it_was(users_browser, site_url, tmp_path):
    cdp_url, users_page, proc = users_browser
    for _ in range(50):  # the user's tab has loaded
        if any(url == users_page for url, _ in await _every_page(cdp_url)):
            break
        await asyncio.sleep(0.1)
    ctx = offline_context(
        tmp_path / "runs",
        cdp_url=cdp_url,
        viewport_width=1000,
        viewport_height=700,
        screenshot_mode="every_step",
    )
    result = await run_goal("log in as alice with password secret", ctx, start_url=site_url + "/login.html")
    assert result["terminal_type"] == "goal_satisfied", result

    assert proc.poll() is None  # the user's browser keeps running
    pages = await _every_page(cdp_url)
    assert pages == [(users_page, 0)]  # the user's tab kept its page; the run's own tabs are gone, no marks
    shots = sorted((Path(result["run_dir"]) / "screenshots").glob("*.png"))
    assert shots and all(Image.open(shot).size == (1000, 700) for shot in shots)  # the configured viewport


@pytest.mark.parametrize("cdp_url", ["http://127.0.0.1:9", "ws://127.0.0.1:9/devtools/browser/x"])
def test_a_bad_cdp_url_is_a_configuration_error(tmp_path, site_url, cdp_url):
    runs = tmp_path / "runs"
    done = run_cli(
        "run", "read the page", "--start-url", site_url + "/article.html", "--record-dir", str(runs), "--plain",
        env=agent_env(WAYFINDER_CDP_URL=cdp_url),
    )  # fmt: skip
    assert done.returncode == 2, done.stderr
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: setting 'cdp_url'") and cdp_url in lines[0]
    assert "Traceback" not in done.stderr and "Call log" not in done.stderr
    assert not runs.exists() or not any(runs.iterdir())  # no run was started


def test_ctrl_c_in_an_attached_run_says_the_users_browser_keeps_running(
    users_browser,
    click_site,  # noqa: F811 - the fixture, requested by name
    record_dir,  # noqa: F811
):
    cdp_url, users_page, browser = users_browser
    proc = start_cli(
        "run", 'click "Delta"', "--start-url", click_site.url("steps.html?run=attached&delay=3"),
        "--record-dir", str(record_dir), "--plain",
        env=agent_env(WAYFINDER_CDP_URL=cdp_url),
    )  # fmt: skip
    try:
        wait_for(lambda: click_site.count("attached-delta") or proc.poll() is not None, 120, "the click")
        proc.send_signal(signal.SIGINT)
        _, err = proc.communicate(timeout=60)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.communicate(timeout=30)
    assert proc.returncode == 130, err[-2000:]
    assert "your browser keeps running" in err and "the browser was closed" not in err
    assert browser.poll() is None
    assert asyncio.run(_every_page(cdp_url)) == [(users_page, 0)]
