"""Reading a booking, order or application: the thing asked for and the details its form will ask.

"Book the Boathouse Suite for 2 adults and 2 children, arriving 9 August 2027 for 4 nights ... Lead guest Priya
Raman, priya.raman@example.org, mobile 07700 900614." Each detail is read by what it is (an email, a phone
number, a day, a time, a count of something, a person's name, a note to write) and by the words said with it
(arriving, picking up, returning, born). Which field takes it is decided on the page (``records.forms``); an
option the goal names in passing ('bed and breakfast') is chosen there too, never guessed here.
"""

from __future__ import annotations

import re
from functools import lru_cache
from urllib.parse import urljoin

from agent.planning.base import HistoryItem
from agent.planning.offline.account_rules import is_login_clause
from agent.planning.offline.clauses import split_situation
from agent.planning.offline.dates import MONTH_WORD, TIME_OF_DAY, WEEKDAY_BEFORE, days_said, same_day
from agent.planning.offline.intents import Click, Search
from agent.planning.offline.page import is_button, is_link, rect, visible_text
from agent.planning.offline.records.booked_for import (
    named_before_details,
    named_by_email,
    person_named,
    quoted_people,
)
from agent.planning.offline.records.forms import field_label, record_link, search_box
from agent.planning.offline.records.goal import RecordGoal
from agent.planning.offline.records.progress import clicked_targets, searched_queries
from agent.planning.offline.records.row_actions import row_anchor, row_control, says_verb, verb_words
from agent.planning.offline.text import (
    SENTENCE_BREAK,
    mask_quotes,
    norm,
    proper_names,
    stem,
    unmask,
    unmask_where,
)
from agent.types import Element, Observation

I = re.IGNORECASE  # noqa: E741 - short alias keeps the patterns readable

#: The verbs that ask for a booking, an order or an application, and the noun each one makes.
BOOKING_VERBS = {
    "book": "booking",
    "reserve": "reservation",
    "hire": "booking",
    "rent": "booking",
    "order": "order",
    "apply": "application",
    "request": "request",
    "schedule": "appointment",
    "arrange": "appointment",
    "place": "hold",
    "enrol": "booking",
    "enroll": "booking",
    "sign": "booking",
    "report": "report",
    "give notice": "notice",
}
_VERB = re.compile(
    r"^\s*(?:please\s+|can\s+you\s+|could\s+you\s+|(?:i|we)['’]?d\s+like\s+to\s+|(?:i|we)\s+would\s+like\s+to\s+|"
    r"(?:i|we)\s+want\s+to\s+|(?:i|we)\s+need\s+to\s+)?"
    r"(?P<v>book|reserve|hire|rent|order|apply|request|schedule|arrange|(?:put|place)\s+a\s+hold\s+on|enrol+|"
    r"sign(?=\s+(?:\w+\s+){1,2}up\b)|report(?=\s+(?:it|this|that|them)\b)|give\s+notice(?=\s+(?:on|for)\b))\b(?:\s+(?:for|on)\b)?"
    r"\s*(?P<rest>.*)$",
    I,
)
_SENTENCES = re.compile(SENTENCE_BREAK + r"(?=[A-Z\x00])|\n+")
_AND_BOOK = re.compile(
    r",?\s+(?:and|then)\s+(?=(?:book|reserve|hire|rent|order|apply|request|schedule|arrange)\b)", I
)
_EMAIL = re.compile(r"[\w.+-]+@[\w-]+(?:\.[\w-]+)+")
_PHONE = re.compile(
    r"(?:\b(?P<cue>mobile|phone|telephone|tel|cell|contact\s+number)(?:\s+number)?\s*(?:is\s+|:\s*)?)?"
    r"(?P<p>\+?\d[\d -]{7,}\d)"
)
_MONTH, _DAY_NAME, _TIME = MONTH_WORD, WEEKDAY_BEFORE, TIME_OF_DAY
_DATE = re.compile(
    rf"{_DAY_NAME}(?P<d>\d{{1,2}}(?:st|nd|rd|th)?\s+{_MONTH}(?:,?\s+\d{{4}})?|{_MONTH}\s+\d{{1,2}}(?:st|nd|rd|th)?"
    rf"(?:,?\s+\d{{4}})?|\d{{4}}-\d{{2}}-\d{{2}}|\d{{1,2}}[/.]\d{{1,2}}[/.]\d{{4}})(?:,?\s+at\s+(?P<t>{_TIME}))?",
    I,
)
#: What a day is, by the words said just before it.
_ROLES = (
    ("date of birth", re.compile(r"\b(?:born|date\s+of\s+birth|dob|birthday)\b[^,.;]{0,12}$", I)),
    (
        "return",
        re.compile(
            r"\b(?:return(?:ing)?|drop(?:ping)?[\s-]?off|back|until|till|check(?:ing)?[\s-]?out|"
            r"leav(?:e|ing)|depart(?:ing|ure)?)\b[^,.;]{0,12}$",
            I,
        ),
    ),  # fmt: skip
    ("pick-up", re.compile(r"\b(?:pick(?:ing)?[\s-]?up|collect(?:ing|ion)?)\b[^,.;]{0,12}$", I)),
    (
        "arrival",
        re.compile(r"\b(?:arriv(?:e|ing|al)|check(?:ing)?[\s-]?in|from|start(?:ing)?)\b[^,.;]{0,12}$", I),
    ),
)
_NUMBERS = {
    w: str(n)
    for n, w in enumerate("zero one two three four five six seven eight nine ten eleven twelve".split())
}
_COUNT = re.compile(
    r"\b(?P<n>\d{1,3}|" + "|".join(_NUMBERS) + r")\s+(?P<noun>(?:[a-z]+\s+)?(?:adults?|children|child|kids?|"
    r"infants?|nights?|days?|weeks?|people|persons?|guests?|dogs?|pets?|rooms?|bags?|tablets?|packs?|boxes|"
    r"bottles?|tickets?|seats?|places?|passengers?|months?|copies|items?|units?))\b",
    I,
)
#: A note to write: 'For the cover note write: ...', 'message: ...', 'saying ...'.
_NOTE = re.compile(
    r"\b(?:write|say|add\s+the\s+note|note|message|comment|cover\s+note|special\s+requests?)\s*(?:write|saying)?"
    r"\s*:\s*(?P<t>.+)$|\bsaying\s+(?P<q>\x00\d+\x00)",
    I,
)


