"""The offline planner's reading and navigation on hand-built pages of a kind the docs fixture does not have
(a camera manual, a recipe site): sections, tables, collapsed content, link scoring, site search, load more."""

from __future__ import annotations

from agent.planning.offline import answer_question, parse_goal
from agent.planning.offline.grammar import not_understood_message
from agent.planning.offline.intents import Ask, Click
from agent.planning.offline.navigator import (
    expand_move,
    load_more_move,
    next_move,
    ranked_links,
    subject_terms,
)
from agent.planning.offline.questions import analyze, split_scope
from agent.planning.offline.sections import heading_score, page_sections
from agent.planning.offline.site_search import search_texts
from agent.planning.offline.text import number_value, token_match
from tests.planning.pages import Page


def manual() -> Page:
    """A camera manual: settings in two groups that both have a 'Default:' line per setting."""
    p = Page("https://cam.test/manual", "Manual", height=3000)
    p.add("h1", "Camera manual", y=60)
    p.add("h2", "Photo", y=200, attrs={"id": "photo"})
    p.text("Settings for still pictures.")
    p.add("dt", "burst_rate", y=260, role="term", attrs={"id": "burst_rate"})
    p.text("Pictures taken per second while the shutter is held.")
    p.text("Default: 10")
    p.add("dt", "shutter_limit", y=360, role="term", attrs={"id": "shutter_limit"})
    p.text("The slowest shutter speed automatic mode chooses.")
    p.text("Default: 1/60 s")
    p.add("h2", "Video", y=500, attrs={"id": "video"})
    p.text("Settings for movies.")
    p.add("dt", "frame_rate", y=560, role="term", attrs={"id": "frame_rate"})
    p.text("Frames recorded per second.")
    p.text("Default: 30")
    return p


def test_a_definition_is_read_in_its_own_section():
    found = answer_question("What is the default of shutter_limit?", manual().build())
    assert found.found and found.text == "1/60 s"
    assert found.section == "shutter_limit"
    assert found.source == "https://cam.test/manual#shutter_limit"


def test_a_named_section_narrows_where_the_answer_is_read():
    found = answer_question("In the Video section, what is the default rate?", manual().build())
    assert found.found and found.text == "30"  # not the Photo section's burst rate of 10
    assert found.section == "frame_rate"


def test_a_section_that_is_not_on_the_page_is_not_guessed():
    found = answer_question("In the Audio section, what is the default rate?", manual().build())
    assert not found.found


def test_sections_nest_terms_under_headings():
    sections = {s.heading: s for s in page_sections(manual().build())}
    assert sections["Photo"].level == 2 and sections["burst_rate"].level == 7
    assert "Default: 1/60 s" in sections["Photo"].lines  # the group holds its terms
    assert "Default: 30" not in sections["Photo"].lines


def test_a_table_is_read_by_row_and_column():
    p = Page("https://food.test/chart", "Cooking times")
    p.add("caption", "Roasting chart", y=80)
    for x, head in ((100, "Cut"), (300, "Oven"), (500, "Minutes per kg")):
        p.add("th", head, x=x, y=120, w=180)
    for y, row in ((160, ("Pork loin", "180 °C", "55")), (200, ("Lamb leg", "200 °C", "40"))):
        for x, cell in zip((100, 300, 500), row, strict=True):
            p.add("td", cell, x=x, y=y, w=180)
    found = answer_question("How many minutes per kg for the Lamb leg?", p.build())
    assert found.found and found.text == "40"
    assert "Lamb leg" in found.evidence and "Minutes per kg" in found.evidence
    assert found.section == "Roasting chart"


def faq(opened: bool = False) -> Page:
    p = Page("https://food.test/faq", "FAQ")
    p.add("h1", "Questions", y=60)
    p.add("summary", "Can I freeze the dough?", y=120, role="button")
    if opened:
        p.text("Yes, for up to three months, wrapped tightly.")
    p.add("summary", "Is the flour gluten free?", y=170, role="button")
    return p


def test_a_closed_faq_entry_is_not_an_answer_and_is_opened():
    closed = faq().build()
    assert not answer_question("Can I freeze the dough?", closed).found  # the question restated is no answer
    move = expand_move(analyze("Can I freeze the dough?"), closed, [])
    assert move is not None and move.step == Click("Can I freeze the dough?").step()
    opened = answer_question("Can I freeze the dough?", faq(opened=True).build())
    assert opened.found and "three months" in opened.text
    assert opened.section == "Can I freeze the dough?"


def test_an_opened_entry_is_not_toggled_shut_again():
    history = [{"action": "click", "element_id": 2, "status": "success", "plan_step": 'Click "x"'}]
    assert expand_move(analyze("Can I freeze the dough?"), faq().build(), history) is None


