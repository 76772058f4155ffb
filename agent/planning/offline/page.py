"""Reading an Observation: element kinds and labels, geometry, repeated listings and blocking overlays.

Everything is a pure function of the observed element dicts, so matching and answering can be tested on
hand-built observations and behave identically on real pages.
"""

from __future__ import annotations

import bisect
import math
import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any
from urllib.parse import urlsplit

from agent.planning.offline.text import clip, norm, split_identifier
from agent.types import Element

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
    r"(?:€|\$|£|USD|EUR|GBP|CHF|JPY|PLN|zł|kr)(?![a-z])(?![ \u00a0]?\d))",  # ('2027 £187': the sign is £187's)
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


def is_image(el: Element) -> bool:
    return role_of(el) == "img" or (el.get("tag") or "").lower() == "img"


#: Element kinds a goal can name ("the second checkbox", "how many links"), each with its test.
ELEMENT_KINDS: dict[str, Callable[[Element], bool]] = {
    "button": is_button,
    "link": is_link,
    "textbox": is_text_field,
    "textarea": lambda e: (e.get("tag") or "").lower() == "textarea",
    "field": is_text_field,
    "input": is_text_field,
    "combobox": is_select,
    "dropdown": is_select,
    "checkbox": lambda e: role_of(e) in ("checkbox", "switch") or (e.get("input_type") or "") == "checkbox",
    "box": is_checkable,
    "switch": is_checkable,
    "radio": lambda e: role_of(e) == "radio",
    "tab": lambda e: role_of(e) == "tab",
    "image": is_image,
    "heading": is_heading,
}


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


def repeated_link_labels(elements: Iterable[Element]) -> frozenset[str]:
    """Link texts (lower-cased) that several links to different pages share ('Read more' under every card):
    such a text says nothing about where its link goes; the card around it does."""
    targets: dict[str, set[str]] = {}
    for el in elements:
        href = ((el.get("attrs") or {}).get("href") or "").split("#", 1)[0]
        label = " ".join(visible_text(el).lower().split())
        if is_link(el) and href and label:
            targets.setdefault(label, set()).add(href)
    return frozenset(label for label, hrefs in targets.items() if len(hrefs) > 1)


#: Links to a home page that say so rather than name the site.
_HOME_WORDS = frozenset({"home", "homepage", "start", "main page", "back", "index"})


def site_words(observation: Mapping[str, Any]) -> set[str]:
    """The words of the site's own name: the text of its link home in its header or navigation ('Lotus Garden'
    -> /) when the page's title repeats some of it (the rest is where the site is: 'Saltings Guest House ·
    Wrenham'). 'at Lotus Garden' in a question is said of every page of that site, so the site's own content
    need not repeat it (side blocks still must: they speak of other places)."""
    title = norm(str(observation.get("title") or ""))
    words: set[str] = set()
    for el in observation.get("elements") or []:
        attrs = el.get("attrs") or {}
        href = str(attrs.get("href") or "")
        if not ELEMENT_KINDS["link"](el) or not href:
            continue
        parts = urlsplit(href)
        box = el.get("bbox") or [0, 0, 0, 0]
        top = (el.get("zone") or "main") in ("header", "nav") or float(box[1]) < 120
        text = str(el.get("text") or el.get("name") or "").strip()
        # a logo with its motto ('Fenwick Pharmacy Your local ...'): its leading words the title repeats
        if len(text) > 60:
            lead = text.split()[:6]
            kept = next(
                (k for k, w in enumerate(lead) if not re.search(rf"\b{re.escape(w.lower())}\b", title)), 6
            )
            text = " ".join(lead[:kept])
        if parts.path not in ("", "/") or parts.query or not top or not text or len(text) > 60:
            continue
        if norm(text) in _HOME_WORDS:
            continue
        name, place = _name_and_place(text)
        named = {w for w in _words(text) if re.search(rf"\b{re.escape(w)}\b", title)}
        words |= named
        if named & _words(name) and place:  # the title names the site: what its link home adds is where it is
            words |= _words(place) | set(re.findall(r"[\w'’]+", place.lower()))
    return words


def _words(text: str) -> set[str]:
    return set(re.findall(r"[\w'’-]+", text.lower()))


_PLACE_MARK = re.compile(r"\s*[·|–—]\s*|,\s+")


def _name_and_place(text: str) -> tuple[str, str]:
    """A site's name and its place, as its link home says them: 'Saltings Guest House · Wrenham-next-the-Sea',
    'Alderbrook Vets, Calderford' (no mark: no place; 'Skerry Air Flying the Highlands' is a name and a motto)."""
    m = _PLACE_MARK.search(text)
    return (text[: m.start()], text[m.end() :]) if m else (text, "")


def without_site_name(phrase: str, site: set[str]) -> str:
    """The phrase without a closing 'at/from/of <the site's own name>' ('minimum spend for delivery from Lotus
    Garden' -> 'minimum spend for delivery' on Lotus Garden's site): every line there is said of it."""
    if not site:
        return phrase
    tails = [
        m
        for m in re.finditer(r"\s+(?:at|from|of|in|on|with|by)\s+(?:the\s+)?(?=\S)", phrase, re.I)
        if set(re.findall(r"[\w'’-]+", phrase[m.end() :].lower())) <= site and phrase[m.end() :].strip()
    ]  # ('... job in Halifax on Riverline Jobs': the last place said is the site, not 'in Halifax on ...')
    return (phrase[: tails[0].start()].strip() or phrase) if tails else phrase


def field_hint(el: Element, observation: Mapping[str, Any]) -> str:
    """The short line a form shows right under a field's label ('Date of travel' / 'For example 2026-11-27'):
    the format the field asks for, which its placeholder does not always carry."""
    label = norm(str(el.get("name") or ""))
    if not label:
        return ""
    lines = [ln.strip() for ln in str(observation.get("page_text") or "").split("\n") if ln.strip()]
    for k, line in enumerate(lines[:-1]):
        if norm(line) == label:
            after = lines[k + 1]
            return after if len(after) <= 60 else ""
    return ""
