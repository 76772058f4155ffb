"""BrowserSession and the registry against a real Chromium: tabs, events, dialogs, downloads, crashes, CDP."""

from __future__ import annotations

import asyncio
import contextlib
import os
import re
import signal
import time
from pathlib import Path

import pytest
from playwright.async_api import Error as PlaywrightError

from agent.browser import registry
from agent.browser.session import BrowserClosedError, BrowserSession, safe_filename
from tests.browser.helpers import act, debuggable_chromium, find, open_and_find, open_page
from tests.conftest import browser_test_options


async def test_start_gives_one_blank_active_tab(session) -> None:
    tabs = session.tabs()
    assert len(tabs) == 1
    assert set(tabs[0]) == {"id", "url", "title", "active"}
    assert tabs[0]["active"] and tabs[0]["id"] == session.active_tab_id
    assert re.fullmatch(r"t\d+", session.active_tab_id)
    assert session.page.url == "about:blank"


async def test_url_and_dom_events_and_drain_vs_peek(session, site) -> None:
    result = await act(session, "navigate", url=site + "/replace.html")
    types = [e["type"] for e in result["events"]]
    assert "url_changed" in types
    changed = next(e for e in result["events"] if e["type"] == "url_changed")
    assert changed["url"].endswith("/replace.html") and changed["previous_url"] == "about:blank"
    # The action's events stay pending for the next observation.
    assert [e["type"] for e in session.peek_events()] == [e["type"] for e in session.drain_events()]
    assert session.drain_events() == []
    # Marking the page (what observation does) is not a DOM change.
    await asyncio.sleep(0.3)  # the page's own last mutations (load) are reported by now
    session.drain_events()
    await find(session, "Reload list")
    await asyncio.sleep(0.4)
    assert session.peek_events() == []
    await session.page.click("#reload")
    event = await session.wait_for_event("dom_changed", timeout=3)
    assert event is not None and event["tab_id"] == session.active_tab_id


async def click_on_tabs_page(session, site: str, name: str) -> tuple[str | None, dict]:
    """Open the tabs page and click the element named ``name``; returns (the tab it started in, the click's result)."""
    await open_page(session, site + "/tabs.html")
    first = session.active_tab_id
    target = await find(session, name)
    result = await act(session, "click", target["id"])
    assert result["status"] == "success", result
    return first, result


async def test_target_blank_link_opens_active_tab(session, site) -> None:
    first, result = await click_on_tabs_page(session, site, "Open product details in a new tab")
    opened = [e for e in result["events"] if e["type"] == "tab_opened"]
    assert len(opened) == 1 and opened[0]["url"].endswith("/tab-target.html")
    assert session.active_tab_id == opened[0]["tab_id"] != first
    assert await session.page.inner_text("h1") == "Product details"
    assert [t["active"] for t in session.tabs()] == [False, True]
    # The page closes itself: the previous tab becomes active again (the click may return after its page is
    # gone, which Playwright reports as a closed target: that is the very outcome wanted here).
    with contextlib.suppress(PlaywrightError):
        await session.page.click("#close-tab")
    event = await session.wait_for_event("tab_closed", timeout=3)
    assert event is not None and event["tab_id"] == opened[0]["tab_id"]
    assert session.active_tab_id == first
    assert await session.page.inner_text("h1") == "New tabs and popups"


async def test_window_open_popup_becomes_active_and_switch_back(session, site) -> None:
    first, result = await click_on_tabs_page(session, site, "Open help popup")
    assert any(e["type"] == "tab_opened" and e["url"].endswith("/popup.html") for e in result["events"])
    assert await session.page.inner_text("h1") == "Help center"
    popup = session.active_tab_id
    info = await session.switch_tab(first)
    assert info["id"] == first and info["active"]
    assert await session.page.inner_text("h1") == "New tabs and popups"
    with pytest.raises(KeyError):
        await session.switch_tab("t999")
    back = await act(session, "switch_tab", tab_id=popup)
    assert back["status"] == "success" and session.active_tab_id == popup
    titles = {t["id"]: t["title"] for t in await session.refresh_tabs()}
    assert titles[popup] == "Help - Test site"


async def test_new_tab(session, site) -> None:
    tab_id = await session.new_tab(site + "/article.html?title=Fresh")
    assert session.active_tab_id == tab_id and len(session.tabs()) == 2
    assert await session.page.inner_text("h1") == "Fresh"


