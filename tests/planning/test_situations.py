"""Situations said before or around a request: news and plans are read only as far as the question points back
at them, a request after the situation in one sentence is its own, and a 'which library' question is answered
only with a named one."""

from __future__ import annotations

from agent.planning.offline.answers import _names_one
from agent.planning.offline.grammar import parse_goal
from agent.planning.offline.reading import answer_question
from agent.planning.offline.records.goal import read_record_goal


def test_a_request_after_the_situation_in_one_sentence_is_its_own():
    record = read_record_goal(
        "clover's teeth seem fine now so please cancel her vet appointment on the 10th of december. "
        "greyfriars account jo@example.com, pw Marmalade22"
    )
    assert record is not None and record.op == "cancel"
    assert "teeth" not in record.about and "10th of december" in record.about
    parsed = parse_goal("I haven't finished it yet - please renew the DVD so I can keep it another week")
    assert any(u == "renew the DVD" for u in parsed.unknown) or any(
        "renew the DVD" in i.step() for i in parsed.intents
    )


def test_a_friend_s_news_is_the_situation_of_a_question():
    parsed = parse_goal("A friend told me the Hollin Library has a reading group. What day does it meet?")
    assert not any("friend" in u for u in parsed.unknown)


def test_news_beside_a_question_that_names_nothing_of_its_own_is_not_read_past():
    parsed = parse_goal(
        "I had an email saying one of my holds is ready to collect but I've deleted it. Which library do I go to?"
    )
    assert not parsed.understood  # which hold: the offline planner cannot tell, so it does not guess


def test_which_library_is_answered_only_with_a_named_one():
    page = {
        "url": "http://lib.test/using",
        "title": "Using the library",
        "text": "Joining\nAnyone can join for free. Bring proof of your name and address to any library.\n",
        "elements": [],
    }
    answer = answer_question("Which library do I need to go to?", page)
    assert not answer.found
    assert _names_one("Your hold is waiting at Saltby Library until 3 May.", "which library")


def test_a_plan_told_first_is_what_a_question_without_a_name_asks_about():
    parsed = parse_goal(
        "Thinking of hiring the campervan from Fenwick. If I skip their cover, how much is the damage excess?"
    )
    assert parsed.understood, parsed.unknown
    asked = [i.step() for i in parsed.intents]
    assert asked == [
        "Answer: how much is the damage excess of the campervan from Fenwick If I skip their cover?"
    ]
    # a question that names its own place is not about the plan: the plan is left unread, not guessed into it
    parsed = parse_goal("Thinking of hiring a van from Redway. What are the opening hours at Leeds Airport?")
    assert not parsed.understood


def test_the_business_a_plan_names_is_whose_thing_their_asks_about():
    parsed = parse_goal(
        "Thinking of joining Millbrook Leisure Centre. What does their Anytime membership cost per month?"
    )
    assert parsed.understood, parsed.unknown
    assert [i.step() for i in parsed.intents] == [
        "Answer: What does Millbrook Leisure Centre's Anytime membership cost per month?"
    ]
    # a plan naming no business leaves 'their' pointing at no one it names
    assert "Millbrook" not in " ".join(
        i.step() for i in parse_goal("Thinking of joining a gym. What does their membership cost?").intents
    )


def test_a_request_like_that_is_the_service_the_news_describes():
    parsed = parse_goal(
        "A neighbour told me Brackley Museums can lend teaching boxes to schools for you. "
        "How much do they charge for each loan like that?"
    )
    assert parsed.understood, parsed.unknown
    assert [i.step() for i in parsed.intents] == [
        "Answer: How much do Brackley Museums charge for each loan to lend teaching boxes to schools?"
    ]
    # news of two services: which one 'like that' means is not guessed
    parsed = parse_goal(
        "A friend said Brackley Museums can lend boxes to schools and Ashby Library can print posters for you. "
        "How much is each request like that?"
    )
    assert not parsed.understood


def test_cancel_it_is_about_what_the_situation_says_will_be_missed():
    said = {
        "We've got a family wedding that weekend, so we won't make Sunday's swimming lesson. Please cancel that "
        "booking for us.": "Sunday's swimming lesson",
        "I can no longer attend the pottery taster on 3 March, so could you cancel my place for it?": (
            "the pottery taster on 3 March"
        ),
        "I'll have to miss the book club on Tuesday. Cancel it please.": "the book club on Tuesday",
    }
    for goal, about in said.items():
        record = read_record_goal(goal)
        assert record is not None and record.op == "cancel", goal
        assert record.about == about, (goal, record.about)
    # a named record is never replaced by the situation
    record = read_record_goal(
        "I can't make it on Friday, so please cancel my booking for the Friday yoga class."
    )
    assert record is not None and "yoga" in record.about


def test_a_request_after_the_situation_can_be_said_as_a_need():
    record = read_record_goal(
        "My dentist moved my appointment, so I need to cancel the eye test booking that's still pending."
    )
    assert record is not None and record.op == "cancel" and "eye test" in record.about


def test_a_change_that_names_its_own_record_is_not_about_the_situation_told_before_it():
    moved = read_record_goal(
        "I'm paid on the last Friday of the month now, so please move my Brookfield Energy payment date to the 28th."
    )
    assert moved is not None and moved.op == "update" and moved.loose == ("the 28th",)
    assert "paid" not in moved.about and "Friday" not in moved.about
    lease = read_record_goal(
        "The Harbour Street lease was renewed last week. Please update the end date to 31 March 2027."
    )
    assert (
        lease is not None and lease.about == "Harbour Street lease"
    )  # a record described, not the user's news
    status = read_record_goal("The checkout bug is fixed now. Please change the status to resolved.")
    assert status is not None and status.about == "checkout bug"
    pointed = read_record_goal("The checkout bug is fixed now. Please update it to resolved.")
    assert pointed is not None and pointed.about == "checkout bug"  # 'it': the situation names the record


def test_news_after_a_greeting_is_the_change_it_asks_for():
    record = read_record_goal(
        "Hello, we've got a new landline number, 0161 496 0000. Could you change it on our account?"
    )
    assert record is not None and record.op == "update"
    assert record.settings == (("landline number", "0161 496 0000"),)
