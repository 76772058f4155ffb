"""Rendering: the model-facing lines of an observation (header, one line per element, the omission note).

Page text can never break out of its line or its quotes: every value is collapsed to one line and quoted.
"""

from __future__ import annotations

import functools
import re
from collections import Counter
from collections.abc import Iterable, Sequence
from typing import Any
from urllib.parse import urlsplit

from agent.dom.text import estimate_tokens, tokenize
from agent.types import Element

#: ``urlsplit`` remembered: the page's URL is split once per line otherwise, and the same links recur step
#: after step (a SplitResult is immutable, so sharing one is safe).
split_url = functools.lru_cache(maxsize=8192)(urlsplit)

_TEXT_ROLES = {"label": "label", "legend": "legend", "caption": "caption", "figcaption": "caption"}
_CHECKABLE = frozenset({"checkbox", "radio", "switch", "menuitemcheckbox", "menuitemradio"})


def clean_text(text: Any, limit: int) -> str:
    """``text`` on one line (whitespace collapsed), cut to ``limit`` characters with an ellipsis."""
    s = " ".join(str(text or "").split())
    return s if len(s) <= limit else s[: limit - 1].rstrip() + "…"


def quote(text: Any, limit: int = 100) -> str:
    """A one-line, double-quoted rendering; page text can never break out of its line or its quotes."""
    return '"' + clean_text(text, limit).replace('"', "'") + '"'


def link_target(href: str, page_url: str = "") -> str:
    """Compact link target: path (+query/fragment) on the same host, host+path elsewhere."""
    if not href:
        return ""
    try:
        target = split_url(href)
        page = split_url(page_url) if page_url else None
    except ValueError:
        return clean_text(href, 80)
    if target.scheme in ("javascript", "data", "blob"):
        return ""
    if target.scheme in ("mailto", "tel"):
        return clean_text(href, 80)
    tail = target.path or "/"
    if target.query:
        tail += "?" + target.query
    if page is not None and target.netloc == page.netloc and target.scheme in ("http", "https", "file", ""):
        if target.fragment and target.path == page.path and target.query == page.query:
            return clean_text("#" + target.fragment, 80)
        out = tail
    else:
        out = (target.netloc + tail) if target.netloc else tail
    if target.fragment and not out.startswith("#"):
        out += "#" + target.fragment
    return clean_text(out, 80)


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


#: A paragraph-like element's line shows this much of its text (the part the goal's words point to).
PROSE_CHARS = 300
#: The block (card, row, list item) shown under a goal match shows this much.
BLOCK_CHARS = 240

_SENTENCE_RX = re.compile(r"(?<=[.!?;:])\s+")


def excerpt(text: str, focus: Sequence[str], limit: int) -> str:
    """``text`` cut to ``limit`` characters, keeping the sentences the ``focus`` words point to.

    The answer to a question is often not a paragraph's first sentence. Sentences score by the focus words
    they hold, each weighted by how few sentences hold it (a word in every sentence tells none apart); the best
    are kept, shortest first among equals, in document order, joined by ``…``. Without focus words (or no
    match) the text is cut from its start like any other.
    """
    flat = " ".join(str(text or "").split())
    if len(flat) <= limit or not focus:
        return clean_text(flat, limit)
    sentences = _SENTENCE_RX.split(flat)
    found = [{w for w in focus if _mentions(sentence, w)} for sentence in sentences]
    spread = Counter(w for words in found for w in words)
    if not spread:
        return clean_text(flat, limit)
    chosen: list[int] = []
    covered: set[str] = set()
    room = limit - 1
    while True:
        gains = [
            (sum(1 / spread[w] for w in found[i] - covered), -len(sentences[i]), i)
            for i in range(len(sentences))
            if i not in chosen and len(sentences[i]) + 2 <= room
        ]
        best = max(gains, default=None)
        if best is None or best[0] <= 0:
            break
        chosen.append(best[2])
        covered |= found[best[2]]
        room -= len(sentences[best[2]]) + 2
    # room left: the other sentences that name a focus word again, the strongest first
    for _, _, i in sorted(
        ((sum(1 / spread[w] for w in found[i]), -len(sentences[i]), i) for i in range(len(sentences))),
        reverse=True,
    ):
        if found[i] and i not in chosen and len(sentences[i]) + 2 <= room:
            chosen.append(i)
            room -= len(sentences[i]) + 2
    if not chosen:  # the best sentence alone is longer than the limit: its start
        best_i = max(range(len(sentences)), key=lambda i: (sum(1 / spread[w] for w in found[i]), -i))
        return ("…" if best_i else "") + clean_text(sentences[best_i], limit - (1 if best_i else 0))
    chosen.sort()
    out = " … ".join(sentences[i] for i in chosen)
    return ("…" if chosen[0] else "") + out + ("" if chosen[-1] == len(sentences) - 1 else " …")


