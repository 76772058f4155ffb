"""Domain lists and schemes, in real Chromium: what the site's server saw (by Host header) after each trick."""

from __future__ import annotations

import asyncio
from urllib.parse import quote, urlsplit

import pytest

from tests.browser.helpers import act, find
from tests.netguard.conftest import Site, quiet


def _hosts(urls) -> set[str]:
    return {urlsplit(url).hostname or "" for url in urls}


async def _only_good(session) -> None:
    await session.set_domain_policy(allowed=["good.test"])


@pytest.mark.parametrize(
    ("url", "refused_host"),
    [
        ("http://good.test@evil.test:{port}/html?body=evil", "evil.test"),
        ("http://good.test.evil.test:{port}/html?body=evil", "good.test.evil.test"),
        ("http://evil.test:{port}/html?body=evil#good.test", "evil.test"),
        ("http://evil.test:{port}\\@good.test/", "evil.test"),
    ],
)
async def test_allowlist_bypasses_reach_no_other_host(
    guarded, site: Site, url: str, refused_host: str
) -> None:
    await _only_good(guarded)
    target = url.format(port=site.port)
    result = await act(guarded, "navigate", url=target)
    assert result["status"] == "failure" and result["error_type"] == "navigation_blocked", result
    await guarded.page.evaluate("(u) => { location.href = u; }", target)  # the page tries it too
    await quiet()
    assert refused_host not in site.hosts_seen()
    assert guarded.page.url.startswith(site.url("good.test", "/"))


@pytest.mark.parametrize(
    "url",
    [
        "data:text/html,<h1>injected</h1>",
        "javascript:alert(document.cookie)",
        "blob:http://good.test/1234",
        "file:///etc/passwd",
        "view-source:http://good.test/",
        "chrome://settings",
    ],
)
async def test_schemes_other_than_http_are_refused_for_navigation(guarded, url: str) -> None:
    result = await act(guarded, "navigate", url=url)
    assert result["status"] == "failure" and result["error_type"] == "navigation_blocked", result
    assert "scheme is not allowed" in result["message"]


async def test_a_page_cannot_show_a_blob_or_data_document_in_the_tab(guarded) -> None:
    """Chromium itself refuses top-level data: from a page; a same-origin blob: document is left at once."""
    mark = guarded.event_mark()
    await guarded.page.evaluate(
        """() => { const b = new Blob(['<h1>injected blob</h1>'], {type: 'text/html'});
                   location.href = URL.createObjectURL(b); }"""
    )
    for _ in range(60):
        await asyncio.sleep(0.05)
        if guarded.blocked_since(mark) and guarded.page.url == "about:blank":
            break
    assert any(entry["url"].startswith("blob:") for entry in guarded.blocked_since(mark))
    assert guarded.page.url == "about:blank"
    assert "injected blob" not in await guarded.page.content()


async def test_window_open_to_a_blocked_domain_never_leaves(guarded, site: Site) -> None:
    await guarded.set_domain_policy(blocked=["evil.test"])
    tabs = len(guarded.tabs())
    await guarded.page.evaluate("(u) => { window.open(u); }", site.url("evil.test", "/html?body=opened"))
    await quiet(1.0)
    assert "evil.test" not in site.hosts_seen()
    assert len(guarded.tabs()) == tabs
    assert guarded.blocked_since(0)


async def test_a_target_blank_popup_to_a_blocked_domain_never_leaves(guarded, site: Site) -> None:
    await guarded.set_domain_policy(blocked=["evil.test"])
    body = f'<a href="{site.url("evil.test", "/html?body=popup")}" target="_blank">Open offer</a>'
    await act(guarded, "navigate", url=site.url("good.test", "/html?body=" + quote(body)))
    mark = guarded.event_mark()
    await act(guarded, "click", (await find(guarded, "Open offer"))["id"])
    await quiet(1.0)
    assert "evil.test" not in site.hosts_seen()
    assert "evil.test" not in _hosts(tab["url"] for tab in guarded.tabs())
    assert any("evil.test" in entry["url"] for entry in guarded.blocked_since(mark))


