"""Grounding steps on controls: click, choose, type, select, check and submit.

Grounding never guesses: no good candidate is ``element_not_found``, two equally good different candidates is
``ambiguous_step``.
"""

from __future__ import annotations

import re
from typing import Any

from agent.planning.offline.calendar import day_cells, day_click
from agent.planning.offline.dates import field_value, fields_for, value_kind
from agent.planning.offline.grounding import (
    Failure,
    Grounding,
    last_field,
    login_identifier,
    make_action,
    not_clickable_penalty,
    require,
    sole,
)
from agent.planning.offline.intents import (
    NEXT_EMPTY_FIELD,
    Choose,
    Click,
    Hover,
    SelectOption,
    SetCheck,
    Submit,
    TypeText,
    is_secret_field,
)
from agent.planning.offline.matching import (
    Scored,
    choose,
    choose_near,
    choose_ordinal,
    describe,
    rank,
    text_of_choice,
)
from agent.planning.offline.navigator import best_link_to
from agent.planning.offline.page import (
    directional_distance,
    field_hint,
    is_button,
    is_checkable,
    is_link,
    is_select,
    is_text_field,
    labels,
    reading_order,
    role_of,
)
from agent.planning.offline.reveal import reveal_step
from agent.planning.offline.targets import ordinal_of
from agent.planning.offline.text import norm, similarity
from agent.types import Action, Element

#: A click target named less closely than this (0..1, 1 = the same text) waits until collapsed content and
#: other tabs have been looked in: 'aliquam' in view is not 'aliquet' while a section is still closed.
WEAK_MATCH = 0.95


def _closeness(el: Element, phrase: str) -> float:
    return max((similarity(phrase, text) for text, _w in labels(el)), default=0.0)


def _pointed_before(g: Grounding) -> bool:
    """The last thing the run did (waits aside) was pointing at an item: what comes next sits in what it opened."""
    acts = [h for h in g.history if h.get("action") not in ("wait", "translate", None)]
    return (
        bool(acts) and acts[-1].get("status") == "success" and bool((acts[-1].get("args") or {}).get("hover"))
    )


def ground_click(intent: Click, g: Grounding) -> Action:
    if intent.ordinal:
        el = require(choose_ordinal(g.observation, intent.ordinal, intent.noun, avoid=g.avoid), intent.noun)
        return make_action("click", el, f"{describe(el)} is the item asked for")
    what = intent.role or "element"

    def penalty(el: Element) -> float:
        return not_clickable_penalty(el) + (0.1 if is_text_field(el) and intent.role != "textbox" else 0.0)

    ranked = rank(g.elements, intent.target, role=intent.role, avoid=g.avoid, penalty=penalty)
    if intent.near:
        pick = choose_near(g.observation, ranked, intent.target, intent.near, what=what)
    else:
        pick = choose(ranked, intent.target, what=what)
        if not pick.ok and pick.status == "not_found":
            split = re.match(
                r"^(?P<h>.+?)\s+(?:for|of|in|under|on)\s+(?:the\s+)?(?P<a>.+)$", intent.target, re.I
            )
            if split:
                head = rank(
                    g.elements,
                    split.group("h"),
                    role=intent.role,
                    avoid=g.avoid,
                    penalty=not_clickable_penalty,
                )
                alt = choose_near(g.observation, head, split.group("h"), split.group("a"), what=what)
                if alt.ok:
                    pick = alt
    weak = pick.ok and bool(intent.target) and _closeness(pick.element, intent.target) < WEAK_MATCH
    if weak and reveal_step(g.observation, g.history):
        raise Failure(  # the planner opens the hidden content first; the exact element may be there
            "element_not_found",
            f'no {what} "{intent.target}" in view, only the weak match {describe(pick.element)}; '
            "some content is collapsed or on another tab",
        )
    if weak and _pointed_before(g) and not pick.element.get("new"):
        raise Failure(  # the planner waits for the submenu; the tip that spells the path out is not it
            "element_not_found",
            f'no {what} "{intent.target}" among what pointing opened, only the weak match '
            f"{describe(pick.element)} that was there before; the submenu may still be opening",
        )
    if intent.role == "link" and not intent.near and (pick.status == "not_found" or pick.score < 0.75):
        lead = best_link_to(intent.target, g.observation)
        if lead is not None and lead[1].get("id") not in g.avoid:
            el = lead[1]
            return make_action(
                "click", el, f'{describe(el)} is the link that best leads to "{intent.target}"'
            )
    el = require(pick, f'{what} "{intent.target}"')
    return make_action("click", el, pick.message)