def home() -> Page:
    p = Page("https://food.test/", "Good Food")
    p.link("Good Food", "https://food.test/", x=20, y=10, zone="header")
    p.add("input", "", x=900, y=10, role="searchbox", name="Search recipes", input_type="search")
    p.link("Breads", "https://food.test/c/breads", y=100, line=False)
    p.text("Breads — loaves, flatbreads and sourdough starters")
    p.link("Sweets", "https://food.test/c/cakes-and-pastry", y=140, line=False)
    p.text("Sweets — cakes, tarts and biscuits")
    p.link("Kitchen basics", "https://food.test/basics/knife-skills", y=180, line=False)
    p.text("Kitchen basics — how to hold a knife, and what to buy first")
    return p


def test_a_link_is_chosen_by_the_description_beside_it():
    best = ranked_links(analyze("How long does a sourdough starter keep?"), home().build(), [])[0]
    assert best[1]["text"] == "Breads"  # the link text says nothing; its description does


def test_a_link_is_chosen_by_its_url_path():
    best = ranked_links(analyze("how do I sharpen a knife"), home().build(), [])
    assert best[0][1]["text"] == "Kitchen basics"
    assert ranked_links(analyze("what is in a pastry cream"), home().build(), [])[0][1]["text"] == "Sweets"


def test_visited_pages_are_not_offered_again():
    history = [{"action": "navigate", "args": {"url": "https://food.test/c/breads"}, "status": "success"}]
    links = ranked_links(analyze("How long does a sourdough starter keep?"), home().build(), history)
    assert all(el["text"] != "Breads" for _, el in links)


def test_the_site_search_gets_the_subject_not_the_question():
    query = analyze("What temperature should I bake a pavlova at?")
    move = next_move(query, home().build(), [])
    assert move is not None and move.step.startswith("Search for")
    assert "pavlova" in move.step and "what" not in move.step.lower()
    assert search_texts(analyze("What is the default of shutter_limit?"))[0] == "shutter_limit"


def test_a_quoted_title_is_what_the_site_search_gets_first():
    query = analyze('Is "The Midnight Garden" available in the catalogue?')
    assert search_texts(query)[0] == "The Midnight Garden"


def test_after_a_fruitless_search_the_planner_stops_instead_of_wandering():
    history = [
        {"action": "search", "args": {"query": "pavlova"}, "status": "success", "url": "https://x.test/"}
    ]
    page = home().build()
    assert next_move(analyze("What temperature should I bake a pavlova at?"), page, history) is not None
    history.append(
        {"action": "search", "args": {"query": "x"}, "status": "success", "url": "https://x.test/"}
    )
    move = next_move(analyze("What temperature should I bake a pavlova at?"), page, history)
    assert move is None or not move.step.startswith("Search")


def test_load_more_is_pressed_until_its_budget_ends():
    p = Page("https://food.test/all", "All recipes")
    p.add("button", "Show more recipes", y=800)
    move = load_more_move(p.build(), [])
    assert move is not None and move.step == Click("Show more recipes").step()
    spent = [{"plan_step": move.step, "action": "click", "status": "success"}] * 6
    assert load_more_move(p.build(), spent) is None


def test_site_name_counts_little_in_link_scores():
    terms = subject_terms(analyze("Which Good Food recipe uses sourdough?"))
    assert "sourdough" in terms
    best = ranked_links(analyze("Which Good Food recipe uses sourdough?"), home().build(), [])[0]
    assert best[1]["text"] == "Breads"


def test_scope_phrases_are_split_from_the_question():
    assert split_scope("In the Video section of the manual, what is the default rate") == (
        "what is the default rate",
        "Video",
        "manual",
    )
    assert split_scope("what is the default rate in the Video section") == (
        "what is the default rate",
        "Video",
        "",
    )
    assert parse_goal("In the Video section of the manual, what is the default rate?").intents == (
        Ask("In the Video section of the manual, what is the default rate"),
    )


def test_a_goal_in_another_language_is_not_guessed():
    parsed = parse_goal("Wie viele Rezepte gibt es?")
    assert not parsed.understood
    message = not_understood_message(parsed)
    assert message.startswith(
        "The offline planner does not understand this wording; configure a model (see README)"
    )


def test_fuzzy_and_prefix_matching_help_headings_and_words():
    assert heading_score("time zone", "Time zones") >= 0.8
    assert heading_score("1.2.0", "Version 1.2.0") == 1.0
    assert heading_score("1.2.0", "Version 2.1.0") <= 0.5  # the same digits in another order are another name
    assert token_match("deployment", "deploying") >= 0.7
    assert token_match("deployment", "department") < 0.7


