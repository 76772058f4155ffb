"""A numbered record's address, read from the addresses of its siblings: when links showing '#1', '#2' go to
/ticket/1 and /ticket/2 (or /show?id=1, /orders/SO-1001/), record #12 is at the same address with its number.

Nothing is guessed from a site's name or from known URL schemes: only a pattern that at least two links on this
page follow counts, and the page reached is still confirmed by its heading before anything is changed.
"""

from __future__ import annotations

import re
from collections import Counter
from urllib.parse import urlsplit, urlunsplit

from agent.planning.offline.page import attr, is_link, visible_text
from agent.types import Observation

#: A link text that starts with a record's number: '#8', '8', 'No. 8', 'SO-1004', '#8: Battery drain ...'.
_NUMBERED_TEXT = re.compile(r"^\s*(?:#|no\.?\s*)?(?P<n>(?:[A-Z]{1,5}-)?\d+)\b(?:\s*[:.)\-–]|\s*$)", re.I)
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
    for el in observation.get("elements") or []:
        if not is_link(el):
            continue
        m = _NUMBERED_TEXT.match(visible_text(el))
        href = attr(el, "href")
        if not m or not href or urlsplit(href).netloc != here.netloc:
            continue
        template = _template(href, m.group("n"))
        if template:
            templates[template] += 1
    if not templates:
        return ""
    template, count = templates.most_common(1)[0]
    return template.replace(_SLOT, number) if count >= MIN_SIBLINGS else ""
