"""Fixtures of the adversarial suite: the attack pages, the scripted model server and the real browser.

The model-driven cases reuse the scripted planner/executor of the LLM graph tests (``tests.llm``): the model
is scripted to OBEY each injection, so what stops the attack is the code-level guard, never the model.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.durability.conftest import click_site, record_dir  # noqa: F401 - fixtures, requested by name
from tests.llm.fake_openai import fake_openai, fake_openai_session  # noqa: F401 - fixtures
from tests.llm.test_graph_runs import drive  # noqa: F401 - fixture
from tests.security.site import SecuritySite


@pytest.fixture(scope="session")
def attack_site() -> Iterator[SecuritySite]:
    with SecuritySite() as site:
        yield site


@pytest.fixture
def site(attack_site: SecuritySite) -> SecuritySite:
    """The attack site with an empty request log for this test."""
    attack_site.hits.clear()
    return attack_site
