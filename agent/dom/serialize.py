"""Pure functions from marked elements to what the model reads.

Everything here works on plain dicts (no browser), so bounding, goal-aware ranking, hashing and the page-type
heuristic are unit-testable. :func:`build_observation` is the one entry point ``observe.py`` uses.

Text format (one line per element, grouped by zone, document order inside a zone)::

    URL: http://shop.test/list
    Title: Shoes
    Tabs: [t1] Shoes (active) | [t2] Cart
    Page: listing | Scroll: 0 px above, 31200 px below (0.0 pages above, 34.7 below)
    -- dialog --
    [41] button "Accept cookies"
    -- main --
    [3] h1 "Running shoes"
    *[12] link "Trail runner 2" -> /p/12
    [13] text "$49.99"
    [20] combobox "Size" value="M" options=[S|M|L]
    ... 230 more elements not shown (228 below the viewport, 2 above); scroll or name what you look for to see them

``*`` marks elements that were not in the previous observation of the same document.
"""

from __future__ import annotations

import hashlib
import math
import re
from collections import Counter
from collections.abc import Iterable, Sequence
from typing import Any
from urllib.parse import parse_qs, urlsplit

from agent.types import Element, Observation

ZONE_ORDER: tuple[str, ...] = ("dialog", "header", "nav", "main", "aside", "footer")

STOPWORDS = frozenset(
    """a an the to of in on for and or with from by at is are was be been me my i you your it its this that these
    those what which who whom how please then than page site website web find look looking go goto open click
    tell want would like can could should will about into up out some any all there their get show give let us
    we our do does did have has had so as if but not no yes via using use also just only one""".split()
)

_TOKEN_RX = re.compile(r"[^\W_]+", re.UNICODE)
_PRICE_RX = re.compile(
    r"(?:[$€£¥₹₽]\s?\d|\d(?:[\d.,\s]*\d)?\s?(?:€|\$|£|zł|kr|Kč|USD|EUR|GBP|PLN|CHF|JPY)(?![a-z]))", re.I
)
_ERROR_RX = re.compile(
    r"(?:\b(?:not found|page not found|server error|internal error|access denied|forbidden|bad gateway|"
    r"service unavailable|this site can.t be reached|err_[a-z_]+|something went wrong|page unavailable)\b|"
    r"^\W*(?:error\W*)?(?:4\d\d|5\d\d)\b|\b(?:4\d\d|5\d\d)\s*(?:error|[-:|–—]))",
    re.I,
)
_BUY_RX = re.compile(
    r"\b(?:add to (?:cart|basket|bag)|buy now|buy|purchase|order now|add to trolley)\b", re.I
)
_SEARCH_KEYS = frozenset(
    {"q", "query", "search", "s", "k", "keyword", "keywords", "search_query", "searchterm"}
)
_TEXT_ROLES = {"label": "label", "legend": "legend", "caption": "caption", "figcaption": "caption"}
_CHECKABLE = frozenset({"checkbox", "radio", "switch", "menuitemcheckbox", "menuitemradio"})

OMITTED_RESERVE = 160  # characters kept free for the omission note


# ------------------------------------------------------------------------------------------------------------
# Small helpers
# ------------------------------------------------------------------------------------------------------------


def _clean(text: Any, limit: int) -> str:
    s = " ".join(str(text or "").split())
    return s if len(s) <= limit else s[: limit - 1].rstrip() + "…"


def quote(text: Any, limit: int = 100) -> str:
    """A one-line, double-quoted rendering; page text can never break out of its line or its quotes."""
    return '"' + _clean(text, limit).replace('"', "'") + '"'


def tokenize(text: str) -> list[str]:
    """Lower-case word tokens (letters/digits of any script)."""
    return _TOKEN_RX.findall((text or "").lower())


def goal_tokens(goal: str) -> list[str]:
    """Content words of the goal, in order, without duplicates or stop words."""
    out: list[str] = []
    for tok in tokenize(goal):
        if tok in STOPWORDS or (len(tok) < 2 and not tok.isdigit()) or tok in out:
            continue
        out.append(tok)
    return out


