"""The guard proxy: a loopback SOCKS5 proxy that every connection of a launched Chromium goes through.

Request interception (routing, CDP ``Fetch``) attaches to a tab after the tab exists, so a popup's first
hop can leave before it; and Chromium resolves a host name itself, after the guard resolved it to check it,
so a name that answers a public address to the guard and a private one to Chromium (DNS rebinding) got
through. The proxy closes both at the root. Chromium is launched with ``--proxy-server=socks5://...`` and
``--proxy-bypass-list=<-loopback>`` (loopback goes through it too), and hands every connection's host name
and port to the proxy (SOCKS5 resolves on the proxy's side): the proxy asks its gate once, which resolves
the name, checks every address against the policy and answers with the addresses that passed, and it
connects to one of those very addresses. Nothing is decrypted: bytes are relayed as they come, so http,
https, WebSockets and HTTP/2 all work, from every tab, popup, frame, worker and prefetch, from the first byte.

It runs on a thread and event loop of its own, so a busy agent loop never stalls the browser's traffic.
Chromium reports every connection the proxy could not make as ``ERR_SOCKS_CONNECTION_FAILED``; the proxy
remembers the real cause (:meth:`GuardProxy.failure_for`) so a navigation can still say
``ERR_CONNECTION_REFUSED``.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import errno
import ipaddress
import socket
import struct
import threading
import time
from collections.abc import Awaitable, Callable
from typing import Self
from urllib.parse import urlsplit

from agent.browser.netguard import (
    AddressPolicy,
    HostChecker,
    LookupFailure,
    Resolver,
    start_allows_private,
)
from agent.browser.urls import host_of

#: The gate: (host, port, lookup) -> (addresses a connection may use, why none may). Synchronous: with
#: ``lookup`` it may resolve (it is then called off the proxy's loop); without, it answers None when it would.
Decision = tuple[list[str], str | None]
Gate = Callable[[str, int, bool], Decision | None]
#: Opens a TCP connection to one checked address (tests route their made-up public addresses to loopback).
Dialer = Callable[[str, int], Awaitable[tuple[asyncio.StreamReader, asyncio.StreamWriter]]]
#: Told of every refused connection: (host:port, reason). Called on the proxy's thread.
RefusalHook = Callable[[str, str], None]

#: The error a connection through the proxy reports in Chromium when the proxy could not make it.
PROXY_FAILURE = "ERR_SOCKS_CONNECTION_FAILED"
_GATE_TIMEOUT_S = 5.0
_CONNECT_TIMEOUT_S = 15.0
_HANDSHAKE_TIMEOUT_S = 10.0
_FAILURE_MEMORY_S = 60.0
_CHUNK = 65536
# SOCKS5 reply codes (RFC 1928).
_OK, _NOT_ALLOWED, _HOST_UNREACHABLE, _REFUSED, _BAD_COMMAND, _BAD_ADDRESS = 0, 2, 4, 5, 7, 8
_NET_ERRORS = {
    errno.ECONNREFUSED: "ERR_CONNECTION_REFUSED",
    errno.ENETUNREACH: "ERR_ADDRESS_UNREACHABLE",
    errno.EHOSTUNREACH: "ERR_ADDRESS_UNREACHABLE",
    errno.ECONNRESET: "ERR_CONNECTION_RESET",
}


async def open_tcp(address: str, port: int) -> tuple[asyncio.StreamReader, asyncio.StreamWriter]:
    """The default dialer: a plain TCP connection to ``address`` (an IP address, never a name)."""
    return await asyncio.open_connection(address, port)


def host_port(host: str, port: int) -> str:
    """``host:port`` with an IPv6 host in brackets (how URLs and the records write it)."""
    return f"[{host}]:{port}" if ":" in host else f"{host}:{port}"


class GuardProxy:
    """A SOCKS5 proxy on 127.0.0.1 that connects only where its gate allows (see the module docstring)."""

    def __init__(self, gate: Gate, *, dialer: Dialer | None = None, on_refused: RefusalHook | None = None):
        self._gate = gate
        self._dialer = dialer or open_tcp
        self._on_refused = on_refused
        self._loop: asyncio.AbstractEventLoop | None = None
        self._server: asyncio.Server | None = None
        self._thread: threading.Thread | None = None
        self._ready: concurrent.futures.Future[int] = concurrent.futures.Future()
        self._stopped = threading.Event()
        self._failures: dict[tuple[str, int], tuple[float, str]] = {}
        self.port = 0

    # ------------------------------------------------------------------------------------------ lifecycle

    async def start(self) -> Self:
        """Start the proxy's thread and listening socket; returns once it accepts connections."""
        self._thread = threading.Thread(target=self._run, name="wayfinder-guard-proxy", daemon=True)
        self._thread.start()
        self.port = await asyncio.wrap_future(self._ready)
        return self

    def _run(self) -> None:
        loop = asyncio.new_event_loop()
        self._loop = loop
        try:
            self._server = loop.run_until_complete(asyncio.start_server(self._serve, "127.0.0.1", 0))
            self._ready.set_result(self._server.sockets[0].getsockname()[1])
        except BaseException as exc:  # noqa: BLE001 - the caller's start() raises it
            self._ready.set_exception(exc)
            loop.close()
            return
        try:
            loop.run_forever()
        finally:
            tasks = asyncio.all_tasks(loop)
            for task in tasks:
                task.cancel()
            with contextlib.suppress(Exception):
                loop.run_until_complete(asyncio.gather(*tasks, return_exceptions=True))
                loop.run_until_complete(loop.shutdown_default_executor())  # the gate's lookups
            loop.close()
            self._stopped.set()

    async def stop(self) -> None:
        """Stop accepting, end every relayed connection and the thread. Idempotent; never raises."""
        loop, thread = self._loop, self._thread
        if loop is None or thread is None or self._stopped.is_set():
            return

        async def shut() -> None:
            if self._server is not None:
                self._server.close()
            loop.stop()

        with contextlib.suppress(RuntimeError):
            asyncio.run_coroutine_threadsafe(shut(), loop)
        try:
            await asyncio.to_thread(thread.join, 10)
        except RuntimeError:  # the caller's executor is already shut down (interpreter exit)
            thread.join(10)

    async def __aenter__(self) -> Self:
        return await self.start()

    async def __aexit__(self, *_exc: object) -> None:
        await self.stop()

    @property
    def server(self) -> str:
        """The ``--proxy-server`` value that sends Chromium's connections here."""
        return f"socks5://127.0.0.1:{self.port}"

    def chromium_args(self) -> list[str]:
        """Launch flags: every connection through the proxy, loopback included (Chromium bypasses a proxy
        for loopback unless told ``<-loopback>``)."""
        return [f"--proxy-server={self.server}", "--proxy-bypass-list=<-loopback>"]

    def failure_for(self, url: str) -> str | None:
        """Chromium's name for why the proxy last failed to connect to ``url``'s host and port (recently)."""
        try:
            parts = urlsplit(url)
            key = ((parts.hostname or "").lower(), parts.port or (443 if parts.scheme == "https" else 80))
        except ValueError:
            return None
        entry = self._failures.get(key)
        return entry[1] if entry and entry[0] > time.monotonic() else None

    # ----------------------------------------------------------------------------------------- one client

    async def _serve(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        upstream: asyncio.StreamWriter | None = None
        try:
            request = await asyncio.wait_for(self._handshake(reader, writer), _HANDSHAKE_TIMEOUT_S)
            if request is None:
                return
            host, port = request
            code, opened = await self._connect(host, port)
            writer.write(bytes((5, code, 0, 1, 0, 0, 0, 0, 0, 0)))
            await writer.drain()
            if opened is None:
                return
            up_reader, upstream = opened
            await _relay(reader, writer, up_reader, upstream)
        except (OSError, asyncio.IncompleteReadError, TimeoutError, ValueError):
            pass
        finally:
            for stream in (upstream, writer):
                if stream is not None:
                    with contextlib.suppress(Exception):
                        stream.close()

    async def _handshake(
        self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter
    ) -> tuple[str, int] | None:
        """The SOCKS5 greeting and CONNECT request: (host, port), or None after a refusal reply."""
        version, count = await reader.readexactly(2)
        methods = await reader.readexactly(count)
        if version != 5 or 0 not in methods:
            writer.write(b"\x05\xff")
            return None
        writer.write(b"\x05\x00")
        version, command, _reserved, kind = await reader.readexactly(4)
        if kind == 1:
            host = str(ipaddress.IPv4Address(await reader.readexactly(4)))
        elif kind == 4:
            host = str(ipaddress.IPv6Address(await reader.readexactly(16)))
        elif kind == 3:
            (length,) = await reader.readexactly(1)
            host = (await reader.readexactly(length)).decode("idna").lower()
        else:
            writer.write(bytes((5, _BAD_ADDRESS, 0, 1, 0, 0, 0, 0, 0, 0)))
            return None
        (port,) = struct.unpack("!H", await reader.readexactly(2))
        if version != 5 or command != 1:  # CONNECT only: no BIND, no UDP
            writer.write(bytes((5, _BAD_COMMAND, 0, 1, 0, 0, 0, 0, 0, 0)))
            return None
        return host, port

    async def _connect(
        self, host: str, port: int
    ) -> tuple[int, tuple[asyncio.StreamReader, asyncio.StreamWriter] | None]:
        """Ask the gate once, then connect to one of the addresses it passed: (SOCKS reply code, streams)."""
        target = host_port(host, port)
        try:
            decision = self._gate(host, port, False)  # literal addresses and cached names: no thread hop
            if decision is None:
                decision = await asyncio.wait_for(
                    asyncio.get_running_loop().run_in_executor(None, self._gate, host, port, True),
                    _GATE_TIMEOUT_S,
                )
            addresses, reason = decision or ([], None)
        except TimeoutError:
            addresses, reason = [], f"{host} was not checked within {_GATE_TIMEOUT_S:g}s; refused"
        except Exception as exc:  # noqa: BLE001 - fail closed: a host the gate cannot judge is not reached
            addresses, reason = [], f"the network guard could not check {host}: {exc}"
        if reason is None and port == self.port and any(_is_loopback(a) for a in addresses):
            reason = "the guard proxy does not connect to itself"
        if reason is not None or not addresses:
            reason = reason or f"{host} has no address; refused by the network guard"
            unresolved = isinstance(reason, LookupFailure)
            self._remember(host, port, "ERR_NAME_NOT_RESOLVED" if unresolved else "ERR_BLOCKED_BY_CLIENT")
            if self._on_refused is not None:
                with contextlib.suppress(Exception):
                    self._on_refused(target, reason)
            return _NOT_ALLOWED, None
        error = errno.EHOSTUNREACH
        deadline = time.monotonic() + _CONNECT_TIMEOUT_S
        for address in addresses:
            try:
                left = max(0.5, deadline - time.monotonic())
                return _OK, await asyncio.wait_for(self._dialer(address, port), left)
            except TimeoutError:
                error = errno.ETIMEDOUT
            except OSError as exc:
                error = exc.errno or errno.EHOSTUNREACH
        self._remember(host, port, _NET_ERRORS.get(error, "ERR_CONNECTION_TIMED_OUT"))
        return (_REFUSED if error == errno.ECONNREFUSED else _HOST_UNREACHABLE), None

    def _remember(self, host: str, port: int, code: str) -> None:
        now = time.monotonic()
        if len(self._failures) > 500:
            self._failures = {k: v for k, v in self._failures.items() if v[0] > now}
        self._failures[(host.strip("[]").lower(), port)] = (now + _FAILURE_MEMORY_S, code)


async def start_url_gate(
    url: str, *, allow_local: bool = False, resolver: Resolver | None = None
) -> tuple[Gate, str | None]:
    """The guard of a browser that opens ``url`` on its own (``observe``): a run's address rules with ``url``
    as the start URL. Returns the gate for a :class:`GuardProxy` and why ``url`` itself is refused (or None)."""
    checker = HostChecker(resolver)
    allow_private = await asyncio.to_thread(start_allows_private, url, checker)
    policy = AddressPolicy(allow_private=allow_private, allow_local=allow_local)
    host = host_of(url) if url.lower().startswith(("http:", "https:")) else ""
    reason = await checker.refusal_async(host, policy) if host else None
    if isinstance(reason, LookupFailure):
        reason = None  # no policy decision: the browser reports it (ERR_NAME_NOT_RESOLVED)
    return address_gate(checker, policy), reason


def address_gate(checker: HostChecker, policy: AddressPolicy) -> Gate:
    """A gate of the address rules alone: ``checker``'s checked addresses under ``policy``."""
    return lambda host, _port, lookup: checker.checked_addresses(host, policy, lookup=lookup)


def _is_loopback(address: str) -> bool:
    with contextlib.suppress(ValueError):
        return ipaddress.ip_address(address).is_loopback
    return False


async def _pipe(source: asyncio.StreamReader, sink: asyncio.StreamWriter) -> None:
    try:
        while chunk := await source.read(_CHUNK):
            sink.write(chunk)
            await sink.drain()
        if sink.can_write_eof():
            sink.write_eof()
    except (OSError, RuntimeError):
        pass


async def _relay(
    client_reader: asyncio.StreamReader,
    client: asyncio.StreamWriter,
    upstream_reader: asyncio.StreamReader,
    upstream: asyncio.StreamWriter,
) -> None:
    """Bytes both ways until both sides are done (a half-closed side lets the other finish)."""
    with contextlib.suppress(Exception):
        client.get_extra_info("socket").setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
    await asyncio.gather(_pipe(client_reader, upstream), _pipe(upstream_reader, client))
