"""The planner/translator interface shared by the offline (rules) backend and the LLM backend.

The graph's ``planner`` node calls :meth:`Backend.plan`; its ``translate`` node calls
:meth:`Backend.translate`. Both take and return plain dicts so the graph can record them verbatim.
"""

from __future__ import annotations

from typing import Protocol

# The request/result shapes live with the other data contracts (agent.types, below the llm layer);
# re-exported here because they are the Backend's contract.
from agent.types import (
    HistoryItem,
    Metrics,
    PlanRequest,
    PlanResult,
    TranslateRequest,
    TranslateResult,
    Usage,
)

__all__ = [
    "Backend",
    "HistoryItem",
    "Metrics",
    "PlanRequest",
    "PlanResult",
    "TranslateRequest",
    "TranslateResult",
    "Usage",
]


class Backend(Protocol):
    """A planning backend: ``rules`` (offline, deterministic) or ``openai`` (any OpenAI-compatible server)."""

    name: str

    async def plan(self, request: PlanRequest) -> PlanResult: ...

    async def translate(self, request: TranslateRequest) -> TranslateResult: ...
