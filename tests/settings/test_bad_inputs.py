"""Bad settings at the command line: each one ends with exit 2 and one line naming the setting, its source and
the fix, before any browser starts or any record is written (table-driven)."""

from __future__ import annotations

import os
import subprocess
import sys
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from agent.cli import main

REPO = Path(__file__).resolve().parents[2]


@dataclass
class Case:
    name: str
    argv: list[str]
    expected: tuple[str, ...]
    env: dict[str, str] = field(default_factory=dict)
    files: dict[str, bytes] = field(default_factory=dict)  # written under tmp_path before the call


def _cfg(text: str) -> dict[str, bytes]:
    return {"c.yaml": text.encode("utf-8")}


def file_case(name: str, yaml: str, *expected: str) -> Case:
    """A bad value in a ``--config`` file (written as c.yaml)."""
    return Case(name, ["--config", "{tmp}/c.yaml"], expected, files=_cfg(yaml))


def env_case(name: str, variable: str, value: str, *expected: str) -> Case:
    """A bad value in one environment variable."""
    return Case(name, [], expected, env={variable: value})


CASES = [
    # --- config file: the path itself
    Case(
        "config is a directory", ["--config", "{tmp}"], ("--config", "is a directory", "YAML settings file")
    ),
    Case("config is missing", ["--config", "{tmp}/nope.yaml"], ("nope.yaml", "does not exist")),
    Case(
        "config not UTF-8",
        ["--config", "{tmp}/c.yaml"],
        ("not UTF-8", "save it as UTF-8"),
        files={"c.yaml": b"max_steps: 3\nmodel: caf\xe9\n"},
    ),
    file_case("config not YAML", "a: [unclosed\n", "not valid YAML"),
    file_case("config a list", "- a\n- b\n", "mapping of settings"),
    # --- config file: values, named with file and line
    file_case("file nan", "planner: rules\nmax_seconds: .nan\n", "'max_seconds'", "c.yaml line 2", "finite"),
    file_case("file inf", "max_seconds: .inf\n", "'max_seconds'", "line 1", "finite"),
    file_case(
        "file negative timeout", "navigation_timeout_s: -1\n", "'navigation_timeout_s'", "greater than 0"
    ),
    file_case("file zero failures", "max_failures: 0\n", "'max_failures'", "greater than or equal to 1"),
    file_case("file boolean count", "max_steps: yes\n", "'max_steps'", "not true/false"),
    file_case("file unknown key", "max_stepz: 3\n", "unknown setting 'max_stepz'", "c.yaml"),
    file_case(
        "file bad choice", "# comment\n\nconfirm_policy: sometimes\n", "'confirm_policy'", "line 3", "'ask'"
    ),
    file_case(
        "file tiny viewport", "viewport_width: 3\n", "'viewport_width'", "greater than or equal to 100"
    ),
    file_case("file temperature", "temperature: 9\n", "'temperature'", "less than or equal to 2"),
    file_case("file mapping as text", "model: {a: 1}\n", "'model'", "not a mapping"),
    file_case("file empty required", "headless:\n", "'headless'", "must not be empty"),
    # --- environment
    env_case(
        "env nan", "WAYFINDER_MAX_SECONDS", "nan", "'max_seconds'", "env WAYFINDER_MAX_SECONDS", "finite"
    ),
    env_case("env inf", "WAYFINDER_MAX_COST_USD", "inf", "env WAYFINDER_MAX_COST_USD", "finite"),
    env_case(
        "env negative", "WAYFINDER_MAX_TOKENS", "-5", "env WAYFINDER_MAX_TOKENS", "greater than or equal to 0"
    ),
    env_case("env fraction for count", "WAYFINDER_MAX_STEPS", "2.5", "env WAYFINDER_MAX_STEPS", "integer"),
    env_case("env not a bool", "WAYFINDER_HEADLESS", "perhaps", "env WAYFINDER_HEADLESS", "boolean"),
    env_case("env unknown", "WAYFINDER_NOPE", "1", "WAYFINDER_NOPE", "unset it"),
    env_case(
        "env bad base url",
        "WAYFINDER_BASE_URL",
        "ftp://models.test",
        "'base_url'",
        "env WAYFINDER_BASE_URL",
        "http://",
    ),
    env_case(
        "env missing browser",
        "WAYFINDER_BROWSER_EXECUTABLE",
        "/nonexistent/chromium",
        "'browser_executable'",
        "not an executable file",
    ),
    env_case(
        "env missing prompts dir",
        "WAYFINDER_PROMPTS_DIR",
        "/nonexistent/prompts",
        "'prompts_dir'",
        "not a directory",
    ),
    # --- flags
    Case("flag nan seconds", ["--max-seconds", "nan"], ("flag --max-seconds", "finite")),
    Case("flag inf seconds", ["--max-seconds", "inf"], ("flag --max-seconds", "finite")),
    Case("flag zero seconds", ["--max-seconds", "0"], ("flag --max-seconds", "greater than 0")),
    Case("flag zero steps", ["--max-steps", "0"], ("flag --max-steps", "greater than or equal to 1")),
    Case("flag steps text", ["--max-steps", "many"], ("flag --max-steps", "integer")),
    Case("flag planner", ["--planner", "magic"], ("flag --planner", "'rules'")),
    Case("flag screenshots", ["--screenshots", "sometimes"], ("flag --screenshots", "'every_step'")),
    Case(
        "flag start url word",
        ["--start-url", "not-a-url"],
        ("flag --start-url", "not a URL", "http://not-a-url/"),
    ),
    Case(
        "flag start url scheme",
        ["--start-url", "javascript:alert(1)"],
        ("--start-url", "scheme is not allowed"),
    ),
    Case("flag start url text", ["--start-url", "two words"], ("--start-url", "is not a URL")),
    Case("flag run id", ["--run-id", "../escape"], ("'run_id'", "flag --run-id", "not valid")),
    # --- record dir
    Case(
        "record dir is a file",
        ["--record-dir", "{tmp}/afile"],
        ("flag --record-dir", "is a file"),
        files={"afile": b"x"},
    ),
    Case(
        "record dir inside a file",
        ["--record-dir", "{tmp}/afile/runs"],
        ("--record-dir", "inside the file"),
        files={"afile": b"x"},
    ),
    Case("record dir read-only", ["--record-dir", "/sys/wayfinder-runs"], ("--record-dir", "not writable")),
    Case(
        "record dir from env",
        [],
        ("env WAYFINDER_RECORD_DIR", "is a file"),
        env={"WAYFINDER_RECORD_DIR": "{tmp}/afile"},
        files={"afile": b"x"},
    ),
    # --- model backend
    Case(
        "openai without key",
        ["--planner", "openai"],
        ("set OPENAI_API_KEY, or --base-url for a local server",),
    ),
    Case("model without key", ["--model", "gpt-4o-mini"], ("'planner'", "set OPENAI_API_KEY")),
    Case(
        "public base url without key",
        ["--planner", "openai", "--base-url", "https://api.example.com/v1"],
        ("is not local", "set OPENAI_API_KEY"),
    ),
]


