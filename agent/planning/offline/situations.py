"""A question read in the situation the user tells around it: "I'm looking for X. What's its call number?",
"Thinking of hiring the electric car from Kestrel. How much is the damage excess?", "A friend told me X can borrow
books for you. How much is each request like that?". What the situation names is put into the question, or the
question is left unread: a question pointing back at a thing the situation does not name is never guessed.
"""

from __future__ import annotations

import re

from agent.planning.offline.intents import Ask
from agent.planning.offline.targets import shown
from agent.planning.offline.text import proper_names
from agent.planning.offline.vocabulary import PEOPLE

#: A pronoun in a question that points back at what an earlier step looked for ('its warranty', 'how much is it').
_POSSESSIVE_BACK = re.compile(r"\b(?:its|their|his|her)\b", re.I)
#: ... and one that ends the question: 'what is their email address' -> 'the email address of X'.
_POSSESSIVE_END = re.compile(
    r"\b(?:its|their|his|her)\s+(?P<np>[a-z][\w-]*(?:\s+[a-z][\w-]*){0,2}?)(?P<tail>\s+(?:is|are|was|were))?\s*\??$",
    re.I,
)
#: 'that' as a thing said before ('what would that cost me', 'how much is that'), not 'that' before a noun.
_THAT = (
    r"(?:(?<=\bwould\s)|(?<=\bwill\s)|(?<=\bdoes\s)|(?<=\bdid\s)|(?<=\bis\s)|(?<=\bwas\s))that"
    r"(?=\s+(?:cost|costs|come\s+to|be)\b|\s*\??\s*$)"
)
#: A pronoun that points back at what the situation is after, even beside a name ('get it from my Clearway
#: account'), unlike 'is it heated' beside 'the Grand Hotel Lisbon'.
_BACK_AT_WANTED = re.compile(_THAT + r"|\b(?:get|find|fetch|check|retrieve|send)\s+(?:me\s+)?it\b", re.I)
_OBJECT_BACK = re.compile(
    r"\b(?:(?:it|them)\b(?!\s+(?:says?|said|shows?|showed|displays?|reads?|means?|looks?|mentions?)\b)|"
    + _THAT
    + ")",
    re.I,
)  # ('what it says' is what the page says)


def pointing_at(question: str, subject: str) -> str:
    """The question with its pronouns replaced by what they point at: 'what is its warranty' -> 'what is the
    warranty of the kettle'."""
    question = _POSSESSIVE_END.sub(rf"the \g<np> of {subject}\g<tail>", question)
    return _OBJECT_BACK.sub(subject, _POSSESSIVE_BACK.sub(f"{subject}'s", question))


#: A sentence that tells the situation, not the request: "I'm 23 and want to hire a car from Redway", "We'd like
#: to bring our dog when we stay at Saltings in Wrenham".
CONTEXT = re.compile(
    r"^(?:i['’]?m|i\s+am|i['’]?ve|i\s+have|i['’]?d\s+like|i\s+would\s+like|i\s+want|i\s+need|i['’]?ll|i\s+will|"
    r"i\s+plan|we['’]?re|we\s+are|we['’]?ve|we\s+have|we['’]?d\s+like|we\s+would\s+like|we\s+want|we\s+need|"
    r"we['’]?ll|we\s+will|we\s+plan|planning\s+(?:a|an|some|my|our)|it['’]?s|it\s+is|this\s+is|(?:s?he|they)(?:['’]s|['’]re|\s+is|\s+are)|"
    r"(?:my|our)\s+[\w-]+(?:['’]s)?(?:\s+[\w-]+){0,4}?\s+(?:is|are|has|have|was|were|wants?|needs?|uses?|likes?|in|"
    r"says?|said|told|thinks?|reckons?)|"
    r"(?:my|our)\s+[\w-]+['’]s|"
    r"(?-i:[A-Z])[\w&'.-]*(?:\s+(?-i:[A-Z])[\w&'.-]*){0,3}\s+(?:emailed|e-mailed|wrote|texted|rang|called|told\s+me|"
    r"said|sent\s+me))\b",  # ('Kestrel Lettings emailed to say my rent account is behind')
    re.I,
)
#: News the user read or heard, or a plan: 'A friend told me ...', 'I had an email saying ...', 'Thinking of hiring
#: ...'. Beside a question it is read only when the question points back at a thing it names ('... has a reading
#: group. What day does it meet?'); a question that names nothing of its own is not answered without it.
NEWS = re.compile(
    r"^(?:(?:an?|my|our)\s+[\w-]+(?:\s+[\w-]+)?\s+(?:told|said|says|mentioned|reckons)|"
    r"i\s+(?:had|got|received|saw|read|heard|can['’]?t|cannot|won['’]?t|haven['’]?t|didn['’]?t|don['’]?t)|"
    r"we\s+(?:had|got|can['’]?t|cannot|won['’]?t|haven['’]?t|didn['’]?t|don['’]?t)|"
    r"(?:thinking|planning|hoping)\s+(?:of|to|about)|someone|somebody)\b",
    re.I,
)
#: What makes a sentence a detail to use rather than a situation to read past: a reference ('job SW-31877'), a
#: postcode, a long number, a year, an email address.
DETAIL = re.compile(r"\b(?=[A-Z0-9-]*\d)[A-Z][A-Z0-9-]{2,}\b|\b\d{4,}\b|@")
#: The places and names a context sentence fixes: 'at Saltings in Wrenham', 'from Redway'.
_CONTEXT_PLACE = re.compile(
    r"\b(?:at|in|from|with|near)\s+(?P<x>(?-i:[A-Z])[\w'&.-]*(?:\s+(?-i:[A-Z])[\w'&.-]*)*)", re.I
)


