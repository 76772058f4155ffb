"""Reading long pages by section: the page's headings, definition terms and disclosure summaries cut its text
into sections; the one whose heading matches a question's subject is where the answer is read.

A reference page answers "the default of result_ttl" in one definition among dozens that all say "Default:";
reading only the matching section is what keeps the answer from coming out of the wrong one. Sections are
built from the whole observed page text (not only the elements kept for a model), so a heading far below the
fold is found without scrolling.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from rapidfuzz import fuzz

from agent.planning.offline.page import is_heading, reading_order, rect, visible_text
from agent.planning.offline.semantic import blended
from agent.planning.offline.text import norm, token_match, tokens
from agent.planning.offline.values import page_lines
from agent.types import Element, Observation

#: Level of a definition term or a disclosure summary: below every heading, so h2 > h3 > ... > dt.
TERM_LEVEL = 7
EXACT_NAME = re.compile(r"^\s*\S*(?:\d|[_.]\w)\S*\s*$")
_CHROME = frozenset({"header", "nav", "footer"})


@dataclass(frozen=True)
class Section:
    """A heading and the page-text lines it governs (its own line first)."""

    heading: str
    level: int
    anchor: str  # the heading's id, for a URL fragment ("" when it has none)
    lines: tuple[str, ...]
    top: float  # page-y range of the section, for picking the elements inside it
    bottom: float
    element_id: int | None
    start: int = 0  # the index of its heading among the page-text lines

    @property
    def body(self) -> tuple[str, ...]:
        return self.lines[1:]


def _level(el: Element) -> int:
    tag = (el.get("tag") or "").lower()
    if re.fullmatch(r"h[1-6]", tag):
        return int(tag[1])
    if tag in ("dt", "summary") or (el.get("role") or "") == "term":
        return TERM_LEVEL
    level = (el.get("attrs") or {}).get("aria-level") or ""
    return int(level) if level.isdigit() else 2


def _is_section_head(el: Element) -> bool:
    if (el.get("zone") or "main") in _CHROME or not visible_text(el):
        return False
    tag = (el.get("tag") or "").lower()
    return is_heading(el) or tag in ("dt", "summary") or (el.get("role") or "") == "term"


def page_sections(observation: Observation) -> list[Section]:
    """The page's sections in reading order (empty when it has no headings)."""
    lines = page_lines(observation)
    heads: list[tuple[int, Element]] = []
    cursor = 0
    seen_text: set[int] = set()
    for el in reading_order(observation.get("elements") or []):
        if not _is_section_head(el):
            continue
        text = norm(visible_text(el))
        if not text:
            continue
        # Reading order may put a side block's heading (an aside floated beside the content) before headings
        # whose lines come earlier in the page's text: a heading not found after the last one is looked for
        # from the top, among the lines no heading took yet.
        found = None
        for first in (cursor, 0):
            found = next(
                (i for i in range(first, len(lines)) if norm(lines[i]) == text and i not in seen_text), None
            )
            if found is None:
                found = next(
                    (
                        i
                        for i in range(first, len(lines))
                        if norm(lines[i]).startswith(text) and i not in seen_text
                    ),
                    None,
                )
            if found is not None:
                break
        if found is None:
            continue  # a heading wrapping a button (one line for both), or text the page-text bound cut off
        seen_text.add(found)
        heads.append((found, el))
        cursor = max(cursor, found + 1)
    heads.sort(key=lambda head: head[0])
    footer = _footer_lines(observation)
    sections: list[Section] = []
    for k, (start, el) in enumerate(heads):
        level = _level(el)
        end, bottom = len(lines), float("inf")
        for nxt_start, nxt in heads[k + 1 :]:
            if _level(nxt) <= level:
                end = nxt_start
                box = rect(nxt)
                bottom = box[1] if box else bottom
                break
        # the last section of the content ends where the page's footer begins ('© 2026 ...' is not its text)
        end = next((i for i in range(start + 1, end) if norm(lines[i]) in footer), end)
        box = rect(el)
        sections.append(
            Section(
                heading=visible_text(el),
                level=level,
                anchor=(el.get("attrs") or {}).get("id", ""),
                lines=tuple(lines[start:end]),
                top=box[1] if box else 0.0,
                bottom=bottom,
                element_id=el.get("id"),
                start=start,
            )
        )
    return sections


