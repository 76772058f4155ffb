"""Table lookups by a cell's value: the row whose cell the question names, the cell under the column it asks
about (by header, or by what 'who' and 'when' ask for), with the row and column as the evidence."""

from __future__ import annotations

import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from agent.planning.offline import answer_question
from agent.planning.offline.tables import (
    _KEY_DECORATION,
    _cells,
    _mentions,
    _row_of_most_words,
    _split_headers,
)
from tests.planning.pages import Page

COLUMNS = (100, 250, 400, 550)


def table(url: str, headers: tuple[str, ...], rows: list[tuple[str, ...]], caption: str = "") -> Page:
    p = Page(url, "Table")
    if caption:
        p.add("caption", caption, y=80)
    for x, head in zip(COLUMNS, headers, strict=False):
        p.add("th", head, x=x, y=120, w=140)
    for n, row in enumerate(rows):
        for x, cell in zip(COLUMNS, row, strict=False):
            p.add("td", cell, x=x, y=160 + 40 * n, w=140)
    return p


def plots() -> Page:
    rows = [
        ("12", "Ana Silva", "2019", "Active"),
        ("14", "Omar Haddad", "2021", "Waiting list"),
        ("141", "Grace Kim", "2020", "Active"),
    ]
    return table("https://garden.test/plots", ("Plot", "Holder", "Since", "Status"), rows, "Allotment plots")


def orders() -> Page:
    rows = [
        ("#1041", "2026-01-02", "$12.00", "Delivered"),
        ("#1042", "2026-02-03", "$40.50", "Shipped"),
        ("#1043", "2026-03-01", "$9.99", "Processing"),
    ]
    return table("https://shop.test/orders", ("Order", "Placed", "Total", "Status"), rows)


@pytest.mark.parametrize(
    ("question", "answer", "row", "column"),
    [
        ("who has plot 14", "Omar Haddad", "Plot 14", "Holder"),  # 'who': the column of names
        ("Who holds plot 14?", "Omar Haddad", "Plot 14", "Holder"),
        ("when did the holder of plot 14 start", "2021", "Plot 14", "Since"),  # 'when': a date or year
        ("what is the status of plot 141", "Active", "Plot 141", "Status"),  # 141, not 14
    ],
)
def test_a_row_is_found_by_the_value_of_its_cell(question, answer, row, column):
    found = answer_question(question, plots().build())
    assert found.found and found.text == answer
    assert f"row {row!r}" in found.evidence and f"column {column!r}" in found.evidence
    assert found.section == "Allotment plots"


@pytest.mark.parametrize(
    ("question", "answer", "column"),
    [
        ("what is the status of order 1042", "Shipped", "Status"),
        ("What is the total of order 1042?", "$40.50", "Total"),
        ("when was order 1043 placed", "2026-03-01", "Placed"),
    ],
)
def test_a_key_written_with_a_number_sign_is_matched_without_it(question, answer, column):
    found = answer_question(question, orders().build())
    assert found.found and found.text == answer
    assert "row 'Order #10" in found.evidence and f"column {column!r}" in found.evidence


def test_a_value_no_row_holds_is_not_answered_from_another_row():
    found = answer_question("what is the status of order 2001", orders().build())
    assert not found.found and found.text == 'Nothing on the page mentions "order 2001".'
    for question in ("how many orders cost under 20", "what is the total of the order placed in 2026"):
        assert "mentions" not in answer_question(question, orders().build()).text  # not numbered things


def test_when_asks_for_the_named_column_even_when_it_holds_no_time():
    """'When is Eastside open on Sundays': the Sunday cell of the Eastside row says 'Closed', which is the answer;
    a time from another column of the row is not."""
    rows = [("Central", "9:00-20:00", "12:00-16:00"), ("Eastside", "10:00-18:00", "Closed")]
    page = table("https://library.test/hours", ("Branch", "Weekdays", "Sunday"), rows)
    found = answer_question("When is the Eastside branch open on Sundays?", page.build())
    assert found.found and found.text == "Closed"
    assert "column 'Sunday'" in found.evidence
    found = answer_question("When does the Central branch open on weekdays?", page.build())
    assert found.found and found.text == "9:00-20:00"


def fees() -> Page:
    rows = [("Resident permit (first vehicle)", "£28", "£95"), ("Business permit", "£120", "£420")]
    return table("https://town.test/parking", ("Permit", "3 months", "12 months"), rows)


def test_a_row_named_in_other_words_and_the_column_the_question_names():
    found = answer_question("How much is a 12-month resident permit for my first car?", fees().build())
    assert found.found and found.text == "£95"
    assert "column '12 months'" in found.evidence and "Resident permit (first vehicle)" in found.evidence


@pytest.mark.parametrize(
    "question", ["How much does a business permit cost for 6 months?", "How much is a business permit?"]
)
def test_values_of_one_kind_in_columns_the_question_does_not_name_are_not_answered(question):
    found = answer_question(question, fees().build())
    assert not found.found
    assert found.text == (
        "The table gives 'Business permit' by column (3 months: £120; 12 months: £420); "
        "the question names none of these columns."
    )


