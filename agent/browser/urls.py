"""URL normalization and navigation guards: pure functions, no I/O.

Model and user URLs arrive messy ("example.com", quoted, with stray whitespace). They are normalized the way a
browser's address bar would, and the host we check is parsed the way the browser will parse it (WHATWG rules for
backslashes, tabs/newlines, percent-encoded and numeric IPv4 hosts), so a check can never pass on one host while
Chromium goes to another (``good.com@evil.test`` goes to evil.test; ``good.com.evil.test`` is not good.com).
"""

from __future__ import annotations

import re
from typing import NamedTuple
from urllib.parse import quote_plus, unquote, urlsplit, urlunsplit

#: Schemes navigation may use. Everything else (javascript:, data:, file:, blob:, chrome:, view-source:, ...)
#: is refused: they run code in the page's origin, read local files or reach browser internals.
ALLOWED_SCHEMES: frozenset[str] = frozenset({"http", "https"})
#: ``about:`` pages that are harmless to open.
ALLOWED_ABOUT: frozenset[str] = frozenset({"about:blank"})

#: Hosts that are kept on plain http when given without a scheme: local dev servers rarely speak TLS.
LOCAL_HOSTS: frozenset[str] = frozenset({"localhost", "127.0.0.1", "[::1]", "::1", "0.0.0.0"})

_SPECIAL_SCHEMES = frozenset({"http", "https", "ws", "wss", "ftp"})
_QUOTES = "\"'`<>\u201c\u201d\u2018\u2019"
_SCHEME_RE = re.compile(r"^([a-zA-Z][a-zA-Z0-9+.\-]*):")
_CONTROL_RE = re.compile(r"[\x00-\x1f\x7f]")


class UrlCheck(NamedTuple):
    """Outcome of a navigation check: ``url`` is what to navigate to when ``ok``; ``reason`` says why not."""

    ok: bool
    url: str
    reason: str


def _strip(raw: str) -> str:
    text = (raw or "").strip()
    # Repeatedly peel matching or stray quote/bracket characters a model wrapped around the URL.
    while text and (text[0] in _QUOTES or text[-1] in _QUOTES):
        text = text.strip(_QUOTES).strip()
    return text


def _scheme_of(text: str) -> str | None:
    """The scheme if ``text`` has one; ``localhost:8000/x`` is a host with a port, not the scheme "localhost"."""
    match = _SCHEME_RE.match(text)
    if not match:
        return None
    rest = text[match.end() :]
    if re.match(r"^\d{1,5}(?:[/?#]|$)", rest):
        return None  # host:port
    return match.group(1).lower()


def normalize_url(raw: str) -> str:
    """Normalize a URL the way an address bar would.

    Bare hosts get ``https://`` (``http://`` for localhost and loopback IPs); an explicit scheme is kept as
    given (lower-cased); quotes, surrounding whitespace and embedded tabs/newlines are removed; backslashes in
    http(s) URLs become slashes (as browsers treat them). Returns "" for empty input. Never raises.
    """
    text = _strip(raw)
    if not text:
        return ""
    # WHATWG: ASCII tab and newline anywhere in the input are removed; other controls are meaningless here.
    text = _CONTROL_RE.sub("", text)
    if text.startswith("//"):
        text = "https:" + text
    scheme = _scheme_of(text)
    if scheme is None:
        if text.startswith("/") or " " in text.strip():
            return text  # a path or free text; check_navigation rejects it with a reason
        host_part = re.split(r"[/?#]", text, maxsplit=1)[0]
        host_only = host_part.rsplit("@", 1)[-1]
        host_name = host_only[: host_only.rfind(":")] if re.search(r":\d+$", host_only) else host_only
        local = host_name.lower() in LOCAL_HOSTS or host_name.startswith("127.")
        text = ("http://" if local else "https://") + text
        scheme = "http" if local else "https"
    else:
        text = scheme + text[len(scheme) :]
    if scheme in _SPECIAL_SCHEMES:
        text = text.replace("\\", "/")
        head, sep, rest = text.partition(":")
        rest = rest.lstrip("/")
        text = f"{head}://{rest}" if sep else text
        parts = urlsplit(text)
        netloc = parts.netloc
        host = parts.hostname or ""
        if host and netloc:
            # Lower-case the host but leave any userinfo (which the guard treats as suspicious) alone.
            userinfo, at, hostport = netloc.rpartition("@")
            hostport = hostport.lower()
            netloc = f"{userinfo}{at}{hostport}"
        path = parts.path or "/"
        text = urlunsplit((parts.scheme, netloc, path, parts.query, parts.fragment))
    return text


def _parse_ipv4_number(part: str) -> int | None:
    if not part:
        return None
    try:
        if part[:2].lower() == "0x":
            return int(part[2:] or "0", 16)
        if len(part) > 1 and part[0] == "0":
            return int(part[1:], 8)
        return int(part, 10)
    except ValueError:
        return None


