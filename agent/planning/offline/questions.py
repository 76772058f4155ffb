"""What a question asks for: its kind (count, list, message, title, attribute, superlative, ...), attribute,
entity, noun and filters; and the shape of an answer.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace

from agent.planning.offline.figures import figure_asked, travel_time_asked
from agent.planning.offline.text import split_units, stem, tokens


@dataclass(frozen=True)
class Answer:
    """An answer copied from the page, and where it came from (the section heading and the URL)."""

    found: bool
    text: str
    evidence: str = ""
    section: str = ""  # heading of the section the answer was read from ("" when the page has none)
    source: str = ""  # URL of the page, with the section's anchor when it has one


@dataclass(frozen=True)
class Query:
    """What a question asks for."""

    kind: str  # count | list | message | title | url | heading | attribute | superlative | generic
    question: str
    attr: str = ""
    entity: str = ""
    noun: str = ""
    value_type: str = ""
    price_filter: tuple[str, float] | None = None
    yes_no: bool = False
    section: str = ""  # 'in the Logging section': where on the page to look
    page: str = ""  # '... of the reference', 'on the FAQ page': which page to look on
    by_topic: bool = False  # 'the article about X': the entity is what the item is about, not its name


#: Words that say which kind of value a question asks for.
_TYPE_WORDS: tuple[tuple[str, re.Pattern[str]], ...] = tuple(
    (kind, re.compile(rx, re.I))
    for kind, rx in {
        "email": r"\be-?mail\b",
        "phone": r"\b(?:phone|telephone|mobile|fax|tel)\b|\bcontact\s+number\b",
        "percent": r"\b(?:percent|percentage|discount)\b|%",  # ('how much of a discount': a share, before money)
        # a weight asked: 'how much does it weigh' (before money), never 'a bag that weighs 23 kg'
        "weight": r"\bweight\b|\bhow\s+heavy\b|^(?:what|how\s+much)\s+(?:does|do|did|will|would)\b(?!.*\b(?:that|which"
        r"|who)\s+weighs?\b).*\bweigh\b",
        "money": r"\b(?:price|prices|cost|costs|total|subtotal|fee|fees|shipping|tax|balance|salary|charge|fare|"
        r"how\s+much)\b",
        "rating": r"\b(?:rating|ratings|stars|rated|review\s+score)\b",
        "stock": r"\b(?:stock|availability|available|inventory)\b",
        # a clock time: one day's hours ("Saturday opening hours"), "what time does it leave" (opening hours in
        # general are a line that says on which days too)
        "time": r"\b(?:mon|tues|wednes|thurs|fri|satur|sun)day(?:['’]s)?\s+(?:opening\s+)?hours\b|"
        r"\bhours\s+on\s+(?:mon|tues|wednes|thurs|fri|satur|sun)days?\b|\bwhat\s+time\b|"
        r"\b(?:departure|arrival|start|starting|finish|end|kick-?off|check-?in|check-?out)\s+time\b",
        "date": r"\b(?:date|deadline|published|released|due|born|founded|updated|posted|expires|expiry|birthday|"
        r"when)\b",
        "url": r"\b(?:url|website|web\s+site|homepage)\b",
        "version": r"\bversions?\b",
    }.items()
)


#: The parts of a question that are not its subject, compiled together: a polite request ('can you tell me'),
#: a tail that only places it ('on this page'), a price filter ('under $50') and a superlative ('cheapest').
_REQUEST, _TAIL, _PRICE_FILTER, _SUPERLATIVE = (
    re.compile(rx, re.I)
    for rx in (
        r"^(?:please\s+)?(?:(?:can|could|would|will)\s+you\s+)?(?:tell\s+me|find\s+out|find|get(?:\s+me)?|give\s+me|"
        r"show\s+me|look\s+for|locate|extract|read(?:\s+out)?|report|return|identify|determine|figure\s+out|check|"
        r"let\s+me\s+know|i\s+want\s+to\s+know|answer)\b\s*:?\s*",
        r"\s+(?:on|in)\s+(?:the|this)\s+(?:page|site|website|screen|list|listing|results)\b.*$|\s+(?:shown|"
        r"listed|displayed)(?:\s+(?:here|on\s+the\s+page))?$|\s+(?:here|please)$",
        r"\b(?P<op>under|below|less\s+than|cheaper\s+than|at\s+most|up\s+to|over|above|more\s+than|"
        r"at\s+least|greater\s+than|pricier\s+than)\s+(?P<cur>[$€£])?\s?(?P<n>\d+(?:[.,]\d+)?)",
        r"\b(?P<s>cheapest|least\s+expensive|lowest[- ]priced|most\s+expensive|priciest|highest[- ]priced|"
        r"most\s+costly|(?:best|highest|top|worst|lowest)[- ]rated|(?:best|highest|top|worst|lowest)\s+"
        r"(?:average\s+)?rating|most\s+reviews|most\s+reviewed|fewest\s+reviews|least\s+reviewed|most\s+popular)\b",
    )
)


QUESTION_WORDS = frozenset(
    "what what's whats which who whom whose when where why how is are was were does do did "
    "can could has have tell me find get give show list name count the a an of for on in many much "
    "page site there this that it mention mentions say says contain contains include includes display".split()
)


#: 'how many X does a worker start': a number the page states, not items to count.
PRONOUNS_ASKED = frozenset("it they you we i he she".split())
_STATED_NUMBER = re.compile(
    r"^\s*times\b|\b(?:does|do|did|will|can|should|would|could)\s+\w+"
    r"|\b(?:i|you|we|they)\s+(?:have|has|had|get|got|need|must|can|may|should|will)\b"
    r"|\b(?:is|are|was|were)\s+(?!there\b|listed\b|shown\b|displayed\b|available\b|on\b|in\b|visible\b|left\b"
    r"|found\b|for\b|under\b|below\b|over\b|above\b|priced\b|rated\b|selected\b|checked\b)\w+",
    re.I,
)


def _value_type(text: str) -> str:
    for name, rx in _TYPE_WORDS:
        if rx.search(text) and not (name == "version" and re.search(r"\d\.\d", text)):
            return name  # 'which version' asks for one; 'in version 1.2.0' names one and asks something else
    return ""


def _noun(rest: str) -> str:
    m = re.match(
        r"^\s*(?:(?:the|of|all|different|distinct|total|unique)\s+)*(?P<n>.+?)(?:\s+(?:are|is|were|was|do|does|"
        r"did|can|could|will|have|has|i|you|we|they|there|on|in|shown|listed|displayed|available|found|exist|match|matching|"
        r"cost|costing|under|below|over|above|less|more|priced|that|which|with|for|from)\b.*)?$",
        rest,
        re.I,
    )
    return (m.group("n") if m else rest).strip(" ?.")


def subject_words(query: Query) -> list[str]:
    """The content words a question is about (its noun, attribute and entity), for finding where to look."""
    parts = [query.noun, query.attr, query.entity] + ([query.question] if query.kind == "generic" else [])
    text = " ".join(p for p in parts if p) or query.question
    asked = set(tokens(" ".join(query.entity.split()))) if query.entity else set()
    return [
        t for t in tokens(text) if (t in asked or t not in QUESTION_STEMS) and not t.isdigit() and len(t) > 1
    ]


#: Names written the way code and settings are ('result_ttl', 'app.config', 'maxRetries'): the subject itself.
_IDENTIFIER = re.compile(
    r"\b[A-Za-z][A-Za-z0-9]*(?:[_.][A-Za-z0-9]+)+\b|\b[a-z]+[A-Z][A-Za-z0-9]*\b|\b\d+(?:\.\d+)+\b"
    r"|\b[a-z]+(?:-[a-z]*\d[a-z0-9]*)+\b"
)


QUESTION_STEMS = QUESTION_WORDS | {stem(w) for w in QUESTION_WORDS}
_SCOPE_WORDS = r"section|chapter|part|heading|table|tab"
_LEADING_SCOPE = re.compile(
    r"^(?:in|under|from|within|on)\s+(?:the\s+)?(?P<s>[^,]+?)\s+(?P<k>" + _SCOPE_WORDS + r"|page)"
    r"(?:\s+(?:of|on|in)\s+(?:the\s+)?(?P<p>[^,]+?)(?:\s+page)?)?\s*[,:]\s*(?P<rest>.+)$",
    re.I,
)
_TRAILING_SCOPE = re.compile(
    r"^(?P<rest>.+?)\s+(?:in|under|from|within)\s+(?:the\s+)?(?P<s>[^,]+?)\s+(?P<k>" + _SCOPE_WORDS + r")"
    r"(?:\s+(?:of|on|in)\s+(?:the\s+)?(?P<p>[^,]+?)(?:\s+page)?)?$"
    r"|^(?P<rest2>.+?)\s+(?:on|in)\s+the\s+(?P<p2>(?!page\b)[^,]+?)\s+page$",
    re.I,
)


_LEADING_DOCUMENT = re.compile(
    r"^(?:according\s+to|as\s+stated\s+in|in|on|from)\s+(?:the|this|that|our|your)\s+(?P<p>[^,]+?)\s*[,:]\s*"
    r"(?P<rest>(?:what|which|who|whom|whose|when|where|why|how|is|are|was|were|does|do|did|can|could|has|have)\b.+)$",
    re.I,
)


def split_scope(question: str) -> tuple[str, str, str]:
    """'In the Logging section of the reference, what is X' -> ('what is X', 'Logging', 'reference');
    'According to the backup policy, how long ...' -> ('how long ...', '', 'backup policy')."""
    q = question.strip()
    m = _LEADING_SCOPE.match(q)
    if m:
        if m.group("k").lower() == "page":
            return m.group("rest"), "", m.group("s")
        return m.group("rest"), m.group("s"), m.group("p") or ""
    m = _LEADING_DOCUMENT.match(q)
    if m:
        return (
            m.group("rest"),
            "",
            re.sub(
                r"^(?:article|page|document|post)\s+(?:about|on)\s+(?:the\s+)?", "", m.group("p"), flags=re.I
            ),
        )
    m = _TRAILING_SCOPE.match(q.rstrip("?.! "))
    if m and m.group("rest"):
        return m.group("rest"), m.group("s"), m.group("p") or ""
    if m and m.group("rest2"):
        return m.group("rest2"), "", m.group("p2")
    return q, "", ""


#: "What are Northside Library's opening hours" asks what "the opening hours of Northside Library" asks.
_POSSESSIVE = re.compile(
    r"^(?P<ask>(?:what|which|when|where|who|how\s+\w+)\s+(?:is|are|was|were)\s+)(?:the\s+)?"
    r"(?P<owner>[\w-]+(?:\s+[\w-]+){0,4}?)['’]s?\s+(?P<attr>[\w-]+(?:\s+[\w-]+){0,3})\s*(?P<end>[?.!]*)$",
    re.I,
)


#: "a day's notice", "two weeks' pay": a length of time, which owns nothing.
_TIME_OWNER = re.compile(r"\b(?:minute|hour|day|night|week|fortnight|month|year)s?$", re.I)

#: "What number do I call to complain about noise" asks for "the phone number for complaints about noise".
_CALL = re.compile(
    r"^(?:what|which)\s+(?:phone\s+|telephone\s+)?number\s+(?:do|should|can|could|would)\s+(?:i|we|you|they)\s+"
    r"(?:call|ring|phone|dial|use)\s+(?:to\s+|for\s+|about\s+|if\s+|when\s+)?(?P<what>.+?)\s*[?.!]*$",
    re.I,
)


def _of_form(question: str) -> str:
    """The possessive restated with 'of', which the classifier reads as an attribute of an entity; a question
    about which number to call, as one about a phone number."""
    call = _CALL.match(question.strip())
    if call:
        return f"What is the phone number for {call.group('what')}"
    m = _POSSESSIVE.match(question.strip())
    if not m or m.group("owner").lower() in ("it", "that", "this", "there", "what", "who"):
        return question
    return f"{m.group('ask')}the {m.group('attr')} of {m.group('owner')}{m.group('end')}"


#: 'tell me how long the kit's warranty is': a question asked indirectly, in statement order.
_INDIRECT = re.compile(
    r"^(?P<wh>how\s+(?!many\b|much\b)\w+|what|which|who|when|where)\s+"
    r"(?P<np>(?!(?:is|are|was|were|does|do|did|can|will)\b)(?:the|a|an|this|that|its|their|[A-Z0-9])[^?]*?)\s+"
    r"(?P<v>is|are|was|were)\s*[?.!]*$",
    re.I,
)


#: What the user still has to pay, however said: 'how much I owe', "how much I've still got to pay on X".
_OWED = re.compile(
    r"^(?:exactly\s+|precisely\s+)?how\s+much\s+(?P<what>(?:(?!(?:do|have|did|i|we|more|in|total|exactly|altogether|"
    r"overall|still|now|currently)\b)[a-z]+\s+){1,2}?)?(?:do\s+|have\s+|did\s+)?(?:i|we)(?:['’]ve)?\s+"
    r"(?:(?:still|currently|now|actually)\s+)*"
    r"(?:owe|(?<=still\s)(?:got|have|need)\s+to\s+pay|got\s+left\s+to\s+pay|(?:got\s+|have\s+)?left\s+to\s+pay)"
    r"(?:\s+(?:to\s+)?(?P<whom>the\s+[a-z]+|(?-i:[A-Z])[\w&'.-]*(?:\s+(?-i:[A-Z])[\w&'.-]*){0,4}))?"
    r"(?:\s+(?P<x>(?:on|for)\s+.+?))?\s*[?.!]*$",
    re.I,
)
#: Words that make a name a business's, not a person's ('Brookvale Homes', 'Acme Ltd').
_BUSINESS_WORDS = frozenset(
    "homes housing council bank ltd limited plc inc llc energy water gas electric library libraries buses bus "
    "services group association trust nurseries nursery storage school college university hospital surgery "
    "practice clinic club centre center company co store stores shop insurance finance credit union telecom "
    "mobile broadband rail railway airlines airways hotel hotels hire rentals lettings estates agency authority "
    "department office".split()
)
#: A price asked of the future: 'how much is my next invoice going to be', 'how much will the bill be' (never of 'it'
#: (the situation's), nor of a thing's part: 'the Saturday hire of the main hall'); also in the indirect order.
_WILL_BE = re.compile(
    r"^how\s+much\s+(?:(?:is|are)\s+(?P<x>(?!(?:it|that|this|they|these|those)\b)[^?]+?)\s+going\s+to|"
    r"will\s+(?P<y>(?!(?:it|that|this|they|these|those)\b)[^?]+?)|(?P<z>(?:my|our|the|your)\s+[^?]+?)\s+"
    r"(?:is|are)\s+going\s+to)\s+(?:be|cost)\s*[?.!]*$",
    re.I,
)
#: Where an account question says to look, which names no part of the answer: 'from my Clearway pupil account'.
_FROM_ACCOUNT = re.compile(
    r"\s+(?:from|in|on)\s+(?:my|our)\s+(?:[\w&'-]+\s+){0,3}(?:account|portal|area|profile|dashboard)\s*[?.!]*$",
    re.I,
)


def _direct(question: str) -> str:
    """'Tell me how long the warranty is' -> 'how long is the warranty'; 'how much I owe' -> 'what is the
    balance'; other questions as they are."""
    stripped = _REQUEST.sub("", question.strip())
    core = travel_time_asked(_FROM_ACCOUNT.sub("", stripped)) or _FROM_ACCOUNT.sub("", stripped)
    owed = _OWED.match(core)
    if owed:  # ('how much rent do I owe for March': the balance of rent for March; whom is kept when named)
        what = re.sub(r"^(?:money|cash)$", "", (owed.group("what") or "").strip(), flags=re.I)
        whom = owed.group("whom") or ""
        person = (
            whom and not whom.lower().startswith("the ") and not set(whom.lower().split()) & _BUSINESS_WORDS
        )
        whom = f"to {whom}" if person else ""  # ('to Tom Baker' is kept; a business owed is the site asked)
        x = owed.group("x") or ""
        x = re.sub(r"^(?:on|for)\s+", "", x, flags=re.I) if not what else x
        of = " ".join(p for p in (what, x, whom) if p)
        return f"what is the balance of {of}" if of else "what is the balance"
    future = _WILL_BE.match(core)
    if future and " of " not in (thing := future.group("x") or future.group("y") or future.group("z")):
        return f"how much is {thing}"
    m = _INDIRECT.match(core)
    if m:
        return f"{m.group('wh')} {m.group('v')} {m.group('np')}"
    return core if core != stripped else question