def _clean_env(monkeypatch) -> None:
    for name in list(os.environ):
        if name.startswith("WAYFINDER_") or name in ("OPENAI_API_KEY", "OPENAI_BASE_URL", "OPENAI_API_BASE"):
            monkeypatch.delenv(name)


@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_bad_setting_exits_2_with_one_line(case, tmp_path, monkeypatch, capsys):
    _clean_env(monkeypatch)
    monkeypatch.chdir(tmp_path)
    for name, data in case.files.items():
        (tmp_path / name).write_bytes(data)
    for key, value in case.env.items():
        monkeypatch.setenv(key, value.replace("{tmp}", str(tmp_path)))
    records = tmp_path / "records"
    argv = [arg.replace("{tmp}", str(tmp_path)) for arg in case.argv]
    if "--record-dir" not in argv and "WAYFINDER_RECORD_DIR" not in case.env:
        argv += ["--record-dir", str(records)]
    before = sorted(p.name for p in tmp_path.iterdir())
    code = main(["run", "find the title", *argv])
    out, err = capsys.readouterr()
    assert code == 2, err
    assert out == ""
    lines = err.strip().splitlines()
    assert len(lines) == 1, err
    assert lines[0].startswith("error: ") and "Traceback" not in err
    for text in case.expected:
        assert text in lines[0], lines[0]
    assert not records.exists()  # no run directory, no partial record
    assert sorted(p.name for p in tmp_path.iterdir()) == before


def test_table_is_large_enough():
    assert len(CASES) >= 40 and len({c.name for c in CASES}) == len(CASES)


def test_nan_budget_from_env_in_a_real_process(tmp_path):
    """The reported case end to end: a fresh interpreter, no traceback, nothing written."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("WAYFINDER_")}
    env.update(PYTHONPATH=str(REPO), WAYFINDER_MAX_SECONDS="nan")
    proc = subprocess.run(
        [sys.executable, "-m", "agent", "run", "x", "--json", "--record-dir", str(tmp_path / "runs")],
        capture_output=True,
        text=True,
        env=env,
        cwd=tmp_path,
        timeout=120,
    )
    assert proc.returncode == 2 and proc.stdout == ""
    assert proc.stderr.strip().splitlines() == [
        "error: setting 'max_seconds' from env WAYFINDER_MAX_SECONDS: 'nan' is not valid: should be a finite number"
    ]
    assert not (tmp_path / "runs").exists()


def test_local_model_server_needs_no_key(monkeypatch, tmp_path):
    from agent.cli import build_parser, checked_settings

    _clean_env(monkeypatch)
    monkeypatch.chdir(tmp_path)
    for url in (
        "http://127.0.0.1:11434/v1",
        "localhost:8000/v1",
        "http://ollama:11434/v1",
        "http://10.0.0.5/v1",
    ):
        args = build_parser().parse_args(
            ["run", "x", "--planner", "openai", "--base-url", url, "--record-dir", "r"]
        )
        ctx = checked_settings(args)
        assert ctx.planner == "openai" and ctx.base_url and ctx.base_url.startswith("http://")
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test")
    args = build_parser().parse_args(["run", "x", "--planner", "openai", "--record-dir", "r"])
    assert checked_settings(args).planner == "openai"
