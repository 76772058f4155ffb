"""The ``judge`` setting: default rules, from the environment, the config file and ``--judge``; bad values are
one clear line and exit code 2."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from agent.cli import build_parser
from agent.cli_settings import context_from_args
from agent.config import ConfigError, load_context

REPO = Path(__file__).resolve().parents[2]


def test_default_is_rules_and_env_and_flag_select_model(monkeypatch, tmp_path):
    assert load_context(env={}).judge == "rules"
    assert load_context(env={"WAYFINDER_JUDGE": "model"}).judge == "model"
    config = tmp_path / "c.yaml"
    config.write_text("judge: model\n")
    assert load_context(env={}, config_file=config).judge == "model"
    monkeypatch.setenv("WAYFINDER_JUDGE", "rules")
    args = build_parser().parse_args(["run", "goal", "--judge", "model"])
    assert context_from_args(args).judge == "model"  # the flag beats the environment


def test_a_bad_judge_value_is_rejected_with_its_name():
    with pytest.raises(ConfigError, match="judge"):
        load_context(env={"WAYFINDER_JUDGE": "oracle"})


@pytest.mark.parametrize(
    ("argv", "env_value", "words"),
    [(["--judge", "oracle"], None, "--judge"), ([], "oracle", "judge")],
    ids=["flag", "env"],
)
def test_cli_exits_2_with_one_line(argv, env_value, words, tmp_path):
    env = {"PATH": "/usr/bin:/bin", "HOME": str(tmp_path), "PYTHONPATH": str(REPO)}
    if env_value:
        env["WAYFINDER_JUDGE"] = env_value
    proc = subprocess.run(
        [sys.executable, "-m", "agent", "run", "find the title", "--record-dir", str(tmp_path), *argv],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert proc.returncode == 2, proc.stderr
    assert words in proc.stderr and "Traceback" not in proc.stderr
