"""The goal grammar: plain imperative goals and their compositions -> intents, and canonical steps back."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from agent.planning.offline.clauses import split_clauses
from agent.planning.offline.grammar import not_understood_message, parse_goal
from agent.planning.offline.intents import (
    Ask,
    Choose,
    Click,
    Dismiss,
    GoBack,
    GoForward,
    Navigate,
    PressKey,
    Scroll,
    ScrollTo,
    Search,
    SelectOption,
    SetCheck,
    Submit,
    TypeText,
    Wait,
)
from agent.planning.offline.questions import analyze, subject_words
from agent.planning.offline.text import mask_quotes
from agent.planning.offline.vocabulary import key_name

GOALS = [
    # navigation
    ("go to example.com", [Navigate("https://example.com/")]),
    ("Open https://shop.test/catalog?page=2", [Navigate("https://shop.test/catalog?page=2")]),
    ("visit localhost:8000/login", [Navigate("http://localhost:8000/login")]),
    ("navigate to www.news.test", [Navigate("https://www.news.test/")]),
    ("go to the login page", [Click("login", role="link")]),
    ("open the settings tab", [Click("settings", role="tab")]),
    ("go back", [GoBack()]),
    ("navigate back to the previous page", [GoBack()]),
    ("go forward", [GoForward()]),
    # search
    ("search for salt and pepper", [Search("salt and pepper")]),
    ("look up 'running shoes'", [Search("running shoes")]),
    ("search shop.test for red shoes", [Navigate("https://shop.test/"), Search("red shoes")]),
    # clicks
    ("click the Sign in button", [Click("Sign in", role="button")]),
    ('Click on the link "justo".', [Click("justo", role="link")]),
    ("tap Continue", [Click("Continue")]),
    ("hit the Subscribe button", [Click("Subscribe", role="button")]),
    ("press Submit", [Click("Submit")]),
    ("click the first result", [Click(ordinal=1, noun="result")]),
    ("open the 7th search result", [Click(ordinal=7, noun="result")]),
    ("click the last product", [Click(ordinal=-1, noun="product")]),
    (
        "click the Add to cart button for the Blue Widget",
        [Click("Add to cart", role="button", near="Blue Widget", connector="for")],
    ),
    ("add the Red Gizmo to the cart", [Click("add to cart", near="Red Gizmo")]),
    ('Close the dialog box by clicking the "x"', [Click("x")]),
    # typing
    ('type "alice" into the username field', [TypeText("alice", "username")]),
    ("fill the email field with a@b.com", [TypeText("a@b.com", "email")]),
    ("enter bob as the username", [TypeText("bob", "username")]),
    ("put hello world in the message box", [TypeText("hello world", "message")]),
    ("type shoes into search and press enter", [TypeText("shoes", "search", submit=True)]),
    ("set the quantity to 3", [TypeText("3", "quantity")]),
    ("clear the search box", [TypeText("", "search")]),
    (
        'Enter the username "kanesha" and the password "X9" into the text fields',
        [TypeText("kanesha", "username"), TypeText("X9", "password")],
    ),
    # selects and checkboxes
    ("select Blue from the Color dropdown", [SelectOption("Blue", "Color")]),
    ("choose Large in size", [SelectOption("Large", "size")]),
    ('Select "Blue" from the dropdown', [SelectOption("Blue", "")]),
    ("check Remember me", [SetCheck("Remember me", True)]),
    ("tick the terms box", [SetCheck("terms", True)]),
    ("untick the newsletter checkbox", [SetCheck("newsletter", False)]),
    ("agree to the terms and conditions", [SetCheck("terms and conditions", True)]),
    ("Select nTIWq, xq and click Submit.", [Choose("nTIWq"), Choose("xq"), Click("Submit")]),
    # keys, scrolling, waiting
    ("press Escape", [PressKey("Escape")]),
    ("hit the down arrow key", [PressKey("ArrowDown")]),
    ("press ctrl+a", [PressKey("Control+A")]),
    ("scroll down", [Scroll("down")]),
    ("scroll up 300 pixels", [Scroll("up", 300)]),
    ("scroll to the bottom", [Scroll("down", to_end=True)]),
    ("go to the top of the page", [Scroll("up", to_end=True)]),
    ("scroll down twice", [Scroll("down"), Scroll("down")]),
    ("scroll to the reviews", [ScrollTo("reviews")]),
    ("wait 3 seconds", [Wait(3.0)]),
    # accounts
    (
        "log in as alice with password s3cret",
        [TypeText("alice", "username"), TypeText("s3cret", "password"), Submit("login")],
    ),
    (
        "sign in with username bob@x.io and password 'p@ss word'",
        [TypeText("bob@x.io", "email"), TypeText("p@ss word", "password"), Submit("login")],
    ),
    (
        "Log in to example.com as bob, password x1",
        [
            Navigate("https://example.com/"),
            TypeText("bob", "username"),
            TypeText("x1", "password"),
            Submit("login"),
        ],
    ),
    ("log in", [Click("log in")]),
    ("sign in with Google", [Click("log in with Google")]),
    ("sign up with new@user.test", [TypeText("new@user.test", "email"), Submit("signup")]),
    ("subscribe to the newsletter with me@x.io", [TypeText("me@x.io", "email"), Submit("subscribe")]),
    ("register with carol@x.io", [TypeText("carol@x.io", "email"), Submit("signup")]),
    # the address as the verb's own object
    (
        "Subscribe bob@example.org to the newsletter",
        [TypeText("bob@example.org", "email"), Submit("subscribe")],
    ),
    (
        "subscribe 'bob@example.org' to our mailing list",
        [TypeText("bob@example.org", "email"), Submit("subscribe")],
    ),
    ("Register ann@x.io for the webinar", [TypeText("ann@x.io", "email"), Submit("signup")]),
    (
        "subscribe bob@x.io to the newsletter with the name Bob",
        [TypeText("bob@x.io", "email"), TypeText("Bob", "name"), Submit("subscribe")],
    ),
    ("register for the webinar", [Click("register")]),  # no address: the button, not a field
    ("submit the form", [Submit("")]),
    (
        "fill in the form: name Ada Lovelace, email ada@x.io, message 'Hi there'",
        [TypeText("Ada Lovelace", "name"), TypeText("ada@x.io", "email"), TypeText("Hi there", "message")],
    ),
    ("submit the form with email a@b.io", [TypeText("a@b.io", "email"), Submit("")]),
    ("add two Blue Widgets to the basket", [Click("add to basket", near="Blue Widgets")] * 2),
    ("Search the store for mugs", [Search("mugs")]),
    # overlays
    ("accept cookies", [Dismiss("cookie")]),
    ("close the popup", [Dismiss("dialog")]),
    # questions
    ("what is the price of the Blue Widget?", [Ask("what is the price of the Blue Widget")]),
    ("how many results are there", [Ask("how many results are there")]),
    ("find the email of Jane Doe", [Ask("find the email of Jane Doe")]),
    ("tell me what the page says", [Ask("tell me what the page says")]),
    ("Is the Blue Widget in stock?", [Ask("Is the Blue Widget in stock")]),
    ("list all products under $20", [Ask("list all products under $20")]),
    ("who wrote the article", [Ask("who wrote the article")]),
]


@pytest.mark.parametrize(("goal", "expected"), GOALS, ids=[g for g, _ in GOALS])
def test_goal_parses_into_intents(goal, expected):
    parsed = parse_goal(goal)
    assert parsed.understood, parsed.unknown
    assert list(parsed.intents) == expected


COMPOSED = [
    ("go to example.com then search for shoes", [Navigate("https://example.com/"), Search("shoes")]),
    ("search for shoes and click the first result", [Search("shoes"), Click(ordinal=1, noun="result")]),
    (
        "go to shop.test; click Products\nscroll down",
        [Navigate("https://shop.test/"), Click("Products"), Scroll("down")],
    ),
    (
        "Open shop.test, search for lamps, then click the second result.",
        [Navigate("https://shop.test/"), Search("lamps"), Click(ordinal=2, noun="result")],
    ),
    (
        "accept cookies. After that, add the Blue Widget to the cart",
        [Dismiss("cookie"), Click("add to cart", near="Blue Widget")],
    ),
    (
        "First, log in as alice with password pw. Afterwards tell me what the page says.",
        [
            TypeText("alice", "username"),
            TypeText("pw", "password"),
            Submit("login"),
            Ask("tell me what the page says"),
        ],
    ),
    (
        'Use the textbox to enter "Jerald" and press "Search", then find and click the 7th search result.',
        [TypeText("Jerald", ""), Click("Search"), Click(ordinal=7, noun="result")],
    ),
    (
        "fill the email field with a@b.com and check remember me, then press enter",
        [TypeText("a@b.com", "email", submit=False), SetCheck("remember me", True), PressKey("Enter")],
    ),
    (
        "what is the price of the Blue Widget, then click it",
        [Click("it"), Ask("what is the price of the Blue Widget")],
    ),
]


@pytest.mark.parametrize(("goal", "expected"), COMPOSED, ids=[g for g, _ in COMPOSED])
def test_compositions_split_only_where_a_new_command_starts(goal, expected):
    parsed = parse_goal(goal)
    assert parsed.understood, parsed.unknown
    assert list(parsed.intents) == expected


def test_quoted_values_are_never_split_or_reinterpreted():
    parsed = parse_goal('type "click here, then go back; and search" into the notes field')
    assert list(parsed.intents) == [TypeText("click here, then go back; and search", "notes")]


def test_and_inside_a_value_does_not_split_but_and_before_a_verb_does():
    assert split_clauses(mask_quotes("search for rock and roll and click the first result")[0]) == [
        "search for rock and roll",
        "click the first result",
    ]


@pytest.mark.parametrize(
    "goal", ["make me a sandwich", "", "   ", "zxqv", "go to example.com and dance wildly"]
)
def test_not_understood_goals_are_reported_not_guessed(goal):
    parsed = parse_goal(goal)
    assert not parsed.understood
    assert parsed.unknown
    message = not_understood_message(parsed)
    assert "could not understand" in message and "search for" in message


def test_partial_understanding_names_the_unknown_clause():
    parsed = parse_goal("go to example.com, then dance wildly")
    assert parsed.unknown == ("dance wildly",)
    assert parsed.intents == (Navigate("https://example.com/"),)
    assert "dance wildly" in parse_goal("go to example.com and dance wildly").unknown[0]


def test_questions_are_moved_after_the_actions():
    parsed = parse_goal("how many items are in the cart? then click Checkout")
    assert parsed.actions == (Click("Checkout"),)
    assert parsed.questions == (Ask("how many items are in the cart"),)


@pytest.mark.parametrize(
    ("raw", "key"),
    [
        ("enter", "Enter"),
        ("esc", "Escape"),
        ("page down", "PageDown"),
        ("up arrow", "ArrowUp"),
        ("ctrl + shift + t", "Control+Shift+T"),
        ("F5", "F5"),
        ("space bar", "Space"),
    ],
)
def test_key_names_are_playwright_names(raw, key):
    assert key_name(raw) == key


CANONICAL = [
    Navigate("https://x.test/"),
    Search('say "hi"'),
    Click("Sign in", role="button"),
    Click("Buy"),
    Click(ordinal=3, noun="product"),
    Click(ordinal=-1, noun="result"),
    Click("Add to cart", role="button", near="Blue Widget", connector="for"),
    Choose("Large"),
    TypeText("alice", "Username"),
    TypeText("", "Search"),
    TypeText("shoes", "Search", submit=True),
    TypeText('it\'s "quoted"', "Notes"),
    SelectOption("Blue", "Color"),
    SelectOption("Blue", ""),
    SetCheck("Remember me", True),
    SetCheck("Newsletter", False),
    PressKey("Enter"),
    PressKey("ArrowDown"),
    Scroll("down"),
    Scroll("up", 250),
    Scroll("down", to_end=True),
    Scroll("up", to_end=True),
    ScrollTo("Reviews"),
    GoBack(),
    GoForward(),
    Wait(2.5),
    Submit(""),
    Submit("login"),
    Submit("signup"),
    Submit("subscribe"),
    Dismiss("cookie"),
    Dismiss("dialog"),
    Ask("what is the price of the Blue Widget"),
    Ask("list all products"),
]


@pytest.mark.parametrize("intent", CANONICAL, ids=[i.step() for i in CANONICAL])
def test_every_step_parses_back_into_its_intent(intent):
    assert parse_goal(intent.step()).intents == (intent,)


def test_step_rendering_examples():
    assert TypeText("alice", "Username").step() == 'Type "alice" into "Username"'
    assert Click("Sign in").step() == 'Click "Sign in"'
    assert SelectOption("Blue", "Color").step() == 'Select "Blue" from "Color"'
    assert Navigate("https://x.test/").step() == "Navigate to https://x.test/"
    assert Search("shoes").step() == 'Search for "shoes"'
    assert (
        Ask("what is the price of the Blue Widget").step() == "Answer: what is the price of the Blue Widget?"
    )


WORDS = (
    "go to open click type into fill with select from check uncheck press enter scroll down up log in as "
    "password sign up search for what is the price of how many find list then and , ; \" ' ? . example.com "
    "Blue Widget first result 3rd button link field box the a tell me accept cookies answer:"
).split()


@settings(max_examples=400, deadline=None, suppress_health_check=list(HealthCheck))
@given(
    st.one_of(
        st.text(max_size=160),
        st.lists(st.sampled_from(WORDS + ["\n", "“", "”", "$20", "x.test/a"]), max_size=30).map(" ".join),
    )
)
def test_parsing_never_raises_and_is_intents_or_a_clean_refusal(goal):
    parsed = parse_goal(goal)
    assert parsed.understood or (parsed.unknown and all(isinstance(u, str) for u in parsed.unknown))
    if parsed.understood:
        for intent in parsed.intents:
            assert parse_goal(intent.step()).intents == (intent,), intent.step()
    else:
        assert "could not understand" in not_understood_message(parsed)


@settings(max_examples=200, deadline=None)
@given(
    st.text(
        alphabet=st.characters(blacklist_categories=("Cs",), blacklist_characters="\"'“”‘’«»\x00"),
        min_size=1,
        max_size=40,
    ).filter(lambda s: s.strip() == s and s.strip()),
    st.text(alphabet="abcdefghijklmnopqrstuvwxyz ", min_size=1, max_size=20).filter(
        lambda s: s.strip() == s and s.strip()
    ),
)
def test_any_quoted_value_survives_a_type_step(value, field):
    intent = TypeText(value, field)
    assert parse_goal(intent.step()).intents == (intent,)


@pytest.mark.parametrize(
    ("goal", "steps"),
    [
        (
            "Sign up with the name Ada Lovelace and the email ada@x.io",
            ['Type "Ada Lovelace" into "name"', 'Type "ada@x.io" into "email"', "Submit the sign-up form"],
        ),
        (
            "Register with the username bob and password pw1",
            ['Type "bob" into "username"', 'Type "pw1" into "password"', "Submit the sign-up form"],
        ),
    ],
)
def test_sign_up_with_named_fields_types_each_into_its_own_field(goal, steps):
    assert [i.step() for i in parse_goal(goal).intents] == steps


@pytest.mark.parametrize(
    "question", ["how many days I have to return an item", "how many days do we have to return an item"]
)
def test_a_number_asked_about_keeps_its_subject(question):
    query = analyze(question)
    assert query.kind == "generic" and query.value_type == "number"  # a stated number, not a count of days
    assert query.noun == "days"
    assert {"return", "item"} <= set(subject_words(query))


def test_a_leading_according_to_or_in_the_document_scopes_the_question():
    from agent.planning.offline.questions import analyze

    for goal, page in (
        ("According to the backup policy, how long are nightly snapshots kept?", "backup policy"),
        ("In the backup policy, how long are nightly snapshots kept?", "backup policy"),
        (
            "In the article about the new bus timetable, what time does the first bus leave?",
            "new bus timetable",
        ),
    ):
        parsed = parse_goal(goal)
        assert not parsed.unknown and len(parsed.intents) == 1, parsed
        query = analyze(parsed.intents[0].question)
        assert query.page == page and not query.question.lower().startswith(("according", "in the")), query
    # not before an action: there it is no document the question is about
    assert parse_goal("In the search box, type hello").unknown == ("In the search box",)


def test_an_action_after_and_is_a_clause_of_its_own():
    """'... with password tulip42 and file a new issue ...' used to be swallowed by the login clause."""
    parsed = parse_goal('Log in as maria with password tulip42 and file a new issue titled "Mould"')
    assert [type(i).__name__ for i in parsed.intents] == ["TypeText", "TypeText", "Submit"]
    assert parsed.unknown == ('file a new issue titled "Mould"',)
    assert parse_goal("search for salt and pepper").intents[0].query == "salt and pepper"
