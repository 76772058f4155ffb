"""Finding the way on sites the planner has never seen: wordings that point back ('its warranty'), questions asked
indirectly or about a topic, the names pages give an attribute ('Led by', 'Telephone'), looking around a site
whose links name nothing asked, and reading tables and record listings laid out in other ways."""

from __future__ import annotations

import pytest

from agent.planning.base import HistoryItem
from agent.planning.offline.explore import can_go_back, explore_link
from agent.planning.offline.grammar import parse_goal
from agent.planning.offline.intents import Ask, Search
from agent.planning.offline.navigator import next_move, ranked_links
from agent.planning.offline.questions import analyze
from agent.planning.offline.reading import answer_question
from agent.planning.offline.records.addresses import numbered_address
from agent.planning.offline.records.which import record_goal_of
from agent.planning.offline.site_search import says_no_results
from agent.planning.offline.values import labelled_value
from agent.planning.offline.vocabulary import label_forms
from tests.planning.pages import Page


@pytest.mark.parametrize(
    ("goal", "query", "question"),
    [
        (
            "Search for drip irrigation kit, then tell me how long its warranty is.",
            "drip irrigation kit",
            "tell me how long the warranty of the drip irrigation kit is",
        ),
        (
            "Use the site's search to find the drip irrigation kit and tell me how long its warranty is.",
            "drip irrigation kit",
            "tell me how long the warranty of the drip irrigation kit is",
        ),
        (
            "search for blue lamp and tell me how much it costs",
            "blue lamp",
            "tell me how much the blue lamp costs",
        ),
    ],
)
def test_a_question_after_a_search_is_about_what_was_searched_for(goal, query, question):
    parsed = parse_goal(goal)
    assert parsed.understood
    assert parsed.intents == (Search(query), Ask(question))


def test_a_pronoun_in_a_second_question_is_the_one_the_first_asks_about():
    parsed = parse_goal("Who's the councillor for Riverside ward and what's their email address?")
    second = analyze(parsed.questions[1].question)
    assert (second.attr, second.entity) == ("email address", "councillor for Riverside ward")
    topic = parse_goal("Who wrote the article about the kiln and when was it published?")
    assert analyze(topic.questions[1].question).by_topic


def test_what_the_page_says_after_a_click_is_not_rewritten():
    parsed = parse_goal('Click "Widgets" then tell me what it says')
    assert parsed.questions[0].question == "tell me what it says"


@pytest.mark.parametrize(
    ("question", "attr", "entity"),
    [
        ("tell me how long the drip irrigation kit's warranty is", "warranty", "drip irrigation kit"),
        ("How long is the warranty on the drip irrigation kit?", "warranty", "drip irrigation kit"),
        ("Who leads the Saturday Story Club?", "leads", "Saturday Story Club"),
        ("Who wrote the article about the river clean-up volunteers?", "wrote", "river clean-up volunteers"),
    ],
)
def test_questions_asked_indirectly_or_by_a_verb_name_an_attribute_of_a_thing(question, attr, entity):
    query = analyze(question)
    assert (query.kind, query.attr, query.entity) == ("attribute", attr, entity)


def test_an_item_named_by_its_topic_is_found_by_what_it_is_about():
    query = analyze("Who wrote the article about the river clean-up volunteers?")
    assert query.by_topic and query.noun == "article"
    titled = analyze("When was the post titled Spring sale published?")
    assert titled.entity == "Spring sale" and not titled.by_topic


@pytest.mark.parametrize(
    "question", ["who works in Support?", "how often is the backup run", "how old is the oldest tree"]
)
def test_questions_that_name_no_attribute_of_a_thing_stay_general(question):
    assert analyze(question).kind == "generic"


def test_the_labels_a_page_may_give_an_attribute():
    assert {"led by", "leader"} <= set(label_forms("leads"))
    assert {"taught by", "teacher"} <= set(label_forms("teaches"))
    assert {"organised by", "organiser"} <= set(label_forms("organises"))
    assert "telephone" in label_forms("phone number")
    assert label_forms("status") == ("status",)
    assert label_forms("price")[0] == "price"  # the attribute as asked comes first