def _footer_lines(observation: Observation) -> frozenset[str]:
    """The texts of the page's footer, as page lines read them."""
    return frozenset(
        norm(visible_text(el))
        for el in observation.get("elements") or []
        if el.get("zone") == "footer" and len(norm(visible_text(el))) > 3
    )


def heading_score(subject: str, heading: str) -> float:
    """How well a heading names the subject, 0..1: the subject's words found in the heading, and a fuzzy
    token-set ratio for spellings that differ ('time zone' / 'Time zones', 'result ttl' / 'result_ttl')."""
    s_toks, h_toks = tokens(subject), tokens(heading)
    if not s_toks or not h_toks:
        return 0.0
    recall = sum(max(token_match(s, h) for h in h_toks) for s in s_toks) / len(s_toks)
    precision = sum(1 for h in h_toks if any(token_match(s, h) >= 0.7 for s in s_toks)) / len(h_toks)
    fuzzy = fuzz.token_set_ratio(norm(subject), norm(heading)) / 100
    score = round(0.55 * recall + 0.2 * precision + 0.25 * fuzzy, 4)
    if EXACT_NAME.search(subject):  # '1.2.0', 'result_ttl': written exactly, or it is another one
        found = re.search(
            r"(?<![\w.])" + re.escape(subject.strip().lower()) + r"(?![\w]|\.\w)", heading.lower()
        )
        return 1.0 if found else min(score, 0.5)
    return score


#: A heading that means the subject in other words scores at most this: it can answer a question that names
#: its section, never outrank a heading that names the subject.
SEMANTIC_HEADING = 0.75


def best_section(sections: list[Section], subjects: list[str]) -> tuple[Section, float] | None:
    """The section whose heading best names one of the subjects (tried in order of preference)."""
    best: tuple[Section, float] | None = None
    headings = [section.heading for section in sections]
    for rank, subject in enumerate(s for s in subjects if s):
        lexical = [heading_score(subject, heading) for heading in headings]
        for section, score in zip(
            sections, blended(subject, headings, lexical, SEMANTIC_HEADING), strict=True
        ):
            score -= 0.02 * rank
            if best is None or score > best[1] + 1e-9:
                best = (section, score)
    return best


def inside(section: Section, observation: Observation) -> Observation:
    """The observation narrowed to one section: its text lines and the elements that sit inside it."""
    elements = []
    for el in observation.get("elements") or []:
        box = rect(el)
        if (
            box is not None
            and section.top - 1 <= box[1] < section.bottom
            and (el.get("zone") or "main") not in _CHROME
        ):
            elements.append(el)
    narrowed: Observation = dict(observation)  # type: ignore[assignment]
    narrowed["elements"] = elements
    narrowed["page_text"] = "\n".join(section.lines)
    return narrowed


def section_of_line(sections: list[Section], line: str) -> Section | None:
    """The innermost section holding a line of page text (for recording where an answer came from)."""
    target = norm(line)
    holders = [s for s in sections if any(norm(x) == target for x in s.lines)]
    return max(holders, key=lambda s: s.level) if holders else None


def source_url(url: str, section: Section | None) -> str:
    """The page URL pointing at the section when it has an anchor."""
    base = (url or "").split("#", 1)[0]
    return f"{base}#{section.anchor}" if section is not None and section.anchor else base


def headings_by_line(observation: Observation, count: int) -> list[str]:
    """For each page-text line, the headings of the sections it sits in ('Recycling centre Saturday' for the
    line under the term 'Saturday' in the section 'Recycling centre')."""
    heads = [""] * count
    for section in page_sections(observation):
        for i in range(section.start + 1, min(count, section.start + len(section.lines))):
            heads[i] = f"{heads[i]} {section.heading}".strip()
    return heads
