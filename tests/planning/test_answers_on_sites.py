"""Questions as people ask them of a business's own site: "... at Lotus Garden" on Lotus Garden's site (its name
is said of every page, so no price on its home page answers "the minimum spend for delivery"), a price asked for
that a line without a price never answers, a row keyed by a short code said with its column ('Band D'), this
year's table rather than last year's, a condition after the question ("if I cancel with less than a day's
notice"), and "Is there X? If so, how much is it?"."""

from __future__ import annotations

from agent.planning.offline.grammar import parse_goal
from agent.planning.offline.intents import Ask
from agent.planning.offline.lookup import lookup_step
from agent.planning.offline.page import site_words, without_site_name
from agent.planning.offline.questions import analyze
from agent.planning.offline.reading import answer_question
from agent.planning.offline.tables import table_answer
from agent.planning.verify.parts import answer_part, without_site
from tests.planning.pages import Page

QUESTION = "how much is the minimum spend for delivery from Lotus Garden"


def _site(path: str, title: str) -> Page:
    p = Page(f"http://lotus.test{path}", f"{title} - Lotus Garden")
    p.link("Lotus Garden", "/", x=20, y=10, w=120, zone="header")
    p.link("Menu", "/menu", x=300, y=10, w=60, zone="nav")
    p.link("Opening hours & delivery", "/info", x=380, y=10, w=180, zone="nav")
    return p


def test_the_sites_own_name_is_read_from_its_link_home_and_title():
    observation = _site("/", "Home").build()
    assert site_words(observation) == {"lotus", "garden"}
    assert without_site_name("minimum spend for delivery from Lotus Garden", {"lotus", "garden"}) == (
        "minimum spend for delivery"
    )
    assert (
        without_site_name("opening hours of Jade Palace", {"lotus", "garden"})
        == "opening hours of Jade Palace"
    )


def test_the_site_naming_itself_does_not_make_every_page_the_answer():
    home = _site("/", "Home")
    home.add("h1", "Sawasdee ka!", y=80)
    home.add("div", "Tonight's special: crispy sea bass, £16.90", x=900, y=120, w=300)
    assert not answer_question(QUESTION, home.build()).found
    info = _site("/info", "Opening hours & delivery")
    info.add("h1", "Opening hours & delivery", y=80)
    info.add("td", "Minimum order for delivery", x=100, y=140, w=250)
    info.add("td", "£15.00", x=380, y=140, w=80)
    info.add("td", "Delivery charge", x=100, y=170, w=250)
    info.add("td", "£2.50", x=380, y=170, w=80)
    answer = answer_question(QUESTION, info.build())
    assert answer.found and answer.text == "£15.00"


def test_the_site_itself_asked_about_is_answered_on_its_pages():
    home = _site("/", "Home")
    home.add("h1", "Lotus Garden", y=80)
    home.text("Phone: 0113 496 0000")
    home.add("p", "Phone: 0113 496 0000", y=140)
    answer = answer_question("What is the phone number of Lotus Garden?", home.build())
    assert answer.found and "0113 496 0000" in answer.text


def test_a_price_asked_for_is_never_a_line_without_one():
    p = Page("http://council.test/", "Home - Harrowgate Council")
    p.add("h1", "Harrowgate Council", y=60)
    for n, line in enumerate(("Council tax bands and charges", "Report a problem", "Parking permits")):
        p.link(line, f"/p{n}", y=120 + 30 * n)
        p.text(line)
    answer = answer_question("What is the annual Band D council tax charge for 2026/27?", p.build())
    assert not answer.found


def _bands() -> Page:
    p = Page("http://council.test/council-tax", "Council tax")
    y = 100
    for title, heads, rows in (
        ("Charges for 2026/27", ("Band", "1991 value", "Annual charge 2026/27"),
         (("C", "£52,001 - £68,000", "£1,870.55"), ("D", "£68,001 - £88,000", "£2,104.37"))),
        ("Charges for 2025/26", ("Band", "Annual charge 2025/26"), (("C", "£1,781.48"), ("D", "£2,004.16"))),
    ):  # fmt: skip
        p.add("h2", title, y=y)
        y += 40
        for col, head in enumerate(heads):
            p.add("th", head, x=100 + 250 * col, y=y, w=240)
        for row in rows:
            y += 30
            for col, cell in enumerate(row):
                p.add("td", cell, x=100 + 250 * col, y=y, w=240)
        y += 60
    return p


def test_a_short_row_key_said_with_its_column_and_the_table_of_the_year_asked():
    observation = _bands().build()
    this_year = table_answer(
        analyze("What is the annual Band D council tax charge for 2026/27?"), observation
    )
    assert this_year is not None and this_year.text == "£2,104.37"
    last_year = table_answer(analyze("What was the Band D charge for 2025/26?"), observation)
    assert last_year is not None and last_year.text == "£2,004.16"