def test_a_value_is_read_under_another_name_for_its_label():
    lines = [
        "Saturday Story Club",
        "Where",
        "Riverbend Library",
        "Led by",
        "Gwen Hollis",
        "Telephone: 0161 555 0199",
    ]
    assert labelled_value(lines, "leads") == "Gwen Hollis"
    assert labelled_value(lines, "phone number") == "0161 555 0199"
    assert (
        labelled_value(["Volunteers pull 2 tonnes", "By Tomasz Wielgus · 12 May 2024"], "wrote")
        == "Tomasz Wielgus"
    )


def _museum_home() -> Page:
    p = Page("https://museum.test/", "Welcome | Harbour Museum")
    for n, (text, href) in enumerate(
        [("Plan your visit", "/visit"), ("Learning", "/learning"), ("Journal", "/journal")]
    ):
        p.link(text, "https://museum.test" + href, y=20, x=100 + 150 * n, zone="nav")
    p.add("h1", "Glass made by the sea", y=120)
    p.text("Three centuries of glassmaking on the harbour.")
    p.link("Privacy", "https://museum.test/privacy", y=900, zone="footer")
    p.link("Log in", "https://museum.test/login", y=20, x=900, zone="header")
    return p


def test_with_no_link_naming_the_subject_the_sites_sections_are_looked_in():
    obs = _museum_home().build()
    query = analyze("Who runs the Glassblowing taster?")
    move = next_move(query, obs, [], obs["url"])
    assert move is not None and "no link names the subject" in move.reason
    href = move.step.rsplit(" ", 1)[-1]
    assert href.rsplit("/", 1)[-1] in ("visit", "learning", "journal")


def test_housekeeping_pages_and_pages_already_seen_are_not_looked_in():
    obs = _museum_home().build()
    query = analyze("Who runs the Glassblowing taster?")
    links = ranked_links(query, obs, [], obs["url"])
    seen: list[HistoryItem] = [
        {"action": "navigate", "status": "success", "url": f"https://museum.test/{p}"}
        for p in ("visit", "learning", "journal")
    ]
    assert explore_link(links, query.question, seen) is None  # privacy and log in are never looked in


def test_going_back_never_leaves_the_pages_of_the_run():
    start = "https://museum.test/"
    one: list[HistoryItem] = [{"action": "navigate", "status": "success", "url": "https://museum.test/visit"}]
    assert can_go_back(one, start)
    back = [*one, {"action": "go_back", "status": "success", "url": start}]
    assert not can_go_back(back, start)  # (the tab's history before the start page is about:blank)


def test_a_results_page_that_found_nothing_is_not_waited_on():
    p = Page("https://shop.test/search?q=pump", "Search")
    p.add("h1", "Search results", y=100)
    p.text("No products matched “pump”. Try a different word.")
    assert says_no_results(p.build())
    q = Page("https://shop.test/search?q=kit", "Search")
    q.text("1 products found for “kit”")
    assert not says_no_results(q.build())


def _table(p: Page, y: float, header: list[str], rows: list[list[str]]) -> None:
    for col, text in enumerate(header):
        p.add("th", text, x=10 + 200 * col, y=y, role="columnheader")
    for r, row in enumerate(rows, start=1):
        for col, text in enumerate(row):
            p.add("td", text, x=10 + 200 * col, y=y + 30 * r, role="cell")


def test_a_second_tables_header_row_heads_columns_and_a_describing_cell_names_its_row():
    p = Page("https://docs.test/config", "Configuration reference")
    p.add("h1", "Configuration", y=40)
    _table(p, 100, ["Key", "Type", "Default", "Meaning"], [
        ["cache.dir", "path", "~/.cache/q", "Where entries are stored."],
        ["cache.max_size", "size", "512 MiB", "Size limit of the local cache before eviction starts."],
    ])  # fmt: skip
    _table(p, 300, ["Variable", "Default", "Effect"], [["Q_JOBS", "number of CPUs", "Parallel build jobs."]])
    obs = p.build()
    assert answer_question("What is the default cache size limit?", obs).text == "512 MiB"
    assert answer_question("What is the default value of Q_JOBS?", obs).text == "number of CPUs"


def test_a_row_is_named_by_its_key_cell_with_its_columns_header():
    p = Page("https://museum.test/ex/ember", "Ember | Museum")
    p.add("h1", "Ember: Glass from the Furnace", y=40)
    _table(p, 100, ["Visitor", "Price"], [["Adult", "£12"], ["Child (4–15)", "£5"], ["Senior (65+)", "£9"]])
    assert answer_question("How much is a child visitor ticket for Ember?", p.build()).text == "£5"


