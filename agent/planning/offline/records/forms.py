"""The page decides: which field a goal's value goes into, which control performs the operation, which link or
heading is the record the goal describes, and which button saves (never Preview or Cancel).

Fields are matched by every text that names them (label, aria-label, placeholder, name) and by their options;
lexical closeness (``text.similarity``) and semantic closeness (``semantic.blended``) count together.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from agent.planning.offline import page as kinds
from agent.planning.offline.dates import value_kind
from agent.planning.offline.page import labels, reading_order, role_of, visible_text
from agent.planning.offline.records.goal import CONTROL_WORDS, STATUS_WORDS, RecordGoal, kind_of
from agent.planning.offline.semantic import blended
from agent.planning.offline.text import norm, similarity, split_identifier, unmask
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
    scored = sorted(((similarity(value, o), o) for o in options), reverse=True)
    return scored[0][1] if scored and scored[0][0] >= OPTION_MATCH else ""


def _radio_for(value: str, fields: list[Element]) -> Element | None:
    boxes = [e for e in fields if kinds.is_checkable(e)]
    return best_match(value, boxes, OPTION_MATCH)


def _value_fill(words: str, value: str, fields: list[Element]) -> Fill | None:
    """The field named ``words`` (a text field, a dropdown or a radio group) set to ``value``."""
    named = None
    for phrase in with_synonyms(words):
        named = best_match(phrase, [e for e in fields if not kinds.is_checkable(e)])
        if named is not None:
            break
    if named is not None and kinds.is_select(named) and not kinds.is_text_field(named):
        option = option_of(named, value)
        if option:
            return Fill(named, option, "select", words)
    elif named is not None and kinds.is_text_field(named):
        return Fill(named, value, "type", words)
    if named is None and value_kind(value) == "date":  # 'the date': the one field that holds a date
        dated = [e for e in fields if kinds.is_text_field(e) and _holds_date(e)]
        if len(dated) == 1:
            return Fill(dated[0], value, "type", words)
    for el in fields:  # a dropdown anywhere that offers the value ('close as fixed': a resolution list)
        if kinds.is_select(el) and not kinds.is_text_field(el):
            option = option_of(el, value)
            if option:
                return Fill(el, option, "select", words or value)
    radio = _radio_for(value, fields)
    return Fill(radio, value, "check", words or value) if radio is not None else None


def _holds_date(el: Element) -> bool:
    return (el.get("input_type") or "") in ("date", "datetime-local") or value_kind(
        str(el.get("value") or "")
    ) == "date"


_STOP = frozenset("the a an and or to of on in for with as is at by it its this that my our new".split())


_LATER = re.compile(r"\b(?:to|end|last|until|till|return|departure|check[\s-]?out)\b", re.I)


def _span_fills(goal: RecordGoal, fields: list[Element], taken: set[int]) -> tuple[list[Fill], set[int]]:
    """A first and a last day into the form's two date fields: the one its label calls the end ('To', 'Last
    day', 'End date') gets the last, else the page's order decides."""
    dated = [
        e for e in fields if kinds.is_text_field(e) and _holds_date(e) and int(e.get("id") or -1) not in taken
    ]
    if len(dated) < 2:
        return [], set()
    pair = dated[:2]
    if _LATER.search(field_label(pair[0])) and not _LATER.search(field_label(pair[1])):
        pair.reverse()
    fills = [Fill(el, day, "type", field_label(el)) for el, day in zip(pair, goal.span, strict=True)]
    return fills, {int(e.get("id") or -1) for e in pair}


def _labelled_fills(goal: RecordGoal, fields: list[Element], taken: set[int]) -> list[Fill]:
    """Fields whose label the goal says right before a value ('city Porto', 'placed on 2026-11-20'): the page's
    own field names read in the goal's words."""
    fills = []
    for el in fields:
        if int(el.get("id") or -1) in taken or kinds.is_checkable(el):
            continue
        label = norm(field_label(el)).strip(" :*")
        if len(label) < 3 or label in _STOP:
            continue
        words = r"\s+".join(re.escape(w) for w in label.split())
        m = re.search(
            rf"\b{words}\s*(?:is\s+|of\s+|=\s*|:\s*|to\s+|as\s+)?\s(?P<v>\x00\d+\x00|(?!(?:{'|'.join(_STOP)})\b)"
            r"[\w.@/+-]+(?:\s+(?-i:[A-Z])[\w.-]*)*)",
            goal.said,
            re.I,
        )
        if m is None:
            continue
        value = unmask(m.group("v").strip(" .,;:"), goal.spans).strip()
        if not value or value in goal.values:
            continue
        if kinds.is_select(el) and not kinds.is_text_field(el):
            option = option_of(el, value)
            if option:
                fills.append(Fill(el, option, "select", label))
        else:
            fills.append(Fill(el, value, "type", label))
    return fills


_IDENTIFIER = re.compile(r"\b(?:number|no|id|code|reference|ref|key)\b", re.I)


def _number_field(goal: RecordGoal, lines: list[Element]) -> Element | None:
    """The field a new record's own number goes into ('create order SO-1013': 'Order number')."""
    named = [e for e in lines if _IDENTIFIER.search(field_label(e)) and not str(e.get("value") or "").strip()]
    return named[0] if len(named) == 1 else None


