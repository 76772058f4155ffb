"""The lenient JSON parser: what weaker local models send instead of a clean object."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from agent.llm.parsing import ReplyParseError, message_text, parse_json_object

OBJ = {"action": "click", "element_id": 5, "args": {"text": "a, }"}, "ok": True}


@pytest.mark.parametrize(
    "reply",
    [
        json.dumps(OBJ),
        "Sure! Here is the action:\n" + json.dumps(OBJ) + "\nLet me know if you need more.",
        "```json\n" + json.dumps(OBJ, indent=2) + "\n```",
        "Answer:\n```\n" + json.dumps(OBJ) + "\n```\nDone.",
        '{"action": "click", "element_id": 5, "args": {"text": "a, }",}, "ok": true,}',
        "`" + json.dumps(OBJ) + "`",
        json.dumps(OBJ) + ".",
        "<think>The user wants {a click}.</think>\n" + json.dumps(OBJ),
    ],
    ids=["plain", "prose", "fence", "bare-fence", "trailing-commas", "backticks", "trailing-dot", "think"],
)
def test_recovers_the_object(reply: str) -> None:
    assert parse_json_object(reply) == OBJ


@pytest.mark.parametrize(
    ("reply", "why"),
    [
        ("", "empty"),
        ("   \n", "empty"),
        ("I will click the Add to cart button.", "no JSON object"),
        ('{"action": "click", "element_id": ', "not valid JSON"),
        ("[1, 2, 3]", "no JSON object"),
    ],
)
def test_reports_why_there_is_no_object(reply: str, why: str) -> None:
    with pytest.raises(ReplyParseError, match=why):
        parse_json_object(reply)


def test_commas_inside_strings_are_kept() -> None:
    assert parse_json_object('{"text": "x,}", "list": ["a", "b",],}') == {"text": "x,}", "list": ["a", "b"]}


def test_message_text_joins_content_blocks() -> None:
    assert (
        message_text([{"type": "text", "text": "{"}, '"a": 1', {"type": "text", "text": "}"}]) == '{"a": 1}'
    )
    assert message_text(None) == ""


_json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.text(max_size=20),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=8), inner, max_size=3),
    max_leaves=10,
)


@settings(max_examples=60, deadline=None)
@given(
    obj=st.dictionaries(st.text(max_size=8), _json_values, min_size=1, max_size=4),
    before=st.sampled_from(["", "Here you go: ", "Result:\n```json\n", "<think>{hmm}</think>"]),
    after=st.sampled_from(["", " Hope that helps.", "\n```", "\n"]),
)
def test_any_object_survives_wrapping(obj: dict, before: str, after: str) -> None:
    assert parse_json_object(before + json.dumps(obj) + after) == obj