def element_tokens(element: Element) -> set[str]:
    """Words an element can be recognised by: name, text, value, placeholder, useful attributes, options."""
    attrs = element.get("attrs") or {}
    parts = [
        element.get("name", ""),
        element.get("text", ""),
        element.get("value", ""),
        element.get("placeholder", ""),
        attrs.get("id", ""),
        attrs.get("name", ""),
        attrs.get("title", ""),
        attrs.get("alt", ""),
        attrs.get("aria-label", ""),
    ]
    href = attrs.get("href", "")
    if href:  # the path only: hosts and query strings are noise for matching
        path = href.split("#", 1)[0].split("?", 1)[0]
        if "://" in path:
            rest = path.split("://", 1)[1]
            path = rest[rest.find("/") :] if "/" in rest else ""
        parts.append(path)
    options = element.get("options") or []
    if options:
        parts.append(" ".join(options[:40]))
    return set(tokenize(" ".join(p for p in parts if p)))


def _token_similarity(goal_tok: str, tok: str) -> float:
    """1 for the same word, 0.7 for the same stem (shoe/shoes, login/logins), else 0."""
    if goal_tok == tok:
        return 1.0
    if goal_tok.isdigit() or tok.isdigit():
        return 0.0
    n = max(4, min(len(goal_tok), len(tok)) - 2)
    if (
        len(goal_tok) >= 4
        and len(tok) >= 4
        and abs(len(goal_tok) - len(tok)) <= 3
        and goal_tok[:n] == tok[:n]
    ):
        return 0.7
    if len(goal_tok) >= 5 and len(tok) >= 8 and goal_tok in tok:  # compounds: "kettle" in "teakettle"
        return 0.6
    return 0.0


def relevance(elements: Sequence[Element], goal: str) -> dict[int, float]:
    """Goal relevance of each element in [0, 1]: IDF-weighted share of goal words it matches.

    Words every element shares (e.g. "product" on a product list) weigh little, so the rare matching words
    decide. Matching runs once per distinct word of the page, not per element.
    """
    gts = goal_tokens(goal)
    if not gts or not elements:
        return {}
    tokens = {e["id"]: element_tokens(e) for e in elements}
    vocab: set[str] = set()
    for ts in tokens.values():
        vocab |= ts
    sim: dict[str, dict[str, float]] = {}
    for tok in vocab:
        row = {g: s for g in gts if (s := _token_similarity(g, tok)) > 0}
        if row:
            sim[tok] = row
    per_element: dict[int, dict[str, float]] = {}
    df: Counter[str] = Counter()
    for ident, ts in tokens.items():
        best: dict[str, float] = {}
        for tok in ts:
            row = sim.get(tok)
            if row:
                for g, s in row.items():
                    if s > best.get(g, 0.0):
                        best[g] = s
        if best:
            per_element[ident] = best
            df.update(best.keys())
    n = len(elements)
    weights = {g: math.log((n + 1) / (df[g] + 0.5)) + 0.25 for g in gts}
    total = sum(weights.values()) or 1.0
    return {
        ident: sum(weights[g] * s for g, s in best.items()) / total for ident, best in per_element.items()
    }


def spread_relevance(elements: Sequence[Element], rel: dict[int, float]) -> dict[int, float]:
    """Share a strong match with its document neighbours (the price and "Add to cart" of a matching product).

    Neighbours are the element before and the three after in document order, in the same zone and frame.
    """
    if not rel:
        return rel
    top = max(rel.values())
    out = dict(rel)
    for i, element in enumerate(elements):
        score = rel.get(element["id"], 0.0)
        if score < 0.5 * top:
            continue
        for j in range(max(0, i - 1), min(len(elements), i + 4)):
            other = elements[j]
            if (
                j == i
                or other.get("zone") != element.get("zone")
                or other.get("frame") != element.get("frame")
            ):
                continue
            out[other["id"]] = max(out.get(other["id"], 0.0), 0.8 * score)
    return out


def link_target(href: str, page_url: str = "") -> str:
    """Compact link target: path (+query/fragment) on the same host, host+path elsewhere."""
    if not href:
        return ""
    try:
        target = urlsplit(href)
        page = urlsplit(page_url) if page_url else None
    except ValueError:
        return _clean(href, 80)
    if target.scheme in ("javascript", "data", "blob"):
        return ""
    if target.scheme in ("mailto", "tel"):
        return _clean(href, 80)
    tail = target.path or "/"
    if target.query:
        tail += "?" + target.query
    if page is not None and target.netloc == page.netloc and target.scheme in ("http", "https", "file", ""):
        if target.fragment and target.path == page.path and target.query == page.query:
            return _clean("#" + target.fragment, 80)
        out = tail
    else:
        out = (target.netloc + tail) if target.netloc else tail
    if target.fragment and not out.startswith("#"):
        out += "#" + target.fragment
    return _clean(out, 80)


