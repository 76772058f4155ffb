"""translate(): one plan step -> one concrete action on an observed element, or a clear failure.

The step is parsed with the goal grammar (so plain user phrasing works too) and grounded in the observation.
Grounding never guesses: no good candidate is ``element_not_found``, two equally good different candidates is
``ambiguous_step``, and an action the stage does not allow is ``tool_limit``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from agent.planning.base import TranslateRequest, TranslateResult
from agent.planning.offline import intents as act
from agent.planning.offline.grammar import SUPPORTED_PHRASINGS, parse_goal
from agent.planning.offline.ground_controls import (
    ground_check,
    ground_choose,
    ground_click,
    ground_hover,
    ground_select,
    ground_submit,
    ground_type,
)
from agent.planning.offline.ground_page import (
    ground_ask,
    ground_dismiss,
    ground_scroll,
    ground_scroll_to,
    ground_search,
)
from agent.planning.offline.grounding import ZERO_USAGE, Failure, Grounding, failed_elements, make_action
from agent.planning.offline.tools import tool_action
from agent.planning.offline.urls import is_blank
from agent.types import ALL_ACTIONS, Action

#: A page whose content is only pictures, shapes or colours gives the offline planner nothing to match words on.
NOTHING_TO_NAME = (
    "this page has no text, label or control the offline planner can read (only pictures, shapes or colours?), "
    "so nothing on it can be matched to the step; a model that sees the page is needed"
)


def ground(intent: act.Intent, g: Grounding, allowed: list[str]) -> Action:
    """The one action that carries out ``intent`` on the observed page (raises Failure)."""
    simple: dict[type, Callable[[Any, Grounding], Action]] = {
        act.Click: ground_click,
        act.Hover: ground_hover,
        act.Choose: ground_choose,
        act.TypeText: ground_type,
        act.SelectOption: ground_select,
        act.SetCheck: ground_check,
        act.Submit: ground_submit,
        act.Dismiss: ground_dismiss,
        act.Scroll: ground_scroll,
        act.ScrollTo: ground_scroll_to,
        act.Ask: ground_ask,
    }
    if isinstance(intent, act.Navigate):
        return make_action("navigate", None, f"open {intent.url}", url=intent.url)
    if isinstance(intent, act.Search):
        return ground_search(intent, g, allowed)
    if isinstance(intent, act.PressKey):
        return make_action("press_key", None, f"press {intent.key}", key=intent.key)
    if isinstance(intent, act.GoBack):
        return make_action("go_back", None, "go back to the previous page")
    if isinstance(intent, act.GoForward):
        return make_action("go_forward", None, "go forward")
    if isinstance(intent, act.Wait):
        return make_action("wait", None, f"wait {intent.seconds:g}s", seconds=intent.seconds)
    handler = simple.get(type(intent))
    if handler is None:
        raise Failure("unknown", f"no way to carry out {intent!r}")
    if not g.elements and not isinstance(intent, act.Scroll | act.Ask):
        if is_blank(g.url):
            raise Failure("element_not_found", "no page is open to act on")
        raise Failure("element_not_found", NOTHING_TO_NAME)
    return handler(intent, g)


def translate_step(request: TranslateRequest) -> TranslateResult:
    """Ground one plan step in the observation (pure; no I/O)."""
    step = (request.get("plan_step") or "").strip()
    observation = request.get("observation") or {}
    allowed = list(request.get("allowed_actions") or ALL_ACTIONS)
    history = list(request.get("history") or [])
    tool = tool_action(step)
    if tool is not None:  # a PDF or MCP step the planner wrote
        return {
            "action": tool,
            "status": "success",
            "error_type": "none",
            "message": tool["reasoning"],
            "reasoning": tool["reasoning"],
            "raw": {"step": step},
            "usage": dict(ZERO_USAGE),
        }  # type: ignore[typeddict-item]
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


def _intent_dict(intent: act.Intent | None) -> dict[str, Any]:
    if intent is None:
        return {}
    data = {k: v for k, v in vars(intent).items()}
    if isinstance(intent, act.TypeText) and act.is_secret_field(intent.field):
        data["text"] = "••••••"
    return {"kind": type(intent).__name__, **data}


def _failure(error_type: str, message: str, step: str, intent: act.Intent | None = None) -> TranslateResult:
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
]
