"""Fixtures of the network-guard suite: a "public" site, a loopback listener that must hear nothing, and one
guarded Chromium.

The site runs on 127.0.0.1 but is reached by names: the guard's resolver says where each name "is" on the
internet (:data:`NAMES`): ``good.test`` and ``evil.test`` are public, ``inside.test`` resolves to loopback
and ``lan.test`` to a private network, and the guard proxy's dialer (:meth:`Site.dial`) routes those
made-up public addresses to the site on 127.0.0.1, as the internet would route them to their servers.
Chromium's own resolver, were it ever asked, would send every ``*.test`` name to 127.0.0.1
(``--host-resolver-rules``), where the listener is: it is not asked, the proxy resolves. So the guarded
browser starts on a public site, as a user's run would, and every refused address is one a real server
could have answered: :class:`Listener` is bound on 127.0.0.1 and [::1] and records every connection it
accepts.
"""

from __future__ import annotations

import asyncio
import contextlib
import socket
import threading
from collections.abc import AsyncIterator, Iterator
from typing import Any
from urllib.parse import parse_qs, urlsplit

import pytest
import pytest_asyncio

from agent.browser.session import BrowserSession
from agent.util.static_server import StaticServer
from tests.browser.helpers import open_page
from tests.conftest import SITE_ROOT, browser_test_options, reusable_session
from tests.llm.fake_openai import fake_openai, fake_openai_session  # noqa: F401 - fixtures for test_runs
from tests.site_routes import ROUTES

#: Where the guard's resolver says each test name is (Chromium itself sends them all to 127.0.0.1).
NAMES = {
    "good.test": "93.184.216.34",
    "evil.test": "93.184.216.35",
    "inside.test": "127.0.0.1",
    "lan.test": "10.1.2.3",
}


def test_resolver(host: str) -> list[str]:
    """The guard's view of DNS for the ``*.test`` names; anything else does not resolve (offline)."""
    if host in NAMES:
        return [NAMES[host]]
    if host.endswith(".test"):
        return [NAMES["evil.test"]]
    raise OSError(f"{host} does not resolve in the tests")


#: The made-up public network of the tests: every address in it is the site.
PUBLIC_NET = "93.184.216."


class Site:
    """The site's routes, recording the Host header and path of every request they answer."""

    def __init__(self) -> None:
        self.seen: list[tuple[str, str]] = []
        self.dialed: list[tuple[str, int]] = []
        self._lock = threading.Lock()
        self.server: StaticServer | None = None

    async def dial(self, address: str, port: int) -> tuple[asyncio.StreamReader, asyncio.StreamWriter]:
        """The guard proxy's dialer, the tests' internet: every made-up public address (:data:`NAMES`)
        reaches the site on 127.0.0.1; any other address is itself. Records each (address, port) dialed."""
        self.dialed.append((address, port))
        if address.startswith(PUBLIC_NET):
            return await asyncio.open_connection("127.0.0.1", self.port)
        return await asyncio.open_connection(address, port)

    def _recorded(self, route: Any) -> Any:
        def handle(handler: Any) -> Any:
            with self._lock:
                self.seen.append((str(handler.headers.get("Host") or "").split(":")[0], handler.path))
            return route(handler)

        return handle

    def routes(self) -> dict[str, Any]:
        def html_page(handler: Any) -> Any:
            body = parse_qs(urlsplit(handler.path).query).get("body", [""])[-1]
            page = f"<!doctype html><html><head><title>page</title></head><body>{body}</body></html>"
            return 200, {"Content-Type": "text/html; charset=utf-8"}, page.encode()

        return {path: self._recorded(route) for path, route in {**ROUTES, "/html": html_page}.items()}

    @property
    def port(self) -> int:
        assert self.server is not None
        return int(self.server.base_url.rsplit(":", 1)[1])

    def url(self, host: str, path: str = "/html?body=<h1>Good site</h1>") -> str:
        return f"http://{host}:{self.port}{path}"

    def hosts_seen(self) -> set[str]:
        with self._lock:
            return {host for host, _ in self.seen}

    def clear(self) -> None:
        with self._lock:
            self.seen.clear()
        self.dialed.clear()


class Listener:
    """A TCP listener on 127.0.0.1 and [::1] (same port) that records every connection and answers with a
    page holding :data:`SECRET`, as a local admin service or metadata endpoint would."""

    SECRET = "LOCAL-SECRET-42"

    def __init__(self) -> None:
        self.connections: list[str] = []
        self._socks: list[socket.socket] = []
        self._stop = threading.Event()
        first = socket.create_server(("127.0.0.1", 0))
        self.port = first.getsockname()[1]
        self._socks.append(first)
        with contextlib.suppress(OSError):
            self._socks.append(socket.create_server(("::1", self.port), family=socket.AF_INET6))
        for sock in self._socks:
            sock.settimeout(0.1)
            threading.Thread(target=self._serve, args=(sock,), daemon=True).start()

    @property
    def has_ipv6(self) -> bool:
        return len(self._socks) > 1

    def _serve(self, sock: socket.socket) -> None:
        while not self._stop.is_set():
            try:
                conn, peer = sock.accept()
            except (TimeoutError, OSError):
                continue
            with contextlib.suppress(OSError), conn:
                conn.settimeout(1)
                request = b""
                with contextlib.suppress(OSError):
                    request = conn.recv(4096)
                first_line = request.split(b"\r\n", 1)[0].decode(errors="replace")
                self.connections.append(f"{peer[0]} {first_line}".strip())
                conn.sendall(
                    b"HTTP/1.0 200 OK\r\nContent-Type: text/html\r\n\r\n<h1>"
                    + self.SECRET.encode()
                    + b"</h1>"
                )

    def close(self) -> None:
        self._stop.set()
        for sock in self._socks:
            sock.close()


@pytest.fixture(scope="session")
def site() -> Iterator[Site]:
    site = Site()
    with StaticServer(SITE_ROOT, routes=site.routes()) as server:
        site.server = server
        yield site


@pytest.fixture(scope="session")
def listener() -> Iterator[Listener]:
    listener = Listener()
    yield listener
    listener.close()


@pytest_asyncio.fixture(scope="session", loop_scope="session")
async def _guarded_holder(tmp_path_factory) -> AsyncIterator[dict]:
    holder: dict = {"run_dir": tmp_path_factory.mktemp("guarded-run"), "session": None}
    yield holder
    if holder["session"] is not None:
        await holder["session"].close()


def guarded_options(site: Site, **overrides: Any) -> Any:
    """Browser options of a run that started on the public site: the guard's defaults, test timeouts."""
    return browser_test_options(
        site.url("good.test", ""),
        extra_args=["--host-resolver-rules=MAP *.test 127.0.0.1"],
        resolver=test_resolver,
        dialer=site.dial,
        allow_private=False,
        **overrides,
    )


@pytest_asyncio.fixture(loop_scope="session")
async def guarded(_guarded_holder, site: Site, listener: Listener) -> AsyncIterator[BrowserSession]:
    """A BrowserSession with the network guard's defaults, open on the public site's front page; the site's
    and the listener's records cleared."""
    session = await reusable_session(_guarded_holder, guarded_options(site))
    await session.set_domain_policy([], [])
    await session.set_address_policy(allow_private=False, allow_local=False)
    await session.reset()
    await open_page(session, site.url("good.test"))
    site.clear()
    listener.connections.clear()
    yield session


async def quiet(seconds: float = 0.6) -> None:
    """Time for a request the browser might still send to arrive (the assertions are about absence)."""
    await asyncio.sleep(seconds)