#: An item named by its topic or its title: 'the article about X', 'the post titled X', 'the course on X'.
_TOPIC = re.compile(
    r"^(?:the\s+|a\s+|an\s+|this\s+|that\s+)?(?:[\w-]+\s+){0,2}?(?P<k>article|story|post|blog\s+post|piece|report|"
    r"news\s+item|item|announcement|notice|entry|interview|feature|review|video|episode|guide|page|course|talk|"
    r"event|lecture|workshop|class|session|book|paper|recipe|thread|question|ticket|issue)\s+(?P<c>about|on|regarding|"
    r"covering|titled|entitled|called|named)\s+(?:the\s+)?(?P<t>.{3,})$",
    re.I,
)


def analyze(question: str) -> Query:
    """Classify a question and pull out its attribute, entity, noun, filters and where to look."""
    rest, section, page = split_scope(split_units(question))
    query = _classify(_of_form(_direct(rest)))
    topic = _TOPIC.match(query.entity)
    if topic:  # 'the article about the river clean-up': the article is found by what it is about
        query = replace(
            query,
            entity=topic.group("t").strip(),
            noun=query.noun or topic.group("k").lower(),
            by_topic=topic.group("c").lower() not in ("titled", "entitled", "called", "named"),
        )
    named = _IDENTIFIER.search(rest)
    if named and not query.entity:
        query = replace(query, entity=named.group(0))
    if section or page:
        return replace(query, section=section.strip(), page=page.strip())
    return query


