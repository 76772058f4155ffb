"""The false-claim figures of the benchmarks: the shared arithmetic, the answer check, and a real quick run of
the fixture-goal benchmark whose report must agree with its own per-goal records."""

from __future__ import annotations

import json

import pytest

from benchmarks.common import claim_figures
from benchmarks.fixture_goals import GOALS, SITES, Check, _answer_holds, aggregate, select_goals
from benchmarks.miniwob_report import aggregate as miniwob_aggregate
from tests.support.benchmarks import run_quick_benchmark


def test_claim_figures_count_refuted_claims_only():
    figures = claim_figures([(True, True), (True, False), (False, True), (False, False), (True, False)])
    assert figures == {
        "runs": 5,
        "success": 2,
        "success_rate": 0.4,
        "claimed": 3,
        "false_claims": 2,
        "false_claim_rate": 0.667,
        "missed_successes": 1,
    }
    assert claim_figures([(False, False)])["false_claim_rate"] is None  # no claims: no rate, not 0


@pytest.mark.parametrize(
    ("answer", "expected", "holds"),
    [
        ("$34.50", "$34.50", True),
        ("It costs $34.50.", "$34.50", True),
        ("$34.50", "3", False),
        ("3 products", "3", True),
        ("13 products", "3", False),
        ("Post 57: notes from day 57", "Post 57", True),
        ("Post 570", "Post 57", False),
        (None, "3", False),
    ],
)
def test_answer_check_matches_whole_values(answer, expected, holds):
    assert _answer_holds(answer, expected) is holds


def test_every_site_has_goals_and_traps_cannot_be_met():
    assert {g.site for g in GOALS} == set(SITES)
    assert [g.site for g in select_goals(list(SITES), quick=True)] == list(SITES)
    traps = [g for g in GOALS if g.site == "trap"]
    assert sum(g.check == Check("never") for g in traps) >= 9
    assert all(g.check.kind != "never" for g in GOALS if g.site != "trap")


def test_miniwob_false_claims_are_goal_satisfied_without_reward():
    def episode(task, terminal, raw):
        return {
            "task": task,
            "terminal_type": terminal,
            "success": raw is not None and raw > 0,
            "strict_success": raw == 1,
        }

    episodes = [
        episode("a", "goal_satisfied", 1),
        episode("a", "goal_satisfied", -1),
        episode("b", "goal_satisfied", None),  # claimed, but the episode never ended
        episode("b", "goal_failed", 1),
        episode("c", "goal_satisfied", 0.5),  # partial credit: a success, a strict false claim
    ]
    o = miniwob_aggregate(episodes, ["a", "b", "c"])["overall"]
    assert (o["claimed"], o["false_claims"], o["false_claim_rate"]) == (4, 2, 0.5)
    assert (o["strict_false_claims"], o["strict_false_claim_rate"]) == (3, 0.75)
    assert o["tasks_with_false_claims"] == ["a", "b"]


def test_fixture_aggregate_excludes_harness_errors():
    rows = [
        {"site": "trap", "claimed": True, "verified": False, "false_claim": True, "goal": "g1"},
        {"site": "demo", "claimed": True, "verified": True, "false_claim": False, "goal": "g2"},
        {"site": "demo", "error": "TimeoutError: x", "claimed": False, "verified": False, "goal": "g3"},
    ]
    report = aggregate(rows)
    assert report["overall"]["harness_errors"] == 1 and report["overall"]["runs"] == 2
    assert report["per_site"]["trap"]["false_claim_rate"] == 1.0
    assert report["overall"]["false_claim_goals"] == ["trap: g1"]


@pytest.mark.timeout(180)
def test_quick_fixture_goal_benchmark_reports_consistent_figures(tmp_path):
    stdout, out = run_quick_benchmark("benchmarks.fixture_goals", tmp_path, timeout=170)
    assert "false claims" in stdout
    report = json.loads((out / "fixture_goals.json").read_text())
    rows = report["goals"]
    assert [r["site"] for r in rows] == list(SITES)
    assert all(r["error"] is None for r in rows), rows
    o = report["overall"]
    assert o["runs"] == 3 and o["harness_errors"] == 0
    assert o["claimed"] == sum(r["terminal_type"] == "goal_satisfied" for r in rows)
    assert o["false_claims"] == sum(r["false_claim"] for r in rows)
    trap = rows[-1]
    assert trap["verified"] is False and trap["false_claim"] == (trap["terminal_type"] == "goal_satisfied")
    login = rows[0]  # the fixture site's login goal: the page itself says whether it worked
    assert login["verified"] == (login["terminal_type"] == "goal_satisfied")
    assert report["environment"]["command"].startswith("python -m benchmarks.fixture_goals --quick")
    md = (out / "fixture_goals.md").read_text()
    assert "false-claim rate" in md and "| all |" in md