def ground_hover(intent: Hover, g: Grounding) -> Action:
    """The element a click on ``intent.target`` would land on, pointed at instead of clicked."""
    action = ground_click(Click(target=intent.target), g)
    action["args"] = {**action["args"], "hover": True}  # type: ignore[typeddict-item]
    action["reasoning"] = f"point at it: {action.get('reasoning') or ''}"
    return action


def _choice_candidates(g: Grounding, target: str) -> list[tuple[Scored, str]]:
    """Checkboxes/radios, dropdowns holding the option, and clickables, scored on one scale."""
    out: list[tuple[Scored, str]] = []
    for s in rank(
        g.elements,
        target,
        avoid=g.avoid,
        accept=lambda e: not is_text_field(e) and not is_select(e),
        penalty=not_clickable_penalty,
    ):
        out.append((s, "check" if is_checkable(s.element) else "click"))
    for el in g.elements:
        if el.get("id") in g.avoid or not is_select(el):
            continue
        option = text_of_choice(el, target)
        if option is not None:
            score = similarity(target, option) * 0.97
            out.append((Scored(el, round(score, 4), option), "select"))
    out.sort(key=lambda t: -t[0].score)
    return out


def ground_choose(intent: Choose, g: Grounding) -> Action:
    cands = _choice_candidates(g, intent.target)
    kinds = {id(s.element): k for s, k in cands}
    pick = choose([s for s, _ in cands], intent.target, what="option")
    el = require(pick, f'option "{intent.target}"')
    kind = kinds.get(id(el), "click")
    if kind == "select":
        option = text_of_choice(el, intent.target) or intent.target
        return make_action("select_option", el, f'{describe(el)} has the option "{option}"', option=option)
    if kind == "check" and el.get("checked"):
        return make_action("wait", None, f"{describe(el)} is already selected", seconds=0)
    return make_action("click", el, pick.message)


def _field_candidates(g: Grounding, phrase: str) -> list[Scored]:
    """Text fields and dropdowns for a field phrase (a dropdown only wins on a better label; with a log-in form
    in the page's content, a footer's 'Email' for its newsletter is not the form's 'Email address')."""
    signing_in = any((e.get("input_type") or "") == "password" and _in_content(e) for e in g.elements)
    return rank(
        g.elements,
        phrase,
        avoid=g.avoid,
        accept=lambda e: is_text_field(e) or is_select(e),
        penalty=lambda e: (
            (0.05 if is_select(e) else 0.0) + (0.2 if signing_in and not _in_content(e) else 0.0)
        ),
    )


def _in_content(e: Element) -> bool:
    return (e.get("zone") or "main") in ("main", "dialog")


def _field_by_kind(g: Grounding, intent: TypeText) -> Element | None:
    """The one date/time input a date or time value can go into, when no field carries the step's label
    (date and time inputs are often unlabelled)."""
    kinds = fields_for(intent.text)
    fitting = [
        e
        for e in g.elements
        if (e.get("input_type") or "").lower() in kinds
        and e.get("id") not in g.avoid
        and not e.get("disabled")
    ]
    return fitting[0] if len(fitting) == 1 else None


def _next_empty_field(g: Grounding, intent: TypeText) -> Element:
    for el in reading_order(g.elements):
        if (
            is_text_field(el)
            and not el.get("disabled")
            and el.get("id") not in g.avoid
            and not el.get("value")
        ):
            return el
    raise Failure("element_not_found", "no empty text field left on the page")


def _calendar_day(g: Grounding, value: str) -> Action | None:
    """The day to click when a date picker shows the month of the date being put in."""
    found = day_click(g.observation, value)
    if found is None:
        if value_kind(value) == "date" and day_cells(g.observation):
            raise Failure("element_not_found", f"the open calendar does not show the month of {value}")
        return None
    cell, day = found
    return make_action("click", cell, f"{describe(cell)} is {day} in the open calendar")


