"""What goes where on a record form: the goal's values matched to the page's fields, dropdowns and radios.

Fields are matched by every text that names them (``records.forms``: label, aria-label, placeholder, name) and by
their options; a value said without its field ('close as fixed', 'bed and breakfast', '2 adults') goes to the
one field whose options say it.
"""

from __future__ import annotations

import re

from agent.dom.text import GOAL_STOPWORDS
from agent.planning.offline import page as kinds
from agent.planning.offline.dates import days_said, value_kind
from agent.planning.offline.page import MONEY_RX
from agent.planning.offline.records.confirming import NOT_ASKED
from agent.planning.offline.records.forms import (
    OPTION_MATCH,
    TITLE_WORDS,
    Fill,
    best_match,
    field_label,
    form_fields,
    like_last_item,
    names_record,
    option_of,
    with_synonyms,
)
from agent.planning.offline.records.goal import STATUS_WORDS, RecordGoal
from agent.planning.offline.text import norm, stem, tokens, unmask
from agent.types import Element, Observation

#: A count of something ('2 adults', '60 tablets'): a number field or a list of numbers takes the number.
_COUNTED = re.compile(r"^(?P<n>\d+)\s+[a-z]", re.I)


def _count_option(el: Element, value: str) -> str:
    """The option of a list of counts that ``value`` ('2 adults', '1 dog') means: '2', '1 dog', 'No dogs' for 0."""
    count = _COUNTED.match(value)
    if count is None:
        return ""
    n = count.group("n")
    for option in el.get("options") or []:
        numbers = re.findall(r"\d+", option)
        if numbers == [n] or (n == "0" and not numbers and re.match(r"^\s*(?:no|none)\b", option, re.I)):
            return option
    return ""


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
        option = option_of(named, value) or _count_option(named, value)
        if option:
            return Fill(named, option, "select", words)
    elif named is not None and kinds.is_text_field(named):
        count = _COUNTED.match(value) if (named.get("input_type") or "") == "number" else None
        return Fill(named, count.group("n") if count else value, "type", words)
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


def not_offered(goal: RecordGoal, observation: Observation, missing: list[str]) -> str:
    """Why the form cannot take a value the goal gives: its own list for that value offers others ('Class date'
    offers 12, 19 and 24 March, the goal says 17 March). Such a form is never sent with its default instead."""
    lists = [e for e in form_fields(observation) if kinds.is_select(e) and not kinds.is_text_field(e)]
    for words, value in goal.settings:
        if value not in missing:
            continue
        greyed = _unavailable(value, observation)
        if greyed:
            return f"'{greyed}' cannot be chosen on this page"
        dated = bool(days_said(value))
        for el in lists:
            if bool(_LATER.search(field_label(el))) != bool(_LATER.search(words)):
                continue  # ('Departure date' is no list for the day of arrival)
            options = [str(o) for o in el.get("options") or [] if str(o).strip()]
            days = sum(bool(days_said(o)) for o in options)
            if (dated and days >= 2) or (words and best_match(words, [el]) is not None and not days):
                shown = ", ".join(o for o in options[:8] if not re.match(r"^\W*(?:select|choose)\b", o, re.I))
                return f"'{field_label(el) or words}' offers {shown}, not {value}"
    return ""


def _unavailable(value: str, observation: Observation) -> str:
    """The label of a choice the page shows by the name ``value`` but does not let be chosen (a sold-out
    tariff's greyed radio, a disabled option), or ''."""
    for e in observation.get("elements") or []:
        if e.get("disabled") and kinds.is_checkable(e) and _before_brackets(field_label(e)) == norm(value):
            return field_label(e)
    return ""


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


