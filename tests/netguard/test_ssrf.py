"""SSRF in every spelling, in real Chromium: a page on a public site (or a redirect from it) asks for a
loopback, private or metadata address, and the listener bound there hears nothing."""

from __future__ import annotations

import asyncio
from urllib.parse import quote

import pytest

from tests.browser.helpers import act
from tests.netguard.conftest import Listener, Site, quiet

LOOPBACK_SPELLINGS = [
    "http://2130706433:{port}/",
    "http://0x7f.0.0.1:{port}/",
    "http://0177.0.0.1:{port}/",
    "http://127.1:{port}/",
    "http://[::1]:{port}/",
    "http://[::ffff:127.0.0.1]:{port}/",
    "http://0.0.0.0:{port}/",
    "http://localhost:{port}/",
    "http://inside.test:{port}/",  # a name that resolves to loopback
    "http://lan.test:{port}/",  # a name that resolves to a private network (Chromium would reach loopback)
    "http://good.test@127.0.0.1:{port}/",  # user@host: the real host is 127.0.0.1
]
METADATA_SPELLINGS = [
    "http://169.254.169.254/latest/meta-data/",
    "http://2852039166/latest/meta-data/",
    "http://0xA9.0xFE.0xA9.0xFE/latest/meta-data/",
    "http://0251.0376.0251.0376/",
    "http://169.254.43518/",
    "http://[::ffff:169.254.169.254]/",
    "http://metadata.google.internal/computeMetadata/v1/",
]


async def refused_after(session, script: str, arg: str, *, wait_s: float = 4.0) -> list[dict[str, str]]:
    """Run ``script(arg)`` in the page and return what the guard refused meanwhile."""
    mark = session.event_mark()
    await session.page.evaluate(script, arg)
    deadline = asyncio.get_running_loop().time() + wait_s
    while not session.blocked_since(mark) and asyncio.get_running_loop().time() < deadline:
        await asyncio.sleep(0.05)
    await quiet()
    return session.blocked_since(mark)


def _skip_without_ipv6(url: str, listener: Listener) -> None:
    if "[" in url and not listener.has_ipv6:
        pytest.skip("no IPv6 loopback on this machine to listen on")


@pytest.mark.parametrize("spelling", LOOPBACK_SPELLINGS)
async def test_page_navigation_to_loopback_never_reaches_the_listener(guarded, listener, spelling) -> None:
    url = spelling.format(port=listener.port)
    _skip_without_ipv6(url, listener)
    before = guarded.page.url
    refused = await refused_after(guarded, "(u) => { location.href = u; }", url)
    assert refused, "the guard recorded no refusal"
    assert listener.connections == []
    assert guarded.page.url == before
    assert Listener.SECRET not in await guarded.page.content()


@pytest.mark.parametrize("spelling", LOOPBACK_SPELLINGS)
async def test_navigate_action_to_loopback_is_navigation_blocked(guarded, listener, spelling) -> None:
    url = spelling.format(port=listener.port)
    _skip_without_ipv6(url, listener)
    result = await act(guarded, "navigate", url=url)
    await quiet(0.3)
    assert result["status"] == "failure" and result["error_type"] == "navigation_blocked", result
    assert listener.connections == []


@pytest.mark.parametrize("url", METADATA_SPELLINGS)
async def test_metadata_address_in_any_spelling_is_refused(guarded, url) -> None:
    result = await act(guarded, "navigate", url=url)
    assert result["status"] == "failure" and result["error_type"] == "navigation_blocked", result
    assert "metadata" in result["message"]
    refused = await refused_after(guarded, "(u) => { location.href = u; }", url)
    assert refused and "metadata" in refused[0]["reason"], refused


async def test_subresources_to_loopback_never_leave(guarded, listener) -> None:
    """fetch(), <img> and <iframe> from the public page: the same address rules as a navigation."""
    port = listener.port
    script = """(port) => {
        fetch(`http://127.1:${port}/api`).catch(() => {});
        const img = document.createElement('img'); img.src = `http://2130706433:${port}/pixel.gif`;
        document.body.appendChild(img);
        const frame = document.createElement('iframe'); frame.src = `http://0x7f.0.0.1:${port}/admin`;
        document.body.appendChild(frame);
    }"""
    refused = await refused_after(guarded, script, str(port))
    await quiet(0.5)
    assert len(guarded.blocked_since(0)) >= 3 or len(refused) >= 1
    assert listener.connections == []