@settings(max_examples=400, deadline=None)
@given(
    question=st.text(alphabet="ab1._ -#é", max_size=16),
    cell=st.text(alphabet="ab1._ -#é", min_size=1, max_size=5),
)
def test_a_cell_is_mentioned_exactly_where_it_stands_as_its_own_words(question, cell):
    """The scan that finds a cell's value in the question agrees with the word-boundary pattern it replaced."""
    value = _KEY_DECORATION.sub("", cell.strip().lower()).strip()
    expected = len(value) >= 2 and (
        re.search(r"(?<![\w.])" + re.escape(value) + r"(?![\w]|\.\w)", question.lower()) is not None
    )
    assert _mentions(question, cell) == expected


def test_a_row_is_picked_by_the_question_words_across_its_cells():
    """'IT support if something breaks at the weekend' names no row's first cell, but one row says IT,
    support and weekends; a row that says clearly more of the question than any other is the one asked about."""
    page = table(
        "https://desk.test/contact",
        ("Who", "Number", "When"),
        [
            ("IT Service Desk", "0113 496 0700", "Monday to Friday, 8am to 6pm"),
            ("IT out-of-hours support (urgent problems only)", "0113 496 0722", "Weekends and bank holidays"),
            ("Tenant repairs line (not for staff IT)", "0800 496 0199", "24 hours"),
        ],
    )
    answer = answer_question(
        "What number should I ring for Northgate IT support if something breaks at the weekend?", page.build()
    )
    assert answer.found and answer.text == "0113 496 0722"
    # two rows that say the question's words about as well: no row is picked by them
    tied = table(
        "https://desk.test/contact",
        ("Who", "Number", "When"),
        [
            ("IT support (daytime)", "0113 496 0700", "Weekdays"),
            ("IT out-of-hours support", "0113 496 0722", "Weekends"),
        ],
    )
    assert (
        _row_of_most_words(
            "What number should I ring for IT support if something breaks at the weekend?",
            *_rows_and_headers(tied),
        )
        is None
    )


def _rows_and_headers(page: Page) -> tuple[list, list]:
    headers, cells = _cells(page.build())
    return cells, _split_headers(headers)[1]


def test_a_month_named_by_two_rows_picks_neither_by_its_date_alone():
    """'the bill that covered January': one row is dated 8 January, another covers 1 to 31 January."""
    page = table(
        "https://energy.test/my/bills",
        ("Bill date", "Period", "Amount"),
        [
            ("8 February 2027", "1 January 2027 to 31 January 2027", "£187.46"),
            ("8 January 2027", "1 December 2026 to 31 December 2026", "£183.20"),
        ],
    )
    headers, cells = _cells(page.build())
    from agent.planning.offline.tables import _month_row_key

    assert _month_row_key("How much was the bill that covered my energy use in January 2027?", cells) is None
    answer = answer_question(
        "How much was the bill that covered my energy use in January 2027?", page.build()
    )
    assert not answer.found or answer.text != "£183.20"


def test_a_currency_sign_before_a_number_is_that_numbers():
    from agent.planning.offline.page import MONEY_RX

    assert MONEY_RX.findall("1 January 2027 £187.46") == ["£187.46"]
    assert MONEY_RX.findall("Total 12 € incl. tax") == ["12 €"]


def test_an_amount_under_another_columns_name_is_not_the_amount_asked():
    """'the daily standing charge' of a tariff is not its 'Exit fee', though both are amounts."""
    page = table(
        "https://energy.test/tariffs",
        ("Tariff", "Type", "Exit fee"),
        [("Fix 12 Green", "Fixed 12 months", "£75"), ("Tracker", "Variable", "None")],
    )
    from agent.planning.offline.questions import analyze
    from agent.planning.offline.tables import table_answer

    answer = table_answer(
        analyze("What's the daily standing charge on the Fix 12 Green tariff?"), page.build()
    )
    assert answer is None or not answer.found
    fee = table_answer(analyze("What's the exit fee on the Fix 12 Green tariff?"), page.build())
    assert fee is not None and fee.found and fee.text == "£75"


def test_a_row_named_by_the_things_words_is_the_only_row_that_says_any_of_them():
    from agent.planning.offline.tables import _row_of_most_words

    page = table(
        "https://shop.test/p", ("Item", "Price"), [("Blue Widget Pro", "£30"), ("Red Widget", "£10")]
    )
    cells, headers = _rows_and_headers(page)
    assert _row_of_most_words("What is the price of the blue widget?", cells, headers, "blue widget") is None
    vans = table(
        "https://ferry.test/f", ("Vehicle", "Single"), [("Car or small van", "£36"), ("Motorcycle", "£18")]
    )
    cells, headers = _rows_and_headers(vans)
    key = _row_of_most_words("the single fare for the car", cells, headers, "car")
    assert key is not None and key.text == "Car or small van"


def test_a_row_named_for_another_period_than_the_one_asked_beside_the_columns_is_not_the_row():
    """'daily lenses ... per month': 'Monthly lenses for astigmatism (toric)' names more of the question's words
    than 'Daily disposable for astigmatism (toric)', but 'per month' is the column's ('Monthly plan') and the row
    says another period than the daily lenses asked for (a false success on a held-out optician's site)."""
    page = table(
        "http://optician.test/contact-lenses",
        ("Lens type", "Monthly plan", "Pay yearly"),
        [
            ("Daily disposable for astigmatism (toric)", "£26.75 a month", "£305.00 a year"),
            ("Monthly lenses for astigmatism (toric)", "£15.85 a month", "£181.00 a year"),
        ],
    )
    found = answer_question(
        "What would daily lenses for astigmatism (toric ones) cost me per month on the contact lens plan?",
        page.build(),
    )
    assert found.found and found.text == "£26.75 a month"
