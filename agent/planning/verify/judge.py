"""Judging a completion claim against the goal's parts, on recorded evidence only.

Each part is proven by something the page showed: an answer by a quote from a block that also names the goal's
subject (never from an error page or our own messages), an action by the effect recorded after it on the element
the goal names, a place by the URL, title or heading. The verdict lists the evidence found and what is missing;
the caller turns it into ``goal_satisfied`` only when nothing is missing.
"""

from __future__ import annotations

import re
from typing import Any
from urllib.parse import unquote_plus

from typing_extensions import TypedDict

from agent.dom.text import mentioned_in_passing
from agent.evidence import keywords
from agent.planning.offline.dates import FIELD_DATE_HINTS, WIRE_FORMATS, field_value, wire_value
from agent.planning.offline.page import CLICK_ROLES
from agent.planning.offline.split_dates import date_spellings
from agent.planning.verify.answers import answer_evidence
from agent.planning.verify.changes import change_evidence
from agent.planning.verify.parts import GoalPart
from agent.planning.verify.tool_results import tool_answer_evidence
from agent.util.elements import summary_parts
from agent.util.page_errors import is_error_message


class Evidence(TypedDict, total=False):
    """What proves one part: result.json's ``evidence`` entries."""

    part: str  # the part's id
    kind: str  # answer | effect | state | url
    step: int
    url: str
    element: str
    quote: str


class Verdict(TypedDict):
    evidence: list[Evidence]
    missing: list[str]  # one line per unproven part
    error: str  # an error the page showed after the last step ("" if none)


#: The recorded steps (history items) a part is judged on.
Items = list[dict[str, Any]]
#: What a part's check finds: the evidence, or None and the line that says what is missing.
Proof = tuple[Evidence | None, str]

_LOGOUT = re.compile(r"\b(?:log\s*-?\s*out|sign\s*-?\s*out|logout|signout)\b", re.I)


def _norm(text: Any) -> str:
    return " ".join(str(text or "").lower().split())


def _effect(item: dict[str, Any]) -> dict[str, Any]:
    return item.get("effect") or {}


def _said(item: dict[str, Any]) -> str:
    """Everything that names what a step acted on: its target, plan step and arguments."""
    args = item.get("args") or {}
    return _norm(" ".join(str(v) for v in (item.get("target"), item.get("plan_step"), *args.values()) if v))


def _says(word: str, text: str) -> bool:
    """``word`` (or, for a long word, its first five letters: deployment ~ deploying) appears in ``text``."""
    return word in text or (len(word) >= 6 and word[:5] in text)


