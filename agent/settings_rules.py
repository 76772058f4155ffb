"""The one validation layer for settings: a pydantic ``TypeAdapter`` per :class:`~agent.context.Context` field.

CLI flags, ``WAYFINDER_*`` variables, YAML files and run contexts all pass their raw values through
:func:`validate_setting`, so a value means the same wherever it is written: numbers are finite and in range,
choices are checked (YAML's ``off``/``on`` booleans count for off/auto/on settings), lists may be written
comma-separated, and URLs are normalised by :mod:`agent.browser.urls` (the same normaliser navigation uses).
"""

from __future__ import annotations

import functools
import json
import re
import types
import typing
from dataclasses import fields
from typing import Annotated, Any

from pydantic import AfterValidator, BeforeValidator, ConfigDict, Field, TypeAdapter, ValidationError

from agent.browser.urls import LOCAL_HOSTS, check_navigation, host_of, normalize_url
from agent.context import Context
from agent.tools.mcp import server_connection
from agent.util.secrets import parse_secret

#: Seconds in a week: the longest time budget or timeout that is not a typo.
_WEEK_S = 7 * 24 * 3600.0
_BIG_COUNT = 1_000_000


class ConfigError(ValueError):
    """A bad setting. The message names the key, its source and what would be valid."""


def _seconds(*, low: float = 0.0, high: float = _WEEK_S, zero_ok: bool = False) -> Any:
    if zero_ok:
        return Annotated[float, Field(ge=low, le=high, allow_inf_nan=False)]
    return Annotated[float, Field(gt=low, le=high, allow_inf_nan=False)]


def _count(*, low: int = 1, high: int = _BIG_COUNT) -> Any:
    return Annotated[int, Field(ge=low, le=high)]


def _amount() -> Any:
    return Annotated[float, Field(ge=0, le=1e9, allow_inf_nan=False)]


# ---------------------------------------------------------------------------------------------------------------
# URLs


def _is_bare_word(text: str, url: str) -> bool:
    """``not-a-url``: no scheme and a one-label host that is not local; browsers would search for it."""
    if re.match(r"^[a-zA-Z][a-zA-Z0-9+.-]*://", text):
        return False
    host = (host_of(url) or "").strip("[]")
    return bool(host) and "." not in host and ":" not in host and host not in LOCAL_HOSTS


def page_url(raw: str) -> str:
    """A page URL normalised like navigation does (``example.com`` -> ``https://example.com/``), else ValueError."""
    text = str(raw).strip()
    check = check_navigation(text)
    if not check.ok:
        raise ValueError(check.reason)
    if _is_bare_word(text, check.url):
        raise ValueError(
            f"{text!r} is not a URL or host name (write http://{text}/ if it is a host on your network)"
        )
    return check.url


def _server_url(raw: str, schemes: tuple[str, ...]) -> str:
    """A server's base URL (model server, CDP endpoint): an explicit scheme from ``schemes`` and a host."""
    text = normalize_url(str(raw))
    scheme = text.split(":", 1)[0].lower() if ":" in text else ""
    if scheme not in schemes or not host_of(text.replace(scheme + "://", "http://", 1)):
        raise ValueError(f"must be a URL starting with {' or '.join(s + '://' for s in schemes)} and a host")
    return text


def _domain_list(entries: list[str]) -> list[str]:
    for entry in entries:
        if not re.fullmatch(r"[*.]*[\w.\-:\[\]/@]+", entry):
            raise ValueError(f"{entry!r} is not a domain (write example.com or *.example.com)")
    return entries


def _secret_list(entries: list[str]) -> list[str]:
    names = [parse_secret(entry).name for entry in entries]
    doubled = sorted({name for name in names if names.count(name) > 1})
    if doubled:
        raise ValueError(f"secret {doubled[0]} is given twice")
    return entries


def mcp_server_problems(servers: dict[str, dict[str, Any]]) -> dict[str, dict[str, Any]]:
    """Each MCP server is a stdio command or an HTTP URL (ValueError naming the server otherwise)."""
    for name, spec in servers.items():
        server_connection(name, spec)
    return servers


def _confirm_word(value: Any) -> Any:
    """``yes`` is the flag's word for ``auto`` (approve risky actions without asking)."""
    return "auto" if isinstance(value, str) and value.strip().lower() == "yes" else value


# ---------------------------------------------------------------------------------------------------------------
# the rules: fields whose type alone does not say what is valid

