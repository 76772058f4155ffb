"""The answer checks that need no browser: what a quoted line says (the page's own date, the items shown on one
page of many) and what a count may be checked against (the lists of the page, the controls it shows)."""

from __future__ import annotations

from agent.planning.verify import answer_part
from agent.planning.verify.answers import answer_evidence, count_check, misread, rival_key


def test_the_pages_own_date_does_not_answer_when_something_else_happens():
    sale = answer_part("When does the summer sale end?")
    assert "dates the page itself" in misread(sale, "2 June 2026", "Last updated 2 June 2026")
    assert misread(sale, "31 August", "The summer sale ends on 31 August") == ""
    asked = answer_part("When was the returns page last updated?")
    assert misread(asked, "2 June 2026", "Last updated 2 June 2026") == ""


def test_the_items_shown_on_one_page_are_not_how_many_there_are():
    reviews = answer_part("How many reviews does the Cobalt backpack have?")
    assert "counts the items shown" in misread(reviews, "3", "Showing 3 of 128 reviews")
    assert "counts the items shown" in misread(reviews, "1", "Showing 1-20 of 57 results")
    assert misread(reviews, "128", "Showing 3 of 128 reviews") == ""
    rating = answer_part("How many stars is the Cobalt backpack rated?")
    assert misread(rating, "4", "Rated 4 out of 5 stars") == ""


def test_a_count_must_fill_a_list_of_the_page():
    listed = answer_part("how many reviews are there?")
    reading = {"found": [], "lists": [2, 3]}
    assert count_check(listed, 3, reading, {}) == ""
    assert "neither said on the page" in count_check(listed, 7, reading, {})
    filtered = answer_part("How many products cost less than $20?")
    assert count_check(filtered, 2, {"found": [], "lists": [3, 10]}, {}) == ""
    assert count_check(filtered, 11, {"found": [], "lists": [3, 10]}, {}) != ""
    links = answer_part("how many links are on the page?")
    page = {
        "elements": [
            {"role": "link", "tag": "a", "zone": "main"},
            {"role": "link", "tag": "a", "zone": "nav"},
        ]
    }
    assert count_check(links, 1, None, page) == ""
    assert "shows 1" in count_check(links, 2, None, page)


def test_how_much_wants_an_amount():
    price = {**answer_part("what is the price of the Blue Widget?"), "id": "p1"}
    reading = {
        "status": 200,
        "found": [{"element": "p", "text": "The everyday widget", "ok": True, "block": "article"}],
    }
    page = {"url": "http://shop.test/widgets", "title": "Widgets"}
    found, why = answer_evidence(
        price, [price], "The everyday widget", page, {"The everyday widget": reading}, 1
    )
    assert found is None and "asks for an amount" in why
    free = {"status": 200, "found": [{"element": "p", "text": "Price: free", "ok": True, "block": "article"}]}
    found, _ = answer_evidence(price, [price], "free", page, {"free": free}, 1)
    assert found is not None


def test_a_value_said_of_another_day_month_or_year_is_no_answer():
    from agent.planning.verify.answers import qualifier_mismatch

    saturday = "What are the Saturday opening hours of Quayside Baths?"
    assert "wednesday" in qualifier_mismatch(saturday, "Wednesdays 17:00 Chess club Quayside")
    assert qualifier_mismatch(saturday, "Saturday 08:00 – 16:00") == ""
    assert qualifier_mismatch(saturday, "Mon–Sat 9:00 to 17:00") == ""  # a range names the days in it
    assert qualifier_mismatch(saturday, "Open daily 9:00 to 17:00") == ""
    assert qualifier_mismatch(saturday, "08:00 – 16:00") == ""  # names no day: not contradicted
    assert "2025" in qualifier_mismatch("How many swimmers came in 2024?", "In 2025 we welcomed 184,000")
    assert "march" in qualifier_mismatch("What was the rainfall in February?", "March: 41 mm")
    assert qualifier_mismatch("What may I bring to the pool?", "In March we open the lido") == ""


def test_a_time_or_an_amount_asked_for_needs_one_in_the_answer():
    from agent.planning.verify.answers import not_an_answer

    hours = answer_part("What are the Saturday opening hours of Quayside Baths?")
    assert "no time" in not_an_answer(hours, "Opening hours vary from pool to pool, so please check.")
    assert not_an_answer(hours, "08:00 – 16:00") == ""
    assert not_an_answer(hours, "Closed") == ""
    size = answer_part("What is the archive size limit?")
    assert "no figure" in not_an_answer(size, "Membership records are kept on our own servers.")
    # number words that are no amount ('never during one') do not pass for one
    assert "no figure" in not_an_answer(size, "Eviction runs after each build, never during one.")
    assert not_an_answer(size, "40 boxes") == ""
    assert not_an_answer(size, "Unlimited") == ""


def _cells(*rows: tuple[str, float]) -> dict:
    return {
        "elements": [
            {"tag": "td", "text": text, "bbox": [x, 100 + 30 * n, 80, 20]} for n, (text, x) in enumerate(rows)
        ]
    }


