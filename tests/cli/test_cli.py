"""``python -m agent``: output contracts and exit codes.

One real subprocess proves the end-to-end contract of ``run --json`` (exactly one JSON object on stdout,
progress on stderr, records on disk); everything else calls ``agent.cli.main`` in this process, which is the
same code minus the interpreter start-up (a few seconds per call on a busy machine).
"""

from __future__ import annotations

import json
import re
import socket
import time

import pytest

from agent.cli import main
from tests.durability.helpers import one_json_object, read_trace, run_cli

RESULT_FIELDS = {
    "run_id",
    "goal",
    "terminal_type",
    "terminal_reason",
    "final_answer",
    "steps",
    "url",
    "run_dir",
    "elapsed_s",
    "usage",
}


def test_run_json_prints_one_object_and_writes_the_records(click_site, record_dir):
    """--yes approves the risky click without asking (no terminal here: it would be denied otherwise)."""
    done = run_cli(
        "run",
        'click "Buy now"',
        "--start-url",
        click_site.url("shop.html?item=cli"),
        "--yes",
        "--json",
        "--record-dir",
        str(record_dir),
        "--max-seconds",
        "90",
    )
    assert done.returncode == 0, done.stderr[-3000:]
    result = one_json_object(done.stdout)
    assert set(result) >= RESULT_FIELDS
    assert (result["terminal_type"], result["terminal_reason"]) == ("goal_satisfied", "action_verified")
    assert result["goal"] == 'click "Buy now"' and result["steps"] == 1
    assert "Order placed (order number 1)" in result["final_answer"]
    assert result["url"] == click_site.url("shop.html?item=cli")
    assert isinstance(result["elapsed_s"], float) and result["elapsed_s"] > 0
    assert set(result["usage"]) >= {"input_tokens", "output_tokens", "total_tokens", "calls", "cost_usd"}
    assert result["usage"]["calls"] == 0  # the offline planner
    assert click_site.count("cli") == 1

    # progress went to stderr, plain (no terminal, --json): a line per step, no escape codes, no question
    assert "\x1b[" not in done.stderr and "approve / deny" not in done.stderr
    assert re.search(
        r'^\s*\d+\.\d+s \[\s*1\] \w+\s+click button "Buy now" -> ok .*\[auto-approved\]$', done.stderr, re.M
    )
    assert "end: goal_satisfied/action_verified" in done.stderr

    run_dir = record_dir / result["run_id"]
    assert result["run_dir"] == str(run_dir)
    for name in (
        "trace.jsonl",
        "result.json",
        "report.html",
        "checkpoints.sqlite",
        "context.json",
        "run.json",
    ):
        assert (run_dir / name).is_file(), name
    assert json.loads((run_dir / "result.json").read_text()) == result  # --json prints what is on disk
    assert "api_key" not in json.loads((run_dir / "context.json").read_text())
    records = read_trace(run_dir)
    assert records[-1]["node"] == "finalize"
    assert [r["note"] for r in records if r["node"] == "confirm"] == ["approved by confirm_policy=auto"]


@pytest.mark.parametrize("goal", ["", "   ", "?!"])
def test_an_empty_goal_is_a_run_that_ends_invalid_goal(goal, record_dir, capsys):
    """Decision: not a usage error but a run (exit 1) with a terminal and records, like the Python API."""
    assert main(["run", goal, "--json", "--record-dir", str(record_dir)]) == 1
    out, err = capsys.readouterr()
    result = one_json_object(out)
    assert (result["terminal_type"], result["terminal_reason"]) == ("goal_failed", "invalid_goal")
    assert result["steps"] == 0 and "invalid goal" in result["stop_reason"]
    assert (record_dir / result["run_id"] / "result.json").exists()
    assert (record_dir / result["run_id"] / "report.html").exists()


def test_max_seconds_covers_a_start_page_that_never_loads(site_url, record_dir, capsys):
    """The time budget counts from the first request: a start page whose server never answers ends the run
    after --max-seconds, not after the (longer) navigation timeout."""
    from agent.context import Context

    assert Context().navigation_timeout_s >= 20.0  # the default the budget must cut short
    began = time.monotonic()
    code = main(
        ["run", "what is the title?", "--start-url", site_url + "/slow", "--max-seconds", "8", "--json", "--record-dir", str(record_dir)]
    )  # fmt: skip
    wall = time.monotonic() - began
    result = one_json_object(capsys.readouterr().out)
    assert code == 1
    assert (result["terminal_type"], result["terminal_reason"]) == ("budget_exhausted", "max_seconds")
    assert "while opening the start URL" in result["stop_reason"]
    assert 7.5 <= result["elapsed_s"] <= 10.0, result["elapsed_s"]
    assert wall < 18.0, wall  # browser start and close included; the page alone would hold it for 20 s
    run_dir = record_dir / result["run_id"]
    assert (run_dir / "result.json").exists() and not (run_dir / "inflight.json").exists()