def is_booking(goal: RecordGoal) -> bool:
    """The record is a booking, an order or an application made through the site's own form."""
    return goal.op == "create" and goal.verb in BOOKING_VERBS


def _day_role(before: str) -> str:
    return next((role for role, rx in _ROLES if rx.search(before[-40:])), "")


def _dates(text: str) -> tuple[list[tuple[str, str]], str]:
    """(field words, value) for each day and time, and the text without them."""
    found: list[tuple[str, str]] = []
    for m in _DATE.finditer(text):
        role = _day_role(text[: m.start()])
        found.append((f"{role} date".strip() if role != "date of birth" else role, m.group("d")))
        if m.group("t"):
            said = re.sub(r"(?<=[ap]m)\.$", "", m.group("t"), flags=I)  # '11am.' ends its sentence
            found.append((f"{role} time".strip() if role != "date of birth" else "time", said))
    return found, _DATE.sub(" ", text)


#: A party's size said without its noun: 'a table for 4', 'a party of six'.
_PARTY = re.compile(
    r"\b(?:(?:table|party|group)\s+(?:for|of)\s+(?P<n>\d{1,2}|"
    + "|".join(_NUMBERS)
    + r")\b(?!\s*(?:[:.]\d|am|pm))|the\s+(?P<us>"
    + "|".join(_NUMBERS)
    + r")\s+of\s+us\b)",  # ('book the two of us onto the workshop')
    I,
)


def _counts(text: str) -> list[tuple[str, str]]:
    party = _PARTY.search(text)
    n = (party.group("n") or party.group("us")).lower() if party else ""
    out = [("guests", f"{_NUMBERS.get(n, n)} guests")] if party else []
    for m in _COUNT.finditer(text):
        number = _NUMBERS.get(m.group("n").lower(), m.group("n"))
        noun = m.group("noun").lower()
        out.append((noun.split()[-1], f"{number} {noun}"))
    return out


