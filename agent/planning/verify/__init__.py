"""Trustworthy endings: the goal's checkable parts and the judge that proves each one from recorded evidence.

Sits between planning (it reads goals with the offline parser) and the nodes (goal_check applies it).
"""

from __future__ import annotations

from agent.planning.verify.answers import NOT_ON_PAGE, answer_for, quote_candidates
from agent.planning.verify.judge import Evidence, Verdict, judge
from agent.planning.verify.parts import GoalPart, answer_part, describe_parts, goal_parts

__all__ = [
    "NOT_ON_PAGE",
    "Evidence",
    "GoalPart",
    "Verdict",
    "answer_for",
    "answer_part",
    "describe_parts",
    "goal_parts",
    "judge",
    "quote_candidates",
]
