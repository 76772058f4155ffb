"""A numbered record's address, read from the addresses of its siblings: when links showing '#1', '#2' (or
links on rows whose ID cell shows them) go to /ticket/1 and /ticket/2 (or /show?id=1, /orders/SO-1001/), record
#12 is at the same address with its number.

Nothing is guessed from a site's name or from known URL schemes: only a pattern that at least two links on this
page follow counts, and the page reached is still confirmed by its heading before anything is changed.
"""

from __future__ import annotations

import re
from collections import Counter
from urllib.parse import urlsplit, urlunsplit

from agent.planning.offline.page import attr, is_link, visible_text
from agent.types import Element, Observation

#: A link text that starts with a record's number: '#8', '8', 'No. 8', 'SO-1004', '#8: Battery drain ...'.
_NUMBERED_TEXT = re.compile(r"^\s*(?:#|no\.?\s*)?(?P<n>(?:[A-Z]{1,5}-)?\d+)\b(?:\s*[:.)\-–]|\s*$)", re.I)
_CELL_NUMBER = re.compile(r"^\s*(?:#|no\.?\s*)?(?P<n>(?:[A-Z]{1,5}-)?\d+)\s*$", re.I)
#: A query value that numbers pages of a listing, never a record ('?page=2').
_PAGING = re.compile(r"(?:^|&)(?:page|p|pg|offset|start|from|skip)=\x00", re.I)
_SLOT = "\x00"
#: Links that must follow one pattern before it is trusted.
MIN_SIBLINGS = 2


def _template(href: str, number: str) -> str:
    """``href`` with its one occurrence of ``number`` (a whole path segment or query value) made a slot."""
    parts = urlsplit(href)
    hole = re.compile(rf"(?<=[/=]){re.escape(number)}(?=$|[/&.#?])")
    found = [(where, m) for where in ("path", "query") for m in hole.finditer(getattr(parts, where))]
    if len(found) != 1:
        return ""
    where, m = found[0]
    text = getattr(parts, where)
    filled = text[: m.start()] + _SLOT + text[m.end() :]
    return urlunsplit(parts._replace(**{where: filled}, fragment=""))


def numbered_address(number: str, observation: Observation) -> str:
    """The address of record ``number`` by the pattern its siblings' links follow ('' when no pattern holds)."""
    if not number:
        return ""
    here = urlsplit(str(observation.get("url") or ""))
    templates: Counter[str] = Counter()
    elements = observation.get("elements") or []
    row_numbers = _row_numbers(elements)
    for el in elements:
        if not is_link(el):
            continue
        m = _NUMBERED_TEXT.match(visible_text(el))
        shown = m.group("n") if m else _row_number(el, row_numbers)
        href = attr(el, "href")
        if not shown or not href or urlsplit(href).netloc != here.netloc:
            continue
        template = _template(href, shown)
        if template and not _PAGING.search(urlsplit(template).query):
            templates[template] += 1
    if not templates:
        return ""
    template, count = templates.most_common(1)[0]
    return template.replace(_SLOT, number) if count >= MIN_SIBLINGS else ""


def _row_numbers(elements: list[Element]) -> list[tuple[float, float, str]]:
    """(top, bottom, number) of the text that is a number alone ('#7' in a table's ID column)."""
    out = []
    for el in elements:
        box = el.get("bbox") or []
        m = _CELL_NUMBER.match(visible_text(el))  # the cell is the number ('#7'), not a date ('2025-05-02')
        if not is_link(el) and m and len(box) == 4 and len(visible_text(el)) <= 12:
            out.append((float(box[1]), float(box[1]) + float(box[3]), m.group("n")))
    return out


def _row_number(link: Element, numbers: list[tuple[float, float, str]]) -> str:
    """The number shown on the link's own row ('#7' in the cell before the title link), when one alone is."""
    box = link.get("bbox") or []
    if len(box) != 4:
        return ""
    middle = float(box[1]) + float(box[3]) / 2
    found = {n for top, bottom, n in numbers if top - 2 <= middle <= bottom + 2}
    return found.pop() if len(found) == 1 else ""
