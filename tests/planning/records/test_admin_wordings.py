"""Record goals as people word them in an admin (a record named after its noun, fields named by the page, the right
value beside the wrong one, a note that keeps the text), the page's own field names matched in the goal, the
proof read from the record's own row, and the click that agrees to a page's risky question."""

from __future__ import annotations

import pytest

from agent.planning.offline import parse_goal
from agent.planning.offline.questions import analyze
from agent.planning.offline.records.fills import plan_fills
from agent.planning.offline.records.goal import read_record_goal
from agent.planning.offline.records.proof import read_change
from agent.planning.offline.tables import table_count
from agent.safety import analyze_action


def _field(id_: int, label: str, value: str = "", tag: str = "input", **extra) -> dict:
    role = "combobox" if tag == "select" else "textbox"
    return {"id": id_, "tag": tag, "role": role, "name": label, "value": value, "zone": "main",
            "bbox": [300, 40 * id_, 200, 24], **extra}  # fmt: skip


FORM = {
    "url": "http://crm.test/people/7/edit",
    "title": "Edit person",
    "elements": [
        _field(1, "Display name", "Bruno Keller"),
        _field(2, "Mail address", "bruno@keller.example"),
        _field(3, "Home town", "Zurich"),
        _field(4, "Joined on", "2025-09-15"),
        _field(5, "Account manager", "Emeka Obi", tag="select", options=["Ana Lima", "Dana Kowalski", "Emeka Obi"]),
        {"id": 6, "tag": "button", "role": "button", "name": "Store", "text": "Store", "bbox": [300, 300, 80, 30]},
    ],
}  # fmt: skip


@pytest.mark.parametrize(
    ("goal", "about", "settings"),
    [
        ("change the email of customer Bruno Keller to b@k.example", "Bruno Keller", (("email", "b@k.example"),)),
        ('delete the customer "Test Customer"', "Test Customer", ()),
        ("Order SO-1010 belongs to Dana Kowalski, not Emeka Obi: fix its customer", "", (("customer", "Dana Kowalski"),)),
    ],
)  # fmt: skip
def test_the_record_and_its_values(goal, about, settings):
    read = read_record_goal(goal)
    assert (read.about, read.settings) == (about, settings)


def test_a_note_that_keeps_the_text_appends():
    read = read_record_goal('Add a note to order SO-1002: "Call after 5pm." Keep the existing notes.')
    assert (read.op, read.number, read.text) == ("append", "SO-1002", "Call after 5pm.")


def test_a_login_with_a_slash_and_no_login_as_the_record():
    parsed = parse_goal("Sign in as manager / s3cret and change the city of customer Ana Lima to Porto")
    assert [i.step() for i in parsed.intents][:2] == [
        'Type "manager" into "username"',
        'Type "s3cret" into "password"',
    ]
    assert read_record_goal(parsed.goal).about == "Ana Lima"


def test_the_pages_field_names_read_in_the_goal():
    goal = read_record_goal(
        "Add a person named Kim Berg with home town Bodo, joined on 2026-01-02 for Ana Lima"
    )
    fills, missing = plan_fills(goal, FORM)
    got = {f.label: (f.value, f.how) for f in fills}
    assert got["Home town"] == ("Bodo", "type") and got["Joined on"] == ("2026-01-02", "type")
    assert got["Account manager"] == ("Ana Lima", "select") and not missing


def test_the_date_goes_into_the_field_that_holds_one():
    fills, missing = plan_fills(
        read_record_goal("change the date of person Bruno Keller to 2026-10-02"), FORM
    )
    assert [(f.label, f.value) for f in fills] == [("Joined on", "2026-10-02")] and not missing


LISTING = {
    "url": "http://crm.test/people",
    "title": "People",
    "page_type": "listing",
    "page_text": "Saved.\nAna Lima ana@x.example Lisbon Oct. 2, 2026\nBruno Keller bruno@keller.example Zurich Sept. 15, 2025",
    "elements": [],
}


def test_the_proof_is_the_records_own_row():
    moved = read_record_goal("change the date of person Bruno Keller to 2026-10-02")
    assert not read_change(moved, LISTING).proven  # Oct. 2, 2026 is Ana's row, not Bruno's
    kept = read_record_goal("change the date of person Ana Lima to 2026-10-02")
    reading = read_change(kept, LISTING)
    assert reading.proven and "Ana Lima" in reading.seen[0]


def test_rows_counted_by_the_column_that_says_it():
    head = [
        {"tag": "th", "role": "columnheader", "text": t, "bbox": [100 * i, 10, 90, 20]}
        for i, t in enumerate(("Ref", "State"))
    ]
    rows = [
        {"tag": "td", "role": "cell", "text": t, "bbox": [100 * (n % 2), 40 + 30 * (n // 2), 90, 20]}
        for n, t in enumerate(("A1", "open", "A2", "done", "A3", "open"))
    ]  # fmt: skip
    page = {"elements": head + rows, "page_text": "3 jobs"}
    assert table_count(analyze("how many jobs are open"), page).text == "2"
    assert table_count(analyze("how many jobs are open"), {**page, "page_text": "40 jobs"}) is None  # paged


def test_agreeing_to_a_pages_risky_question_is_risky():
    obs = {
        "url": "http://crm.test/people/7/remove",
        "page_text": "Remove person\nAre you sure you want to delete Bruno Keller? This cannot be undone.",
        "elements": [
            {"id": 1, "tag": "input", "role": "button", "input_type": "submit", "name": "Yes, go ahead"}
        ],
    }
    risky = analyze_action({"action": "click", "element_id": 1, "args": {}}, obs, goal="delete Bruno Keller")
    assert risky["risk"] == "high", risky
    calm = {**obs, "page_text": "Edit person\nAll good."}
    assert analyze_action({"action": "click", "element_id": 1, "args": {}}, calm, goal="")["risk"] == "low"


def test_a_form_counts_as_read_again_only_after_a_click_that_loaded_another_page():
    from agent.planning.offline.records.progress import reread

    typed = {"plan_step": 'Type "x" into "Notes"', "status": "success", "url": "http://a.test/r/2/edit"}
    saved = {"plan_step": 'Click the "Save" button', "status": "success", "url": "http://a.test/r/"}
    opened = {"plan_step": 'Click the "R-2" link', "status": "success", "url": "http://a.test/r/2/edit"}
    stayed = {"plan_step": 'Click the "Details" link', "status": "success", "url": "http://a.test/r/"}
    assert reread([typed, saved, opened])
    assert not reread([typed, saved]) and not reread([typed, saved, stayed])


def test_a_page_read_while_still_loading_after_the_save_is_read_again():
    from agent.planning.offline.records.plan import plan_record

    goal = read_record_goal("cancel order SO-7")
    history = [
        {"plan_step": 'Select "Cancelled" from "Status"', "status": "success", "url": "http://a.test/o/7"},
        {"plan_step": 'Click the "Save" button', "status": "success", "url": "http://a.test/o/"},
    ]
    blank = {"url": "http://a.test/o/", "title": "Orders", "elements": [], "page_text": ""}
    result = plan_record({"observation": blank, "history": history}, goal)
    assert result["proposed_actions"] == ["Wait 1 seconds"] and not result["task_complete"]
    waited = history + [{"plan_step": "Wait 1 seconds", "status": "success"}] * 2
    assert plan_record({"observation": blank, "history": waited}, goal)["task_complete"]
