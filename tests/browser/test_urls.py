"""URL normalization and navigation guards (pure functions)."""

from __future__ import annotations

import pytest

from agent.browser.urls import (
    build_search_url,
    canonical_host,
    check_domain,
    check_navigation,
    domain_matches,
    host_of,
    normalize_url,
    same_document,
)


@pytest.mark.parametrize(
    ("raw", "scheme"),
    [
        ("javascript:alert(1)", "javascript"),
        ("JavaScript:alert(document.cookie)", "javascript"),
        (" java\tscript:alert(1)", "javascript"),
        ("data:text/html,<script>alert(1)</script>", "data"),
        ("file:///etc/passwd", "file"),
        ("blob:https://example.com/uuid", "blob"),
        ("chrome://settings", "chrome"),
        ("chrome-extension://abc/page.html", "chrome-extension"),
        ("view-source:https://example.com", "view-source"),
        ("ftp://example.com/file", "ftp"),
        ("mailto:someone@example.com", "mailto"),
        ("about:config", "about"),
    ],
)
def test_check_navigation_rejects_schemes(raw: str, scheme: str) -> None:
    check = check_navigation(raw)
    assert not check.ok
    assert f"{scheme}:" in check.reason


@pytest.mark.parametrize(
    "raw", ["https://example.com/", "example.com", "http://127.0.0.1:8000/x", "about:blank", "ABOUT:BLANK"]
)
def test_check_navigation_accepts(raw: str) -> None:
    check = check_navigation(raw)
    assert check.ok, check.reason
    assert check.url == normalize_url(raw).lower() if raw.lower() == "about:blank" else normalize_url(raw)


@pytest.mark.parametrize("raw", ["", "   ", "two words here", "/relative/path"])
def test_check_navigation_rejects_non_urls(raw: str) -> None:
    check = check_navigation(raw)
    assert not check.ok and check.reason


def test_userinfo_trick_names_the_real_host() -> None:
    assert host_of("https://good.com@evil.test/") == "evil.test"
    assert host_of("good.com@evil.test") == "evil.test"
    check = check_navigation("https://good.com@evil.test/login", allowed_domains=["good.com"])
    assert not check.ok
    assert "evil.test" in check.reason
    # Credentials in a URL are refused even without domain lists: nobody needs them from a model.
    assert not check_navigation("https://user:pass@example.com/").ok


@pytest.mark.parametrize(
    ("url", "domain", "expected"),
    [
        ("https://good.com/", "good.com", True),
        ("https://www.good.com/", "good.com", True),
        ("https://a.b.good.com/x", "good.com", True),
        ("https://good.com.evil.test/", "good.com", False),
        ("https://notgood.com/", "good.com", False),
        ("https://evilgood.com/", "good.com", False),
        ("https://good.com.", "good.com", True),
        ("https://GOOD.com/", "good.COM", True),
        ("https://www.good.com/", "*.good.com", True),
        ("https://www.good.com/", ".good.com", True),
        ("https://www.good.com/", "https://good.com/", True),
        ("https://good.com:8443/", "good.com", True),
        ("https://%67ood.com/", "good.com", True),
        ("https://b\u00fccher.de/", "xn--bcher-kva.de", True),
        ("https://b\u00fccher.de/", "b\u00fccher.de", True),
    ],
)
def test_domain_matching(url: str, domain: str, expected: bool) -> None:
    host = host_of(url)
    assert host is not None
    assert domain_matches(host, domain) is expected


def test_backslash_is_a_path_separator_like_in_the_browser() -> None:
    # Chromium goes to evil.test for this; a parser that saw "good.com" as host would be fooled.
    assert host_of("https://evil.test\\@good.com/") == "evil.test"
    assert not check_navigation("https://evil.test\\@good.com/", blocked_domains=["evil.test"]).ok


@pytest.mark.parametrize(
    "url",
    [
        "http://2852039166/",
        "http://0xA9.0xFE.0xA9.0xFE/",
        "http://169.254.43518/",
        "http://0251.0376.0251.0376/",
        "http://169.254.169.254./",
    ],
)
def test_numeric_ipv4_forms_are_canonical(url: str) -> None:
    assert host_of(url) == "169.254.169.254"
    assert not check_navigation(url, blocked_domains=["169.254.169.254"]).ok


def test_ipv6_and_odd_hosts() -> None:
    assert host_of("http://[::1]:8080/") == "[::1]"
    assert canonical_host("Example.COM.") == "example.com"
    assert canonical_host("999.1.1.1") == "999.1.1.1"  # not an IPv4 address, left alone
    assert host_of("javascript:alert(1)") is None


def test_allowed_and_blocked_lists() -> None:
    allowed = ["example.com", "docs.python.org"]
    assert check_navigation("https://www.example.com/a", allowed_domains=allowed).ok
    assert check_navigation("docs.python.org/3/", allowed_domains=allowed).ok
    refused = check_navigation("https://python.org/", allowed_domains=allowed)
    assert not refused.ok and "not in the allowed domains" in refused.reason
    blocked = check_navigation("https://ads.tracker.test/x", blocked_domains=["tracker.test"])
    assert not blocked.ok and "blocked" in blocked.reason
    # Blocked wins over allowed.
    both = check_navigation(
        "https://evil.example.com/", allowed_domains=["example.com"], blocked_domains=["evil.example.com"]
    )
    assert not both.ok
    assert check_domain("about:blank", ["example.com"]).ok


def test_build_search_url_encodes_the_query() -> None:
    url = build_search_url("https://s.test/?q={query}&x=1", "red shoes & socks/100%")
    assert url == "https://s.test/?q=red+shoes+%26+socks%2F100%25&x=1"
    assert build_search_url("https://s.test/search?q=", "a b") == "https://s.test/search?q=a+b"


def test_same_document() -> None:
    assert same_document("https://a.test/x#one", "https://a.test/x#two")
    assert not same_document("https://a.test/x", "https://a.test/y")
