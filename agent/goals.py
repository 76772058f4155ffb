"""Goal classification, fixed at the start of a run: ``goal_kind`` and ``task_mode``.

``goal_kind`` (object | list | action) says what kind of artifact ends the run; ``task_mode``
(find | browse | answer | download) only tweaks planner hints, never the FSM.
"""

from __future__ import annotations

import re

_QUESTION_START = re.compile(
    r"^\s*(what|what's|whats|how many|how much|which|who|whom|whose|when|where|why|is|are|does|do|did|can|"
    r"tell me|give me|find out|list|name|show me|report|get me|get the|read)\b",
    re.IGNORECASE,
)
_QUESTION_ANYWHERE = re.compile(
    r"\b(tell me|what is|what's|what are|how many|how much|which|report back|let me know|give me the|"
    r"find out|answer)\b|\?\s*$",
    re.IGNORECASE,
)
_LIST_WORDS = re.compile(
    r"\b(list|all the|all of the|every|each|names of|titles of|top \d+|\d+ (?:items|results))\b",
    re.IGNORECASE,
)
_DOWNLOAD = re.compile(r"\b(download|save the (?:file|pdf|invoice|report)|export)\b", re.IGNORECASE)
_FIND = re.compile(r"^\s*(find|locate|look for|look up)\b", re.IGNORECASE)


def task_mode(goal: str) -> str:
    """find | browse | answer | download, from the wording of the goal."""
    if _DOWNLOAD.search(goal):
        return "download"
    if _QUESTION_START.search(goal) or _QUESTION_ANYWHERE.search(goal):
        return "answer"
    if _FIND.search(goal):
        return "find"
    return "browse"


def goal_kind(goal: str) -> str:
    """object (one thing to find or answer), list (several), or action (do something)."""
    mode = task_mode(goal)
    if mode in ("answer", "find"):
        return "list" if _LIST_WORDS.search(goal) else "object"
    return "action"


def validate_goal(goal: object) -> str | None:
    """A reason the goal is unusable, or None. Goals are plain text of reasonable length."""
    if not isinstance(goal, str):
        return "the goal must be text"
    stripped = goal.strip()
    if not stripped:
        return "the goal is empty"
    if len(stripped) > 4000:
        return "the goal is longer than 4000 characters"
    # str.isalnum, not a character-class regex: a class reaching U+FFFF took 10-15 ms to compile, paid by
    # the first step of every process
    if not any(ch.isalnum() for ch in stripped):
        return "the goal has no words in it"
    return None
