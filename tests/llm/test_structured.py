"""Structured replies over real HTTP: each output method, lenient recovery, validation and the one re-ask."""

from __future__ import annotations

import json

import pytest

from agent.planning.llm import OpenAIBackend
from tests.llm.fake_openai import FakeOpenAIServer, auto, text, tool_call
from tests.llm.helpers import executor_reply, plan_request, planner_reply, translate_request

METHODS = ["json_schema", "function_calling", "json_mode"]


def _last_message_text(body: dict) -> str:
    content = body["messages"][-1]["content"]
    return content if isinstance(content, str) else json.dumps(content)


# --------------------------------------------------------------------------------------------------------
# The happy path, per method
# --------------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("method", METHODS)
async def test_plan_with_each_method(fake_openai: FakeOpenAIServer, make_context, method: str) -> None:
    fake_openai.push(planner_reply(proposedActions=["Scroll down", "Click the Add to cart button"]))
    result = await OpenAIBackend(make_context(structured_output_method=method)).plan(plan_request())

    assert "error" not in result
    assert result["proposed_actions"] == ["Scroll down", "Click the Add to cart button"]
    assert result["task_complete"] is False and result["success"] is True
    assert result["reasoning"] == planner_reply()["stepByStepReasoning"]
    assert result["raw"]["userTask"] == planner_reply()["userTask"]
    body = fake_openai.requests[0]
    if method == "json_schema":
        assert body["response_format"]["type"] == "json_schema"
        assert body["response_format"]["json_schema"]["name"] == "planner_output"
    elif method == "function_calling":
        assert body["tools"][0]["function"]["name"] == "planner_output"
        assert body["tool_choice"]["function"]["name"] == "planner_output"
    else:
        assert body["response_format"] == {"type": "json_object"}
        assert "JSON schema of your answer" in body["messages"][0]["content"]
        assert '"proposedActions"' in body["messages"][0]["content"]


@pytest.mark.parametrize("method", METHODS)
async def test_translate_with_each_method(fake_openai: FakeOpenAIServer, make_context, method: str) -> None:
    fake_openai.push(executor_reply(action="type", element_id=1, args={"text": "farmhouse", "submit": True}))
    result = await OpenAIBackend(make_context(structured_output_method=method)).translate(translate_request())

    assert "error" not in result
    assert result["status"] == "success" and result["error_type"] == "none"
    assert result["action"] == {
        "action": "type",
        "element_id": 1,
        "args": {"text": "farmhouse", "submit": True},
        "reasoning": executor_reply()["reasoning"],
    }
    assert len(fake_openai.requests) == 1
    assert (
        "executor_output"
        in json.dumps(
            fake_openai.requests[0].get("response_format") or fake_openai.requests[0].get("tools") or ""
        )
        or method == "json_mode"
    )


async def test_task_complete_maps_answer_and_failure(fake_openai: FakeOpenAIServer, make_context) -> None:
    backend = OpenAIBackend(make_context())
    fake_openai.push(planner_reply(proposedActions=[], taskComplete=True, finalAnswer="$12.50"))
    done = await backend.plan(plan_request())
    assert (
        done["task_complete"] is True and done["final_answer"] == "$12.50" and done["proposed_actions"] == []
    )
    assert done["success"] is True and "failure_reason" not in done

    fake_openai.push(
        planner_reply(proposedActions=[], taskComplete=True, finalAnswer="No such product.", success=False)
    )
    failed = await backend.plan(plan_request())
    assert failed["success"] is False and failed["failure_reason"] == "insufficient_knowledge"


async def test_executor_failure_is_a_result_not_a_guess(fake_openai: FakeOpenAIServer, make_context) -> None:
    fake_openai.push(
        executor_reply(
            status="failure", error_type="element_not_found", element_id=None, message="No checkout button."
        )
    )
    result = await OpenAIBackend(make_context()).translate(translate_request(plan_step="Click Checkout"))
    assert result["action"] is None
    assert result["status"] == "failure" and result["error_type"] == "element_not_found"
    assert result["message"] == "No checkout button."
    assert "error" not in result and len(fake_openai.requests) == 1


async def test_light_normalization(fake_openai: FakeOpenAIServer, make_context) -> None:
    """A string id, null args and a missing reasoning are accepted; navigate drops a stray element id."""
    reply = executor_reply(element_id="5", args={"text": None})
    del reply["reasoning"]
    fake_openai.push(text(json.dumps(reply)))
    backend = OpenAIBackend(make_context())
    result = await backend.translate(translate_request())
    assert result["action"] == {"action": "click", "element_id": 5, "args": {}, "reasoning": ""}

    fake_openai.push(executor_reply(action="navigate", element_id=3, args={"url": "https://shop.test/cart"}))
    result = await backend.translate(translate_request(plan_step="Navigate to https://shop.test/cart"))
    assert result["action"]["element_id"] is None and result["action"]["args"] == {
        "url": "https://shop.test/cart"
    }


# --------------------------------------------------------------------------------------------------------
# Lenient recovery (no re-ask needed)
# --------------------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "wrap",
    [
        lambda j: f"Here is my plan:\n```json\n{j}\n```\nLet me know if you need anything else.",
        lambda j: f"Sure. {j} That is all.",
        lambda j: f"<think>The price is on the page.</think>\n{j}",
        lambda j: j[:-1] + ",}",
    ],
    ids=["fenced", "prose", "think", "trailing-comma"],
)
@pytest.mark.parametrize("method", ["json_schema", "json_mode"])
async def test_prose_and_fenced_json_are_accepted(
    fake_openai: FakeOpenAIServer, make_context, method: str, wrap
) -> None:
    fake_openai.push(text(wrap(json.dumps(planner_reply()))))
    result = await OpenAIBackend(make_context(structured_output_method=method)).plan(plan_request())
    assert "error" not in result, result.get("error")
    assert result["proposed_actions"] == planner_reply()["proposedActions"]
    assert len(fake_openai.requests) == 1