def _canonical_ipv4(host: str) -> str | None:
    """WHATWG IPv4 parsing: ``2852039166``, ``0xA9.0xFE.0xA9.0xFE`` and ``169.254.43518`` are all IPv4."""
    parts = host.split(".")
    if parts and parts[-1] == "":
        parts = parts[:-1]
    if not parts or len(parts) > 4:
        return None
    last = parts[-1]
    if not (last.isdigit() or re.fullmatch(r"0[xX][0-9a-fA-F]*", last)):
        return None
    numbers = [_parse_ipv4_number(p) for p in parts]
    if any(n is None for n in numbers):
        return None
    *head, tail = numbers
    if any(n > 255 for n in head) or tail >= 256 ** (5 - len(numbers)):  # type: ignore[operator]
        return None
    value = tail
    for index, n in enumerate(head):
        value += n * 256 ** (3 - index)  # type: ignore[operator]
    return ".".join(str((value >> shift) & 255) for shift in (24, 16, 8, 0))  # type: ignore[operator]


def canonical_host(host: str) -> str:
    """Lower-case, percent-decoded, IDNA-encoded host without trailing dot; IPv4 in dotted-decimal form."""
    host = unquote(host or "").strip().lower().rstrip(".")
    if host.startswith("[") and host.endswith("]"):
        return host
    ipv4 = _canonical_ipv4(host)
    if ipv4:
        return ipv4
    try:
        return host.encode("idna").decode("ascii") if any(ord(c) > 127 for c in host) else host
    except UnicodeError:
        return host


def host_of(url: str) -> str | None:
    """The host Chromium would connect to for ``url`` (after normalization), or None if there is none."""
    normalized = normalize_url(url)
    if not normalized:
        return None
    try:
        parts = urlsplit(normalized)
        hostname = parts.hostname
    except ValueError:
        return None
    if not hostname:
        return None
    if ":" in hostname:  # IPv6 literal; urlsplit drops the brackets
        return f"[{hostname.lower()}]"
    return canonical_host(hostname) or None


def _domain_of(entry: str) -> str:
    """A domain-list entry: ``example.com``, ``*.example.com``, ``.example.com`` or a full URL."""
    entry = _strip(entry).lower()
    if entry.startswith("*."):
        entry = entry[2:]
    entry = entry.lstrip(".")
    if "/" in entry or "@" in entry or _scheme_of(entry):
        return host_of(entry) or ""
    return canonical_host(entry.split(":", 1)[0] if not entry.startswith("[") else entry)


def domain_matches(host: str, domain: str) -> bool:
    """True when ``host`` is ``domain`` or one of its subdomains (label-wise, never by substring)."""
    host = canonical_host(host)
    domain = _domain_of(domain)
    if not host or not domain:
        return False
    return host == domain or host.endswith("." + domain)


def check_domain(
    url: str,
    allowed_domains: list[str] | tuple[str, ...] = (),
    blocked_domains: list[str] | tuple[str, ...] = (),
) -> UrlCheck:
    """Apply the domain lists to ``url`` (already normalized). Blocked wins over allowed."""
    if url in ALLOWED_ABOUT:
        return UrlCheck(True, url, "")
    host = host_of(url)
    if not host:
        return UrlCheck(False, url, f"URL {url!r} has no host")
    for domain in blocked_domains or ():
        if domain_matches(host, domain):
            return UrlCheck(False, url, f"host {host} is on the blocked list ({_domain_of(domain)})")
    if allowed_domains and not any(domain_matches(host, d) for d in allowed_domains):
        allowed = ", ".join(_domain_of(d) for d in allowed_domains)
        return UrlCheck(False, url, f"host {host} is not in the allowed domains ({allowed})")
    return UrlCheck(True, url, "")


def check_navigation(
    raw: str,
    *,
    allowed_domains: list[str] | tuple[str, ...] = (),
    blocked_domains: list[str] | tuple[str, ...] = (),
) -> UrlCheck:
    """Normalize ``raw`` and decide whether navigation may go there; the reason is written for the model."""
    url = normalize_url(raw)
    if not url:
        return UrlCheck(False, "", "empty URL")
    if url.lower() in ALLOWED_ABOUT:
        return UrlCheck(True, url.lower(), "")
    scheme = _scheme_of(url)
    if scheme is None:
        return UrlCheck(False, url, f"{raw!r} is not a URL")
    if scheme not in ALLOWED_SCHEMES:
        return UrlCheck(
            False, url, f"the {scheme}: scheme is not allowed for navigation (only http and https)"
        )
    parts = urlsplit(url)
    if parts.username is not None or parts.password is not None:
        host = host_of(url) or "?"
        return UrlCheck(
            False, url, f"URL carries credentials before '@' (the real host is {host}); refusing to navigate"
        )
    if not host_of(url):
        return UrlCheck(False, url, f"URL {url!r} has no host")
    return check_domain(url, allowed_domains, blocked_domains)


def build_search_url(template: str, query: str) -> str:
    """The search engine URL for ``query`` (``{query}`` in the template is replaced URL-encoded)."""
    encoded = quote_plus(query.strip())
    if "{query}" in template:
        return template.replace("{query}", encoded)
    return template + encoded


def same_document(url_a: str, url_b: str) -> bool:
    """True when two URLs differ at most in the fragment (a hash change is not a new document)."""
    return url_a.split("#", 1)[0] == url_b.split("#", 1)[0]
