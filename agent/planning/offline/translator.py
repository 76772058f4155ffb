"""translate(): one plan step -> one concrete action on an observed element, or a clear failure.

The step is parsed with the goal grammar (so plain user phrasing works too) and grounded in the observation.
Grounding never guesses: no good candidate is ``element_not_found``, two equally good different candidates is
``ambiguous_step``, and an action the stage does not allow is ``tool_limit``.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from agent.planning.base import HistoryItem, TranslateRequest, TranslateResult
from agent.planning.offline.answers import answer_question
from agent.planning.offline.grammar import SUPPORTED_PHRASINGS, parse_goal
from agent.planning.offline.intents import (
    Ask,
    Choose,
    Click,
    Dismiss,
    GoBack,
    GoForward,
    Intent,
    Navigate,
    PressKey,
    Scroll,
    ScrollTo,
    Search,
    SelectOption,
    SetCheck,
    Submit,
    TypeText,
    Wait,
    is_secret_field,
)
from agent.planning.offline.matching import (
    Pick,
    Scored,
    choose,
    choose_near,
    choose_ordinal,
    describe,
    find_anchor,
    rank,
    text_of_choice,
)
from agent.planning.offline.page import (
    blocking_overlay,
    directional_distance,
    dismiss_score,
    is_button,
    is_checkable,
    is_clickable,
    is_link,
    is_select,
    is_text_field,
    labels,
    rect,
)
from agent.planning.offline.text import norm, similarity
from agent.types import ALL_ACTIONS, Action, Element, Observation

ZERO_USAGE = {"input_tokens": 0, "output_tokens": 0, "total_tokens": 0, "calls": 0, "cost_usd": 0.0}
MAX_SCAN_SCROLLS = 20
_NO_MOVE_RX = re.compile(
    r"no\s+change|did\s*n[o']t\s+(?:move|scroll|change)|already\s+at|nothing\s+new|not\s+scroll|"
    r"no\s+movement|unchanged|end\s+of\s+(?:the\s+)?page|no\s+more",
    re.I,
)


@dataclass
class Grounding:
    """Everything a grounder needs about the current call."""

    observation: Observation
    goal: str
    history: list[HistoryItem]
    avoid: set[int] = field(default_factory=set)

    @property
    def elements(self) -> list[Element]:
        return list(self.observation.get("elements") or [])

    @property
    def url(self) -> str:
        return self.observation.get("url") or ""


class Failure(Exception):
    """A grounding failure with its error type (raised inside grounders, turned into a TranslateResult)."""

    def __init__(self, error_type: str, message: str) -> None:
        super().__init__(message)
        self.error_type = error_type
        self.message = message


def _action(name: str, element: Element | None = None, reasoning: str = "", **args: Any) -> Action:
    return {
        "action": name,
        "element_id": element.get("id") if element else None,
        "args": args,  # type: ignore[typeddict-item]
        "reasoning": reasoning,
    }


def _require(pick: Pick, what: str) -> Element:
    if pick.ok:
        return pick.element  # type: ignore[return-value]
    if pick.status == "ambiguous":
        raise Failure("ambiguous_step", pick.message)
    raise Failure("element_not_found", pick.message or f"no {what} on the page")


# --------------------------------------------------------------------------------------------------------------
# History
# --------------------------------------------------------------------------------------------------------------


def _page(url: str | None) -> str:
    return (url or "").split("#", 1)[0]


def failed_elements(history: list[HistoryItem], step: str, url: str) -> set[int]:
    """Elements an identical action already failed on (same step, same page): pick the next best instead."""
    out: set[int] = set()
    for item in history:
        if (
            item.get("status") == "failure"
            and item.get("element_id") is not None
            and item.get("plan_step") == step
            and (not item.get("url") or _page(item.get("url")) == _page(url))
        ):
            out.add(int(item["element_id"]))  # type: ignore[arg-type]
    return out


def trailing_scrolls(history: list[HistoryItem]) -> int:
    n = 0
    for item in reversed(history):
        if item.get("action") != "scroll":
            break
        n += 1
    return n


def scroll_exhausted(history: list[HistoryItem]) -> bool:
    """The last scroll failed or moved nothing: scrolling on would not reveal anything new."""
    if not history or history[-1].get("action") != "scroll":
        return False
    last = history[-1]
    return last.get("status") == "failure" or bool(_NO_MOVE_RX.search(last.get("message") or ""))


def can_scroll_down(observation: Observation, history: list[HistoryItem]) -> bool:
    below = float((observation.get("scroll") or {}).get("below_px") or 0)
    return below > 2 and not scroll_exhausted(history) and trailing_scrolls(history) < MAX_SCAN_SCROLLS


def last_field(g: Grounding) -> Element | None:
    """The text field the agent last typed into or clicked on this page (where focus most likely is)."""
    by_id = {e.get("id"): e for e in g.elements}
    for item in reversed(g.history):
        if _page(item.get("url")) != _page(g.url) and item.get("url"):
            break
        el = by_id.get(item.get("element_id"))
        if (
            el is not None
            and item.get("status") == "success"
            and item.get("action") in ("type", "click")
            and is_text_field(el)
        ):
            return el
    return None


# --------------------------------------------------------------------------------------------------------------
# Grounders
# --------------------------------------------------------------------------------------------------------------


def _not_clickable_penalty(el: Element) -> float:
    return 0.0 if is_clickable(el) else 0.15


def _ground_click(intent: Click, g: Grounding) -> Action:
    if intent.ordinal:
        el = _require(choose_ordinal(g.observation, intent.ordinal, intent.noun, avoid=g.avoid), intent.noun)
        return _action("click", el, f"{describe(el)} is the item asked for")
    what = intent.role or "element"

    def penalty(el: Element) -> float:
        return _not_clickable_penalty(el) + (0.1 if is_text_field(el) and intent.role != "textbox" else 0.0)

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
                    penalty=_not_clickable_penalty,
                )
                alt = choose_near(g.observation, head, split.group("h"), split.group("a"), what=what)
                if alt.ok:
                    pick = alt
    el = _require(pick, f'{what} "{intent.target}"')
    return _action("click", el, pick.message)


def _choice_candidates(g: Grounding, target: str) -> list[tuple[Scored, str]]:
    """Checkboxes/radios, dropdowns holding the option, and clickables, scored on one scale."""
    out: list[tuple[Scored, str]] = []
    for s in rank(
        g.elements,
        target,
        avoid=g.avoid,
        accept=lambda e: not is_text_field(e) and not is_select(e),
        penalty=_not_clickable_penalty,
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


def _ground_choose(intent: Choose, g: Grounding) -> Action:
    cands = _choice_candidates(g, intent.target)
    kinds = {id(s.element): k for s, k in cands}
    pick = choose([s for s, _ in cands], intent.target, what="option")
    el = _require(pick, f'option "{intent.target}"')
    kind = kinds.get(id(el), "click")
    if kind == "select":
        option = text_of_choice(el, intent.target) or intent.target
        return _action("select_option", el, f'{describe(el)} has the option "{option}"', option=option)
    if kind == "check" and el.get("checked"):
        return _action("wait", None, f"{describe(el)} is already selected", seconds=0)
    return _action("click", el, pick.message)


def _field_candidates(g: Grounding, phrase: str) -> list[Scored]:
    """Text fields and dropdowns for a field phrase (a dropdown only wins on a better label)."""
    return rank(
        g.elements,
        phrase,
        avoid=g.avoid,
        accept=lambda e: is_text_field(e) or is_select(e),
        penalty=lambda e: 0.05 if is_select(e) else 0.0,
    )


def _sole(candidates: list[Element], what: str) -> Element:
    """The only candidate (preferring those in view) when the step names no field."""
    visible = [e for e in candidates if e.get("in_viewport")] or candidates
    enabled = [e for e in visible if not e.get("disabled")] or visible
    if len(enabled) == 1:
        return enabled[0]
    if not enabled:
        raise Failure("element_not_found", f"no {what} on the page")
    empty = [e for e in enabled if not (e.get("value") or "")]
    if len(empty) == 1:
        return empty[0]
    names = ", ".join(describe(e) for e in enabled[:4])
    raise Failure("ambiguous_step", f"{len(enabled)} {what}s on the page ({names}); say which one")


def _ground_type(intent: TypeText, g: Grounding) -> Action:
    if intent.field:
        pick = choose(_field_candidates(g, intent.field), intent.field, what="field")
        el = _require(pick, f'field "{intent.field}"')
        reason = pick.message
    else:
        el = last_field(g) or _sole(
            [e for e in g.elements if is_text_field(e) and e.get("id") not in g.avoid], "text field"
        )
        reason = f"{describe(el)} is the text field to type into"
    if is_select(el) and not is_text_field(el):
        option = text_of_choice(el, intent.text)
        if option is None and el.get("options"):
            raise Failure("element_not_found", f'{describe(el)} has no option "{intent.text}"')
        return _action("select_option", el, f"{describe(el)} is a dropdown", option=option or intent.text)
    shown_text = (
        "••••••"
        if is_secret_field(intent.field) or (el.get("input_type") or "") == "password"
        else intent.text
    )
    args: dict[str, Any] = {"text": intent.text, "clear": True}
    if intent.submit:
        args["submit"] = True
    return _action("type", el, f'type "{shown_text}" into {reason}', **args)


def _ground_select(intent: SelectOption, g: Grounding) -> Action:
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
                return _ground_choose(Choose(intent.option), g)
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
            return _ground_choose(Choose(intent.option), g)
        el = _sole(holders, "dropdown")
    if is_text_field(el) and not is_select(el):
        return _action("type", el, f"{describe(el)} takes typed values", text=intent.option, clear=True)
    option = text_of_choice(el, intent.option)
    if option is None and el.get("options"):
        opts = ", ".join(f'"{o}"' for o in (el.get("options") or [])[:10])
        raise Failure(
            "element_not_found", f'{describe(el)} has no option "{intent.option}" (options: {opts})'
        )
    return _action(
        "select_option",
        el,
        f'{describe(el)} has the option "{option or intent.option}"',
        option=option or intent.option,
    )


def _ground_check(intent: SetCheck, g: Grounding) -> Action:
    boxes = [e for e in g.elements if is_checkable(e) and e.get("id") not in g.avoid]
    if intent.target:
        pick = choose(rank(boxes, intent.target, avoid=g.avoid), intent.target, what="checkbox")
        if not pick.ok and pick.status == "not_found" and intent.on:
            buttons = rank(
                g.elements, intent.target, avoid=g.avoid, accept=lambda e: is_button(e) or is_link(e)
            )
            alt = choose(buttons, intent.target, what="checkbox or button", threshold=0.75)
            if alt.ok:
                return _action("click", alt.element, alt.message)
        el = _require(pick, f'checkbox "{intent.target}"')
    else:
        el = _sole(boxes, "checkbox")
    state = el.get("checked")
    if state is not None and bool(state) == intent.on:
        return _action(
            "wait", None, f"{describe(el)} is already {'checked' if intent.on else 'unchecked'}", seconds=0
        )
    if not intent.on and (el.get("input_type") == "radio" or el.get("role") == "radio"):
        raise Failure(
            "tool_limit", f"{describe(el)} is a radio button: choose another option instead of unchecking"
        )
    return _action("click", el, f"{'check' if intent.on else 'uncheck'} {describe(el)}")


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


def _ground_submit(intent: Submit, g: Grounding) -> Action:
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
        return _action("click", best, f"{describe(best)} submits the form")
    if anchor is not None:
        return _action("press_key", None, f"no submit button; press Enter in {describe(anchor)}", key="Enter")
    raise Failure("element_not_found", "no submit button on the page")


def _names(el: Element) -> list[tuple[str, float]]:
    return labels(el)[:4]


def _label(el: Element) -> str:
    pairs = _names(el)
    return pairs[0][0] if pairs else ""


def _ground_dismiss(intent: Dismiss, g: Grounding) -> Action:
    overlay = blocking_overlay(g.observation)
    if overlay is not None and overlay.button.get("id") not in g.avoid:
        return _action(
            "click", overlay.button, f"{describe(overlay.button)} dismisses the {overlay.kind} overlay"
        )
    candidates = sorted(
        (
            (dismiss_score(e, intent.kind), n, e)
            for n, e in enumerate(g.elements)
            if is_clickable(e) and e.get("id") not in g.avoid and not e.get("disabled")
        ),
        key=lambda t: (-t[0], t[1]),
    )
    if (
        candidates
        and candidates[0][0] >= 0.8
        and (intent.kind == "cookie" or candidates[0][2].get("zone") == "dialog")
    ):
        el = candidates[0][2]
        return _action("click", el, f"{describe(el)} dismisses the {intent.kind}")
    raise Failure(
        "element_not_found", f"no {'cookie banner' if intent.kind == 'cookie' else 'dialog'} to dismiss"
    )


def _ground_scroll(intent: Scroll, g: Grounding) -> Action:
    info = g.observation.get("scroll") or {}
    if intent.to_end:
        px = float(info.get("below_px" if intent.direction == "down" else "above_px") or 0)
        amount: int | str = int(px) + 50 if px > 0 else 100000
        return _action(
            "scroll", None, f"scroll {intent.direction} to the end", direction=intent.direction, amount=amount
        )
    return _action(
        "scroll",
        None,
        f"scroll {intent.direction}",
        direction=intent.direction,
        amount=intent.pixels or "page",
    )


def _ground_scroll_to(intent: ScrollTo, g: Grounding) -> Action:
    anchor = find_anchor(g.observation, intent.target)
    view = float((g.observation.get("scroll") or {}).get("viewport_height") or 900)
    box = rect(anchor) if anchor else None
    if box is not None:
        y = box[1]
        if 0 <= y <= view - max(box[3], 40):
            return _action("wait", None, f"{describe(anchor)} is already in view", seconds=0)
        direction = "down" if y > 0 else "up"
        return _action(
            "scroll",
            None,
            f"bring {describe(anchor)} into view",
            direction=direction,
            amount=int(abs(y - view / 3)),
        )
    if can_scroll_down(g.observation, g.history):
        return _action(
            "scroll",
            None,
            f'"{intent.target}" is not on screen yet; scroll on',
            direction="down",
            amount="page",
        )
    raise Failure("element_not_found", f'nothing named "{intent.target}" on the page')


def _questions_for(intent: Ask, goal: str) -> list[Ask]:
    """The question of this step, plus the goal's other questions (all answered together)."""
    asked = list(parse_goal(goal).questions) if goal else []
    if any(norm(q.question) == norm(intent.question) for q in asked):
        return asked
    return [intent]


