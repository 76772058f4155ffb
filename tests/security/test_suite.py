"""The suite is complete: every named case points at a test that exists."""

from __future__ import annotations

import importlib

from tests.security.cases import CASES


def test_every_named_case_has_its_test():
    missing = []
    for case, where in CASES.items():
        module, _, name = where.partition("::")
        if not callable(getattr(importlib.import_module(f"tests.security.{module}"), name, None)):
            missing.append(f"{case}: {where}")
    assert missing == []
    assert len(CASES) >= 14