def _name_parts(name: str, lines: list[Element]) -> list[Fill]:
    """A whole name split for a form that asks for the first and the last name apart."""
    first = best_match("first name", lines, 0.8)
    last = best_match("last name", lines, 0.8) or best_match("surname", lines, 0.8)
    given, _, family = name.partition(" ")
    if first is None or last is None or first is last or not family:
        return []
    return [Fill(first, given, "type", "first name"), Fill(last, family, "type", "last name")]


def _said_radios(goal: RecordGoal, fields: list[Element], taken: set[int]) -> list[Fill]:
    """Radio buttons the goal names in passing ('bed and breakfast' for 'Bed & breakfast (+£12.00 ...)')."""
    words = f" {norm(goal.wording.replace('&', ' and '))} "
    said = [
        e
        for e in fields
        if (e.get("input_type") or e.get("role") or "") == "radio"
        and int(e.get("id") or -1) not in taken
        and len(norm(re.split(r"[(:–—-]", field_label(e).replace("&", " and "))[0])) >= 3
        and f" {norm(re.split(r'[(:–—-]', field_label(e).replace('&', ' and '))[0])} " in words
    ]
    groups: dict[str, list[Element]] = {}
    for e in said:
        groups.setdefault(str((e.get("attrs") or {}).get("name") or e.get("id")), []).append(e)
    chosen = [radios[0] if len(radios) == 1 else _closest(goal.wording, radios) for radios in groups.values()]
    return [
        Fill(e, field_label(e), "check", "option") for e in chosen if e is not None and not e.get("checked")
    ]


def item_words(about: str) -> set[str]:
    """The words that name an item to order or request ('my amlodipine again': amlodipine)."""
    return {
        w for w in tokens(re.sub(r"\b(?:again|more|some|another|repeat|of)\b", " ", about)) if len(w) >= 4
    }


def _ticked_item(goal: RecordGoal, fields: list[Element], taken: set[int]) -> list[Fill]:
    """Of a list of things to tick, the one box the goal's item names ('order my amlodipine again' ticks
    'Amlodipine 5mg tablets'): every word of the item in its label, and no other box's."""
    item = item_words(goal.about)
    named = [
        e for e in fields
        if kinds.role_of(e) == "checkbox" and int(e.get("id") or -1) not in taken and not e.get("disabled")
        and item and item <= set(tokens(field_label(e))) and not NOT_ASKED.search(field_label(e))
    ]  # fmt: skip
    return [Fill(named[0], field_label(named[0]), "check", "item")] if len(named) == 1 else []


def _closest(wording: str, options: list[Element]) -> Element | None:
    """Of radios the goal names alike ('Hygiene appointment (30 minutes)', '(45 minutes)'), the one whose whole
    label shares most with it ('45-minute'); None on a tie."""
    said = {stem(t) for t in tokens(wording)}
    scored = sorted(
        ((len(said & {stem(t) for t in tokens(field_label(e))}), e) for e in options), key=lambda s: -s[0]
    )
    return scored[0][1] if scored[0][0] > scored[1][0] else None


#: Words a goal says it does not want: 'no breakfast', "don't need parking", 'without insurance'.
_NEGATED = re.compile(
    r"\b(?:no|not|don['’]?t|doesn['’]?t|without|never|nor)\s+((?:[\w'’-]+\s+){0,2}[\w'’-]+)", re.I
)


