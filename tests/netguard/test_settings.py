"""The guard's settings read the same from flags, ``WAYFINDER_*`` env and the YAML file."""

from __future__ import annotations

from pathlib import Path

import pytest

from agent.cli import build_parser
from agent.cli_settings import context_from_args
from agent.config import ConfigError, load_settings


def test_flags() -> None:
    args = build_parser().parse_args(
        [
            "run",
            "a goal",
            "--allowed-domains",
            "shop.example, docs.example",
            "--blocked-domains",
            "ads.example",
            "--allow-local",
        ]
    )
    ctx = context_from_args(args)
    assert ctx.allowed_domains == ["shop.example", "docs.example"]
    assert ctx.blocked_domains == ["ads.example"]
    assert ctx.allow_local is True
    options = ctx.browser_options(Path("runs/x"))
    assert options.allow_local and options.blocked_domains == ["ads.example"]


def test_defaults_refuse_local_unless_the_start_url_is_local() -> None:
    args = build_parser().parse_args(["run", "a goal", "--start-url", "https://example.com/"])
    options = context_from_args(args).browser_options()
    assert (options.allow_local, options.allow_private) == (False, False)
    args = build_parser().parse_args(["run", "a goal", "--start-url", "http://127.0.0.1:8000/"])
    options = context_from_args(args).browser_options()
    assert (options.allow_local, options.allow_private) == (False, True)


def test_env_and_file(tmp_path: Path) -> None:
    env = {"WAYFINDER_BLOCKED_DOMAINS": "evil.example", "WAYFINDER_ALLOW_LOCAL": "true"}
    ctx = load_settings(env=env).context
    assert ctx.blocked_domains == ["evil.example"] and ctx.allow_local is True
    config = tmp_path / "settings.yaml"
    config.write_text("allowed_domains: [shop.example]\nupload_dirs: [/srv/uploads]\nallow_local: false\n")
    ctx = load_settings(config_file=config, env={}).context
    assert ctx.allowed_domains == ["shop.example"] and ctx.upload_dirs == ["/srv/uploads"]
    assert ctx.allow_local is False


def test_a_bad_value_names_its_source() -> None:
    with pytest.raises(ConfigError, match="WAYFINDER_ALLOW_LOCAL"):
        load_settings(env={"WAYFINDER_ALLOW_LOCAL": "maybe"})
