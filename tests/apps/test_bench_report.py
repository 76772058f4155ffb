"""The application benchmark's figures and report: done vs claimed per application, and the docs section."""

from __future__ import annotations

from pathlib import Path

import pytest

from benchmarks.apps import DOCS, DOCS_END, DOCS_START, aggregate, summary_line, write_docs


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


def test_the_table_goes_between_the_markers_of_the_docs(tmp_path: Path):
    assert DOCS_START in DOCS.read_text() and DOCS_END in DOCS.read_text()
    doc = tmp_path / "BENCHMARKS.md"
    doc.write_text(f"# Before\n{DOCS_START}\nold\n{DOCS_END}\n# After\n")
    write_docs("Command: `python -m benchmarks.apps`\n| a |\n", doc)
    text = doc.read_text()
    assert text.startswith("# Before\n") and text.endswith("# After\n") and "old" not in text
    assert "produced by `python -m benchmarks.apps`" in text and "| a |" in text
    doc.write_text("no markers")
    with pytest.raises(ValueError, match="apps:start"):
        write_docs("x", doc)


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
