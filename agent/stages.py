"""The monotonic stage FSM: orient -> context -> locate -> verify -> done.

Stages only move forward (``promote`` never demotes) and gate which meta actions the agent may use.
"""

from __future__ import annotations

from agent.types import BROWSER_ACTIONS

STAGES: tuple[str, ...] = ("orient", "context", "locate", "verify", "done")


def stage_index(stage: str | None) -> int:
    return STAGES.index(stage) if stage in STAGES else 0


def promote(current: str | None, candidate: str) -> str:
    """The later of two stages: the FSM never goes back."""
    return STAGES[max(stage_index(current), stage_index(candidate))]


def allowed_actions(stage: str | None, *, interactive: bool = False) -> list[str]:
    """Actions the planner/translator may use at a stage.

    Browser actions are always allowed. ``done`` needs at least the context stage (something was seen);
    ``ask_user`` only on later stages (locate/verify) and only when prompts are on, as the design says.
    """
    index = stage_index(stage)
    actions = list(BROWSER_ACTIONS)
    if index >= stage_index("context"):
        actions.append("done")
    if interactive and index >= stage_index("locate"):
        actions.append("ask_user")
    return actions