def _row(el: Element) -> tuple[float, float]:
    box = el.get("bbox") or [0.0, 0.0, 0.0, 0.0]
    return float(box[0]), float(box[1]) + float(box[3]) / 2


def radio_of(el: Element, fields: list[Element]) -> Element | None:
    """The radio button on the same line, left of a field: the field counts only when that radio is chosen
    ('resolve as [fixed]', 'reassign to [____]')."""
    x, y = _row(el)
    beside = [r for r in fields if kinds.is_checkable(r) and abs(_row(r)[1] - y) <= 12 and _row(r)[0] < x]
    return max(beside, key=lambda r: _row(r)[0]) if beside else None


def _goal_options(goal: RecordGoal, fields: list[Element], taken: set[int]) -> list[Fill]:
    """Dropdown options the goal names in passing ('an enhancement for the editor component'): the page decides."""
    words = f" {norm(goal.wording)} "
    fills = []
    for el in fields:
        if not kinds.is_select(el) or kinds.is_text_field(el) or int(el.get("id") or -1) in taken:
            continue
        current = norm(str(el.get("value") or ""))
        named = [o for o in el.get("options") or [] if len(norm(o)) >= 2 and f" {norm(o)} " in words]
        named = [o for o in named if norm(o) != current]
        if len(named) == 1:
            fills.append(Fill(el, named[0], "select", field_label(el)))
    return fills


def plan_fills(goal: RecordGoal, observation: Observation) -> tuple[list[Fill], list[str]]:
    """What to put where on this page, and the goal's values no field here takes."""
    fields = form_fields(observation)
    texts = [e for e in fields if kinds.is_text_field(e)]
    areas = [e for e in texts if (e.get("tag") or "").lower() == "textarea"]
    lines = [e for e in texts if e not in areas]
    fills: list[Fill] = []
    missing: list[str] = []
    if goal.title and goal.op == "create":
        el = next((e for w in TITLE_WORDS if (e := best_match(w, lines)) is not None), None)
        if el is None and len(lines) == 1 and not names_record(goal.title, observation):
            el = lines[0]  # the one line of a form for creating: its name
        if el is not None:
            fills.append(Fill(el, goal.title, "type", "title"))
        elif not names_record(goal.title, observation):  # a page created at its name already carries it
            missing.append(goal.title)
    if goal.replace:
        old, new = goal.replace
        holding = [e for e in areas if norm(old) in norm(str(e.get("value") or ""))]
        area = holding[0] if holding else (areas[0] if len(areas) == 1 else best_match("text", areas, 0.5))
        fills.append(Fill(area, new, "replace", "text", old)) if area is not None else missing.append(new)
    if goal.text:
        wanted = "comment" if goal.op == "comment" else "text"
        area = (
            best_match(wanted, areas, 0.5)
            or (areas[0] if len(areas) == 1 else None)
            or (areas[0] if areas else None)
        )
        kept = area is not None and goal.op == "comment" and str(area.get("value") or "").strip()
        how = "append" if goal.op == "append" or kept else "type"  # adding a note never drops what is there
        text = (
            like_last_item(str(area.get("value") or ""), goal.text) if area and how == "append" else goal.text
        )
        fills.append(Fill(area, text, how, wanted)) if area is not None else missing.append(goal.text)
    for words, value in goal.settings:
        fill = _value_fill(words, value, fields)
        if fill is not None and goal.adds and fill.how == "type":
            fill = Fill(fill.element, value, "append", words)
        fills.append(fill) if fill is not None else missing.append(value)
    for value in goal.loose:
        fill = _value_fill("", value, fields)
        fills.append(fill) if fill is not None else missing.append(value)
    if goal.op == "create" and goal.number:
        el = _number_field(goal, [e for e in lines if all(f.element is not e for f in fills)])
        fills.append(Fill(el, goal.number, "type", "number")) if el is not None else missing.append(
            goal.number
        )
    taken = {int(f.element.get("id") or -1) for f in fills}
    if goal.span:
        span, where = _span_fills(goal, fields, taken)
        fills += span
        missing += [] if span else list(goal.span)
        taken |= where
    if goal.op in ("create", "update"):
        fills += _labelled_fills(goal, fields, taken)
        taken = {int(f.element.get("id") or -1) for f in fills}
        fills += _goal_options(goal, fields, taken)
    if goal.op in STATUS_WORDS:
        status = next((f for w in STATUS_WORDS[goal.op] if (f := _value_fill("status", w, fields))), None)
        if status is None:
            status = next((f for w in STATUS_WORDS[goal.op] if (f := _value_fill("", w, fields))), None)
        if status is not None and all(f.element.get("id") != status.element.get("id") for f in fills):
            fills.insert(0, status)
        elif status is None and not fills:
            missing.append(goal.op)
    for fill in list(fills):
        radio = radio_of(fill.element, fields) if fill.how != "check" else None
        if radio is not None and not radio.get("checked") and all(f.element is not radio for f in fills):
            fills.insert(fills.index(fill), Fill(radio, field_label(radio), "check", fill.what))
    used: set[int] = set()
    unique = []
    for fill in fills:
        if int(fill.element.get("id") or -1) not in used:
            used.add(int(fill.element.get("id") or -1))
            unique.append(fill)
    return unique, missing


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
    return current == norm(fill.value)


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