#: What the situation says the user is after: "I'm looking for The Salt Road by Imogen Hale".
_AFTER = re.compile(
    r"\b(?:looking\s+for|searching\s+for|trying\s+to\s+find|interested\s+in|after|i\s+need)\s+(?P<x>(?!to\b)"
    r"[^,;]+?)\s*$",
    re.I,
)
#: ... or what the situation says a place has: 'a friend told me the Hollin Library has a reading group'.
_HAS = re.compile(r"\b(?:has|have|offers?|runs?|sells?|stocks?)\s+(?P<x>(?:an?|some)\s+[^,;]+?)\s*$", re.I)


#: A plan the user tells before asking: 'Thinking of hiring the electric car from Kestrel': what they would hire.
_PLANNED = re.compile(
    r"^(?:(?:i['’]?m|we['’]?re|i\s+am|we\s+are)\s+)?(?:thinking|planning|hoping)\s+(?:of|about|to)\s+(?:hiring|"
    r"renting|buying|booking|ordering|borrowing|leasing|joining|visiting|switching\s+to|signing\s+up\s+(?:with|at|to|for)|"
    r"hire|rent|buy|book|order|borrow|lease|join|visit|switch\s+to|sign\s+up\s+(?:with|at|to|for))\s+(?P<x>[^,;?]+?)\s*$",
    re.I,
)
#: A question about a kind of thing the situation describes: 'how much is each request like that'.
_LIKE_THAT = re.compile(r"\s+(?:like|such\s+as)\s+(?:that|this|those|these)\b", re.I)
#: ... a service a business does, as news tells it: 'Westmere Libraries can borrow books ... for you'.
_CAN_DO = re.compile(
    r"(?P<who>(?-i:[A-Z])[\w'&.-]*(?:\s+(?-i:[A-Z])[\w'&.-]*){0,4})\s+(?:can|could|will)\s+"
    r"(?P<x>(?!be\b)(?-i:[a-z])[^,;?]*?)(?:\s+for\s+(?:you|me|us|people|members|customers))?\s*$"
)
#: Where a question's condition starts: 'how much is the excess | if I don't buy their cover'.
_IF_TAIL = re.compile(r"\s+(?:if|unless|when|provided)\s", re.I)


def _for_plan(question: str, thing: str) -> str:
    """'how much is the damage excess if I don't buy their cover' about the thing planned: 'how much is the
    damage excess of the electric car from Kestrel if I don't buy their cover'."""
    cut = _IF_TAIL.search(question)
    at = cut.start() if cut else len(question.rstrip(" ?"))
    return f"{question[:at]} of {thing}{question[at:]}"


def _wanted(situation: str) -> str:
    """What the situation says the user is after, or what a place it names has, with that place ('a reading
    group at the Hollin Library': another library's reading group is not it)."""
    planned = _PLANNED.match(situation)
    if planned:
        return planned.group("x")
    after = _AFTER.search(situation)
    if after:
        return after.group("x")
    has = _HAS.search(situation)
    if not has:
        return ""
    owner = _OWNER.search(situation[: has.start()])
    return f"{has.group('x')} at {owner.group(0).strip()}" if owner else has.group("x")


