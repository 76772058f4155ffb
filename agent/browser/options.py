"""Options for the browser layer, independent of the graph's run-time context."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any


@dataclass(kw_only=True)
class BrowserOptions:
    """How to start (or attach to) Chromium and how the session behaves."""

    headless: bool = True
    executable: str | None = None  # force an executable; else Playwright-managed, else system Chromium
    cdp_url: str | None = None  # attach to a running browser instead of launching one
    viewport_width: int = 1280
    viewport_height: int = 900
    extra_args: list[str] = field(default_factory=list)
    user_agent: str | None = None
    locale: str = "en-US"
    #: How page dialogs are answered. "dismiss": alerts accepted, confirm/prompt/beforeunload dismissed
    #: (safe default: a page never gets a "yes" it did not get from the user); "accept": everything accepted.
    dialog_policy: str = "dismiss"
    action_timeout_s: float = 8.0  # upper bound for one element action, fallbacks included
    navigation_timeout_s: float = 20.0
    #: Used by `search` when the page has no search box of its own. ``{query}`` is URL-encoded.
    search_url_template: str = "https://html.duckduckgo.com/html/?q={query}"
    downloads_dir: Path | None = None  # default: <run_dir>/downloads
    #: Navigation guards (see agent.browser.urls): a host must match an allowed domain (or subdomain) when the
    #: list is set, and may never match a blocked one. Enforced for navigate/search and, through request
    #: routing, for every document request (clicks, redirects, popups, frames).
    allowed_domains: list[str] = field(default_factory=list)
    blocked_domains: list[str] = field(default_factory=list)
    #: The network guard (agent.browser.netguard), on every request of every tab and frame, redirects
    #: included: loopback and private addresses are reached only with ``allow_private`` or ``allow_local``;
    #: link-local and metadata addresses only with ``allow_local``. A run always sets ``allow_private`` itself
    #: (from its start URL, see Context.browser_options); a session made directly keeps loopback reachable.
    allow_private: bool = True
    allow_local: bool = False
    #: How the guard resolves host names (default: the system resolver). For embedding apps and tests that
    #: map names themselves (as Chromium's --host-resolver-rules does); not a user setting.
    resolver: Callable[[str], list[str]] | None = None
    #: How the guard proxy opens a TCP connection to an address it checked (default: a plain connection).
    #: For tests that give made-up public addresses a route to loopback; not a user setting.
    dialer: Callable[[str, int], Awaitable[tuple[Any, Any]]] | None = None
    #: Folders a file input may be given files from, besides the run directory (``upload_source``).
    upload_dirs: list[Path] = field(default_factory=list)
    #: After an action, wait at most this long for its navigation/XHR to land before the next observation.
    settle_timeout_s: float = 3.0
