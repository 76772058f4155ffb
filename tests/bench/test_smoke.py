"""Smoke test of the benchmarks: `python -m benchmarks --quick` end to end, then the shape of what it wrote.

Checks that the harness works and reports sane values, not how well the agent does: success counts are only
checked for consistency with the per-episode records.
"""

from __future__ import annotations

import importlib.util
import json
import subprocess
import sys
from pathlib import Path

import pytest

from benchmarks.common import percentile, summary
from benchmarks.miniwob import parse_seeds
from benchmarks.report import RESULTS_END, RESULTS_START, demote, replace_sections
from benchmarks.tokens import count_tokens
from tests.support.benchmarks import run_quick_benchmark


def _ensure_miniwob() -> None:
    """The pages come from the `miniwob` package (`make bench` installs it); install just the pages when missing."""
    if importlib.util.find_spec("miniwob") is None:
        subprocess.run(
            [sys.executable, "-m", "pip", "install", "--quiet", "--no-deps", "miniwob==1.1.0"],
            check=True,
            timeout=120,
        )
        importlib.invalidate_caches()
    assert importlib.util.find_spec("miniwob") is not None, "miniwob could not be installed"


def test_helpers() -> None:
    assert count_tokens("") == 0 and count_tokens("Hello world") == 2  # o200k_base, from the offline table
    assert percentile([1, 2, 3, 4, 5], 50) == 3
    assert percentile([10.0, 20.0], 90) == pytest.approx(19.0)
    assert summary([])["median"] is None
    assert summary([3, 1, 2]) | {"mean": None} == {
        "n": 3,
        "median": 2.0,
        "p90": 2.8,
        "min": 1.0,
        "max": 3.0,
        "mean": None,
    }
    assert parse_seeds("0-2,7") == [0, 1, 2, 7]


def test_the_tokenizer_table_comes_from_the_wheel_not_the_network(tmp_path: Path, monkeypatch) -> None:
    import socket

    from benchmarks import tokens

    def no_network(*args, **kwargs):
        raise AssertionError("the tokenizer tried to use the network")

    monkeypatch.setattr(socket.socket, "connect", no_network)
    monkeypatch.setenv("TIKTOKEN_CACHE_DIR", str(tmp_path / "tiktoken"))
    tokens.encoder.cache_clear()
    try:
        assert tokens.count_tokens("Observe the page, then act on it.") == 9
        (table,) = (
            tmp_path / "tiktoken"
        ).iterdir()  # provisioned from bpe-openai, under tiktoken's cache key
        assert table.stat().st_size > 1_000_000
    finally:
        tokens.encoder.cache_clear()


def test_results_sections_are_replaced_in_place_and_others_kept() -> None:
    doc = "# Benchmarks\n\nBy hand.\n"
    once = replace_sections(doc, {"observe": "### Observation\n\nfirst"}, "## Latest")
    assert once.startswith(doc.rstrip()) and RESULTS_START in once and RESULTS_END in once
    # another benchmark's section (e.g. one a later module adds) survives a run that does not measure it
    with_apps = once.replace(
        RESULTS_END, "<!-- section:apps:start -->\napps table\n<!-- section:apps:end -->\n" + RESULTS_END
    )
    again = replace_sections(with_apps, {"observe": "### Observation\n\nsecond"}, "## Latest")
    assert "second" in again and "first" not in again and "apps table" in again
    assert again.count("<!-- section:observe:start -->") == 1 and again.count(RESULTS_START) == 1
    assert demote("# A\n\n## B\ntext #1") == "### A\n\n#### B\ntext #1"


