"""Account details said as labelled values log in, each value into the field its words name; a clause that says
more than the account (a request, a person's details) is not read as a log-in."""

from __future__ import annotations

import pytest

from agent.planning.offline.account_rules import is_login_clause
from agent.planning.offline.credentials import account_details
from agent.planning.offline.grammar import parse_goal
from agent.planning.offline.records.goal import read_record_goal
from tests.planning import pages
from tests.planning.test_plan import plan


@pytest.mark.parametrize(
    ("clause", "expected"),
    [
        ("card no. 2207 1936 54, pin 7730", (("card no.", "2207 1936 54"), ("pin", "7730"))),
        (
            "My library card is 2207193654 and my PIN is 7730",
            (("library card", "2207193654"), ("pin", "7730")),
        ),
        (
            "The account number is 40917362 and the postcode is AS2 7JD",
            (("account number", "40917362"), ("postcode", "AS2 7JD")),
        ),
        (
            "Council tax account 40917362, postcode AS2 7JD",
            (("council tax account", "40917362"), ("postcode", "AS2 7JD")),
        ),
        (
            "I'm a Larchfield patient, number LF-20834, DOB 12 May 1988",
            (("patient number", "LF-20834"), ("date of birth", "12 May 1988")),
        ),
        (
            "Log in to the Harbour Dental patient portal for me (patient number HD-118, date of birth 12/05/1988)",
            (("patient number", "HD-118"), ("date of birth", "12/05/1988")),
        ),
        ("Login jo@example.com / Marmalade22", (("email", "jo@example.com"), ("password", "Marmalade22"))),
        (
            "greyfriars account jo@example.com, pw Marmalade22",
            (("email", "jo@example.com"), ("password", "Marmalade22")),
        ),
    ],
)
def test_labelled_account_details_are_read_field_by_field(clause, expected):
    assert account_details(clause) == expected
    assert is_login_clause(clause)


@pytest.mark.parametrize(
    "clause",
    [
        "renew my loan, card 2207, pin 7730",  # a request beside the account
        "He's Tomasz Brennan, date of birth 22/07/1984, licence number BRENN807224TA9XY",  # a person's details
        "my order number is 1234 and my surname is Reid",  # an order looked up, no account
        "the total is 40 and the postcode is AS2 7JD",
        "Name Dev Mistry, and I want email updates at dev@example.com",
    ],
)
def test_a_clause_that_says_more_than_the_account_is_no_log_in(clause):
    assert account_details(clause) is None


def test_the_log_in_goes_before_the_question_and_each_value_into_its_field():
    parsed = parse_goal(
        "Can you look at my council tax account and tell me how much my January 2027 payment will be? "
        "The account number is 40917362 and the postcode is AS2 7JD."
    )
    assert parsed.understood
    steps = [i.step() for i in parsed.intents]
    assert steps[:3] == [
        'Type "40917362" into "account number"',
        'Type "AS2 7JD" into "postcode"',
        "Submit the login form",
    ]
    assert steps[3].startswith("Answer:") and "January 2027 payment" in steps[3]


def test_a_card_number_is_not_the_record_renewed():
    record = read_record_goal(
        "can you renew Bread Baking for Beginners on my westmere library account? card no. 2207 1936 54, pin 7730"
    )
    assert record is not None
    assert (record.op, record.about, record.number) == ("act", "Bread Baking for Beginners", "")


def _login_form() -> pages.Observation:
    p = pages.Page("https://council.test/account/login", "Sign in")
    p.add("input", name="Council tax account number", x=100, y=200)
    p.add("input", name="Postcode", x=100, y=260)
    p.add("button", "Sign in", x=100, y=320, w=100)
    return p.build()


def test_a_postcode_log_in_opens_the_log_in_page_first_then_types_each_value():
    goal = "Council tax account 40917362, postcode AS2 7JD. What is my balance?"
    home = pages.Page("https://council.test/", "Council")
    home.link("Sign in", "https://council.test/account/login", x=1100, y=20, w=60, zone="header")
    home.add("h1", "Welcome", y=80, interactive=False)
    first = plan(goal, home.build())
    assert first["proposed_actions"] == ['Click the "log in" link']
    tried = [{"plan_step": first["proposed_actions"][0], "action": "click", "status": "success"}]
    on_form = plan(goal, _login_form(), history=tried)
    assert on_form["proposed_actions"][:3] == [
        'Type "40917362" into "council tax account"',
        'Type "AS2 7JD" into "postcode"',
        "Submit the login form",
    ]