#: 'Book Bramble in for his annual booster': who is booked in, and for what.
_BOOKED_IN = re.compile(r"^(?P<who>(?:\w[\w'’-]*)(?:\s+\w[\w'’-]*){0,2}?)\s+in\s+for\s+(?P<what>.+)$", I)
#: 'book Leo onto the Lego club', 'sign Leo up for it', 'enrol Leo on the course': the one named is a choice on
#: the form the booking is known by, as a day or a phone number is.
_NAMED_WHO = re.compile(r"^(?-i:[A-Z])[\w'’-]+(?:\s+(?-i:[A-Z])[\w'’-]+)?$")
_BOOKED_ONTO = re.compile(
    r"^(?P<who>(?-i:[A-Z])[\w'’-]+(?:\s+(?-i:[A-Z])[\w'’-]+)?|(?i:the\s+[a-z]+\s+of\s+us|both\s+of\s+us|us|me))\s+"
    r"(?P<to>up\s+(?:for|to|on|onto)|onto|on\s+to|on|into)\s+"
    r"(?P<what>(?!the\s+\d)(?:(?:the|a|an|this|that|next)\b|(?-i:[A-Z])).+)$"
)
#: A count of places before what they are for: the tour is booked, the count is chosen ('2 tickets for the tour').
_COUNTED_FOR = re.compile(
    r"^(?:\d+|one|two|three|four|five|six)\s+(?:tickets?|places?|seats?|spaces?)\s+(?:for|on|onto|in)\s+(?=\S)",
    I,
)
#: 'report it as a repair on my account', 'report it to Corran Valley Buses lost property for me': what is made.
_REPORTED = re.compile(
    r"^(?:it|this|that|them)\s+(?:as\s+(?:a|an)\s+(?P<as>[^,.;:]+?)|to\s+(?:the\s+)?(?P<to>[^,.;:]+?))"
    r"(?:\s+(?:on|in|through|via|for)\s+(?:my|our|me|us|the)\b.*|\s+[-–—]\s.*|[,;:].*)?$",
    I,
)
#: Where the thing booked is collected: "I'll collect it from Ferrybridge library", 'pick them up at Eastside'.
_COLLECT = re.compile(
    r"\b(?:collect|pick\s+up)\s+(?:it\s+|them\s+)?(?:up\s+)?(?:from|at)\s+(?:the\s+)?"
    r"(?P<p>(?-i:[A-Z])[\w'’-]*(?:\s+(?-i:[A-Z])[\w'’-]*){0,3}(?:\s+(?:library|branch|store|shop|office))?)",
    I,
)
#: Who made a work and what it is, said before its title: "Dev Ramanathan's novel ", "the new Pixar film ".
_MADE_BY = re.compile(
    r"^(?:(?-i:[A-Z])[\w.'-]*\s+){0,3}(?-i:[A-Z])[\w.-]*['’]s\s+(?:new\s+|latest\s+|first\s+)?"
    r"(?:novel|book|film|movie|album|memoir|cookbook|biography|series|play|dvd)\s+",
    I,
)


#: A detail stated as a sentence of its own: 'His new address is 8 Byre Lane, Hexworth HX2 5PA', 'The
#: registration is LM19 KPA'; the value holds a figure or a name, never an email (read as one) or a clause.
_STATED = re.compile(
    r"^(?:his|her|their|my|our|the)\s+(?P<l>(?!name\b|email\b)[a-z][a-z-]*(?:\s+[a-z][a-z-]*){0,2})\s+(?:is|are)\s+"
    r"(?P<v>(?=[^@]*(?:\d|\b(?-i:[A-Z])))[^@]{2,80})$",
    I,
)


