"""Blocking overlays: cookie walls and modal dialogs, and the button that clears each."""

from __future__ import annotations

import re
from dataclasses import dataclass

from agent.planning.offline.page import is_clickable, is_text_field, labels, visible_text
from agent.planning.offline.text import clip
from agent.types import Element, Observation

COOKIE_RX = re.compile(
    r"\bcookies?\b|\bconsent\b|\bgdpr\b|\bprivacy\s+(?:settings|preferences|choices)\b", re.I
)


_NEGATIVE_RX = re.compile(
    r"\b(?:reject|decline|deny|refuse|manage|settings|customi[sz]e|preferences|learn|more\s+info|"
    r"details|policy|read\s+more|options|choose|let\s+me)\b",
    re.I,
)


_ACCEPT_SCORES = (
    (re.compile(r"\baccept\s+all\b|\ballow\s+all\b|\bagree\s+to\s+all\b", re.I), 1.0),
    (re.compile(r"\baccept\b", re.I), 0.95),
    (re.compile(r"\b(?:i\s+)?agree\b|\bconsent\b", re.I), 0.9),
    (re.compile(r"\ballow\b", re.I), 0.85),
    (re.compile(r"\bgot\s+it\b|^\s*ok(?:ay)?\s*[.!]?\s*$|\bunderstood\b|\bsounds\s+good\b", re.I), 0.8),
    (re.compile(r"^\s*continue\b", re.I), 0.6),
)


_CLOSE_SCORES = (
    (re.compile(r"^\s*(?:close|dismiss|[×✕✖x])\s*$|\bclose\b", re.I), 0.9),
    (
        re.compile(r"\bno,?\s+thanks?\b|\bnot\s+now\b|\bmaybe\s+later\b|\bskip\b|\bcancel\b|\blater\b", re.I),
        0.85,
    ),
)


@dataclass(frozen=True)
class Overlay:
    """A cookie banner or modal dialog in the way, and the button that gets rid of it."""

    kind: str  # cookie | dialog
    button: Element
    text: str


def _button_text(el: Element) -> str:
    return " ".join(t for t, _ in labels(el)[:3])


def dismiss_score(el: Element, kind: str) -> float:
    """How well a button would clear an overlay of ``kind`` (accept for cookies, close for dialogs)."""
    text = _button_text(el)
    if not text or _NEGATIVE_RX.search(text) and not re.search(r"\baccept\s+all\b", text, re.I):
        return 0.0
    accept = max((s for rx, s in _ACCEPT_SCORES if rx.search(text)), default=0.0)
    close = max((s for rx, s in _CLOSE_SCORES if rx.search(text)), default=0.0)
    if kind == "cookie":
        return max(accept, close * 0.55)
    return max(close, accept * 0.8)


def blocking_overlay(observation: Observation) -> Overlay | None:
    """A cookie wall/banner, or a modal dialog that occludes the page, with its accept/close button."""
    elements = observation.get("elements") or []
    layer = [e for e in elements if e.get("zone") == "dialog" or e.get("fixed")]
    if not layer:
        return None
    layer_text = " ".join(visible_text(e) for e in layer)
    page_mentions = bool(COOKIE_RX.search(observation.get("page_text") or ""))
    cookie = (
        bool(COOKIE_RX.search(layer_text))
        or page_mentions
        and any(dismiss_score(e, "cookie") >= 0.8 for e in layer if is_clickable(e))
    )
    dialog = [e for e in elements if e.get("zone") == "dialog"]
    occluding = any(e.get("occluded") and e.get("zone") != "dialog" and not e.get("fixed") for e in elements)
    if cookie:
        kind, pool = "cookie", layer
    elif dialog and occluding:
        kind, pool = "dialog", dialog
    else:
        return None
    buttons = [e for e in pool if is_clickable(e) and not e.get("disabled") and not is_text_field(e)]
    scored = sorted(
        ((dismiss_score(e, kind), n, e) for n, e in enumerate(buttons)), key=lambda t: (-t[0], t[1])
    )
    if not scored or scored[0][0] < 0.5:
        return None
    text = clip(" ".join(visible_text(e) for e in pool if not is_clickable(e)) or layer_text, 160)
    return Overlay(kind=kind, button=scored[0][2], text=text)
