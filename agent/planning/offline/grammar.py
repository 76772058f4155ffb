"""The goal grammar: plain imperative English (and compositions of it) -> an ordered tuple of intents.

Quoted values are masked first so nothing inside quotes is ever split or reinterpreted. The goal is cut at
hard separators ("then", ";", newlines, sentence ends) and at soft ones ("and", commas) only where the next
words start a new command, so "search for salt and pepper" stays one search. Each clause is tried against
ordered rules; a clause no rule understands makes the whole goal not understood (never a partial guess).
Plan steps are rendered in a canonical subset of the same grammar, so ``parse_goal(step)`` reads them back.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

from agent.planning.offline.account_rules import parse_booking_reference, parse_login, parse_signup
from agent.planning.offline.clauses import split_clauses, split_situation, without_courtesy
from agent.planning.offline.credentials import account_details
from agent.planning.offline.form_rules import (
    parse_booking,
    parse_booking_person,
    parse_cart,
    parse_check,
    parse_click,
    parse_form,
    parse_hover,
    parse_select,
    parse_submit,
    parse_type,
)
from agent.planning.offline.intents import (
    Ask,
    Click,
    Intent,
    PressKey,
    Search,
    Submit,
    TypeText,
)
from agent.planning.offline.message_rules import parse_about_me, parse_choice_of_field, parse_contact
from agent.planning.offline.page_rules import (
    BARE_FINDERS,
    DOCUMENT_SCOPE,
    QUESTION_START,
    SCOPE_CLAUSE,
    Rule,
    parse_answer,
    parse_back,
    parse_dismiss,
    parse_end_scroll,
    parse_key,
    parse_navigate,
    parse_question,
    parse_scroll,
    parse_search,
    parse_url,
    parse_wait,
)
from agent.planning.offline.questions import analyze
from agent.planning.offline.situations import CONTEXT, DETAIL, NEWS, in_context, pointing_at
from agent.planning.offline.targets import question_text, shown
from agent.planning.offline.text import (
    mask_quotes,
)


@dataclass(frozen=True)
class ParsedGoal:
    """The goal as intents, or the clauses that were not understood."""

    goal: str
    intents: tuple[Intent, ...]
    unknown: tuple[str, ...] = ()
    context: tuple[str, ...] = ()  # sentences that told the situation a question is asked in (no request)

    @property
    def understood(self) -> bool:
        return bool(self.intents) and not self.unknown

    @property
    def actions(self) -> tuple[Intent, ...]:
        return tuple(i for i in self.intents if not isinstance(i, Ask))

    @property
    def questions(self) -> tuple[Ask, ...]:
        return tuple(i for i in self.intents if isinstance(i, Ask))


SUPPORTED_PHRASINGS = (
    "go to / open / visit <url or page name>",
    "search for <text>",
    "click / tap / press <button or link>; a menu path: select A>B>C; hover over / point at <item>",
    "type <text> into <field>; fill <field> with <text>; enter <text> as <field>",
    "select <option> from <dropdown>",
    "check / uncheck <checkbox>",
    "press <key>",
    "scroll down / up / to the bottom",
    "log in as <user> with password <password>",
    "sign up / subscribe with <email>",
    "go back",
    "questions: what is / how many / find / list / tell me ...",
)


RULES: tuple[Rule, ...] = (
    parse_answer,
    parse_contact,
    parse_about_me,
    parse_choice_of_field,
    parse_form,
    parse_booking,
    parse_booking_person,
    parse_url,
    parse_back,
    parse_dismiss,
    parse_login,
    parse_booking_reference,
    parse_signup,
    parse_end_scroll,
    parse_search,
    parse_key,
    parse_scroll,
    parse_wait,
    parse_submit,
    parse_select,
    parse_check,
    parse_type,
    parse_cart,
    parse_hover,
    parse_navigate,
    parse_click,
    parse_question,
)


def parse_clause(clause: str, spans: tuple[str, ...]) -> list[Intent] | None:
    """Intents of one masked clause, or None when no rule understands it."""
    question_mark = clause.rstrip().endswith("?")
    c = clause.rstrip().rstrip("?").strip()
    if question_mark and QUESTION_START.match(c):
        return parse_question(clause, spans)
    for rule in RULES:
        intents = rule(c, spans)
        if intents:
            return intents
    if question_mark and not _CHANGE_ASKED.match(c):
        return parse_question(clause, spans)
    return None  # ('could you book Leo onto the Lego club?' asks for a change, never a reading: the records')


#: A request for a change said as a question ('could you book X onto Y?', 'can you cancel my order?'): what it
#: asks is done, not answered.
_CHANGE_ASKED = re.compile(
    r"^(?:book|reserve|cancel|update|change|renew|order|add|remove|delete|create|file|edit|apply|register|enrol+|"
    r"enroll|sign\s+(?:\w+\s+)?up|subscribe|unsubscribe|submit|send|pay|buy|purchase|arrange|schedule|reschedule|"
    r"set\s+up|report|give\s+notice|put|place|move|withdraw|raise|log|amend|correct|close)"
    r"(?![\w-])\s+(?:(?:my|our|the|a|an|it|this|that|these|those|his|her|their|me|us|him|them)\b|(?-i:[A-Z]))"
    r"(?!.*\b(?:what|when|where|which|who|whom|whose|why|how|if|whether)\b)",
    re.I,
)


_SEND = Submit("send")


def _merge(intents: list[Intent]) -> list[Intent]:
    """Fold 'type X ... and press Enter' into one submitting type; move questions after the actions."""
    out: list[Intent] = []
    for intent in intents:
        prev = out[-1] if out else None
        if isinstance(intent, PressKey) and intent.key == "Enter":
            if isinstance(prev, TypeText) and not prev.submit:
                out[-1] = TypeText(prev.text, prev.field, True)
                continue
            if isinstance(prev, Search):
                continue
        out.append(intent)
    actions = [i for i in out if not isinstance(i, Ask) and i != _SEND]
    questions = [i for i in out if isinstance(i, Ask)]
    return actions + [_SEND] * (_SEND in out) + questions  # a message goes once all its values are in


#: 'Switch between the tabs to find and click X', 'Expand the sections below, to find and click on X': the
#: means before 'to' is how to get there, and the offline planner's grounding finds its own way (it opens
#: collapsed content and tabs when the target is hidden), so only the purpose is kept.
_MEANS = re.compile(
    r"^\s*(?:switch|expand|open|scroll|look|browse|go|navigate|page|flip|move)\b[^.;:]{0,60}?,?\s+(?:in\s+order\s+)?"
    r"to\s+(?:find\s+and\s+|locate\s+and\s+|then\s+)?(?=(?:click|tap|press|select|choose|open)\b)",
    re.I,
)


#: 'Select nothing', 'check none of them': a choice to leave every option as it is; nothing to do.
_NOTHING = re.compile(
    r"^\s*(?:select|check|choose|pick|tick|mark)\s+(?:nothing|none(?:\s+of\s+(?:them|the\s+\w+))?)\s*$", re.I
)


#: 'look at my council tax account': where the answer is, which the account's log-in and the question reach.
_INTO_ACCOUNT = re.compile(
    r"^(?:look|go|get|check)\s+(?:at|in|into|on|through)?\s*(?:my|our|the)\s+(?:[\w'&-]+\s+){0,3}account$",
    re.I,
)


#: A condition a question is asked under: 'If I cancel with less than a day's notice, what fee ...?'
_CONDITION = re.compile(r"^(?:if|when|whenever|in\s+case)\s+(?!so$|not$)\w+(?:\s+\S+){2,}$", re.I)
#: A condition naming the one thing the user would buy or add: 'If I add a 23kg hold bag online' - what a question
#: after it calls 'it' ('how much will it cost?'). Never with a count, a stay or a place ('two bags', 'for three
#: nights', 'at the airport'): the thing's own price is not what those cost.
_BUYING = re.compile(
    r"^(?:if|when)\s+(?:i|we)\s+(?:(?:want|wanted|were|decide|choose)\s+to\s+)?(?:add|buy|book|order|bring|take|"
    r"hire|rent|get|pick|choose|upgrade\s+to|pay\s+for)\s+(?P<what>(?:an?|the|one)\s+(?:(?!\b(?:for|at|in|on|by|to|from|"
    r"and|two|three|four|\d+\s+(?:nights?|days?|weeks?|people|adults?|children))\b).)+?)$",
    re.I,
)
_IT = re.compile(r"\b(?:it|that|this)\b(?=\s+(?:cost|be)\b)", re.I)
#: A question that goes on from the one before: 'If so, how much is it?'
_GOES_ON = re.compile(r"^(?:and\s+)?if\s+(?:so|yes|not|there\s+is|there\s+are)$", re.I)
_IS_THERE = re.compile(r"^(?:is|are)\s+there\s+(?:an?|any)\s+(?P<x>.+?)\??$", re.I)


def _resolve_references(intents: list[Intent]) -> list[Intent]:
    """'Search for X, then tell me its warranty': the question is about X. Without this the question is read
    alone, and 'its warranty' names nothing a page could be searched or a link followed for."""
    out: list[Intent] = []
    subject = ""
    for intent in intents:
        if isinstance(intent, Search):
            subject = re.sub(r"^(?:the|a|an)\s+", "", intent.query.strip(), flags=re.I)
        elif isinstance(intent, Click) and intent.target and not intent.ordinal:
            subject = intent.target
        elif isinstance(intent, Ask):
            if subject:
                question = pointing_at(intent.question, f"the {subject}")
                intent = Ask(question) if question != intent.question else intent
            subject = _asked_about(intent.question) or subject
        out.append(intent)
    return out


#: 'Who is the councillor for Riverside ward': the one a later 'their email' is about.
_WHO_IS = re.compile(r"^\s*who(?:['’]s|\s+is|\s+was|\s+are)\s+(?:the\s+)?(?P<x>.+?)\s*\??$", re.I)


def _asked_about(question: str) -> str:
    """What a question is about, for a pronoun in the next one ('and what is their email'): the one a 'who is'
    question describes, else the thing it names."""
    who = _WHO_IS.match(question)
    if who:
        return who.group("x")
    query = analyze(question)
    entity = re.sub(r"^(?:the|a|an)\s+", "", query.entity, flags=re.I)
    return f"{query.noun} about {entity}" if query.by_topic and entity else entity


def _asks(clauses: list[str], spans: tuple[str, ...]) -> bool:
    """The clause (if any) is a question alone."""
    asked = parse_clause(clauses[0], spans) if clauses else None
    return bool(asked) and len(asked) == 1 and isinstance(asked[0], Ask)


#: 'Use my Ropeworks account (RW-2291 / pw) to book ...', 'Using my society login (x@y / pw), order ...': the
#: account to log in with, then what to do.
_USE_ACCOUNT = re.compile(
    r"(?:^|(?<=[.!?]\s))(?:use|using)\s+(?:my|our|the)\s+(?:[\w'&.-]+\s+){0,4}?(?:account|login|log-in|"
    r"credentials)\s*\((?P<creds>[^()/]+/[^()]+|[^()]*\b(?:password|passphrase|passcode|pin)\b[^()]*)\)\s*"
    r"(?:,\s*|\s+to\s+)",
    re.I,
)


#: Words in brackets: '... on my account? (ref BV-204417, password Kestrel-19)'.
_ASIDE = re.compile(r"\s*\((?P<in>[^()]{3,})\)")


def _aside(m: re.Match[str], spans: tuple[str, ...]) -> str:
    """Account details in brackets are no part of the value before them ('update my mobile to 07700 900 562 (ref
    X, password Y)' types no password into the mobile's field): they are the log-in said first."""
    before = m.string[: m.start()].split()[-1:] or [""]
    after_value = re.search(r"[.?!]$|\d|@", before[0])  # ('Log into Brightwell (...)' names the site too)
    return "" if after_value and account_details(m.group("in"), spans) else m.group(0)


@lru_cache(maxsize=1024)
def parse_goal(goal: str) -> ParsedGoal:
    """Parse a goal (or a plan step) into intents. Never raises; unknown clauses are reported, not guessed."""
    text = without_courtesy((goal or "").strip())
    if not text:
        return ParsedGoal(goal="", intents=(), unknown=("(empty goal)",))
    masked, spans = mask_quotes(text)
    intents: list[Intent] = []
    unknown: list[str] = []
    context: list[str] = []
    news = False
    answer = parse_answer(masked.strip(), spans)
    if answer:
        return ParsedGoal(goal=text, intents=tuple(answer))
    masked = _MEANS.sub("", masked)
    masked = _USE_ACCOUNT.sub(lambda m: f"Log in as {m.group('creds').strip()}. ", masked)
    asides = [m.group("in") for m in _ASIDE.finditer(masked) if not _aside(m, spans)]
    masked = _ASIDE.sub(lambda m: _aside(m, spans), masked)
    masked = (
        "".join(f"Log in as {a}. " for a in asides) + masked
    )  # (the account first, then what to do in it)
    scope = ""
    clauses = split_clauses(split_situation(masked), spans)
    for k, clause in enumerate(clauses):
        if _INTO_ACCOUNT.match(clause) and any(_asks([c], spans) for c in clauses[k + 1 :]):
            continue  # (read past only for a question that follows; else it is a step of its own)
        if BARE_FINDERS.match(clause) or _NOTHING.match(clause):
            continue
        if _GOES_ON.match(clause) and _asks(clauses[k + 1 : k + 2], spans):
            asked_first = intents[-1].question if intents and isinstance(intents[-1], Ask) else ""
            thing = _IS_THERE.match(asked_first)
            if thing:  # 'Is there a minimum spend? If so, how much is it?': how much is the minimum spend
                intents.pop()
                clauses[k + 1] = re.sub(
                    r"\b(?:it|they|that)\b", f"the {thing.group('x')}", clauses[k + 1], count=1
                )
            continue
        if SCOPE_CLAUSE.match(clause) or (
            (DOCUMENT_SCOPE.match(clause) or _CONDITION.match(clause))
            and _asks(clauses[k + 1 : k + 2], spans)
        ):
            scope = clause  # 'In the Logging section of the reference,' belongs to the question after it
            continue
        if scope:
            asked = parse_clause(clause, spans) or []
            if len(asked) == 1 and isinstance(
                asked[0], Ask
            ):  # (a condition follows its question: 'what fee if ...')
                said = f"{clause.rstrip(' ?')} {scope}" if _CONDITION.match(scope) else f"{scope}, {clause}"
                bought = _BUYING.match(scope)
                if bought and _IT.search(
                    clause
                ):  # 'If I add a hold bag, how much will it cost': the bag's cost
                    said = _IT.sub(bought.group("what"), clause, count=1)
                intents.append(Ask(question_text(said, spans)))
                scope = ""
                continue
            unknown.append(shown(scope, spans))
            scope = ""
        found = parse_clause(clause, spans)
        situation = CONTEXT.match(clause) or NEWS.match(clause)
        if found is None and situation and "?" not in clause and not DETAIL.search(clause):
            context.append(clause)
            news = news or not CONTEXT.match(clause)
        elif found is None:
            unknown.append(shown(clause, spans))
        else:
            intents.extend(found)
    if scope:
        unknown.append(shown(scope, spans))
    if context and not any(isinstance(i, Ask) for i in intents):
        unknown.extend(shown(c, spans) for c in context)  # said beside an action, it may be a detail: unread
    elif context:
        read = [in_context(i, context, spans, news) if isinstance(i, Ask) else i for i in intents]
        if any(
            i is None for i in read
        ):  # 'What's its call number?' after a situation naming nothing it can be
            unknown.extend(shown(c, spans) for c in context)
        else:
            intents = [i for i in read if i is not None]
    if not intents and not unknown:
        unknown.append(text)
    return ParsedGoal(
        goal=text,
        intents=tuple(_merge(_resolve_references(intents))),
        unknown=tuple(unknown),
        context=() if unknown else tuple(shown(c, spans) for c in context),
    )


def not_understood_message(parsed: ParsedGoal) -> str:
    """What could not be understood, and what can be said instead (the first sentence says it all)."""
    missing = "; ".join(f'"{u}"' for u in parsed.unknown) or f'"{parsed.goal}"'
    return (
        "The offline planner does not understand this wording; configure a model (see README). "
        f"It could not understand {missing}. It supports plain English commands, joined by 'then', 'and', "
        "commas or new lines: " + "; ".join(SUPPORTED_PHRASINGS) + '. Quote exact values, e.g. type "alice" '
        'into "Username".'
    )