async def test_dialogs_default_policy(session, site) -> None:
    await open_page(session, site + "/dialogs.html")
    page = session.page
    await page.click("#alert")
    assert await page.inner_text("#result") == "Alert closed"
    await page.click("#confirm")
    assert await page.inner_text("#result") == "Confirm returned: false"
    await page.click("#prompt")
    assert await page.inner_text("#result") == "Prompt returned: null"
    dialogs = [e for e in session.drain_events() if e["type"] == "dialog"]
    assert [(d["dialog_type"], d["handled"]) for d in dialogs] == [
        ("alert", "accepted"),
        ("confirm", "dismissed"),
        ("prompt", "dismissed"),
    ]
    assert dialogs[1]["message"] == "Delete all items? This cannot be undone."


async def test_dialogs_accept_policy(session, site) -> None:
    """'accept' answers yes to dialogs, except a confirm() guarding an irreversible action ("Delete all?"):
    that one is never accepted by a setting."""
    session.options.dialog_policy = "accept"
    await open_page(session, site + "/dialogs.html")
    await session.page.click("#confirm")
    assert await session.page.inner_text("#result") == "Confirm returned: false"
    await session.page.click("#prompt")
    assert await session.page.inner_text("#result") == "Prompt returned: Groceries"
    dialogs = [e for e in session.drain_events() if e["type"] == "dialog"]
    assert [(d["dialog_type"], d["handled"], d.get("risky")) for d in dialogs] == [
        ("confirm", "dismissed", True),
        ("prompt", "accepted", None),
    ]


async def test_beforeunload_dismissed_keeps_the_page(session, site) -> None:
    await open_page(session, site + "/dialogs.html")
    await session.page.fill("#draft", "unsaved words")
    result = await act(session, "navigate", url=site + "/index.html")
    assert result["status"] == "failure" and result["error_type"] == "navigation_blocked"
    assert "beforeunload" in result["message"]
    assert session.page.url.endswith("/dialogs.html")
    assert await session.page.input_value("#draft") == "unsaved words"
    session.options.dialog_policy = "accept"
    result = await act(session, "navigate", url=site + "/index.html")
    assert result["status"] == "success", result
    assert await session.page.inner_text("h1") == "Wayfinder test site"


async def test_downloads_are_sanitized_and_deduplicated(session, site) -> None:
    await open_page(session, site + "/downloads.html")
    downloads = session.downloads_dir.resolve()
    paths = []
    for _ in range(2):
        link = await find(session, "Download the price list")
        result = await act(session, "click", link["id"])
        assert result["status"] == "success", result
        event = next(e for e in result["events"] if e["type"] == "download")
        assert event["suggested_filename"]
        path = Path(event["path"])
        assert path.parent == downloads and path.is_file()
        assert path.read_text() == "downloaded content of ../../evil.txt\n"
        paths.append(path)
    assert paths[0].name == "evil.txt"
    assert paths[1].name == "evil (1).txt"
    link = await find(session, "Download the settings file")
    result = await act(session, "click", link["id"])
    event = next(e for e in result["events"] if e["type"] == "download")
    assert Path(event["path"]).parent == downloads and "/" not in event["filename"]
    assert not (session.run_dir.parent / "evil.txt").exists()
    for path in paths:
        path.unlink()


def test_safe_filename_bounds_length() -> None:
    name = safe_filename("x" * 500 + ".txt")
    assert name.endswith(".txt") and len(name.encode()) <= 150


async def test_locate_finds_iframe_and_shadow_elements(session, site) -> None:
    email = await open_and_find(session, site + "/iframe.html", "Email address")
    locator = await session.locate(email["id"])
    assert locator is not None
    assert await locator.get_attribute("id") == "email"
    assert await session.locate(987654) is None
    assert await session.locate(None) is None
    button = await open_and_find(session, site + "/shadow.html", "Check delivery")
    locator = await session.locate(button["id"])
    assert locator is not None and await locator.inner_text() == "Check delivery"


async def test_reset_clears_cookies_and_tabs(session, site) -> None:
    await open_page(session, site + "/cookies.html")
    await session.page.click("#accept")
    await session.new_tab(site + "/cookies.html")
    assert await session.page.is_hidden("#cookie-wall")  # consent cookie remembered
    await session.reset()
    assert len(session.tabs()) == 1 and session.page.url == "about:blank"
    await open_page(session, site + "/cookies.html")
    assert await session.page.is_visible("#cookie-wall")


