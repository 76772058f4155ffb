"""Reading record goals loosely: one test per wording family (operation verbs, titles, texts, settings, the record
described, an explicit search), and goals that are not record operations stay with the grammar."""

from __future__ import annotations

import pytest

from agent.planning.offline import parse_goal
from agent.planning.offline.records.goal import read_record_goal
from agent.planning.offline.records.which import record_goal_of


def test_titled_with_field_value():
    goal = read_record_goal('File a new defect titled "Crash on save" with priority critical')
    assert (goal.op, goal.noun, goal.title, goal.settings) == (
        "create",
        "defect",
        "Crash on save",
        (("priority", "critical"),),
    )


@pytest.mark.parametrize("wording", ["called", "named", "titled", "entitled"])
def test_called_named_titled(wording):
    goal = read_record_goal(f'Create a wiki page {wording} TeamContacts that says "Ask Dana first."')
    assert (goal.op, goal.title, goal.text) == ("create", "TeamContacts", "Ask Dana first.")


@pytest.mark.parametrize(
    "wording",
    ['Add a comment to the ticket about the login timeout saying "Seen again"',
     'Comment on the ticket about the login timeout: "Seen again"',
     'Reply to the ticket about the login timeout with the text "Seen again"'],
)  # fmt: skip
def test_comment_wordings(wording):
    goal = read_record_goal(wording)
    assert (goal.op, goal.about, goal.text) == ("comment", "the login timeout", "Seen again")


def test_record_described_in_a_sentence_before_the_command():
    goal = read_record_goal(
        "The bug where sync stalls after wake from sleep is worse than we thought. Raise its priority to critical."
    )
    assert (goal.op, goal.about, goal.settings) == (
        "update",
        "sync stalls after wake from sleep",
        (("priority", "critical"),),
    )


@pytest.mark.parametrize(
    ("wording", "op", "number", "settings", "loose"),
    [
        ("Close ticket #16 as wontfix", "close", "16", (), ("wontfix",)),
        ("Reopen ticket #12", "reopen", "12", (), ()),
        ("Set the component of #15 to accounts", "update", "15", (("component", "accounts"),), ()),
        ("Change the status of ticket 7 to closed", "update", "7", (("status", "closed"),), ()),
    ],
)
def test_numbers_and_to_as_values(wording, op, number, settings, loose):
    goal = read_record_goal(wording)
    assert (goal.op, goal.number, goal.settings, goal.loose) == (op, number, settings, loose)


def test_assign_to_a_person():
    goal = read_record_goal("Assign the ticket about Markdown tables to carol")
    assert (goal.op, goal.about, goal.settings) == ("update", "Markdown tables", (("assigned to", "carol"),))


def test_append_a_line_keeps_the_quoted_text_whole():
    goal = read_record_goal(
        'Add a last step to the release checklist in the wiki: "Announce it on the forum."'
    )
    assert (goal.op, goal.about, goal.text) == ("append", "release checklist", "Announce it on the forum.")


def test_use_the_search_types_the_quoted_words_not_the_command():
    parsed = parse_goal('Use the search to look for "wake from sleep" and open the ticket it finds')
    goal = record_goal_of(parsed)
    assert (goal.op, goal.search, goal.first_found) == ("open", "wake from sleep", True)


def test_take_me_to_a_described_record():
    goal = record_goal_of(parse_goal("Take me to the ticket about reminder notifications arriving twice"))
    assert (goal.op, goal.about) == ("open", "reminder notifications arriving twice")


def test_login_first_then_the_record_operation():
    parsed = parse_goal('Log in as carol with password pw-1, then create a ticket titled "Stale count"')
    goal = record_goal_of(parsed)
    assert (goal.op, goal.title) == ("create", "Stale count")
    assert any("password" in i.step().lower() for i in parsed.intents)


@pytest.mark.parametrize(
    "goal",
    ["Add the blue widget to the cart", "Go to the cart", "Open the settings", "Search for red shoes",
     'Type "alice" into "Username"', "What is the price of the blue widget?", "Click Submit"],
)  # fmt: skip
def test_plain_commands_stay_with_the_grammar(goal):
    assert record_goal_of(parse_goal(goal)) is None


def test_add_a_value_to_a_described_record_is_a_change_not_a_new_record():
    goal = read_record_goal("Add the keyword regression to the ticket about battery drain")
    assert (goal.op, goal.about, goal.settings, goal.adds) == (
        "update",
        "battery drain",
        (("keyword", "regression"),),
        True,
    )


def test_create_without_any_value_is_left_to_the_grammar():
    assert read_record_goal("log in and create a page") is None
