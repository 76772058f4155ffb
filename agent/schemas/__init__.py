"""JSON schemas of the planner, executor and judge outputs (each with the top-level ``title`` that
``with_structured_output`` needs as the schema's name)."""

from __future__ import annotations

import copy
import json
from functools import cache
from pathlib import Path
from typing import Any

SCHEMA_DIR = Path(__file__).resolve().parent
SCHEMA_NAMES = ("planner_output", "executor_output", "judge_output")


@cache
def _load(name: str) -> dict[str, Any]:
    if name not in SCHEMA_NAMES:
        raise ValueError(f"unknown schema {name!r}; expected one of {', '.join(SCHEMA_NAMES)}")
    return json.loads((SCHEMA_DIR / f"{name}.json").read_text(encoding="utf-8"))


def load_schema(name: str) -> dict[str, Any]:
    """A fresh copy of the named schema (callers may not mutate the cached one)."""
    return copy.deepcopy(_load(name))
