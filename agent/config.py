"""Loading run-time settings: defaults < config file < ``WAYFINDER_*`` env < CLI flags.

Every value is checked against :class:`agent.context.Context`: an unknown key, a wrong type or a value outside
a field's choices is rejected with a :class:`ConfigError` that names the key and where it came from.
"""

from __future__ import annotations

import os
import types
import typing
from collections.abc import Mapping
from dataclasses import MISSING, fields
from pathlib import Path
from typing import Any

import yaml

from agent.context import Context

ENV_PREFIX = "WAYFINDER_"
#: The bundled defaults file; the repo's configs/default.yaml mirrors it for people who read configs/.
DEFAULT_CONFIG = Path(__file__).resolve().parent.parent / "configs" / "default.yaml"


class ConfigError(ValueError):
    """A bad setting. The message names the key and its source."""


def _field_types() -> dict[str, Any]:
    hints = typing.get_type_hints(Context)
    return {f.name: hints[f.name] for f in fields(Context)}


def _base_type(annotation: Any) -> tuple[type, bool]:
    """(underlying type, optional?) of an annotation such as ``int``, ``str | None`` or ``list[str]``."""
    optional = False
    origin = typing.get_origin(annotation)
    if origin in (typing.Union, types.UnionType):
        args = [a for a in typing.get_args(annotation) if a is not type(None)]
        optional = len(args) < len(typing.get_args(annotation))
        annotation = args[0]
        origin = typing.get_origin(annotation)
    if origin is list:
        return list, optional
    if origin is typing.Literal:
        return str, optional  # choices are checked against the field's metadata
    return annotation, optional


def coerce(key: str, value: Any, source: str) -> Any:
    """Convert ``value`` to the type of Context field ``key`` or raise ConfigError."""
    types_by_field = _field_types()
    if key not in types_by_field:
        known = ", ".join(sorted(types_by_field))
        raise ConfigError(f"unknown setting {key!r} in {source} (known settings: {known})")
    base, optional = _base_type(types_by_field[key])
    if value is None or (isinstance(value, str) and value.strip().lower() in ("", "none", "null")):
        if optional:
            return None
        if base is list:
            return []
        raise ConfigError(f"setting {key!r} in {source} must not be empty")
    try:
        if base is bool:
            if isinstance(value, bool):
                result: Any = value
            elif isinstance(value, str) and value.strip().lower() in ("1", "true", "yes", "on"):
                result = True
            elif isinstance(value, str) and value.strip().lower() in ("0", "false", "no", "off"):
                result = False
            else:
                raise ValueError("expected true/false")
        elif base is int:
            if isinstance(value, bool) or (isinstance(value, float) and not value.is_integer()):
                raise ValueError("expected a whole number")
            result = int(value)
        elif base is float:
            if isinstance(value, bool):
                raise ValueError("expected a number")
            result = float(value)
        elif base is list:
            if isinstance(value, str):
                result = [part.strip() for part in value.split(",") if part.strip()]
            elif isinstance(value, list | tuple):
                result = [str(part) for part in value]
            else:
                raise ValueError("expected a list")
        else:
            if isinstance(value, dict | list):
                raise ValueError("expected text")
            result = str(value)
    except (TypeError, ValueError) as exc:
        raise ConfigError(f"setting {key!r} in {source}: {value!r} is not valid ({exc})") from None
    field = next(f for f in fields(Context) if f.name == key)
    choices = field.metadata.get("choices")
    if choices and result not in choices:
        raise ConfigError(f"setting {key!r} in {source}: {result!r} is not one of {', '.join(choices)}")
    if base in (int, float) and result < 0:
        raise ConfigError(f"setting {key!r} in {source}: {result!r} must not be negative")
    return result


def read_config_file(path: Path | str) -> dict[str, Any]:
    """Settings from a YAML file (a mapping of setting names to values)."""
    path = Path(path)
    try:
        raw = yaml.safe_load(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise ConfigError(f"config file {str(path)!r} does not exist") from None
    except yaml.YAMLError as exc:
        raise ConfigError(f"config file {str(path)!r} is not valid YAML: {exc}") from None
    if raw is None:
        return {}
    if not isinstance(raw, dict):
        raise ConfigError(f"config file {str(path)!r} must hold a mapping of settings")
    return {str(k): coerce(str(k), v, f"config file {path}") for k, v in raw.items()}


def read_env(env: Mapping[str, str] | None = None) -> dict[str, Any]:
    """Settings from ``WAYFINDER_<NAME>`` variables (``WAYFINDER_MAX_STEPS=10``)."""
    env = os.environ if env is None else env
    names = {f.name.upper(): f.name for f in fields(Context)}
    out: dict[str, Any] = {}
    for var, value in env.items():
        if not var.startswith(ENV_PREFIX):
            continue
        suffix = var[len(ENV_PREFIX) :]
        if suffix not in names:
            raise ConfigError(f"unknown setting in environment variable {var}")
        out[names[suffix]] = coerce(names[suffix], value, f"env {var}")
    return out


def load_context(
    *,
    config_file: Path | str | None = None,
    env: Mapping[str, str] | None = None,
    overrides: Mapping[str, Any] | None = None,
) -> Context:
    """Build the Context for a run with the documented precedence."""
    values: dict[str, Any] = {}
    if DEFAULT_CONFIG.exists():
        values.update(read_config_file(DEFAULT_CONFIG))
    if config_file is not None:
        values.update(read_config_file(config_file))
    values.update(read_env(env))
    for key, value in (overrides or {}).items():
        if value is not None:
            values[key] = coerce(key, value, "command line")
    return Context(**values)


def context_from_any(value: Any) -> Context:
    """The Context a node should use: LangGraph gives None (no context), a dict (Studio/SDK) or a Context."""
    if value is None:
        return Context()
    if isinstance(value, Context):
        return value
    if isinstance(value, Mapping):
        return Context(**{k: coerce(k, v, "run context") for k, v in value.items()})
    raise ConfigError(f"run context must be a mapping of settings, not {type(value).__name__}")


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
    """configs/default.yaml's text: every setting with its description and default."""
    import json
    import textwrap

    lines = [
        "# Wayfinder defaults. Precedence: CLI flags > WAYFINDER_* env > --config FILE > this file > code defaults.",
        "# Every key is a field of agent.context.Context; unknown keys are rejected with a message naming the key.",
        "# Regenerate after adding a setting: python -m agent.config > configs/default.yaml",
        "",
    ]
    defaults = defaults_as_dict()
    for f in fields(Context):
        lines += ["# " + line for line in textwrap.wrap(f.metadata.get("description", ""), 108)]
        lines += [f"{f.name}: {json.dumps(defaults[f.name])}", ""]
    return "\n".join(lines)


if __name__ == "__main__":
    print(render_defaults_yaml(), end="")
