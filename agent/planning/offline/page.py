"""Reading an Observation: element kinds and labels, geometry, repeated listings and blocking overlays.

Everything is a pure function of the observed element dicts, so matching and answering can be tested on
hand-built observations and behave identically on real pages.
"""

from __future__ import annotations

import bisect
import math
import re
from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any
from urllib.parse import parse_qsl, urlsplit

from agent.planning.offline.text import clip, norm, split_identifier
from agent.planning.offline.urls import host_of
from agent.types import Element, Observation

NON_TEXT_INPUTS = frozenset(
    {"checkbox", "radio", "submit", "button", "reset", "image", "file", "hidden", "range", "color"}
)
CLICK_ROLES = frozenset(
    {
        "button",
        "link",
        "tab",
        "menuitem",
        "menuitemcheckbox",
        "menuitemradio",
        "option",
        "checkbox",
        "radio",
        "switch",
        "treeitem",
        "gridcell",
        "row",
        "cell",
        "img",
    }
)
MONEY_RX = re.compile(
    r"(?:[$€£¥₹₽][ \u00a0]?\d[\d,]*(?:\.\d{1,2})?|(?<![\w.,])\d[\d,]*(?:[.,]\d{1,2})?[ \u00a0]?"
    r"(?:€|\$|£|USD|EUR|GBP|CHF|JPY|PLN|zł|kr)(?![a-z]))",
    re.I,
)


def role_of(el: Element) -> str:
    """The element's role, falling back to the implicit role of its tag."""
    role = (el.get("role") or "").lower()
    if role:
        return role
    tag = (el.get("tag") or "").lower()
    itype = (el.get("input_type") or "").lower()
    if tag == "a":
        return "link" if (el.get("attrs") or {}).get("href") else ""
    if tag == "button":
        return "button"
    if tag == "select":
        return "combobox"
    if tag == "textarea":
        return "textbox"
    if tag == "input":
        if itype in ("checkbox", "radio"):
            return itype
        if itype in ("submit", "button", "reset", "image"):
            return "button"
        return "searchbox" if itype == "search" else "textbox"
    if re.fullmatch(r"h[1-6]", tag):
        return "heading"
    return ""


def is_text_field(el: Element) -> bool:
    tag = (el.get("tag") or "").lower()
    itype = (el.get("input_type") or "").lower()
    role = role_of(el)
    if tag == "select" or itype in NON_TEXT_INPUTS:
        return False
    if tag in ("input", "textarea") or role in ("textbox", "searchbox"):
        return True
    return bool(el.get("editable")) and role not in ("checkbox", "radio", "switch", "button", "link")


def is_select(el: Element) -> bool:
    tag = (el.get("tag") or "").lower()
    return (
        tag == "select"
        or bool(el.get("options"))
        or role_of(el) in ("combobox", "listbox")
        and not is_text_field(el)
    )


def is_checkable(el: Element) -> bool:
    itype = (el.get("input_type") or "").lower()
    role = role_of(el)
    return itype in ("checkbox", "radio") or role in (
        "checkbox",
        "radio",
        "switch",
        "menuitemcheckbox",
        "menuitemradio",
    )


def is_link(el: Element) -> bool:
    return role_of(el) == "link" or (el.get("tag") or "").lower() == "a"


def is_button(el: Element) -> bool:
    itype = (el.get("input_type") or "").lower()
    return (
        role_of(el) == "button"
        or (el.get("tag") or "").lower() == "button"
        or itype in ("submit", "button", "image", "reset")
    )


def is_clickable(el: Element) -> bool:
    if el.get("interactive"):
        return True
    tag = (el.get("tag") or "").lower()
    return role_of(el) in CLICK_ROLES or tag in ("a", "button", "summary", "label", "option")


def is_heading(el: Element) -> bool:
    return role_of(el) == "heading" or bool(re.fullmatch(r"h[1-6]", (el.get("tag") or "").lower()))


def attr(el: Element, name: str) -> str:
    return str((el.get("attrs") or {}).get(name) or "")


