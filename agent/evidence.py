"""Pure helpers that judge progress from what was observed, never from what a model claims."""

from __future__ import annotations

import re
from typing import Any
from urllib.parse import urlsplit

from agent.dom.text import keywords
from agent.types import ERROR_NAVIGATION_BLOCKED
from agent.util.page_errors import is_error_message


def goal_hits(goal: str, text: str) -> list[str]:
    """Goal keywords that appear in ``text``."""
    haystack = text.lower()
    return [word for word in keywords(goal) if word in haystack]


def observation_text(observation: dict[str, Any] | None) -> str:
    if not observation:
        return ""
    return " ".join(
        [
            observation.get("title", ""),
            observation.get("url", ""),
            observation.get("page_text", ""),
            observation.get("text", ""),
        ]
    )


def _squash(text: str) -> str:
    return " ".join(re.findall(r"[a-z0-9]+", text.lower()))


_QUOTED = re.compile(r"[\"“”«»‘’]([^\"“”«»‘’]+)[\"“”«»‘’]|(?<!\w)'([^']+)'(?!\w)")


def echoes_goal(answer: str, goal: str) -> bool:
    """True when the 'answer' is just the goal's own words, which a page may well display ("tell me the product
    name" answered by a heading "Product details"). Words the goal quotes may be the answer itself."""
    a, g = _squash(answer), _squash(goal)
    if not a:
        return False
    if len(a) >= 8 and (g in a or (a in g and len(a) >= 0.6 * len(g))):
        return True  # most of the goal, not a phrase it mentions
    said = keywords(answer)
    own = set(keywords(_QUOTED.sub(" ", goal)))
    return bool(said) and not any(ch.isdigit() for ch in answer) and set(said) <= own


#: The values an answer can rest on: amounts, times, decimal figures.
_SPECIFIC = re.compile(
    r"[$€£¥₹]\s?\d[\d,]*(?:\.\d+)?|\d[\d,]*(?:\.\d+)?\s?(?:[$€£]|usd|eur|gbp)\b|\b\d{1,2}:\d{2}\b|\b\d+(?:[.,]\d+)+\b",
    re.I,
)


def _amount(text: str) -> float | None:
    """The number a value says ('£1,250.00' -> 1250.0), None for a time or a value with no number."""
    if ":" in text:
        return None
    digits = re.sub(r"[^\d.]", "", text.replace(",", ""))
    try:
        return float(digits) if digits else None
    except ValueError:
        return None


def echoes_typed(answer: str, history: list[dict[str, Any]], goal: str) -> str | None:
    """The text this run typed into the page that the answer only repeats, if any. A page showing back what the
    agent put there (a quote form, a search box, a comment) proves nothing: an answer whose every value (or, with
    no value, whose whole sentence) came from the agent's own typing is planted. Values the goal gives are the
    user's and may be typed and shown back."""
    typed = [
        str((item.get("args") or {}).get("text") or (item.get("args") or {}).get("query") or "")
        for item in history
        if item.get("action") in ("type", "search")
    ]
    typed = [t for t in typed if _squash(t)]
    if not typed or not _squash(answer):
        return None
    if re.match(r"\W*(?:yes|no)\b", answer, re.I):
        return None  # (a yes or no is the answer; the value beside it only says what was checked)
    wrapped = [f" {_squash(t)} " for t in typed]
    own = f" {_squash(goal)} "
    given = {
        _amount(x) for x in re.findall(r"\d[\d,]*(?:\.\d+)?", goal)
    }  # ('£250' in the goal is '250.00' typed)
    values = [
        v for x in _SPECIFIC.findall(answer)
        if (v := _squash(x)) and f" {v} " not in own and _amount(x) not in given
    ]  # fmt: skip
    if values:
        planted = [
            next((t for t, w in zip(typed, wrapped, strict=True) if f" {v} " in w), "") for v in values
        ]
        return planted[0] if all(planted) else None
    said = _squash(answer)
    if len(said.split()) >= 4 and f" {said} " not in own:
        return next((t for t, w in zip(typed, wrapped, strict=True) if f" {said} " in w), None)
    return None


#: Words of a refusal by the network guard or the domain lists (see agent.browser.netguard / urls).
_REFUSAL_WORDS = (
    "refused by the network guard",
    ERROR_NAVIGATION_BLOCKED,
    "on the blocked list",
    "not in the allowed domains",
)
_URL_IN_TEXT = re.compile(r"https?://[^\s'\"<>]+", re.IGNORECASE)


