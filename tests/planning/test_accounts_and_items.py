"""Who the user is and what item they mean, in the wordings people write: "I'm student 2231907 (password ...)",
"Using dana@x.io / pw, ...", "Sign in to Pulsegrid (email ..., password ...)"; a record's identifier with several
parts ('INV-2026-0193') and where such records are kept ('Billing'); "find out the total of invoice X" is a
question, not a request to open it; "enrol me on X" and "drop my X course" are done by the item's own control,
on its row or its own page, after a confirmation that may ask for a tick or for the item's name typed again."""

from __future__ import annotations

import pytest

from agent.planning.offline.grammar import parse_goal
from agent.planning.offline.intents import Submit, TypeText
from agent.planning.offline.records.confirming import acknowledgement, confirm_typing
from agent.planning.offline.records.finding import find_record
from agent.planning.offline.records.goal import read_record_goal
from agent.planning.offline.records.progress import placed_values
from agent.planning.offline.records.row_actions import (
    item_link,
    own_details,
    page_control,
    row_control,
)
from tests.planning.pages import Page


def credentials(goal: str) -> list[tuple[str, str]]:
    parsed = parse_goal(goal)
    assert not parsed.unknown, parsed.unknown
    assert any(isinstance(i, Submit) and i.purpose == "login" for i in parsed.intents), parsed
    return [(i.field, i.text) for i in parsed.intents if isinstance(i, TypeText)]


@pytest.mark.parametrize(
    ("goal", "fields"),
    [
        ("I'm student 2231907 (password maple-leaf)", [("student number", "2231907"), ("password", "maple-leaf")]),
        ("I'm patient P-20577 (PIN 4420)", [("patient number", "P-20577"), ("pin", "4420")]),
        ("Log in as student 2231907 (password maple-leaf)", [("student number", "2231907"),
                                                             ("password", "maple-leaf")]),
        ("Using dana@acme.io / Harbor!42, open the billing page", [("email", "dana@acme.io"), ("password", "Harbor!42")]),
        ("Sign in to Pulsegrid (email dana@acme.io, password Harbor!42)", [("email", "dana@acme.io"),
                                                                          ("password", "Harbor!42")]),
        ("Log in to Pulsegrid as dana@acme.io with password Harbor!42", [("email", "dana@acme.io"),
                                                                        ("password", "Harbor!42")]),
        ("Log in as alice with password secret", [("username", "alice"), ("password", "secret")]),
    ],
)  # fmt: skip
def test_who_the_user_is_is_read_in_everyday_wordings(goal, fields):
    assert credentials(goal) == fields


def test_a_sentence_that_is_no_login_is_not_read_as_one():
    assert parse_goal("I'm new to the area").unknown == ("I'm new to the area",)


@pytest.mark.parametrize(
    ("goal", "expected"),
    [
        ("log in as dana / pw and open invoice INV-2026-0193", {"op": "open", "number": "INV-2026-0193",
                                                               "noun": "invoice"}),
        ("Log in with student number 2231907 and password maple-leaf, then enrol me on the Creative Writing "
         "Workshop.", {"op": "act", "verb": "enrol", "about": "the Creative Writing Workshop"}),
        ("I'm student 2231907 (password maple-leaf). Please drop my statistics course.",
         {"op": "act", "verb": "drop", "about": "statistics course"}),
    ],
)  # fmt: skip
def test_record_goals_with_identifiers_and_item_verbs(goal, expected):
    record = read_record_goal(goal)
    assert record is not None
    assert {k: getattr(record, k) for k in expected} == expected


@pytest.mark.parametrize(
    "goal",
    [
        "log in as dana / pw and find out the total amount of invoice INV-2026-0193",
        "find the due date of invoice INV-7",
        "log in as kim / pw and find the confirmation number for my June booking",
    ],
)
def test_asking_about_a_record_is_a_question_not_an_order_to_open_it(goal):
    """'Opened INV-2026-0193' is no answer to 'what is its total': the goal is answered from the record's page."""
    assert read_record_goal(goal) is None


def test_records_are_looked_for_where_the_site_keeps_them():
    p = Page("http://app.test/app", "Overview")
    for n, name in enumerate(("Overview", "Members", "API keys", "Billing", "Settings")):
        p.link(name, f"/app/{name.lower()}", y=100 + 30 * n, zone="nav")
    goal = read_record_goal("open invoice INV-2026-0193")
    history = [{"plan_step": 'Click the "Overview" link', "status": "success", "url": "http://app.test/app"}]
    found = find_record(goal, p.build(), history, {"record": {}})
    assert found["proposed_actions"] == ['Click the "Billing" link']


def _keys() -> Page:
    p = Page("http://app.test/keys", "API keys")
    for n, name in enumerate(("ci-runner-legacy", "ci-runner", "staging")):
        y = 100 + 30 * n
        p.add("td", name, x=100, y=y, block=f"#k{n}")
        p.add("td", "Active", x=300, y=y, block=f"#k{n}")
        p.link("Revoke", f"/keys/{n}/revoke", x=500, y=y, w=60, block=f"#k{n}")
    return p