def _mentions(sentence: str, word: str) -> bool:
    """The sentence holds ``word`` or a word of its stem (open/opened, lamp/lamps)."""
    return any(t == word or (len(word) >= 4 and t.startswith(word[:-1])) for t in tokenize(sentence))


def element_line(element: Element, page_url: str = "", focus: Sequence[str] = ()) -> str:
    """One model-facing line: ``[12] button "Sign in" disabled`` (``*[12]`` when new).

    ``focus``: the goal's words; a paragraph-like element shows the part of its text they point to.
    """
    star = "*" if element.get("new") else ""
    parts = [f"{star}[{element.get('id')}] {display_role(element)}"]
    name = element.get("name") or ""
    text = element.get("text") or ""
    scroller = bool((element.get("attrs") or {}).get("scrollable")) and not name
    if element.get("prose") and text:
        parts.append(quote(excerpt(text, focus, PROSE_CHARS), PROSE_CHARS))
        name = ""  # a paragraph's name is its text
    elif name:
        parts.append(quote(name, 100))
    elif text and not scroller:
        parts.append(quote(text, 100))
    else:
        attrs = element.get("attrs") or {}
        if attrs.get("name"):
            parts.append(f"(name={clean_text(attrs['name'], 40)})")
        elif attrs.get("id"):
            parts.append(f"(id={clean_text(attrs['id'], 40)})")
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
        shown = [clean_text(o, 30).replace("|", "/") for o in options[:12]]
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


