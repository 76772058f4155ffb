"""Warming the goal reader before a run's first step needs it.

The goal grammar, the question reader and the judge's goal parts compile some 160 regular expressions the first
time a process reads a goal: 40 to 100 ms, which the first step of a process's first run used to pay (the CLI
runs exactly one). The start node reads the goal once on a worker thread while the start page loads, which takes
far longer, and compiles the role words the steps' references are read against; later runs in the process find
everything compiled.
"""

from __future__ import annotations

import contextlib
import threading

from agent.planning.offline.targets import compile_role_words
from agent.planning.verify.parts import goal_parts

_lock = threading.Lock()
_warm = False


def warm_up(goal: str) -> None:
    """Read ``goal`` once, for the side effect of compiling what reading it needs (first call per process)."""
    global _warm
    with _lock:
        if _warm:
            return
        _warm = True
        with contextlib.suppress(Exception):  # a goal the reader cannot take fails again, visibly, in the run
            goal_parts(goal)
        compile_role_words()  # the steps' references ('the Save button') are read against them
