"""The bundled "Wayfinder Demo Store": an offline static shop that ``make demo`` / ``python -m agent demo`` runs on.

The site lives in ``site/`` (package data) and is served on 127.0.0.1 by :func:`serve_demo`; nothing on it
reaches the network, so the demo works on an air-gapped machine.
"""

from agent.demo.server import (
    DEMO_CREDENTIALS,
    DEMO_GOAL,
    DEMO_GOAL_ANSWER,
    DEMO_GOALS,
    DEMO_ROOT,
    DEMO_START_PATH,
    serve_demo,
)

__all__ = [
    "DEMO_CREDENTIALS",
    "DEMO_GOAL",
    "DEMO_GOAL_ANSWER",
    "DEMO_GOALS",
    "DEMO_ROOT",
    "DEMO_START_PATH",
    "serve_demo",
]