async def test_a_cross_origin_iframe_on_a_blocked_domain_never_loads(guarded, site: Site) -> None:
    await guarded.set_domain_policy(blocked=["evil.test"])
    direct = site.url("evil.test", "/html?body=framed")
    via_redirect = site.url(
        "good.test", "/redirect?to=" + quote(site.url("evil.test", "/html?body=hop"), safe="")
    )
    body = f'<h1>Shop</h1><iframe src="{direct}"></iframe><iframe src="{via_redirect}"></iframe>'
    result = await act(guarded, "navigate", url=site.url("good.test", "/html?body=" + quote(body)))
    assert result["status"] == "success", result  # the page itself is fine; only its frames are refused
    await quiet(1.0)
    assert "evil.test" not in site.hosts_seen()
    assert "evil.test" not in _hosts(frame.url for frame in guarded.page.frames)
    refused = {entry["url"] for entry in guarded.blocked_since(0)}
    assert any("framed" in url for url in refused) and any("hop" in url for url in refused), refused


async def test_a_page_that_opens_while_its_frame_is_refused_is_opened(guarded, site: Site) -> None:
    """The refused frame's request comes before the page's DOMContentLoaded (a script holds the parser): the
    navigation still succeeded, and the refusal stays on record as the frame's."""
    await guarded.set_domain_policy(blocked=["evil.test"])
    frame = site.url("evil.test", "/html?body=framed")
    slow_script = site.url("good.test", "/slow?delay=0.6")
    body = f'<h1>Shop</h1><iframe src="{frame}"></iframe><script src="{slow_script}"></script>'
    result = await act(guarded, "navigate", url=site.url("good.test", "/html?body=" + quote(body)))
    assert result["status"] == "success", result
    refused = guarded.blocked_since(0)
    assert [entry["main_frame"] for entry in refused if "framed" in entry["url"]] == [False], refused


async def test_a_click_that_only_adds_a_refused_frame_succeeded(guarded, site: Site) -> None:
    from agent.nodes.execute import refused_navigation

    await guarded.set_domain_policy(blocked=["evil.test"])
    frame = site.url("evil.test", "/html?body=framed")
    hop = site.url("good.test", "/redirect?to=" + quote(frame, safe=""))
    body = (
        f"<button onclick=\"const f = document.createElement('iframe'); f.src = '{frame}'; "
        f'document.body.append(f)">Show map</button><a href="{frame}">Open map</a>'
        f'<a href="{hop}">Open map by a redirect</a>'
    )
    assert (await act(guarded, "navigate", url=site.url("good.test", "/html?body=" + quote(body))))[
        "status"
    ] == "success"
    mark = guarded.event_mark()
    shown = await act(guarded, "click", element_id=(await find(guarded, "Show map"))["id"])
    await quiet(0.5)
    assert any("framed" in entry["url"] for entry in guarded.blocked_since(mark))
    assert refused_navigation(shown, guarded.blocked_since(mark))["status"] == "success"
    mark = guarded.event_mark()
    opened = await act(guarded, "click", element_id=(await find(guarded, "Open map"))["id"])
    await quiet(0.3)
    verdict = refused_navigation(opened, guarded.blocked_since(mark))
    assert verdict["status"] == "failure" and verdict["error_type"] == "navigation_blocked", verdict
    mark = guarded.event_mark()  # refused at the redirect's hop (Chromium's request interception)
    opened = await act(guarded, "click", element_id=(await find(guarded, "Open map by a redirect"))["id"])
    await quiet(0.3)
    assert any(
        "redirected" in entry["reason"] and entry["main_frame"] for entry in guarded.blocked_since(mark)
    )
    verdict = refused_navigation(opened, guarded.blocked_since(mark))
    assert verdict["status"] == "failure" and verdict["error_type"] == "navigation_blocked", verdict


async def test_blocked_wins_over_allowed_and_covers_subdomains(guarded, site: Site) -> None:
    await guarded.set_domain_policy(allowed=["test"], blocked=["evil.test"])
    assert (await act(guarded, "navigate", url=site.url("good.test")))["status"] == "success"
    result = await act(guarded, "navigate", url=site.url("shop.evil.test", "/html?body=sub"))
    assert result["status"] == "failure" and result["error_type"] == "navigation_blocked", result
    await quiet(0.3)
    assert "shop.evil.test" not in site.hosts_seen()