def ground_type(intent: TypeText, g: Grounding) -> Action:
    day = _calendar_day(g, intent.text)
    if day is not None:
        return day
    position = ordinal_of(intent.field) if intent.field else None
    if intent.field == NEXT_EMPTY_FIELD:
        el = _next_empty_field(g, intent)
        reason = f"{describe(el)}, the next empty text field"
    elif position:
        pick = choose_ordinal(g.observation, *position, avoid=g.avoid)
        el, reason = require(pick, intent.field), pick.message
    elif intent.field:
        pick = choose(_field_candidates(g, intent.field), intent.field, what="field")
        by_kind = None if pick.ok else _field_by_kind(g, intent)
        account = None if pick.ok or by_kind else login_identifier(g, intent.field)
        if by_kind is not None:
            el, reason = by_kind, f"{describe(by_kind)}, the only field that takes this value"
        elif account is not None:
            el, reason = account, f"{describe(account)}, the log-in form's one box for the account"
        else:
            el = require(pick, f'field "{intent.field}"')
            reason = pick.message
    else:
        el = last_field(g) or sole(
            [e for e in g.elements if is_text_field(e) and e.get("id") not in g.avoid], "text field"
        )
        reason = f"{describe(el)} is the text field to type into"
    if is_select(el) and not is_text_field(el):
        option = text_of_choice(el, intent.text)
        if option is None and el.get("options"):
            raise Failure("element_not_found", f'{describe(el)} has no option "{intent.text}"')
        return make_action("select_option", el, f"{describe(el)} is a dropdown", option=option or intent.text)
    shown_text = (
        "••••••"
        if is_secret_field(intent.field) or (el.get("input_type") or "") == "password"
        else intent.text
    )
    hint = (
        f"{el.get('placeholder') or ''} {el.get('name') or ''} {field_hint(el, g.observation)}"  # DD/MM/YYYY
    )
    args: dict[str, Any] = {"text": field_value(intent.text, el.get("input_type") or "", hint), "clear": True}
    if intent.replace:  # the browser swaps the words in what the field holds now; the rest stays
        args = {"text": intent.text, "replace": intent.replace}
    elif intent.append:  # a new line after what the field holds; the existing text stays
        joint = "\n" if (el.get("tag") or "").lower() == "textarea" else " "
        args = {"text": (joint if el.get("value") else "") + intent.text, "clear": False}
    if intent.submit:
        args["submit"] = True
    return make_action("type", el, f'type "{shown_text}" into {reason}', **args)


def ground_select(intent: SelectOption, g: Grounding) -> Action:
    day = None if intent.more else _calendar_day(g, intent.option)
    if day is not None:
        return day

    def with_option(el: Element) -> float:
        return (
            -0.12
            if is_select(el) and el.get("options") and text_of_choice(el, intent.option) is not None
            else 0.0
        )

    if intent.field:
        ranked = rank(
            g.elements,
            intent.field,
            avoid=g.avoid,
            accept=lambda e: is_select(e) or is_text_field(e),
            penalty=lambda e: with_option(e) + (0.1 if not is_select(e) else 0.0),
        )
        pick = choose(ranked, intent.field, what="dropdown")
        if pick.ok:
            el = pick.element
            assert el is not None
        else:
            holders = [
                e
                for e in g.elements
                if is_select(e)
                and e.get("id") not in g.avoid
                and text_of_choice(e, intent.option) is not None
            ]
            if len(holders) != 1:
                if pick.status == "ambiguous":
                    raise Failure("ambiguous_step", pick.message)
                return ground_choose(Choose(intent.option), g)
            el = holders[0]
    else:
        holders = [
            e
            for e in g.elements
            if is_select(e)
            and e.get("id") not in g.avoid
            and (text_of_choice(e, intent.option) is not None or not e.get("options"))
        ]
        if not holders:
            return ground_choose(Choose(intent.option), g)
        el = sole(holders, "dropdown")
    if is_text_field(el) and not is_select(el):
        if intent.more:
            raise Failure("tool_limit", f"{describe(el)} takes one typed value, not {len(intent.options)}")
        return make_action("type", el, f"{describe(el)} takes typed values", text=intent.option, clear=True)
    if intent.more:
        return _select_several(el, intent)
    option = text_of_choice(el, intent.option)
    if option is None and el.get("options"):
        opts = ", ".join(f'"{o}"' for o in (el.get("options") or [])[:10])
        raise Failure(
            "element_not_found", f'{describe(el)} has no option "{intent.option}" (options: {opts})'
        )
    return make_action(
        "select_option",
        el,
        f'{describe(el)} has the option "{option or intent.option}"',
        option=option or intent.option,
    )


def _select_several(el: Element, intent: SelectOption) -> Action:
    """One select_option that picks every option at once (picked one by one, each would replace the last)."""
    if role_of(el) != "listbox":
        raise Failure("tool_limit", f"{describe(el)} takes one option, not {len(intent.options)}")
    wanted: list[str] = []
    for option in intent.options:  # 'A, B and C': the last 'and' joins two options unless one is named so
        parts = re.split(r"\s+and\s+", option)
        named = text_of_choice(el, option) is not None or len(parts) == 1
        wanted.extend([option] if named else parts)
    picked = [text_of_choice(el, o) for o in wanted]
    missing = [o for o, p in zip(wanted, picked, strict=True) if p is None]
    if missing:
        raise Failure("element_not_found", f'{describe(el)} has no option "{missing[0]}"')
    names = ", ".join(f'"{p}"' for p in picked)
    return make_action(
        "select_option",
        el,
        f"{describe(el)} takes several options: {names}",
        option=picked[0],
        options=picked,
    )


