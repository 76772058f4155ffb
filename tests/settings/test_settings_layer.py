"""The settings layer itself: one validation for every source, random input never escapes as anything but
ConfigError, URLs normalised the same way for ``run`` and ``observe``, and run contexts from parent apps."""

from __future__ import annotations

import math
from dataclasses import dataclass, fields

import pytest
import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from pydantic import BaseModel

from agent.cli import observe_target
from agent.config import ConfigError, context_from_any, load_context, load_settings
from agent.context import Context
from agent.settings_rules import page_url, validate_setting

NAMES = [f.name for f in fields(Context)]
NUMERIC = [f.name for f in fields(Context) if isinstance(getattr(Context(), f.name), int | float)]
NUMERIC = [n for n in NUMERIC if not isinstance(getattr(Context(), n), bool)]

scalars = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(min_value=-(10**20), max_value=10**20),
    st.floats(allow_nan=True, allow_infinity=True),
    st.text(max_size=40),
)
values = st.one_of(
    scalars, st.lists(scalars, max_size=4), st.dictionaries(st.text(max_size=5), scalars, max_size=3)
)
keys = st.one_of(st.sampled_from(NAMES), st.text(min_size=1, max_size=20))


def _check_context(ctx: Context) -> None:
    """What every accepted Context must satisfy: finite, non-negative numbers of the declared type."""
    for name in NUMERIC:
        value = getattr(ctx, name)
        assert isinstance(value, int | float) and not isinstance(value, bool), name
        assert math.isfinite(value) and value >= 0, (name, value)
    for name in ("max_steps", "max_seconds", "navigation_timeout_s", "action_timeout_s", "max_failures"):
        assert getattr(ctx, name) > 0
    for f in fields(Context):
        choices = f.metadata.get("choices")
        if choices:
            assert getattr(ctx, f.name) in choices


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.dictionaries(keys, values, max_size=6))
def test_random_config_files_give_a_context_or_config_error(tmp_path, mapping):
    path = tmp_path / "random.yaml"
    path.write_text(yaml.safe_dump(mapping, allow_unicode=True), encoding="utf-8")
    try:
        ctx = load_context(config_file=path, env={})
    except ConfigError as exc:
        assert "\n" not in str(exc).strip() or "YAML" in str(exc)
        return
    _check_context(ctx)


@settings(max_examples=150, deadline=None)
@given(st.dictionaries(st.sampled_from(NAMES), st.text(max_size=30), max_size=5))
def test_random_env_values_give_a_context_or_config_error(raw):
    env = {"WAYFINDER_" + key.upper(): value for key, value in raw.items()}
    try:
        ctx = load_context(env=env)
    except ConfigError as exc:
        assert any(var in str(exc) for var in env)
        return
    _check_context(ctx)


@settings(max_examples=100, deadline=None)
@given(st.binary(max_size=200))
def test_random_bytes_as_a_config_file(tmp_path_factory, data):
    path = tmp_path_factory.mktemp("bytes") / "c.yaml"
    path.write_bytes(data)
    try:
        ctx = load_context(config_file=path, env={})
    except ConfigError:
        return
    _check_context(ctx)


def test_every_source_validates_the_same_way(tmp_path):
    cfg = tmp_path / "c.yaml"
    for raw in ("nan", "inf", "-1", "0"):
        cfg.write_text(f"max_seconds: {raw}\n")
        with pytest.raises(ConfigError, match=r"max_seconds.*file .*c\.yaml line 1"):
            load_context(config_file=cfg, env={})
        with pytest.raises(ConfigError, match="env WAYFINDER_MAX_SECONDS"):
            load_context(env={"WAYFINDER_MAX_SECONDS": raw})
        with pytest.raises(ConfigError, match="flag --max-seconds"):
            load_settings(
                env={}, overrides={"max_seconds": raw}, override_sources={"max_seconds": "flag --max-seconds"}
            )
        with pytest.raises(ConfigError, match="run context"):
            context_from_any({"max_seconds": raw})