def display_role(element: Element) -> str:
    """What the line calls the element: h1..h6 for headings, the ARIA role, else the tag or "text"."""
    role = element.get("role") or ""
    tag = element.get("tag") or ""
    if role == "heading":
        return tag if re.fullmatch(r"h[1-6]", tag) else "heading"
    if role and role not in ("presentation", "none", "generic"):
        return role
    if tag in _TEXT_ROLES:
        return _TEXT_ROLES[tag]
    if element.get("interactive"):
        return tag or "element"
    return "text"


def _norm(text: str) -> str:
    return " ".join(tokenize(text))


def element_line(element: Element, page_url: str = "") -> str:
    """One model-facing line: ``[12] button "Sign in" disabled`` (``*[12]`` when new)."""
    star = "*" if element.get("new") else ""
    parts = [f"{star}[{element.get('id')}] {display_role(element)}"]
    name = element.get("name") or ""
    text = element.get("text") or ""
    scroller = bool((element.get("attrs") or {}).get("scrollable")) and not name
    if name:
        parts.append(quote(name, 100))
    elif text and not scroller:
        parts.append(quote(text, 100))
    else:
        attrs = element.get("attrs") or {}
        if attrs.get("name"):
            parts.append(f"(name={_clean(attrs['name'], 40)})")
        elif attrs.get("id"):
            parts.append(f"(id={_clean(attrs['id'], 40)})")
    if scroller and text:
        parts.append("text=" + quote(text, 80))
    if name and text:
        nn, nt = _norm(name), _norm(text)
        if nt and nt != nn and nt not in nn:
            parts.append("text=" + quote(text, 80))
    itype = element.get("input_type") or ""
    if itype and itype not in ("text", "checkbox", "radio", "submit", "button", "search"):
        parts.append(f"type={itype}")
    placeholder = element.get("placeholder") or ""
    if placeholder and placeholder != name:
        parts.append("placeholder=" + quote(placeholder, 60))
    value = element.get("value") or ""
    if value:
        parts.append("value=" + quote(value, 80))
    options = element.get("options") or []
    if options:
        shown = [_clean(o, 30).replace("|", "/") for o in options[:12]]
        more = f"|+{len(options) - 12} more" if len(options) > 12 else ""
        parts.append("options=[" + "|".join(shown) + more + "]")
    role = element.get("role") or ""
    checked = element.get("checked")
    if role in _CHECKABLE or (element.get("input_type") in ("checkbox", "radio")):
        parts.append("checked" if checked else "unchecked")
    elif checked:
        parts.append("pressed")
    if element.get("selected"):
        parts.append("selected")
    if element.get("disabled"):
        parts.append("disabled")
    elif (
        role in ("textbox", "searchbox", "combobox")
        and element.get("tag") in ("input", "textarea")
        and not element.get("editable")
    ):
        parts.append("readonly")
    if (element.get("attrs") or {}).get("scrollable"):
        parts.append("scrollable")
    href = (element.get("attrs") or {}).get("href", "")
    if href and role == "link":
        target = link_target(href, page_url)
        if target:
            parts.append("-> " + target)
    if element.get("occluded"):
        parts.append("(covered)")
    return " ".join(parts)


def scroll_line(scroll: dict[str, Any] | None) -> str:
    """``Scroll: 900 px above, 12000 px below (1.0 pages above, 13.3 below)``."""
    s = scroll or {}
    vh = float(s.get("viewport_height") or 0) or 1.0
    above = float(s.get("above_px") or 0)
    below = float(s.get("below_px") or 0)
    return f"Scroll: {above:.0f} px above, {below:.0f} px below ({above / vh:.1f} pages above, {below / vh:.1f} below)"