def _radios_by_meaning(goal: RecordGoal, fields: list[Element], taken: set[int]) -> list[Fill]:
    """The one radio of a group that shares a word with what the goal says beyond the thing booked ("I'm paying
    for it myself" picks 'I'll pay (£16.95)' over 'I'm eligible for a free NHS flu jab'); a group none or several
    of whose radios do so is left to the page."""

    def words(text: str) -> set[str]:  # ('paying' and 'pay' are one word here)
        return {
            re.sub(r"(?<=\w{3})(?:ing|ed)$", "", t)
            for t in tokens(text)
            if len(t) > 2 and t not in GOAL_STOPWORDS
        }

    negated = words(" ".join(m.group(1) for m in _NEGATED.finditer(goal.wording)))  # 'no breakfast please'
    said = words(goal.wording) - words(goal.about) - words(goal.noun) - negated
    groups: dict[str, list[Element]] = {}
    for el in fields:
        if (el.get("input_type") or el.get("role") or "") == "radio":
            groups.setdefault(str((el.get("attrs") or {}).get("name") or "radios"), []).append(el)
    fills = []
    for radios in groups.values():
        if any(e.get("checked") or int(e.get("id") or -1) in taken for e in radios):
            continue
        meant = [
            e for e in radios
            if words(re.split(r"[(:–—]", field_label(e))[0]) & said
        ]  # fmt: skip
        if len(meant) == 1:
            fills.append(Fill(meant[0], field_label(meant[0]), "check", "option"))
    return fills


def _before_brackets(option: str) -> str:
    return norm(re.split(r"[(:–—]|\s-\s", option)[0])


#: A field asking who the booking is for: a child, a pet, a patient (whom the goal names by first name alone).
_WHO_FIELD = re.compile(r"\b(?:child|pupil|student|pet|patient|who|person|attendee|member|dependant)\b", re.I)


#: A figure with its unit as the goal says it: '50 sq ft', '2 litre', '6 foot'.
_MEASURE = re.compile(
    r"\b(?P<n>\d+(?:\.\d+)?)\s*(?P<u>sq\s*(?:ft|m)|square\s+(?:feet|metres|meters)|[a-z]+)", re.I
)


def _measure_named(goal: RecordGoal, options: list[str]) -> list[str]:
    """The one option that says a figure of the item the goal names with the same unit."""
    said = {(m.group("n"), norm(m.group("u"))) for m in _MEASURE.finditer(goal.about)}
    return [o for o in options if said & {(m.group("n"), norm(m.group("u"))) for m in _MEASURE.finditer(o)}]


def _first_named(goal: RecordGoal, options: list[str]) -> list[str]:
    """'Book Leo onto ...' in a 'Child' field of 'Leo Mensah - Robins class' and 'Maya Mensah - ...': the options
    whose name (a title aside, either order: 'Mensah, Leo') the one booked for starts or ends with."""
    who = norm(goal.who).split()
    if not who:
        return []
    out = []
    for option in options:
        name = _HONORIFIC.sub("", _before_brackets(option)).replace(",", " ").split()
        if name and (name[: len(who)] == who or name[-len(who) :] == who):
            out.append(option)
    return out


def _goal_options(goal: RecordGoal, fields: list[Element], taken: set[int]) -> list[Fill]:
    """Dropdown options the goal names in passing ('an enhancement for the editor component'): the page decides."""
    words = f" {norm(goal.wording)} "
    fills = []
    for el in fields:
        if not kinds.is_select(el) or kinds.is_text_field(el) or int(el.get("id") or -1) in taken:
            continue
        current = norm(str(el.get("value") or ""))
        named = [o for o in el.get("options") or [] if len(norm(o)) >= 2 and f" {norm(o)} " in words]
        if not named:  # 'Beth Carrow (Dental hygienist)' for 'with Beth Carrow': the name before the brackets
            named = [o for o in el.get("options") or [] if len(_before_brackets(o).split()) >= 2
                     and f" {_before_brackets(o)} " in words]  # fmt: skip
        if not named:  # 'Dr Callum Ellis (Veterinary surgeon)' for 'with Dr Ellis': the title and the surname
            named = [o for o in el.get("options") or [] if _HONORIFIC.match(_before_brackets(o))
                     and len(_before_brackets(o).split()) >= 3 and f" {_title_and_surname(o)} " in words]  # fmt: skip
        if not named:  # 'my 50 sq ft unit' of 'C-214 - 50 sq ft at Riverside' and 'A-017 - 15 sq ft at ...'
            named = _measure_named(goal, list(el.get("options") or []))
        if not named and _WHO_FIELD.search(field_label(el)):
            named = _first_named(goal, list(el.get("options") or []))
        if not named and goal.about and _KIND_FIELD.search(field_label(el)):  # 'Vaccination or booster' for
            item = {
                w for w in norm(goal.about).split() if len(w) >= 5
            }  # 'his annual booster jab': the kind booked
            named = [
                o for o in el.get("options") or [] if item & set(norm(o).split()) and not MONEY_RX.search(o)
            ]
            told = _told_kind_words(goal, el, fields)  # a report's kind by what it tells: 'the window won't
            if not named and told:  # shut' is 'Doors and windows'
                named = [
                    o for o in el.get("options") or [] if told & set(tokens(o)) and not MONEY_RX.search(o)
                ]
        named = [o for o in named if norm(o) != current]
        if len(named) == 1:
            fills.append(Fill(el, named[0], "select", field_label(el)))
    return fills


