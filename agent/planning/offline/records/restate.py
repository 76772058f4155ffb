"""Record goals said as news or as a list, restated in the wording ``records.goal`` reads.

People rarely say 'update my mobile number to X'. They say 'My mobile number has changed to X. Please update it
on my account', or 'Submit my meter readings: electric 24871, gas 08412'. Both carry a change the goal asks for;
restated as 'update my mobile number to X' and 'submit my meter readings with electric 24871 and gas 08412',
the one reading of record goals serves them (no second parser for the same settings).
"""

from __future__ import annotations

import re

from agent.planning.offline.clauses import without_courtesy
from agent.planning.offline.dates import DAY_AND_MONTH
from agent.planning.offline.text import SENTENCE_BREAK

I = re.IGNORECASE  # noqa: E741 - short alias keeps the patterns readable

_FIELD = r"(?P<f>[a-z][\w-]*(?:\s+[a-z][\w-]*){0,2})"
_VALUE = r"(?P<v>\S.*?)"
_END = r"\s*(?:,?\s+please)?\s*[.!]?\s*$"
#: 'My mobile number has changed to X', 'my new email address is X', 'our phone number is now X'.
_NEWS = (
    re.compile(
        r"^(?:(?:hi|hello|fyi|so|just\s+so\s+you\s+know)\b[,\s]*)?(?:my|our)\s+"
        + _FIELD
        + r"\s+(?:has|have)\s+(?:now\s+|just\s+)?changed\s+to\s+"
        + _VALUE
        + _END,
        I,
    ),  # fmt: skip
    re.compile(r"^(?:my|our)\s+new\s+" + _FIELD + r"\s+(?:is|will\s+be)\s*:?\s+" + _VALUE + _END, I),
    re.compile(r"^(?:my|our)\s+" + _FIELD + r"\s+is\s+now\s+" + _VALUE + _END, I),
    re.compile(
        r"^(?:I|we)(?:'ve|\s+have)\s+(?:got\s+)?a\s+new\s+" + _FIELD + r"\s*[:,-]\s*" + _VALUE + _END, I
    ),
)
#: What follows news of a change: the request to make it, which the restated change already is.
_MAKE_IT = re.compile(
    r"^(?:(?:please|kindly|so)\s+)?(?:(?:can|could|would)\s+you\s+(?:please\s+)?)?(?:update|change|amend|correct"
    r"|record|put)\s+(?:it|this|that|them|the\s+record|my\s+(?:[\w'-]+\s+){0,3}(?:details|record|account|profile))"
    r"\b.*$",
    I,
)
#: 'electric 24871', 'gas 08412', 'water: 512': a field's words and its value in a list after a colon.
_PAIR = re.compile(r"^\s*(?P<f>[a-z][\w-]*(?:\s+[a-z][\w-]*)?)\s*:?\s+(?P<v>\d[\w./-]*)\s*$", I)
_LIST = re.compile(r"^(?P<head>[^:\x00]*?\S)\s*:\s+(?P<items>[^:]+?)\s*[.!]?\s*$")
_SENTENCE_END = re.compile(SENTENCE_BREAK)


#: A day said before and pointed back at: 'an exam on Friday 11 June, so ... cancel my lesson that day'.
_DAY = re.compile(rf"\b{DAY_AND_MONTH}", I)
_THAT_DAY = re.compile(r"\b(?:on\s+)?(?:that|the\s+same)\s+day\b", I)
#: What leaves the rest of a record as it is: 'Keep the amount as it is', '- nothing else needs changing'.
_AS_IT_IS = re.compile(
    r"^(?:please\s+)?keep\s+(?:it|the\s+rest|everything\s+else|the\s+\w+(?:\s+\w+)?)\s+(?:as\s+it\s+is|the\s+same|"
    r"unchanged)\b.*$|^(?:and\s+)?nothing\s+else\s+(?:needs?|has)\s+(?:to\s+)?chang(?:e|es|ing)\b.*$",
    I,
)


def restate(masked: str) -> str:
    """``masked`` (quotes masked) with news of a change and a list of readings in the wording of a record
    goal, a day pointed back at ('that day') said again, and what only keeps the rest as it is left out; every
    other sentence as it was."""
    masked = re.sub(r"\s+[-–—]\s+(nothing\s+else\s+needs?\s+chang\w*)", r". \1", masked, flags=I)
    days = set(_DAY.findall(masked))
    if len(days) == 1:  # (said before or after: the goal's clauses may come back in another order)
        masked = _THAT_DAY.sub(f"on {days.pop()}", masked)
    sentences = [s for s in _SENTENCE_END.split(masked.strip()) if not _AS_IT_IS.match(s.strip(" .!"))]
    if any(_OTHER_CHANGE.search(s) and not _MAKE_IT.match(s.strip()) for s in sentences):
        return " ".join(_listed(s) for s in sentences)  # news beside a change of its own is the situation
    out: list[str] = []
    news = False
    for sentence in sentences:
        changed = _news(sentence)
        if changed:
            out.append(changed)
            news = True
            continue
        if news and _MAKE_IT.match(sentence.strip()):
            continue  # 'Please update it on my account': the change restated above is that request
        out.append(_listed(sentence))
    return " ".join(out)


#: Fields news of which is no change to make here: the account's own log-in ('My username is now dana_k').
_CREDENTIAL = re.compile(
    r"\b(?:password|passcode|passphrase|pin|user\s*name|username|login|log-in|account)\b", I
)
#: A request for a change of its own, beside which news is only the situation.
_OTHER_CHANGE = re.compile(
    r"\b(?:update|change|set|switch|move|cancel|delete|remove|add|submit|book|order|renew|close|edit|correct|"
    r"replace)\s+(?!(?:it|this|that|them)\b)",
    I,
)


def _news(sentence: str) -> str:
    sentence = without_courtesy(sentence)  # 'Hi, I've got a new mobile number, ...'
    for rx in _NEWS:
        m = rx.match(sentence.strip())
        value = m.group("v").strip() if m else ""
        # a value as people give one (a number, an address, an email, a name), never 'locked' or 'behind'
        if m and not _CREDENTIAL.search(m.group("f")) and re.match(r"(?:\S*[\d@]|[A-Z])", value):
            return f"Update my {m.group('f')} to {value}."
    return ""


def _listed(sentence: str) -> str:
    """'Submit my readings: electric 24871, gas 08412' -> '... with electric 24871 and gas 08412' when every
    item of the list is a field's words and a figure; the sentence as it was otherwise."""
    m = _LIST.match(sentence.strip())
    if not m:
        return sentence
    items = [i for i in re.split(r"\s*(?:,|;|\band\b)\s*", m.group("items")) if i.strip()]
    pairs = [_PAIR.match(i) for i in items]
    if len(items) < 2 or not all(pairs):
        return sentence
    said = " and ".join(f"{p.group('f')} {p.group('v')}" for p in pairs if p)
    return f"{m.group('head')} with {said}."