def test_a_condition_after_the_question_belongs_to_it():
    parsed = parse_goal(
        "If I cancel an appointment with less than a day's notice, what fee will they charge me?"
    )
    assert not parsed.unknown
    (ask,) = parsed.intents
    assert isinstance(ask, Ask) and ask.question.startswith("what fee will they charge me")
    assert "less than a day's notice" in ask.question
    query = analyze(ask.question)
    assert query.value_type == "money" and query.attr != "notice"  # a day's notice owns nothing


def test_if_so_goes_on_from_the_question_before():
    parsed = parse_goal("Is there a minimum spend for delivery from Lotus Garden? If so, how much is it?")
    assert parsed.intents == (Ask("how much is the minimum spend for delivery from Lotus Garden"),)
    assert not parse_goal("Is there parking? If so, where is it?").unknown


def _bins(results: bool = False) -> Page:
    p = Page("http://council.test/bins", "Bin collection days - Harrowgate Council")
    p.link("Harrowgate Council", "/", x=20, y=10, w=200, zone="header")
    p.add("input", "", name="Search this site", x=600, y=10)
    p.add("button", "Search", x=820, y=10, w=60)
    p.add("h1", "Bin collection days", y=80)
    p.add("input", "", name="Street name or postcode", y=140)
    p.add("button", "Find collection days", x=320, y=140, w=160)
    if results:
        for col, head in enumerate(("Street", "General waste", "Garden waste (brown bin)")):
            p.add("th", head, x=100 + 250 * col, y=200, w=240)
        for col, cell in enumerate(("Alder Crescent", "Tuesday", "Wednesday (fortnightly)")):
            p.add("td", cell, x=100 + 250 * col, y=230, w=240)
    p.add("h2", "Garden waste subscription", y=300)
    p.add("p", "Garden waste collections are fortnightly from March to November.", y=330, w=600)
    p.text("Garden waste collections are fortnightly from March to November.")
    return p


def test_a_name_the_page_never_says_is_looked_up_with_its_own_form():
    question = "Which day is garden waste collected on Alder Crescent"
    page = _bins().build()
    assert not answer_question(question, page).found  # the prose says nothing of Alder Crescent
    assert (
        lookup_step(question, page, [])
        == 'Type "Alder Crescent" into "Street name or postcode" and press Enter'
    )
    done = [{"plan_step": lookup_step(question, page, []), "status": "success"}]
    assert lookup_step(question, page, done) is None  # once
    answer = answer_question(question, _bins(results=True).build())
    assert answer.found and answer.text == "Wednesday (fortnightly)"
    assert lookup_step("Which day is garden waste collected?", page, []) is None  # nothing to look up


def test_my_next_appointment_is_the_first_row_of_the_upcoming_table():
    p = Page("http://dental.test/account", "My appointments - Brightsmile")
    y = 60
    for title, rows in (
        ("Past appointments", (("Sat 21 Nov 2026", "16:15", "Crown preparation"),)),
        ("Upcoming appointments", (("Wed 2 Dec 2026", "14:40", "Crown fitting"), ("Fri 18 Dec 2026", "10:30", "Scale"))),
    ):  # fmt: skip
        p.add("h2", title, y=y)
        for col, head in enumerate(("Date", "Time", "Treatment")):
            p.add("th", head, x=100 + 200 * col, y=y + 40, w=190)
        for n, row in enumerate(rows):
            for col, cell in enumerate(row):
                p.add("td", cell, x=100 + 200 * col, y=y + 70 + 30 * n, w=190)
        y += 200
    observation = p.build()
    assert answer_question("what time is my next appointment", observation).text == "14:40"
    assert answer_question("When is my next appointment?", observation).text == "Wed 2 Dec 2026 14:40"


def test_the_judge_leaves_the_sites_own_name_to_its_main_content():
    part = answer_part("How long does Pulsegrid keep audit logs on the Business plan")
    subject, must, need = without_site(part, {"pulsegrid"})
    assert "pulsegrid" not in subject and must == ["business"] and need == 3
    assert without_site(part, {"acme"}) is None  # the question does not name this site


def test_a_discount_asked_for_is_a_share_not_a_price():
    """'How much of a discount ...' once took a monthly fee in the same table for the answer."""
    assert analyze("How much of a discount do members get on repairs?").value_type == "percent"
    assert analyze("How much does a repair cost?").value_type == "money"


