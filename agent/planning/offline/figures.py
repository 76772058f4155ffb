"""Questions that ask a figure of a thing by their verb: what X charges for Y, what Y costs per night at X, what
X weighs, how much the damage excess of Y is. Each gives (attribute, entity) as :func:`questions.analyze` reads it.
"""

from __future__ import annotations

import re

#: A condition that leaves an option out: 'if I don't buy their excess cover', 'without insurance'.
_NOT_TAKEN = re.compile(r"\b(?:don['’]?t|do\s+not|didn['’]?t|won['’]?t|not|without|skip|decline|no)\b", re.I)


def figure_asked(core: str) -> tuple[str, str] | None:
    """(attribute, entity) of a question asking a figure by its verb, or None."""
    charged = re.match(  # 'what does Kestrel charge to rent a 7 seater for a week': the 7 seater, for a week
        r"^(?:what|how\s+much)\s+(?:does|do|would|will|did|might)\s+(?:it\s+cost|(?P<who>\S+(?:\s+\S+){0,3}?)\s+charge"
        r"(?:\s+(?:me|us|you))?)(?:\s+(?P<per>per\s+(?:cubic\s+|square\s+)?[a-z]+))?\s+(?:to\s+(?:(?:rent|hire|buy|get|"
        r"book|borrow|have|use|take)\s+)?|for\s+)(?:(?:a|an|the|my|our)\s+)?(?P<e>.+?)"
        r"(?:\s+(?:this|the\s+current)\s+(?:year|month)|\s+(?:now|currently|at\s+the\s+moment))?$",
        core,
        re.I,
    )
    if charged:  # ('charge to spay my labrador': the service is what is priced; who charges, where)
        who = (charged.group("who") or "").strip()
        at = (
            "" if not who or re.fullmatch(r"(?:they|you|we|he|she|it|the\s+\w+)", who, re.I) else f" at {who}"
        )
        per = (
            f" {charged.group('per')}" if charged.group("per") else ""
        )  # ('per cubic metre for waste water')
        return ("price", f"{charged.group('e').strip()}{per}{at}")
    part_of = re.match(  # 'how much is the damage excess of the electric car (if ...)': a figure of the car
        r"^how\s+much\s+is\s+the\s+(?P<a>[a-z][\w-]*(?:\s+[a-z][\w-]*){0,2})\s+of\s+(?:the\s+|a\s+|an\s+|my\s+)?"
        r"(?P<e>.+?)(?:\s+(?P<c>(?:if|unless|when|provided|assuming)\s+.+))?$",
        core,
        re.I,
    )
    if part_of and not (part_of.group("c") and not _NOT_TAKEN.search(part_of.group("c"))):
        # (the figure without an option ('if I don't buy their cover') is the one labelled so; with it ('if I buy
        # the cover') the page says another, which this reading does not pick)
        return (part_of.group("a"), part_of.group("e").strip())
    weighed = (
        re.match(  # 'what did Pepper weigh at her last weigh-in': Pepper's weight (not 'a bag that weighs')
            r"^(?:what|how\s+much)\s+(?:does|do|did|will|would)\s+(?:the\s+|a\s+|an\s+|my\s+)?"
            r"(?P<e>(?:(?!\b(?:that|which|who)\b).)+?)\s+weigh\b",
            core,
            re.I,
        )
    )
    if weighed:
        return ("weight", weighed.group("e").strip())
    priced = re.match(  # 'how much does the Samphire room cost per night at Saltings': the room, at Saltings
        r"^how\s+much\s+(?:does|do|did|will|would)\s+(?:it\s+cost\s+(?:to\s+\w+\s+)?)?(?:the\s+|a\s+|an\s+)?"
        r"(?P<e>.+?)\s+cost(?:s)?\s+(?:per|a|an|each|for\s+(?:one|a|an|each))\s+[a-z]+(?P<w>\s+(?:at|from|in)\s+.+)?$",
        core,
        re.I,
    )
    if priced:
        return ("price", f"{priced.group('e').strip()}{priced.group('w') or ''}")
    return None


#: 'What time does our flight back from Skellan leave?': the departure time of the return flight from Skellan.
_TRAVEL_TIME = re.compile(
    r"^(?:what\s+time|when)\s+(?:does|do|did|will|is)\s+(?:the\s+|our\s+|my\s+|a\s+)?(?P<x>.+?)\s+"
    r"(?P<v>leave|leaving|depart|departing|go|set\s+off|take\s+off|arrive|arriving|land|get\s+in)(?P<rest>\s+(?:from|to|for|on|at|in|tomorrow|today|tonight|this|next)\b.+)?$",
    re.I,
)
#: A leg of a journey said plainly ('the flight back') as a timetable or a booking names it ('Return').
_LEG = (
    (re.compile(r"\b(\w+)\s+back\b", re.I), r"return \1"),
    (re.compile(r"\b(\w+)\s+out\b", re.I), r"outbound \1"),
)


def travel_time_asked(core: str) -> str:
    """A question about when a journey leaves or arrives, said as the time a page's column names ('the departure
    time of the return flight from Skellan'); '' when ``core`` asks no such thing."""
    m = _TRAVEL_TIME.match(core.strip().rstrip("?.! "))
    if not m:
        return ""
    what = m.group("x") + (m.group("rest") or "")
    for rx, said in _LEG:
        what = rx.sub(said, what)
    kind = "arrival" if re.match(r"arriv|land|get", m.group("v"), re.I) else "departure"
    return f"what is the {kind} time of the {what.strip()}"
