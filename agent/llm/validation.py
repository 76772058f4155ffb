"""Checking model replies: light normalization, JSON-schema validation, then semantic checks.

Normalization only fills what a weaker model commonly leaves out and cannot change the decision (missing
reasoning text, ``"12"`` for 12, null-valued args). Everything that decides what happens — the steps, the
action, the element — must be present and valid, or the reply is rejected with a message that is sent back to
the model in the re-ask.
"""

from __future__ import annotations

from typing import Any

from jsonschema import Draft202012Validator

from agent.schemas import load_schema
from agent.types import ABILITY_ACTIONS, ALL_ACTIONS, ELEMENT_ACTIONS, REQUIRED_ARGS, ActionArgs, Observation

PLANNER_SCHEMA = load_schema("planner_output")
EXECUTOR_SCHEMA = load_schema("executor_output")
_PLANNER_VALIDATOR = Draft202012Validator(PLANNER_SCHEMA)
_EXECUTOR_VALIDATOR = Draft202012Validator(EXECUTOR_SCHEMA)

MAX_PROPOSED_ACTIONS = 5
_ARG_KEYS = frozenset(ActionArgs.__annotations__)
#: Actions that may name an element besides the element actions (scroll inside it, press a key on it).
_OPTIONAL_ELEMENT_ACTIONS = ("scroll", "press_key")
_MAX_ERRORS = 6


def schema_errors(value: Any, validator: Draft202012Validator) -> list[str]:
    """Readable schema violations, e.g. ``at proposedActions: 'x' is not of type 'array'``."""
    errors = sorted(validator.iter_errors(value), key=lambda e: list(e.absolute_path))
    out = []
    for error in errors[:_MAX_ERRORS]:
        where = "/".join(str(p) for p in error.absolute_path)
        out.append(f"at {where}: {error.message}" if where else error.message)
    return out


# ---------------------------------------------------------------------------------------------------------
# Planner
# ---------------------------------------------------------------------------------------------------------


def normalize_planner(value: dict[str, Any]) -> dict[str, Any]:
    """Fill the narrative fields a model left out, so only decisive omissions fail validation."""
    out = dict(value)
    for key in ("userTask", "executionHistory", "latestBrowserState", "stepByStepReasoning", "finalAnswer"):
        if out.get(key) is None:
            out[key] = ""
    if isinstance(out.get("proposedActions"), list):
        out["proposedActions"] = [a.strip() if isinstance(a, str) else a for a in out["proposedActions"]]
    return out


def planner_errors(value: dict[str, Any]) -> list[str]:
    """Why a (normalized) planner reply is unusable; empty when it is fine."""
    errors = schema_errors(value, _PLANNER_VALIDATOR)
    if errors:
        return errors
    actions = value["proposedActions"]
    if not value["taskComplete"] and not 1 <= len(actions) <= MAX_PROPOSED_ACTIONS:
        errors.append(
            f"proposedActions must hold 1-{MAX_PROPOSED_ACTIONS} steps when taskComplete is false "
            f"(got {len(actions)})"
        )
    return errors


# ---------------------------------------------------------------------------------------------------------
# Executor
# ---------------------------------------------------------------------------------------------------------


def observed_ids(observation: Observation | None) -> set[int]:
    """Element ids the observation knows: every marked element plus the ids shown in its text."""
    obs = observation or {}
    ids = {e["id"] for e in obs.get("elements", []) or [] if isinstance(e.get("id"), int)}
    ids.update(i for i in obs.get("kept_ids", []) or [] if isinstance(i, int))
    return ids


def _as_int(value: Any) -> Any:
    if isinstance(value, str) and value.strip().lstrip("[").rstrip("]").isdigit():
        return int(value.strip().lstrip("[").rstrip("]"))
    if isinstance(value, float) and value.is_integer():
        return int(value)
    return value


def normalize_executor(value: dict[str, Any]) -> dict[str, Any]:
    """Defaults for omitted optional parts; ids as ints; null args dropped; unknown arg keys dropped."""
    out = dict(value)
    out["element_id"] = _as_int(out.get("element_id"))
    args = out.get("args")
    if args is None:
        args = {}
    if isinstance(args, dict):
        args = {k: v for k, v in args.items() if v is not None and k in _ARG_KEYS}
    out["args"] = args
    for key in ("message", "reasoning"):
        if out.get(key) is None:
            out[key] = ""
    if out.get("error_type") is None:
        out["error_type"] = "none" if out.get("status") == "success" else "unknown"
    if out.get("status") == "failure" and out.get("error_type") == "none":
        out["error_type"] = "unknown"
    if out.get("status") == "success" and out.get("error_type") not in (None, "none"):
        out["error_type"] = "none"
    action = out.get("action")
    if action in ALL_ACTIONS + ABILITY_ACTIONS and action not in ELEMENT_ACTIONS + _OPTIONAL_ELEMENT_ACTIONS:
        out["element_id"] = None
    return out


def executor_errors(
    value: dict[str, Any],
    *,
    observation: Observation | None,
    allowed_actions: list[str] | None = None,
) -> list[str]:
    """Why a (normalized) executor reply is unusable; empty when it is fine. Failures need no grounding."""
    errors = schema_errors(value, _EXECUTOR_VALIDATOR)
    if errors or value["status"] == "failure":
        return errors
    action = value["action"]
    element_id = value["element_id"]
    if allowed_actions and action not in allowed_actions:
        errors.append(f"action {action!r} is not allowed now; allowed: {', '.join(allowed_actions)}")
    ids = observed_ids(observation)
    if action in ELEMENT_ACTIONS and element_id is None:
        errors.append(f"action {action!r} needs an element_id from the browser state")
    elif element_id is not None and element_id not in ids:
        errors.append(f"element_id {element_id} is not in the browser state; use one of the listed [id]s")
    required = REQUIRED_ARGS.get(action)
    if required and not isinstance(value["args"].get(required), str):
        errors.append(f"action {action!r} needs args.{required}")
    if action == "switch_tab":
        tabs = {t.get("id") for t in (observation or {}).get("tabs", []) or []}
        tab_id = value["args"].get("tab_id")
        if tabs and tab_id not in tabs:
            errors.append(f"tab_id {tab_id!r} is not an open tab; open tabs: {', '.join(sorted(tabs))}")
    return errors
