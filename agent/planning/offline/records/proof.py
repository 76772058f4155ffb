"""Reading a record again after a change: does the page show each new value, or does it refuse (a validation
error, a mid-air collision) or still hold the form (a preview)? Only what the page itself shows counts.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from agent.planning.offline.dates import parse_when, value_kind
from agent.planning.offline.matching import clock_time
from agent.planning.offline.page import is_heading, is_select, is_text_field, role_of, visible_text
from agent.planning.offline.records.bookings import is_booking
from agent.planning.offline.records.fields import record_fields
from agent.planning.offline.records.fills import item_words
from agent.planning.offline.records.forms import (
    field_label,
    form_fields,
    is_search_field,
    names_record,
    on_record,
    save_control,
    with_synonyms,
    without_place_noun,
)
from agent.planning.offline.records.goal import STATUS_WORDS, RecordGoal
from agent.planning.offline.text import norm, similarity, tokens
from agent.types import Observation
from agent.util.page_errors import ERROR_MESSAGE, not_done

CONFLICT = re.compile(
    r"\b(?:mid-?air\s+collision|edit\s+conflict|conflict(?:ing)?\s+(?:edit|change)s?|has\s+been\s+(?:modified|"
    r"changed|edited)\s+(?:by\s+\w+\s+)?since|changed\s+since\s+you)\b",
    re.I,
)
PREVIEW = re.compile(r"\bpreview\b", re.I)
#: A line telling what was asked for and not done as asked: 'You asked for 4 tickets; we've limited your order to 2',
#: 'The 10:00 slot had just been taken, so we've given you the next available time'. No proof of what it names.
NOT_AS_ASKED = re.compile(
    r"\b(?:you\s+(?:asked|requested)\s+for|had\s+(?:just\s+)?been\s+taken|(?:was|is|were|are)\s+(?:already\s+)?"
    r"(?:taken|full|fully\s+booked|booked\s+up|unavailable|sold\s+out)|no\s+longer\s+available|limited\s+(?:your\s+\w+\s+)?to|"
    r"instead\s+of|next\s+available|we(?:['’]ve|\s+have)\s+(?:given|moved|changed|swapped)\s+you)\b",
    re.I,
)
_NEGATED = re.compile(r"\bnot\b|n['’]t\b|\bnothing\b|\bno\s+changes?\b|\bfailed\b", re.I)
#: An alert that reports the save done, not a refusal ('Your details have been saved').
_SAVED = re.compile(
    r"\b(?:saved|updated|changed|done|success(?:ful(?:ly)?)?|thank\s+you|thanks|confirmed|received|submitted|"
    r"booked|requested)\b",
    re.I,
)


@dataclass
class Reading:
    """What the page shows of the change: one line per value seen, the values not seen, and any refusal."""

    seen: list[str] = field(default_factory=list)
    unseen: list[str] = field(default_factory=list)
    problem: str = ""  # '' | the page's error or conflict message | 'preview'

    @property
    def proven(self) -> bool:
        return not self.problem and not self.unseen and bool(self.seen)


#: The form an edit refuses comes back with a line like these (or a title starting 'Error').
_FORM_ERROR = re.compile(r"\bplease\s+correct\b|\bfield\s+is\s+required\b|\berrors?\s+below\b", re.I)
_DATES = re.compile(
    r"\b(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\.?\s+\d{1,2}(?:st|nd|rd|th)?,?\s+\d{4}|"
    r"\b\d{1,2}\s+(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\.?,?\s+\d{4}|\b\d{4}-\d{2}-\d{2}\b|"
    r"\b\d{1,2}/\d{1,2}/\d{4}\b",
    re.I,
)


def _lines(observation: Observation, fields: bool = False) -> list[str]:
    """The page's text lines (a dropdown's option list is not a value shown); with ``fields``, each field of a
    form loaded afresh as 'Label: value' too (the record read again in its own edit form)."""
    elements = observation.get("elements") or []
    options = {norm(o) for e in elements if is_select(e) for o in e.get("options") or []}
    choices = [field_label(e).strip().lower() for e in elements if _is_choice(e) and field_label(e).strip()]
    text = f"{observation.get('title') or ''}\n{observation.get('page_text') or ''}"
    lines = [ln.strip() for ln in text.splitlines() if ln.strip()]
    lines = [  # nor is a radio's or a tick box's own line ('Fix 12 Green - 24.02p/kWh'): a choice offered
        ln for ln in lines if norm(ln) not in options and not any(_choice_line(ln, c) for c in choices)
    ]
    if fields:
        for e in form_fields(observation):
            value = str(e.get("value") or "").strip()
            if value and (is_text_field(e) or is_select(e)):
                lines.append(f"{field_label(e).rstrip(': ')}: {' '.join(value.split())}")
            elif _is_choice(e) and e.get("checked"):
                lines.append(f"chosen: {field_label(e)}")  # the form loaded afresh has kept this choice
    return lines


def _choice_line(line: str, label: str) -> bool:
    """``line`` is a radio's or tick box's own: its label, alone or with a description after a dash or a bracket
    ('Fix 12 Green - 24.02p/kWh'); never 'Email: new@x.com' beside a tick box labelled 'Email'."""
    low = line.strip().lower()
    return low == label or (low.startswith(label) and re.match(r"\s*[-–—(|·]", low[len(label) :]) is not None)


def _is_choice(e: dict) -> bool:
    return (e.get("input_type") or "") in ("radio", "checkbox")


def _same_day(line: str, value: str) -> bool:
    when = parse_when(value) if value_kind(value) == "date" else None
    return when is not None and any(
        (d := parse_when(m.group(0))) is not None and d.date() == when.date() for m in _DATES.finditer(line)
    )


def _same_time(line: str, value: str) -> bool:
    """The line says the time of day ``value`` is, written otherwise ('16:15' for '4:15pm')."""
    asked = clock_time(value)
    return asked is not None and any(clock_time(m.group(0)) == asked for m in _TIMES.finditer(line))


#: A time of day on a line: '16:15', '4.15pm', '4pm'; never an amount ('£14.00') or '14.00' without am/pm.
_TIMES = re.compile(
    r"(?<![£$€\d.,])\b(?:\d{1,2}:\d{2}(?:\s?[ap]\.?m\.?)?|\d{1,2}\.\d{2}\s?[ap]\.?m\.?|\d{1,2}\s?[ap]\.?m\.?)",
    re.I,
)


def _head(value: str) -> str:
    """The first 80 characters of a long value, cut at a word ('... won't shut' of '... won't shut properly')."""
    return value if len(value) <= 80 else value[:80].rsplit(" ", 1)[0]


def _contains(line: str, value: str) -> bool:
    v = norm(value)
    return bool(v) and (
        f" {v} " in f" {norm(line)} "
        or _same_day(line, value)
        or _same_time(line, value)
        or _same_phone(line, value)
    )


#: A phone number as people write it ('07700 900464', '+44 (0)161 496 0000'), and as a page may space it again.
_PHONE = re.compile(r"(?<![\w.,+])(?:\+|00)?\d[\d ().-]{5,}\d(?![\w.,]\d)")


def _same_phone(line: str, value: str) -> bool:
    """The line shows the phone number ``value`` is, spaced otherwise ('07700 900 464' for '07700 900464') or
    with its country code written in place of the 0 ('+44 7700 900464'). Only a value written as a phone number
    (nine digits or more, grouped or starting with 0 or +), never an account, order or ticket number."""
    asked = re.sub(r"\D", "", value)
    if (
        not _PHONE.fullmatch(value.strip())
        or len(asked) < 9
        or not re.match(r"[+0]|\d+[ ().-]\d", value.strip())
    ):
        return False
    for m in _PHONE.finditer(line):
        shown = re.sub(r"\D", "", m.group(0))
        if shown == asked:
            return True
        coded, local = (m.group(0), asked) if len(shown) > len(asked) else (value.strip(), shown)
        long_, short = re.sub(r"\D", "", coded), local
        if (  # '+44 7700 900464' or '0044 ...' where the other has its 0 ('+44 (0)7700 ...' keeps it)
            coded.startswith(("+", "00"))
            and short.startswith("0")
            and long_.lstrip("0").endswith(short[1:])
            and len(long_.lstrip("0")) - len(short) in (1, 2)
        ):
            return True
    return False


def refusal(observation: Observation) -> str:
    """An error or conflict message the page shows (alert or status text first)."""
    elements = observation.get("elements") or []
    alerts = [visible_text(e) for e in elements if role_of(e) in ("alert", "status") and visible_text(e)]
    for text in alerts:
        if CONFLICT.search(text) or ERROR_MESSAGE.search(text):
            return text[:200]
    back = [f for f in form_fields(observation) if (f.get("input_type") or "") != "search"]
    if back:  # the form is back, and an alert in the page's content says something of it
        for e in elements:
            text = visible_text(e)
            main = (e.get("zone") or "main") not in ("header", "nav", "footer", "aside")
            if role_of(e) == "alert" and main and text and (not _SAVED.search(text) or _NEGATED.search(text)):
                return text[:200]  # ('Please confirm you've read the tariff information')
    side = {  # (a side block's 'Haven't registered yet?' says nothing of this change)
        norm(visible_text(e))
        for e in elements
        if (e.get("zone") or "main") in ("aside", "nav", "header", "footer")
    }
    for line in _lines(observation)[:400]:
        if CONFLICT.search(line) or (not_done(line) and norm(line) not in side):
            return line[:200]
    title = str(observation.get("title") or "")
    if re.match(r"^\s*error\b", title, re.I) or save_control(observation, []) is not None:
        for line in _lines(observation)[:400]:
            if len(line) <= 160 and _FORM_ERROR.search(line):
                return line[:200]
    return ""


def still_editing(goal: RecordGoal, observation: Observation) -> bool:
    """The form is still there holding the goal's text with its save button: a preview or a refused save."""
    held = [
        e
        for e in form_fields(observation)
        if is_text_field(e)
        and any(_contains(str(e.get("value") or ""), v) for v in (goal.text, goal.title) if v)
    ]
    return bool(held) and save_control(observation, held) is not None