async def test_broken_tool_arguments_are_recovered(fake_openai: FakeOpenAIServer, make_context) -> None:
    fake_openai.push(tool_call(json.dumps(executor_reply())[:-1] + ",}"))
    result = await OpenAIBackend(make_context(structured_output_method="function_calling")).translate(
        translate_request()
    )
    assert result["action"]["element_id"] == 5 and len(fake_openai.requests) == 1


async def test_json_content_without_tool_call_is_recovered(
    fake_openai: FakeOpenAIServer, make_context
) -> None:
    """Local servers that ignore tool_choice answer in content; the object there is still validated and used."""
    fake_openai.push(text(json.dumps(executor_reply())))
    result = await OpenAIBackend(make_context(structured_output_method="function_calling")).translate(
        translate_request()
    )
    assert result["action"]["action"] == "click" and len(fake_openai.requests) == 1


# --------------------------------------------------------------------------------------------------------
# The one re-ask
# --------------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("method", METHODS)
@pytest.mark.parametrize(
    ("bad", "expected_error"),
    [
        ('{"userTask": "price", "proposedActions": [', "not valid JSON"),
        (
            {"proposedActions": "Scroll down", "taskComplete": "no"},
            "at proposedActions: 'Scroll down' is not of type 'array'",
        ),
        ("", "empty"),
        (planner_reply(proposedActions=[]), "proposedActions must hold 1-5 steps"),
        (planner_reply(proposedActions=[f"step {i}" for i in range(6)]), "is too long"),
    ],
    ids=["malformed", "wrong-schema", "empty", "no-steps", "six-steps"],
)
async def test_invalid_plan_is_reasked_with_the_error(
    fake_openai: FakeOpenAIServer, make_context, method: str, bad, expected_error: str
) -> None:
    fake_openai.push(auto(bad), planner_reply())
    result = await OpenAIBackend(make_context(structured_output_method=method)).plan(plan_request())

    assert "error" not in result, result.get("error")
    assert result["proposed_actions"] == planner_reply()["proposedActions"]
    assert len(fake_openai.requests) == 2
    first, second = fake_openai.requests
    reask = _last_message_text(second)
    assert "Validation error" in reask and expected_error in reask
    assert second["messages"][: len(first["messages"])] == first["messages"]
    assert [m["role"] for m in second["messages"]] == ["system", "user", "assistant", "user"]


async def test_function_calling_without_tool_call_is_an_error(
    fake_openai: FakeOpenAIServer, make_context
) -> None:
    fake_openai.push(text("I think we should scroll down."), text("Still no tool call."))
    result = await OpenAIBackend(make_context(structured_output_method="function_calling")).plan(
        plan_request()
    )
    assert result["error_kind"] == "invalid_reply"
    assert "the reply did not call the `planner_output` tool" in result["error"]
    assert "the reply contained no JSON object" in result["error"]

    fake_openai.push(text(""), planner_reply())
    result = await OpenAIBackend(make_context(structured_output_method="function_calling")).plan(
        plan_request()
    )
    assert "error" not in result
    assert "the reply did not call the `planner_output` tool" in _last_message_text(fake_openai.requests[-1])


@pytest.mark.parametrize(
    ("bad", "expected_error"),
    [
        (executor_reply(element_id=99), "element_id 99 is not in the browser state"),
        (executor_reply(action="hover"), "'hover' is not one of"),
        (executor_reply(element_id=None), "action 'click' needs an element_id"),
        (executor_reply(action="type", element_id=1, args={}), "action 'type' needs args.text"),
        (executor_reply(action="go_back", element_id=None), "action 'go_back' is not allowed now"),
        (
            executor_reply(action="switch_tab", element_id=None, args={"tab_id": "t9"}),
            "tab_id 't9' is not an open tab",
        ),
    ],
    ids=["unknown-id", "unknown-action", "missing-id", "missing-text", "not-allowed", "unknown-tab"],
)
async def test_invalid_action_is_reasked(
    fake_openai: FakeOpenAIServer, make_context, bad, expected_error
) -> None:
    fake_openai.push(bad, executor_reply())
    request = translate_request(allowed_actions=["click", "type", "switch_tab"])
    result = await OpenAIBackend(make_context()).translate(request)
    assert result["action"]["element_id"] == 5
    assert expected_error in _last_message_text(fake_openai.requests[1])


@pytest.mark.parametrize("method", METHODS)
async def test_still_invalid_after_reask_is_invalid_reply(
    fake_openai: FakeOpenAIServer, make_context, method: str
) -> None:
    fake_openai.push(auto("not json"), auto('{"oops": true'))
    backend = OpenAIBackend(make_context(structured_output_method=method))
    plan = await backend.plan(plan_request())
    assert plan["error_kind"] == "invalid_reply"
    assert plan["error"].startswith("invalid planner_output reply after one re-ask:")
    assert plan["proposed_actions"] == [] and plan["task_complete"] is False
    assert plan["usage"]["calls"] == 2
    assert len(fake_openai.requests) == 2

    fake_openai.push(executor_reply(element_id=77), executor_reply(element_id=78))
    result = await backend.translate(translate_request())
    assert (
        result["error_kind"] == "invalid_reply" and result["action"] is None and result["status"] == "failure"
    )
    assert "element_id 78 is not in the browser state" in result["error"]
    assert len(fake_openai.requests) == 4