def test_yaml_booleans_for_switch_settings(tmp_path):
    cfg = tmp_path / "c.yaml"
    cfg.write_text("vision: off\nheadless: no\ndraw_badges: on\n")  # YAML 1.1 reads these as booleans
    ctx = load_context(config_file=cfg, env={})
    assert (ctx.vision, ctx.headless, ctx.draw_badges) == ("off", False, True)
    cfg.write_text("vision: on\n")
    assert load_context(config_file=cfg, env={}).vision == "on"
    assert load_context(env={"WAYFINDER_VISION": " Auto "}).vision == "auto"
    assert load_context(env={"WAYFINDER_HEADLESS": "off"}).headless is False


def test_config_sources_name_file_and_line(tmp_path):
    cfg = tmp_path / "c.yaml"
    cfg.write_text("# settings\nmax_steps: 7\n")
    loaded = load_settings(config_file=cfg, env={"WAYFINDER_MAX_SECONDS": "9"})
    assert loaded.context.max_steps == 7 and loaded.context.max_seconds == 9.0
    assert loaded.source_of("max_steps") == f"file {cfg} line 2"
    assert loaded.source_of("max_seconds") == "env WAYFINDER_MAX_SECONDS"


@pytest.mark.parametrize(
    ("raw", "expected"),
    [
        ("example.com", "https://example.com/"),
        ("  'example.com/a b'  ", None),
        ("localhost:8000/x", "http://localhost:8000/x"),
        ("127.0.0.1:9/", "http://127.0.0.1:9/"),
        ("HTTP://Example.com/Path", None),
        ("not-a-url", None),
        ("javascript:alert(1)", None),
        ("two words", None),
    ],
)
def test_run_and_observe_normalise_urls_the_same_way(raw, expected):
    """``run --start-url`` (the start_url setting) and ``observe`` accept and refuse the same URLs."""
    try:
        via_setting = validate_setting("start_url", raw, "flag --start-url")
    except ConfigError:
        via_setting = None
    try:
        via_observe = observe_target(raw)
    except ConfigError:
        via_observe = None
    assert via_setting == via_observe
    if expected is not None:
        assert via_setting == expected == page_url(raw)


def test_observe_keeps_local_files(tmp_path):
    page = tmp_path / "p.html"
    page.write_text("<title>x</title>")
    assert observe_target(str(page)) == str(page)


@dataclass
class ParentAppSettings:
    """A parent LangGraph app's own context type, passed on to Wayfinder as a subgraph."""

    max_steps: int = 5
    user_name: str = "ada"


class PydanticSettings(BaseModel):
    max_seconds: float = 30.0
    headless: bool = True


def test_context_from_any_reads_parent_settings_and_names_what_it_cannot_use():
    with pytest.raises(
        ConfigError, match=r"unknown setting 'user_name' in run context \(ParentAppSettings\)"
    ):
        context_from_any(ParentAppSettings())
    ctx = context_from_any(PydanticSettings(max_seconds=12))
    assert ctx.max_seconds == 12.0 and ctx.headless is True
    with pytest.raises(ConfigError, match=r"'max_seconds' from run context \(PydanticSettings\).*finite"):
        context_from_any(PydanticSettings(max_seconds=float("nan")))
    with pytest.raises(ConfigError, match="not int"):
        context_from_any(3)
    assert context_from_any(None) == Context()
    assert context_from_any({"max_steps": "4"}).max_steps == 4


def test_defaults_file_is_the_generated_text():
    """configs/default.yaml documents every setting and its valid values: regenerate it when a rule changes."""
    from agent.config import DEFAULT_CONFIG, render_defaults_yaml
    from agent.settings_rules import _RULE_WORDS, _RULES

    assert DEFAULT_CONFIG.read_text(encoding="utf-8") == render_defaults_yaml()
    assert set(_RULES) <= set(NAMES) and set(_RULE_WORDS) <= set(NAMES)
    assert set(_RULES) - {"allowed_domains", "blocked_domains"} <= set(_RULE_WORDS)
