"""The guard's address rules without a browser: every spelling of a refused address classifies as such."""

from __future__ import annotations

import pytest

from agent.browser.netguard import (
    LINK_LOCAL,
    LOOPBACK,
    METADATA,
    PRIVATE,
    PUBLIC,
    AddressPolicy,
    HostChecker,
    classify_address,
    start_allows_private,
)
from agent.browser.urls import host_of

DEFAULT = AddressPolicy()


@pytest.mark.parametrize(
    ("url", "kind"),
    [
        ("http://169.254.169.254/latest/meta-data/", METADATA),
        ("http://2852039166/", METADATA),
        ("http://0xA9.0xFE.0xA9.0xFE/", METADATA),
        ("http://0251.0376.0251.0376/", METADATA),
        ("http://169.254.43518/", METADATA),
        ("http://[::ffff:169.254.169.254]/", METADATA),
        ("http://[fd00:ec2::254]/", METADATA),
        ("http://100.100.100.200/", METADATA),
        ("http://2130706433/", LOOPBACK),
        ("http://0x7f.0.0.1/", LOOPBACK),
        ("http://0177.0.0.1/", LOOPBACK),
        ("http://127.1/", LOOPBACK),
        ("http://[::1]/", LOOPBACK),
        ("http://[::ffff:127.0.0.1]/", LOOPBACK),
        ("http://[::127.0.0.1]/", LOOPBACK),
        ("http://[64:ff9b::7f00:1]/", LOOPBACK),
        ("http://[2002:7f00:1::]/", LOOPBACK),
        ("http://0.0.0.0/", LOOPBACK),
        ("http://0/", LOOPBACK),
        ("http://[::]/", LOOPBACK),
        ("http://user@127.0.0.1/", LOOPBACK),
        ("http://10.0.0.1/", PRIVATE),
        ("http://172.31.255.255/", PRIVATE),
        ("http://192.168.1.1/", PRIVATE),
        ("http://100.64.0.1/", PRIVATE),
        ("http://[fc00::1]/", PRIVATE),
        ("http://[fd12:3456::1]/", PRIVATE),
        ("http://169.254.1.1/", LINK_LOCAL),
        ("http://[fe80::1]/", LINK_LOCAL),
        ("http://93.184.216.34/", PUBLIC),
        ("http://[2606:2800:220:1::]/", PUBLIC),
        ("http://172.32.0.1/", PUBLIC),
    ],
)
def test_every_spelling_of_an_address_gets_its_class(url: str, kind: str) -> None:
    host = host_of(url)
    assert host is not None
    assert classify_address(host) == kind, host


@pytest.mark.parametrize(
    "host",
    ["localhost", "app.localhost", "metadata.google.internal", "kubernetes.default.svc", "printer.local"],
)
def test_names_of_local_places_are_refused_without_a_lookup(host: str) -> None:
    def no_dns(name: str) -> list[str]:
        raise AssertionError(f"{name} should be decided by name")

    reason = HostChecker(no_dns).refusal(host, DEFAULT)
    assert reason and "refused by the network guard" in reason


def test_a_name_is_judged_by_every_address_it_resolves_to() -> None:
    checker = HostChecker(
        lambda host: {"split.example": ["93.184.216.34", "10.0.0.9"]}.get(host, ["93.184.216.34"])
    )
    assert checker.refusal("public.example", DEFAULT) is None
    reason = checker.refusal("split.example", DEFAULT)
    assert reason and "10.0.0.9" in reason and "private" in reason


def test_a_name_that_does_not_resolve_is_refused() -> None:
    reason = HostChecker().refusal("nothing-here.invalid", DEFAULT)
    assert reason and "could not be resolved" in reason


def test_the_policy_levels() -> None:
    private_ok = AddressPolicy(allow_private=True)
    everything = AddressPolicy(allow_local=True)
    checker = HostChecker(lambda host: [])
    for host in ("127.0.0.1", "10.0.0.1", "[::1]"):
        assert checker.refusal(host, DEFAULT)
        assert checker.refusal(host, private_ok) is None
    for host in ("169.254.169.254", "169.254.7.7", "[fe80::1]"):
        assert checker.refusal(host, private_ok), host  # a start URL on loopback does not open metadata
        assert checker.refusal(host, everything) is None


@pytest.mark.parametrize(
    ("start_url", "expected"),
    [
        ("http://127.0.0.1:8000/", True),
        ("http://localhost:8000/", True),
        ("http://192.168.1.20/", True),
        ("https://example.com/", False),
        ("http://169.254.169.254/", False),
        (None, False),
    ],
)
def test_a_start_url_on_loopback_or_private_opens_those_ranges(start_url: str | None, expected: bool) -> None:
    checker = HostChecker(lambda host: ["93.184.216.34"])
    assert start_allows_private(start_url, checker) is expected


def test_the_addresses_a_connection_may_use_are_the_checked_ones() -> None:
    """What the guard proxy connects to: one lookup's checked addresses, reused while cached (a name that
    answers loopback the second time keeps its first, checked answer), never a refused one."""
    answers = iter([["93.184.216.34"], ["127.0.0.1"]])
    checker = HostChecker(lambda host: next(answers))
    assert checker.checked_addresses("rebind.example", DEFAULT, lookup=False) is None  # would need a lookup
    assert checker.checked_addresses("rebind.example", DEFAULT) == (["93.184.216.34"], None)
    assert checker.checked_addresses("rebind.example", DEFAULT, lookup=False) == (["93.184.216.34"], None)
    assert checker.checked_addresses("[::1]", AddressPolicy(allow_private=True)) == (["::1"], None)
    assert checker.checked_addresses("localhost", AddressPolicy(allow_private=True)) == (
        ["127.0.0.1", "::1"],
        None,
    )
    for host in ("127.0.0.1", "metadata.google.internal", "169.254.169.254"):
        addresses, reason = checker.checked_addresses(host, DEFAULT, lookup=False)
        assert addresses == [] and reason and "refused by the network guard" in reason, host
    flips = iter([["93.184.216.34"], ["10.0.0.9"]])
    fresh = HostChecker(lambda host: next(flips), cache_s=0)  # no cache: every connection looks up again
    assert fresh.checked_addresses("flip.example", DEFAULT) == (["93.184.216.34"], None)
    addresses, reason = fresh.checked_addresses("flip.example", DEFAULT)
    assert addresses == [] and reason and "10.0.0.9" in reason