def read_booking(goal: str) -> RecordGoal | None:
    """The goal as a booking made through a form, or None when it asks for none."""
    masked, spans = mask_quotes((goal or "").strip())
    emails, people = _EMAIL.findall(unmask(masked, spans)), quoted_people(masked, spans)
    # ('for "Ana Silva" with email "ana.silva@example.org"': quoted details are details, not titles kept whole)
    masked = unmask_where(masked, spans, lambda s: _EMAIL.fullmatch(s.strip()) is not None or s in people)
    masked = split_situation(masked)  # "We're moving house, so please give notice ...": two sentences
    sentences = [
        part.strip()
        for s in _SENTENCES.split(masked)
        for part in _AND_BOOK.split(s)  # 'Log in as ... and apply for the ...': the login, then the booking
        if part.strip()
    ]
    head = next((n for n, s in enumerate(sentences) if _VERB.match(s) and not is_login_clause(s)), None)
    if head is None:
        return None
    verb_match = _VERB.match(sentences[head])
    verb = verb_match.group("v").lower()  # type: ignore[union-attr]
    verb = "place" if verb.endswith(" on") else verb  # ('put a hold on X': place a hold, not 'Suspend hold')
    details = " . ".join(s for n, s in enumerate(sentences) if n == head or not is_login_clause(s))
    settings: list[tuple[str, str]] = []
    text = ""
    if (
        verb == "report"
    ):  # 'The handle ... has snapped off. Please report it as a repair': what happened is told
        text = unmask(
            " ".join(s.rstrip(" .") + "." for s in sentences[:head] if not is_login_clause(s)), spans
        )
        if not text:
            return None  # ('report it' pointing at nothing told)
    note = _NOTE.search(details)
    if note:
        text = unmask(note.group("t") or note.group("q"), spans).strip().strip('"')
        details = details[: note.start()]
    for stated in [m for part in details.split(" . ") if (m := _STATED.match(part.strip(" .")))]:
        settings.append((stated.group("l").lower(), unmask(stated.group("v"), spans).strip()))
        details = details.replace(
            stated.group(0), " "
        )  # ('His new address is 8 Byre Lane, Hexworth HX2 5PA')
    collect = _COLLECT.search(details)  # "I'll collect it from Ferrybridge library": where it is picked up
    if collect:
        settings.append(("collect from", unmask(collect.group("p"), spans).strip()))
        details = details[: collect.start()] + " " + details[collect.end() :]
    emails = _EMAIL.findall(details)
    settings += [("email", email) for email in emails]
    before_email = details
    details = _EMAIL.sub(" ", details)
    days, details = _dates(details)
    for m in _PHONE.finditer(details):
        if sum(ch.isdigit() for ch in m.group("p")) >= 9:
            settings.append(((m.group("cue") or "phone").lower(), m.group("p").strip()))
    details = _PHONE.sub(" ", details)
    person = (
        person_named(details)
        or named_by_email(before_email, emails)
        or named_before_details(before_email, BOOKING_VERBS)
    )
    if person:
        settings.append(("full name", person))
    settings += days + _counts(details)
    rest = verb_match.group("rest")  # type: ignore[union-attr]
    # 'book Bramble in for his annual booster': the booster is booked; Bramble, a choice the form offers, is chosen
    # there as any radio the goal names (and never needed on the page that confirms it)
    rest = rest.rstrip(" .?!")  # ('... onto the Lego club?')
    reported = _REPORTED.match(rest) if verb == "report" else None
    if verb == "report" and reported is None:
        return None  # ('report it as resolved': a state of what was reported, no new report)
    rest = (reported.group("as") or reported.group("to")) if reported else rest
    onto = _BOOKED_ONTO.match(rest) if verb in ("book", "enrol", "enroll", "sign") else None
    if onto and (_DATE.match(onto.group("what")) or (onto.group("to") == "on" and verb == "book")):
        onto = None  # ('Book Conference Room on the second floor': a room where, not someone booked onto it)
    named = onto.group("who") if onto and _NAMED_WHO.match(onto.group("who")) else ""
    if verb in ("enrol", "enroll", "sign") and not named:
        return None  # ('enrol me on the workshop': the course's own control, see records.row_actions)
    booked_in = onto or _BOOKED_IN.match(rest)
    rest = _COUNTED_FOR.sub(
        "", booked_in.group("what") if booked_in else rest
    )  # ('2 tickets for the tour ...')
    item = re.split(
        r"\s+(?:for|on|from|at|with|arriving|picking|starting|using)\s+|,|:|\s+[-–—]\s+|"
        r"\s+and\s+(?:i|we|have|get|make|keep|send|let)\b",  # ('... again and have it ready to collect at X')
        rest,
        flags=I,
    )[0]
    item = re.sub(r"^(?:the|a|an|my|our|his|her|their)\s+", "", item.strip(" ."), flags=I)
    item = _MADE_BY.sub("", item)  # ("Dev Ramanathan's novel Salt and Ember": Salt and Ember)
    if verb != "report" and re.fullmatch(r"(?:it|them|this|that|these|those|one)", item.strip(), I):
        return None  # ('... please order them': what 'them' is stays the situation's, unread here)
    if not settings and not text and not named:
        return None  # 'book a table' alone: no detail to fill or prove it by
    wording = re.sub(r"\x00\d+\x00", " ", masked)
    return RecordGoal(
        op="create",
        noun=BOOKING_VERBS[verb],
        about=unmask(item, spans),
        text=text,
        settings=tuple(settings),
        verb=verb,
        wording=wording,
        spans=spans,
        said=masked,
        who=named,
    )


#: Words on a page, its address or a control that make a form one for booking ('Book now', '/book',
#: 'Check availability', 'Apply for this job').
BOOKING_PAGE = re.compile(
    r"\b(?:book(?:ing)?|reserv(?:e|ation)|check\s+availability|availability|quote|order|apply|application|"
    r"request|appointment|checkout|your\s+details|confirm)\b",
    I,
)