def visible_text(el: Element) -> str:
    """What a person reads on the element (text, else accessible name, else value of a button)."""
    return clip(
        el.get("text")
        or el.get("name")
        or attr(el, "aria-label")
        or attr(el, "title")
        or attr(el, "alt")
        or (el.get("value") or "" if is_button(el) else ""),
        200,
    )


def labels(el: Element) -> list[tuple[str, float]]:
    """Every text that names the element, with how much a match on it counts."""
    out: list[tuple[str, float]] = []
    field = is_text_field(el) or is_select(el)

    def add(text: str | None, weight: float) -> None:
        t = (text or "").strip()
        if t and len(t) <= 400:
            out.append((t, weight))

    add(el.get("name"), 1.0)
    if not field:
        add(el.get("text"), 1.0)
    add(attr(el, "aria-label"), 1.0)
    add(el.get("placeholder"), 0.95)
    add(attr(el, "title"), 0.9)
    add(attr(el, "alt"), 0.9)
    if is_button(el) and not field:
        add(el.get("value"), 0.95)
    add(split_identifier(attr(el, "name")), 0.8)
    add(split_identifier(attr(el, "id")), 0.75)
    add(split_identifier(attr(el, "data-testid")), 0.7)
    add(
        attr(el, "autocomplete").replace("-", " ") if attr(el, "autocomplete") not in ("on", "off") else "",
        0.7,
    )
    href = attr(el, "href")
    if href and not href.startswith(("javascript:", "#")):
        last = [s for s in urlsplit(href).path.split("/") if s]
        if last:
            add(split_identifier(re.sub(r"\.\w{2,5}$", "", last[-1])), 0.6)
    return out


# --------------------------------------------------------------------------------------------------------------
# Geometry
# --------------------------------------------------------------------------------------------------------------


def rect(el: Element) -> tuple[float, float, float, float] | None:
    box = el.get("bbox")
    if not box or len(box) != 4:
        return None
    try:
        x, y, w, h = (float(v) for v in box)
    except (TypeError, ValueError):
        return None
    return (x, y, w, h) if w >= 0 and h >= 0 else None


def reading_order(elements: Iterable[Element]) -> list[Element]:
    """Top-to-bottom, left-to-right (rows within 8px count as one line); elements without a box keep order."""
    items = list(elements)
    indexed = list(enumerate(items))

    def key(pair: tuple[int, Element]) -> tuple[float, float, int]:
        r = rect(pair[1])
        return (round(r[1] / 8), r[0], pair[0]) if r else (math.inf, math.inf, pair[0])

    return [el for _, el in sorted(indexed, key=key)]


def directional_distance(anchor: Element, other: Element) -> float:
    """Distance from an anchor to an element, where things above the anchor count three times as far.

    Within a card or row, related facts sit below or to the right of the name; the card above is close too,
    so being above is penalized.
    """
    a, b = rect(anchor), rect(other)
    if not a or not b:
        return math.inf
    ax, ay, aw, ah = a
    bx, by, bw, bh = b
    dx = max(0.0, max(ax - (bx + bw), bx - (ax + aw)))
    if by + bh / 2 >= ay:
        dy = max(0.0, by - (ay + ah))
        factor = 1.0
    else:
        dy = max(0.0, ay - (by + bh))
        factor = 3.0
    centre = math.hypot((ax + aw / 2) - (bx + bw / 2), (ay + ah / 2) - (by + bh / 2))
    return math.hypot(dx, dy * factor) + 0.01 * centre


