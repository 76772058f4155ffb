"""Reading a record goal loosely: the operation, the values the wording reliably carries, and the record it means.

Only what wording carries reliably is read here (quoted values; "titled/called/named X"; "saying X"; "to/as X";
"with F V"; the operation verb; "the ticket about ...", "#12"). Which field a value goes into, and which control
performs the operation, is decided later against the page (``records.forms``), never by a fixed field list.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import lru_cache

from agent.planning.offline.account_rules import is_login_clause
from agent.planning.offline.clauses import POINTS_BACK, missed_event, split_situation
from agent.planning.offline.dates import date_span
from agent.planning.offline.records.invites import invitation
from agent.planning.offline.records.restate import restate
from agent.planning.offline.text import SENTENCE_BREAK, mask_quotes, unmask

I = re.IGNORECASE  # noqa: E741 - short alias keeps the patterns readable

#: Operation verbs, by what they do to a record (the first word of a clause, after fillers).
OPERATIONS: dict[str, tuple[str, ...]] = {
    "comment": ("comment on", "comment", "reply to", "reply", "respond to", "answer"),
    "append": ("append", "extend"),
    "close": ("close", "resolve", "mark as done", "finish"),
    "reopen": ("reopen", "re-open"),
    "cancel": ("cancel", "call off"),
    "delete": ("delete", "remove", "erase"),
    "update": tuple(
        "set change raise lower bump increase decrease update make assign reassign move rename switch mark edit "
        "modify fix correct replace".split()
    ),
    "create": (
        *"file create add new submit report write start post invite".split(),
        "open a new",
        "make a new",
        "make a",
        "log a new",
    ),  # fmt: skip
    "open": ("open", "show", "show me", "take me to", "bring me to", "go to", "find", "navigate to", "view"),
    # an item's own control does it ('Renew', 'Withdraw'): see records.row_actions
    "act": tuple(
        "renew withdraw revoke approve reject decline restore unenrol unenroll enrol enroll drop".split()
    ),
}
#: The words each operation's control is likely to carry ("New Ticket", "Add comment", "Modify", "Edit page").
CONTROL_WORDS: dict[str, tuple[str, ...]] = {
    "create": ("new", "create", "add", "file", "submit", "report", "invite"),
    "comment": ("comment", "reply", "add comment", "respond"),
    "update": ("modify", "edit", "change", "update"),
    "close": ("modify", "edit", "close", "resolve", "change"),
    "reopen": ("modify", "edit", "reopen", "change"),
    "cancel": ("modify", "edit", "change"),
    "append": ("edit", "modify", "change"),
    "edit": ("edit", "modify", "change"),
    "delete": ("delete", "remove"),
    "open": (),
    "act": (),
}
#: The status an operation leaves a record in, matched against a status field's options or radio labels.
STATUS_WORDS: dict[str, tuple[str, ...]] = {
    "close": ("closed", "close", "resolve", "resolved", "done", "fixed"),
    "reopen": ("reopen", "reopened", "open", "new"),
    "cancel": ("cancelled", "canceled", "cancel"),
}

_FILLERS = re.compile(
    r"^(?:(?:please|kindly|now|then|also|and|ok|okay|could\s+you|can\s+you|would\s+you|i\s+(?:want|need)\s+"
    r"(?:you\s+)?to|i'd\s+like\s+(?:you\s+)?to|go\s+ahead\s+and|let's|lets)\b[\s,]*)+",
    I,
)
#: A record's number or identifier: '#12', 'ticket 12', 'order SO-1004', 'invoice INV-2026-0193'.
RECORD_NUMBER = re.compile(
    r"(?:#|\b(?:no\.?|number|ticket|issue|bug|item|record|order|invoice|case|request|booking)\s+#?)"
    r"(?P<n>(?:[A-Z]{1,5}-?)?\d+(?:-[A-Z0-9]*\d[A-Z0-9]*)*)\b",
    I,
)
_TITLE = re.compile(
    r"\b(?:titled|entitled|called|named|with\s+(?:the\s+|a\s+)?(?:title|summary|subject|name|heading))\s*:?\s*"
    r"(?P<v>\x00\d+\x00|[^,;.\x00]+?)(?=\s+(?:that|which|saying|with|and|to|in|on)\b|[,;.]|$)",
    I,
)
_TEXT = re.compile(
    r"\b(?:saying|that\s+says|which\s+says|says|reading|that\s+reads|with\s+(?:the\s+)?(?:text|body|"
    r"description|content|comment|message|note|words?)|containing)\s*:?\s*(?P<v>\x00\d+\x00)",
    I,
)
#: What an 'open' verb is followed by when the goal asks about the record, not to open it.
_ASKS_OF = re.compile(
    r"^(?:out\b|(?:the|its|their)\s+(?:[\w-]+\s+){1,3}?(?:of|for|on)\b|(?:what|how|when|who|whether|if)\b)", I
)
_COLON_VALUE = re.compile(r":\s*(?P<v>\x00\d+\x00)\s*$")
#: The same words before an unquoted text that runs to the end: "a page called X that says: Visitors park in C".
_BARE_TEXT = re.compile(
    r"\b(?:saying|that\s+says|which\s+says|says|reading|that\s+reads|with\s+(?:the\s+)?(?:text|body|content|"
    r"description|message))\s*:?\s+(?P<v>(?!\x00)[^\x00]*?\w[^\x00]*?\s[^\x00]*?)\s*$",
    I,
)
#: "with high priority", "with a low severity": the value before its field's name.
_VALUE_FIELD = re.compile(
    r"\bwith\s+(?:an?\s+|the\s+)?(?P<v>[a-z]+)\s+(?P<f>priority|severity|urgency|importance|status|impact)\b",
    I,
)
#: A value: quoted, a phone number (it keeps its groups), a run of capitalised words or codes ('Fix 12 Green',
#: 'YK27 HBN'), or one word.
_V = (
    r"(?P<v>\x00\d+\x00|\+?\d[\d ().-]{4,}\d|(?-i:[A-Z0-9][\w.&'/-]*(?:\s+[A-Z0-9][\w.&'/-]*)+)(?=\s*$)"
    r"|[\w.@/-]+)"
)
_F = r"(?P<f>[a-z][\w-]*(?:\s+[a-z][\w-]*)?)"
#: "with priority critical", "and severity: major"
_WITH_SETTING = re.compile(
    r"\b(?:with|and)\s+(?:the\s+|a\s+|an\s+)?" + _F + r"\s*(?:of|set\s+to|=|:)?\s+" + _V, I
)
#: "(raise) its priority to critical", "(change) the status of ticket 7 to closed"
_VERB_SETTING = re.compile(
    r"^(?:its|the|their|this|that|my|our|your)?\s*(?:(?-i:[A-Z][\w'&-]*)\s+){0,2}"  # ('my Brightwell tariff')
    + _F
    + r"(?:\s+(?:of|on|for|in|with|at)\b.*?)?\s+(?:to|as|=)\s+"
    + _V
    + r"\s*$",
    I,
)
_TO_VALUE = re.compile(r"\b(?:to|as|into)\s+(?P<v>\x00\d+\x00|[\w.@/-]+(?:\s+[\w.@/-]+)?)\s*$", I)
_ASSIGN = re.compile(
    r"\b(?i:assign|reassign|give)\b.*?\b(?i:to)\s+(?P<v>\x00\d+\x00|[A-Z][\w'.-]*(?:\s+[A-Z][\w'.-]*){1,3}|[\w.@-]+)"
    r"\s*[.!]?\s*$"
)
_DESCRIBED = re.compile(
    r"\b(?:the|that|this|a|an|my|our)\s+(?P<noun>[a-z][\w-]*(?:\s+[a-z][\w-]*)?)\s+(?P<how>about|where|on|"
    r"regarding|concerning|for|with\s+the\s+title|titled|called|named|in\s+which|that|which|whose)\s+"
    r"(?P<d>.+?)(?=\s+(?:saying|that\s+says|with\s+(?:the\s+)?(?:text|comment|priority|status)|to\s+(?:the\s+)?"
    r"\w+(?:\s+[\w.]+)?$|as\s+\w+$)|\s+(?:is|was|are|has\s+become|seems|got)\s+(?!\w+ing\b)|[,;:]|\.\s|$)",
    I,
)
#: Words that name no item of their own: 'her appointment for that day' points back at the situation.
_OWN_WORDS = re.compile(
    r"\b(?:that|this|these|those|it|its|same|day|her|his|their|my|our|the|a|an|for|on|of|in|at|to|one|"
    r"appointment|booking|reservation|order|request|loan|hold|visit|session|please|now|too|then)\b|[^\w\s]",
    I,
)
#: Where a loan or booking is kept, said after it: 'on my Westmere library account'.
_IN_ACCOUNT = re.compile(
    r"\s+(?:on|in|from|with|under)\s+(?:my|our|the)\s+(?:[\w'&-]+\s+){0,3}account\b.*$", I
)
_SEARCH = re.compile(
    r"\b(?:use|using)\s+the\s+(?:site'?s?\s+)?search(?:\s+(?:box|field|page|form))?\s+to\s+(?:look|search)\s+"
    r"(?:for|up)\s+(?P<q>\x00\d+\x00|[^,;.]+?)(?=\s+and\b|[,;.]|$)|^(?:search|look)\s+(?:for|up)\s+"
    r"(?P<q2>\x00\d+\x00)",
    I,
)
_FOUND = re.compile(
    r"\b(?:open|show|click|go\s+to)\s+(?:the\s+)?(?P<noun>[\w-]+)\s+(?:it|that\s+it|you)\s+finds?\b", I
)
_RECORD_NOUNS = (
    "ticket", "bug", "defect", "issue", "task", "page", "wiki page", "article", "entry", "record", "item",
    "order", "request", "story", "report", "post", "note", "case", "incident", "feature", "enhancement",
    "milestone", "comment", "member", "user", "document", "plot", "booking", "customer", "product",
    "person", "contact", "client", "employee", "project", "problem", "fault", "invoice", "receipt", "appointment",
    "reservation", "application",
)  # fmt: skip
#: Words for the same kind of record: a control for another kind ('New Ticket' for a wiki page) is not it.
KINDS: tuple[frozenset[str], ...] = (
    frozenset("ticket bug defect issue task case incident story enhancement feature request problem".split()),
    frozenset("page wiki article document entry post note".split()),
    frozenset("milestone release version roadmap".split()),
    frozenset("comment reply".split()),
    frozenset("user member account person".split()),
    frozenset("order booking reservation".split()),
    frozenset("product item".split()),
)
_VERBS = "|".join(sorted({v for vs in OPERATIONS.values() for v in vs}, key=len, reverse=True))
_SENTENCES = re.compile(
    SENTENCE_BREAK
    + r"|\s*;\s*|\s*\n\s*|,?\s+then\s+|,?\s+and\s+(?=(?:"
    + _VERBS
    + r")\s)|:\s+(?=(?:"
    + _VERBS
    + r")\s)",
    I,
)
_CONTEXT = re.compile(r"^\s*(?:in|on|at|within)\s+(?P<where>(?:the\s+)?[^,\x00]{2,60}?),\s*", I)
_PREDICATE = re.compile(r"\s+(?:is|are|was|were|has|have|seems?|looks?|got|needs?)\b.*$", I)
ARTICLE = re.compile(r"^(?:the|a|an|that|this|our|my)\s+", I)
_PAGE_WORD = re.compile(r"(?:\s+(?:wiki\s+)?page)?(?:\s*,?\s+keeping\b.*)?$", I)
_NOT_FIELDS = frozenset("it its this that the a an them new one".split())
#: The user's own news before the request ("I've switched email providers", "My username is now dana_k"): the
#: situation, never the record the request is about.
_FIRST_PERSON = re.compile(
    r"^\s*(?:(?:i|we)(?:['’]ve|\s+have)\s+(?:just\s+)?(?:switched|changed|moved|got|had|been|started|stopped|left|"
    r"lost)\b|(?:my|our)\s+(?:[\w-]+\s+){0,3}(?:is\s+now|has\s+(?:now\s+|just\s+)?changed|have\s+changed)\b)",
    I,
)
_AS_USER = re.compile(r"^\s*as\s+\S+\s*(?:\(|,?\s*(?:with|using)\b)", I)
_NAME = r"(?:\x00\d+\x00|[A-Z][\w'.-]*(?:\s+[A-Z][\w'.-]*){0,3})"
#: A record named right after its noun: 'customer Bruno Keller', 'the user "Test Customer"' (capitals or quotes).
_NAMED = re.compile(
    r"\b(?i:" + "|".join(sorted(_RECORD_NOUNS, key=len, reverse=True)) + r")\s+(?P<d>" + _NAME + ")"
)
#: The right value beside the wrong one: 'belongs to Dana Kowalski, not Emeka Obi', 'should be X, not Y'.
_NOT_OLD = re.compile(
    r"\b(?:to|be|is|for|by|of|at)\s+(?P<v>"
    + _NAME
    + r"|[\w.@/-]+),?\s+(?:and\s+)?not\s+(?P<w>"
    + _NAME
    + r"|[\w.@/-]+)"
)
#: The field a fix names without its value ('fix its customer', 'correct the date').
_FIELD_ONLY = re.compile(r"^\s*(?:its|the|their|this)\s+(?P<f>[a-z][\w-]*(?:\s+[a-z][\w-]*)?)\s*$", I)
#: 'Keep the existing notes', 'keeping the rest': what the field holds stays, the new text goes after it.
_KEEP = re.compile(
    r"\bkeep(?:ing)?\s+(?:the\s+|all\s+(?:the\s+)?|its\s+)?(?:existing|old|current|rest|other)\b", I
)


@dataclass(frozen=True)
class RecordGoal:
    """What a record goal asks: ``op`` on a record described by ``about``/``number``, setting ``values``."""

    op: str  # create | comment | update | close | reopen | append | delete | open | act
    noun: str = ""  # what the goal calls the record: ticket, defect, wiki page ...
    about: str = ""  # words describing an existing record ("the laptop does not wake from sleep")
    number: str = ""  # "#12"
    title: str = ""  # the new record's title (create) or the page's name
    text: str = ""  # the body, comment or line to add
    settings: tuple[tuple[str, str], ...] = ()  # (field words, value): ("priority", "critical")
    loose: tuple[str, ...] = ()  # values without a field word ("close as fixed"): the page decides
    search: str = ""  # an explicit search the goal asks for
    first_found: bool = False  # "open the ticket it finds"
    adds: bool = False  # the setting's value goes next to what the field holds ('add the keyword X')
    replace: tuple[
        str, ...
    ] = ()  # (old, new): a text edit of the record's body, the rest kept (records.edits)
    verb: str = ""  # act, cancel: the verb as the goal says it ('renew'), which names the item's control
    span: tuple[str, ...] = ()  # (first day, last day): 'from 14 July 2025 to 18 July 2025'
    who: str = ""  # whom a booking is for, chosen on its form: 'Leo' of 'book Leo onto the Lego club'
    wording: str = field(default="", compare=False)  # the goal's own words, quoted values left out
    spans: tuple[str, ...] = field(default=(), compare=False)
    said: str = field(default="", compare=False)  # the goal with its quoted values masked (\x00n\x00)

    @property
    def values(self) -> tuple[str, ...]:
        """Every value the change must leave on the record."""
        out = [self.title] if self.title and self.op == "create" else []
        out += [self.text] if self.text else []
        out += [v for _, v in self.settings] + list(self.loose)
        out += [self.replace[1]] if self.replace else []
        out += list(self.span) + [self.who]
        return tuple(v for v in out if v)

    @property
    def needs_record(self) -> bool:
        """The operation works on an existing record that must be found first."""
        return self.op != "create"


def _op_of(clause: str) -> tuple[str, str]:
    """(operation, the clause after its verb) for a clause that starts with an operation verb."""
    c = _FILLERS.sub("", clause.strip()).strip()
    lowered = c.lower()
    if re.match(
        r"^(?:add|post|leave|write|make)\s+(?:a\s+|another\s+|one\s+more\s+|my\s+)?(?:comment|reply|note)\b",
        lowered,
    ):
        return "comment", re.sub(r"^\w+\s+(?:\w+\s+)?(?:comment|reply|note)\b", "", c, flags=I)
    if re.match(r"^(?:add|append|insert)\s+(?:a\s+|an\s+|another\s+|one\s+more\s+|the\s+)?(?:last\s+|final\s+|new\s+)?"
                r"(?:line|sentence|step|paragraph|item|entry|bullet|row|note)\b", lowered):  # fmt: skip
        return "append", c
    for verb, op in sorted(((v, o) for o, vs in OPERATIONS.items() for v in vs), key=lambda p: -len(p[0])):
        if lowered == verb or lowered.startswith(verb + " "):
            return op, c[len(verb) :].strip()
    return "", c


def record_noun_in(text: str) -> str:
    """The kind of record ``text`` names ('ticket', 'wiki page'): the longest, then the first said."""
    lowered = text.lower()
    hits = [n for n in _RECORD_NOUNS if re.search(rf"\b{n}s?\b", lowered)]
    return max(hits, key=lambda n: (len(n.split()), lowered.find(n)), default="")


def _clean(value: str, spans: tuple[str, ...]) -> str:
    """The value as the goal gives it: a quoted one verbatim, a bare one without the punctuation around it."""
    return unmask(value.strip(" .,;:\"'"), spans).strip()


@lru_cache(maxsize=512)
def read_record_goal(goal: str) -> RecordGoal | None:
    """The goal as a record operation, or None when its wording is not one (the grammar then has it)."""
    masked, spans = mask_quotes((goal or "").strip())
    masked = restate(masked)  # 'My mobile number has changed to X. Please update it.': 'Update my ... to X'
    masked = split_situation(masked)  # "Her teeth seem fine so please cancel ...": two sentences
    masked = re.sub(  # a quoted sentence ends its own: ': "Call after 5pm." Keep the rest'
        r"(\x00(\d+)\x00)(?=\s+[A-Z])",
        lambda m: m.group(1) + ("." if spans[int(m.group(2))].rstrip().endswith((".", "!", "?")) else ""),
        masked,
    )
    sentences = [s for s in _SENTENCES.split(masked) if s.strip()]
    op, rest, described, verb, requests = "", "", "", "", 0
    for sentence in sentences:
        context = _CONTEXT.match(sentence)
        if context:  # 'In the wiki, make a new page ...', 'On the CodingStyle wiki page, ...'
            described = f"{described} {context.group('where')}".strip()
            sentence = sentence[context.end() :]
        head, comma, tail = sentence.partition(",")
        if comma and is_login_clause(head):  # 'Using dana@x.io / pw, invite ...'
            sentence = tail
        found, after = _op_of(sentence)
        requests += bool(found)
        if found and not op:
            op, rest = found, after
            verb = _FILLERS.sub("", sentence.strip()).split(" ", 1)[0].lower()
        elif not found and not op and not is_login_clause(sentence) and not _FIRST_PERSON.match(sentence):
            described = f"{described} {sentence}".strip()  # (not "I've switched email providers": news)
    search = _SEARCH.search(masked)
    first_found = bool(_FOUND.search(masked))
    if not op and search and first_found:
        op, rest = "open", ""
    if not op:
        return None
    body = rest.rstrip(" .!?")
    invited = invitation(body, spans) if verb == "invite" else None
    if invited:  # 'invite Priya Shah (priya@x.io) to the workspace with the Billing role': a new member
        return RecordGoal(
            op="create", noun="member", settings=invited, verb=verb, wording=masked, said=masked
        )
    if op == "create" and re.match(r"^\x00\d+\x00\s+(?:to|onto|into)\s+(?!me\b)", body, I):
        op = "append"  # 'add "Order a badge" to the Onboarding Checklist page': a line for a record that exists
    title = next((m.group("v") for m in _TITLE.finditer(body)), "")
    text = next((m.group("v") for m in _TEXT.finditer(body)), "")
    if not text:
        colon = _COLON_VALUE.search(body)
        text = colon.group("v") if colon else ""
    if not text and op in ("create", "comment"):
        bare = _BARE_TEXT.search(body)
        text = bare.group("v") if bare else ""
    if not text and op == "append":
        first = re.search(r"\x00\d+\x00", body)  # 'Append the line "Week 51: alice" to ...'
        text = first.group(0) if first else ""
    number = next(  # not 'card number 20417' of a log-in
        (
            n
            for n in (
                RECORD_NUMBER.search(x) for x in sentences if not is_login_clause(x) and not _AS_USER.match(x)
            )
            if n
        ),
        None,
    )
    about = ""
    noun = ""
    adds = False
    missed = missed_event(masked) if POINTS_BACK.match(body.strip(" .!?")) and requests == 1 else ""
    for m in _DESCRIBED.finditer(body if missed else f"{described} . {body}"):  # (the situation is no record)
        if m.group("how").lower() in ("titled", "called", "named", "with the title") and op == "create":
            continue
        noun = m.group("noun")
        about = m.group("d")
        break
    settings: list[tuple[str, str]] = []
    span = date_span(body) if op in ("create", "update") else ()
    if span:
        body = body.replace(span[2], " ")
    loose: list[str] = []
    stripped = body
    for rx in (_TITLE, _TEXT, *((_BARE_TEXT,) if text else ())):
        stripped = rx.sub(" ", stripped)
    for m in _VALUE_FIELD.finditer(stripped):
        settings.append((m.group("f").lower(), _clean(m.group("v"), spans)))
    stripped = _VALUE_FIELD.sub(" ", stripped)
    if about:
        stripped = stripped.replace(about, " ")
    assign = _ASSIGN.search(masked)
    if assign:
        settings.append(("assigned to", _clean(assign.group("v"), spans)))
        stripped = stripped.replace(assign.group(0), " ")
    renamed = re.match(r"^\s*(?:please\s+)?rename\b", masked, I)
    if renamed and not settings:
        to = _TO_VALUE.search(stripped)
        if to:
            settings.append(("title", _clean(to.group("v"), spans)))
            stripped = stripped[: to.start()]
    moved = (
        re.search(
            r"\bto\s+(?:the\s+)?(?P<f>(?-i:[a-z][\w-]*(?:\s+[a-z][\w-]*)?))\s+" + _V + r"\s*$", stripped, I
        )
        if op == "update"
        else None
    )
    if moved and not settings and moved.group("f").lower() not in _NOT_FIELDS | KINDS[0] | KINDS[1]:
        settings.append(
            (moved.group("f").lower(), _clean(moved.group("v"), spans))
        )  # 'move it to milestone 2.1'
        stripped = stripped[: moved.start()]
    verb_setting = _VERB_SETTING.match(stripped.strip()) if op in ("update", "close", "reopen") else None
    for m in [*_WITH_SETTING.finditer(stripped), *([verb_setting] if verb_setting else [])]:
        f = re.sub(r"\s+(?:of|on|for|in)$", "", m.group("f").strip().lower())  # ('the registration on ...')
        if (
            f.split()[0] in _NOT_FIELDS
            or m.group("v").lower()
            in ("to", "as", "for", "from", "and", "or")  # ('with Kestrel Lettings to X')
            or record_noun_in(f)
            or assign
            or (f, _clean(m.group("v"), spans)) in settings
        ):
            continue
        settings.append((f, _clean(m.group("v"), spans)))
    if not settings and op in ("update", "close", "reopen", "cancel"):
        to = _TO_VALUE.search(stripped)
        if to:
            loose.append(_clean(to.group("v"), spans))
    field_only = _FIELD_ONLY.match(stripped) if op == "update" and not (settings or loose) else None
    right = _NOT_OLD.search(f"{described} {body}") if field_only else None
    if field_only and right and field_only.group("f").split()[0].lower() not in _NOT_FIELDS:
        settings.append(
            (field_only.group("f").lower(), _clean(right.group("v"), spans))
        )  # 'fix its customer'
    if op == "comment" and text and _KEEP.search(masked):
        op = "append"  # 'Add a note ...: "...". Keep the existing notes.': the field's text stays
    if op == "open" and not (about or number or search or first_found):
        return None  # "open the settings": plain navigation, the grammar's job
    if op == "open" and _ASKS_OF.match(body):
        return None  # 'find out the total of invoice X': a question about the record, answered from its page
    if op in ("update", "comment") and not (settings or loose or text or title):
        return None
    if op in ("append", "update") and not about:
        target = re.search(
            r"\b(?:to|in|on|of)\s+(?:the\s+)?(?P<d>(?!\x00)[^:,\x00]+?)(?:\s+in\s+the\s+\w+)?\s*(?::|,|$)",
            body,
            I,
        )
        about = target.group("d") if target and op == "append" else ""
    names_own = op in ("act", "cancel") and bool(_OWN_WORDS.sub(" ", body).split())  # 'her vet ... the 10th'
    # 'I get paid mid-month now, so move my direct debit to the 15th': news of the user, no record's description
    mine = re.match(r"(?:i|we)(?:['’]m|['’]re|\s)", described, I) and re.match(r"(?:my|our)\s+\S", body, I)
    names_own = names_own or (op == "update" and bool(mine))
    if not about and not number and described and op != "create" and not names_own and not missed:
        about = _PREDICATE.sub(
            "", ARTICLE.sub("", described.strip(" .,"))
        ).strip()  # 'The dark mode colours ... are fixed now.'
    if (
        not about and not number and op in ("act", "cancel")
    ):  # 'renew my loan of X', 'withdraw my pending request'
        body = re.sub(r"^(?:me|us)\s+", "", body, flags=I)  # 'enrol me on X'
        body = _IN_ACCOUNT.sub("", body)  # 'renew X on my library account': where, not which
        item = (
            None
            if body[:1].isupper()
            else re.match(  # ('Bread Baking for Beginners' is one title)
                r"^(?:my|the|our|this|that)?\s*(?P<n>(?:[\w-]+\s+){0,3}?)(?:of|on|for|in)\s+(?P<d>.+)$",
                body,
                I,
            )
        )
        about = item.group("d") if item else ARTICLE.sub("", re.sub(r"^my\s+", "", body, flags=I))
        noun = noun or (item.group("n").split() or [""])[-1].lower() if item else noun
    if missed:  # ('cancel it'): what the user says they will miss, a booking
        about, noun = missed, noun or "booking"
    about = "" if search else _PAGE_WORD.sub("", about).strip()
    named = _NAMED.search(f"{described} . {body}") if not (about or number or search) else None
    if named and op != "create":
        about = named.group("d")  # 'the email of customer Bruno Keller', 'delete the customer "Test"'
    added = re.match(r"^(?:the\s+|a\s+|an\s+)?(?P<f>[a-z]+)\s+(?P<v>\x00\d+\x00|[\w.-]+)\s+to\b", body, I)
    if op == "create" and (about or number) and added:  # 'Add the keyword regression to the ticket about ...'
        op, adds = "update", True
        settings = [(added.group("f").lower(), _clean(added.group("v"), spans))]
    if op == "create" and not (title or text or settings):
        return None  # 'create a page' alone: nothing to prove it by
    return RecordGoal(
        op=op,
        noun=(noun or record_noun_in(f"{body} {described}")).lower(),
        about=_clean(about, spans),
        number=number.group("n") if number else "",
        title=_clean(title, spans),
        text=_clean(text, spans),
        settings=tuple(settings),
        loose=tuple(loose),
        search=_clean((search.group("q") or search.group("q2") or "") if search else "", spans),
        first_found=first_found,
        adds=adds,
        verb=verb if op in ("act", "cancel", "update") else "",
        span=span[:2],
        wording=re.sub(r"\x00\d+\x00", " ", masked).replace(title, " ")
        if title
        else re.sub(r"\x00\d+\x00", " ", masked),
        spans=spans,
        said=masked,
    )


def kind_of(text: str) -> frozenset[str]:
    """The kind of record ``text`` names (empty when it names none)."""
    words = set(re.findall(r"[a-z]+", text.lower()))
    words |= {w[:-1] for w in words if w.endswith("s")}
    return next((k for k in KINDS if k & words), frozenset())
