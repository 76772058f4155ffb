"""Each pure-logic node on its own: called with a state and a Runtime, checked on the update it returns."""

from __future__ import annotations

import json
import time

import pytest
from langgraph.runtime import Runtime

from agent.context import Context
from agent.graph import (
    after_confirm,
    after_goal_check,
    after_planner,
    after_safety,
    after_translate,
    build_graph,
    recursion_limit_for,
)
from agent.nodes.ask_user import ask_user
from agent.nodes.base import validate_action
from agent.nodes.confirm import confirm, parse_decision
from agent.nodes.error_retry import error_retry
from agent.nodes.finalize import finalize
from agent.nodes.goal_check import goal_check, judge_claim
from agent.nodes.loop_mitigation import loop_mitigation
from agent.nodes.observe import loop_signals
from agent.nodes.planner import planner
from agent.nodes.progress import progress
from agent.nodes.safety import safety
from agent.nodes.start import initial_counters
from agent.nodes.translate import translate
from tests.support.factories import trace_records

OBS = {
    "url": "http://127.0.0.1/login.html",
    "title": "Sign in",
    "page_text": "Sign in to Example. Username Password. Blue Widget $19.99",
    "text": '[1] textbox "Username"\n[2] textbox "Password"\n[3] button "Sign in"',
    "elements": [
        {"id": 1, "tag": "input", "role": "textbox", "name": "Username"},
        {"id": 2, "tag": "input", "role": "textbox", "name": "Password", "input_type": "password"},
        {"id": 3, "tag": "button", "role": "button", "name": "Sign in"},
        {"id": 4, "tag": "button", "role": "button", "name": "Delete account"},
    ],
    "scroll": {"y": 0, "height": 900, "viewport_height": 900, "above_px": 0, "below_px": 0},
    "mapping_hash": "m1",
    "candidate_hash": "c1",
    "dom_hash": "d1",
}


def base_state(tmp_path, **extra):
    state = {
        **initial_counters(),
        "goal": "log in as alice with password secret",
        "run_id": "t-run",
        "run_dir": str(tmp_path),
        "started_at": time.time(),
        "elapsed_before": 0.0,
        "stage": "context",
        "goal_kind": "action",
        "task_mode": "browse",
        "observation": OBS,
        "url": OBS["url"],
        "history": [],
        "seq": 0,
    }
    state.update(extra)
    return state


def rt(**ctx):
    return Runtime(context=Context(**ctx))


def trace(tmp_path):
    return trace_records(tmp_path)


async def test_goal_check_budgets_end_the_run(tmp_path):
    update = await goal_check(base_state(tmp_path, steps=5), rt(max_steps=5))
    assert (update["terminal_type"], update["terminal_reason"]) == ("budget_exhausted", "max_steps")
    update = await goal_check(base_state(tmp_path, started_at=time.time() - 100), rt(max_seconds=10))
    assert update["terminal_reason"] == "max_seconds"
    update = await goal_check(base_state(tmp_path, errors=3), rt(max_failures=3))
    assert update["terminal_reason"] == "max_failures"
    update = await goal_check(base_state(tmp_path, usage={"total_tokens": 900}), rt(max_tokens=500))
    assert update["terminal_reason"] == "max_tokens"
    records = trace(tmp_path)
    # every call ran at seq 1 (the same state): the trace keeps one record per seq, so re-runs never duplicate
    assert [(r["node"], r["seq"]) for r in records] == [("goal_check", 1)]


async def test_goal_check_promotes_on_evidence_and_never_demotes(tmp_path):
    state = base_state(tmp_path, stage="orient", goal="find the blue widget price")
    update = await goal_check(state, rt())
    assert update["stage"] == "locate"  # a real page (context) whose text mentions the goal (locate)
    update = await goal_check(base_state(tmp_path, stage="verify", observation={}), rt())
    assert update.get("stage", "verify") == "verify"