def booked_form_still_shown(goal: RecordGoal, observation: Observation, placed: tuple[str, ...]) -> bool:
    """Right after a booking's save the page still shows its form holding every value placed, with nothing
    refused and nothing confirmed: the reply is still on its way (read again after a moment)."""
    if not is_booking(goal) or not placed or refusal(observation) or _confirmed(observation):
        return False
    held = {norm(str(e.get("value") or "")) for e in form_fields(observation)}
    return all(norm(v) in held for v in placed)


def _own_page_with_form(goal: RecordGoal, observation: Observation) -> bool:
    """A new record's own page that carries an edit form of its own ('#25 Printer jams' over 'Title [..] Save
    changes'): its heading names the record, and nothing calls it a preview."""
    if goal.op != "create" or not goal.title or not names_record(goal.title, observation):
        return False
    heads = [observation.get("title") or ""] + [
        visible_text(e) for e in observation.get("elements") or [] if is_heading(e)
    ]
    return not any(PREVIEW.search(h) or re.search(r"\b(?:new|create|edit)\b", h, re.I) for h in heads)


def identity(goal: RecordGoal) -> str:
    """What names the record on a page of many (a listing's row): its number, description or new title."""
    return goal.number or goal.about or goal.search or goal.title


def read_change(
    goal: RecordGoal, observation: Observation, placed: tuple[str, ...] = (), reread: bool = False
) -> Reading:
    """Each value of the goal, and each value ``placed`` into the form, as the page shows it ('priority:
    critical'), or why it does not count. Off the record's own page (a listing after the save) a value counts only
    on a line that also names the record; with ``reread`` (the record opened again after the save) its form's
    fields show the values too."""
    reading = Reading()
    problem = refusal(observation)
    if problem:
        reading.problem = problem
    elif still_editing(goal, observation) and not reread and not _own_page_with_form(goal, observation):
        reading.problem = "preview"
    lines = _lines(observation, fields=reread)
    ident = identity(goal)
    own = on_record(goal, observation) or bool(goal.title and names_record(goal.title, observation))
    booked = is_booking(goal)
    if (
        booked and goal.who
    ):  # ('Leo Mensah: Lego Club (Thursday)': each detail on the line of the one booked for)
        lines = [ln for ln in lines if _contains(ln, goal.who)]
    if (
        booked and not (reread and goal.verb == "report") and not _confirmed(observation)
    ):  # (a report's own page)
        reading.unseen.append(f"a page confirming the {goal.noun or 'booking'}")
    if booked:  # the booking's details in the page's own content, never in a side block beside it
        side = {
            norm(visible_text(e))
            for e in observation.get("elements") or []
            if (e.get("zone") or "main") in ("aside", "nav", "header", "footer")
        }
        lines = [ln for ln in lines if norm(ln) not in side]
    if ident and not own and not booked:  # a page of many records: only the lines that name this one count
        named = [ln for ln in lines if _contains(ln, ident) or similarity(ident, ln) >= 0.8]
        if named or goal.number or observation.get("page_type") == "listing":
            lines = named
    labelled = dict(goal.settings)
    counted = (
        {m.group(1) for v in goal.values if (m := re.match(r"^(\d+)\s+[a-z]", v, re.I))} if booked else set()
    )
    values = list(goal.values) + [
        v for v in placed if not any(norm(v) == norm(w) for w in goal.values) and v not in counted
    ]  # (a booking's '2' chosen for '2 people' is that count, read as such)
    fields = record_fields(observation) if own else []
    for value in values:
        words = next((w for w, v in labelled.items() if v == value), "")
        names = with_synonyms(words)
        # the record's own field of that name says it, or nothing does ('normal · Priya Raman' in a side list of
        # other issues is no proof that this one is assigned to her)
        held = [f for f in fields if words and any(similarity(n, f.label) >= 0.9 for n in names)]
        if held:
            shown = next((f for f in held if _contains(f.value, _head(value))), None)
            if shown is None:
                reading.unseen.append(f"{value} (its {held[0].label!r} shows {held[0].value[:60]!r})")
            else:
                reading.seen.append(f"{words} {value!r} shown: {shown.label}: {shown.value[:120]}")
            continue
        said = [
            ln for ln in lines if not NOT_AS_ASKED.search(ln)
        ]  # ('You asked for 4 tickets; ... limited to 2')
        hits = [ln for ln in said if _contains(ln, _head(value))] or _option_shown(value, said, goal.who)
        # ('Collect from' / 'Moorside' below it: the record's own pair for 'collect from the Moorside branch')
        place = f"{words} {without_place_noun(value)}" if words else value
        hits = (
            hits
            or _paired(value, said)
            or [ln for ln in said if norm(ln) == norm(place)]
            or _paired(place, said)
        )
        count = re.match(r"^(\d+)\s+[a-z]", value, re.I) if booked else None
        said_as = (
            re.compile(rf"\b{re.escape(value)}\b", re.I) if count else None
        )  # ('4 tickets', not '2:30pm')
        told = [
            ln for ln in lines
            if NOT_AS_ASKED.search(ln) and (said_as.search(ln) if said_as else _contains(ln, value))
        ]  # fmt: skip
        if (
            not hits and told
        ):  # the page says this value was not the one it took: no form's choice speaks for it
            reading.unseen.append(f"{value} (the page says: {told[0][:120]})")
            continue
        if not hits and count and count.group(1) in placed:  # '2 people': chosen as '2' in the booking's form
            reading.seen.append(f"{value!r} chosen in the form")
            continue
        if not hits:
            reading.unseen.append(value)
            continue
        named = [ln for ln in hits if any(similarity(w, ln) >= 0.5 or norm(w) in norm(ln) for w in names)]
        line = (named or hits)[0]
        what = f"{words} {value!r}" if words else repr(value[:80])
        reading.seen.append(f"{what} shown: {line[:140]}")
    if goal.op == "create" and goal.verb in ("order", "reorder") and (item := item_words(goal.about)):
        shown = [ln for ln in lines if item <= set(tokens(ln))]  # the item ordered ('Amlodipine 5mg tablets')
        reading.seen.append(f"{goal.about!r} shown: {shown[0][:140]}") if shown else reading.unseen.append(
            goal.about
        )
    if goal.replace and norm(goal.replace[0]) not in norm(goal.replace[1]):
        left = [ln for ln in lines if _contains(ln, goal.replace[0])]
        if left:  # the text edited away is still there: the edit did not land (or not everywhere)
            reading.unseen.append(f"no {goal.replace[0]!r} (still shown: {left[0][:100]})")
    if goal.op in STATUS_WORDS and not goal.values:
        _read_state(goal, observation, lines, reading)
    return reading


