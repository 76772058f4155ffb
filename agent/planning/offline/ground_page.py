"""Grounding page-level steps: dismissing overlays, scrolling, bringing text into view, answering questions
and searching.
"""

from __future__ import annotations

from agent.planning.offline.grammar import parse_goal
from agent.planning.offline.grounding import Failure, Grounding, can_scroll_down, make_action, require
from agent.planning.offline.intents import Ask, Dismiss, Scroll, ScrollTo, Search
from agent.planning.offline.matching import choose, describe, find_anchor, rank
from agent.planning.offline.overlays import blocking_overlay, dismiss_score
from agent.planning.offline.page import is_clickable, is_text_field, rect
from agent.planning.offline.reading import answer_question
from agent.planning.offline.text import norm
from agent.types import Action, Observation


def ground_dismiss(intent: Dismiss, g: Grounding) -> Action:
    overlay = blocking_overlay(g.observation)
    if overlay is not None and overlay.button.get("id") not in g.avoid:
        return make_action(
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
        return make_action("click", el, f"{describe(el)} dismisses the {intent.kind}")
    raise Failure(
        "element_not_found", f"no {'cookie banner' if intent.kind == 'cookie' else 'dialog'} to dismiss"
    )


def ground_scroll(intent: Scroll, g: Grounding) -> Action:
    info = g.observation.get("scroll") or {}
    if intent.to_end:
        px = float(info.get("below_px" if intent.direction == "down" else "above_px") or 0)
        amount: int | str = int(px) + 50 if px > 0 else 100000
        return make_action(
            "scroll", None, f"scroll {intent.direction} to the end", direction=intent.direction, amount=amount
        )
    return make_action(
        "scroll",
        None,
        f"scroll {intent.direction}",
        direction=intent.direction,
        amount=intent.pixels or "page",
    )


def ground_scroll_to(intent: ScrollTo, g: Grounding) -> Action:
    anchor = find_anchor(g.observation, intent.target)
    view = float((g.observation.get("scroll") or {}).get("viewport_height") or 900)
    box = rect(anchor) if anchor else None
    if box is not None:
        y = box[1]
        if 0 <= y <= view - max(box[3], 40):
            return make_action("wait", None, f"{describe(anchor)} is already in view", seconds=0)
        direction = "down" if y > 0 else "up"
        return make_action(
            "scroll",
            None,
            f"bring {describe(anchor)} into view",
            direction=direction,
            amount=int(abs(y - view / 3)),
        )
    if can_scroll_down(g.observation, g.history):
        return make_action(
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


def ground_ask(intent: Ask, g: Grounding) -> Action:
    questions = _questions_for(intent, g.goal)
    found, text = answer_all(questions, g.observation)
    if found:
        return make_action("done", None, "answer found on the page", answer=text, success=True)
    if can_scroll_down(g.observation, g.history):
        return make_action(
            "scroll", None, "answer not visible yet; scan further down", direction="down", amount="page"
        )
    return make_action("done", None, "the page has no more content to scan", answer=text, success=False)


def ground_search(intent: Search, g: Grounding, allowed: list[str]) -> Action:
    if "search" in allowed or "type" not in allowed:
        return make_action("search", None, f'search for "{intent.query}"', query=intent.query)
    ranked = rank(g.elements, "search", accept=is_text_field, avoid=g.avoid)
    el = require(choose(ranked, "search", what="search box"), "search box")
    return make_action(
        "type",
        el,
        "the search action is not allowed; use the page's search box",
        text=intent.query,
        clear=True,
        submit=True,
    )