def answer_all(questions: list[Ask], observation: Observation) -> tuple[bool, str]:
    answers = [answer_question(q.question, observation) for q in questions]
    if len(answers) == 1:
        return answers[0].found, answers[0].text
    parts = [f"{q.question}: {a.text}" for q, a in zip(questions, answers, strict=True)]
    return all(a.found for a in answers), "; ".join(parts)


def _ground_ask(intent: Ask, g: Grounding) -> Action:
    questions = _questions_for(intent, g.goal)
    found, text = answer_all(questions, g.observation)
    if found:
        return _action("done", None, "answer found on the page", answer=text, success=True)
    if can_scroll_down(g.observation, g.history):
        return _action(
            "scroll", None, "answer not visible yet; scan further down", direction="down", amount="page"
        )
    return _action("done", None, "the page has no more content to scan", answer=text, success=False)


def _ground_search(intent: Search, g: Grounding, allowed: list[str]) -> Action:
    if "search" in allowed or "type" not in allowed:
        return _action("search", None, f'search for "{intent.query}"', query=intent.query)
    ranked = rank(g.elements, "search", accept=is_text_field, avoid=g.avoid)
    el = _require(choose(ranked, "search", what="search box"), "search box")
    return _action(
        "type",
        el,
        "the search action is not allowed; use the page's search box",
        text=intent.query,
        clear=True,
        submit=True,
    )