#: Where in a home something is, which says nothing of what kind of problem it is ('the kitchen light').
_PLACES = frozenset(
    stem(w)
    for w in "kitchen bathroom bedroom hallway hall stairs landing lounge living room loft garden garage "
    "toilet attic cellar porch outside inside upstairs downstairs front back".split()
)


def _told_kind_words(goal: RecordGoal, el: Element, fields: list[Element]) -> set[str]:
    """The words of a report's telling that may name its kind: not a place (a room is what another field of the
    form offers, or a place anyway: 'the kitchen light flickers' is no 'Kitchen appliances' problem)."""
    if goal.noun != "report":
        return set()
    places = {
        t
        for f in fields
        if f is not el and kinds.is_select(f)
        for o in f.get("options") or []
        for t in tokens(o)
    }
    return {t for t in tokens(goal.text) if len(t) >= 4 and t not in places and t not in _PLACES}


#: A field that asks which kind of thing is booked (never an add-on offered beside it: 'Add a cover plan?').
_KIND_FIELD = re.compile(r"\b(?:type|kind|service|treatment|reason|category|purpose)\b", re.I)
_HONORIFIC = re.compile(r"^(?:dr|mr|mrs|ms|miss|mx|prof|professor|rev|sir|dame)\b\.?", re.I)


def _title_and_surname(option: str) -> str:
    words = _before_brackets(option).split()
    return f"{words[0]} {words[-1]}"


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
        parts = _name_parts(value, lines) if words == "full name" else []
        if parts:  # 'First name' and 'Last name' instead of one field for the whole name
            fills += parts
            continue
        fill = _value_fill(words, value, fields)
        if fill is None and words == "full name":  # 'Name for the booking', 'Your name'
            named = [e for e in lines if re.search(r"\bname\b", field_label(e), re.I)]
            fill = Fill(named[0], value, "type", words) if len(named) == 1 else None
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
        if goal.verb and goal.op == "create":
            fills += _ticked_item(goal, fields, taken) if goal.about else []
            fills += _said_radios(goal, fields, taken)
            fills += _radios_by_meaning(goal, fields, {int(f.element.get("id") or -1) for f in fills})
    chosen = [f.value for f in fills] + [str(e.get("value") or "") for e in fields if kinds.is_select(e)]
    if goal.who and not _first_named(goal, chosen):
        missing.append(goal.who)  # ('Leo' in no option the form offers here: never left to its default)
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
    for fill in [f for f in fills if f.how == "check"]:
        if _before_brackets(field_label(fill.element)) != norm(fill.value) and _unavailable(
            fill.value, observation
        ):
            fills.remove(fill)  # ('Fix 12 Green Saver' for a sold-out 'Fix 12 Green': never its look-alike)
            missing.append(fill.value)
    used: set[int] = set()
    unique = []
    for fill in fills:
        if int(fill.element.get("id") or -1) not in used:
            used.add(int(fill.element.get("id") or -1))
            unique.append(fill)
    return unique, missing