def test_a_value_said_of_another_row_key_of_the_same_column_is_refused():
    page = _cells(("Adult", 10), ("£14", 200), ("Child (5–16)", 10), ("£6", 200), ("Concession", 10))
    question = "How much is a child ticket for the Deep Time exhibition?"
    why = rival_key(question, "Deep Time: Fossils of the Jurassic Coast — adult £14", "£14", page)
    assert "'adult'" in why
    assert rival_key(question, "Child (5–16) £6 Price", "£6", page) == ""


def test_a_value_that_is_itself_a_key_or_names_no_rival_key_is_not_refused():
    page = _cells(("Eastside", 10), ("Closed", 200), ("Central", 10), ("10:00–16:00", 200))
    assert rival_key("When is the Eastside branch open on Sundays?", "Closed Sunday", "Closed", page) == ""
    # keys of another column (terms of a definition list, a column of values) are no rivals
    other = _cells(("Adult", 10), ("Child", 10), ("adult", 300))
    assert (
        rival_key("How much is a child ticket?", "adult £14", "£14", {"elements": other["elements"][2:]})
        == ""
    )


_ROUTES = (
    "Portmore – Skerrow: £3.50 per dog each way. Portmore – Inchbeg: £2.80 per dog each way. "
    "Skerrow – Inchbeg: free. Assistance dogs always travel free."
)


def test_a_value_given_for_another_label_of_the_same_line_is_refused():
    """A line that gives each route its own value: the first figure is the first route's, not the one asked."""
    dog = {
        **answer_part("How much does it cost to bring a dog on the Portmore to Inchbeg ferry?"),
        "id": "p1",
    }
    page = {"url": "http://ferry.test/fares", "title": "Fares"}

    def read(quote: str) -> dict:
        return {"status": 200, "found": [{"element": "dd", "text": _ROUTES, "ok": True, "block": "dl"}]}

    found, why = answer_evidence(dog, [dog], "£3.50", page, {"£3.50": read("£3.50")}, 1)
    assert found is None and "Portmore – Skerrow" in why
    found, _ = answer_evidence(dog, [dog], "£2.80", page, {"£2.80": read("£2.80")}, 1)
    assert found is not None


def test_a_value_said_of_another_class_of_ticket_is_refused():
    concession = {**answer_part("What's the concession price for the Looms & Lives exhibition?"), "id": "p1"}
    page = {"url": "http://museum.test/exhibitions", "title": "Exhibitions"}
    line = "Combined ticket for Looms & Lives and Lost Looms: £14.00 adult. Buy at the front desk."
    reading = {"status": 200, "found": [{"element": "p", "text": line, "ok": True, "block": "main"}]}
    found, why = answer_evidence(concession, [concession], "£14.00", page, {"£14.00": reading}, 1)
    assert found is None and "adult" in why


def test_a_class_item_on_the_subjects_own_page_answers_for_that_class():
    """'Concession (60+) £7.75' in the tickets list under the exhibition's own heading names the class asked
    for; the page names the exhibition. A related item's price names no class, another class is refused."""
    concession = {**answer_part("What's the concession price for the Looms & Lives exhibition?"), "id": "p1"}
    page = {"url": "http://museum.test/exhibitions/looms", "title": "Looms & Lives :: Calderbrook Museum"}

    def reading(item: str) -> dict:
        place = {"element": "dd", "text": "£7.75", "ok": False, "block": "div.ticket", "block_text": item,
                 "why": "it sits in an item that does not name the subject"}  # fmt: skip
        return {
            "status": 200,
            "title": page["title"],
            "heading": "Looms & Lives: Mill Workers",
            "found": [place],
        }

    found, _ = answer_evidence(
        concession, [concession], "£7.75", page, {"£7.75": reading("Concession (60+) £7.75")}, 1
    )
    assert found is not None
    for item in ("Weaving kit £7.75", "Adult £7.75"):
        found, _ = answer_evidence(concession, [concession], "£7.75", page, {"£7.75": reading(item)}, 1)
        assert found is None, item
    price = {**answer_part("What's the price of the Looms & Lives exhibition?"), "id": "p1"}
    found, _ = answer_evidence(price, [price], "£7.75", page, {"£7.75": reading("Concession (60+) £7.75")}, 1)
    assert found is None  # no class asked: the item must name the subject as before


def test_a_date_in_figures_that_reads_both_ways_proves_nothing():
    from agent.planning.verify.judge import _forms

    assert "03/04/1972" not in _forms("4 March 1972") and "04/03/1972" not in _forms("4 March 1972")
    assert "22/08/1990" in _forms("22 August 1990")


def test_a_run_of_classes_in_an_item_answers_only_for_the_class_beside_the_value():
    concession = {**answer_part("What's the concession price for the Looms & Lives exhibition?"), "id": "p1"}
    page = {"url": "http://museum.test/exhibitions/looms", "title": "Looms & Lives :: Calderbrook Museum"}
    place = {"element": "b", "text": "£9.50", "ok": False, "block": "ul", "block_text":
             "Tickets Adult £9.50 Concession (60+, students) £7.75",
             "why": "it sits in an item that does not name the subject"}  # fmt: skip
    reading = {"status": 200, "title": page["title"], "heading": "Looms & Lives", "found": [place]}
    found, _ = answer_evidence(concession, [concession], "£9.50", page, {"£9.50": reading}, 1)
    assert found is None
