"""Record goals in the wordings people use: credentials that are no user name ('library card 20417 and PIN
4321', 'As jo with password ...'), a body given without quotes, a value before its field ('with high
priority'), and acting on one item of a list by its own control ('renew my loan of X'), on the right row only,
proven only by what appeared on the page after it."""

from __future__ import annotations

import pytest

from agent.planning.offline.grammar import parse_goal
from agent.planning.offline.intents import Submit, TypeText
from agent.planning.offline.records.goal import read_record_goal
from agent.planning.offline.records.row_actions import action_shown, row_anchor, row_control
from tests.planning.pages import Page


def typed(goal: str) -> list[tuple[str, str]]:
    parsed = parse_goal(goal)
    assert any(isinstance(i, Submit) and i.purpose == "login" for i in parsed.intents), parsed
    return [(i.field, i.text) for i in parsed.intents if isinstance(i, TypeText)]


@pytest.mark.parametrize(
    ("goal", "fields"),
    [
        ("Sign in with library card 20417 and PIN 4321", [("library card", "20417"), ("pin", "4321")]),
        ("Log in with card number 20417 and PIN 4321", [("card number", "20417"), ("pin", "4321")]),
        ("Log in with member ID M-5521 and password p4ss", [("member id", "M-5521"), ("password", "p4ss")]),
        ("As mkovacs with password fjord-lamp, open the leave page", [("username", "mkovacs"), ("password", "fjord-lamp")]),
        ("Log in as omar (password tulip88)", [("username", "omar"), ("password", "tulip88")]),
    ],
)  # fmt: skip
def test_credentials_are_read_whatever_the_site_calls_the_account(goal, fields):
    assert typed(goal) == fields


def test_words_a_login_clause_cannot_read_are_never_dropped():
    """'... and renew my loan of X' used to vanish into the login's leftovers: the goal then ended at the
    login, as if nothing else was asked."""
    parsed = parse_goal(
        "Sign in with library card 20417 and PIN 4321 and renew my loan of Gardens of the Mind"
    )
    assert parsed.unknown == ("renew my loan of Gardens of the Mind",)


@pytest.mark.parametrize(
    ("goal", "expected"),
    [
        ("Log in as lee with password maple77 and create a new page called 'Parking Rules' that says: Visitors "
         "park in bay C.", {"op": "create", "title": "Parking Rules", "text": "Visitors park in bay C"}),
        ("file a new issue titled 'Printer jams' with high priority",
         {"op": "create", "title": "Printer jams", "settings": (("priority", "high"),)}),
        ("Log in as dana / hunter2 and assign issue #14 to Priya Raman.",
         {"op": "update", "number": "14", "settings": (("assigned to", "Priya Raman"),)}),
        ("Log in as lee (password maple77) and add 'Order a badge' to the Onboarding Checklist page, keeping the "
         "existing items.", {"op": "append", "text": "Order a badge", "about": "Onboarding Checklist"}),
        ("Log in with card number 20417 and PIN 4321, then cancel my hold on Winter Orchard.",
         {"op": "cancel", "verb": "cancel", "about": "Winter Orchard", "number": ""}),
        ("renew my loan of Gardens of the Mind", {"op": "act", "verb": "renew", "about": "Gardens of the Mind",
                                                  "noun": "loan"}),
        ("withdraw my pending unpaid leave request", {"op": "act", "verb": "withdraw",
                                                      "about": "pending unpaid leave request"}),
    ],
)  # fmt: skip
def test_record_goals_in_everyday_wordings(goal, expected):
    record = read_record_goal(goal)
    assert record is not None
    assert {k: getattr(record, k) for k in expected} == expected


def _loans(flash: str = "") -> Page:
    """An account page: a loans table with a Renew button per row, a sidebar at the same height, holds as a
    list whose items each hold their own 'Cancel hold' button."""
    p = Page("http://lib.test/account", "My account")
    p.add("h2", "My account", y=60)
    if flash:
        p.add("div", flash, y=90, w=600)
    for n, (title, due) in enumerate(
        (("Gardens of the Mind", "2025-06-03"), ("Kitchen Chemistry", "2025-06-10"))
    ):
        y = 150 + 30 * n
        p.link(title, f"/book/{n}", x=100, y=y, w=180, block=f"#r{n}")
        p.add("td", due, x=300, y=y, w=120, block=f"#r{n}")
        p.add("button", "Renew", x=450, y=y + 3, w=60, h=22, block=f"#r{n}")
    p.link("Salt: A World History", "/book/9", x=900, y=150, w=180, block="#side")
    for n, title in enumerate(("Winter Orchard", "The Salt Road")):
        y = 260 + 40 * n
        p.add("li", f"{title} - placed 2025-05-1{n}, position 2 Cancel hold", x=100, y=y, w=500, h=36,
              block=f"#h{n}", line=False)  # fmt: skip
        p.link(title, f"/book/h{n}", x=100, y=y + 5, w=150, block=f"#h{n}")
        p.add("button", "Cancel hold", x=420, y=y + 5, w=100, h=24, block=f"#h{n}")
    return p


def test_the_control_on_the_items_own_row_is_the_one_used():
    observation = _loans().build()
    renew = row_control(read_record_goal("renew my loan of Gardens of the Mind"), observation, set())
    assert renew is not None and renew["bbox"][1] == 153  # its own row, not Kitchen Chemistry's
    hold = read_record_goal("cancel my hold on The Salt Road")
    control = row_control(hold, observation, set())
    assert control is not None and control["bbox"][1] == 305
    # the step names the row by a text only it has, never by the list item that holds every row's words
    assert row_anchor(hold, control, observation) == "The Salt Road"
    assert row_control(read_record_goal("renew my loan of Deep Water Atlas"), observation, set()) is None


def test_two_rows_that_name_the_item_as_well_are_no_guess():
    p = Page("http://hr.test/leave", "My leave")
    for n, (kind, status) in enumerate((("Unpaid leave", "Pending"), ("Unpaid leave", "Pending"))):
        y = 100 + 30 * n
        p.add("td", kind, x=100, y=y, block=f"#r{n}")
        p.add("td", status, x=300, y=y, block=f"#r{n}")
        p.add("button", "Withdraw", x=500, y=y, w=80, h=24, block=f"#r{n}")
    goal = read_record_goal("withdraw my pending unpaid leave request")
    assert row_control(goal, p.build(), set()) is None


def _clicked(appeared: list[str]) -> list[dict]:
    step = 'Click the "Renew" button near "Gardens of the Mind"'
    return [{"step": 4, "plan_step": step, "status": "success", "effect": {"appeared": appeared}}]


def test_done_only_when_new_words_on_the_page_say_so_of_this_item():
    goal = read_record_goal("renew my loan of Gardens of the Mind")
    flash = "Renewed Gardens of the Mind. New due date 2025-06-24."
    assert action_shown(goal, _loans(flash).build(), _clicked([flash])).startswith("Renewed Gardens")
    other = "Renewed Kitchen Chemistry. New due date 2025-06-30."
    assert action_shown(goal, _loans(other).build(), _clicked([other])) == ""  # another row was renewed
    assert (
        action_shown(goal, _loans(flash).build(), _clicked([])) == ""
    )  # said before the click: not its proof
    assert action_shown(goal, _loans(flash).build(), []) == ""  # never clicked
