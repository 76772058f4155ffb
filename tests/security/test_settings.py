"""The safety settings from flags, env and files: --confirm, --secret, on_denied, the new budgets."""

from __future__ import annotations

import pytest

from agent.cli import build_parser, main
from agent.cli_settings import context_from_args
from agent.config import ConfigError, load_context, load_settings


def _ctx(*argv: str):
    return context_from_args(build_parser().parse_args(["run", "x", *argv]))


def test_confirm_flag_and_its_short_form():
    assert _ctx().confirm_policy == "ask"
    assert _ctx("--confirm", "yes").confirm_policy == "auto"
    assert _ctx("--confirm", "DENY").confirm_policy == "deny"
    assert _ctx("--yes").confirm_policy == "auto"
    assert _ctx("--yes", "--confirm", "ask").confirm_policy == "ask"  # the explicit word wins
    assert load_context(env={"WAYFINDER_CONFIRM_POLICY": "yes"}).confirm_policy == "auto"


def test_secrets_from_flags_env_and_file(tmp_path):
    ctx = _ctx("--secret", "PW=hunter2x@shop.test", "--secret", "MAIL=jo@example.com@*")
    assert ctx.secret_store().by_name["MAIL"].value == "jo@example.com"
    assert load_context(env={"WAYFINDER_SECRETS": "A=abc1@a.test,B=abc2"}).secret_store().by_name.keys() == {
        "A",
        "B",
    }
    config = tmp_path / "wayfinder.yaml"
    config.write_text("secrets:\n  - TOKEN=t0ken-value@api.test\non_denied: replan\nmax_model_calls: 9\n")
    loaded = load_settings(config_file=config).context
    assert loaded.secret_store().by_name["TOKEN"].domains == ("api.test",)
    assert (loaded.on_denied, loaded.max_model_calls) == ("replan", 9)


@pytest.mark.parametrize(
    ("entry", "problem"),
    [
        ("no-equals-sign", "NAME=VALUE"),
        ("PW=ab", "at least 3 characters"),
        ("PW=hunter2x@not a domain!", "is not a domain"),
    ],
)
def test_a_bad_secret_is_one_line_that_never_shows_the_value(capsys, entry, problem, tmp_path):
    code = main(["run", "x", "--secret", entry, "--record-dir", str(tmp_path)])
    out, err = capsys.readouterr()
    assert code == 2 and out == ""
    last = err.strip().splitlines()[-1]
    assert last.startswith("error: setting 'secrets' from flag --secret: (value hidden)") and problem in last
    assert "hunter2x" not in err


def test_a_secret_named_twice_is_refused():
    with pytest.raises(ConfigError, match="secret PW is given twice"):
        load_context(overrides={"secrets": ["PW=abcd", "PW=efgh"]})


def test_secrets_are_never_saved_with_the_run(tmp_path):
    import json

    from agent.context import Context
    from agent.runner import _save_context

    _save_context(tmp_path, Context(secrets=["PW=hunter2x"], api_key="sk-x"))
    saved = json.loads((tmp_path / "context.json").read_text())
    assert "secrets" not in saved and "api_key" not in saved
