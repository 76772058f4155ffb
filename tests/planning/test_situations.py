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
