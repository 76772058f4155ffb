"""The guard proxy, in real Chromium: what request interception alone cannot see.

A popup's first hop (sent before any interception is attached to the new tab), a host name whose second
answer is a private address (DNS rebinding), speculative requests and connections, and ``observe``, which
opens a page without a run. Each test asserts what a server or listener did (not) receive.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
from collections.abc import AsyncIterator, Iterator
from typing import Any
from urllib.parse import quote

import pytest
from playwright.async_api import async_playwright

from agent.browser.guard_proxy import GuardProxy, address_gate, start_url_gate
from agent.browser.launch import CHROMIUM_FLAGS, resolve_executable
from agent.browser.netguard import AddressPolicy, HostChecker
from agent.browser.session import BrowserSession
from agent.cli import main
from tests.browser.helpers import act, debuggable_chromium
from tests.netguard.conftest import NAMES, PUBLIC_NET, Listener, Site, guarded_options, quiet
from tests.netguard.conftest import test_resolver as names_resolver
from tests.netguard.test_ssrf import LOOPBACK_SPELLINGS, METADATA_SPELLINGS

_OPENERS = {
    "window.open": "(u) => { window.open(u); }",
    "target=_blank": """(u) => { const a = document.createElement('a'); a.href = u; a.target = '_blank';
        a.textContent = 'offer'; document.body.appendChild(a); a.click(); }""",
}


@pytest.mark.parametrize("opener", sorted(_OPENERS))
@pytest.mark.parametrize("hop", ["http://127.0.0.1:{port}/popup-hop", "http://2130706433:{port}/popup-hop"])
async def test_a_popup_whose_first_response_redirects_to_loopback_sends_nothing_there(
    guarded, site: Site, listener: Listener, opener: str, hop: str
) -> None:
    target = quote(hop.format(port=listener.port), safe="")
    mark = guarded.event_mark()
    await guarded.page.evaluate(_OPENERS[opener], site.url("good.test", "/redirect?to=" + target))
    await quiet(1.5)
    assert ("good.test", "/redirect?to=" + target) in site.seen or any(
        path.startswith("/redirect") for _, path in site.seen
    )  # the popup did open and its first response was the redirect
    assert listener.connections == []
    assert any("127.0.0.1" in entry["url"] for entry in guarded.blocked_since(mark)), guarded.blocked_since(
        mark
    )
    for page in guarded.context.pages:
        assert Listener.SECRET not in await page.content()


async def test_a_popup_whose_first_response_redirects_to_metadata_is_refused(guarded, site: Site) -> None:
    target = quote("http://169.254.169.254/latest/meta-data/", safe="")
    mark = guarded.event_mark()
    await guarded.page.evaluate(_OPENERS["window.open"], site.url("good.test", "/redirect?to=" + target))
    await quiet(1.5)
    assert not any(address.startswith("169.254.") for address, _ in site.dialed), site.dialed
    assert any("metadata" in entry["reason"] for entry in guarded.blocked_since(mark)), guarded.blocked_since(
        mark
    )


async def test_a_popup_redirected_to_a_blocked_domain_sends_it_no_request(guarded, site: Site) -> None:
    await guarded.set_domain_policy(blocked=["evil.test"])
    hop = quote(site.url("evil.test", "/html?body=landed"), safe="")
    mark = guarded.event_mark()
    await guarded.page.evaluate(_OPENERS["window.open"], site.url("good.test", "/redirect?to=" + hop))
    await quiet(1.5)
    assert "evil.test" not in site.hosts_seen()
    assert (NAMES["evil.test"], site.port) not in site.dialed
    assert any("evil.test" in entry["url"] for entry in guarded.blocked_since(mark))


async def test_a_name_that_rebinds_to_loopback_is_reached_only_at_the_checked_address(
    guarded, site: Site, listener: Listener
) -> None:
    """The guard's first lookup says public, every later one loopback (where Chromium's own resolver would
    send the name too, were it asked). The connection goes to the address that was checked, or nowhere."""
    answers: list[str] = []

    def rebinding(host: str) -> list[str]:
        if host != "rebind.test":
            return names_resolver(host)
        answers.append("93.184.216.36" if not answers else "127.0.0.1")
        return [answers[-1]]

    guarded.options.resolver = rebinding
    try:
        result = await act(guarded, "navigate", url=f"http://rebind.test:{listener.port}/html?body=rebound")
        await guarded.page.evaluate("() => fetch(location.href + '&again=1').catch(() => {})")
        await quiet(0.8)
    finally:
        guarded.options.resolver = names_resolver
    assert answers and answers[0] == "93.184.216.36"
    assert listener.connections == []
    assert [address for address, _ in site.dialed] and all(
        address.startswith(PUBLIC_NET) for address, _ in site.dialed
    ), site.dialed
    assert result["status"] == "success" and "rebind.test" in site.hosts_seen(), result


@contextlib.asynccontextmanager
async def proxied_page(gate, site: Site, refused: list[str]) -> AsyncIterator[Any]:
    """A page of a plain Chromium (no routing, no CDP interception: the proxy alone) behind a guard proxy."""
    async with (
        GuardProxy(gate, dialer=site.dial, on_refused=lambda target, _r: refused.append(target)) as proxy,
        async_playwright() as pw,
    ):
        browser = await pw.chromium.launch(
            executable_path=resolve_executable(), args=[*CHROMIUM_FLAGS, *proxy.chromium_args()]
        )
        try:
            yield await browser.new_page()
        finally:
            await browser.close()


async def test_a_proxy_that_looks_up_again_connects_to_what_that_lookup_passed_or_refuses(
    site: Site, listener: Listener
) -> None:
    """No cache at all: every lookup answers the other way (public, loopback, public, ...). Whatever Chromium
    asks for, each connection goes to an address its own check passed; loopback is never reached."""
    site.clear()
    listener.connections.clear()
    # alternating per name: Chromium's own background lookups (update, accounts) must not shift flip.test's turn
    answers: dict[str, Iterator[list[str]]] = {}
    checker = HostChecker(
        lambda host: next(answers.setdefault(host, itertools.cycle([["93.184.216.37"], ["127.0.0.1"]]))),
        cache_s=0,
    )
    policy = AddressPolicy(allow_private=False)
    refused: list[str] = []
    loaded = 0
    async with proxied_page(address_gate(checker, policy), site, refused) as page:
        for attempt in range(6):
            try:
                await page.goto(f"http://flip.test:{listener.port}/html?body=flip{attempt}", timeout=15000)
                loaded += 1
            except Exception:  # noqa: BLE001 - a refused connection fails the load (asserted below)
                continue
    assert listener.connections == []
    assert loaded >= 1 and refused, (loaded, refused)
    assert all(address == "93.184.216.37" for address, _ in site.dialed), site.dialed


async def test_the_proxy_alone_keeps_every_spelling_of_loopback_and_metadata_from_a_public_page(
    site: Site, listener: Listener
) -> None:
    """The root layer on its own: a public page navigates, fetches, frames and redirects to every spelling;
    nothing reaches the listener and no metadata address is dialed."""
    site.clear()
    listener.connections.clear()
    checker = HostChecker(names_resolver)
    policy = AddressPolicy(allow_private=False)
    refused: list[str] = []
    urls = [u.format(port=listener.port) for u in LOOPBACK_SPELLINGS] + METADATA_SPELLINGS
    script = """(urls) => { for (const u of urls) {
        fetch(u, {mode: 'no-cors'}).catch(() => {});
        const f = document.createElement('iframe'); f.src = u; document.body.appendChild(f);
        const i = document.createElement('img'); i.src = '/redirect?to=' + encodeURIComponent(u);
        document.body.appendChild(i); } }"""
    async with proxied_page(address_gate(checker, policy), site, refused) as page:
        await page.goto(site.url("good.test"), timeout=15000)
        await page.evaluate(script, urls)
        for url in urls[:3]:
            with contextlib.suppress(Exception):
                await page.goto(url, timeout=5000)
        await quiet(1.0)
    assert listener.connections == []
    assert all(address.startswith(PUBLIC_NET) for address, _ in site.dialed), site.dialed
    assert len(refused) >= len(urls) // 2, refused


async def test_prefetch_and_preconnect_hints_to_a_blocked_domain_send_nothing(guarded, site: Site) -> None:
    """Hints and speculation rules are not documents (the domain lists' layer lets them pass); the proxy
    refuses a blocked domain for every connection."""
    await guarded.set_domain_policy(blocked=["evil.test"])
    evil = site.url("evil.test", "/html?body=hinted")
    rules = '{"prefetch": [{"source": "list", "urls": ["%s"]}], "prerender": [{"source": "list", "urls": ["%s"]}]}'
    body = (
        f'<link rel="preconnect" href="{evil}"><link rel="dns-prefetch" href="{evil}">'
        f'<link rel="prefetch" href="{evil}"><link rel="prerender" href="{evil}">'
        f'<script type="speculationrules">{rules % (evil, evil)}</script><a href="{evil}">hover me</a>'
    )
    assert (await act(guarded, "navigate", url=site.url("good.test", "/html?body=" + quote(body))))[
        "status"
    ] == "success"
    await guarded.page.hover("a")
    await quiet(1.5)
    assert "evil.test" not in site.hosts_seen()
    assert NAMES["evil.test"] not in {address for address, _ in site.dialed}


@pytest.mark.parametrize(
    "url",
    ["http://169.254.169.254/latest/meta-data/", "http://0xA9FEA9FE/", "http://metadata.google.internal/"],
)
def test_observe_on_a_metadata_address_is_one_line_exit_2(url: str, capsys) -> None:
    assert main(["observe", url]) == 2
    out, err = capsys.readouterr()
    assert out == "" and len(err.strip().splitlines()) == 1, err
    assert err.startswith("error: ") and "metadata" in err and "network guard" in err


async def test_observe_guards_every_hop_after_its_start_url(site: Site) -> None:
    """A start URL on loopback opens loopback and private ranges, never metadata: the gate ``observe``
    gives its browser's proxy says so for every later connection."""
    gate, refused = await start_url_gate(site.url("127.0.0.1"))
    assert refused is None
    assert gate("127.0.0.1", site.port, False) == (["127.0.0.1"], None)
    addresses, reason = gate("169.254.169.254", 80, False)
    assert addresses == [] and reason and "metadata" in reason


async def test_an_attached_browser_connects_through_the_proxy_too(
    site: Site, listener: Listener, tmp_path
) -> None:
    """Attached over CDP, the run's own browser context gets the proxy (the user's contexts keep theirs): the
    user's Chromium cannot resolve ``good.test`` itself, so the page loads only through the proxy's dialer;
    a popup of it redirected at once to loopback sends nothing there."""
    site.clear()
    listener.connections.clear()
    with debuggable_chromium() as (cdp_url, _proc):
        session = await BrowserSession.start(guarded_options(site, cdp_url=cdp_url), tmp_path / "run")
        try:
            assert (await act(session, "navigate", url=site.url("good.test")))["status"] == "success"
            assert (NAMES["good.test"], site.port) in site.dialed
            hop = quote(f"http://127.0.0.1:{listener.port}/attached-hop", safe="")
            await session.page.evaluate(_OPENERS["window.open"], site.url("good.test", "/redirect?to=" + hop))
            await quiet(1.5)
        finally:
            await session.close()
    assert any(path.startswith("/redirect") for _, path in site.seen)
    assert listener.connections == []


async def test_a_popup_redirected_off_the_allowed_domains_is_left_at_once(guarded, site: Site) -> None:
    """The one hop still sent (docs/security.md, "Limits"): the allowed list is for documents and frames, which
    the proxy cannot tell from subresources, and a popup's first redirect comes before its tab's interception.
    The hop reaches only a public host the address rules allow; the tab is sent away as it lands, recorded."""
    await guarded.set_domain_policy(allowed=["good.test"])
    hop = quote(site.url("evil.test", "/html?body=off-list"), safe="")
    mark = guarded.event_mark()
    await guarded.page.evaluate(_OPENERS["window.open"], site.url("good.test", "/redirect?to=" + hop))
    for _ in range(60):
        await asyncio.sleep(0.05)
        if guarded.blocked_since(mark) and all("evil.test" not in tab["url"] for tab in guarded.tabs()):
            break
    assert all("evil.test" not in tab["url"] for tab in guarded.tabs())
    assert any("evil.test" in entry["url"] for entry in guarded.blocked_since(mark))
    for page in guarded.context.pages:
        assert "off-list" not in await page.content()
