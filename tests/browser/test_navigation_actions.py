"""execute_action's navigation, search, tab, file and dispatcher behaviour against the fixture site in real
Chromium (element actions are in test_actions.py). Assertions read the page's own state."""

from __future__ import annotations

import asyncio
import socket
import time
from pathlib import Path

import pytest

from agent.browser.actions import GRACE_S, wait_seconds
from tests.browser.helpers import act, find, open_page

# --------------------------------------------------------------------------------------------- navigation


async def test_navigate_normalizes_and_reports(session, site) -> None:
    bare = site.removeprefix("http://") + "/article.html?title=Hello"
    result = await act(session, "navigate", url=f"  '{bare}' ")
    assert result["status"] == "success", result  # 127.0.0.1 stays on http
    assert await session.page.inner_text("h1") == "Hello"
    result = await act(session, "navigate", url=site + "/status?code=404")
    assert result["status"] == "success" and "HTTP 404" in result["message"]


async def test_navigate_refuses_schemes(session) -> None:
    for url in (
        "javascript:alert(1)",
        "data:text/html,<h1>x</h1>",
        "file:///etc/passwd",
        "chrome://settings",
        "blob:x",
    ):
        result = await act(session, "navigate", url=url)
        assert result["status"] == "failure" and result["error_type"] == "navigation_blocked", url
    assert session.page.url == "about:blank"


async def test_navigate_network_error(session) -> None:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]  # closed again below: nothing listens there
    result = await act(session, "navigate", url=f"http://127.0.0.1:{port}/")
    assert result["status"] == "failure" and result["error_type"] == "navigation_blocked"
    assert "ERR_CONNECTION_REFUSED" in result["message"]


async def test_navigate_slow_page_times_out_within_bound(session, site) -> None:
    await open_page(session, site + "/login.html")
    session.options.navigation_timeout_s = 2.0
    started = time.monotonic()
    result = await act(session, "navigate", url=site + "/slow")
    elapsed = time.monotonic() - started
    assert result["status"] == "failure" and result["error_type"] == "timeout", result
    assert 1.0 < elapsed < 2.0 + GRACE_S + 0.5  # the action's bound, plus scheduling slack
    assert await session.page.inner_text("h1") == "Sign in"  # still on the page we had


async def test_domain_policy_blocks_navigation_redirects_and_links(session, site) -> None:
    await session.set_domain_policy(allowed=["127.0.0.1"])
    localhost = site.replace("127.0.0.1", "localhost")
    result = await act(session, "navigate", url=localhost + "/index.html")
    assert result["status"] == "failure" and result["error_type"] == "navigation_blocked"
    assert "localhost" in result["message"]
    await open_page(session, site + "/index.html")
    result = await act(session, "navigate", url=site + "/redirect?to=" + localhost + "/login.html")
    assert result["status"] == "failure" and result["error_type"] == "navigation_blocked", result
    await asyncio.sleep(0.3)
    assert "localhost" not in session.page.url
    await open_page(session, site + "/index.html")
    await session.page.evaluate(
        "(href) => { const a = document.createElement('a'); a.href = href; a.textContent = 'Elsewhere';"
        " document.querySelector('main').appendChild(a); }",
        localhost + "/login.html",
    )
    result = await act(session, "click", (await find(session, "Elsewhere"))["id"])
    await asyncio.sleep(0.3)
    assert session.page.url == site + "/index.html"  # the refused click left the page as it was
    assert await session.page.inner_text("h1") == "Wayfinder test site"
    assert session.blocked_since(0)
    # A popup to a refused host never loads and its empty tab is closed.
    tabs_before = len(session.tabs())
    await session.page.evaluate("(href) => { window.open(href); }", localhost + "/popup.html")
    for _ in range(30):
        await asyncio.sleep(0.1)
        if len(session.tabs()) == tabs_before:
            break
    assert len(session.tabs()) == tabs_before
    assert all(not t["url"].startswith(localhost) for t in session.tabs())


async def test_go_back_and_forward(session, site) -> None:
    result = await act(session, "go_back")
    assert result["status"] == "failure" and "no page to go back" in result["message"]
    await open_page(session, site + "/index.html")
    await open_page(session, site + "/login.html")
    result = await act(session, "go_back")
    assert result["status"] == "success", result
    assert await session.page.inner_text("h1") == "Wayfinder test site"
    result = await act(session, "go_forward")
    assert result["status"] == "success", result
    assert await session.page.inner_text("h1") == "Sign in"
    result = await act(session, "go_forward")
    assert result["status"] == "failure" and result["error_type"] == "tool_limit"


# --------------------------------------------------------------------------------------------- search


async def test_search_uses_engine_when_page_has_no_box(session) -> None:
    result = await act(session, "search", query="red shoes")
    assert result["status"] == "success", result
    assert "search.html?q=red+shoes" in session.page.url
    assert await session.page.inner_text("#summary") == 'Results for "red shoes"'


async def test_search_uses_the_pages_own_box(session, site) -> None:
    await open_page(session, site + "/store.html")
    result = await act(session, "search", query="lamp")
    assert result["status"] == "success", result
    assert "own search box" in result["message"]
    assert session.page.url == site + "/store.html"  # no engine involved
    assert await session.page.inner_text("#summary") == '3 products match "lamp"'
    assert await session.page.input_value("#store-query") == "lamp"


async def test_search_box_on_a_results_page(session, site) -> None:
    await open_page(session, site + "/search.html?q=first")
    result = await act(session, "search", query="second query")
    assert result["status"] == "success", result
    assert await session.page.inner_text("#summary") == 'Results for "second query"'


# --------------------------------------------------------------------------------------------- misc actions


async def test_screenshot_stays_in_run_dir(session, site) -> None:
    await open_page(session, site + "/index.html")
    result = await act(session, "screenshot")
    assert result["status"] == "success"
    path = Path(result["extracted"])
    assert path.parent == session.screenshots_dir and path.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    result = await act(session, "screenshot", path="../../escape.png")
    path = Path(result["extracted"])
    assert path.parent == session.screenshots_dir and path.name == "escape.png" and path.is_file()


async def test_wait_is_bounded(session) -> None:
    started = time.monotonic()
    result = await act(session, "wait", seconds=0.3)
    assert result["status"] == "success" and 0.25 < time.monotonic() - started < 1.0
    assert wait_seconds({"seconds": 120}) == (10.0, True)
    assert wait_seconds({"seconds": -5}) == (0.0, True)
    assert wait_seconds({"seconds": "soon"}) == (1.0, False)


async def test_switch_tab_action(session, site) -> None:
    first = session.active_tab_id
    second = await session.new_tab(site + "/login.html")
    result = await act(session, "switch_tab", tab_id=first)
    assert result["status"] == "success" and session.active_tab_id == first
    result = await act(session, "switch_tab", tab_id="t999")
    assert result["status"] == "failure" and second in result["message"]


@pytest.mark.parametrize("name", ["done", "ask_user"])
async def test_meta_actions_are_not_executed(session, name: str) -> None:
    result = await act(session, name, answer="x")
    assert result["status"] == "failure" and result["error_type"] == "tool_limit"


async def test_malformed_actions_never_raise(session) -> None:
    from agent.browser.actions import execute_action

    for action in ({}, {"action": "fly"}, {"action": "click", "element_id": "abc", "args": None}, "nonsense"):
        result = await execute_action(session, action)  # type: ignore[arg-type]
        assert result["status"] == "failure"
        assert set(result) >= {"action", "args", "element_id", "status", "error_type", "message", "events"}
