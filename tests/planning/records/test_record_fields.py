"""Reading a record's fields from its own page: the label that means what the question asks ('who is assigned'
-> 'Assignee', 'who reported' -> 'Requester'), in a definition list or a 'Label: value' list as well as a
property table; and a numbered record's address read from its siblings' links. Pages built here, shaped apart
from the tracker fixtures (definition lists, list items, query-string addresses)."""

from __future__ import annotations

import pytest

from agent.planning.offline.records.addresses import numbered_address
from agent.planning.offline.records.edits import read_text_edit
from agent.planning.offline.records.fields import asked_field, record_field_answer, record_fields
from agent.planning.offline.records.goal import read_record_goal
from agent.planning.offline.records.proof import read_change
from tests.planning.pages import Page


def request_page() -> Page:
    """A help-desk request shown as a definition list (terms above their definitions), then a 'Label: value'
    list of dates."""
    p = Page("https://desk.test/requests/view?id=41", "Request 41 - Helpdesk")
    p.link("Requests", "https://desk.test/requests", x=20, y=10, w=80, zone="nav")
    p.add("h1", "Request #41: Heater in room 12 is broken", x=40, y=80, w=700, h=40)
    y = 140
    for term, value in (("Requester", "Ana Silva"), ("Assignee", "Omar Haddad"), ("Urgency", "high")):
        p.add("dt", term, x=40, y=y, w=200, h=20)
        p.add("dd", value, x=80, y=y + 22, w=300, h=20)
        y += 50
    p.add("li", "Opened: 2026-03-02", x=40, y=320, w=300, h=20)
    p.add("li", "Category: Facilities", x=40, y=345, w=300, h=20)
    p.add("p", "The heater makes a clicking noise and stays cold.", x=40, y=380, w=700, h=20)
    return p


@pytest.mark.parametrize(
    ("question", "answer", "label"),
    [
        ("Who is assigned to the request about the broken heater?", "Omar Haddad", "Assignee"),
        ("Who reported request #41?", "Ana Silva", "Requester"),
        ("What is the priority of request #41?", "high", "Urgency"),  # the shipped model: priority ~ urgency
        ("Which category is request #41 in?", "Facilities", "Category"),
    ],
)
def test_a_field_is_read_by_the_label_that_means_what_is_asked(question, answer, label):
    found = record_field_answer(question, request_page().build())
    assert found is not None and found.found, asked_field(question)
    assert found.text == answer
    assert found.evidence == f"{label}: {answer}"
    assert found.section.startswith("Request #41")


def test_fields_pair_terms_with_their_definitions_and_inline_labels():
    fields = {f.label: f.value for f in record_fields(request_page().build())}
    assert fields == {
        "Requester": "Ana Silva",
        "Assignee": "Omar Haddad",
        "Urgency": "high",
        "Opened": "2026-03-02",
        "Category": "Facilities",
    }


def test_no_answer_off_the_record_or_without_a_matching_label():
    page = request_page().build()
    assert record_field_answer("Who reported request #42?", page) is None  # another record's question
    assert record_field_answer("What is the due date of request #41?", page) is None  # no such label
    listing = Page("https://desk.test/requests", "Requests")
    listing.add("h1", "All requests", x=40, y=80, w=700, h=40)
    listing.add("th", "Requester", x=40, y=140, w=200, h=20)
    listing.add("th", "Assignee", x=260, y=140, w=200, h=20)
    listing.add("td", "Ana Silva", x=40, y=170, w=200, h=20)
    listing.add("td", "Omar Haddad", x=260, y=170, w=200, h=20)
    assert (
        record_fields(listing.build()) == []
    )  # column headers over rows are a listing, not one record's fields


def test_a_numbered_record_is_at_the_address_its_siblings_follow():
    p = Page("https://desk.test/requests?page=2", "Requests")
    for n in (38, 39, 40):
        p.link(f"No. {n}", f"https://desk.test/requests/view?id={n}&tab=main", x=40, y=100 + 30 * n, w=80)
    p.link("Help", "https://desk.test/help/7", x=40, y=900, w=80)
    assert numbered_address("41", p.build()) == "https://desk.test/requests/view?id=41&tab=main"
    lone = Page("https://desk.test/requests", "Requests")
    lone.link("#38", "https://desk.test/requests/view?id=38", x=40, y=100, w=80)
    assert numbered_address("41", lone.build()) == ""  # one link is no pattern
    other = Page("https://desk.test/requests", "Requests")
    for n in (1, 2):
        other.link(f"#{n}", f"https://elsewhere.test/r/{n}", x=40, y=100 + 30 * n, w=80)
    assert numbered_address("41", other.build()) == ""  # another site's addresses are not this site's