def _classify(question: str) -> Query:
    q = re.sub(r"\s+", " ", question.strip().rstrip("?.! "))
    q = re.sub(r"^(who|where|when|how)['’]s\b", r"\1 is", q, flags=re.I)  # "who's" is no possessive
    low = q.lower()
    filt = _PRICE_FILTER.search(q)
    price_filter = None
    if filt:
        op = filt.group("op").lower()
        sign = "<" if re.match(r"under|below|less|cheaper|at\s+most|up\s+to", op) else ">"
        price_filter = (sign, float(filt.group("n").replace(",", ".")))
    yes_no = bool(re.match(r"^(?:is|are|was|were|does|do|did|can|could|has|have)\b", low))
    m = re.search(
        r"\bhow\s+many\b(?P<r>.*)$|^count\b(?P<r2>.*)$|^(?:what\s+is\s+|what's\s+)?(?:the\s+)?(?:total\s+)?"
        r"(?:number|count)\s+of\b(?P<r3>.*)$",
        _REQUEST.sub("", low),
    )
    if m:
        rest = next(g for g in (m.group("r"), m.group("r2"), m.group("r3")) if g is not None)
        state = re.match(
            r"^\s*(?:the\s+)?(?P<n>[a-z]+(?:\s+[a-z]+)?)\s+(?:is|are|were|was)\s+(?P<s>[a-z]+)\s*$", rest
        )
        listed = r"^(?:there|listed|shown|displayed|available|visible|left|found|selected|checked|in|on)$"
        if state and not re.match(listed, state.group("s")) and state.group("n") not in PRONOUNS_ASKED:
            noun = f"{state.group('s')} {state.group('n')}"  # 'how many orders are pending': pending orders
            return Query("count", q, noun=_noun(noun), price_filter=price_filter)
        if _STATED_NUMBER.search(rest):  # 'how many times' asks for a number, it is not about times
            stated = re.sub(r"\bhow\s+many\s+times\b", "how many", q, flags=re.I)
            noun = "" if re.match(r"^\s*times\b", rest, re.I) else _noun(rest)
            return Query("generic", stated, noun=noun, value_type="number")
        return Query("count", q, noun=_noun(rest), price_filter=price_filter)
    if re.search(
        r"\b(?:page|site|screen|it|website|app|form)\s+(?:now\s+)?(?:say|says|said|show|shows|showing|display|"
        r"displays|read|reads)\b|\bwhat\s+(?:message|text|notification|greeting|error|confirmation|alert|status)"
        r"\b|\b(?:message|greeting|confirmation|notification|alert|error|welcome)\b.*\b(?:shown|displayed|appear"
        r"|appears|say|says|show|shows)\b|\bwhat\s+happen|\bwhat\s+(?:is|was)\s+(?:shown|displayed)\b|^(?:tell\s+"
        r"me\s+)?(?:the\s+)?(?:message|greeting|confirmation|error)$",
        low,
    ):
        return Query("message", q)
    if re.search(
        r"\b(?:title|headline|heading|name)\s+of\s+(?:the\s+|this\s+)?(?:article|post|story|blog(?:\s+post)?|"
        r"news(?:\s+item)?|piece|essay|recipe|video|report)\b(?!\s+\S)",
        low,
    ):
        return Query("heading", q)  # 'the article' alone: its main heading; 'post 57' names an item instead
    if re.search(
        r"\btitle\s+of\s+(?:the\s+|this\s+)?(?:page|tab|site|document|website)\b|^(?:what\s+is\s+)?(?:the\s+)?"
        r"(?:page|tab)\s+title$",
        low,
    ):
        return Query("title", q)
    if re.search(
        r"\b(?:url|address|link)\s+of\s+(?:the\s+|this\s+)?(?:current\s+)?page\b|\bcurrent\s+url\b|\bwhat\s+"
        r"page\s+am\s+i\s+on\b",
        low,
    ):
        return Query("url", q)
    if re.search(
        r"^(?:what\s+is\s+|what's\s+)?(?:the\s+)?(?:main\s+|page\s+)?(?:heading|headline)(?:\s+of\s+(?:the\s+|this"
        r"\s+)?page)?$",
        _REQUEST.sub("", low),
    ):
        return Query("heading", q)
    sup = _SUPERLATIVE.search(q)
    if sup:
        m = re.match(
            r"^(?:which|what)\s+(?:one\s+of\s+the\s+)?(?P<n>.+?)\s+(?:has|have|is|are|was|costs?|gets?|got)\b",
            _REQUEST.sub("", q),
            re.I,
        ) or re.search(
            r"\b"
            + re.escape(sup.group("s"))
            + r"\s+(?P<n>[\w\s-]+?)(?:\s+(?:on|in|of|with|from|under|over)\b.*)?$",
            q,
            re.I,
        )
        noun = m.group("n") if m else ""
        return Query("superlative", q, attr=sup.group("s").lower(), noun=noun, price_filter=price_filter)
    core = _TAIL.sub("", _REQUEST.sub("", q)).strip()
    m = re.match(
        r"^(?:list|name|enumerate)\s+(?:all\s+)?(?:of\s+)?(?:the\s+)?(?P<n>.+)$", q, re.I
    ) or re.match(
        r"^(?:what|which)\s+(?:are|were)\s+(?:all\s+)?(?:the\s+)?(?P<n>.+)$|^(?:show\s+me|give\s+me)\s+(?:all\s+|a\s+list"
        r"\s+of\s+)(?:the\s+)?(?P<n2>.+)$|^which\s+(?P<n3>\w+s)\s+(?:are|were)\b.*$",
        q,
        re.I,
    )
    if m:
        noun = next(g for g in m.groups() if g)
        noun = _TAIL.sub("", noun)
        if not re.search(r"\s(?:of|for)\s", noun):
            return Query("list", q, noun=_noun(noun), value_type=_value_type(noun), price_filter=price_filter)
    attribute = _attribute(core)
    if attribute:
        attr_text, entity = attribute
        kind = re.match(r"^(?P<n>[a-z]+)\s+(?P<e>[A-Z][\w'.-]*(?:\s+[A-Z][\w'.-]*)*)$", entity)
        return Query(
            "attribute",
            q,
            attr=attr_text,
            entity=kind.group("e") if kind else entity,  # 'the customer Chen Wei': Chen Wei, a customer
            noun=kind.group("n") if kind else "",
            value_type=_value_type(attr_text or q) or _HOW_MUCH_IS.match(q) and "money" or "",
            yes_no=yes_no,
        )
    return Query("generic", q, value_type=_value_type(q), yes_no=yes_no)


