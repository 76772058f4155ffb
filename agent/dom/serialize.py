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

The work is split by job: :mod:`agent.dom.ranking` (goal relevance, priority), :mod:`agent.dom.render` (the
lines), :mod:`agent.dom.page_facts` (page type, hashes); this module bounds the list and assembles the
Observation. Their public names stay importable from here.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any
from urllib.parse import urlsplit

from agent.dom.page_facts import candidate_hash, classify_page, dom_hash, mapping_hash
from agent.dom.ranking import element_tokens, priority, relevance, spread_relevance
from agent.dom.render import (
    block_line,
    clean_text,
    counts_line,
    display_role,
    element_line,
    header_lines,
    line_floor,
    link_target,
    omitted_note,
    quote,
    scroll_line,
)
from agent.dom.text import GOAL_STOPWORDS as STOPWORDS
from agent.dom.text import estimate_tokens, goal_tokens, tokenize
from agent.types import Element, Observation

__all__ = [
    "OMITTED_RESERVE",
    "STOPWORDS",
    "ZONE_ORDER",
    "build_observation",
    "candidate_hash",
    "classify_page",
    "display_role",
    "dom_hash",
    "element_line",
    "element_tokens",
    "goal_tokens",
    "header_lines",
    "link_target",
    "mapping_hash",
    "omitted_note",
    "priority",
    "quote",
    "relevance",
    "scroll_line",
    "select_elements",
    "spread_relevance",
    "tokenize",
]

ZONE_ORDER: tuple[str, ...] = ("dialog", "header", "nav", "main", "aside", "footer")

OMITTED_RESERVE = 420  # characters kept free for the omission note and the counts line
OMITTED_RESERVE_TOKENS = 110  # the same, in estimated tokens
#: Goal matches that bring their block (card, row, list item) along: the few best, not every card that
#: shares a common word with the goal.
MAX_BLOCK_LINES = 8
#: The fewest estimated tokens of any element line: ``[``, the id, ``]`` and the role.
MIN_LINE_TOKENS = 4


def select_elements(
    elements: Sequence[Element],
    *,
    goal: str = "",
    max_elements: int = 120,
    char_budget: int = 12000,
    viewport_height: float = 900.0,
    page_url: str = "",
    blocks: dict[str, str] | None = None,
    token_budget: int | None = None,
) -> tuple[list[Element], dict[int, str]]:
    """Pick the elements to show within ``max_elements`` and ``char_budget`` characters.

    Returns the kept elements in display order (zone order, then document order) and their rendered lines.
    ``token_budget`` bounds the lines' estimated tokens as ``char_budget`` bounds their characters. An
    element kept because it matches the goal brings the text of its block (card, row, list item) on a second
    line when the block says more than the lines shown for it, so a name never comes without its price.
    """
    direct = relevance(elements, goal)
    rel = spread_relevance(elements, direct)
    top = max(rel.values(), default=0.0) or 1.0
    focus = goal_tokens(goal)
    strong = 0.5 * max(direct.values(), default=0.0)
    blocks = blocks or {}
    order = {id(e): i for i, e in enumerate(elements)}
    ranked = sorted(
        elements, key=lambda e: (-priority(e, rel.get(e["id"], 0.0) / top, viewport_height), order[id(e)])
    )
    kept: list[Element] = []
    lines: dict[int, str] = {}
    used = 0
    tokens_left = token_budget if token_budget is not None else 1 << 30
    zones: set[str] = set()
    shown_blocks: set[str] = set()
    tight = False
    for element in ranked:
        if len(kept) >= max_elements or tokens_left < MIN_LINE_TOKENS:
            break  # no further line can fit
        # Once a line did not fit, most of the rest will not either: told without rendering them, when lower
        # bounds of their tokens or length are already too many.
        if tight:
            floor_tokens, floor_chars = line_floor(element, page_url, focus, enough=tokens_left)
            if floor_tokens >= tokens_left or used + floor_chars + 1 > char_budget:
                continue
        line = element_line(element, page_url, focus)
        # A token covers at most 9 characters that are not spaces: a line that long cannot fit what is left,
        # known without estimating its tokens (most lines once the budget is nearly spent).
        if (len(line) - line.count(" ")) // 9 >= tokens_left:
            tight = True
            continue
        block = element.get("block") or ""
        context = ""
        if (
            block in blocks
            and block not in shown_blocks
            and len(shown_blocks) < MAX_BLOCK_LINES
            and direct.get(element["id"], 0.0) >= strong > 0
        ):
            context = block_line(blocks[block], [element], focus)
        zone = element.get("zone") or "main"
        cost = len(line) + 1 + (0 if zone in zones else len(zone) + 7)
        tokens = estimate_tokens(line) + 1 + (0 if zone in zones else 4)
        if context:
            extra = estimate_tokens(context) + 1
            if used + cost + len(context) + 1 <= char_budget and tokens + extra <= tokens_left:
                line += "\n" + context
                cost += len(context) + 1
                tokens += extra
                shown_blocks.add(block)
        if used + cost > char_budget or tokens > tokens_left:
            tight = True
            continue
        used += cost
        tokens_left -= tokens
        zones.add(zone)
        kept.append(element)
        lines[element["id"]] = line
    zone_rank = {z: i for i, z in enumerate(ZONE_ORDER)}
    kept.sort(key=lambda e: (zone_rank.get(e.get("zone") or "main", len(ZONE_ORDER)), order[id(e)]))
    return kept, lines


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
    counts = dict(raw.get("counts") or {})

    comparable = bool(previous and document_id and previous.get("document_id") == document_id)
    previous_ids = {e.get("id") for e in (previous or {}).get("elements") or []} if comparable else set()
    for element in elements:
        element["new"] = comparable and element.get("id") not in previous_ids

    page_type = classify_page(url, title, elements, stats, page_text)

    head = header_lines(url, title, tabs, active_tab_id, page_type, scroll)
    notes: list[str] = []
    if not raw.get("ok"):
        notes.append(f"(page could not be read: {clean_text(raw.get('error') or 'unknown error', 200)})")
    unreached = [f for f in raw.get("frames") or [] if f.get("cross_origin") and not f.get("reached")]
    if unreached:
        hosts = ", ".join(sorted({urlsplit(f.get("url") or "").netloc or "?" for f in unreached})[:3])
        notes.append(f"({len(unreached)} cross-origin frame(s) could not be read: {hosts})")
    fixed_text = "\n".join(head + notes)
    budget = max(0, max_chars - len(fixed_text) - 1 - OMITTED_RESERVE)
    max_tokens = int(getattr(options, "max_tokens", 0) or 0)
    token_budget = (
        max(0, max_tokens - estimate_tokens(fixed_text) - OMITTED_RESERVE_TOKENS) if max_tokens else None
    )
    kept, lines = select_elements(
        elements,
        goal=goal,
        max_elements=max_elements,
        char_budget=budget,
        viewport_height=scroll["viewport_height"],
        page_url=url,
        blocks=raw.get("blocks") or {},
        token_budget=token_budget,
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
    tally = counts_line(counts, len(kept))
    if tally:
        body.append(tally)
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
        "counts": counts,
    }
    return observation
