"""execute_action: run one Action on the session's active tab and judge the outcome on the page.

Contract: never raises, never exceeds its time bound (element and other actions ``options.action_timeout_s``,
navigate/search/go_back/go_forward ``options.navigation_timeout_s``, wait at most 10 s + 1 s; a hard
``asyncio.wait_for`` adds ``GRACE_S`` for clean-up), and every failure is a result with an ``error_type`` and a
message written for the planner. After an action, the page is given up to ``options.settle_timeout_s`` (inside
the bound) for its navigation/XHR to land, so the next observation sees the result.

Element actions (click, type, select_option) try, in order: the direct Playwright action with a short timeout;
"wiggle" (re-mark the page through the observation layer's marker, scroll the element to the centre, retry); a JS fallback
(``element.click()`` / setting the value with input+change events), never on a disabled or invisible element nor
through a page-covering overlay; and a text/role match from the element's description in ``observation``
(which also handles ids gone stale after the page replaced its DOM). A click whose Playwright log says the click
was dispatched is never retried, so a non-idempotent button is not pressed twice. An element under a
page-covering overlay (cookie wall, modal) fails at once with the overlay's text: the page wants it handled
first, as a person would. A disabled element fails with error_type ``tool_limit``; a hidden one is never touched.
Failures count per element id in ``session.failure_counts`` (success clears the count).

Events: the result's ``events`` are the session events that happened while the action ran (a copy); they stay
pending in the session, so the next observation's ``drain_events()`` reports them too. Nothing is lost between
an action and the observation that follows it.

Modules, by what the actions do: :mod:`.pointer` (click, scroll), :mod:`.forms` (type, select_option,
press_key), :mod:`.navigation` (navigate, search, go_back/go_forward, switch_tab), :mod:`.files` (screenshot,
a navigation that is a download), :mod:`.pdf` (pdf_extract: the PDF the tab shows or the run downloaded), :mod:`.elements` (the fallback chain of element actions), :mod:`.base`
(outcome, budget, helpers) and :mod:`.dispatch` (``execute_action``). Page scripts are ``agent/browser/js/*.js``.
"""

from __future__ import annotations

from agent.browser.actions.base import ELEMENT_ACTIONS, NAVIGATION_ACTIONS
from agent.browser.actions.dispatch import GRACE_S, MAX_WAIT_S, execute_action, wait_seconds
from agent.browser.actions.forms import KEY_ALIASES, match_option, normalize_key
from agent.browser.actions.navigation import SEARCH_BOX_SELECTOR

__all__ = [
    "ELEMENT_ACTIONS",
    "GRACE_S",
    "KEY_ALIASES",
    "MAX_WAIT_S",
    "NAVIGATION_ACTIONS",
    "SEARCH_BOX_SELECTOR",
    "execute_action",
    "match_option",
    "normalize_key",
    "wait_seconds",
]
