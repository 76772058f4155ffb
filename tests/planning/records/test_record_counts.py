"""Counting one person's records in one state on a filtered listing: the person goes into the field named like
an owner ('Assignee'), the state is the option of that name ('State: Open'), the form is sent with its own
button, and the count is the one the filtered page states. A page built here, shaped apart from the tracker
fixtures (a dropdown for the state, an 'Apply' button, 'Showing N results')."""

from __future__ import annotations

from agent.planning.offline.records.counts import count_ask, plan_count
from tests.planning.pages import Page


def desk(assignee: str = "", state: str = "Any", stated: str = "") -> Page:
    p = Page("https://desk.test/requests", "Requests - Helpdesk")
    p.link("Home", "https://desk.test/", x=20, y=10, w=60, zone="nav")
    p.add("h1", "Requests", x=40, y=60, w=600, h=40)
    p.add("input", "Assignee", x=40, y=120, w=200, input_type="text", value=assignee, attrs={"name": "who"})
    p.add("select", "State", x=260, y=120, w=150, options=["Any", "Open", "Closed"], value=state)
    p.add("button", "Apply", x=430, y=120, w=80)
    if stated:
        p.add("p", stated, x=40, y=170, w=300, h=20)
    for n, (who, st) in enumerate((("Ana", "Open"), ("Omar", "Closed"), ("Ana", "Closed"))):
        p.add("td", f"#{40 + n}", x=40, y=210 + 30 * n, w=60, h=24)
        p.add("td", who, x=120, y=210 + 30 * n, w=100, h=24)
        p.add("td", st, x=240, y=210 + 30 * n, w=100, h=24)
    return p


QUESTION = "How many open requests does Ana have?"


def test_the_question_names_the_records_the_state_and_the_person():
    ask = count_ask(QUESTION)
    assert ask is not None and (ask.noun, ask.states, ask.person, ask.role) == (
        "request",
        ("open",),
        "Ana",
        "owner",
    )
    reported = count_ask("How many closed bugs were reported by carol?")
    assert reported is not None and (reported.person, reported.role) == ("carol", "reporter")
    assert count_ask("How many requests are shown?") is None  # no person: the general count has it


def test_the_listing_is_filtered_by_the_fields_named_for_person_and_state():
    plan = plan_count(QUESTION, {"observation": desk().build(), "history": []})
    assert plan is not None and not plan["task_complete"]
    assert plan["proposed_actions"] == [
        'Type "Ana" into "Assignee"',
        'Select "Open" from "State"',
        'Click the "Apply" button',
    ]


def test_the_count_is_the_one_the_filtered_listing_states():
    history = [{"plan_step": 'Click the "Apply" button', "status": "success"}]
    filtered = desk("Ana", "Open", "Showing 1 result").build()
    plan = plan_count(QUESTION, {"observation": filtered, "history": history})
    assert plan is not None and plan["task_complete"] and plan["final_answer"] == "1"
    unsent = plan_count(QUESTION, {"observation": filtered, "history": []})
    assert unsent is not None and not unsent["task_complete"]  # a form never sent proves nothing


def test_a_state_the_form_cannot_filter_by_is_not_counted():
    assert (
        plan_count("How many urgent requests does Ana have?", {"observation": desk().build(), "history": []})
        is None
    )