def ground(intent: Intent, g: Grounding, allowed: list[str]) -> Action:
    """The one action that carries out ``intent`` on the observed page (raises Failure)."""
    simple: dict[type, Callable[[Any, Grounding], Action]] = {
        Click: _ground_click,
        Choose: _ground_choose,
        TypeText: _ground_type,
        SelectOption: _ground_select,
        SetCheck: _ground_check,
        Submit: _ground_submit,
        Dismiss: _ground_dismiss,
        Scroll: _ground_scroll,
        ScrollTo: _ground_scroll_to,
        Ask: _ground_ask,
    }
    if isinstance(intent, Navigate):
        return _action("navigate", None, f"open {intent.url}", url=intent.url)
    if isinstance(intent, Search):
        return _ground_search(intent, g, allowed)
    if isinstance(intent, PressKey):
        return _action("press_key", None, f"press {intent.key}", key=intent.key)
    if isinstance(intent, GoBack):
        return _action("go_back", None, "go back to the previous page")
    if isinstance(intent, GoForward):
        return _action("go_forward", None, "go forward")
    if isinstance(intent, Wait):
        return _action("wait", None, f"wait {intent.seconds:g}s", seconds=intent.seconds)
    handler = simple.get(type(intent))
    if handler is None:
        raise Failure("unknown", f"no way to carry out {intent!r}")
    if not g.elements and not isinstance(intent, Scroll | Ask):
        raise Failure("element_not_found", "the page has no elements to act on (is a page open?)")
    return handler(intent, g)