def other_form(goal: RecordGoal, control: str) -> bool:
    """A control that makes a report ('Report an absence') is no way to a booking's form, nor a booking's
    ('Book a visit') to a report's."""
    if not is_booking(goal):
        return False
    return bool(re.search(r"\breport", control, I)) != (goal.verb == "report")


@lru_cache(maxsize=32)
def _page_words(noun: str) -> re.Pattern[str]:
    return re.compile(BOOKING_PAGE.pattern[:-3] + "|" + re.escape(noun) + r")\b", I) if noun else BOOKING_PAGE


def form_page_words(goal: RecordGoal) -> re.Pattern[str]:
    """The words that make a page the form for this booking, with what it makes ('Give notice' for notice given,
    'Report a repair' for a report): a report's only when the goal reports something ('Report an absence' is no
    form for booking a club)."""
    return _page_words(goal.noun.lower() if goal.noun in ("report", "notice") else "")


def detailed(goal: RecordGoal) -> bool:
    """The booking gives what a simple 'book X for <name>' never does: a day, a time, a phone number."""
    return any(re.search(r"date|time|phone|mobile|tel|birth", words) for words, _ in goal.settings)


def booking_step(
    goal: RecordGoal, observation: Observation, history: list[HistoryItem]
) -> tuple[str, str] | None:
    """(the step towards the booking form, why): its lead, else the site's search for the item named (a book
    in a catalogue); None when neither is here."""
    lead = booking_lead(goal, observation, clicked_targets(history))
    if lead is not None:  # ('Book' on the room's own card is told from the others' by what its row says)
        same = [e for e in observation.get("elements") or [] if visible_text(e) == visible_text(lead)]
        near = (
            (row_anchor(goal, lead, observation) or _day_below(goal, same, observation))
            if len(same) > 1
            else ""
        )
        role = "link" if is_link(lead) else "button"
        return Click(visible_text(lead), role, near=near).step(), "towards the booking form"
    named = proper_names(goal.about)
    if named and search_box(observation) is not None and goal.about.lower() not in searched_queries(history):
        return Search(goal.about).step(), "look the item up with the site's search"
    return None


def _day_below(goal: RecordGoal, same: list[Element], observation: Observation) -> str:
    """The line under one of several links of the same name (search results, cards) that says the day booked
    ('Saturday 12 December 2026, 11:00' below one 'Curator's tour: Engines of the North' of two), when only one
    of them has it: the step 'Click X near <it>' then means that one."""
    asked = [days_said(v)[0] for k, v in goal.settings if k == "date" and days_said(v)]
    tops = sorted((rect(e) or (0.0, 0.0, 0.0, 0.0))[1] for e in same)
    found = []
    for top, below in zip(tops, [*tops[1:], float("inf")], strict=True):
        found += sorted(
            [
                visible_text(e)
                for e in observation.get("elements") or []
                if asked
                and top < (rect(e) or (0.0, -1.0, 0.0, 0.0))[1] < min(below, top + 400)
                and len(visible_text(e)) <= 200
                and same_day(asked[0], visible_text(e))
            ],
            key=len,
        )[:1]  # (the shortest: the result's own line, not a block holding it)
    return found[0] if len(found) == 1 else ""


def booking_lead(goal: RecordGoal, observation: Observation, tried: set[str]) -> Element | None:
    """The control that gets the booking closer to its form: the item's own 'Book'/'Select' on its row or card,
    else a link naming the item, else the site's own 'Book now' / 'Apply' / 'Order' control."""
    row = row_control(goal, observation, tried)
    if row is not None:
        return row
    most = _link_most_said(goal, observation, tried)
    if most is not None:  # 'Winter pruning: apple and pear trees' for '... prune our old apple trees ... the
        return most  # winter pruning workshop', not 'Winter pruning: roses'
    named = _link_named_in(goal.about, observation, tried, verb_words(goal.verb))
    if named is not None:
        return named
    item = record_link(goal, observation, tried, floor=0.7) if goal.about else None
    if item is not None and not form_page_words(goal).search(visible_text(item)):
        return item
    controls = [
        e
        for e in observation.get("elements") or []
        if (is_link(e) or is_button(e))
        and 0 < len(visible_text(e)) <= 30
        and field_label(e) not in tried
        and visible_text(e) not in tried
        and says_verb(visible_text(e), goal.verb)
        and _names_no_other_item(visible_text(e), goal)
    ]
    return controls[0] if controls else None


