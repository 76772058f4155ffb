"""The network guard's address rules: which hosts a request may reach, decided on the resolved address.

A URL's host is classified the way Chromium will connect to it: IP literals in every spelling
(``2130706433``, ``0x7f.0.0.1``, ``0177.0.0.1``, ``127.1``, ``[::1]``, ``[::ffff:127.0.0.1]``) are
canonicalised by :func:`agent.browser.urls.host_of`; names Chromium answers itself (``localhost``,
``*.localhost``) and names of private networks (``*.internal``, ``*.local``, ``*.svc``...) are classified by
name; any other name is resolved (``socket.getaddrinfo``) and every address it resolves to must pass. A name
that cannot be resolved is refused: the guard fails closed.

Classes: ``public`` always passes; ``loopback``, ``private`` and ``reserved`` pass with ``allow_private`` (the
run's start URL is on them) or ``allow_local``; ``link_local`` and ``metadata`` (cloud instance metadata)
pass only with ``allow_local``.
"""

from __future__ import annotations

import asyncio
import ipaddress
import socket
import time
from collections.abc import Callable
from dataclasses import dataclass

from agent.browser.urls import host_of

#: A resolver: host name -> the addresses it resolves to (raises OSError when it does not resolve).
Resolver = Callable[[str], list[str]]

PUBLIC, LOOPBACK, PRIVATE, RESERVED, LINK_LOCAL, METADATA = (
    "public",
    "loopback",
    "private",
    "reserved",
    "link_local",
    "metadata",
)
_NEEDS_PRIVATE = frozenset({LOOPBACK, PRIVATE, RESERVED})
_NEEDS_LOCAL = frozenset({LINK_LOCAL, METADATA})

_NETS: tuple[tuple[str, tuple[str, ...]], ...] = (
    # Instance-metadata endpoints of the clouds (AWS/GCP/Azure/OpenStack, ECS, Alibaba, AWS IPv6, Azure wire).
    (
        METADATA,
        (
            "169.254.169.254/32",
            "169.254.170.2/32",
            "100.100.100.200/32",
            "fd00:ec2::254/128",
            "168.63.129.16/32",
        ),
    ),
    (LOOPBACK, ("127.0.0.0/8", "::1/128", "0.0.0.0/8", "::/128")),  # 0.0.0.0 reaches this host on Linux
    (LINK_LOCAL, ("169.254.0.0/16", "fe80::/10")),
    (PRIVATE, ("10.0.0.0/8", "172.16.0.0/12", "192.168.0.0/16", "100.64.0.0/10", "fc00::/7")),
    (RESERVED, ("224.0.0.0/4", "240.0.0.0/4", "ff00::/8", "fec0::/10")),
)
_V4_IN_V6 = (ipaddress.ip_network("::/96"), ipaddress.ip_network("64:ff9b::/96"))
_UNSPECIFIED_OR_LOOPBACK_V6 = ipaddress.ip_network("::/127")  # :: and ::1 are themselves
_NETWORKS = tuple((kind, ipaddress.ip_network(net)) for kind, nets in _NETS for net in nets)

_METADATA_NAMES = frozenset(
    {"metadata", "metadata.google.internal", "instance-data", "instance-data.ec2.internal"}
)
#: Names that only mean something inside a private network (Kubernetes services, mDNS, home routers).
_PRIVATE_SUFFIXES = (".internal", ".local", ".svc", ".lan", ".home.arpa", ".intranet", ".corp")

_CACHE_S = 30.0
#: Where ``localhost`` and ``*.localhost`` are, as Chromium answers them without a lookup.
_LOCALHOST = ("127.0.0.1", "::1")
_LOOKUP_TIMEOUT_S = 3.0