def test_judge_claim_needs_evidence():
    answer_state = {"task_mode": "answer", "goal_kind": "object", "observation": OBS, "history": []}
    assert judge_claim(answer_state, {"answer": "$19.99"})["terminal_reason"] == "answer_found"
    assert judge_claim(answer_state, {"answer": "$45.00"})["terminal_reason"] == "answer_not_grounded"
    assert judge_claim(answer_state, {"answer": ""})["terminal_reason"] == "answer_not_found"
    action_state = {"task_mode": "browse", "goal_kind": "action", "observation": OBS, "history": []}
    assert judge_claim(action_state, {"answer": "done"})["terminal_reason"] == "stage_not_advanced"
    # a successful step proves nothing by itself: the goal's parts need recorded effects
    bare = {**action_state, "goal": "click Sign in", "history": [{"status": "success", "action": "click"}]}
    unproven = judge_claim(bare, {"answer": "logged in"})
    assert (unproven["terminal_type"], unproven["terminal_reason"]) == ("goal_failed", "unverified")
    assert unproven["final_answer"] is None and unproven["candidate_answer"] == "logged in"
    assert unproven["missing"]
    clicked = {
        "status": "success",
        "action": "click",
        "step": 1,
        "target": 'button "Sign in"',
        "plan_step": 'Click "Sign in"',
        "effect": {"changed": True, "errors": [], "summary": "appeared: Welcome", "url": OBS["url"]},
    }
    ok = {**bare, "history": [clicked]}
    proven = judge_claim(ok, {"answer": "logged in"})
    assert proven["terminal_type"] == "goal_satisfied"
    assert proven["goal_evidence"][0]["quote"] == "appeared: Welcome"
    failed_last = {**action_state, "history": [{"status": "success"}, {"status": "failure", "message": "x"}]}
    assert judge_claim(failed_last, {"answer": "ok"})["terminal_type"] == "goal_failed"
    gave_up = judge_claim(
        action_state,
        {"answer": "I do not understand", "success": False, "failure_reason": "insufficient_knowledge"},
    )
    assert gave_up["terminal_reason"] == "insufficient_knowledge"


async def test_planner_respects_its_budget(tmp_path):
    update = await planner(base_state(tmp_path, planner_calls=2), rt(max_planner_calls=2))
    assert update["terminal_reason"] == "max_planner_calls"


async def test_goal_check_ends_the_run_before_a_planner_call_over_budget(tmp_path):
    spent = base_state(tmp_path, planner_calls=2)
    update = await goal_check(spent, rt(max_planner_calls=2))
    assert (update["terminal_type"], update["terminal_reason"]) == ("budget_exhausted", "max_planner_calls")
    assert after_goal_check({**spent, **update}) == "finalize"
    queued = base_state(tmp_path, planner_calls=2, plan=['Click "Sign in"'], seq=1)
    update = await goal_check(queued, rt(max_planner_calls=2))
    assert not update.get("terminal_type")  # a queued step needs no planner call: it still runs
    assert after_goal_check({**queued, **update}) == "translate"


async def test_offline_planner_node_queues_steps(tmp_path):
    update = await planner(base_state(tmp_path), rt(planner="rules"))
    assert update["planner_calls"] == 1
    assert 1 <= len(update["plan"]) <= 5
    assert update["current_step"] == update["plan"][0]
    assert after_planner({**update}) == "translate"


async def test_translate_grounds_the_first_step(tmp_path):
    state = base_state(tmp_path, plan=['Type "alice" into "Username"'])
    update = await translate(state, rt(planner="rules"))
    assert update["proposed_action"]["action"] == "type"
    assert update["proposed_action"]["element_id"] == 1
    assert after_translate(update) == "safety"


async def test_translate_failure_is_recorded_and_replanned(tmp_path):
    state = base_state(tmp_path, plan=['Click "Checkout with PayPal"'])
    update = await translate(state, rt(planner="rules"))
    assert update["proposed_action"] is None
    assert update["history"][0]["status"] == "failure"
    assert update["errors"] == 1 and update["plan"] == []
    assert after_translate(update) == "progress"


def test_validate_action():
    allowed = ["click", "type", "navigate", "done"]
    assert validate_action({"action": "click", "element_id": 3, "args": {}}, OBS, allowed) is None
    assert "not in the current observation" in validate_action(
        {"action": "click", "element_id": 99}, OBS, allowed
    )
    assert "unknown action" in validate_action({"action": "hover", "element_id": 3}, OBS, allowed)
    assert "not allowed" in validate_action({"action": "scroll", "element_id": None}, OBS, allowed)
    assert "needs args.url" in validate_action(
        {"action": "navigate", "element_id": None, "args": {}}, OBS, allowed
    )
    assert "needs the id" in validate_action({"action": "click", "element_id": "3"}, OBS, allowed)
    assert validate_action("click", OBS, allowed)


