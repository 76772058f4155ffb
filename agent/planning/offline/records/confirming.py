"""What a confirmation page asks before it makes the change: a box to tick saying the user knows what it means
('I have read the cancellation terms'), or a word or name to type ('Type DELETE to confirm'). Both are part of
doing what was asked; marketing boxes beside them never are."""

from __future__ import annotations

import re

from agent.planning.offline.page import visible_text
from agent.planning.offline.records.forms import field_label
from agent.planning.offline.records.goal import RecordGoal
from agent.types import Element, Observation

#: A box the user ticks to say they know what the action means ('I have read the module handbook', 'I agree
#: to the cancellation terms'): part of doing what they asked, on the page that confirms it.
_ACKNOWLEDGE = re.compile(
    r"^\s*i(?:'ve|\s+have)\s+read\b|^\s*i\s+(?:agree|understand|accept|acknowledge|confirm)\b", re.I
)


#: What a tick box may offer beside the change, never ticked for the user: marketing, partners' offers.
NOT_ASKED = re.compile(
    r"\b(?:marketing|newsletters?|offers|promotions?|partners?|third\s+part(?:y|ies)|paperless|subscribe|"
    r"receive\s+(?:emails?|texts?|messages?|updates)|(?:email|text|message)\s+me|keep\s+me\s+(?:posted|updated)|"
    r"sign\s+me\s+up|tell\s+me\s+about)\b",
    re.I,
)


def acknowledgement(observation: Observation) -> Element | None:
    """The confirmation page's unticked 'I have read / I agree ...' box (None when there is none)."""
    return next(
        (
            e
            for e in observation.get("elements") or []
            if (e.get("role") or "") == "checkbox"
            and not e.get("checked")
            and _ACKNOWLEDGE.match(visible_text(e))
            and not NOT_ASKED.search(visible_text(e))
        ),
        None,
    )


_TYPE_TO_CONFIRM = re.compile(r"\btype\b.*\bto\s+confirm\b|\bconfirm\b.*\b(?:by\s+)?typing\b", re.I)


def confirm_typing(goal: RecordGoal, observation: Observation) -> tuple[str, str] | None:
    """(field, what to type) when the confirmation asks to type something first: the word it quotes ('Type
    DELETE to confirm') or, asked for the name, the item's own name ('Type the key name to confirm')."""
    for e in observation.get("elements") or []:
        label = " ".join(str(e.get(k) or "") for k in ("name", "text", "placeholder"))
        if (
            (e.get("role") or "") not in ("textbox", "searchbox")
            or e.get("value")
            or not _TYPE_TO_CONFIRM.search(label)
        ):
            continue
        quoted = re.search(r"[\"“'‘](?P<w>[^\"”'’]{1,40})[\"”'’]|\b(?P<caps>[A-Z]{3,})\b", label)
        said = (quoted.group("w") or quoted.group("caps")) if quoted else ""
        name = said or (goal.title or goal.about if re.search(r"\bname\b", label, re.I) else "")
        return (field_label(e) or visible_text(e), name.strip()) if name.strip() else None
    return None


#: A list asking why the user does it ('Why are you cancelling?', 'Reason for cancellation').
_ASKS_WHY = re.compile(r"\bwhy\b|\breasons?\b", re.I)
_PLAIN = frozenset(
    "i my me we our you your it its the a an to of for or and in on at by is are was has have had".split()
)


def reason_choice(goal: RecordGoal, observation: Observation) -> tuple[str, str] | None:
    """(list, option) when the confirmation asks why and the goal's own words say it: the one option whose words
    the goal says (all but one of four or more: 'My GP has changed my sertraline dose' -> 'My GP has changed my
    medicine or dose'), never denied ('my plans have not changed'); None when no option clearly is what the user
    said (the page then says what it needs: no reason is made up for them)."""
    wording = (goal.wording or "").lower()
    said = set(re.findall(r"[a-z0-9']+", wording)) - _PLAIN
    denied = {w for m in _DENIAL.finditer(wording) for w in re.findall(r"[a-z0-9']+", wording[m.end() :])[:5]}
    for e in observation.get("elements") or []:
        label = field_label(e) or visible_text(e)
        if (e.get("tag") or "") != "select" or not _ASKS_WHY.search(label) or not e.get("options"):
            continue
        fits = []
        for option in [str(o) for o in e.get("options") or []][
            1:
        ]:  # (the first is the prompt: 'Choose a reason')
            words = set(re.findall(r"[a-z0-9']+", option.lower())) - _PLAIN
            shared = words & said
            if len(shared) >= 2 and len(shared) >= 0.75 * len(words) and not shared & denied:
                fits.append(option)
        if len(fits) == 1:
            return label, fits[0]
    return None


#: A denial: the few words after it are not what the user says ('have not changed', "It's not that I found ...").
_DENIAL = re.compile(r"\b(?:not|no|never)\b|n't\b", re.I)