def header_lines(
    url: str,
    title: str,
    tabs: Sequence[dict[str, Any]],
    active_tab_id: str,
    page_type: str,
    scroll: dict[str, Any] | None,
) -> list[str]:
    """URL, title, tabs (when known), page type and scroll position."""
    lines = [f"URL: {_clean(url, 300)}", f"Title: {_clean(title, 150)}"]
    if tabs:
        shown = []
        for tab in list(tabs)[:12]:
            active = tab.get("active") or (active_tab_id and tab.get("id") == active_tab_id)
            label = _clean(tab.get("title") or tab.get("url") or "", 50)
            shown.append(f"[{tab.get('id')}] {label}" + (" (active)" if active else ""))
        more = f" | +{len(tabs) - 12} more" if len(tabs) > 12 else ""
        lines.append("Tabs: " + " | ".join(shown) + more)
    lines.append(f"Page: {page_type} | {scroll_line(scroll)}")
    return lines


# ------------------------------------------------------------------------------------------------------------
# Bounding
# ------------------------------------------------------------------------------------------------------------


def priority(element: Element, rel: float, viewport_height: float) -> float:
    """How much the model needs to see this element: dialogs, the viewport, goal matches, then nearness.

    ``rel`` is the goal relevance relative to the best-matching element of the page (0..1).
    """
    score = 0.0
    if element.get("zone") == "dialog":
        score += 200
    if element.get("in_viewport"):
        score += 40
        if element.get("occluded"):
            score -= 15
    else:
        bbox = element.get("bbox") or [0, 0, 0, 0]
        vh = viewport_height or 900.0
        y, h = float(bbox[1]), float(bbox[3])
        distance = y - vh if y >= vh else max(0.0, -(y + h)) * 1.5  # content below is read next
        score += max(0.0, 10.0 - 10.0 * distance / (4 * vh))
    score += 100 * rel * rel  # squared: a partial match on common words ("add", "cart") barely counts
    if element.get("interactive"):
        score += 3
    if element.get("role") == "heading":
        score += 5 if element.get("tag") == "h1" else 2
    if element.get("disabled"):
        score -= 1
    return score


def select_elements(
    elements: Sequence[Element],
    *,
    goal: str = "",
    max_elements: int = 120,
    char_budget: int = 12000,
    viewport_height: float = 900.0,
    page_url: str = "",
) -> tuple[list[Element], dict[int, str]]:
    """Pick the elements to show within ``max_elements`` and ``char_budget`` characters.

    Returns the kept elements in display order (zone order, then document order) and their rendered lines.
    """
    rel = spread_relevance(elements, relevance(elements, goal))
    top = max(rel.values(), default=0.0) or 1.0
    order = {id(e): i for i, e in enumerate(elements)}
    ranked = sorted(
        elements, key=lambda e: (-priority(e, rel.get(e["id"], 0.0) / top, viewport_height), order[id(e)])
    )
    kept: list[Element] = []
    lines: dict[int, str] = {}
    used = 0
    zones: set[str] = set()
    for element in ranked:
        if len(kept) >= max_elements:
            break
        line = element_line(element, page_url)
        zone = element.get("zone") or "main"
        cost = len(line) + 1 + (0 if zone in zones else len(zone) + 7)
        if used + cost > char_budget:
            continue
        used += cost
        zones.add(zone)
        kept.append(element)
        lines[element["id"]] = line
    zone_rank = {z: i for i, z in enumerate(ZONE_ORDER)}
    kept.sort(key=lambda e: (zone_rank.get(e.get("zone") or "main", len(ZONE_ORDER)), order[id(e)]))
    return kept, lines


def omitted_note(omitted: Iterable[Element], viewport_height: float, truncated: bool = False) -> str:
    """``... 230 more elements not shown (228 below the viewport, 2 above); scroll ...``."""
    items = list(omitted)
    if not items and not truncated:
        return ""
    vh = viewport_height or 900.0
    above = below = elsewhere = 0
    for element in items:
        bbox = element.get("bbox") or [0, 0, 0, 0]
        if element.get("in_viewport"):
            elsewhere += 1
        elif float(bbox[1]) + float(bbox[3]) <= 0:
            above += 1
        elif float(bbox[1]) >= vh:
            below += 1
        else:
            elsewhere += 1
    where = []
    if below:
        where.append(f"{below} below the viewport")
    if above:
        where.append(f"{above} above")
    if elsewhere:
        where.append(f"{elsewhere} in view or beside it")
    note = f"... {len(items)} more elements not shown"
    if where:
        note += " (" + ", ".join(where) + ")"
    note += "; scroll or name what you look for to see them"
    if truncated:
        note += " (page very large: marking stopped early)"
    return note


