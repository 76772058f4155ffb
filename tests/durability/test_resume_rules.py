"""The pure rules of a resume: which typed values are still unsent, which page to reopen, how a lost state
names the ending."""

from __future__ import annotations

from agent.runtime import page_to_reopen, unsent_fields
from agent.terminals import after_lost_state

LOGIN = "http://shop.test/login"


def _typed(value: str, name: str, url: str = LOGIN) -> dict:
    field = {
        "action": "type",
        "value": value,
        "name_attr": name,
        "id_attr": "",
        "label": "",
        "placeholder": "",
    }
    return {"action": "type", "status": "success", "url": url, "field": field, "effect": {"navigated": False}}


def test_unsent_values_are_those_typed_in_the_open_document_latest_first_kept():
    history = [
        _typed("old", "q", "http://shop.test/"),
        {"action": "click", "status": "success", "url": LOGIN, "effect": {"navigated": True}},
        _typed("al", "user"),
        _typed("pw", "password"),
        _typed("alice", "user"),
        {"action": "click", "status": "success", "url": LOGIN + "#help", "effect": {"navigated": False}},
    ]
    fields = unsent_fields(history, LOGIN + "#top")
    assert [(f["name_attr"], f["value"]) for f in fields] == [("password", "pw"), ("user", "alice")]


def test_values_sent_by_a_step_that_loaded_a_new_document_are_not_typed_again():
    submit = {"action": "click", "status": "success", "url": LOGIN, "effect": {"navigated": True}}
    assert unsent_fields([_typed("alice", "user"), submit], LOGIN) == []
    failed = {"action": "click", "status": "failure", "url": LOGIN, "effect": {"navigated": True}}
    assert len(unsent_fields([_typed("alice", "user"), failed], LOGIN)) == 1


def test_the_page_to_reopen_is_where_the_last_action_left_the_tab():
    moved = {"url_before": LOGIN, "url_after": "http://shop.test/account"}
    assert page_to_reopen({"url": LOGIN, "last_result": moved}) == "http://shop.test/account"
    observed_since = {"url": "http://shop.test/account?tab=2", "last_result": moved}
    assert page_to_reopen(observed_since) == "http://shop.test/account?tab=2"
    stayed = {"url_before": LOGIN, "url_after": LOGIN + "#x"}
    assert page_to_reopen({"url": LOGIN, "last_result": stayed}) == LOGIN


def test_a_lost_state_names_the_failures_it_explains_only():
    lost = ["the cookies and site storage (no saved browser state)"]
    ending = after_lost_state("goal_failed", "answer_not_found", "no price on the page", lost)
    assert ending[:2] == ("goal_failed", "resume_lost_state")
    assert ending[2] == (
        "the resumed run could not restore the cookies and site storage (no saved browser state) "
        "(then: no price on the page)"
    )
    assert after_lost_state("goal_failed", "user_declined", "denied", lost) == (
        "goal_failed",
        "user_declined",
        "denied",
    )
    assert after_lost_state("goal_satisfied", "answer_found", None, lost) == (
        "goal_satisfied",
        "answer_found",
        None,
    )
    assert after_lost_state("goal_failed", "unverified", "x", []) == ("goal_failed", "unverified", "x")


def test_a_stored_observation_reads_back_the_same_from_the_records(tmp_path):
    """A resumed run has only the file: page text with any character, numeric keys and odd values survive."""
    import asyncio

    from agent import runtime
    from agent.records import wait_records_written

    observation = {
        "url": "http://shop.test/caf\u00e9",
        "title": "Cr\u00e8me br\u00fbl\u00e9e \u2028 line \u0085 end",
        "elements": [{"id": 1, "text": "\u00a34.50 \u2014 \U0001f600", "rect": (1, 2, 3, 4)}],
        "counts": {3: "numeric key"},
        "note": tmp_path,  # a value JSON has no type for is kept as its text
    }
    digest = asyncio.run(runtime.store_observation("resume-obs", tmp_path, 7, observation))
    wait_records_written()
    runtime._observations.pop("resume-obs", None)  # as in a new process: only the file is left
    back = asyncio.run(runtime.full_observation("resume-obs", digest))
    assert back["title"] == observation["title"] and back["url"] == observation["url"]
    assert back["elements"] == [{"id": 1, "text": "\u00a34.50 \u2014 \U0001f600", "rect": [1, 2, 3, 4]}]
    assert back["counts"] == {"3": "numeric key"} and back["note"] == str(tmp_path)
    assert digest["elements_count"] == 1 and (tmp_path / "observations" / "obs-0007.json").is_file()
