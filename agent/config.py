"""Loading run-time settings: defaults < config file < ``WAYFINDER_*`` env < CLI flags.

Every value, whatever its source, goes through one pydantic validation layer (:mod:`agent.settings_rules`):
types, choices, finite numbers in range, URLs normalised. A bad value raises a :class:`ConfigError` naming the
setting, where it came from (flag, env variable, or file and line) and what would be valid.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import MISSING, asdict, fields, is_dataclass
from pathlib import Path
from typing import Any

import yaml

from agent.context import Context
from agent.settings_rules import ConfigError, validate_setting

__all__ = [
    "DEFAULT_CONFIG",
    "ENV_PREFIX",
    "ConfigError",
    "LoadedSettings",
    "context_from_any",
    "defaults_as_dict",
    "load_context",
    "load_settings",
    "read_config_file",
    "read_env",
    "render_defaults_yaml",
]

ENV_PREFIX = "WAYFINDER_"
#: The bundled defaults file; the repo's configs/default.yaml mirrors it for people who read configs/.
DEFAULT_CONFIG = Path(__file__).resolve().parent.parent / "configs" / "default.yaml"


class LoadedSettings:
    """A validated Context plus where each non-default value came from (for error messages)."""

    def __init__(self, context: Context, sources: dict[str, str]):
        self.context = context
        self.sources = sources

    def source_of(self, key: str) -> str:
        return self.sources.get(key, "the defaults")


def _read_text(path: Path, setting: str) -> str:
    """The file's text, or a ConfigError naming the path, what is wrong and the fix."""
    where = f"{setting} {str(path)!r}"
    try:
        if path.is_dir():
            raise ConfigError(f"{where} is a directory; give the path of a YAML settings file")
        return path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise ConfigError(f"{where} does not exist; check the path of the YAML settings file") from None
    except PermissionError:
        raise ConfigError(f"{where} is not readable; fix its permissions or use another file") from None
    except UnicodeDecodeError as exc:
        raise ConfigError(f"{where} is not UTF-8 text (byte {exc.start}); save it as UTF-8 YAML") from None
    except OSError as exc:
        raise ConfigError(
            f"{where} cannot be read ({exc.strerror or exc}); give a readable YAML file"
        ) from None


def _key_lines(text: str) -> dict[str, int]:
    """Line number of each top-level key in a YAML mapping (best effort: {} when it is not one)."""
    try:
        node = yaml.compose(text, Loader=yaml.SafeLoader)
    except yaml.YAMLError:
        return {}
    if not isinstance(node, yaml.MappingNode):
        return {}
    return {str(key.value): key.start_mark.line + 1 for key, _ in node.value}


def _read_file_with_sources(
    path: Path | str, setting: str = "config file"
) -> tuple[dict[str, Any], dict[str, str]]:
    path = Path(path)
    text = _read_text(path, setting)
    try:
        raw = yaml.safe_load(text)
    except yaml.YAMLError as exc:
        raise ConfigError(f"{setting} {str(path)!r} is not valid YAML: {exc}") from None
    if raw is None:
        return {}, {}
    if not isinstance(raw, dict):
        raise ConfigError(f"{setting} {str(path)!r} must hold a mapping of settings (name: value per line)")
    lines = _key_lines(text)
    values: dict[str, Any] = {}
    sources: dict[str, str] = {}
    for key, value in raw.items():
        name = str(key)
        line = lines.get(name)
        source = f"file {path} line {line}" if line else f"file {path}"
        values[name] = validate_setting(name, value, source)
        sources[name] = source
    return values, sources


def read_config_file(path: Path | str) -> dict[str, Any]:
    """Settings from a YAML file (a mapping of setting names to values)."""
    return _read_file_with_sources(path)[0]


def _env_with_sources(env: Mapping[str, str] | None) -> tuple[dict[str, Any], dict[str, str]]:
    env = os.environ if env is None else env
    names = {f.name.upper(): f.name for f in fields(Context)}
    values: dict[str, Any] = {}
    sources: dict[str, str] = {}
    for var, value in env.items():
        if not var.startswith(ENV_PREFIX):
            continue
        suffix = var[len(ENV_PREFIX) :]
        if suffix not in names:
            raise ConfigError(
                f"unknown setting in environment variable {var}; unset it or use one of "
                f"{ENV_PREFIX}<SETTING> with a setting from configs/default.yaml"
            )
        values[names[suffix]] = validate_setting(names[suffix], value, f"env {var}")
        sources[names[suffix]] = f"env {var}"
    return values, sources