@pytest.mark.timeout(420)
def test_quick_benchmarks_write_sane_results(tmp_path: Path) -> None:
    _ensure_miniwob()
    doc = tmp_path / "docs" / "BENCHMARKS.md"
    doc.parent.mkdir()
    doc.write_text("# Benchmarks\n\nWritten by hand.\n", encoding="utf-8")
    out_root = tmp_path / "results"
    out_root.mkdir()
    _, out = run_quick_benchmark("benchmarks", out_root, timeout=400, extra=("--report", str(doc)))
    for name in ("observe.json", "observe.md", "overhead.json", "miniwob.json", "miniwob.md", "summary.md"):
        assert (out / name).is_file() and (out / name).stat().st_size > 0, name

    obs = json.loads((out / "observe.json").read_text())
    assert obs["benchmark"] == "observe" and obs["runs"] == 2
    env = obs["environment"]
    assert env["cpus_usable"] >= 1 and env["python"] and env["playwright"]
    assert env["command"].startswith("python -m benchmarks --quick")
    groups = {p["group"] for p in obs["pages"]}
    assert groups == {"demo", "fixture", "generated"}
    assert obs["tokenizer"].startswith("tiktoken o200k_base")
    if obs["browser_use_measured"]:
        assert all(p["browser_use"]["tokens"] > 0 for p in obs["pages"])
    else:  # said so, in the file and in the table
        assert obs["browser_use_note"] and "browser-use not measured" in (out / "observe.md").read_text()
    for page in obs["pages"]:
        assert not page["errors"], page
        for key in ("observe_cold_ms", "observe_warm_ms"):
            stats = page[key]
            assert stats["n"] == 2 and 0 < stats["median"] <= stats["p90"] <= stats["max"] < 30_000
        failed = page["failed_observations"]
        assert 0 <= failed["cold"] <= 2 and 0 <= failed["warm"] <= 2
        if (
            failed["cold"] == 2
        ):  # the page could not be read in time (a very busy machine): said so, not hidden
            assert page["observe_errors"], page
            continue
        assert page["elements_marked"] >= page["elements_shown"] > 0
        assert page["elements_marked"] == page["elements_shown"] + page["elements_omitted"]
        assert page["text_chars"] > page["tokens"] > 0
        assert page["aria_ms"]["n"] == 2 and page["aria_tokens"] > 0 and page["aria_elements"] > 0
        assert page["ratios"]["cold_to_aria"] > 0 and page["ratios"]["warm_to_aria"] > 0
        if failed == {"cold": 0, "warm": 0}:
            assert page["ids_stable_cold_to_warm"] is True
        if page.get("cards_total"):
            assert page["cards_total"] == 500 and 0 < page["cards_shown"] < 500
            assert page["elements_marked"] > 500
    pairs = obs["recall"]["pairs"]
    assert len(pairs) == 3 and {p["page"] for p in pairs} == {"listing-500", "article-8000"}
    assert all(p["aria"] is True for p in pairs)  # the whole page is in aria_snapshot: the check finds it
    assert obs["recall"]["ours"] == sum(p["ours"] for p in pairs) / 3

    over = json.loads((out / "overhead.json").read_text())
    assert len(over["runs"]) == 2 and all(r["steps_ms"] for r in over["runs"])
    assert over["first_step_ms"]["n"] == 2 and over["further_step_ms"]["n"] >= 2
    assert over["floor_per_action_ms"]["n"] == 2 and over["floor_per_action_ms"]["median"] > 0
    assert over["least_state_floor_per_action_ms"]["n"] == 2
    assert over["least_state_floor_per_action_ms"]["median"] > 0

    text = doc.read_text()
    assert text.startswith("# Benchmarks\n\nWritten by hand.")
    for name in ("observe", "overhead", "miniwob", "fixture_goals"):
        assert f"<!-- section:{name}:start -->" in text and f"<!-- section:{name}:end -->" in text
    assert "| page | ours cold ms | ours warm ms | aria ms |" in text and "### Graph overhead" in text
    for chart in ("observe-time.png", "observe-tokens.png", "miniwob-tasks.png"):
        assert f"](bench/{chart})" in text
        assert (doc.parent / "bench" / chart).read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    if sys.platform.startswith("linux"):
        mem = obs["pages"][-1]["memory"]
        assert mem["browser_pss_mb"] > 10 and mem["browser_processes"] >= 1 and mem["python_peak_mb"] > 10
        assert obs["memory_peaks"]["browser_pss_mb"] >= mem["browser_pss_mb"]

    mw = json.loads((out / "miniwob.json").read_text())
    assert mw["tasks"] == ["click-button", "enter-text"] and mw["seeds"] == [0]
    overall = mw["overall"]
    assert overall["episodes"] == 2 and overall["harness_errors"] == 0
    episodes = mw["episodes"]
    assert len(episodes) == 2
    for ep in episodes:
        assert ep["utterance"] and ep["error"] is None, ep
        assert ep["terminal_type"] in {"goal_satisfied", "goal_failed", "loop_stuck", "budget_exhausted"}
        assert 0 <= ep["steps"] <= mw["agent_settings"]["max_steps"]
        assert 0 < ep["elapsed_s"] < 120
        assert ep["success"] == (ep["raw_reward"] is not None and ep["raw_reward"] > 0)
        assert ep["strict_success"] == (ep["raw_reward"] == 1)
        assert ep["ended"] == (ep["raw_reward"] is not None)
        if ep["ended"]:
            assert -1 <= ep["raw_reward"] <= 1
    assert overall["success"] == sum(e["success"] for e in episodes)
    assert overall["strict_success"] <= overall["success"]
    assert mw["agent_settings"]["planner"] == "rules"
    assert "api_key" not in mw["agent_settings"]
    assert "success (raw > 0)" in (out / "miniwob.md").read_text()