def classify_address(address: str) -> str:
    """The class of one IP address (v4, v6, v4 inside v6: mapped, compatible, 6to4 and NAT64 forms)."""
    try:
        ip = ipaddress.ip_address(address.strip("[]").split("%", 1)[0])
    except ValueError:
        return RESERVED  # not an address at all: never treat it as public
    if isinstance(ip, ipaddress.IPv6Address):
        embedded = ip.ipv4_mapped or ip.sixtofour
        if embedded is None and any(ip in net for net in _V4_IN_V6) and ip not in _UNSPECIFIED_OR_LOOPBACK_V6:
            embedded = ipaddress.IPv4Address(int(ip) & 0xFFFFFFFF)  # ::a.b.c.d and NAT64 64:ff9b::a.b.c.d
        if embedded is not None:
            return classify_address(str(embedded))
    for kind, network in _NETWORKS:
        if ip.version == network.version and ip in network:
            return kind
    return PUBLIC


def classify_name(host: str) -> str | None:
    """The class a host name has by name alone (``localhost``, metadata names, private suffixes), else None."""
    name = host.lower().rstrip(".")
    if name == "localhost" or name.endswith(".localhost"):
        return LOOPBACK  # Chromium answers these itself, without asking DNS
    if name in _METADATA_NAMES:
        return METADATA
    if name.endswith(_PRIVATE_SUFFIXES):
        return PRIVATE
    return None


def is_ip_literal(host: str) -> bool:
    try:
        ipaddress.ip_address(host.strip("[]").split("%", 1)[0])
    except ValueError:
        return False
    return True


@dataclass(frozen=True)
class AddressPolicy:
    """Which address classes requests may reach (see the module docstring)."""

    allow_private: bool = False
    allow_local: bool = False

    def permits(self, kind: str) -> bool:
        if kind == PUBLIC or self.allow_local:
            return True
        return kind in _NEEDS_PRIVATE and self.allow_private

    @property
    def open(self) -> bool:
        """True when every address passes (nothing to check)."""
        return self.allow_local


def refusal_for(host: str, kind: str, address: str = "") -> str:
    """Why ``host`` is refused, in words for the model and the records."""
    where = f"{host} ({address})" if address and address != host.strip("[]") else host
    words = {
        LOOPBACK: "a loopback address (this machine)",
        PRIVATE: "a private-network address",
        RESERVED: "a reserved address",
        LINK_LOCAL: "a link-local address",
        METADATA: "a cloud metadata address",
    }[kind]
    needs = "--allow-local" if kind in _NEEDS_LOCAL else "--allow-local, or a start URL on that network"
    return f"{where} is {words}; refused by the network guard (allowed only with {needs})"


class LookupFailure(str):
    """A refusal because the name has no address (not a policy decision: nothing could be reached anyway)."""


def system_resolve(host: str) -> list[str]:
    """Every address ``host`` resolves to on this machine (OSError when it does not resolve)."""
    infos = socket.getaddrinfo(host, None, proto=socket.IPPROTO_TCP)
    return sorted({str(info[4][0]).split("%", 1)[0] for info in infos})