def test_number_words_are_read_with_word2number():
    assert [number_value(w) for w in ("3", "two", "twenty-five", "a", "two dot-grid", "blue")] == [
        3,
        2,
        25,
        1,
        None,
        None,
    ]
    cart = parse_goal("add twelve mugs to the cart").intents
    assert len(cart) == 10  # twelve, capped at the planner's ten clicks


def test_a_stated_number_is_not_a_count_of_listed_items():
    assert analyze("how many worker processes does a worker start by default").kind == "generic"
    assert analyze("How many times is a failed job retried?").value_type == "number"
    assert analyze("how many products are there").kind == "count"
    assert analyze("how many items are in the cart").kind == "count"


def test_a_version_is_asked_for_or_named():
    assert analyze("Which Python version does it require?").value_type == "version"
    assert analyze("What changed in version 1.2.0?").value_type != "version"
    assert analyze("What changed in version 1.2.0?").entity == "1.2.0"


def test_a_clause_about_the_subject_is_left_out_of_the_site_search():
    """Most site searches want every typed word to match: the thing asked for is typed first, the clause about
    it ('they should connect to', 'if something breaks at the weekend') is not."""
    assert search_texts(analyze("What's the name of the Wi-Fi network they should connect to?"))[0] == (
        "Wi-Fi network"
    )
    assert search_texts(analyze("What's the name of the network a contractor should connect to?"))[0] == (
        "network"
    )
    weekend = search_texts(analyze("What number should I ring for Northgate IT support if something breaks?"))
    assert weekend[0] == "Northgate IT support"  # 'IT' is a name here, not the pronoun
    assert search_texts(analyze("What does the guide to Things You Can Do cost?"))[0] == (
        "guide to Things You Can Do"
    )
    assert (
        "about" not in search_texts(analyze("which engineer is dealing with my ticket about the printer"))[0]
    )


def _results_page(says: str) -> Page:
    p = Page("https://desk.test/kb?q=wifi+network", "Knowledge base")
    p.add("input", "", y=60, role="searchbox", name="Search articles")
    p.link("Knowledge base", "/kb", y=20, zone="nav")
    p.link("Contact IT", "/contact", y=20, x=300, zone="nav")
    p.text(says)
    return p


def test_after_a_search_that_matched_nothing_the_site_sections_are_still_tried():
    history = [
        {"action": "search", "args": {"query": "Wi-Fi network"}, "status": "success", "url": "https://desk.test/",
         "plan_step": 'Search for "Wi-Fi network"'},
        {"action": "search", "args": {"query": "Wi-Fi network they should connect to"}, "status": "success",
         "url": "https://desk.test/kb?q=wifi+network", "plan_step": 'Search for "Wi-Fi network they should connect to"'},
    ]  # fmt: skip
    query = analyze("What's the name of the Wi-Fi network they should connect to?")
    nothing = next_move(query, _results_page("0 articles match your search.").build(), history)
    assert nothing is not None and not nothing.step.startswith("Search")
    # a search that found results, all of them dead ends, is where the site's search ends, as before
    found = _results_page("2 articles match your search.").build()
    assert next_move(query, found, history) is None or not next_move(query, found, history).step.startswith(
        "Search"
    )


def test_a_search_already_typed_is_not_typed_again():
    history = [
        {
            "action": "search",
            "args": {"query": "Wi-Fi network"},
            "status": "success",
            "url": "https://x.test/",
        }
    ]
    page = _results_page("0 articles match your search.")
    page.url = "https://x.test/"
    move = next_move(
        analyze("What's the name of the Wi-Fi network they should connect to?"), page.build(), history
    )
    assert move is None or move.step != 'Search for "Wi-Fi network"'


def test_a_lead_named_by_another_number_is_no_lead():
    """'invoice INV-2024-0012': the link 'INV-2024-0011' shares the word 'inv', not the number asked for."""
    from agent.planning.offline.leads import subject_lead

    p = Page("https://arts.test/billing", "Billing")
    p.link("INV-2024-0011", "/invoice?n=INV-2024-0011", y=140)
    p.link("INV-2024-0012", "/invoice?n=INV-2024-0012", y=180)
    step = subject_lead(analyze("find out the total amount of invoice INV-2024-0012"), p.build())
    assert step is not None and "INV-2024-0012" in step
    cart = Page("https://shop.test/", "Shop")
    cart.link("Cart (2)", "/cart", y=20)
    assert subject_lead(analyze("what is the cart total"), cart.build()) is not None  # no number asked
