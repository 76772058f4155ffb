"""Risk analysis of one proposed action, in code (the model's opinion is never the last word).

``analyze_action`` returns ``{"risk": "low" | "high" | "blocked", "reasons": [...]}``:
- blocked: navigation the settings forbid (bad scheme, credentials in the URL, domain lists) - never runs;
- high: actions with side effects people want to approve (buying, paying, deleting, sending, publishing,
  account changes, typing a secret the user did not give) - they go through ``confirm``;
- low: everything else.
"""

from __future__ import annotations

import re
from typing import Any

from agent.browser.urls import check_navigation
from agent.util.elements import element_by_id

_RISKY_WORDS = (
    r"buy|purchase|checkout|check out|place (?:the )?order|order now|pay|payment|submit payment|donate|"
    r"subscribe and pay|transfer|wire|send money|delete|remove account|erase|destroy|close account|"
    r"deactivate|cancel (?:my )?(?:subscription|account|order)|unsubscribe|send|post|publish|tweet|share|"
    r"reply all|confirm purchase|confirm payment|agree and pay|accept terms|sign contract|change password|"
    r"reset password|update billing|grant|authorize|allow access"
)
_RISKY_RE = re.compile(rf"\b(?:{_RISKY_WORDS})\b", re.IGNORECASE)
#: Words that look risky but are routine (adding to a cart is not buying; a search form's "send" is not a message).
_BENIGN_RE = re.compile(
    r"\b(add to (?:cart|basket|bag)|search|sign in|log in|login|next|continue)\b", re.IGNORECASE
)


def _label(element: dict[str, Any]) -> str:
    parts = [element.get("name") or "", element.get("text") or "", element.get("value") or ""]
    attrs = element.get("attrs") or {}
    parts += [attrs.get("aria-label", ""), attrs.get("title", "")]
    unique: list[str] = []
    for part in parts:
        if part and part.strip() and part.strip() not in unique:
            unique.append(part.strip())
    return " ".join(unique)[:300]


def _goal_allows(goal: str, text: str) -> bool:
    """True when the user's own goal contains this text (permission comes only from the user)."""
    return bool(text) and text.strip().lower() in goal.lower()


def analyze_action(
    action: dict[str, Any],
    observation: dict[str, Any] | None,
    *,
    goal: str = "",
    allowed_domains: list[str] | tuple[str, ...] = (),
    blocked_domains: list[str] | tuple[str, ...] = (),
) -> dict[str, Any]:
    """Risk of ``action`` on the page described by ``observation``."""
    name = action.get("action", "")
    args = action.get("args") or {}
    reasons: list[str] = []

    if name == "navigate":
        check = check_navigation(
            str(args.get("url", "")), allowed_domains=allowed_domains, blocked_domains=blocked_domains
        )
        if not check.ok:
            return {"risk": "blocked", "reasons": [check.reason]}
    element = element_by_id(observation, action.get("element_id"))
    if element is not None:
        label = _label(element)
        if name == "click" and _RISKY_RE.search(label) and not _BENIGN_RE.search(label):
            reasons.append(
                f'clicking {element.get("role") or element.get("tag")} "{label[:60]}" may have side effects'
            )
        if name == "type":
            text = str(args.get("text", ""))
            if element.get("input_type") == "password" and not _goal_allows(goal, text):
                reasons.append("typing a password the goal did not provide")
            if args.get("submit") and _RISKY_RE.search(label):
                reasons.append(f'submitting "{label[:60]}" may have side effects')
        if name == "select_option" and _RISKY_RE.search(str(args.get("option", ""))):
            reasons.append(f'selecting "{args.get("option")}" may have side effects')
    return {"risk": "high" if reasons else "low", "reasons": reasons}
