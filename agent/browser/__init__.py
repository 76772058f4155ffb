"""The browser layer: finding Chromium, sessions (tabs, events, dialogs, downloads), actions and URL guards.

Submodules are imported on use (``from agent.browser.session import BrowserSession``) so that importing the
package stays cheap and free of Playwright.
"""

from __future__ import annotations

from agent.browser.options import BrowserOptions

__all__ = ["BrowserOptions"]