async def test_redirect_from_the_allowed_page_to_metadata_is_refused(guarded, site: Site) -> None:
    target = "http://169.254.169.254/latest/meta-data/iam/"
    result = await act(
        guarded, "navigate", url=site.url("good.test", "/redirect?to=" + quote(target, safe=""))
    )
    assert result["status"] == "failure" and result["error_type"] == "navigation_blocked", result
    assert "169.254.169.254" in result["message"] and "metadata" in result["message"]
    assert not guarded.page.url.startswith("http://169.254")


async def test_redirect_hops_to_loopback_never_reach_the_listener(guarded, site: Site, listener) -> None:
    """A redirect hop (which request routing never sees) for a page, an image and a frame."""
    hop = quote(f"http://2130706433:{listener.port}/after-redirect", safe="")
    redirect = site.url("good.test", "/redirect?to=" + hop)
    result = await act(guarded, "navigate", url=redirect)
    assert result["status"] == "failure" and result["error_type"] == "navigation_blocked", result
    body = f'<img src="{redirect}"><iframe src="{redirect}"></iframe>'
    await act(guarded, "navigate", url=site.url("good.test", "/html?body=" + quote(body)))
    await quiet(1.0)
    assert listener.connections == []
    refused = [entry["url"] for entry in guarded.blocked_since(0)]
    assert any("after-redirect" in url for url in refused), refused


async def test_preconnect_hints_to_loopback_open_no_connection(guarded, site: Site, listener) -> None:
    """``<link rel=preconnect>`` opens a socket without a request (nothing to intercept): Chromium's network
    prediction is off in the guarded profile, so no connection is made at all."""
    port = listener.port
    body = (
        f'<link rel="preconnect" href="http://127.0.0.1:{port}">'
        f'<link rel="dns-prefetch" href="http://inside.test:{port}">'
        f'<link rel="prefetch" href="http://127.1:{port}/prefetched">'
        f'<a href="http://127.0.0.1:{port}/hover">hover me</a>'
    )
    await act(guarded, "navigate", url=site.url("good.test", "/html?body=" + quote(body)))
    await guarded.page.hover("a")
    await quiet(1.5)
    assert listener.connections == []


async def test_websockets_and_webrtc_to_loopback_open_no_connection(guarded, site: Site, listener) -> None:
    """Neither is a request the routing sees: WebSockets are routed on their own, WebRTC is off for pages."""
    await act(guarded, "navigate", url=site.url("good.test"))  # a document loaded after the guard's scripts
    port = listener.port
    webrtc = await guarded.page.evaluate(
        """(port) => {
            try { new WebSocket(`ws://127.0.0.1:${port}/socket`); } catch (e) {}
            try { new WebSocket(`ws://2130706433:${port}/socket`); } catch (e) {}
            if (typeof RTCPeerConnection !== 'function') return 'no RTCPeerConnection';
            const pc = new RTCPeerConnection({iceServers: [
                {urls: `turn:127.0.0.1:${port}?transport=tcp`, username: 'u', credential: 'p'}]});
            pc.createDataChannel('x');
            pc.createOffer().then((offer) => pc.setLocalDescription(offer));
            return 'peer connection made';
        }""",
        port,
    )
    await quiet(2.0)
    assert webrtc == "no RTCPeerConnection"
    assert listener.connections == []
    assert any(entry["url"].startswith("ws://") for entry in guarded.blocked_since(0))


async def test_a_permitted_websocket_still_connects(guarded, listener) -> None:
    await guarded.set_address_policy(allow_private=True, allow_local=False)  # a run that started on loopback
    await guarded.page.evaluate(
        "(port) => { new WebSocket(`ws://127.0.0.1:${port}/allowed`); }", listener.port
    )
    for _ in range(40):
        await asyncio.sleep(0.05)
        if listener.connections:
            break
    assert any("GET /allowed" in connection for connection in listener.connections), listener.connections
