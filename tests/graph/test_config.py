"""Settings: precedence, validation with the bad key named, and the defaults file kept in step."""

from __future__ import annotations

from dataclasses import fields

import pytest
import yaml

from agent.config import DEFAULT_CONFIG, ConfigError, context_from_any, defaults_as_dict, load_context
from agent.context import Context


def test_defaults_file_matches_context_defaults():
    on_disk = yaml.safe_load(DEFAULT_CONFIG.read_text())
    assert set(on_disk) == {f.name for f in fields(Context)}
    assert on_disk == defaults_as_dict()


def test_precedence_cli_over_env_over_file(tmp_path):
    cfg = tmp_path / "c.yaml"
    cfg.write_text("max_steps: 11\nmax_seconds: 50\nheadless: false\n")
    ctx = load_context(
        config_file=cfg,
        env={"WAYFINDER_MAX_STEPS": "12", "WAYFINDER_MAX_SECONDS": "60"},
        overrides={"max_steps": 13},
    )
    assert ctx.max_steps == 13  # CLI
    assert ctx.max_seconds == 60.0  # env beats file
    assert ctx.headless is False  # file beats defaults
    assert ctx.max_planner_calls == Context().max_planner_calls


@pytest.mark.parametrize(
    ("yaml_text", "needle"),
    [
        ("max_stepz: 3\n", "max_stepz"),
        ("max_steps: many\n", "max_steps"),
        ("planner: gpt\n", "planner"),
        ("headless: perhaps\n", "headless"),
        ("max_seconds: -5\n", "max_seconds"),
        ("- just\n- a list\n", "mapping"),
        ("max_steps: [1\n", "not valid YAML"),
    ],
)
def test_invalid_config_names_the_problem(tmp_path, yaml_text, needle):
    cfg = tmp_path / "bad.yaml"
    cfg.write_text(yaml_text)
    with pytest.raises(ConfigError) as err:
        load_context(config_file=cfg, env={})
    assert needle in str(err.value)


def test_unknown_env_variable_is_rejected():
    with pytest.raises(ConfigError, match="WAYFINDER_NOPE"):
        load_context(env={"WAYFINDER_NOPE": "1"})


def test_env_lists_and_optional_values():
    ctx = load_context(env={"WAYFINDER_ALLOWED_DOMAINS": "a.test, b.test", "WAYFINDER_MODEL": ""})
    assert ctx.allowed_domains == ["a.test", "b.test"]
    assert ctx.model is None


def test_missing_config_file_is_a_clear_error(tmp_path):
    with pytest.raises(ConfigError, match="does not exist"):
        load_context(config_file=tmp_path / "nope.yaml", env={})


def test_context_from_any_accepts_none_dict_and_context():
    assert context_from_any(None) == Context()
    assert context_from_any({"max_steps": "4"}).max_steps == 4
    ctx = Context(max_steps=2)
    assert context_from_any(ctx) is ctx
    with pytest.raises(ConfigError):
        context_from_any({"bogus": 1})


def test_uses_model():
    assert not Context().uses_model
    assert Context(model="m").uses_model
    assert not Context(model="m", planner="rules").uses_model
    assert Context(planner="openai").uses_model
