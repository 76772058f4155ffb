"""The command line's settings: flags named as their source, validated with env and file by one layer, and
checked against the machine before a command starts a browser or writes a record."""

from __future__ import annotations

import argparse
import sys
from dataclasses import replace
from pathlib import Path
from typing import Any

from agent.config import ConfigError, LoadedSettings, load_settings
from agent.context import Context
from agent.settings_checks import check_ready_to_run
from agent.settings_rules import page_url


def stdin_is_tty() -> bool:
    try:
        return sys.stdin is not None and sys.stdin.isatty()
    except (AttributeError, ValueError):
        return False


#: The flag that sets each setting, for naming the source in error messages.
FLAG_OF_SETTING = {
    "start_url": "--start-url",
    "planner": "--planner",
    "model": "--model",
    "base_url": "--base-url",
    "structured_output_method": "--structured-output",
    "judge": "--judge",
    "max_steps": "--max-steps",
    "max_seconds": "--max-seconds",
    "record_dir": "--record-dir",
    "screenshot_mode": "--screenshots",
    "run_id": "--run-id",
    "headless": "--headed",
    "confirm_policy": "--confirm",
    "secrets": "--secret",
    "allowed_domains": "--allowed-domains",
    "blocked_domains": "--blocked-domains",
    "allow_local": "--allow-local",
    "cdp_url": "--cdp-url",
}


def flag_overrides(args: argparse.Namespace, **fixed: Any) -> tuple[dict[str, Any], dict[str, str]]:
    """The settings a command's flags set (unvalidated) and the source each is named by in errors.

    ``fixed`` are values the command itself imposes (the demo's planner), named as "command line".
    """
    overrides: dict[str, Any] = {
        "start_url": getattr(args, "start_url", None),
        "planner": getattr(args, "planner", None),
        "model": getattr(args, "model", None),
        "base_url": getattr(args, "base_url", None),
        "structured_output_method": getattr(args, "structured_output", None),
        "judge": getattr(args, "judge", None),
        "max_steps": getattr(args, "max_steps", None),
        "max_seconds": getattr(args, "max_seconds", None),
        "record_dir": getattr(args, "record_dir", None),
        "screenshot_mode": getattr(args, "screenshots", None),
        "run_id": getattr(args, "run_id", None),
        "allowed_domains": getattr(args, "allowed_domains", None),
        "blocked_domains": getattr(args, "blocked_domains", None),
        "allow_local": True if getattr(args, "allow_local", False) else None,
        "cdp_url": getattr(args, "cdp_url", None),
    }
    if getattr(args, "headed", False):
        overrides["headless"] = False
    if getattr(args, "yes", False):
        overrides["confirm_policy"] = "auto"
    if getattr(args, "confirm", None):
        overrides["confirm_policy"] = args.confirm
    overrides["secrets"] = getattr(args, "secret", None) or None
    sources = {key: f"flag {flag}" for key, flag in FLAG_OF_SETTING.items()}
    if getattr(args, "yes", False) and not getattr(args, "confirm", None):
        sources["confirm_policy"] = "flag --yes"
    for key, value in fixed.items():
        if overrides.get(key) is None:
            overrides[key] = value
            sources[key] = "command line"
    return overrides, sources


def settings_from_args(args: argparse.Namespace, **fixed: Any) -> LoadedSettings:
    """The validated settings of a command: its flags over env over ``--config`` over the defaults."""
    overrides, sources = flag_overrides(args, **fixed)
    settings = load_settings(
        config_file=getattr(args, "config", None), overrides=overrides, override_sources=sources
    )
    ctx = settings.context
    if ctx.run_id is not None:
        from agent.records import valid_run_id

        if not valid_run_id(ctx.run_id):
            raise ConfigError(
                f"setting 'run_id' from {settings.source_of('run_id')}: run id {ctx.run_id!r} is not valid "
                "(letters, digits, '.', '_', '-'; no '..')"
            )
    # A person at a terminal can answer confirm/ask_user prompts; otherwise they deny/stop (see confirm node).
    settings.context = replace(ctx, interactive=stdin_is_tty() and not getattr(args, "no_input", False))
    return settings


def context_from_args(args: argparse.Namespace) -> Context:
    """The validated Context of ``run``'s flags (see :func:`settings_from_args`)."""
    return settings_from_args(args).context


def checked_settings(args: argparse.Namespace, **fixed: Any) -> Context:
    """Settings validated and checked against this machine (record dir, key, executables): before any browser."""
    settings = settings_from_args(args, **fixed)
    check_ready_to_run(settings.context, settings.source_of)
    return settings.context


def model_line(ctx: Context) -> str | None:
    """The first line of a model run: which model, where, and how structured output is asked for."""
    if not ctx.uses_model:
        return None
    from agent.llm.structured import describe

    where = ctx.base_url or "api.openai.com"
    return (
        f"model {ctx.model or 'default'} at {where}; {describe(ctx.structured_output_method, ctx.base_url)}"
    )


def observe_target(raw: str) -> str:
    """What ``observe`` opens: a local file as given, else the URL normalised exactly as ``--start-url`` is."""
    text = raw.strip()
    if text.lower().startswith(("file:", "about:")) or (text and Path(text).expanduser().exists()):
        return text
    try:
        return page_url(text)
    except ValueError as exc:
        raise ConfigError(f"observe URL {raw!r}: {' '.join(str(exc).split())}") from None