async def test_safety_routes_by_risk(tmp_path):
    risky = base_state(tmp_path, proposed_action={"action": "click", "element_id": 4, "args": {}})
    update = await safety(risky, rt())
    assert update["action_risk"] == "high" and after_safety(update) == "confirm"
    blocked = base_state(
        tmp_path,
        proposed_action={"action": "navigate", "element_id": None, "args": {"url": "file:///etc/passwd"}},
    )
    update = await safety(blocked, rt())
    assert update["action_risk"] == "blocked" and after_safety(update) == "progress"
    assert update["history"][0]["error_type"] == "navigation_blocked"


async def test_confirm_policies_without_a_person(tmp_path):
    state = base_state(
        tmp_path, proposed_action={"action": "click", "element_id": 4, "args": {}}, risk_reasons=["delete"]
    )
    assert (await confirm(state, rt(confirm_policy="auto")))["confirmation"] == "auto"
    denied = await confirm(state, rt(confirm_policy="ask", interactive=False))
    assert denied["confirmation"] == "denied" and denied["terminal_reason"] == "user_declined"
    assert after_confirm(denied) == "finalize"
    assert (await confirm(state, rt(confirm_policy="deny", interactive=True)))["confirmation"] == "denied"


@pytest.mark.parametrize(
    ("answer", "decision"),
    [
        (True, "approved"),
        ("yes", "approved"),
        ({"decision": "approve"}, "approved"),
        (False, "denied"),
        ("", "denied"),
        (None, "denied"),
        ({"decision": "maybe"}, "denied"),
        ("sure, go ahead", "denied"),
    ],
)
def test_parse_decision_denies_anything_unclear(answer, decision):
    assert parse_decision(answer)[0] == decision


async def test_ask_user_without_prompts_stops_with_a_reason(tmp_path):
    state = base_state(
        tmp_path,
        proposed_action={"action": "ask_user", "element_id": None, "args": {"question": "Which account?"}},
    )
    update = await ask_user(state, rt(interactive=False))
    assert update["terminal_reason"] == "user_input_required"
    assert "Which account?" in update["stop_reason"]


async def test_error_retry_gives_one_retry_then_a_terminal(tmp_path):
    error = {"source": "planner", "kind": "invalid_reply", "message": "bad json"}
    first = await error_retry(base_state(tmp_path, pending_error=error), rt())
    assert first["retry_used"] is True and not first.get("terminal_type")
    assert any("bad json" in hint for hint in first["hints"])
    second = await error_retry(base_state(tmp_path, pending_error=error, retry_used=True), rt())
    assert (second["terminal_type"], second["terminal_reason"]) == ("goal_failed", "model_error")


async def test_progress_counts_repeats(tmp_path):
    action = {"action": "click", "element_id": 3, "args": {}}
    state = base_state(
        tmp_path,
        proposed_action=action,
        last_result={"action": "click", "status": "success"},
        history=[{"status": "success", "action": "click", "target": "button"}],
    )
    first = await progress(state, rt())
    second = await progress({**state, **first, "proposed_action": action}, rt())
    assert first["repeat_count"] == 0 and second["repeat_count"] == 1
    assert 0 <= second["progress_score"] <= 1


def test_loop_signals_detect_a_frozen_world():
    state = {
        "url": "u",
        "dom_hash": "d",
        "candidate_hash": "c",
        "mapping_hash": "m",
        "no_progress_steps": 1,
        "stagnation_count": 3,
        "last_result": {"action": "click", "status": "success"},
        "repeat_count": 0,
    }
    same = {"url": "u", "dom_hash": "d", "candidate_hash": "c", "mapping_hash": "m"}
    signals = loop_signals(state, same, Context())
    assert signals["world_frozen"] and signals["loop_trigger"] == "world_frozen"
    typed = {**state, "last_result": {"action": "type", "status": "success"}}
    assert not loop_signals(typed, same, Context())["world_frozen"]  # typing changes values, not structure
    moved = loop_signals(state, {**same, "url": "v", "mapping_hash": "n"}, Context())
    assert moved["loop_trigger"] is None and moved["stagnation_count"] == 0


