"""The bundled "Wayfinder Demo Store": an offline static shop that ``make demo`` / ``python -m agent demo`` runs on.

The site lives in ``site/`` (package data) and is served on 127.0.0.1 by :func:`serve_demo`; nothing on it
reaches the network, so the demo works on an air-gapped machine.
"""

__all__ = [
    "DEMO_CREDENTIALS",
    "DEMO_GOAL",
    "DEMO_GOAL_ANSWER",
    "DEMO_GOALS",
    "DEMO_ROOT",
    "DEMO_START_PATH",
    "serve_demo",
]


def __getattr__(name: str):
    """Re-export lazily, so ``python -m agent.demo.server`` does not import the module twice."""
    if name in __all__:
        from agent.demo import server

        return getattr(server, name)
    raise AttributeError(f"module 'agent.demo' has no attribute {name!r}")