def _names(part: GoalPart, item: dict[str, Any]) -> bool:
    """The step acted on what the part names: the element acted on, the option it chose, or the page it led to
    (title, URL, new text) carries at least half of the part's words (a menu item one level up is not it). A
    part without words (the first result) is matched by its offline plan step; an unread clause by the step's
    own text."""
    words = keywords(part.get("target") or "")
    if not words:
        return bool(part.get("step")) and item.get("plan_step") == part.get("step")
    if part.get("kind") == "task":
        said = _said(item)
    else:
        effect = _effect(item)
        args = " ".join(str(v) for v in (item.get("args") or {}).values())
        led_to = f"{effect.get('title') or ''} {effect.get('url') or ''}" if effect.get("url_changed") else ""
        said = _norm(f"{item.get('target') or ''} {args} {led_to}")
    if part.get("kind") != "task" and _mentioned_in_passing(words, item):
        return False
    return sum(1 for w in words if _says(w, said)) >= max(1, (len(words) + 1) // 2)


#: Kinds of element (role, else tag) that are controls: their label is their name, however long.
_CONTROLS = CLICK_ROLES | {
    "a",
    "button",
    "summary",
    "label",
    "input",
    "select",
    "textarea",
    "combobox",
    "textbox",
}


def _mentioned_in_passing(words: list[str], item: dict[str, Any]) -> bool:
    """The step acted on a block of text, not a control, that holds the part's words among more of its own: a
    tip reading 'choose File>Export>PDF' is not the menu item 'PDF', whatever the page did after the click."""
    kind, label = summary_parts(item.get("target"))
    return bool(label) and kind not in _CONTROLS and mentioned_in_passing(label, " ".join(words))


def _from_effect(part: GoalPart, item: dict[str, Any], quote: str) -> Evidence:
    return {
        "part": part.get("id", ""),
        "kind": "effect",
        "step": int(item.get("step") or 0),
        "url": str(_effect(item).get("url") or item.get("url") or ""),
        "element": str(item.get("target") or item.get("action") or ""),
        "quote": quote[:300],
    }


def _ok_items(history: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [
        h for h in history if h.get("status") == "success" and h.get("action") not in ("translate", "done")
    ]


def _value_holds(expected: str, target: dict[str, Any], secret: bool) -> bool:
    if secret or target.get("secret"):  # (typed_len: a <secret:NAME> placeholder stood for a longer value)
        return int(target.get("value_len") or -1) == int(target.get("typed_len") or len(expected))
    held = _norm(target.get("value"))
    want = _norm(expected)
    return bool(want) and (held == want or (want in held and len(held) <= len(want) + 2))


def _forms(value: Any) -> set[str]:
    """The requested value and the same date or time as an input's wire value ("05/20/2010" -> "2010-05-20"):
    typing either into the field does what the goal asked."""
    text = str(value or "")
    wired = {_norm(wire_value(text, kind)) for kind in WIRE_FORMATS}
    figures = {_norm(field_value(text, "", hint)) for hint in FIELD_DATE_HINTS}
    # ('04/03/1972' is 4 March one way and 3 April the other: only a date that reads one way proves itself)
    return {_norm(text)} | wired | {f for f in figures if not _either_way(f)}


def _either_way(figures: str) -> bool:
    m = re.fullmatch(r"(\d{1,2})[/.-](\d{1,2})[/.-]\d{2,4}", figures)
    return bool(m) and m.group(1) != m.group(2) and int(m.group(1)) <= 12 and int(m.group(2)) <= 12


def _field(part: GoalPart, items: Items, observation: dict[str, Any]) -> Proof:
    forms = _forms(part.get("value"))
    typed = [
        h for h in items if h.get("action") == "type" and _norm((h.get("args") or {}).get("text")) in forms
    ]
    if not typed:  # a value the page asks for in a dropdown ('Number of places: 2') is chosen, not typed
        chosen = _option(part, [h for h in items if h.get("action") == "select_option"])
        chosen = chosen if chosen[0] else _in_parts(part, items, observation)
        return chosen if chosen[0] else (None, f"{part.get('text')}: nothing was typed")
    for item in reversed(typed):
        effect = _effect(item)
        target = effect.get("target") or {}
        if effect.get("errors"):
            return None, f"{part.get('text')}: the page answered {effect['errors'][0]!r}"
        if _value_holds(str((item.get("args") or {}).get("text") or ""), target, bool(part.get("secret"))):
            shown = (
                f"{target.get('value_len')} characters" if part.get("secret") else str(target.get("value"))
            )
            return _from_effect(part, item, f"field holds {shown}"), ""
    return None, f"{part.get('text')}: typed, but the field does not show the value"


def _in_parts(part: GoalPart, items: Items, observation: dict[str, Any]) -> Proof:
    """A date put into Day, Month and Year fields: each field's last step shows its part of the date (read as
    the site writes dates: '12/05/1988' is 12 May on a page in pounds)."""
    spellings = date_spellings(str(part.get("value") or ""), observation)
    last: dict[str, dict[str, Any]] = {}  # each field's last step: a part typed over no longer holds it
    for item in items if spellings else []:
        quoted = re.search(r'"([^"]*)"', str(item.get("target") or ""))
        name = _norm(
            quoted.group(1) if quoted else ""
        )  # the field's own name is the part: 'Day', not 'Which day?'
        for field, names in (
            ("day", ("day", "dd")),
            ("month", ("month", "mm")),
            ("year", ("year", "yyyy", "yy")),
        ):
            if name in names:
                last[field] = item
    held = {
        field: item
        for field, item in last.items()
        if any(_norm(s) in (spellings or {})[field] for s in _shown(item) if s)
    }
    if len(held) < 3:
        return None, ""
    return _from_effect(part, held["year"], "the day, month and year fields hold the date"), ""


def _shown(item: dict[str, Any]) -> list[Any]:
    target = _effect(item).get("target") or {}
    return [*(target.get("selected") or []), target.get("value")]


def _option(part: GoalPart, items: Items) -> Proof:
    want = _norm(part.get("value"))
    for item in reversed(items):
        target = _effect(item).get("target") or {}
        if any(_norm(s) == want for s in target.get("selected") or []):
            return _from_effect(part, item, f"selected {want!r}"), ""
    return None, f"{part.get('text')}: no step shows the option selected"


def _checked(part: GoalPart, items: Items, observation: dict[str, Any]) -> Proof:
    on = bool(part.get("on", True))
    for item in reversed(items):
        target = _effect(item).get("target") or {}
        if _names(part, item) and target.get("checked") is on:
            return _from_effect(part, item, f"checked={on}"), ""
    words = keywords(part.get("target") or "")
    for element in observation.get("elements") or []:
        label = _norm(f"{element.get('name')} {element.get('text')}")
        if element.get("checked") is on and words and all(w in label for w in words):
            return {
                "part": part.get("id", ""),
                "kind": "state",
                "step": 0,
                "url": str(observation.get("url") or ""),
                "element": f'{element.get("role") or element.get("tag")} "{element.get("name") or ""}"',
                "quote": f"checked={on}",
            }, ""
    return None, f"{part.get('text')}: the page does not show it"


# A message that says the work is still under way ("Sending your feedback…", "Please wait"): not yet an outcome.
_PENDING = re.compile(
    r"^\W*(?:sending|submitting|saving|processing|loading|uploading|working|redirecting|checking|verifying|"
    r"validating|placing|confirming|signing\s+in|logging\s+in|updating|creating|connecting)\b|\bplease wait\b|"
    r"^\W*\w+ing\b[^.!?]{0,60}(?:…|\.\.\.)\s*$",
    re.I,
)


def _still_pending(effect: dict[str, Any]) -> str:
    """The pending message when the only new text on the same page says the work is still under way."""
    shown = [str(t) for t in effect.get("appeared") or []]
    if not effect.get("navigated") and shown and all(_PENDING.search(t) for t in shown):
        return shown[0]
    return ""


def _changed(part: GoalPart, items: Items, *, after: int = 0) -> Proof:
    """A step on what the part names whose effect changed the page and showed no error."""
    named = [h for h in items if _names(part, h) and int(h.get("step") or 0) > after]
    if not named:
        return None, f"{part.get('text')}: no step acted on it"
    for item in reversed(named):
        effect = _effect(item)
        if effect.get("errors"):
            return None, f"{part.get('text')}: the page answered {effect['errors'][0]!r}"
        if effect.get("http_status"):  # a link to a missing or broken page changes the page too
            return None, f"{part.get('text')}: the page it led to answered HTTP {effect['http_status']}"
        target = effect.get("target") or {}
        if part.get("kind") == "choose" and (target.get("checked") or target.get("selected")):
            return _from_effect(part, item, effect.get("summary") or "chosen"), ""
        pending = _still_pending(effect)
        if pending:
            return None, f"{part.get('text')}: the page still says {pending!r}"
        if effect.get("changed"):
            return _from_effect(part, item, effect.get("summary") or "the page changed"), ""
    return None, f"{part.get('text')}: the step ran but nothing changed on the page"


_SUBMITS = ("click", "press_key", "type")


def _submitted(part: GoalPart, items: Items, fields_done: int) -> tuple[dict[str, Any] | None, str]:
    """The step that sent the form: the first click, Enter, or typing with submit after the fields that
    changed the page without an error (an earlier rejected attempt does not spoil a later accepted one)."""
    rejected = ""
    for item in items:
        if int(item.get("step") or 0) < fields_done or item.get("action") not in _SUBMITS:
            continue
        args = item.get("args") or {}
        if item.get("action") == "type" and not args.get("submit"):
            continue
        if item.get("action") == "press_key" and str(args.get("key", "")).lower() != "enter":
            continue
        effect = _effect(item)
        if effect.get("errors"):
            rejected = f"{part.get('text')}: the page answered {effect['errors'][0]!r}"
        elif effect.get("changed"):
            pending = _still_pending(effect)
            if pending:
                rejected = f"{part.get('text')}: the page still says {pending!r}"
                continue
            return item, ""
    return None, rejected or f"{part.get('text')}: no step sent the form and changed the page"


def _login(part: GoalPart, items: Items, observation: dict[str, Any], fields_done: int) -> Proof:
    item, missing = _submitted(part, items, fields_done)
    if item is None:
        return None, missing
    later = [h for h in items if int(h.get("step") or 0) >= int(item.get("step") or 0)]
    user = _norm(part.get("value"))
    for h in later:
        effect = _effect(h)
        shown = list(effect.get("appeared") or [])
        hit = next((t for t in shown if user and re.search(rf"\b{re.escape(user)}\b", _norm(t))), None)
        if hit:
            return _from_effect(part, h, f"signed-in name shown: {hit}"), ""
    elements = observation.get("elements") or []
    logout = next(
        (e for e in elements if _LOGOUT.search(f"{e.get('name') or ''} {e.get('text') or ''}")), None
    )
    if logout is not None:
        return _from_effect(
            part, item, f"logout control shown: {logout.get('name') or logout.get('text')}"
        ), ""
    password_left = not any(e.get("input_type") == "password" for e in elements)
    refused = next(
        (t for h in later for t in _effect(h).get("appeared") or [] if is_error_message(str(t))), ""
    )
    if refused:  # a page that says the sign-in failed ("We couldn't sign you in") is not the account's page
        return None, f"{part.get('text')}: the page after it says {refused[:120]!r}"
    if any(_effect(h).get("url_changed") for h in later) and password_left:
        return _from_effect(part, item, f"left the login form for {observation.get('url', '')}"), ""
    return None, f"{part.get('text')}: the page after it shows no signed-in user"


def _url_key(url: str) -> str:
    url = re.sub(r"^[a-z]+://", "", _norm(unquote_plus(url))).removeprefix("www.")
    return url.split("#", 1)[0].rstrip("/")


def _destination(part: GoalPart, items: Items, observation: dict[str, Any], visited: list[str]) -> Proof:
    want = _url_key(str(part.get("value") or ""))
    places = [(int(h.get("step") or 0), str(_effect(h).get("url") or h.get("url") or ""), h) for h in items]
    places += [(0, u, None) for u in visited] + [(0, str(observation.get("url") or ""), None)]
    for step, url, item in places:
        if want and _url_key(url).startswith(want) and not (item and _effect(item).get("http_status")):
            return {
                "part": part.get("id", ""),
                "kind": "url",
                "step": step,
                "url": url,
                "element": "",
                "quote": url,
            }, ""
    return None, f"{part.get('text')}: never reached"


def _search(part: GoalPart, items: Items) -> Proof:
    query = _norm(part.get("value"))
    for item in reversed(items):
        effect = _effect(item)
        url = str(effect.get("url") or item.get("url") or "")
        shown = " ".join(effect.get("appeared") or [])
        if effect.get("changed") and (query in _norm(unquote_plus(url)) or query in _norm(shown)):
            return _from_effect(part, item, f"results for {query!r} at {url}"), ""
    return None, f"{part.get('text')}: no results page for it was seen"


def _step(part: GoalPart, items: Items) -> Proof:
    """A plain step (a key press, going back): it ran, as planned or as the same browser action."""
    for item in reversed(items):
        if item.get("plan_step") == part.get("step") or (
            part.get("action") and item.get("action") == part["action"]
        ):
            return _from_effect(part, item, _effect(item).get("summary") or "the step ran"), ""
    return None, f"{part.get('text')}: not done"


def judge(
    parts: list[GoalPart],
    history: list[dict[str, Any]],
    observation: dict[str, Any],
    *,
    answer: str,
    readings: dict[str, dict[str, Any] | None] | None = None,
    visited: list[str] | None = None,
) -> Verdict:
    """Evidence for every part, or what is missing. ``readings``: quote -> live page reading (see read_quote)."""
    items = _ok_items(history)
    evidence: list[Evidence] = []
    missing: list[str] = []
    fields_done = 0
    questions = [p for p in parts if p.get("kind") == "answer"]
    step_now = int(history[-1].get("step") or 0) if history else 0
    for part in parts:
        kind = part.get("kind")
        found: Evidence | None
        if kind == "answer":
            found, why = answer_evidence(part, questions, answer, observation, readings or {}, step_now)
            found = found or tool_answer_evidence(part, questions, answer, items)  # type: ignore[assignment]
        elif kind == "field":
            found, why = _field(part, items, observation)
        elif kind == "option":
            found, why = _option(part, items)
        elif kind == "check":
            found, why = _checked(part, items, observation)
        elif part.get("describes"):
            found, why = None, f"{part.get('text')}: what was typed cannot be checked against a description"
        elif kind in ("click", "choose", "task"):
            found, why = _changed(part, items)
        elif kind == "submit":
            item, why = _submitted(part, items, fields_done)
            found = _from_effect(part, item, _effect(item).get("summary") or "") if item else None
        elif kind == "login":
            found, why = _login(part, items, observation, fields_done)
        elif kind == "change":
            found, why = change_evidence(part, history, observation)  # type: ignore[assignment]
        elif kind == "destination":
            found, why = _destination(part, items, observation, visited or [])
        elif kind == "search":
            found, why = _search(part, items)
        else:
            found, why = _step(part, items)
        if found is None:
            missing.append(why)
            continue
        evidence.append(found)
        if kind == "field":
            fields_done = max(fields_done, int(found.get("step") or 0))
    last_errors = _effect(history[-1]).get("errors") if history else None
    return {"evidence": evidence, "missing": missing, "error": (last_errors or [""])[0]}