def _quoted_floor(text: Any, limit: int) -> tuple[int, int]:
    """The fewest estimated tokens and characters of ``quote(text, limit)``: two quotes and the words it shows,
    at least a token per word and per 9 of their characters, one space between two. Collapsing spaces keeps
    every word, and a cut keeps at least the words of the first ``limit - 1`` characters."""
    if not isinstance(text, str):
        return 0, 0
    words = (text if len(text) <= limit else text[: limit - 1]).split()
    letters = sum(map(len, words))
    return 2 + max(len(words), -(-letters // 9)), 2 + letters + max(0, len(words) - 1)


def line_floor(
    element: Element, page_url: str = "", focus: Sequence[str] = (), enough: int | None = None
) -> tuple[int, int]:
    """Lower bounds of the estimated tokens and the length of :func:`element_line`'s line, at a fraction of its
    cost: most elements of a long page are weighed once the budget is nearly spent, and most of those cannot
    fit whatever their line says, which this tells without rendering it (the line's first parts, joined by a
    space, and its link target add their tokens and characters).

    With ``enough``, the bounds come back as soon as the tokens reach it (still lower bounds, of the parts
    counted so far): the caller only asks whether the line could fit ``enough`` tokens, and on a long page the
    answer is nearly always known before the costly part, the link's target."""
    ident = element.get("id")
    role = display_role(element)
    head = f"{'*' if element.get('new') else ''}[{ident}] {role}"
    tokens = (1 if element.get("new") else 0) + (1 if role.strip() else 0)
    if isinstance(ident, int) and ident >= 0:
        tokens += 2 + -(-len(str(ident)) // 3)  # "[", "]" and a token per three digits
    name = element.get("name") or ""
    text = element.get("text") or ""
    if element.get("prose") and text:
        shown = (0, 0) if focus else _quoted_floor(text, PROSE_CHARS)  # focus: an excerpt, any length
    elif name:
        shown = _quoted_floor(name, 100)
    elif text and not ((element.get("attrs") or {}).get("scrollable")):
        shown = _quoted_floor(text, 100)
    else:
        shown = (0, 0)
    tokens, chars = tokens + shown[0], len(head) + (1 + shown[1] if shown[1] else 0)
    if enough is not None and tokens >= enough:
        return tokens, chars
    href = (element.get("attrs") or {}).get("href", "")
    if href and element.get("role") == "link":
        target = link_target(href, page_url)  # most lines of a long page are links, their target a good part
        if target:
            chars += 4 + len(target)
            # every piece the estimate counts is a token per 9 of its characters at most: a bound that often
            # settles the question before the estimate runs
            at_least = 2 + -(-(len(target) - target.count(" ")) // 9)
            if enough is not None and tokens + at_least >= enough:
                return tokens + at_least, chars
            tokens += 2 + estimate_tokens(target)
    return tokens, chars


def block_line(block_text: str, members: Sequence[Element], focus: Sequence[str] = ()) -> str:
    """``    in: "Product 12 Kitchen $19.99 Rated 4.5 of 5 Add to cart"``: the block around a goal match, or ""
    when the lines of its ``members`` already say every word of it."""
    said: set[str] = set()
    for member in members:
        said.update(
            tokenize(f"{member.get('name') or ''} {member.get('text') or ''} {member.get('value') or ''}")
        )
    if set(tokenize(block_text)) <= said:
        return ""
    return "    in: " + quote(excerpt(block_text, focus, BLOCK_CHARS), BLOCK_CHARS)


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
    lines = [f"URL: {clean_text(url, 300)}", f"Title: {clean_text(title, 150)}"]
    if tabs:
        shown = []
        for tab in list(tabs)[:12]:
            active = tab.get("active") or (active_tab_id and tab.get("id") == active_tab_id)
            label = clean_text(tab.get("title") or tab.get("url") or "", 50)
            shown.append(f"[{tab.get('id')}] {label}" + (" (active)" if active else ""))
        more = f" | +{len(tabs) - 12} more" if len(tabs) > 12 else ""
        lines.append("Tabs: " + " | ".join(shown) + more)
    lines.append(f"Page: {page_type} | {scroll_line(scroll)}")
    return lines


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


def _n(value: Any) -> str:
    return f"{int(value or 0):,}"


def counts_line(counts: dict[str, Any] | None, shown: int) -> str:
    """What the marking pass saw and left out, and why: ``Counts: 40,012 elements in the document, ...``.

    Empty when nothing was left out (every candidate marked and shown, nothing hidden): a small page needs no
    bookkeeping line.
    """
    c = counts or {}
    if not c:
        return ""
    marked = int(c.get("marked") or 0)
    over_cap = int(c.get("over_cap") or 0)
    info_over = int(c.get("info_over_cap") or 0)
    hidden = int(c.get("hidden") or 0)
    stop = c.get("stop") or None
    if shown >= marked and not (over_cap or info_over or hidden or stop or c.get("brief")):
        return ""
    parts = [f"{_n(c.get('document'))} elements in the document"]
    if hidden:
        parts.append(f"{_n(hidden)} hidden (never marked)")
    parts.append(f"{_n(c.get('candidates'))} candidates, {_n(marked)} marked, {_n(shown)} shown")
    line = "Counts: " + ", ".join(parts)
    if over_cap:
        line += (
            f"; marking stopped at y={_n(c.get('cap_y'))} px (element cap {_n(c.get('max_elements'))}): "
            f"{_n(over_cap)} candidates from there down not marked"
        )
    if info_over:
        line += (
            f"; {_n(info_over)} texts from y={_n(c.get('info_cap_y'))} px down not marked "
            f"(text cap {_n(c.get('max_info'))})"
        )
    if c.get("brief"):
        line += f"; {_n(c.get('brief'))} described briefly (out of time: no names from labels, no attributes)"
    if stop:
        reason = clean_text(stop.get("reason") or "limit", 60)
        line += f"; reading stopped at y={_n(stop.get('y'))} px ({reason}): the page below it was not read"
    return line
