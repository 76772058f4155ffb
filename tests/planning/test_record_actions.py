"""Record goals in the wordings people use: credentials that are no user name ('library card 20417 and PIN
4321', 'As jo with password ...'), a body given without quotes, a value before its field ('with high
priority'), and acting on one item of a list by its own control ('renew my loan of X'), on the right row only,
proven only by what appeared on the page after it."""

from __future__ import annotations

import pytest

from agent.planning.offline.grammar import parse_goal
from agent.planning.offline.intents import Submit, TypeText
from agent.planning.offline.records.addresses import numbered_address
from agent.planning.offline.records.fills import plan_fills
from agent.planning.offline.records.forms import like_last_item
from agent.planning.offline.records.goal import read_record_goal
from agent.planning.offline.records.progress import placed_values
from agent.planning.offline.records.proof import read_change
from agent.planning.offline.records.row_actions import (
    action_shown,
    own_details,
    own_list_link,
    row_anchor,
    row_control,
)
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
        ("Log in to the patient portal (Patient ID P-20577, PIN 4420)", [("patient id", "P-20577"), ("pin", "4420")]),
        ("log in to the admin area as alice with password s3cret", [("username", "alice"), ("password", "s3cret")]),
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


@pytest.mark.parametrize(
    ("current", "line", "added"),
    [
        ("Things to do:\n- Set up laptop\n- Book a 1:1\n", "Order a badge", "- Order a badge"),
        ("1. Pull\n2. Build", "Deploy", "3. Deploy"),
        ("Call after 5pm.", "Ask for Dana", "Ask for Dana"),
        ("- a", "* already an item", "* already an item"),
    ],
)
def test_a_line_added_to_a_list_becomes_its_next_item(current, line, added):
    assert like_last_item(current, line) == added


def test_a_new_records_own_page_with_an_edit_form_is_no_preview():
    """After 'Create issue' the tracker shows '#25 Printer jams' with a form to edit it right there: the record
    was made; its own form holding the title is not a save that did not land."""
    goal = read_record_goal("file a new issue titled 'Printer jams' with high priority")
    p = Page("http://t.test/issues/25", "#25 - Tracker")
    p.add("h1", "#25 Printer jams", y=40)
    p.add("th", "Priority", role="columnheader", y=80)
    p.add("td", "high", y=110)
    title = p.add("input", "", name="Title", y=200, input_type="text")
    title["value"] = "Printer jams"
    p.add("button", "Save changes", y=240)
    assert read_change(goal, p.build()).proven
    p.elements[0]["text"] = p.elements[0]["name"] = "Preview: Printer jams"
    assert read_change(goal, p.build()).problem == "preview"


def test_a_listed_item_is_proven_by_its_words_not_its_mark():
    step = 'Append "- Order a badge" to "Content"'
    assert placed_values([{"step": 3, "plan_step": step, "status": "success"}]) == ("Order a badge",)


def test_a_records_address_is_not_read_from_dates_or_page_numbers():
    """Rows '#1 | <title> | 2025-05-02' and pager links '2', '3' (?page=2): record 14 lives at /issues/14, never
    on page 14 of the listing. A date is no record number, and a pager's numbers count pages."""
    p = Page("http://t.test/issues", "Issues")
    for n in range(1, 4):
        y = 100 + 30 * n
        p.add("td", f"#{n}", x=50, y=y, w=40, h=26)
        p.link(f"Title number {n}", f"http://t.test/issues/{n}", x=100, y=y, w=300, h=26)
        p.add("td", f"2025-05-0{n}", x=420, y=y, w=100, h=26)
    p.link("2", "http://t.test/issues?status=open&page=2", x=100, y=300, w=10, h=20)
    p.link("3", "http://t.test/issues?status=open&page=3", x=120, y=300, w=10, h=20)
    assert numbered_address("14", p.build()) == "http://t.test/issues/14"


def test_a_date_range_goes_into_the_forms_first_and_last_day():
    goal = read_record_goal(
        "submit an annual leave request from 14 July 2025 to 18 July 2025 with the reason 'Family trip'"
    )
    assert goal.span == ("14 July 2025", "18 July 2025") and ("reason", "Family trip") in goal.settings
    p = Page("http://hr.test/leave/new", "Request leave")
    last = p.add("input", "", name="Last day", input_type="date", y=100)
    first = p.add("input", "", name="First day", input_type="date", y=140)
    p.add("textarea", "", name="Reason", y=180)
    p.add("button", "Submit request", y=240)
    fills, missing = plan_fills(goal, p.build())
    days = {f.element["id"]: f.value for f in fills if f.value in goal.span}
    assert days == {first["id"]: "14 July 2025", last["id"]: "18 July 2025"} and not missing


@pytest.mark.parametrize(
    ("goal", "steps"),
    [
        ("Register Sam Ortega (sam@example.org) for 2 places at the Garden Work Day",
         ['Click the "Garden Work Day" link', 'Type "Sam Ortega" into "name"', 'Type "sam@example.org" into "email"',
          'Type "2" into "places"', "Submit the form"]),
        ("Book 3 tickets for the Jazz Night for Ann Lee with email ann@x.io",
         ['Click the "Jazz Night" link', 'Type "Ann Lee" into "name"', 'Type "ann@x.io" into "email"',
          'Type "3" into "tickets"', "Submit the form"]),
        ("Use the contact form to tell the organisers I left a blue umbrella at Quiz Night. My name is Alex Byrne, "
         "email alex@example.net; pick the lost property subject.",
         ['Click the "contact" link', 'Type "I left a blue umbrella at Quiz Night" into "message"',
          'Type "Alex Byrne" into "name"', 'Type "alex@example.net" into "email"',
          'Select "lost property" from "subject"', "Submit the form"]),
    ],
)  # fmt: skip
def test_bookings_and_messages_give_every_value_and_send_last(goal, steps):
    """A booking for more than one place says so (booking one instead is a wrong booking), and a message is
    sent only after the values given in later sentences are in."""
    parsed = parse_goal(goal)
    assert [i.step() for i in parsed.intents] == steps and not parsed.unknown


def test_an_update_of_ones_own_details_needs_no_record_and_keeps_a_phone_number_whole():
    goal = read_record_goal("Log in as jo@x.org / pass1 and update my mobile number to 07700 900123")
    assert goal.settings == (("mobile number", "07700 900123"),) and own_details(goal)
    p = Page("http://d.test/", "Home")
    p.link("Appointments", "http://d.test/appointments", y=40)
    p.link("My details", "http://d.test/profile", y=40, x=300)
    assert own_list_link(goal, p.build(), set(), details=True)["name"] == "My details"
    assert not own_details(read_record_goal("change the status of ticket 7 to closed"))


def _issue_page(assignee: str) -> Page:
    p = Page("http://t.test/issues/14", "#14 - Tracker")
    p.add("h1", "#14 Search suggestions load slowly", y=40)
    p.add("th", "Assignee", role="rowheader", x=100, y=100, w=120)
    p.add("td", assignee, x=240, y=100, w=200)
    p.add("h3", "Recently updated", x=900, y=100, zone="aside")
    p.add("li", "#21 Audit log missing IP addresses normal · Priya Raman", x=900, y=130, zone="aside")
    return p


def test_a_setting_is_proven_by_the_records_own_field_not_by_a_side_list():
    goal = read_record_goal("Log in as dana / hunter2 and assign issue #14 to Priya Raman.")
    assert not read_change(goal, _issue_page("Unassigned").build()).proven
    reading = read_change(goal, _issue_page("Priya Raman").build())
    assert reading.proven and "Assignee: Priya Raman" in reading.seen[0]
