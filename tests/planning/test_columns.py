"""Which column a question means, when a row holds values of one kind side by side (agent.planning.offline.columns)."""

from __future__ import annotations

import pytest

from agent.planning.offline.columns import column_mismatch, value_shape

BINS = ["General waste (black bin)", "Recycling (blue bin)"]


@pytest.mark.parametrize(
    ("question", "column", "rivals", "row"),
    [
        ("How much is a 12-month resident permit?", "12 months", ["3 months"], "Resident permit"),
        (
            "Which day is the green bin collected on Elm Street?",
            "Garden waste (green bin)",
            BINS,
            "Elm Street",
        ),
        ("What is the price of the Blue Widget?", "Price", ["Sale price"], "Blue Widget"),
        ("When does the Central branch open on weekdays?", "Weekdays", ["Sunday"], "Central"),
        ("How much is the senior 65+ monthly membership?", "Monthly", ["Annual"], "Senior (65+)"),
        ("What does an annual pass cost?", "Annual", ["Monthly"], "Pass"),
        ("What is the price of the kettle?", "Price", [], "Kettle"),  # no rival column: nothing to tell apart
    ],
)
def test_the_column_the_question_names(question, column, rivals, row):
    assert column_mismatch(question, column, rivals, row) == ""


@pytest.mark.parametrize(
    ("question", "column", "rivals", "why"),
    [
        ("How much is a business permit for 6 months?", "3 months", ["12 months"], "asks for 6 month"),
        ("How much is a student membership for six months?", "Monthly", ["Annual"], "asks for 6 month"),
        (
            "What is the sale price of the Blue Widget?",
            "Price",
            ["Sale price"],
            "asks about the column 'Sale price'",
        ),
        ("How much is a business permit?", "3 months", ["12 months"], "does not say which"),
    ],
)
def test_a_column_the_question_does_not_name(question, column, rivals, why):
    assert why in column_mismatch(question, column, rivals)


def test_value_shapes_that_rival_each_other():
    shapes = {
        t: value_shape(t)
        for t in ("£28", "9:00-20:00", "12", "12 Sep 2026", "2026-01-02", "Closed", "Monday")
    }
    assert shapes == {
        "£28": "money",
        "9:00-20:00": "time",
        "12": "number",
        "12 Sep 2026": "date",
        "2026-01-02": "date",
        "Closed": "",
        "Monday": "",
    }