class Owners:
    """Which peer (e.g. product title) owns an element: the card or row it sits in.

    The owner is the peer on the same row to its left, else the nearest peer above it in an overlapping
    column. Peers are indexed by their top edge so a lookup only visits nearby peers.
    """

    WINDOW = 1500.0

    def __init__(self, peers: Sequence[Element]) -> None:
        boxes = [(r, p) for p in peers if (r := rect(p))]
        boxes.sort(key=lambda t: t[0][1])
        self._boxes = boxes
        self._tops = [r[1] for r, _ in boxes]
        self._ids = {p.get("id") for _, p in boxes}

    def owner(self, item: Element, window: float = WINDOW) -> Element | None:
        r = rect(item)
        if not r:
            return None
        if item.get("id") in self._ids:
            return item
        x, y, w, h = r
        lo = bisect.bisect_left(self._tops, y - window)
        hi = bisect.bisect_right(self._tops, y + h)
        best, best_cost = None, math.inf
        for (px, py, pw, ph), peer in self._boxes[lo:hi]:
            v_overlap = min(py + ph, y + h) - max(py, y)
            h_overlap = min(px + pw, x + w) - max(px, x)
            if v_overlap > 0.4 * min(ph, h) and x >= px - 4:
                cost = max(0.0, x - (px + pw)) * 0.5
            elif h_overlap > -12 and py <= y + h / 2:
                cost = max(0.0, y - (py + ph))
            else:
                continue
            if cost < best_cost:
                best, best_cost = peer, cost
        return best

    def owns(self, peer: Element, item: Element) -> bool:
        found = self.owner(item)
        return found is not None and found.get("id") == peer.get("id")


# --------------------------------------------------------------------------------------------------------------
# Listings: the repeated items of a results/product page
# --------------------------------------------------------------------------------------------------------------

_CHROME_ZONES = frozenset({"header", "nav", "footer", "dialog", "aside"})
_VALUE_ONLY = re.compile(r"^[\s$€£¥₹.,:%#\d()/+-]*(?:usd|eur|gbp)?[\s.]*$", re.I)
_GENERIC_LINK_TEXT = re.compile(
    r"^(?:next|previous|prev|more|read more|view|details|see more|show more|back|home|"
    r"top|«|»|‹|›|page \d+|\d+)$",
    re.I,
)


@lru_cache(maxsize=16384)
def href_pattern(href: str, page_url: str = "") -> str:
    """A link's shape: '/products/*' for '/products/blue-widget'; 'ext' for other sites; 'js' for scripts."""
    if not href or href.startswith(("javascript:", "#", "mailto:", "tel:")):
        return "js"
    try:
        parts = urlsplit(href)
    except ValueError:
        return "js"
    host, page_host = (parts.hostname or "").lower(), host_of(page_url)
    if host and page_host and host != page_host:
        return "ext"
    segs = [s for s in parts.path.split("/") if s]
    if not segs and not parts.query and parts.fragment:
        return "js"
    if segs:
        segs = ["#" if re.search(r"\d", s) else s for s in segs[:-1]] + ["*"]
    keys = ",".join(sorted(k for k, _ in parse_qsl(parts.query)))
    return "/" + "/".join(segs) + (f"?{keys}" if keys else "")


def signature(el: Element, page_url: str = "") -> tuple[str, ...]:
    """Elements that play the same part in repeated cards share a signature."""
    href = attr(el, "href")
    if is_link(el) and href:
        return ("link", href_pattern(href, page_url))
    if is_heading(el):
        return ("heading", (el.get("tag") or "").lower())
    r = rect(el)
    width = str(round(r[2] / 24)) if r else ""
    return ((el.get("tag") or "").lower(), role_of(el), width)


@dataclass(frozen=True)
class _Index:
    """Per-page facts that several questions and steps need (computed once per observation)."""

    signatures: dict[int, tuple[str, ...]]
    listing: tuple[Element, ...]


_INDEX_CACHE: list[tuple[object, str, _Index]] = []


def _index(observation: Observation) -> _Index:
    """The page index, cached by the identity of the observation's element list (observations are values)."""
    elements = observation.get("elements") or []
    url = observation.get("url") or ""
    for key, key_url, index in _INDEX_CACHE:
        if key is elements and key_url == url:
            return index
    signatures = {int(e.get("id") or 0): signature(e, url) for e in elements}
    index = _Index(signatures=signatures, listing=tuple(_listing(elements, signatures)))
    if elements:
        _INDEX_CACHE.insert(0, (elements, url, index))
        del _INDEX_CACHE[8:]
    return index