def translate_step(request: TranslateRequest) -> TranslateResult:
    """Ground one plan step in the observation (pure; no I/O)."""
    step = (request.get("plan_step") or "").strip()
    observation = request.get("observation") or {}
    allowed = list(request.get("allowed_actions") or ALL_ACTIONS)
    history = list(request.get("history") or [])
    parsed = parse_goal(step)
    if not parsed.intents or parsed.unknown:
        return _failure(
            "unknown",
            f"could not understand the step {step!r}; supported: " + "; ".join(SUPPORTED_PHRASINGS),
            step,
        )
    intent = parsed.intents[0]
    g = Grounding(observation=observation, goal=request.get("goal") or "", history=history)
    g.avoid = {int(i) for i in request.get("avoid_elements") or []} | failed_elements(history, step, g.url)
    try:
        action = ground(intent, g, allowed)
    except Failure as failure:
        return _failure(failure.error_type, failure.message, step, intent)
    if action["action"] not in allowed:
        answer = action["args"].get("answer")
        extra = f" (answer: {answer})" if answer else ""
        return _failure(
            "tool_limit", f"{action['action']!r} is needed but not allowed at this stage{extra}", step, intent
        )
    note = (
        f" (step has {len(parsed.intents)} parts; carried out the first)" if len(parsed.intents) > 1 else ""
    )
    reasoning = (action.get("reasoning") or "") + note
    action["reasoning"] = reasoning
    return {
        "action": action,
        "status": "success",
        "error_type": "none",
        "message": reasoning,
        "reasoning": reasoning,
        "raw": {"intent": _intent_dict(intent), "step": step},
        "usage": dict(ZERO_USAGE),  # type: ignore[typeddict-item]
    }


def _intent_dict(intent: Intent | None) -> dict[str, Any]:
    if intent is None:
        return {}
    data = {k: v for k, v in vars(intent).items()}
    if isinstance(intent, TypeText) and is_secret_field(intent.field):
        data["text"] = "••••••"
    return {"kind": type(intent).__name__, **data}


def _failure(error_type: str, message: str, step: str, intent: Intent | None = None) -> TranslateResult:
    return {
        "action": None,
        "status": "failure",
        "error_type": error_type,
        "message": message,
        "reasoning": message,
        "raw": {"intent": _intent_dict(intent), "step": step},
        "usage": dict(ZERO_USAGE),  # type: ignore[typeddict-item]
    }


__all__ = [
    "translate_step",
    "ground",
    "Grounding",
    "Failure",
    "answer_all",
    "can_scroll_down",
    "trailing_scrolls",
]