def _paired(value: str, lines: list[str]) -> list[str]:
    """A form's choice said as a label and its value ('Collect from Moorside'), shown by the record as the label's
    line and the value's line below it ('Collect from' / 'Moorside')."""
    return [f"{a}: {b}" for a, b in zip(lines, lines[1:], strict=False) if norm(f"{a} {b}") == norm(value)]


def _option_shown(value: str, lines: list[str], who: str = "") -> list[str]:
    """Lines showing an option chosen in the form as the record names it: 'Beth Carrow' for 'Beth Carrow (Dental
    hygienist)', its figures in brackets on the same line ('Hygiene appointment (45 minutes)' needs its 45); a name
    before a dash without the description after it."""
    name = value.split("(", 1)[0].strip()
    described = re.split(r"\s+[-–—]\s+", name, maxsplit=1)  # 'Leo Mensah - Robins class (Year 1)': Leo Mensah
    person = described[0].split()
    if (
        who
        and len(described) == 2
        and len(person) >= 2
        and who.lower() in (person[0].lower(), person[-1].lower())
    ):
        other = re.compile(re.escape(described[0]) + r"\s*[-–—]\s*(?!" + re.escape(described[1]) + ")", re.I)
        return [ln for ln in lines if _contains(ln, described[0]) and not other.search(ln)]
    if name == value.strip() or len(name.split()) < 2:
        return []
    figures = re.findall(r"\d+", value[len(name) :])
    return [ln for ln in lines if _contains(ln, name) and all(re.search(rf"\b{f}\b", ln) for f in figures)]