def _names_no_other_item(control: str, goal: RecordGoal) -> bool:
    """'Book now', 'Order', 'Apply online' lead to any booking; 'Pre-order your Christmas tree' only to one of
    that item: its words beyond the verb must share one with the thing booked."""
    words = {stem(w) for w in norm(control).split() if w not in _STOP and len(w) > 2}
    rest = words - {stem(w) for w in verb_words(goal.verb)} - _GENERIC_CONTROL - _BOOKED_NOUNS
    item = {stem(w) for w in norm(goal.about).split()}
    return not rest or bool(rest & item)


#: What a booking control calls what it makes ('Place a hold', 'Request an appointment'), no item of its own.
_BOOKED_NOUNS = frozenset(stem(w) for n in BOOKING_VERBS.values() for w in n.split())
#: Words a booking control says beside its verb that name no item ('Book now', 'Apply online', 'Order yours').
_GENERIC_CONTROL = frozenset(
    stem(w) for w in "now here online today yours your this place places book booking form start pre".split()
)


_STOP = frozenset("a an the my our your of for to on in at with and new".split())


#: What the goal says it does not want: 'the book, not the TV series', 'rather than the large print'.
_NOT_THIS = re.compile(
    r"\b(?:not|rather\s+than|instead\s+of|except|never)\s+(?:the\s+|a\s+|an\s+|any\s+)?(?P<x>[^,.;:()\u2013\u2014-]+)",
    I,
)


def _link_most_said(goal: RecordGoal, observation: Observation, tried: set[str]) -> Element | None:
    """The link in the page's own content that shares clearly the most words with all the goal says (at least
    three, two more than any other link to another page) and a word with the thing booked."""
    wording = unmask(goal.wording, goal.spans)
    refused = {
        stem(w) for m in _NOT_THIS.finditer(wording) for w in norm(m.group("x")).split() if w not in _STOP
    }
    said = {stem(w) for w in norm(_NOT_THIS.sub(" ", wording)).split() if w not in _STOP}
    item = {stem(w) for w in norm(goal.about).split() if w not in _STOP}
    here = (observation.get("url") or "").split("#", 1)[0]
    scored: dict[str, tuple[int, Element]] = {}
    for e in observation.get("elements") or []:
        href = (e.get("attrs") or {}).get("href", "")
        if not is_link(e) or (e.get("zone") or "main") != "main" or visible_text(e) in tried or not href:
            continue
        words = {stem(w) for w in norm(visible_text(e)).split() if w not in _STOP}
        named = len(words & item) >= min(2, len(item))
        if named and href.split("#", 1)[0] != here and not words & refused:  # (not 'the TV series')
            shared = len(words & said)
            scored[href] = max(scored.get(href, (0, e)), (shared, e), key=lambda t: t[0])
    ranked = sorted(scored.values(), key=lambda t: -t[0])
    if not ranked or ranked[0][0] < 3 or (len(ranked) > 1 and ranked[1][0] > ranked[0][0] - 2):
        return None
    return ranked[0][1]


def _link_named_in(
    about: str, observation: Observation, tried: set[str], verbs: tuple[str, ...] = ()
) -> Element | None:
    """A short link every word of which the goal says of the thing asked for ('Repeat prescription' for 'a
    repeat prescription of Biscuit's tablets'; 'Apply for single person discount', the verb aside): the page for
    that kind of request."""
    said = {stem(w) for w in norm(about).split()}  # ('Clubs' for the Thursday Lego club)
    here = (observation.get("url") or "").split("#", 1)[0]
    best: tuple[tuple[int, bool], Element] | None = None
    for e in observation.get("elements") or []:
        words = [stem(w) for w in norm(visible_text(e)).split() if w not in _STOP and w not in verbs]
        href = str((e.get("attrs") or {}).get("href") or "")
        fits = (
            is_link(e) and words and len(words) <= 4 and set(words) <= said and visible_text(e) not in tried
            and not (href and urljoin(here, href).split("#", 1)[0] == here)
        )  # fmt: skip  # (a link to this very page leads nowhere)
        rank = (
            len(words),
            (e.get("zone") or "main") == "main",
        )  # (the account's own 'Clubs' before the site's)
        if fits and (best is None or rank > best[0]):  # 'Repeat prescription' before 'Biscuit'
            best = (rank, e)
    return best[1] if best else None