def test_a_numbered_record_is_reached_through_the_title_link_on_its_row():
    p = Page("https://desk.test/issues", "Issues")
    for n, title in ((3, "Leaking radiator"), (7, "Badge reader rejects cards"), (9, "Flickering light")):
        y = 100 + 30 * n
        p.add("td", f"#{n}", x=10, y=y, w=40, h=20)
        p.link(title, f"https://desk.test/issues/{n}", x=60, y=y, w=300, h=20)
    assert numbered_address("12", p.build()) == "https://desk.test/issues/12"


def test_reporting_a_problem_is_a_record_to_file_not_a_question():
    parsed = parse_goal(
        'Log in as maria with password tulip42 and report a new problem titled "Projector flickers"'
    )
    record = record_goal_of(parsed)
    assert record is not None and (record.op, record.noun, record.title) == (
        "create",
        "problem",
        "Projector flickers",
    )
    assert parse_goal("report the price of the Blue Widget").questions


def test_booking_a_place_gives_the_name_and_email_the_form_asks_for():
    parsed = parse_goal(
        'Book a place on the Raku Firing Weekend for "Dana Ruiz" with email "dana@example.org"'
    )
    assert parsed.understood
    assert [i.step() for i in parsed.intents] == [
        'Click the "Raku Firing Weekend" link',
        'Type "Dana Ruiz" into "name"',
        'Type "dana@example.org" into "email"',
        "Submit the form",
    ]
    assert record_goal_of(parsed) is None


def test_opening_a_page_as_one_step_of_a_longer_goal_is_not_a_record_to_find():
    parsed = parse_goal('Open the Wheel Throwing for Beginners workshop, then type "Dana" into "Your name"')
    assert parsed.understood and record_goal_of(parsed) is None


def test_a_link_to_open_that_is_not_on_the_page_is_looked_for_through_the_site():
    from agent.planning.offline.planner import plan_goal

    p = Page("https://clay.test/", "Home | Claywork")
    p.link("Home", "https://clay.test/", y=20, zone="nav")
    p.link("Workshops", "https://clay.test/workshops", x=300, y=20, zone="nav")
    p.add("h1", "Make something with your hands", y=120)
    result = plan_goal(
        {
            "goal": 'Book a place on the Wheel Throwing for Beginners workshop for "Dana" with email "d@x.org"',
            "observation": p.build(),
            "history": [],
            "start_url": "https://clay.test/",
        }
    )
    assert result["proposed_actions"] == ["Navigate to https://clay.test/workshops"], result.get("reasoning")


def test_opening_a_record_after_logging_in_is_still_a_record_to_find():
    parsed = parse_goal("Log in as manager with password shop-manager-1 and open order SO-1003.")
    record = record_goal_of(parsed)
    assert record is not None and (record.op, record.number) == ("open", "SO-1003")


def test_when_a_journey_leaves_is_its_departure_time_in_its_leg_s_row():
    p = Page("https://air.test/manage/booking", "Booking KQ7M4T | Kittiwake Air")
    p.add("h1", "Booking KQ7M4T", y=60, interactive=False)
    for n, head in enumerate(["Flight", "Date", "Departs", "Arrives"], start=1):
        p.add("th", head, x=100 + 160 * n, y=160, w=150, role="columnheader")
    rows = [
        ["Outbound", "KW201", "Monday 21 December 2026", "07:55 Glenmouth", "08:40 Skellan"],
        ["Return", "KW204", "Monday 28 December 2026", "14:35 Skellan", "15:20 Glenmouth"],
    ]
    for r, row in enumerate(rows):
        for n, cell in enumerate(row):
            p.add("td", cell, x=100 + 160 * n, y=200 + 40 * r, w=150, role="cell")
    page = p.build()
    back = answer_question("What time does our flight back from Skellan leave?", page)
    assert back.found and back.text == "14:35 Skellan"
    out = answer_question("When does our flight out arrive?", page)
    assert out.found and out.text == "08:40 Skellan"
    assert (
        analyze("When did the parcel leave the depot?").attr != "departure time"
    )  # (no leg of a journey said)
