"""Bad settings at the command line: each one ends with exit 2 and one line naming the setting, its source and
the fix, before any browser starts or any record is written (table-driven)."""

from __future__ import annotations

import contextlib
import os
import sqlite3
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
    # --- MCP servers
    file_case("mcp server not a mapping", "mcp_servers: [a, b]\n", "'mcp_servers'", "not valid"),
    file_case(
        "mcp server without command or url",
        "mcp_servers:\n  notes: {args: [x]}\n",
        "'mcp_servers'",
        "server 'notes'",
        "needs 'url'",
    ),
    env_case("mcp servers bad json", "WAYFINDER_MCP_SERVERS", "{not json", "env WAYFINDER_MCP_SERVERS"),
    file_case(
        "mcp server command missing",
        "mcp_servers:\n  notes: {command: no-such-mcp-server-xyz}\n",
        "'mcp_servers'",
        "command 'no-such-mcp-server-xyz' is not found",
    ),
]


#: Every numeric setting, and whether 0 is a valid value for it (a budget of 0 is not; a price of 0 is).
NUMERIC_SETTINGS = {
    "temperature": (float, True),
    "model_timeout_s": (float, False),
    "model_max_retries": (int, True),
    "model_retry_backoff_s": (float, True),
    "planner_max_output_tokens": (int, False),
    "executor_max_output_tokens": (int, False),
    "judge_max_output_tokens": (int, False),
    "price_per_1k_input": (float, True),
    "price_per_1k_output": (float, True),
    "max_steps": (int, False),
    "max_planner_calls": (int, False),
    "max_seconds": (float, False),
    "max_failures": (int, False),
    "max_auto_scrolls": (int, True),
    "max_tokens": (int, True),
    "max_cost_usd": (float, True),
    "max_model_calls": (int, True),
    "max_consecutive_failures": (int, True),
    "repeat_limit": (int, False),
    "stagnation_limit": (int, False),
    "viewport_width": (int, False),
    "viewport_height": (int, False),
    "vision_image_size": (int, False),
    "action_timeout_s": (float, False),
    "navigation_timeout_s": (float, False),
    "browser_idle_timeout_s": (float, True),
    "max_elements": (int, False),
    "max_chars": (int, False),
    "mcp_timeout_s": (float, False),
}


def numeric_cases() -> list[Case]:
    """nan, inf, a negative number and (where it makes no sense) zero for every numeric setting, from the
    environment and from a config file in turn."""
    cases = []
    for index, (key, (kind, zero_ok)) in enumerate(NUMERIC_SETTINGS.items()):
        bad = {"nan": ("nan", ".nan"), "inf": ("inf", ".inf"), "negative": ("-1", "-1")}
        if not zero_ok:
            bad["zero"] = ("0", "0")
        for offset, (what, (env_value, yaml_value)) in enumerate(bad.items()):
            from_file = bool((index + offset) % 2)
            # a YAML .nan is a float (not finite); the text "nan" is not an integer
            reason = "finite" if kind is float or from_file else "integer"
            reason = "greater than" if what in ("negative", "zero") else reason
            if from_file:
                text = f"{key}: {yaml_value}\n"
                cases.append(file_case(f"{key} {what} (file)", text, f"'{key}'", "c.yaml line 1", reason))
            else:
                variable = f"WAYFINDER_{key.upper()}"
                expected = (f"'{key}'", f"env {variable}", reason)
                cases.append(env_case(f"{key} {what} (env)", variable, env_value, *expected))
    return cases


CASES += numeric_cases()


def _clean_env(monkeypatch) -> None:
    for name in list(os.environ):
        if name.startswith("WAYFINDER_") or name in ("OPENAI_API_KEY", "OPENAI_BASE_URL", "OPENAI_API_BASE"):
            monkeypatch.delenv(name)


def _earlier_run(run_dir: Path) -> None:
    """A run already on disk (real checkpoint database, trace, result) that a bad command must not touch."""
    run_dir.mkdir(parents=True)
    with contextlib.closing(sqlite3.connect(run_dir / "checkpoints.sqlite")) as db:
        db.execute("CREATE TABLE checkpoints (thread_id TEXT, checkpoint BLOB)")
        db.execute("INSERT INTO checkpoints VALUES ('earlier', x'00')")
        db.commit()
    (run_dir / "trace.jsonl").write_text('{"seq": 1, "node": "start"}\n', encoding="utf-8")
    (run_dir / "result.json").write_text('{"terminal_type": "goal_satisfied"}', encoding="utf-8")


def _snapshot(root: Path) -> dict[str, tuple[bytes, int]]:
    """Every file under ``root`` with its bytes and modification time."""
    return {
        str(path.relative_to(root)): (path.read_bytes(), path.stat().st_mtime_ns)
        for path in sorted(root.rglob("*"))
        if path.is_file()
    }


@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_bad_setting_exits_2_with_one_line(case, tmp_path, monkeypatch, capsys):
    _clean_env(monkeypatch)
    monkeypatch.chdir(tmp_path)
    _earlier_run(tmp_path / "records" / "earlier")
    _earlier_run(tmp_path / "runs" / "older")  # the default record dir of the working directory
    for name, data in case.files.items():
        (tmp_path / name).write_bytes(data)
    for key, value in case.env.items():
        monkeypatch.setenv(key, value.replace("{tmp}", str(tmp_path)))
    records = tmp_path / "records"
    argv = [arg.replace("{tmp}", str(tmp_path)) for arg in case.argv]
    if "--record-dir" not in argv and "WAYFINDER_RECORD_DIR" not in case.env:
        argv += ["--record-dir", str(records)]
    before = _snapshot(tmp_path)
    code = main(["run", "find the title", *argv])
    out, err = capsys.readouterr()
    assert code == 2, err
    assert out == ""
    lines = err.strip().splitlines()
    assert len(lines) == 1, err
    assert lines[0].startswith("error: ") and "Traceback" not in err
    for text in case.expected:
        assert text in lines[0], lines[0]
    # no new run directory, no partial record; earlier runs and their checkpoints exactly as they were
    assert _snapshot(tmp_path) == before
    assert sorted(p.name for p in records.iterdir()) == ["earlier"]


def test_table_is_large_enough():
    assert len(CASES) >= 40 and len({c.name for c in CASES}) == len(CASES)
    from agent.settings_rules import _RULES

    numeric = {key for key, rule in _RULES.items() if getattr(rule, "__origin__", None) in (int, float)}
    assert numeric == set(NUMERIC_SETTINGS)  # a new numeric setting gets its bad values in the table


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