_RULES: dict[str, Any] = {
    "temperature": Annotated[float, Field(ge=0, le=2, allow_inf_nan=False)],
    "model_timeout_s": _seconds(high=3600),
    "model_max_retries": _count(low=0, high=20),
    "planner_max_output_tokens": _count(low=16, high=1_000_000),
    "executor_max_output_tokens": _count(low=16, high=1_000_000),
    "judge_max_output_tokens": _count(low=16, high=1_000_000),
    "model_retry_backoff_s": _seconds(high=600, zero_ok=True),
    "price_per_1k_input": _amount(),
    "price_per_1k_output": _amount(),
    "max_steps": _count(),
    "max_planner_calls": _count(),
    "max_seconds": _seconds(),
    "max_failures": _count(),
    "max_auto_scrolls": _count(low=0, high=1000),
    "max_tokens": _count(low=0, high=10**12),
    "max_cost_usd": _amount(),
    "repeat_limit": _count(high=1000),
    "stagnation_limit": _count(high=1000),
    "viewport_width": _count(low=100, high=16384),
    "vision_image_size": _count(low=64, high=8192),
    "viewport_height": _count(low=100, high=16384),
    "action_timeout_s": _seconds(high=3600),
    "navigation_timeout_s": _seconds(high=3600),
    "browser_idle_timeout_s": _seconds(zero_ok=True),
    "max_elements": _count(),
    "max_chars": _count(low=100, high=10**8),
    "start_url": Annotated[str | None, AfterValidator(lambda v: None if v is None else page_url(v))],
    "base_url": Annotated[
        str | None, AfterValidator(lambda v: None if v is None else _server_url(v, ("http", "https")))
    ],
    "cdp_url": Annotated[
        str | None,
        AfterValidator(lambda v: None if v is None else _server_url(v, ("http", "https", "ws", "wss"))),
    ],
    "allowed_domains": Annotated[list[str], AfterValidator(_domain_list)],
    "blocked_domains": Annotated[list[str], AfterValidator(_domain_list)],
    "secrets": Annotated[list[str], AfterValidator(_secret_list)],
    "confirm_policy": Annotated[typing.Literal["ask", "auto", "deny"], BeforeValidator(_confirm_word)],
    "max_model_calls": _count(low=0),
    "max_consecutive_failures": _count(low=0, high=1000),
    "mcp_servers": Annotated[dict[str, dict[str, Any]], AfterValidator(mcp_server_problems)],
    "mcp_timeout_s": _seconds(high=3600),
}

#: Settings whose values are never repeated in a message (an error names the setting and the problem only).
SECRET_SETTINGS = ("secrets", "api_key")

#: Plain-words summaries of the rules, for configs/default.yaml.
_RULE_WORDS: dict[str, str] = {
    "temperature": "a number from 0 to 2",
    "model_timeout_s": "seconds, more than 0 and at most 3600",
    "model_max_retries": "a whole number from 0 to 20",
    "planner_max_output_tokens": "a whole number of tokens, 16 or more",
    "executor_max_output_tokens": "a whole number of tokens, 16 or more",
    "judge_max_output_tokens": "a whole number of tokens, 16 or more",
    "model_retry_backoff_s": "seconds, 0 to 600",
    "price_per_1k_input": "a number, 0 or more",
    "price_per_1k_output": "a number, 0 or more",
    "max_steps": "a whole number, 1 or more",
    "max_planner_calls": "a whole number, 1 or more",
    "max_seconds": "seconds, more than 0 and at most a week (604800)",
    "max_failures": "a whole number, 1 or more",
    "max_auto_scrolls": "a whole number from 0 to 1000",
    "max_tokens": "a whole number, 0 or more",
    "max_cost_usd": "a number, 0 or more",
    "max_model_calls": "a whole number, 0 or more",
    "max_consecutive_failures": "a whole number from 0 to 1000",
    "mcp_servers": "a mapping of server names to {command, args, env, cwd} (stdio) or {url, headers} "
    "(streamable HTTP)",
    "mcp_timeout_s": "seconds, more than 0 and at most 3600",
    "secrets": "a list of NAME=VALUE or NAME=VALUE@domain (comma-separated in WAYFINDER_SECRETS)",
    "confirm_policy": "ask | auto (or yes) | deny",
    "repeat_limit": "a whole number from 1 to 1000",
    "stagnation_limit": "a whole number from 1 to 1000",
    "viewport_width": "CSS pixels from 100 to 16384",
    "vision_image_size": "pixels from 64 to 8192",
    "viewport_height": "CSS pixels from 100 to 16384",
    "action_timeout_s": "seconds, more than 0 and at most 3600",
    "navigation_timeout_s": "seconds, more than 0 and at most 3600",
    "browser_idle_timeout_s": "seconds, 0 (never) to a week (604800)",
    "max_elements": "a whole number, 1 or more",
    "max_chars": "a whole number, 100 or more",
    "start_url": "an http(s) URL or host name, normalised like the address bar (example.com -> https://example.com/)",
    "base_url": "an http:// or https:// URL; without an API key it must be a local server",
    "cdp_url": "an http(s):// or ws(s):// URL",
    "vision": "off, auto or on (YAML false/true mean off/on)",
    "record_dir": "a directory that exists or can be created, and is writable (checked before the browser starts)",
    "prompts_dir": "an existing directory (checked before a run starts)",
    "browser_executable": "an existing executable file (checked before the browser starts)",
}