def _usage_error(capsys, argv, *expected):
    try:
        code = main(argv)
    except SystemExit as exc:  # argparse
        code = exc.code
    out, err = capsys.readouterr()
    assert code == 2, (out, err)
    assert out == ""
    last = err.strip().splitlines()[-1]
    assert last.startswith("error: ")
    for text in expected:
        assert text in last, last
    return err


def test_usage_and_configuration_errors_exit_2(tmp_path, capsys, monkeypatch):
    rd = ["--record-dir", str(tmp_path / "runs")]
    _usage_error(
        capsys,
        ["run", "x", "--config", str(tmp_path / "missing.yaml"), *rd],
        "missing.yaml",
        "does not exist",
    )
    bad_key = tmp_path / "bad-key.yaml"
    bad_key.write_text("max_stepz: 3\n")
    _usage_error(
        capsys, ["run", "x", "--config", str(bad_key), *rd], "unknown setting 'max_stepz'", "bad-key.yaml"
    )
    bad_value = tmp_path / "bad-value.yaml"
    bad_value.write_text("confirm_policy: sometimes\n")
    _usage_error(capsys, ["run", "x", "--config", str(bad_value), *rd], "confirm_policy", "sometimes")
    not_yaml = tmp_path / "not.yaml"
    not_yaml.write_text("a: [unclosed\n")
    _usage_error(capsys, ["run", "x", "--config", str(not_yaml), *rd], "not valid YAML")
    for steps in ("0", "-3", "abc", "2.5"):
        _usage_error(capsys, ["run", "x", "--max-steps", steps, *rd], "--max-steps")
    _usage_error(capsys, ["run", "x", "--max-seconds", "0", *rd], "--max-seconds")
    _usage_error(capsys, ["run", "x", "--planner", "magic", *rd], "--planner")
    _usage_error(capsys, ["run", "x", "--run-id", "../escape", *rd], "run id")
    err = _usage_error(capsys, ["resume", "no-such-run", *rd], "no checkpoint for run no-such-run")
    assert len(err.strip().splitlines()) == 1  # just the error, no progress header
    _usage_error(capsys, ["resume", "../x", *rd], "not a valid run id")
    _usage_error(capsys, ["observe", "not a url"], "not a URL")
    _usage_error(capsys, ["frobnicate"], "invalid choice")
    (tmp_path / "runs" / "taken").mkdir(parents=True)
    _usage_error(capsys, ["run", "x", "--run-id", "taken", *rd], "already exists")
    monkeypatch.setenv("WAYFINDER_MAX_STEPS", "lots")
    _usage_error(capsys, ["run", "x", *rd], "WAYFINDER_MAX_STEPS")
    monkeypatch.setenv("WAYFINDER_NO_SUCH_SETTING", "1")
    monkeypatch.delenv("WAYFINDER_MAX_STEPS")
    _usage_error(capsys, ["run", "x", *rd], "WAYFINDER_NO_SUCH_SETTING")
    assert not any((tmp_path / "runs").glob("*/trace.jsonl"))  # nothing ran


def test_observe_json_and_an_unreachable_url(click_site, capsys):
    assert main(["observe", click_site.url("shop.html"), "--json"]) == 0
    out, err = capsys.readouterr()
    obs = one_json_object(out)
    assert {
        "url",
        "title",
        "page_type",
        "elements",
        "kept",
        "text",
        "chars",
        "mapping_hash",
        "dom_hash",
        "scroll",
        "frames",
    } <= set(obs)
    assert obs["url"] == click_site.url("shop.html") and obs["title"] == "Gadget shop"
    assert obs["elements"] >= 1 and '"Buy now"' in obs["text"]

    with socket.socket() as sock:  # a port nobody listens on
        sock.bind(("127.0.0.1", 0))
        closed = f"http://127.0.0.1:{sock.getsockname()[1]}/"
    assert main(["observe", closed]) == 2
    out, err = capsys.readouterr()
    assert out == "" and len(err.strip().splitlines()) == 1
    assert err.startswith(f"error: cannot open {closed}") and "ERR_CONNECTION_REFUSED" in err


def test_demo_json_ends_goal_satisfied(record_dir, capsys):
    from agent.demo.server import DEMO_GOAL_ANSWER

    assert main(["demo", "--json", "--record-dir", str(record_dir)]) == 0
    out, err = capsys.readouterr()
    result = one_json_object(out)
    assert result["terminal_type"] == "goal_satisfied" and result["final_answer"] == DEMO_GOAL_ANSWER
    assert (record_dir / result["run_id"] / "report.html").exists()
    assert "end: goal_satisfied" in err and "Demo site on" not in err  # --json: no banner