def read_env(env: Mapping[str, str] | None = None) -> dict[str, Any]:
    """Settings from ``WAYFINDER_<NAME>`` variables (``WAYFINDER_MAX_STEPS=10``)."""
    return _env_with_sources(env)[0]


def load_settings(
    *,
    config_file: Path | str | None = None,
    env: Mapping[str, str] | None = None,
    overrides: Mapping[str, Any] | None = None,
    override_sources: Mapping[str, str] | None = None,
) -> LoadedSettings:
    """The validated Context for a run with the documented precedence, and each value's source."""
    values: dict[str, Any] = {}
    sources: dict[str, str] = {}
    layers = [_read_file_with_sources(DEFAULT_CONFIG, "defaults file")] if DEFAULT_CONFIG.exists() else []
    if config_file is not None:
        layers.append(_read_file_with_sources(config_file, "--config"))
    layers.append(_env_with_sources(env))
    for layer_values, layer_sources in layers:
        values.update(layer_values)
        sources.update(layer_sources)
    for key, value in (overrides or {}).items():
        if value is not None:
            source = (override_sources or {}).get(key, "command line")
            values[key] = validate_setting(key, value, source)
            sources[key] = source
    return LoadedSettings(Context(**values), sources)


def load_context(
    *,
    config_file: Path | str | None = None,
    env: Mapping[str, str] | None = None,
    overrides: Mapping[str, Any] | None = None,
) -> Context:
    """Build the Context for a run with the documented precedence."""
    return load_settings(config_file=config_file, env=env, overrides=overrides).context


def _as_mapping(value: Any) -> Mapping[str, Any]:
    """A parent app's settings object as a mapping: dataclasses, pydantic models and plain objects."""
    if is_dataclass(value) and not isinstance(value, type):
        return asdict(value)
    dump = getattr(value, "model_dump", None)
    if callable(dump):
        result = dump()
        if isinstance(result, Mapping):
            return result
    attrs = getattr(value, "__dict__", None)
    if isinstance(attrs, dict) and attrs:
        return {k: v for k, v in attrs.items() if not k.startswith("_")}
    raise ConfigError(
        f"run context must be a Context or a mapping of settings, not {type(value).__name__}; "
        "pass context=Context(...) or a dict of Wayfinder settings"
    )


def context_from_any(value: Any) -> Context:
    """The Context a node should use: LangGraph gives None (no context), a dict (Studio/SDK) or a Context.

    A parent app's own settings object (dataclass, pydantic model) is read field by field; a field Wayfinder
    does not know is a ConfigError naming it, so a mismatched ``context_schema`` is found at once.
    """
    if value is None:
        return Context()
    if isinstance(value, Context):
        return value
    mapping = value if isinstance(value, Mapping) else _as_mapping(value)
    source = "run context" if isinstance(value, Mapping) else f"run context ({type(value).__name__})"
    return Context(**{str(k): validate_setting(str(k), v, source) for k, v in mapping.items()})


def defaults_as_dict() -> dict[str, Any]:
    """Context defaults, for writing configs/default.yaml and documentation."""
    out = {}
    for f in fields(Context):
        if f.default is not MISSING:
            out[f.name] = f.default
        elif f.default_factory is not MISSING:  # type: ignore[misc]
            out[f.name] = f.default_factory()  # type: ignore[misc]
    return out


def render_defaults_yaml() -> str:
    """configs/default.yaml's text: every setting with its description, valid values and default."""
    import json
    import textwrap

    from agent.settings_rules import describe_rule

    lines = [
        "# Wayfinder defaults. Precedence: CLI flags > WAYFINDER_* env > --config FILE > this file > code defaults.",
        "# Every key is a field of agent.context.Context; unknown keys are rejected with a message naming the key,",
        "# and every value is validated (type, choices, finite numbers in range) whatever its source.",
        "# Regenerate after adding a setting: python -m agent.config > configs/default.yaml",
        "",
    ]
    defaults = defaults_as_dict()
    for f in fields(Context):
        text = f.metadata.get("description", "")
        rule = describe_rule(f.name)
        if rule:
            text = f"{text} Valid: {rule}."
        lines += ["# " + line for line in textwrap.wrap(text, 108)]
        lines += [f"{f.name}: {json.dumps(defaults[f.name])}", ""]
    return "\n".join(lines)


if __name__ == "__main__":
    print(render_defaults_yaml(), end="")
