"""Fixtures of the model-judge tests: the scripted OpenAI-compatible server on loopback."""

from __future__ import annotations

from tests.llm.fake_openai import fake_openai, fake_openai_session  # noqa: F401 - fixtures
