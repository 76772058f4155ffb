"""One goal, put in the different words users use: a test runs once per wording, and must hold for each."""

from __future__ import annotations

import pytest


def wordings(*goals: str) -> pytest.MarkDecorator:
    """Parametrize the test's ``goal`` with each wording of the same goal."""
    return pytest.mark.parametrize("goal", goals)