def _after_save(heading: str, radio: str = "") -> Page:
    p = Page("https://desk.test/requests/view?id=41", "Request 41 - Helpdesk")
    p.add("h1", heading, x=40, y=80, w=700, h=40)
    if radio:
        p.add("input", radio, x=40, y=300, w=20, h=20, input_type="radio", role="radio")
        p.add("label", radio, x=70, y=300, w=200, h=20)  # its label is a line of the page text
    return p


def test_a_state_change_is_proven_by_the_state_the_page_shows():
    goal = read_record_goal("Reopen request #41")
    assert goal is not None and goal.op == "reopen" and not goal.values
    shown = read_change(goal, _after_save("Request #41: Heater is broken (reopened)").build())
    assert shown.proven and "reopened" in shown.seen[0]
    choice = read_change(goal, _after_save("Request #41: Heater is broken", radio="reopened").build())
    assert not choice.proven  # a choice the form offers is not the state the record is in


def test_a_text_edit_is_proven_only_when_the_old_text_is_gone():
    goal = read_text_edit('On the Heating wiki page, "recieve" is misspelled: change it to "receive".')
    assert goal is not None and goal.replace == ("recieve", "receive") and goal.about == "Heating"
    done = Page("https://wiki.test/Heating", "Heating")
    done.add("h1", "Heating", x=40, y=80, w=700, h=40)
    done.add("p", "Radiators receive hot water from the boiler.", x=40, y=140, w=700, h=20)
    assert read_change(goal, done.build()).proven
    half = Page("https://wiki.test/Heating", "Heating")
    half.add("h1", "Heating", x=40, y=80, w=700, h=40)
    half.add("p", "Radiators receive hot water; pipes recieve it first.", x=40, y=140, w=700, h=20)
    assert not read_change(goal, half.build()).proven


@pytest.mark.parametrize(
    ("goal", "old", "new", "about"),
    [
        ('Replace "teh" with "the" on the Onboarding page', "teh", "the", "Onboarding"),
        ('Replace the word "teh" by "the" in the Onboarding page', "teh", "the", "Onboarding"),
        ('In the meeting notes, change "ten" to "eleven"', "ten", "eleven", "meeting notes"),
        ('"colour" should be "color" in the StyleGuide article', "colour", "color", "StyleGuide"),
    ],
)
def test_text_edit_wordings(goal, old, new, about):
    edit = read_text_edit(goal)
    assert edit is not None and edit.replace == (old, new) and edit.about == about


def test_an_edit_needs_both_texts_quoted_and_a_record():
    assert read_text_edit('Replace "a" with "b"') is None  # which record?
    assert (
        read_text_edit("Replace teh with the on the Onboarding page") is None
    )  # where does a bare text end?


def test_another_records_state_proves_nothing():
    goal = read_record_goal("Cancel order SO-1007")
    assert goal is not None and goal.op == "cancel" and goal.number == "SO-1007"
    listing = Page("https://shop.test/admin/orders/", "Orders")
    listing.add("h1", "Select order to change", x=40, y=60, w=600, h=40)
    listing.add("li", "SO-1003 Ana Lima cancelled", x=40, y=120, w=600, h=20)
    assert not read_change(goal, listing.build()).proven
    listing.add("li", "SO-1007 Dana Kowalski cancelled", x=40, y=150, w=600, h=20)
    assert read_change(goal, listing.build()).proven


def test_a_label_repeated_with_other_values_belongs_to_several_records():
    p = Page("https://desk.test/roadmap", "Roadmap")
    p.add("h1", "Milestone 2.0 and after", x=40, y=60, w=600, h=40)
    for n, (name, due) in enumerate((("1.4", "2026-12-01"), ("2.0", "2027-03-15"))):
        p.add("h2", f"Milestone {name}", x=40, y=120 + 80 * n, w=400, h=30)
        p.add("li", f"Due: {due}", x=40, y=155 + 80 * n, w=400, h=20)
    assert record_field_answer("What is the due date of milestone 2.0?", p.build()) is None
