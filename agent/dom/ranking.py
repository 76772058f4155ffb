"""Goal-aware ranking: which marked elements a goal is about, and how much the model needs to see each one.

Plain functions on element dicts (no browser). Relevance is an IDF-weighted share of the goal's content words an
element matches (same word, same stem, or a compound containing it); a strong match lends some of its weight to
its document neighbours (the price and "Add to cart" of a matching product).
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Sequence

from agent.dom.text import goal_tokens, tokenize
from agent.types import Element


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

    Neighbours are the element before and the three after in document order, in the same zone and frame, and
    every element of the same block (card, row, list item).
    """
    if not rel:
        return rel
    top = max(rel.values())
    out = dict(rel)
    members: dict[str, list[Element]] = {}
    for element in elements:
        if element.get("block"):
            members.setdefault(element["block"], []).append(element)
    for i, element in enumerate(elements):
        score = rel.get(element["id"], 0.0)
        if score < 0.5 * top:
            continue
        near = [elements[j] for j in range(max(0, i - 1), min(len(elements), i + 4)) if j != i]
        near = [
            other
            for other in near
            if other.get("zone") == element.get("zone") and other.get("frame") == element.get("frame")
        ]
        for other in near + members.get(element.get("block") or "", []):
            if other is not element:
                out[other["id"]] = max(out.get(other["id"], 0.0), 0.8 * score)
    return out


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