async def test_loop_mitigation_escalates_then_gives_up(tmp_path):
    spent = base_state(tmp_path, loop_trigger="repeat", auto_scrolls_used=2)
    update = await loop_mitigation(spent, rt(max_auto_scrolls=2))
    assert (update["terminal_type"], update["terminal_reason"]) == ("loop_stuck", "repeated_action")
    conservative = base_state(
        tmp_path,
        loop_trigger="stagnation",
        auto_scrolls_used=0,
        proposed_action={"action": "click", "element_id": 3, "args": {}},
    )
    update = await loop_mitigation(conservative, rt(max_auto_scrolls=2))
    assert update["auto_scrolls_used"] == 1 and 3 in update["avoid_elements"] and update["plan"] == []
    assert not update.get("terminal_type")


async def test_finalize_normalizes_and_writes_the_result(tmp_path):
    update = await finalize(
        base_state(tmp_path, terminal_type="goal_satisfied", terminal_reason="max_steps"), rt()
    )
    assert (update["terminal_type"], update["terminal_reason"]) == ("budget_exhausted", "max_steps")
    result = json.loads((tmp_path / "result.json").read_text())
    assert result["terminal_type"] == "budget_exhausted" and result["run_id"] == "t-run"
    assert (tmp_path / "report.html").exists()


async def test_a_crashing_node_becomes_a_recorded_terminal(tmp_path):
    state = base_state(tmp_path, history=[None])  # a corrupted history entry: progress trips over it
    update = await progress(state, rt())
    assert update["terminal_type"] == "goal_failed" and update["terminal_reason"] == "node_error"
    assert "progress failed" in update["stop_reason"]
    assert "Traceback" in trace(tmp_path)[-1]["note"]


def test_routing_and_limits():
    assert after_goal_check({"plan": ["a"]}) == "translate"
    assert after_goal_check({"plan": []}) == "planner"
    assert after_goal_check({"terminal_type": "loop_stuck"}) == "finalize"
    assert recursion_limit_for(30) > 30 * 10
    graph = build_graph()
    assert {
        "observe",
        "loop_mitigation",
        "goal_check",
        "planner",
        "translate",
        "safety",
        "confirm",
        "execute",
        "progress",
        "ask_user",
        "error_retry",
    } <= set(graph.get_graph().nodes)


async def test_auto_done_ends_a_verified_action_goal_only_when_enabled(tmp_path):
    done = [
        {
            "status": "success",
            "action": "type",
            "step": 1,
            "target": 'textbox "Username"',
            "args": {"text": "alice"},
            "effect": {"changed": True, "errors": [], "target": {"value": "alice"}},
        },
        {
            "status": "success",
            "action": "type",
            "step": 2,
            "target": 'textbox "Password"',
            "args": {"text": "secret"},
            "effect": {
                "changed": True,
                "errors": [],
                "target": {"value": "••••••", "value_len": 6, "secret": True},
            },
        },
        {
            "status": "success",
            "action": "click",
            "step": 3,
            "target": 'button "Sign in"',
            "args": {},
            "effect": {"changed": True, "errors": [], "appeared": ["Welcome, alice"], "summary": "appeared"},
        },
    ]
    state = base_state(tmp_path, stage="verify", history=done, plan=[])
    assert not (await goal_check(state, rt())).get("terminal_type")
    update = await goal_check(state, rt(auto_done=True))
    assert (update["terminal_type"], update["terminal_reason"]) == ("goal_satisfied", "action_verified")
    # a click with no recorded effect proves no login: the run is not satisfied
    unproven = base_state(tmp_path, stage="verify", history=done[-1:], plan=[])
    assert (await goal_check(unproven, rt(auto_done=True)))["terminal_reason"] == "unverified"
    queued = base_state(tmp_path, stage="verify", history=done, plan=['Click "Next"'])
    assert not (await goal_check(queued, rt(auto_done=True))).get("terminal_type")


def test_an_answer_that_only_repeats_the_goal_is_not_evidence():
    goal = "Find the email by Audrey and forward that email to Hedy."
    obs = {**OBS, "page_text": "Task: Find the email by Audrey and forward that email to Hedy. Inbox ..."}
    state = {"task_mode": "find", "goal_kind": "object", "goal": goal, "observation": obs, "history": []}
    verdict = judge_claim(state, {"answer": "Find the email by Audrey and forward that email to Hedy."})
    assert verdict["terminal_type"] == "goal_failed"


async def test_failure_budget_says_what_kept_failing(tmp_path):
    history = [{"status": "failure", "message": 'no field "date" on the page', "action": "translate"}]
    update = await goal_check(base_state(tmp_path, errors=3, history=history), rt(max_failures=3))
    assert update["terminal_reason"] == "max_failures"
    assert 'no field "date"' in update["stop_reason"]