#: What the page after a booking says when it was made ('Appointment booked', 'Your booking reference is ...').
_CONFIRMED = re.compile(
    r"\b(?:booked|confirmed|confirmation|reference|thank\s+you|thanks|received|submitted|placed|requested|"
    r"reserved|success(?:ful(?:ly)?)?|sent|on\s+its\s+way)\b",
    re.I,
)


def _confirmed(observation: Observation) -> bool:
    elements = observation.get("elements") or []
    waiting = any(  # the form is still there, empty: a heading over it ('Rob's booked times') confirms nothing
        is_text_field(e) and not e.get("value") and (e.get("input_type") or "") != "search" and not is_search_field(e)
        and (e.get("zone") or "main") in ("main", "dialog")
        for e in elements
    )  # fmt: skip
    heads = (
        []
        if waiting
        else [observation.get("title") or ""] + [visible_text(e) for e in elements if is_heading(e)]
    )
    heads += [visible_text(e) for e in elements if role_of(e) == "status"]
    # (never an alert: 'Please give a name. Your reference will be sent ...' is a refusal)
    return any(_CONFIRMED.search(h) for h in heads)


def _read_state(goal: RecordGoal, observation: Observation, lines: list[str], reading: Reading) -> None:
    """A state change with no value of its own ('reopen ticket #12'): the page must show the state it leaves
    ('reopened', 'closed'), outside the form's own choices (a radio labelled 'leave as closed' is not the state)."""
    states = [w for w in STATUS_WORDS[goal.op] if w.endswith("ed")]
    choices = {norm(field_label(e)) for e in form_fields(observation)}
    heads = {norm(observation.get("title") or "")} | {
        norm(visible_text(e)) for e in observation.get("elements") or [] if is_heading(e)
    }
    about = set(tokens(goal.about)) if goal.about else set()
    if on_record(goal, observation):  # the record's own 'Status: reopened' field
        names = with_synonyms("status")
        for f in record_fields(observation):
            word = next((w for w in states if _contains(f.value, w)), "")
            if word and any(similarity(n, f.label) >= 0.9 for n in names):
                reading.seen.append(f"status {word!r} shown: {f.label}: {f.value}")
                return
    for line in lines:
        if norm(line) in choices:
            continue
        named = (
            norm(line) in heads
            or (goal.number and re.search(rf"(?:#|\b){re.escape(goal.number)}\b", line, re.I))
            or (about and len(about & set(tokens(line))) * 2 >= len(about))
        )
        if not named:
            continue  # another record's state (a listing after the save) says nothing of this one
        word = next((w for w in states if _contains(line, w)), "")
        if word:
            reading.seen.append(f"status {word!r} shown: {line[:140]}")
            return
    reading.unseen.append(states[0] if states else goal.op)