@functools.cache
def _field_info() -> tuple[dict[str, Any], dict[str, Any]]:
    """(field by name, type hint by name) of Context."""
    hints = typing.get_type_hints(Context)
    return {f.name: f for f in fields(Context)}, {f.name: hints[f.name] for f in fields(Context)}


@functools.cache
def _adapter(key: str) -> TypeAdapter[Any]:
    """The pydantic adapter for one setting (its rule, else its annotated type)."""
    annotation = _RULES.get(key, _field_info()[1][key])
    return TypeAdapter(annotation, config=ConfigDict(coerce_numbers_to_str=True, str_strip_whitespace=True))


def _shape(annotation: Any) -> tuple[str, bool, tuple[str, ...]]:
    """(kind, optional?, choices) of an annotation: kind is bool, int, float, list, choice or text."""
    optional = False
    args = typing.get_args(annotation)
    if typing.get_origin(annotation) in (typing.Union, types.UnionType):
        inner = [a for a in args if a is not type(None)]
        optional = len(inner) < len(args)
        annotation = inner[0]
    origin = typing.get_origin(annotation)
    if origin is list:
        return "list", optional, ()
    if origin is dict:
        return "mapping", optional, ()
    if origin is typing.Literal:
        return "choice", optional, tuple(typing.get_args(annotation))
    for kind in (bool, int, float):
        if annotation is kind:
            return kind.__name__, optional, ()
    return "text", optional, ()


def _is_empty(value: Any) -> bool:
    return value is None or (isinstance(value, str) and value.strip().lower() in ("", "none", "null"))


def _prepare(key: str, value: Any) -> Any:
    """Bring a raw value into the shape pydantic should see; raise ValueError for shapes that are never right."""
    kind, optional, choices = _shape(_field_info()[1][key])
    if _is_empty(value):
        if optional:
            return None
        if kind == "list":
            return []
        if kind == "mapping":
            return {}
        raise ValueError("must not be empty; give a value or remove the setting")
    if kind in ("int", "float") and isinstance(value, bool):
        raise ValueError("expected a number, not true/false")
    if kind == "mapping" and isinstance(value, str):
        return json.loads(value)  # (an environment variable holds JSON; a bad one is a ValueError)
    if kind in ("text", "choice", "list") and isinstance(value, dict):
        raise ValueError("expected text, not a mapping")
    if kind == "text" and isinstance(value, bool | list | tuple):
        raise ValueError("expected text")
    if kind == "choice":
        if isinstance(value, bool) and {"off", "on"} <= set(choices):
            return "on" if value else "off"
        if isinstance(value, str):
            return value.strip().lower()
    if kind == "list" and isinstance(value, str):
        return [part.strip() for part in value.split(",") if part.strip()]
    if kind == "list" and isinstance(value, list | tuple):
        if any(isinstance(part, dict | list | tuple | bool) or part is None for part in value):
            raise ValueError("expected a list of names")
        return [str(part) for part in value]
    if kind == "int" and isinstance(value, float) and value.is_integer():
        return int(value)
    return value


def _short_repr(value: Any, limit: int = 80) -> str:
    text = repr(value)
    return text if len(text) <= limit else text[: limit - 3] + "..."


def _pydantic_reason(exc: ValidationError) -> str:
    error = exc.errors(include_url=False)[0]
    message = str(error.get("msg") or "is not valid")
    message = message.removeprefix("Value error, ")
    if message.startswith("Input should"):
        message = "should" + message[len("Input should") :]
    return " ".join(message.split())


def known_settings() -> list[str]:
    return sorted(_field_info()[0])


def validate_setting(key: str, value: Any, source: str) -> Any:
    """``value`` converted and checked for Context field ``key``, or a ConfigError naming key, source and fix."""
    if key not in _field_info()[0]:
        raise ConfigError(
            f"unknown setting {key!r} in {source} (known settings: {', '.join(known_settings())})"
        )
    shown = "(value hidden)" if key in SECRET_SETTINGS else _short_repr(value)
    where = f"setting {key!r} from {source}: {shown}"
    try:
        prepared = _prepare(key, value)
        result = _adapter(key).validate_python(prepared)
    except ValidationError as exc:
        raise ConfigError(f"{where} is not valid: {_pydantic_reason(exc)}") from None
    except (ValueError, TypeError) as exc:
        raise ConfigError(f"{where} is not valid: {' '.join(str(exc).split())}") from None
    choices = _field_info()[0][key].metadata.get("choices")
    if choices and result not in choices:
        raise ConfigError(f"{where} is not one of {', '.join(choices)}")
    return result


def describe_rule(key: str) -> str:
    """What values ``key`` accepts, in plain words ("" when its type says it all)."""
    choices = _field_info()[0][key].metadata.get("choices")
    if key in _RULE_WORDS:
        return _RULE_WORDS[key]
    if choices:
        return " | ".join(choices)
    return ""
