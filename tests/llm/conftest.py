"""Fixtures of the LLM backend tests: the scripted chat-completions server and hand-built observations."""

from __future__ import annotations

import pytest

from agent.context import Context
from tests.llm.fake_openai import FakeOpenAIServer, fake_openai, fake_openai_session  # noqa: F401 - fixtures
from tests.llm.helpers import make_observation
from tests.support.factories import scripted_model_settings


@pytest.fixture
def observation() -> dict:
    return make_observation()


@pytest.fixture
def make_context(fake_openai: FakeOpenAIServer):  # noqa: F811 - the fixture above, requested by name
    """Build a Context pointed at the fake server, with fast timeouts and backoff."""

    def build(**overrides) -> Context:
        settings = scripted_model_settings(fake_openai.base_url, model_timeout_s=5.0, model_max_retries=2)
        return Context(**{**settings, "planner": "openai", **overrides})

    return build
