"""The words that name an irreversible or costly action, by kind; one home for the safety rules and the
browser's dialog policy (a page's ``confirm("Delete all?")`` is judged by the same words as a button).

- money: buying, paying, ordering, transferring;
- destroy: deleting, closing or cancelling accounts and orders;
- publish: sending, posting, publishing, sharing - ambiguous on links ("Post 57" is a title, a "Share" link
  opens a menu), so :func:`risky_kind` counts them only on controls that submit (buttons, not links);
- account: credentials, billing, permissions, terms.
"""

from __future__ import annotations

import re

_KINDS = {
    "money": r"buy|buy now|purchase|checkout|check out|place (?:the |my |your )?order|order now|pay|pay now|payment|"
    r"submit payment|donate|subscribe and pay|transfer|wire|send money|confirm purchase|confirm payment|"
    r"agree and pay|complete (?:purchase|order)",
    "destroy": r"delete|delete all|remove account|erase|destroy|close account|deactivate|"
    r"cancel (?:my |your |the )?(?:subscription|account|order|membership)|unsubscribe|wipe|empty (?:the )?trash",
    "publish": r"send|post|publish|tweet|share|reply all|submit (?:review|comment|post)",
    "account": r"change password|reset password|change e-?mail|update billing|grant|authorize|allow access|"
    r"accept terms|sign contract|transfer ownership|make admin",
}
_RE = {kind: re.compile(rf"\b(?:{words})\b", re.IGNORECASE) for kind, words in _KINDS.items()}
#: Routine steps whose labels may hold a risky word ("Add to cart" is not buying; "Sign in" is not sending).
BENIGN_RE = re.compile(
    r"\b(add to (?:cart|basket|bag)|search|sign in|log in|login|next|continue)\b", re.IGNORECASE
)


def risky_kind(label: str, *, submits: bool = True) -> str | None:
    """The kind of irreversible action ``label`` names (money, destroy, publish, account), or None.

    ``submits`` is False for a link or other plain navigation: publishing words do not count there.
    """
    if not label or BENIGN_RE.search(label):
        return None
    for kind, pattern in _RE.items():
        if kind == "publish" and not submits:
            continue
        if pattern.search(label):
            return kind
    return None


def risky_text(text: str) -> bool:
    """True when a free text (a dialog's message) names an irreversible action of any kind."""
    return any(pattern.search(text or "") for pattern in _RE.values())