# ------------------------------------------------------------------------------------------------------------
# Fingerprints and page type
# ------------------------------------------------------------------------------------------------------------


def _digest(parts: Iterable[str]) -> str:
    h = hashlib.sha1(usedforsecurity=False)
    for part in parts:
        h.update(part.encode("utf-8", "replace"))
        h.update(b"\x1f")
    return h.hexdigest()[:16]


def mapping_hash(elements: Iterable[Element]) -> str:
    """Structure of the marked elements (tag/role/name/zone in document order); positions do not count."""
    return _digest(
        f"{e.get('tag', '')}|{e.get('role', '')}|{e.get('name', '')}|{e.get('zone', '')}" for e in elements
    )


def candidate_hash(kept: Iterable[Element]) -> str:
    """The kept candidates with their state (id, role, name, value, checked, disabled)."""
    return _digest(
        f"{e.get('id')}|{e.get('role', '')}|{e.get('name', '')}|{e.get('value', '')}|{e.get('checked')}|"
        f"{e.get('disabled')}"
        for e in kept
    )


def dom_hash(title: str, page_text: str, elements: Iterable[Element]) -> str:
    """Content fingerprint: title, visible text and form state."""
    state = (
        f"{e.get('id')}:{e.get('value', '')}:{e.get('checked')}:{e.get('selected')}:{e.get('disabled')}"
        for e in elements
    )
    return _digest([title or "", page_text or "", *state])


def classify_page(
    url: str, title: str, elements: Sequence[Element], stats: dict[str, Any] | None, page_text: str = ""
) -> str:
    """Heuristic page type: pdf, error, search, form, listing, detail, article or other."""
    st = stats or {}
    try:
        parts = urlsplit(url or "")
    except ValueError:
        parts = urlsplit("")
    path = parts.path.lower()
    if path.endswith(".pdf") or st.get("pdf") or "pdf" in str(st.get("content_type", "")).lower():
        return "pdf"
    if (url or "").startswith("chrome-error:"):
        return "error"
    h1 = " ".join(st.get("h1") or [])
    if _ERROR_RX.search(title or "") or (_ERROR_RX.search(h1) and len(elements) < 60):
        return "error"

    query_keys = {k.lower() for k in parse_qs(parts.query)}
    if (query_keys & _SEARCH_KEYS) and (
        "search" in path or "result" in path or len(path) <= 1 or "find" in path
    ):
        return "search"
    if re.search(r"/(?:search|results?)(?:/|$|\.)", path):
        return "search"

    interactive = [e for e in elements if e.get("interactive")]
    main = [e for e in elements if (e.get("zone") or "main") == "main"]
    main_links = [e for e in main if e.get("role") == "link"]
    editable = int(st.get("editable") or sum(1 for e in interactive if e.get("editable")))
    prices = sum(
        1
        for e in elements
        if not e.get("interactive") and _PRICE_RX.search(e.get("text") or e.get("name") or "")
    )
    buy = any(
        _BUY_RX.search(e.get("name") or "") for e in interactive if e.get("role") in ("button", "link", "")
    )

    main_interactive = [e for e in main if e.get("interactive")]
    if editable >= 3 and editable >= 0.3 * max(1, len(main_interactive)) and len(main_links) < 15:
        return "form"

    shapes: Counter[str] = Counter()
    for e in main_links:
        href = (e.get("attrs") or {}).get("href", "")
        try:
            p = urlsplit(href).path
        except ValueError:
            continue
        segments = [s for s in p.split("/") if s]
        if segments:
            shape = "/".join(re.sub(r"\d+", "#", s) for s in segments[:-1]) + "/*"
            shapes[shape] += 1
    repeated = max(shapes.values(), default=0)
    if buy and prices <= 5:
        return "detail"
    if prices >= 4 or repeated >= 8 or (int(st.get("list_items") or 0) >= 12 and len(main_links) >= 10):
        return "listing"
    if prices >= 1 and len(st.get("h1") or []) == 1:
        return "detail"
    long_paragraphs = int(st.get("long_paragraphs") or 0)
    if long_paragraphs >= 4 or (int(st.get("articles") or 0) >= 1 and long_paragraphs >= 2):
        return "article"
    if int(st.get("search_inputs") or 0) >= 1 and len(interactive) <= 20:
        return "search"
    if editable >= 2 and int(st.get("forms") or 0) >= 1 and len(interactive) <= 12:
        return "form"
    return "other"


