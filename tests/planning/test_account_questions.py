"""Questions about the user's own account, asked the way people ask them: logged in with a role's number
('Pupil number CW-4471, password ...', 'Patient no. BR-118204'), after a sentence that tells the situation, and
answered from the account's own pages with the value its label names ('Balance owing: £137.50', never the first
figure under a table's 'Balance' header nor 'Next rent due: £875.00')."""

from __future__ import annotations

from agent.planning.offline.grammar import parse_goal
from agent.planning.offline.intents import Ask, TypeText
from agent.planning.offline.navigator import next_move
from agent.planning.offline.questions import analyze
from agent.planning.offline.reading import answer_question
from agent.planning.offline.segments import row_class_mismatch
from agent.planning.offline.values import VALUE_RX, value_by_label_words
from agent.planning.verify.labels import unlabelled
from agent.planning.verify.parts import answer_part
from tests.planning.pages import Page


def _typed(goal: str) -> list[tuple[str, str]]:
    return [(i.text, i.field) for i in parse_goal(goal).intents if isinstance(i, TypeText)]


def test_a_roles_number_or_reference_is_the_account_it_logs_in_with():
    assert _typed("Pupil number CW-4471, password Roundabout5.") == [
        ("CW-4471", "pupil number"),
        ("Roundabout5", "password"),
    ]
    assert _typed("Patient no. BR-118204, password Spectacle-9")[0] == ("BR-118204", "patient no.")
    parsed = parse_goal(
        "Log into the Brindle & Rowe patient area (patient number BR-118204, password Spectacle-9) and tell me "
        "how much I've still got to pay on my new varifocals."
    )
    assert not parsed.unknown and ("BR-118204", "patient number") in [
        (i.text, i.field) for i in parsed.intents if isinstance(i, TypeText)
    ]
    booking = _typed("Booking ref HB-6120, surname Whitlow.")  # a booking's reference is no account
    assert booking == [("HB-6120", "booking reference"), ("Whitlow", "surname")]


def test_a_sentence_that_tells_the_situation_names_what_a_later_that_or_it_is():
    parsed = parse_goal(
        "My optician says I need daily lenses for astigmatism (toric ones). What would that cost me per month "
        "on the Brindle & Rowe contact lens plan?"
    )
    asks = [i.question for i in parsed.intents if isinstance(i, Ask)]
    assert not parsed.unknown and "daily lenses for astigmatism" in asks[0]
    parsed = parse_goal(
        "Kestrel Lettings emailed to say my rent account is behind. Please log in to the tenant portal (tenancy "
        "ref T-30817, password Swallowtail4) and tell me exactly how much I owe."
    )
    assert not parsed.unknown
    parsed = parse_goal(
        "My practical driving test is coming up and I need the test booking reference. Can you get it from my "
        "Clearway pupil account? Pupil number CW-4471, password Roundabout5."
    )
    asks = [i.question for i in parsed.intents if isinstance(i, Ask)]
    assert asks and "test booking reference" in asks[0]


def test_what_the_user_owes_is_their_balance_and_the_account_is_no_part_of_the_question():
    assert analyze("tell me exactly how much I owe").attr == "balance"
    owed = analyze("tell me how much I've still got to pay on my new varifocals")
    assert (owed.attr, owed.entity) == ("balance", "my new varifocals")
    assert (
        analyze("get the test booking reference from my Clearway pupil account").attr
        == "test booking reference"
    )


def _statement() -> Page:
    p = Page("http://lettings.test/portal/statement", "Rent statement - Kestrel Lettings")
    p.add("h1", "Rent statement", y=60)
    for row in (
        "Date Description Charged Paid Balance",
        "1 Jan 2027 Rent for January £875.00 £875.00",
        "6 Apr 2027 Bank transfer £737.50 £137.50",
    ):
        p.text(row)
    p.add("p", "Balance owing: £137.50. Please pay this as soon as possible.", y=300, w=600)
    p.add("p", "Next rent due: £875.00 on 1 May 2027.", y=330, w=600)
    return p


def test_the_amount_its_label_names_on_its_own_line_not_the_first_under_a_header():
    lines = [
        "Date Description Charged Paid Balance",
        "1 Jan 2027 Rent for January £875.00 £875.00",
        "Balance owing: £137.50.",
    ]
    assert value_by_label_words(lines, "balance", VALUE_RX["money"])[0] == "£137.50"
    found = answer_question("tell me exactly how much I owe", _statement().build())
    assert found.found and found.text == "£137.50"


def test_the_judge_wants_the_amount_named_for_what_was_asked():
    part = answer_part("tell me exactly how much I owe")
    assert unlabelled(part, {"text": "Next rent due: £875.00 on 1 May 2027."})
    assert not unlabelled(part, {"text": "Balance owing: £137.50."})
    priced = answer_part("how much is it")  # an amount asked for as a price needs no label of its own
    assert not unlabelled(priced, {"text": "£12.99"})


def test_a_rows_own_class_is_not_the_one_asked_for_when_the_column_says_the_other():
    question = "What would daily lenses for astigmatism (toric ones) cost me per month on the lens plan?"
    assert row_class_mismatch(question, "Monthly lenses for astigmatism (toric)", "Monthly plan")
    assert not row_class_mismatch(question, "Daily disposable for astigmatism (toric)", "Monthly plan")
    assert not row_class_mismatch("How much is an adult day ticket?", "Adult", "Day ticket")


def test_signed_in_to_ask_the_accounts_own_section_comes_before_the_sites_search():
    p = Page("http://lettings.test/portal", "Tenant portal - Kestrel Lettings")
    p.add("input", "", name="Search the site", input_type="search", role="searchbox", y=20, zone="header")
    p.link("Properties to rent", "http://lettings.test/properties", y=40, zone="nav")
    p.add("h1", "Hello Declan", y=80)
    p.link("Rent statement", "http://lettings.test/portal/statement", y=200)
    p.link("Repairs", "http://lettings.test/portal/repairs", y=230)
    history = [
        {"plan_step": "Submit the login form", "status": "success", "url": "http://lettings.test/login"}
    ]
    move = next_move(analyze("tell me exactly how much I owe"), p.build(), history)
    assert move is not None and move.step == "Navigate to http://lettings.test/portal/statement"