class HostChecker:
    """Decides whether a host may be reached under an :class:`AddressPolicy`; lookups are cached briefly."""

    def __init__(self, resolve: Resolver | None = None, *, cache_s: float = _CACHE_S):
        self._resolve = resolve or system_resolve
        self._cache_s = cache_s
        self._cache: dict[str, tuple[float, list[str] | str]] = {}

    def _by_address_or_name(self, host: str) -> tuple[str, str] | None:
        if is_ip_literal(host):
            return classify_address(host), host.strip("[]")
        kind = classify_name(host)
        return (kind, "") if kind else None

    def _lookup_now(self, host: str) -> list[str] | str:
        try:
            addresses = self._resolve(host)
        except (OSError, UnicodeError) as exc:
            return LookupFailure(
                f"{host} could not be resolved ({exc.__class__.__name__}); refused by the network guard"
            )
        return list(addresses) or LookupFailure(
            f"{host} resolved to no address; refused by the network guard"
        )

    def _verdict(self, host: str, found: list[str] | str, policy: AddressPolicy) -> str | None:
        if isinstance(found, str):
            return found
        for address in found:
            kind = classify_address(address)
            if not policy.permits(kind):
                return refusal_for(host, kind, address)
        return None

    def cached_refusal(self, host: str, policy: AddressPolicy) -> tuple[bool, str | None]:
        """(decided, reason) without a lookup: decided is False when the name must be resolved first."""
        if policy.open:
            return True, None
        known = self._by_address_or_name(host)
        if known is not None:
            kind, address = known
            return True, None if policy.permits(kind) else refusal_for(host, kind, address)
        entry = self._cache.get(host)
        if entry is not None and entry[0] > time.monotonic():
            return True, self._verdict(host, entry[1], policy)
        return False, None

    def _found(self, host: str) -> list[str] | str:
        """The cached answer for ``host`` (addresses, or why there are none), looked up when stale."""
        entry = self._cache.get(host)
        if entry is not None and entry[0] > time.monotonic():
            return entry[1]
        found = self._lookup_now(host)
        self._cache[host] = (time.monotonic() + self._cache_s, found)
        return found

    def refusal(self, host: str, policy: AddressPolicy) -> str | None:
        """Why ``host`` may not be reached (None when it may): synchronous, resolves when needed."""
        decided, reason = self.cached_refusal(host, policy)
        if decided:
            return reason
        return self._verdict(host, self._found(host), policy)

    async def refusal_async(self, host: str, policy: AddressPolicy) -> str | None:
        """:meth:`refusal` with the lookup off the event loop and bounded in time."""
        decided, reason = self.cached_refusal(host, policy)
        if decided:
            return reason
        try:
            found = await asyncio.wait_for(asyncio.to_thread(self._found, host), _LOOKUP_TIMEOUT_S)
        except TimeoutError:
            found = LookupFailure(
                f"{host} did not resolve within {_LOOKUP_TIMEOUT_S:g}s; refused by the network guard"
            )
        return self._verdict(host, found, policy)

    def checked_addresses(
        self, host: str, policy: AddressPolicy, *, lookup: bool = True
    ) -> tuple[list[str], str | None] | None:
        """The addresses a connection to ``host`` may use, every one of them checked, or why there are none;
        None when that needs a lookup and ``lookup`` is False (the caller then looks up off its loop).

        What the guard proxy connects to: the very addresses this check passed (one lookup, cached like
        :meth:`refusal`'s), so a name that answers differently the next time (DNS rebinding) cannot switch
        the connection to an address that was never checked."""
        known = self._by_address_or_name(host)
        if known is not None and not policy.permits(known[0]):
            return [], refusal_for(host, *known)
        if known is not None and known[1]:
            return [known[1]], None  # an IP literal
        if known is not None and known[0] == LOOPBACK:
            return list(_LOCALHOST), None  # localhost and *.localhost: Chromium never asks DNS for them
        entry = self._cache.get(host)
        fresh = entry is not None and entry[0] > time.monotonic()
        if not lookup and not fresh:
            return None
        found = entry[1] if entry is not None and fresh else self._found(host)
        reason = None if policy.open else self._verdict(host, found, policy)
        if isinstance(found, str):
            return [], found
        return ([], reason) if reason else (list(found), None)

    def kinds_of(self, url: str, *, resolve: bool = True) -> set[str]:
        """The address classes the host of ``url`` falls in (empty when it has none, does not resolve, or
        would need a lookup that ``resolve=False`` forbids)."""
        host = host_of(url)
        if not host:
            return set()
        known = self._by_address_or_name(host)
        if known is not None:
            return {known[0]}
        if not resolve:
            return set()
        found = self._lookup_now(host)
        return set() if isinstance(found, str) else {classify_address(a) for a in found}


def start_allows_private(
    url: str | None, checker: HostChecker | None = None, *, resolve: bool = True
) -> bool:
    """True when the run's start URL is itself on a loopback or private address (tests, demos, intranets):
    then loopback and private addresses are allowed for the whole run. Link-local and metadata never are.
    ``resolve=False`` decides on IP literals and known names alone (no blocking lookup)."""
    if not url:
        return False
    kinds = (checker or HostChecker()).kinds_of(url, resolve=resolve)
    return bool(kinds) and kinds <= _NEEDS_PRIVATE
