"""The application benchmark's figures and report: done vs claimed per application, and the docs section."""

from __future__ import annotations

from pathlib import Path

from benchmarks.apps import aggregate, summary_line


def _row(app: str, kind: str, done: bool, claimed: bool) -> dict:
    return {"app_key": app, "name": f"{app}-{kind}-{done}-{claimed}", "kind": kind, "done": done,
            "claimed": claimed, "false_claim": claimed and not done, "steps": 4, "elapsed_s": 2.0, "error": None}  # fmt: skip


def test_figures_count_false_claims_per_application():
    rows = [
        _row("quillbox", "action", True, True),
        _row("quillbox", "answer", False, True),
        _row("quillbox", "navigation", False, False),
        _row("shopdesk", "action", True, False),
    ]
    report = aggregate(rows, ["quillbox", "shopdesk"], {"shopdesk": 12.34})
    q, s = report["per_app"]["quillbox"], report["per_app"]["shopdesk"]
    assert (q["runs"], q["success"], q["claimed"], q["false_claims"]) == (3, 1, 2, 1)
    assert q["kinds"] == {"action": "1/1", "answer": "0/1", "navigation": "0/1"}
    assert (s["success"], s["claimed"], s["missed_successes"], s["install_s"]) == (1, 0, 1, 12.3)
    assert report["overall"]["false_claim_goals"] == ["quillbox: quillbox-answer-False-True"]
    assert summary_line(report["overall"]).startswith("application goals: done 2/4 (50.0%); false claims 1/2")


def test_the_table_is_a_section_of_the_shared_report(tmp_path: Path):
    """`benchmarks.apps --write-docs` and `make bench` write the same section through benchmarks.report."""
    import json

    from benchmarks.report import RENDERERS, update_doc

    assert "apps" in RENDERERS
    report = aggregate([_row("quillbox", "action", True, True)], ["quillbox"], {})
    report.update(
        {
            "goals": [],
            "unavailable": {},
            "wall_s": 1.0,
            "environment": {"command": "python -m benchmarks.apps"},
        }
    )
    (tmp_path / "apps.json").write_text(json.dumps(report))
    doc = tmp_path / "BENCHMARKS.md"
    doc.write_text("# Before\n")
    assert update_doc(tmp_path, doc, tmp_path / "charts") == ["apps"]
    text = doc.read_text()
    assert text.startswith("# Before\n") and "<!-- section:apps:start -->" in text
    assert "python -m benchmarks.apps" in text


def test_answers_are_whole_values_and_counts_stand_alone():
    from tests.apps.harness import answer_holds

    holds = {
        ("4", "4"): True,
        ("4 results (12 total)", "4"): True,
        ("(4 matches)", "4"): True,
        ("Nov. 4, 2026", "4"): False,
        ("14", "4"): False,
        ("Owned by: bob", "bob"): True,
        ("Due March 15, 2027", "March 15, 2027"): True,
    }
    assert {case: answer_holds(*case) for case in holds} == holds