def _table(p: Page, top: float, heads: tuple[str, ...], rows: list[tuple[str, ...]]) -> None:
    for n, head in enumerate(heads):
        p.add("th", head, x=100 + 160 * n, y=top, w=150, role="columnheader")
    for r, row in enumerate(rows):
        for n, cell in enumerate(row):
            p.add("td", cell, x=100 + 160 * n, y=top + 40 * (r + 1), w=150, role="cell")


def test_the_last_time_is_the_row_of_the_latest_date():
    """'What did Biscuit weigh the last time he was weighed?': the weight on the latest of the dates weighed."""
    p = Page("http://vet.test/client/pets/1", "Biscuit")
    p.add("h1", "Biscuit", y=60)
    _table(p, 200, ("Date weighed", "Weight"), [("3 Nov 2025", "17.9 kg"), ("8 Oct 2026", "18.4 kg"),
                                                 ("19 May 2026", "18.2 kg")])  # fmt: skip
    _table(p, 400, ("Date", "Vaccine"), [("8 Oct 2026", "Annual booster"), ("2 Oct 2025", "Annual booster")])
    answer = answer_question("What did Biscuit weigh the last time he was weighed?", p.build())
    assert (answer.found, answer.text) == (True, "18.4 kg")


def test_a_month_said_picks_the_one_row_in_it():
    p = Page("http://gh.test/my-stays", "My stays")
    _table(p, 200, ("Reference", "Room", "Arriving"), [("SG-70412", "Reed Cottage", "Fri 12 February 2027"),
                                                      ("SG-70931", "The Lookout", "Sat 2 October 2027")])  # fmt: skip
    answer = answer_question("find the booking reference for my October stay", p.build())
    assert (answer.found, answer.text) == (True, "SG-70931")


def test_the_sites_name_is_left_out_from_the_end_and_anchors_no_value():
    """'... for the Payroll Administrator job in Halifax on Riverline Jobs' was answered with the salary next to
    the site's own link home: another job's."""
    assert without_site_name(
        "Payroll Administrator job in Halifax on Riverline Jobs", {"riverline", "jobs"}
    ) == ("Payroll Administrator job in Halifax")
    p = Page("http://jobs.test/", "Jobs in West Yorkshire | Riverline Jobs")
    p.link("riverline jobs", "/", x=20, y=10, w=120)
    p.add("h3", "Customer Service Team Leader", y=60)
    p.add("p", "Full-time £30,500 a year", y=90)
    answer = answer_question(
        "What's the salary for the Payroll Administrator job in Halifax on Riverline Jobs?", p.build()
    )
    assert not answer.found


def test_a_side_block_never_answers_for_the_site_whose_name_was_left_out():
    """'How much does the Samphire room cost per night at Saltings Guest House?' on the home page: its aside's
    'from £128' speaks of the rooms in general; the room's own page answers."""
    p = Page("http://gh.test/", "Guest house on the coast – Saltings Guest House")
    p.link("Saltings Guest House · Wrenham-next-the-Sea", "/", x=20, y=10, w=300, zone="header")
    p.add("h1", "Welcome to Saltings", y=80)
    p.add("h3", "Our rooms", y=300, zone="aside")
    p.add("li", "Samphire – from £128", y=330, zone="aside")
    p.link("Samphire", "/rooms/samphire", y=330, zone="aside")
    answer = answer_question(
        "How much does the Samphire room cost per night at Saltings Guest House?", p.build()
    )
    assert not answer.found
    assert analyze("How much does the Samphire room cost per night at Saltings Guest House?").entity == (
        "Samphire room at Saltings Guest House"
    )


def test_a_header_row_is_no_answer():
    p = Page("http://air.test/manage/QK7R2M", "Booking QK7R2M")
    _table(p, 200, ("Passenger", "Seat"), [("Mr Euan Sinclair", "4C"), ("Mrs Morag Sinclair", "4D")])
    p.text("Passenger Seat")
    answer = answer_question("What seat is Morag in?", p.build())
    assert answer.text != "Passenger Seat"


def test_a_weight_said_as_one_word_is_named_by_a_page_that_spaces_it():
    assert {"20", "kg"} <= set(answer_part("How much is a 20kg hold bag if I add it online?")["subject"])


def test_a_number_asked_for_is_never_a_sentence_without_one():
    """'find my membership number' was answered with the Membership section's plan and next payment date."""
    from agent.planning.offline.reading import no_identifier
    from agent.planning.verify.answers import not_an_answer

    plan = "Adult monthly (peak) – £52.00 a month. Next payment 1 December 2026. View membership details"
    assert no_identifier("find my membership number", plan)
    assert not_an_answer(answer_part("find my membership number"), plan)
    assert not no_identifier("find my membership number", "Membership number RCC-58213")
    assert not no_identifier("What's its call number?", "FIC HAL")
    assert not no_identifier("What is the phone number of the library?", "Call us on 01632 960 431 any day")
