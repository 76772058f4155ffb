"""Regressions found by the MiniWoB++ benchmark: references are not typed literally, and 'login' names a
button rather than the username field."""

from __future__ import annotations

import pytest

from agent.planning.offline import parse_goal
from agent.planning.offline.grammar import parse_goal as grammar_parse


@pytest.mark.parametrize(
    "goal",
    [
        "type that into the textbox",
        "Enter the value of Last name into the text field",
        "Type the text below into the field",
        "enter it",
    ],
)
def test_references_are_not_understood_rather_than_typed_literally(goal):
    parsed = parse_goal(goal)
    assert not parsed.intents and parsed.unknown


def test_quoted_text_is_still_typed_literally():
    parsed = grammar_parse('type "it" into the search box')
    assert parsed.intents[0].text == "it"


def test_login_is_not_a_synonym_of_username():
    from agent.planning.offline.text import similarity, synonym_weight

    assert synonym_weight("login", "username") == 0
    assert synonym_weight("login", "signin") > 0
    assert similarity("login", "Username") < similarity("login", "Log in")


def _el(id_, role, name, bbox, interactive=True):
    return {
        "id": id_,
        "tag": "a" if role == "link" else "li",
        "role": role,
        "name": name,
        "text": name,
        "bbox": bbox,
        "interactive": interactive,
        "in_viewport": True,
        "zone": "main",
        "frame": "",
    }


def test_wrapper_and_inner_control_are_one_target_and_the_control_is_clicked():
    from agent.planning.offline.matching import choose, rank

    wrapper = _el(1, "tab", "Tab #2", [10, 10, 100, 30])
    inner = _el(2, "link", "Tab #2", [15, 15, 60, 20])
    pick = choose(rank([wrapper, inner], "Tab #2"), "Tab #2")
    assert pick.status == "ok" and pick.element["id"] == 2


def test_exact_case_breaks_a_tie():
    from agent.planning.offline.matching import choose, rank

    lower = _el(1, "link", "eget", [10, 10, 40, 20])
    upper = _el(2, "link", "Eget", [10, 100, 40, 20])
    pick = choose(rank([lower, upper], "Eget"), "Eget")
    assert pick.status == "ok" and pick.element["id"] == 2


def test_same_named_links_whose_addresses_nest_go_to_the_deepest_and_others_stay_ambiguous():
    """A section heading 'Orders' (/admin/orders/) above its listing 'Orders' (/admin/orders/order/): the
    listing. Two 'Orders' links to unrelated places are still a question to ask, not a guess."""
    from agent.planning.offline.matching import choose, rank

    section = {**_el(1, "link", "Orders", [10, 10, 60, 20]), "attrs": {"href": "/admin/orders/"}}
    listing = {**_el(2, "link", "Orders", [10, 60, 60, 20]), "attrs": {"href": "/admin/orders/order/"}}
    pick = choose(rank([section, listing], "Orders"), "Orders")
    assert pick.status == "ok" and pick.element["id"] == 2
    elsewhere = {**_el(3, "link", "Orders", [10, 110, 60, 20]), "attrs": {"href": "/shop/orders/"}}
    assert choose(rank([section, elsewhere], "Orders"), "Orders").status == "ambiguous"


def test_several_fields_at_once_are_one_typing_per_field_or_not_understood():
    parsed = parse_goal('Enter the password "yA" into both text fields and press submit.')
    assert [i.step() for i in parsed.intents] == ['Type "yA" into "next empty field"'] * 2 + [
        'Click "submit"'
    ]
    assert parse_goal('Enter "yA" into all text fields and press submit.').unknown
