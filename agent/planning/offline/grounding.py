"""What every grounder shares: the call's context, the failure it raises, building an action, and reading the
run's history (failed elements, scrolls that moved nothing, the last field typed into).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from agent.planning.base import HistoryItem
from agent.planning.offline.matching import Pick, describe
from agent.planning.offline.page import is_clickable, is_text_field
from agent.types import Action, Element, Observation

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


def make_action(name: str, element: Element | None = None, reasoning: str = "", **args: Any) -> Action:
    return {
        "action": name,
        "element_id": element.get("id") if element else None,
        "args": args,  # type: ignore[typeddict-item]
        "reasoning": reasoning,
    }


def require(pick: Pick, what: str) -> Element:
    if pick.ok:
        return pick.element  # type: ignore[return-value]
    if pick.status == "ambiguous":
        raise Failure("ambiguous_step", pick.message)
    raise Failure("element_not_found", pick.message or f"no {what} on the page")


def page_key(url: str | None) -> str:
    return (url or "").split("#", 1)[0]


def failed_elements(history: list[HistoryItem], step: str, url: str) -> set[int]:
    """Elements an identical action already failed on (same step, same page): pick the next best instead."""
    out: set[int] = set()
    for item in history:
        if (
            item.get("status") == "failure"
            and item.get("element_id") is not None
            and item.get("plan_step") == step
            and (not item.get("url") or page_key(item.get("url")) == page_key(url))
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
        if page_key(item.get("url")) != page_key(g.url) and item.get("url"):
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


def not_clickable_penalty(el: Element) -> float:
    return 0.0 if is_clickable(el) else 0.15


def sole(candidates: list[Element], what: str) -> Element:
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


#: Field words that name the account a log-in is for, whatever the site calls its box ('member RW-2291' into
#: 'Membership no.', 'username' into 'Account number or email').
_ACCOUNT_WORDS = re.compile(
    r"\b(?:user(?:\s*name)?|login|e-?mail|member(?:ship)?|account|customer|card|patient|student|client|id)\b",
    re.I,
)


def login_identifier(g: Grounding, field_words: str) -> Element | None:
    """The log-in form's one box for the account, for account words no label on the page carries: the page
    asks for a password and has exactly one other text box (a search box aside)."""
    if not _ACCOUNT_WORDS.search(field_words or "") or re.search(r"pass|pin\b", field_words, re.I):
        return None
    boxes = [
        e for e in g.elements if is_text_field(e) and not e.get("disabled") and e.get("id") not in g.avoid
    ]
    secret = [e for e in boxes if (e.get("input_type") or "") == "password"]
    others = [
        e
        for e in boxes
        if (e.get("input_type") or "text") in ("text", "email", "tel", "number")
        and (e.get("role") or "") != "searchbox"
        and not re.search(r"\bsearch\b", f"{e.get('name') or ''} {e.get('placeholder') or ''}", re.I)
        and (e.get("tag") or "") != "textarea"
    ]
    return others[0] if len(secret) == 1 and len(others) == 1 else None