#: 'How much is the deposit of X': an amount of money, whatever the figure is called.
_HOW_MUCH_IS = re.compile(r"^how\s+much\s+is\s+the\s", re.I)


def _attribute(core: str) -> tuple[str, str] | None:
    """(attribute, entity) for 'the price of the Blue Widget', 'how much is X', "X's email", 'what is the total'."""
    strip_q = re.sub(
        r"^(?:(?:what|which)(?:'s|\s+is|\s+was|\s+are|\s+were)?|how\s+(?:long|far|big|large|old|tall|heavy|wide|"
        r"deep|often|soon|late|early)\s+(?:is|are|was|were))\s+",
        "",
        core,
        flags=re.I,
    )
    patterns = (
        (r"^(?:find\s+out\s+)?what\s+(?:did\s+)?(?:the\s+)?(?P<e>.+?)\s+(?:came|come|comes)\s+to$", "price"),
        (
            r"^how\s+much\s+(?:is|are|does|do|did|was|will|would)\s+(?:the\s+|a\s+|an\s+)?(?P<e>.+?)(?:\s+(?:cost|costs|be|sell\s+for|go\s+"
            r"for|priced\s+at)(?:\s+(?:last|previous)\s+(?:year|month|week)|\s+(?:a|one|two|three|four|five|\d+)\s+"
            r"(?:years?|months?)\s+ago|\s+the\s+year\s+before\s+last)?)?$",
            "price",
        ),
        (r"^what\s+does\s+(?:the\s+|an?\s+)?(?P<e>.+?)\s+cost(?:\s+(?:per|an?|each)\s+[a-z]+)?$", "price"),
        (
            r"^(?:is|are)\s+(?:the\s+)?(?P<e>.+?)\s+(?:in\s+stock|available|sold\s+out|out\s+of\s+stock)$",
            "stock",
        ),
        (
            r"^when\s+(?:is|was|does|did|will)\s+(?:the\s+)?(?P<e>.+?)\s+(?:due|published|released|start|starts|end|ends|"
            r"open|opens|close|closes|happen|take\s+place|posted|updated|founded|born)$",
            "date",
        ),
        (
            r"^who\s+(?P<a>wrote|created|made|posted|published|directed|sold|owns|authored|"
            r"(?!(?:is|was|has|does|says|means|goes|ran)\b)[a-z]{3,}(?:s|ed))\s+"
            r"(?!(?:in|at|for|on|with|from|to|as|by|under|near|here|there)\b)(?:the\s+)?(?P<e>.+)$",
            "",
        ),
    )
    figure = figure_asked(core)
    if figure:
        return figure
    for rx, attr_name in patterns:
        m = re.match(rx, core, re.I)
        if m:
            return (attr_name or m.group("a"), m.group("e").strip())
    m = re.match(  # 'Which city is the customer Chen Wei in?', 'what country does Ana live in'
        r"^(?:which|what)\s+(?P<a>[a-z][\w-]*(?:\s+[a-z][\w-]*)?)\s+(?:is|are|was|were|does|do|did)\s+(?:the\s+)?"
        r"(?P<e>.+?)\s+(?:(?:based|located|living|live|lives|work|works)\s+)?(?:in|from|at)$",
        core,
        re.I,
    )
    if m:
        return (m.group("a"), m.group("e").strip())
    on = r"|on" if strip_q != core else ""  # 'what is the discount on X'; never 'can I run X on Windows'
    m = re.match(
        rf"^(?:the\s+)?(?P<a>[\w\s-]+?)\s+(?:of|for{on})\s+(?:the\s+|a\s+|an\s+)?(?P<e>.+)$", strip_q, re.I
    )
    if m and len(m.group("a").split()) <= 4 and not re.match(r"^(?:who|when|where|how|why)\b", strip_q, re.I):
        return (m.group("a").strip(), m.group("e").strip())
    m = re.match(r"^(?:the\s+)?(?P<e>.+?)'s\s+(?P<a>[\w\s-]+)$", strip_q, re.I)
    if m and len(m.group("e").split()) <= 5 and not _TIME_OWNER.search(m.group("e")):  # not 'a day's notice'
        return (m.group("a").strip(), m.group("e").strip())
    if re.match(r"^how\s", core, re.I):
        return None  # 'how often is the backup run': no attribute of a named thing
    if strip_q != core or re.match(r"^(?:the\s+)", core, re.I):
        attr_text = re.sub(r"^(?:the|a|an)\s+", "", strip_q, flags=re.I).strip()
        if (
            attr_text
            and len(attr_text.split()) <= 5
            and not re.match(r"^(?:who|when|where|how|why)\b", attr_text, re.I)
            and not re.search(r"\b(?:is|are|was|were|does|do|did|has|have|can|will)\b", attr_text, re.I)
        ):
            return (attr_text, "")
    return None
