"""The per-run Runtime: the planning backend (model client, prompts) is built once per run, not per call."""

from __future__ import annotations

import asyncio

from agent import runtime
from agent.context import Context
from agent.planning.offline import RulesBackend


async def test_a_whole_run_builds_its_backend_once(run, monkeypatch):
    built: list[str] = []
    real = runtime.backend_for

    def counting(ctx):
        built.append(ctx.planner)
        return real(ctx)

    monkeypatch.setattr(runtime, "backend_for", counting)
    result, records = await run("log in as alice with password secret", "/login.html")
    calls = [r for r in records if r["node"] in ("planner", "translate")]
    assert result["terminal_type"] == "goal_satisfied"
    assert len(calls) >= 3, "the run asked its backend several times"
    assert built == ["rules"]
    assert result["run_id"] not in runtime._runtimes, "finalize releases the run's Runtime"


async def test_runtime_is_kept_per_run_and_rebuilt_when_settings_change():
    ctx = Context(planner="rules")
    state = {"run_id": "rt-test-1"}
    first = await runtime.runtime_for(state, ctx)
    assert isinstance(first.backend, RulesBackend)
    assert first.call_timeout_s == runtime.RULES_CALL_TIMEOUT_S
    assert await runtime.runtime_for(state, Context(planner="rules")) is first  # equal settings: reused
    other = await runtime.runtime_for({"run_id": "rt-test-2"}, ctx)
    assert other is not first  # another run, its own services
    changed = await runtime.runtime_for(state, Context(planner="rules", max_steps=3))
    assert changed is not first  # a resume with overrides gets services built for them
    runtime.release("rt-test-1")
    runtime.release("rt-test-2")
    assert "rt-test-1" not in runtime._runtimes and "rt-test-2" not in runtime._runtimes


def test_a_run_continued_on_another_event_loop_gets_new_clients():
    ctx = Context(planner="rules")
    state = {"run_id": "rt-test-loop"}
    first = asyncio.run(runtime.runtime_for(state, ctx))
    second = asyncio.run(runtime.runtime_for(state, ctx))
    assert second is not first and second.loop is not first.loop
    runtime.release("rt-test-loop")


def test_the_model_backend_gets_a_bound_covering_its_retries():
    ctx = Context(planner="openai", model="m", base_url="http://127.0.0.1:9", model_timeout_s=2.0)
    assert runtime.call_timeout(ctx) > 2 * 2.0