def listing_items(observation: Observation) -> list[Element]:
    """The items of the main listing (product cards, search results, rows) in reading order, or []."""
    return list(_index(observation).listing)


def _listing(elements: list[Element], signatures: dict[int, tuple[str, ...]]) -> list[Element]:
    groups: dict[tuple[str, ...], list[Element]] = defaultdict(list)
    for el in elements:
        if (el.get("zone") or "main") in _CHROME_ZONES:
            continue
        text = visible_text(el)
        if len(text) < 2 or _VALUE_ONLY.match(text) or _GENERIC_LINK_TEXT.match(text.strip()):
            continue
        if is_text_field(el) or is_select(el) or is_checkable(el):
            continue
        key = signatures[int(el.get("id") or 0)]
        if key[:2] == ("link", "js"):
            continue
        groups[key].append(el)
    candidates: list[tuple[float, list[Element]]] = []
    for key, members in groups.items():
        unique = _dedupe(members)
        distinct = len({norm(visible_text(e)) for e in unique})
        if len(unique) < 2 or distinct < max(2, 0.6 * len(unique)):
            continue
        weight = 1.3 if key[0] == "link" else 1.15 if key[0] == "heading" else 1.0
        candidates.append((distinct * weight, unique))
    candidates.sort(key=lambda t: -t[0])
    facts = [e for e in elements if is_button(e) or _CARD_FACT_RX.search(visible_text(e))]
    best: list[Element] = []
    best_score = 0.0
    for base, unique in candidates[:5]:
        score = base * (0.5 + _richness(unique, facts))
        if score > best_score:
            best, best_score = unique, score
    return reading_order(best)


_CARD_FACT_RX = re.compile(
    MONEY_RX.pattern
    + r"|\b\d(?:[.,]\d)?\s*(?:/\s*5|out\s+of\s+5|stars?)|\b\d[\d,]*\s+(?:reviews?|ratings?|comments?|"
    r"points?|votes?|answers?)\b",
    re.I,
)


def _richness(members: list[Element], facts: list[Element]) -> float:
    """Share of members whose card holds a fact (price, rating, count) or a button: product cards and result
    entries have them, rows of category chips or menu links do not."""
    owners = Owners(members)
    ids = {m.get("id") for m in members}
    rich: set[Any] = set()
    for el in facts:
        if el.get("id") in ids:
            continue
        found = owners.owner(el, window=200.0)
        box, own = rect(el), rect(found) if found is not None else None
        if found is None or box is None or own is None:
            continue
        if box[1] - (own[1] + own[3]) <= 160:
            rich.add(found.get("id"))
    return len(rich) / len(members)


def _dedupe(members: list[Element]) -> list[Element]:
    """One element per target: a card's image link and title link share an href."""
    seen: set[str] = set()
    out = []
    for el in reading_order(members):
        key = attr(el, "href") or f"#{el.get('id')}"
        if key in seen:
            continue
        seen.add(key)
        out.append(el)
    return out


def peers_of(anchor: Element, observation: Observation) -> list[Element]:
    """Elements playing the same part as ``anchor`` (other product titles for a product title)."""
    index = _index(observation)
    key = index.signatures.get(int(anchor.get("id") or 0)) or signature(anchor, observation.get("url") or "")
    zone = anchor.get("zone") or "main"
    peers = [
        e
        for e in observation.get("elements") or []
        if index.signatures.get(int(e.get("id") or 0)) == key and (e.get("zone") or "main") == zone
    ]
    items = list(index.listing)
    if any(e.get("id") == anchor.get("id") for e in items):
        ids = {e.get("id") for e in items}
        peers = items + [p for p in peers if p.get("id") not in ids]
    return peers or [anchor]


# --------------------------------------------------------------------------------------------------------------
# Blocking overlays: cookie walls and modal dialogs
# --------------------------------------------------------------------------------------------------------------

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
