"""The page decides: which field a goal's value goes into, which control performs the operation, which link or
heading is the record the goal describes, and which button saves (never Preview or Cancel).

Fields are matched by every text that names them (label, aria-label, placeholder, name) and by their options;
lexical closeness (``text.similarity``) and semantic closeness (``semantic.blended``) count together.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from agent.planning.offline import page as kinds
from agent.planning.offline.dates import WIRE_FORMATS, days_said, field_value, same_day, wire_value
from agent.planning.offline.matching import same_time_option
from agent.planning.offline.page import labels, reading_order, role_of, visible_text
from agent.planning.offline.records.goal import CONTROL_WORDS, RecordGoal, kind_of
from agent.planning.offline.semantic import blended
from agent.planning.offline.text import norm, similarity, split_identifier, stem
from agent.types import Element, Observation

#: A control that saves what the form holds.
SAVE = re.compile(
    r"\b(?:save|submit|create|add|post|update|publish|commit|send|apply|ok|done|file|reply|"
    r"comment|confirm|yes|register)\b",
    re.I,
)
#: A control that does anything but save: never the one to press to finish.
NOT_SAVE = re.compile(
    r"\b(?:preview|cancel|delete|remove|reset|search|discard|back|diff|review\s+changes|show\s+changes|log\s*out|"
    r"sign\s*out|filter|clear|close\s+window|attach)\b",
    re.I,
)
#: What a title field is called on the page.
TITLE_WORDS = ("title", "summary", "subject", "name", "page name", "heading", "short description")
#: What a body or comment field is called.
TEXT_WORDS = ("description", "comment", "text", "body", "content", "message", "details", "note", "reply")
FIELD_MATCH = 0.62
OPTION_MATCH = 0.8
RESULTS = re.compile(
    r"\b(?:search\s+results?|results?\s+(?:for|of)|match(?:es|ing)\s+for|\d+\s+(?:results?|matches|hits))\b|"
    r"^\s*(?:search(?:ing)?\s*(?:for\b|:)|results\b)",
    re.I,
)
#: Field names that mean the same: the goal says 'assign to', the form says 'Owner'.
FIELD_SYNONYMS: tuple[tuple[str, ...], ...] = (
    ("assigned to", "owner", "assignee", "owned by", "assigned", "responsible"),
    ("reporter", "reported by", "reported", "author", "created by", "opened by", "submitted by", "requester"),
    ("status", "state", "action", "workflow"),
    ("priority", "importance", "urgency"),
    ("severity", "impact"),
    ("due date", "due", "deadline", "date"),
    ("title", "summary", "subject", "name", "heading"),
    ("description", "details", "body", "text", "content"),
    ("component", "area", "module", "category"),
    ("milestone", "release", "target version", "version"),
    ("tags", "keywords", "labels"),
    ("guests", "people", "places", "number of places", "number of people", "party size", "attendees"),
)
SEARCH_WORDS = re.compile(r"\bsearch|\bfind\b|\bquery\b|\bfilter\b", re.I)


@dataclass(frozen=True)
class Fill:
    """One field and what goes into it: ``how`` is type | append | select | check."""

    element: Element
    value: str
    how: str
    what: str  # the goal's words for it (a field name, or 'title', 'text')
    old: str = ""  # how == 'replace': the text the value takes the place of

    @property
    def label(self) -> str:
        return field_label(self.element)


def field_label(el: Element) -> str:
    """The text a plan step names the element by (the grounding reads the same labels)."""
    for text, _ in labels(el):
        if text.strip():
            return text.strip()
    return visible_text(el)


def _elements(observation: Observation) -> list[Element]:
    return [e for e in reading_order(observation.get("elements") or []) if not e.get("disabled")]


def is_search_field(el: Element) -> bool:
    names = " ".join(t for t, _ in labels(el))
    return (
        role_of(el) == "searchbox"
        or (el.get("input_type") or "") == "search"
        or bool(SEARCH_WORDS.search(names))
    )


def form_fields(observation: Observation) -> list[Element]:
    """The fields of record forms on the page (not the site's search box, not a password)."""
    return [
        e
        for e in _elements(observation)
        if (kinds.is_text_field(e) or kinds.is_select(e) or kinds.is_checkable(e))
        and not is_search_field(e)
        and (e.get("input_type") or "") not in ("password", "hidden")
        and (e.get("zone") or "main") in ("main", "dialog", "")
    ]


def best_match(phrase: str, candidates: list[Element], floor: float = FIELD_MATCH) -> Element | None:
    if not phrase or not candidates:
        return None
    names = [" / ".join(t for t, _ in labels(e)) or visible_text(e) for e in candidates]
    lexical = [max((similarity(phrase, t) * w for t, w in labels(e)), default=0.0) for e in candidates]
    scores = blended(phrase, names, lexical, weight=0.9)
    best = max(range(len(candidates)), key=lambda i: scores[i])
    return candidates[best] if scores[best] >= floor else None


def with_synonyms(words: str) -> list[str]:
    """The goal's field words first, then the names that mean the same."""
    if not words:
        return []
    group = next((g for g in FIELD_SYNONYMS if any(similarity(words, w) >= 0.9 for w in g)), ())
    return [words, *(w for w in group if w != words)]


def option_of(el: Element, value: str) -> str:
    """The option of a dropdown that ``value`` means ('' when none is close)."""
    options = [o for o in el.get("options") or [] if o.strip()]
    said = days_said(value)
    if len(said) == 1 and sum(bool(days_said(o)) for o in options) >= 2:
        options = [o for o in options if same_day(said[0], o)]  # a list of days: the day asked or none
    same_time = same_time_option(options, value)  # '10:20' for '10.20am'
    if same_time is not None:
        return same_time
    scored = sorted(((similarity(value, o), o) for o in options), reverse=True)
    if scored and scored[0][0] >= OPTION_MATCH:
        return scored[0][1]
    place = without_place_noun(value)
    return option_of(el, place) if place != value else ""  # ('the Moorside branch': 'Collect from Moorside')


def without_place_noun(value: str) -> str:
    """A place said with what kind of place it is ('the Moorside branch'), as lists and records name it."""
    kinds_of_place = r"branch|store|shop|office|depot|outlet|site"
    return re.sub(rf"^(?:the\s+)?(.+?)\s+(?:{kinds_of_place})$", r"\1", value, flags=re.I)


_ITEM_MARK = re.compile(r"^(?P<indent>\s*)(?:(?P<bullet>[-*•+])|(?P<n>\d+)(?P<dot>[.)]))\s+")


def like_last_item(current: str, line: str) -> str:
    """The line as the next item of the list the text ends with ('- Book a 1:1' -> '- Order a badge', '4. x'
    -> '5. ...'), so an added step stays a step of the list; unchanged when the text ends in no list."""
    last = next((ln for ln in reversed(current.splitlines()) if ln.strip()), "")
    mark = _ITEM_MARK.match(last)
    if not mark or _ITEM_MARK.match(line):
        return line
    if mark.group("bullet"):
        return f"{mark.group('indent')}{mark.group('bullet')} {line}"
    return f"{mark.group('indent')}{int(mark.group('n')) + 1}{mark.group('dot')} {line}"


def holds(fill: Fill) -> bool:
    """The field already shows what the fill puts there."""
    el = fill.element
    if fill.how == "check":
        return bool(el.get("checked"))
    current = norm(str(el.get("value") or ""))
    if fill.how == "replace":
        return norm(fill.old) not in current and norm(fill.value) in current
    if fill.how == "append":
        return current.endswith(norm(fill.value))
    kind = el.get("input_type") or ""
    if current and kind in WIRE_FORMATS:  # a date field shows '2027-03-11' for '11 March 2027'
        return norm(wire_value(fill.value, kind)) == current
    hint = (
        f"{el.get('placeholder') or ''} {el.get('name') or ''}"  # ... or '11/03/2027' when it says DD/MM/YYYY
    )
    iso = norm(wire_value(fill.value, "date"))  # ('2026-11-29' typed as a form's example showed it)
    return current in (norm(fill.value), norm(field_value(fill.value, kind, hint))) or (
        bool(re.fullmatch(r"\d{4} \d{2} \d{2}", current)) and current == iso
    )


def save_control(
    observation: Observation, after: list[Element], verbs: tuple[str, ...] = ()
) -> Element | None:
    """The button that saves the form holding ``after`` (the first save-like button below them); ``verbs``: the
    operation's own words, which also save ('Resolve issue' closes one)."""
    own = re.compile(r"\b(?:" + "|".join(re.escape(v) for v in verbs) + r")\b", re.I) if verbs else SAVE
    buttons = [
        e
        for e in _elements(observation)
        if kinds.is_button(e)
        and (e.get("tag") or "").lower() != "summary"
        and "aria-expanded" not in (e.get("attrs") or {})
        and (SAVE.search(visible_text(e) or field_label(e)) or own.search(visible_text(e) or field_label(e)))
        and not NOT_SAVE.search(visible_text(e) or field_label(e))
    ]
    if not buttons:
        return None
    bottom = max(((e.get("bbox") or [0, 0, 0, 0])[1] for e in after), default=0.0)
    below = [b for b in buttons if (b.get("bbox") or [0, 0, 0, 0])[1] >= bottom - 1]
    return (below or buttons)[0]


def op_control(goal: RecordGoal, observation: Observation, tried: set[str]) -> Element | None:
    """The link or button that starts the operation ('New Ticket', 'Edit this page', 'Add comment', 'Modify')."""
    words = CONTROL_WORDS.get(goal.op) or ()
    if not words:
        return None
    candidates = [
        e
        for e in _elements(observation)
        if (kinds.is_link(e) or kinds.is_button(e) or (e.get("tag") or "").lower() == "summary")
        and visible_text(e)
        and len(visible_text(e)) <= 40
        and field_label(e) not in tried
        and (not NOT_SAVE.search(visible_text(e)) or goal.op == "delete")
    ]
    noun = goal.noun or ""
    kind = kind_of(noun)
    scored = []
    for e in candidates:
        text = norm(visible_text(e) or field_label(e))
        verb = max((1.0 if re.search(rf"\b{norm(w)}\b", text) else 0.0) for w in words)
        named = kind_of(text)
        if not verb or (kind and named and named != kind):
            continue  # 'New Ticket' does not create a wiki page
        about = 1.0 if kind and named == kind else 0.0
        scored.append((verb + 0.5 * about - 0.01 * len(text.split()), e))
    scored.sort(key=lambda s: -s[0])
    return scored[0][1] if scored else None


def record_words(goal: RecordGoal) -> str:
    """The words that describe the record the goal means."""
    return goal.about or goal.search or (goal.title if goal.op != "create" else "")


def record_link(
    goal: RecordGoal, observation: Observation, tried: set[str], floor: float = 0.55
) -> Element | None:
    """The link that best matches the record's description (best first; a number matches '#12')."""
    links = [
        e
        for e in _elements(observation)
        if kinds.is_link(e) and visible_text(e) and field_label(e) not in tried
    ]
    if goal.number:
        numbered = [e for e in links if re.search(rf"(?:#|\b){goal.number}\b", visible_text(e))]
        if numbered:
            return numbered[0]
    words = record_words(goal)
    if not words:
        return None
    texts = [split_identifier(visible_text(e)) for e in links]  # 'OnCallRota' -> 'On Call Rota'
    scores = blended(words, texts, [similarity(words, t) for t in texts], weight=0.8)
    ranked = sorted(zip(scores, range(len(links)), strict=True), reverse=True)
    return links[ranked[0][1]] if ranked and ranked[0][0] >= floor else None


#: A link on the page after a save to what was just made: 'View this repair', 'See your booking'.
_MADE_NOW = re.compile(
    r"^(?:view|see|open|show)\s+(?:this|the\s+new|your\s+new|my\s+new)\s+(?P<n>[a-z-]{3,30})$", re.I
)


def made_now_link(goal: RecordGoal, observation: Observation) -> Element | None:
    """The one link in the page's own content to the record the save made, named by its kind ('View this repair'
    for a repair reported; never 'View this club' of a booking, nor 'See your bookings'): its own page shows
    what was kept, where a link named like the site's section ('Repairs') does not."""
    kind = {stem(w) for w in norm(goal.noun).split()}
    kind |= {stem(norm(goal.about).split()[-1])} if goal.verb == "report" and norm(goal.about) else set()
    links = [
        e for e in _elements(observation)
        if kinds.is_link(e) and (e.get("zone") or "main") == "main"
        and (m := _MADE_NOW.match(norm(visible_text(e)))) and stem(m.group("n")) in kind
    ]  # fmt: skip
    return links[0] if len(links) == 1 else None


def on_record(goal: RecordGoal, observation: Observation) -> bool:
    """The page's heading or title is the record the goal describes."""
    heads = [visible_text(e) for e in _elements(observation) if kinds.is_heading(e)] + [
        observation.get("title") or ""
    ]
    heads = [
        h for h in heads if not RESULTS.search(h)
    ]  # 'Search results for <the description>' is not the record
    if goal.number and any(re.search(rf"(?:#|\b){goal.number}\b", h) for h in heads):
        return True
    words = record_words(goal)
    if not words:
        return False
    scores = blended(words, heads, [similarity(words, h) for h in heads], weight=0.8)
    return max(scores, default=0.0) >= 0.6


def names_record(name: str, observation: Observation) -> bool:
    """The page's title or main heading carries ``name``."""
    heads = [observation.get("title") or ""] + [
        visible_text(e) for e in _elements(observation) if kinds.is_heading(e)
    ]
    return any(norm(name) in norm(h) for h in heads if h)


def search_box(observation: Observation) -> Element | None:
    return next((e for e in _elements(observation) if kinds.is_text_field(e) and is_search_field(e)), None)