async def test_crashed_tab_gives_clear_errors_and_navigate_recovers(session, site) -> None:
    await open_page(session, site + "/login.html")
    crashed_tab = session.active_tab_id
    with pytest.raises(Exception):  # noqa: B017 - Playwright reports the crash in different ways
        await session.page.goto("chrome://crash", timeout=5000)
    for _ in range(50):
        if session.active_crashed:
            break
        await asyncio.sleep(0.1)
    assert session.active_crashed
    result = await act(session, "scroll", direction="down")
    assert result["status"] == "failure" and "crashed" in result["message"]
    result = await act(session, "navigate", url=site + "/index.html")
    assert result["status"] == "success", result
    assert session.active_tab_id != crashed_tab
    assert crashed_tab not in [t["id"] for t in session.tabs()]
    assert await session.page.inner_text("h1") == "Wayfinder test site"


def _browser_pids(profile: Path) -> list[int]:
    """Main Chromium processes started with this profile (not its renderers/helpers)."""
    pids = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            args = (entry / "cmdline").read_bytes().split(b"\0")
        except OSError:
            continue
        if any(str(profile).encode() in a for a in args) and not any(a.startswith(b"--type=") for a in args):
            pids.append(int(entry.name))
    return pids


async def test_attach_over_cdp(site, tmp_path) -> None:
    """Launch a Chromium ourselves with a DevTools port on loopback and attach to it."""
    with debuggable_chromium() as (cdp_url, proc):
        options = browser_test_options(site, cdp_url=cdp_url)
        attached = await BrowserSession.start(options, tmp_path)
        try:
            assert attached.attached and attached.tabs()
            result = await act(attached, "navigate", url=site + "/login.html")
            assert result["status"] == "success", result
            username = await find(attached, "Username")
            await act(attached, "type", username["id"], text="alice")
            assert await attached.page.input_value("#username") == "alice"
            tabs_before = len(attached.tabs())
            button = await find(attached, "Sign in")
            await act(attached, "click", button["id"])
            assert len(attached.tabs()) == tabs_before
        finally:
            await attached.close()
        assert proc.poll() is None, "closing an attached session must not kill the user's browser"


async def test_registry_and_a_browser_killed_underneath(site, tmp_path) -> None:
    """Own sessions (launched, not shared): temp profile, reuse by run id, death underneath, replacement."""
    options = browser_test_options(site)
    first = await registry.open("run-a", options, tmp_path / "a")
    try:
        profile = first.profile_dir
        assert profile is not None and profile.is_dir()
        assert registry.get("run-a") is first
        assert await registry.open("run-a", options, tmp_path / "a") is first
        assert registry.get("run-b") is None
        await open_page(first, site + "/index.html")
        # Kill Chromium underneath the session: clear errors, no hang.
        pids = _browser_pids(profile)
        assert pids
        for pid in pids:
            os.kill(pid, signal.SIGKILL)
        for _ in range(50):
            if not first.is_alive:
                break
            await asyncio.sleep(0.1)
        assert not first.is_alive and first.dead_reason
        started = time.monotonic()
        result = await act(first, "click", 1)
        assert result["status"] == "failure" and "browser is gone" in result["message"]
        assert time.monotonic() - started < 2
        with pytest.raises(BrowserClosedError):
            _ = first.page
        # The registry no longer hands out the dead session; open() starts a new one.
        assert registry.get("run-a") is None
        second = await registry.open("run-a", options, tmp_path / "a")
        assert second is not first and second.is_alive
        await open_page(second, site + "/index.html")
        assert await second.page.inner_text("h1") == "Wayfinder test site"
    finally:
        started = time.monotonic()
        await registry.close_all()
        assert time.monotonic() - started < 30
    assert not profile.exists() and not second.profile_dir.exists()
    assert registry.get("run-a") is None and "run-a" not in registry.run_ids()
    await registry.close("never-opened")
    await second.close()  # idempotent
    result = await act(second, "navigate", url=site + "/index.html")
    assert result["status"] == "failure" and "closed" in result["message"]


async def test_wait_for_settle_is_bounded(session, site) -> None:
    await open_page(session, site + "/slow.html")
    await session.page.evaluate("() => { fetch('/slow'); }")  # a request that never finishes
    started = time.monotonic()
    await session.wait_for_settle(0.6)
    assert time.monotonic() - started < 1.2