def test_the_row_that_says_the_items_whole_name_is_the_one():
    control = row_control(read_record_goal("revoke the API key named ci-runner"), _keys().build(), set())
    assert control is not None and control["attrs"]["href"] == "/keys/1/revoke"  # not 'ci-runner-legacy'
    assert row_control(read_record_goal("revoke the API key named ci"), _keys().build(), set()) is None


def test_an_item_without_a_row_control_is_reached_through_its_own_page():
    goal = read_record_goal("enrol me on the Creative Writing Workshop")
    catalogue = Page("http://college.test/courses", "Course catalogue")
    catalogue.add("h1", "Course catalogue", y=60)
    for n, title in enumerate(("Creative Writing for Radio", "Creative Writing Workshop", "Drawing")):
        catalogue.link(title, f"/courses/{n}", y=120 + 30 * n, block=f"#c{n}")
    link = item_link(goal, catalogue.build(), set())
    assert link is not None and link["attrs"]["href"] == "/courses/1"
    course = Page("http://college.test/courses/1", "Creative Writing Workshop")
    course.add("h1", "Creative Writing Workshop", y=60)
    course.add("p", "Ten weeks of writing exercises and feedback.", y=100, w=600)
    course.link("Enrol on this course", "/courses/1/enrol", y=160)
    control = page_control(goal, course.build(), set())
    assert control is not None and control["text"] == "Enrol on this course"
    other = Page("http://college.test/courses/2", "Drawing")
    other.add("h1", "Drawing", y=60)
    other.link("Enrol on this course", "/courses/2/enrol", y=160)
    assert page_control(goal, other.build(), set()) is None  # another course's page


def test_a_confirmation_asks_for_a_tick_or_the_items_name_typed_again():
    goal = read_record_goal("revoke the API key named ci-runner")
    p = Page("http://app.test/keys/1/revoke", "Revoke key")
    p.add("p", "Are you sure you want to revoke ci-runner? This cannot be undone.", y=80, w=600)
    p.add("input", "", name="Type the key name to confirm", y=120)
    p.add("input", "", name="I have read what this means", input_type="checkbox", y=160)
    p.add("button", "Revoke key", y=200)
    observation = p.build()
    assert confirm_typing(goal, observation) == ("Type the key name to confirm", "ci-runner")
    box = acknowledgement(observation)
    assert box is not None and box["name"] == "I have read what this means"
    q = Page("http://app.test/projects/9/delete", "Delete project")
    q.add("input", "", name="Type DELETE to confirm", y=120)
    assert confirm_typing(goal, q.build()) == ("Type DELETE to confirm", "DELETE")


def test_the_users_own_record_is_their_details_and_login_values_are_no_change():
    goal = read_record_goal(
        "I'm patient P-20577 (PIN 4420). Please change the mobile number on my Brightsmile record to 07700 900123."
    )
    assert goal is not None and own_details(goal)
    history = [
        {"plan_step": 'Type "P-20577" into "patient number"', "status": "success"},
        {"plan_step": 'Type "4420" into "pin"', "status": "success"},
        {"plan_step": "Submit the login form", "status": "success"},
        {"plan_step": 'Type "07700 900123" into "Mobile number"', "status": "success"},
    ]
    assert placed_values(history) == ("07700 900123",)


def test_a_booking_never_takes_lowercase_words_for_a_persons_name():
    """'Book a table for 4 at ...' once read 'a table' as the person booked and '4 at ...' as the event."""
    parsed = parse_goal(
        "Book a table for 4 at Lotus Garden on Saturday 13 March 2027 at 19:30 for Claire Dubois."
    )
    assert not any(isinstance(i, TypeText) and i.text == "a table" for i in parsed.intents)
    booked = parse_goal("Register Sam Ortega (sam@x.org) for 2 places at the Garden Work Day")
    assert [i.text for i in booked.intents if isinstance(i, TypeText)] == ["Sam Ortega", "sam@x.org", "2"]


def test_the_users_own_list_comes_before_a_link_that_starts_something_new():
    """'Withdraw my pending unpaid leave request' from the home page: 'Request leave' names its words but starts a
    new request (whose form's 'Cancel' once passed for the withdrawal); 'My leave requests' lists the user's own."""
    from agent.planning.offline.records.plan import plan_record

    goal = read_record_goal("As mkovacs with password fjord-lamp, withdraw my pending unpaid leave request.")
    home = Page("http://hr.test/", "Home - Intranet")
    home.add("h1", "Good morning, Marta", y=60)
    home.link("Request leave", "/leave/new", y=120)
    home.link("My leave requests", "/leave", y=150)
    observation = home.build()
    assert (item_link(goal, observation, set()) or {}).get("name") != "Request leave"
    history = [{"plan_step": "Submit the login form", "status": "success", "url": "http://hr.test/login"}]
    planned = plan_record({"observation": observation, "history": history}, goal)
    assert planned["proposed_actions"] == ['Click the "My leave requests" link']
