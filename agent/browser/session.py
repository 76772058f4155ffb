"""BrowserSession: one Playwright, one Chromium, one context and its tabs, plus what happened in them.

The session is the only owner of Playwright objects; the graph only ever sees tab ids and plain event dicts.
It follows tabs the page opens (they become active), answers dialogs by policy so a page can never block the run,
saves downloads under a sanitized name inside the run directory, and records events (url_changed, dom_changed,
tab_opened, tab_closed, dialog, download) until the next observation drains them. Every call that talks to the
browser is bounded, so a crashed tab or a browser closed underneath us gives a clear error, never a hang.

The class is assembled from one mixin per job over one shared state (:mod:`.session_base`):
:mod:`.session_launch` (launch or attach, reset, close), :mod:`.session_tabs` (tabs, the active page, element
lookup, settling), :mod:`.session_events` (events, dialogs, downloads), :mod:`.session_policy` (allowed and
blocked domains) and :mod:`.session_secrets` (fields screenshots mask).
"""

from __future__ import annotations

from agent.browser.filenames import safe_filename
from agent.browser.scripts import browser_script
from agent.browser.session_base import BrowserClosedError, BrowserSessionError
from agent.browser.session_events import DOM_BINDING, EventsMixin
from agent.browser.session_launch import LaunchMixin
from agent.browser.session_policy import DomainPolicyMixin
from agent.browser.session_secrets import SecretFieldsMixin
from agent.browser.session_tabs import TabsMixin

#: The DOM watcher every frame of every page gets (``agent/browser/js/dom_watch.js``).
DOM_WATCH_SCRIPT = browser_script("dom_watch")

__all__ = [
    "DOM_BINDING",
    "DOM_WATCH_SCRIPT",
    "BrowserClosedError",
    "BrowserSession",
    "BrowserSessionError",
    "safe_filename",
]


class BrowserSession(LaunchMixin, TabsMixin, EventsMixin, DomainPolicyMixin, SecretFieldsMixin):
    """Playwright + Chromium + one context + tabs + events. Create with ``await BrowserSession.start(...)``."""
