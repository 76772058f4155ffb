"""The suites are complete: every named case (the safety suite's, the network guard's) points at a test that
exists."""

from __future__ import annotations

import importlib

import pytest

from tests.netguard import cases as guard_cases
from tests.security import cases as security_cases


@pytest.mark.parametrize(
    ("package", "cases", "at_least"),
    [("security", security_cases.CASES, 14), ("netguard", guard_cases.CASES, 22)],
)
def test_every_named_case_has_its_test(package: str, cases: dict[str, str], at_least: int) -> None:
    missing = []
    for case, where in cases.items():
        module, _, name = where.partition("::")
        if not callable(getattr(importlib.import_module(f"tests.{package}.{module}"), name, None)):
            missing.append(f"{case}: {where}")
    assert missing == []
    assert len(cases) >= at_least