# ------------------------------------------------------------------------------------------------------------
# The observation
# ------------------------------------------------------------------------------------------------------------


def build_observation(
    raw: dict[str, Any],
    *,
    goal: str = "",
    previous: Observation | None = None,
    options: Any = None,
    tabs: Sequence[dict[str, Any]] = (),
    active_tab_id: str = "",
) -> Observation:
    """Turn the marking pass's raw result into an Observation (text bounded, hashes, page type, new flags).

    ``options`` needs ``max_elements`` and ``max_chars`` (an ObserveOptions); ``raw`` is what
    :func:`agent.dom.observe.collect` returns.
    """
    max_elements = int(getattr(options, "max_elements", 120))
    max_chars = int(getattr(options, "max_chars", 12000))
    url = raw.get("url") or ""
    title = raw.get("title") or ""
    document_id = raw.get("document_id") or ""
    elements: list[Element] = [dict(e) for e in raw.get("elements") or []]  # type: ignore[misc]
    scroll = dict(raw.get("scroll") or {})
    for key in ("y", "height", "viewport_height", "above_px", "below_px"):
        scroll[key] = float(scroll.get(key) or 0.0)
    page_text = raw.get("page_text") or ""
    stats = raw.get("stats") or {}

    comparable = bool(previous and document_id and previous.get("document_id") == document_id)
    previous_ids = {e.get("id") for e in (previous or {}).get("elements") or []} if comparable else set()
    for element in elements:
        element["new"] = comparable and element.get("id") not in previous_ids

    page_type = classify_page(url, title, elements, stats, page_text)

    head = header_lines(url, title, tabs, active_tab_id, page_type, scroll)
    notes: list[str] = []
    if not raw.get("ok"):
        notes.append(f"(page could not be read: {_clean(raw.get('error') or 'unknown error', 200)})")
    unreached = [f for f in raw.get("frames") or [] if f.get("cross_origin") and not f.get("reached")]
    if unreached:
        hosts = ", ".join(sorted({urlsplit(f.get("url") or "").netloc or "?" for f in unreached})[:3])
        notes.append(f"({len(unreached)} cross-origin frame(s) could not be read: {hosts})")
    fixed_text = "\n".join(head + notes)
    budget = max(0, max_chars - len(fixed_text) - 1 - OMITTED_RESERVE)
    kept, lines = select_elements(
        elements,
        goal=goal,
        max_elements=max_elements,
        char_budget=budget,
        viewport_height=scroll["viewport_height"],
        page_url=url,
    )
    kept_ids = [e["id"] for e in kept]
    kept_set = set(kept_ids)
    rest = [e for e in elements if e["id"] not in kept_set]

    body: list[str] = []
    zone = None
    for element in kept:
        z = element.get("zone") or "main"
        if z != zone:
            body.append(f"-- {z} --")
            zone = z
        body.append(lines[element["id"]])
    if not elements and raw.get("ok"):
        body.append("(no interactive or informative elements visible)")
    note = omitted_note(rest, scroll["viewport_height"], bool(raw.get("truncated")))
    if note:
        body.append(note)
    text = "\n".join(head + notes + body)
    if len(text) > max_chars:  # only reachable with absurdly small limits: cut, never overflow
        text = text[: max_chars - 1] + "…"

    observation: Observation = {
        "url": url,
        "title": title,
        "tabs": [dict(t) for t in tabs],  # type: ignore[misc]
        "active_tab_id": active_tab_id,
        "scroll": scroll,  # type: ignore[typeddict-item]
        "elements": kept + rest,
        "kept_ids": kept_ids,
        "omitted": len(rest),
        "text": text,
        "chars": len(text),
        "page_text": page_text,
        "mapping_hash": mapping_hash(elements),
        "candidate_hash": candidate_hash(kept),
        "dom_hash": dom_hash(title, page_text, elements),
        "page_type": page_type,
        "frames": list(raw.get("frames") or []),
        "observe_ms": 0,
        "screenshot_path": None,
        "document_id": document_id,
    }
    return observation
