"""Reading a page the way its author laid it out, for wordings a new user types: a possessive ("Northside's opening
hours"), 'when' answered by a time under a day's term inside a named section, a section that ends where the footer
begins, and a search results listing whose summary is a lead to follow, never the answer."""

from __future__ import annotations

from agent.planning.offline import answer_question
from agent.planning.offline.navigator import next_move
from agent.planning.offline.questions import analyze
from agent.planning.verify.answers import not_an_answer
from agent.planning.verify.parts import answer_part
from tests.planning.pages import Page


def branches() -> Page:
    p = Page("https://town.test/libraries", "Libraries", height=1400)
    p.add("h1", "Libraries", y=60)
    p.add("h2", "Central Library", y=200)
    p.text("High Street. Open every day 9am-8pm.")
    p.add("h2", "Northside Library", y=320)
    p.text("Fern Road. Open Tuesday to Saturday 10am-5pm.")
    p.add("p", "© 2026 Town Council · Page last updated 3 February 2026", y=900, zone="footer")
    return p


def recycling() -> Page:
    p = Page("https://town.test/waste", "Waste", height=1400)
    p.add("h1", "Waste and recycling", y=60)
    p.add("h2", "Recycling centre", y=200)
    p.text("Millbrook Recycling Centre, Quarry Lane.")
    for n, (day, hours) in enumerate(
        (("Monday to Friday", "8am to 6pm"), ("Saturday", "9am to 4pm"), ("Sunday", "Closed"))
    ):
        p.add("dt", day, y=260 + 60 * n, role="term")
        p.text(hours)
    return p


def test_a_possessive_asks_for_the_attribute_of_its_owner():
    query = analyze("What are Northside Library's opening hours?")
    assert (query.kind, query.attr, query.entity) == ("attribute", "opening hours", "Northside Library")
    found = answer_question("What are Northside Library's opening hours?", branches().build())
    assert (
        found.found and found.text == "Fern Road. Open Tuesday to Saturday 10am-5pm."
    )  # not the footer after it
    assert found.section == "Northside Library"


def test_when_is_answered_by_the_time_under_the_day_the_question_names():
    found = answer_question("When does the recycling centre close on Saturdays?", recycling().build())
    assert found.found and found.text == "9am to 4pm"
    found = answer_question("When is the recycling centre open on Sundays?", recycling().build())
    assert found.found and found.text == "Closed"


def test_an_answer_to_when_names_a_time_day_or_date():
    part = answer_part("When does the recycling centre close on Saturdays?")
    assert "no time, day or date" in not_an_answer(part, "Millbrook Recycling Centre, Quarry Lane.")
    for answer in ("9am to 4pm", "Closed", "the first Tuesday of each month", "In 1998"):
        assert not_an_answer(part, answer) == ""


def test_the_subject_a_block_must_name_has_no_filler_words():
    assert answer_part("What's the late fee at the Central Library?")["subject"] == [
        "late",
        "fee",
        "central",
        "library",
    ]
    part = answer_part("When was the news about the swimming pool reopening published?")
    assert part["subject"] == ["news", "swimming", "pool", "reopening"]


def results() -> Page:
    p = Page("https://town.test/search?q=noise+complaints", "Search results", height=1200)
    for n, name in enumerate(("Home", "Services", "Contact us")):
        p.link(name, f"https://town.test/{name.split()[0].lower()}", x=100 + 120 * n, y=20, zone="nav")
    p.add("h1", "Search results", y=100)
    p.link("Waste and recycling", "https://town.test/waste", y=200)
    p.text("Collection days and the recycling centre")
    p.link("Contact us", "https://town.test/contact", y=300)
    p.text("Phone numbers including noise complaints")
    return p


def test_a_results_summary_leads_to_the_page_that_answers():
    history = [
        {
            "action": "search",
            "args": {"query": "noise complaints"},
            "status": "success",
            "url": "https://town.test/search?q=noise+complaints",
            "step": 1,
        }
    ]
    query = analyze("What number do I call to complain about noise?")
    move = next_move(query, results().build(), history)
    assert move is not None and move.step == "Navigate to https://town.test/contact"


def contacts() -> Page:
    p = Page("https://town.test/contact", "Contact us", height=900)
    p.add("h1", "Contact us", y=60)
    for n, (term, value) in enumerate(
        (("General enquiries", "0300 555 0100"), ("Noise complaints", "0300 555 0177"))
    ):
        p.add("dt", term, y=200 + 60 * n, role="term")
        p.add("dd", value, y=230 + 60 * n, role="definition")
    return p


def test_which_number_to_call_asks_for_a_phone_number():
    query = analyze("What number do I call to complain about noise?")
    assert (query.kind, query.value_type) == ("attribute", "phone")
    found = answer_question("What number do I call to complain about noise?", contacts().build())
    assert found.found and found.text == "0300 555 0177"


def product_home() -> Page:
    p = Page("https://app.test/", "Invoices for small teams", height=900)
    for n, name in enumerate(("Pricing", "Docs", "Changelog", "About")):
        p.link(name, f"https://app.test/{name.lower()}", x=100 + 120 * n, y=20, zone="nav")
    p.add("h1", "Send invoices in a minute", y=100)
    p.text("The app turns time sheets into invoices and chases late payers for you.")
    return p


def test_a_question_with_no_link_naming_it_goes_to_the_sites_section_for_it():
    for question, section in (
        ("How much does the Team plan cost?", "pricing"),
        ("Who is the CTO?", "about"),
        ("When was version 4.1 released?", "changelog"),
        ("What is the API rate limit?", "docs"),
    ):
        move = next_move(analyze(question), product_home().build(), [])
        assert move is not None and move.step == f"Navigate to https://app.test/{section}", (question, move)


def test_an_answer_to_who_names_someone():
    part = answer_part("Who is the CTO of Tallyho?")
    assert "names no one" in not_an_answer(
        part, "Tallyho turns time sheets into invoices and chases late payers"
    )
    for answer in ("Tom Okafor", "bob", "The CTO is Tom Okafor."):
        assert not_an_answer(part, answer) == ""


def test_an_amount_of_money_is_no_answer_to_how_many():
    part = answer_part("how many days until the fjord rain jacket is delivered")
    for price in ("129.00", "$129.00", "€ 12,50"):
        assert "amount of money" in not_an_answer(part, price)
    assert not_an_answer(part, "3") == "" and not_an_answer(part, "3 to 5 working days") == ""


def test_an_answer_to_how_long_gives_a_length_or_time():
    part = answer_part("How long does delivery take for the Fjord rain jacket?")
    blurb = "A fully taped shell for wet hill days. Delivery times for this jacket are shown at checkout."
    assert "no length or time" in not_an_answer(part, blurb)
    for answer in ("3 to 5 working days", "two weeks", "overnight", "a day or two"):
        assert not_an_answer(part, answer) == ""
