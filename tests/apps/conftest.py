"""Fixtures of the application tests: each application runs once per test module, on loopback."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.apps.harness import Application
from tests.apps.tracker.goals import running_tracker


@pytest.fixture(scope="module")
def tracker() -> Iterator[Application]:
    with running_tracker() as app:
        yield app
