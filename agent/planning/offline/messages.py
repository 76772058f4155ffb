"""What the page says: alerts, status text and fresh content after an action, or its main heading."""

from __future__ import annotations

from agent.planning.offline.page import is_clickable, is_heading, reading_order, role_of, visible_text
from agent.planning.offline.questions import Answer
from agent.planning.offline.text import clip, norm
from agent.planning.offline.values import page_lines
from agent.types import Element, Observation


def main_heading(observation: Observation) -> Element | None:
    heads = [
        e
        for e in reading_order(observation.get("elements") or [])
        if is_heading(e) and (e.get("zone") or "main") in ("main", "dialog")
    ]
    h1 = [e for e in heads if (e.get("tag") or "").lower() == "h1"]
    return (h1 or heads or [None])[0]


def page_message(observation: Observation) -> str:
    """What the page announces: alert/status text, else text that just appeared (a confirmation, an error)."""
    elements = reading_order(observation.get("elements") or [])
    alerts = [visible_text(e) for e in elements if role_of(e) in ("alert", "status") and visible_text(e)]
    if alerts:
        return clip(" ".join(dict.fromkeys(alerts)), 300)
    fresh = [
        e
        for e in elements
        if e.get("new")
        and not is_clickable(e)
        and len(visible_text(e)) >= 3
        and (e.get("zone") or "main") in ("main", "dialog")
    ]
    fresh.sort(key=lambda e: (not is_heading(e),))
    return clip(" ".join(dict.fromkeys(visible_text(e) for e in fresh[:2])), 300)


def answer_message(observation: Observation) -> Answer:
    message = page_message(observation)
    if message:
        return Answer(True, message, "alert, status or new content")
    heading = main_heading(observation)
    if heading is not None:
        text = visible_text(heading)
        lines = page_lines(observation)
        follow = ""
        for n, line in enumerate(lines):
            if norm(line) == norm(text) and n + 1 < len(lines) and len(lines[n + 1]) > 3:
                follow = lines[n + 1]
                break
        return Answer(
            True, clip(f"{text} — {follow}" if follow and len(follow) < 200 else text, 300), "main heading"
        )
    lines = page_lines(observation)
    if lines:
        return Answer(True, clip(lines[0], 300), "first line of the page")
    return Answer(False, "Could not find any message on the page.")