#: The named place or business that has what the situation says: 'the Hollin Library', 'Greenway Cinema'.
_OWNER = re.compile(r"(?:\bthe\s+)?(?-i:[A-Z])[\w'&.-]*(?:\s+(?-i:[A-Z])[\w'&.-]*){0,4}\s*$")
#: A question that points back at a thing ('its call number', 'how much is it'): it needs one to point at.
_POINTS_BACK = re.compile(r"\b(?:its|it\b|" + _THAT + ")", re.I)
#: ... or at someone's: a business or a person the situation must name ('their young driver surcharge' at Redway;
#: 'they should connect to' names who acts, not whose thing is asked for).
_POINTS_AT_SOMEONE = re.compile(r"\b(?:their|his|her)\b", re.I)


#: Someone the situation introduces: 'a contractor', 'my dad', 'our new tenants'.
_SOMEONE = re.compile(r"\b(?:a|an|my|our|some)\s+(?:[a-z-]+\s+)?(?P<who>" + "|".join(PEOPLE) + r")\b", re.I)
#: A question's 'they'/'he'/'she' as the one who acts ('the network they should connect to').
_ACTS = re.compile(r"\b(?-i:they|he|she)\b(?!['’])")


def _who_acts(said: str, context: list[str], spans: tuple[str, ...]) -> str:
    """The question with the one who acts named as the situation introduces them: "We've got a contractor coming
    in. What's the Wi-Fi network they should connect to?" asks of the network a contractor should connect to (a
    page answers contractors and staff apart)."""
    people = {m.group("who").lower() for c in context for m in _SOMEONE.finditer(shown(c, spans))}
    if len(people) != 1 or not _ACTS.search(said):
        return said
    return _ACTS.sub(f"a {people.pop()}", said, count=1)


def in_context(ask: Ask, context: list[str], spans: tuple[str, ...], news: bool = False) -> Ask | None:
    """A question asked after (or before) the situation it is about: what the user says they are after is what
    'its' means ("I'm looking for X. What's its call number?"), and where and whose is kept ('What do they
    charge for a dog? at Saltings in Wrenham'); the rest never answers. None when the question points back at a
    thing the situation does not name."""
    if _LIKE_THAT.search(ask.question):  # 'each request like that' after 'X can borrow books ... for you'
        services = [m for c in context if (m := _CAN_DO.search(shown(c, spans)))]
        if len(services) != 1 or re.search(r"\b(?:can|could|will)\s", services[0].group("x")):
            return None  # (two services told: which one is meant is not guessed)
        who, service = services[0].group("who"), services[0].group("x")
        return Ask(_LIKE_THAT.sub(f" to {service}", _ACTS.sub(who, ask.question, count=1)))
    said = _who_acts(ask.question, context, spans)
    ask = Ask(said) if said != ask.question else ask
    wanted = [w for c in context if (w := _wanted(shown(c, spans)))]
    if (
        _POINTS_BACK.search(said)
        and ((len(wanted) == 1 and _BACK_AT_WANTED.search(said)) or not proper_names(said.split(" ", 1)[-1]))
    ):  # ('... of X, which date is it'; 'I need the test reference. Can you get it from my Clearway account?')
        if len(wanted) != 1:
            return None
        thing = wanted[0]
        return Ask(pointing_at(said, thing))
    planned = [m.group("x") for c in context if (m := _PLANNED.match(shown(c, spans)))]
    core = _IF_TAIL.split(said, maxsplit=1)[0]
    if len(planned) == 1 and len(wanted) == 1 and not proper_names(core.split(" ", 1)[-1]):
        return Ask(
            _for_plan(said, planned[0])
        )  # ('Thinking of hiring X. How much is the excess?': X's excess)
    if len(planned) == 1 and proper_names(planned[0]) and _POINTS_AT_SOMEONE.search(said):
        # ('Thinking of joining Millbrook Leisure Centre. What does their Anytime membership cost?': Millbrook's)
        return Ask(_POINTS_AT_SOMEONE.sub(f"{planned[0]}'s", said, count=1))
    if news:
        return (
            None  # ('I had an email saying my hold is ready. Which library do I go to?': which hold, unread)
        )
    places = [
        m.group(0)
        for c in context
        for m in _CONTEXT_PLACE.finditer(shown(c, spans))
        if m.group("x").lower() not in said.lower()
    ]
    if not places:  # 'What's their phone number?' after "I'm new here": whose, the situation does not say
        return None if _POINTS_AT_SOMEONE.search(said) else ask
    return Ask(
        f"{said.rstrip(' ?')} {' '.join(dict.fromkeys(places))}{'?' if said.rstrip().endswith('?') else ''}"
    )
