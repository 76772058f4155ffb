"""Lines that give several values apart: by label ('Portmore – Inchbeg: £2.80') or by class ('£14.00 adult')."""

from __future__ import annotations

from agent.planning.offline import answer_question
from agent.planning.offline.segments import class_mismatch, clause_of, labelled_segments, named_segment
from tests.planning.pages import Page

ROUTES = (
    "Portmore – Skerrow: £3.50 per dog each way. Portmore – Inchbeg: £2.80 per dog each way. "
    "Skerrow – Inchbeg: free. Assistance dogs always travel free."
)


def test_a_line_is_split_where_each_label_starts():
    labels = [label for label, _ in labelled_segments(ROUTES)]
    assert labels == ["Portmore – Skerrow", "Portmore – Inchbeg", "Skerrow – Inchbeg"]
    assert labelled_segments("Opening hours: 9am to 5pm")[0][0] == "Opening hours"
    assert labelled_segments("No label here. None at all.") == [("", "No label here. None at all.")]


def test_the_segment_is_the_one_whose_label_the_question_names_in_full():
    assert named_segment("a dog on the Portmore to Inchbeg ferry", ROUTES).startswith("Portmore – Inchbeg:")
    assert named_segment("a dog on the Skerrow ferry", ROUTES) is None  # two labels say Skerrow
    assert named_segment("a dog on the ferry", ROUTES) is None
    assert (
        named_segment("the opening hours", "Opening hours: 9am to 5pm") is None
    )  # one label: nothing to pick


def test_a_value_of_another_class_is_told_apart_by_its_own_clause():
    assert "adult" in class_mismatch(
        "the concession price", "Combined ticket: £14.00 adult. Buy here.", "£14.00"
    )
    assert class_mismatch("the concession price", "Adult £9.50, concession £7.75", "£7.75") == ""
    assert "adult" in class_mismatch("the concession price", "Adult £9.50, concession £7.75", "£9.50")
    assert class_mismatch("the price of a family ticket", "Tickets £9.50 each", "£9.50") == ""
    assert "single" in class_mismatch("the return fare", "£36.40 single", "£36.40")
    assert clause_of("Adult £9.50, concession £7.75", "£7.75") == "concession £7.75"


def test_the_planner_reads_the_value_of_the_label_asked_and_refuses_another_class():
    fares = Page("https://ferry.test/fares", "Fares")
    fares.add("h2", "Dogs", y=100)
    fares.add("dd", ROUTES, y=140, w=600)
    answer = answer_question(
        "How much does it cost to bring a dog on the Portmore to Inchbeg ferry?", fares.build()
    )
    assert answer.found and answer.text == "£2.80"
    listing = Page("https://museum.test/exhibitions", "Exhibitions")
    listing.add("h1", "Exhibitions", y=60)
    listing.add("p", "Combined ticket for Looms & Lives and Lost Looms: £14.00 adult.", y=140, w=600)
    answer = answer_question("What's the concession price for the Looms & Lives exhibition?", listing.build())
    assert not answer.found


def _memberships() -> Page:
    p = Page("https://museum.test/membership", "Membership")
    p.add("h1", "Become a member", y=60)
    p.add("h3", "Individual", y=120)
    p.add("p", "£38.00 a year or £3.40 a month", y=150)
    p.add("h3", "Family", y=220)
    p.add("p", "£64.50 a year or £5.75 a month", y=250)
    return p


def test_a_condition_after_the_thing_asked_picks_which_of_its_values():
    """'if we pay for the whole year' says which price of the family membership, not what is asked about."""
    page = _memberships().build()
    yearly = answer_question("How much is a family membership if we pay for the whole year in one go?", page)
    assert yearly.found and yearly.text == "£64.50"
    monthly = answer_question("How much is a family membership if we pay monthly?", page)
    assert monthly.found and monthly.text == "£5.75"
    weekly = answer_question("How much is a family membership if we pay weekly?", page)
    assert not weekly.found


def test_periods_are_read_however_a_price_says_them():
    assert class_mismatch("the annual price", "£64.50 a year or £5.75 a month", "£5.75")
    assert class_mismatch("the annual price", "£64.50 a year or £5.75 a month", "£64.50") == ""
    assert class_mismatch("the price per night", "£90 a night, £550 a week", "£550")


def test_a_value_is_told_by_the_class_word_nearest_it_in_a_run_of_text():
    run = "Tickets Adult £9.50 Concession (60+, students) £7.75"
    assert class_mismatch("the concession price", run, "£9.50")
    assert class_mismatch("the concession price", run, "£7.75") == ""
    assert class_mismatch("the concession price", "Concession £7.75, Adult £7", "£7")  # not inside £7.75


def test_a_condition_that_names_no_class_is_not_dropped():
    p = Page("https://farm.test/visit", "Visit")
    p.add("h1", "Visit us", y=60)
    p.add("p", "Entry fee: £10.00", y=120)
    p.add("p", "Dogs: £2.00 extra", y=150)
    answer = answer_question("How much is the entry fee if we bring a dog?", p.build())
    assert not answer.found or answer.text != "£10.00"


def test_a_label_with_a_value_of_its_own_never_takes_the_next_lines():
    p = Page("https://zoo.test/prices", "Prices")
    p.add("h1", "Prices", y=60)
    p.add("p", "Adult: free", y=120)
    p.add("p", "Child: £5.00", y=150)
    answer = answer_question("What is the adult price?", p.build())
    assert not answer.found or answer.text != "£5.00"


def test_who_a_class_is_for_stands_no_distance_from_its_value():
    from agent.planning.offline.segments import nearest_class

    item = "Concession (60+, students, disabled visitors and their carers) £7.75"
    assert nearest_class("the concession price", item, "£7.75")[0] == "concession"