def ground_check(intent: SetCheck, g: Grounding) -> Action:
    boxes = [e for e in g.elements if is_checkable(e) and e.get("id") not in g.avoid]
    position = ordinal_of(intent.target)
    if position:
        el = require(choose_ordinal(g.observation, *position, avoid=g.avoid), intent.target)
    elif intent.target:
        pick = choose(rank(boxes, intent.target, avoid=g.avoid), intent.target, what="checkbox")
        if not pick.ok and pick.status == "not_found" and intent.on:
            buttons = rank(
                g.elements, intent.target, avoid=g.avoid, accept=lambda e: is_button(e) or is_link(e)
            )
            alt = choose(buttons, intent.target, what="checkbox or button", threshold=0.75)
            if alt.ok:
                return make_action("click", alt.element, alt.message)
        el = require(pick, f'checkbox "{intent.target}"')
    else:
        el = sole(boxes, "checkbox")
    state = el.get("checked")
    if state is not None and bool(state) == intent.on:
        return make_action(
            "wait", None, f"{describe(el)} is already {'checked' if intent.on else 'unchecked'}", seconds=0
        )
    if not intent.on and (el.get("input_type") == "radio" or el.get("role") == "radio"):
        raise Failure(
            "tool_limit", f"{describe(el)} is a radio button: choose another option instead of unchecking"
        )
    return make_action("click", el, f"{'check' if intent.on else 'uncheck'} {describe(el)}")


_SUBMIT_WORDS = {
    "login": ("log in", "sign in", "login", "submit", "continue", "next"),
    "signup": ("sign up", "register", "create account", "join", "subscribe", "submit", "continue"),
    "subscribe": ("subscribe", "sign up", "join", "submit", "send", "go"),
    "search": ("search", "go", "find", "submit"),
    "": (
        "submit",
        "send",
        "save",
        "continue",
        "ok",
        "go",
        "apply",
        "confirm",
        "done",
        "next",
        "sign in",
        "log in",
        "sign up",
        "register",
        "subscribe",
        "search",
        "place order",
        "order",
        "buy",
        "pay",
        "book",
        "create",
        "post",
        "publish",
        "finish",
        "update",
    ),
}


_NOT_SUBMIT = re.compile(
    r"\b(?:cancel|reset|clear|back|delete|remove|close|forgot|show|hide|previous)\b", re.I
)


def ground_submit(intent: Submit, g: Grounding) -> Action:
    """The form's submit button: a button named like the purpose, of type submit, near the last field typed."""
    anchor = last_field(g)
    words = _SUBMIT_WORDS.get(intent.purpose, _SUBMIT_WORDS[""])
    scored: list[tuple[float, int, Element]] = []
    for n, el in enumerate(g.elements):
        if (
            el.get("id") in g.avoid
            or el.get("disabled")
            or not (is_button(el) or (is_link(el) and intent.purpose))
        ):
            continue
        names = _names(el)
        if not names or _NOT_SUBMIT.search(" ".join(t for t, _ in names)):
            continue
        score = 0.35 + 0.3 * max(similarity(w, t) for w in words for t, _ in names)
        if (el.get("input_type") or "") == "submit":
            score += 0.3
        if is_link(el):
            score -= 0.15
        if anchor is not None:
            d = directional_distance(anchor, el)
            score += 0.25 if d < 250 else 0.1 if d < 600 else 0.0
        if el.get("zone") in ("header", "nav", "footer"):
            score -= 0.15
        scored.append((score, n, el))
    scored.sort(key=lambda t: (-t[0], t[1]))
    if scored and scored[0][0] >= 0.5:
        best = scored[0][2]
        if (
            len(scored) > 1
            and scored[1][0] >= scored[0][0] - 0.02
            and norm(_label(best)) != norm(_label(scored[1][2]))
        ):
            raise Failure(
                "ambiguous_step",
                f"several buttons could submit the form: {describe(best)}, {describe(scored[1][2])}",
            )
        return make_action("click", best, f"{describe(best)} submits the form")
    if anchor is not None:
        return make_action(
            "press_key", None, f"no submit button; press Enter in {describe(anchor)}", key="Enter"
        )
    raise Failure("element_not_found", "no submit button on the page")


def _names(el: Element) -> list[tuple[str, float]]:
    return labels(el)[:4]


def _label(el: Element) -> str:
    pairs = _names(el)
    return pairs[0][0] if pairs else ""
