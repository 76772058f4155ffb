"""Reading a text edit on a record's body: 'replace "X" with "Y"', 'change "A" to "B"', '"recieve" is
misspelled: change it to "receive"', '"X" should read "Y"'; and the record it is made on ('On the CodingStyle
wiki page, ...', '... in the meeting notes').

Both texts must be quoted: only quoted words are copied as they are, and an edit keeps everything else the
record holds, so a guess at where a bare phrase ends would change the wrong words.
"""

from __future__ import annotations

import re
from functools import lru_cache

from agent.planning.offline.records.goal import RecordGoal
from agent.planning.offline.text import MASK, mask_quotes, unmask

I = re.IGNORECASE  # noqa: E741 - short alias keeps the patterns readable
_Q = MASK + r"\d+" + MASK
#: 'replace the word "X"': a field's name in that place ('change the priority "high" to ...') is no text edit.
_TEXT_WORD = r"(?:the\s+(?:words?|text|phrase|sentence|line|spelling|typo|misspelling)\s+)?"
_EDITS = tuple(
    re.compile(rx, I)
    for rx in (
        rf"\breplace\s+{_TEXT_WORD}(?P<o>{_Q})\s+(?:with|by)\s+(?P<n>{_Q})",
        rf"\b(?:change|correct|fix|turn|alter|update)\s+{_TEXT_WORD}(?P<o>{_Q})\s+(?:to|into)\s+(?:read\s+)?"
        rf"(?P<n>{_Q})",
        rf"(?P<o>{_Q})\s+(?:is|was|has\s+been)\s+(?:misspell?ed|misspelt|mistyped|spell?ed\s+wrong(?:ly)?|a\s+typo|"
        rf"wrong|incorrect|outdated|out\s+of\s+date)\b.{{0,40}}?\b(?:change|correct|fix|make|turn|replace)\s+"
        rf"(?:it|that|this|the\s+word)\s+(?:to|into|with|by)\s+(?:read\s+)?(?P<n>{_Q})",
        rf"(?P<o>{_Q})\s+should\s+(?:be|read|say)\s+(?P<n>{_Q})",
        rf"\bfix\s+(?:the\s+)?(?:typo|spelling|misspelling)\s+(?P<o>{_Q})\s*(?:->|→|to)\s*(?P<n>{_Q})",
    )
)
#: Where the edit is made, leading ('On the CodingStyle wiki page, ...') or trailing ('... in the meeting notes').
_LEADING = re.compile(r"^\s*(?:in|on|at|within)\s+(?:the\s+)?(?P<d>[^,:\x00]{2,60}?)\s*[,:]\s*", I)
_TRAILING = re.compile(r"\b(?:in|on|of|within)\s+(?:the\s+)?(?P<d>(?!\x00)[^,;:\x00]{2,60}?)\s*[.!]?\s*$", I)
_PAGE_WORDS = re.compile(r"\s+(?:wiki\s+)?(?:page|article|document|entry)$|^(?:wiki\s+)?page\s+", I)
_NOUNS = re.compile(r"\b(?P<n>wiki\s+page|page|article|document|entry|note|notes|ticket|issue|post)\b", I)


@lru_cache(maxsize=256)
def read_text_edit(goal: str) -> RecordGoal | None:
    """The goal as an edit of a record's text (op 'edit', ``replace`` = (old, new)), or None when it is not
    one with both texts quoted and the record named."""
    masked, spans = mask_quotes((goal or "").strip())
    found = next((m for rx in _EDITS if (m := rx.search(masked))), None)
    if found is None:
        return None
    old, new = unmask(found.group("o"), spans), unmask(found.group("n"), spans)
    if not old or old == new:
        return None
    before, after = masked[: found.start()], masked[found.end() :]
    where = _LEADING.match(before) or _LEADING.match(masked)
    place = where.group("d") if where else ""
    if not place:
        trailing = _TRAILING.search(after)
        place = trailing.group("d") if trailing else ""
    about = _PAGE_WORDS.sub("", place.strip()).strip()
    if not about:
        return None
    noun = _NOUNS.search(place)
    return RecordGoal(
        op="edit",
        noun=(noun.group("n").lower() if noun else "page"),
        about=unmask(about, spans),
        replace=(old, new),
        wording=re.sub(r"\x00\d+\x00", " ", masked),
        spans=spans,
    )
