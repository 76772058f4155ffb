"""Options for the browser layer, independent of the graph's run-time context."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path


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