def echoes_refusal(answer: str, history: list[dict[str, Any]], visited: list[str]) -> str | None:
    """The refusal an 'answer' repeats, if any: the guard's own words, or the host of a navigation the guard
    refused (and the run never reached). A refused navigation is never an answer, whatever the model claims."""
    text = answer.lower()
    if not text:
        return None
    reached = {(urlsplit(url).hostname or "").lower() for url in visited}
    for item in history:
        message = str(item.get("message") or "")
        if item.get("error_type") != ERROR_NAVIGATION_BLOCKED or not any(
            w in message for w in _REFUSAL_WORDS
        ):
            continue
        if any(word in text for word in _REFUSAL_WORDS):
            return message
        for url in _URL_IN_TEXT.findall(f"{message} {(item.get('args') or {}).get('url') or ''}"):
            try:
                host = (urlsplit(url).hostname or "").lower()
            except ValueError:
                continue
            if host and host not in reached and re.search(rf"(?<![\w.]){re.escape(host)}(?![\w])", text):
                return message
    return None


def answer_grounded(answer: str, texts: list[str]) -> bool:
    """True when the answer shares its specific content with something observed.

    Numbers must appear verbatim; otherwise at least half of the answer's keywords (and at least one) must be
    found. Models may paraphrase, but an answer with nothing in common with any observed page is invented.
    """
    if not answer or not answer.strip():
        return False
    haystack = " ".join(texts).lower()
    numbers = re.findall(r"\d+(?:[.,]\d+)*", answer)
    if numbers and any(num in haystack for num in numbers):
        return True
    words = keywords(answer)
    if not words:
        return False
    found = sum(1 for word in words if word in haystack)
    return found >= max(1, len(words) // 2)


def progress_score(
    goal: str, observation: dict[str, Any] | None, history: list[dict[str, Any]]
) -> tuple[float, list[str]]:
    """A 0..1 score and the evidence behind it: URL/title/page hits of goal words, successful actions."""
    evidence: list[str] = []
    words = keywords(goal)
    score = 0.0
    if observation:
        url_title = (observation.get("url", "") + " " + observation.get("title", "")).lower()
        url_hits = [w for w in words if w in url_title]
        page_hits = goal_hits(goal, observation.get("page_text", "") or observation.get("text", ""))
        if url_hits:
            evidence.append("url/title mention " + ", ".join(url_hits[:5]))
            score += 0.25 * min(1.0, len(url_hits) / max(1, len(words)))
        if page_hits:
            evidence.append("page mentions " + ", ".join(page_hits[:8]))
            score += 0.35 * min(1.0, len(page_hits) / max(1, len(words)))
    successes = [h for h in history if h.get("status") == "success"]
    if successes:
        last = successes[-1]
        evidence.append(f"last successful action: {last.get('action')} {last.get('target', '')}".strip())
        score += 0.4 * min(1.0, len(successes) / 5)
    return round(min(score, 1.0), 3), evidence


def action_signature(action: dict[str, Any] | None, url: str) -> str:
    """action + element + URL (+ the text typed): what makes two actions 'the same' for loop detection."""
    if not action:
        return ""
    args = action.get("args") or {}
    detail = (
        args.get("text")
        or args.get("query")
        or args.get("url")
        or args.get("option")
        or args.get("key")
        or ""
    )
    if action.get("action") == "scroll":
        detail = f"{args.get('direction', 'down')}"
    return f"{action.get('action')}|{action.get('element_id')}|{url.split('#', 1)[0]}|{detail}"


def page_error(observation: dict[str, Any] | None) -> str | None:
    """An error message the page is showing in response to the last action, if any.

    Only elements that just appeared (``new``) or that announce themselves (role alert/status, dialogs) count,
    so an error text that was on the page all along is not blamed on the agent.
    """
    if not observation:
        return None
    for element in observation.get("elements", []):
        announced = (
            element.get("role") in ("alert", "status", "alertdialog") or element.get("zone") == "dialog"
        )
        if not (element.get("new") or announced):
            continue
        text = (element.get("text") or element.get("name") or "").strip()
        if text and is_error_message(text):
            return text
    return None
