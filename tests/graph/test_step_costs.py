"""What keeps a graph step cheap must not change what is recorded: records written in place stay in order
after queued ones, the fork check that skips the disk agrees with the one that reads it, and loop_mitigation is
skipped only when observe found no loop."""

from __future__ import annotations

import threading
import time
from pathlib import Path

from agent.context import Context
from agent.graph import after_observe
from agent.nodes.threads import fork_update, known_not_forked
from agent.records import append_soon, inline_record_writes, read_trace, records_written, write_soon


def test_loop_mitigation_runs_only_when_observe_found_a_loop():
    assert after_observe({"loop_trigger": None}) == "goal_check"
    assert after_observe({"loop_trigger": "repeat"}) == "loop_mitigation"
    assert after_observe({"loop_trigger": "repeat", "terminal_type": "loop_stuck"}) == "finalize"


async def test_a_record_written_in_place_waits_for_the_ones_queued_before_it(tmp_path):
    run_dir = tmp_path / "r1"
    gate = threading.Event()
    queued = write_soon(gate.wait)  # the records thread is busy: later writes must queue behind it
    with inline_record_writes():
        first = append_soon("r1", run_dir, {"run_id": "r1", "seq": 1, "node": "start"})
        assert not first.done()  # not written in place while an earlier write is pending
        gate.set()
        await records_written()
        second = append_soon("r1", run_dir, {"run_id": "r1", "seq": 2, "node": "observe"})
        assert second.done() and second.result() is True  # nothing pending: written before append returned
    assert queued.done()
    assert [r["seq"] for r in read_trace(run_dir / "trace.jsonl")] == [1, 2]


async def test_outside_the_runner_records_go_to_the_records_thread(tmp_path):
    seen: list[str] = []
    write_soon(lambda: seen.append(threading.current_thread().name)).result(5)
    with inline_record_writes():
        write_soon(lambda: seen.append(threading.current_thread().name)).result(5)
    assert seen[0].startswith("wayfinder-records") and seen[1] == threading.current_thread().name


async def test_the_fork_check_without_the_disk_agrees_with_the_one_that_reads_it(tmp_path):
    ctx = Context(record_dir=str(tmp_path))
    run_dir = tmp_path / "run1"
    state = {"run_id": "run1", "run_dir": str(run_dir), "seq": 2}
    assert not known_not_forked(state, ctx)  # no records yet in this process: only the files can tell
    for seq, node in ((1, "start"), (2, "observe")):
        append_soon("run1", run_dir, {"run_id": "run1", "seq": seq, "node": node, "ts": time.time()})
    await records_written()
    assert known_not_forked(state, ctx) and fork_update("goal_check", state, ctx) == {}
    # a replay from step 1, with step 2 already recorded: a fork, and the quick check must not say otherwise
    replay = {**state, "seq": 1}
    assert not known_not_forked(replay, ctx)
    fork = fork_update("goal_check", replay, ctx)
    assert fork["run_id"] == "run1.from-1" and Path(fork["run_dir"]).name == "run1.from-1"
    # the step cut off by a crash (its record written, its checkpoint not) is the same run going on
    assert not known_not_forked(replay, ctx) and fork_update("observe", replay, ctx) == {}


async def test_progress_events_go_to_the_runners_listener_directly_and_to_the_stream_otherwise():
    """The runner listens in-process (events_to), so it streams only updates: a custom stream mode makes every
    graph step wait on the stream as well. A graph embedded elsewhere still gets its events as custom parts."""
    from typing import TypedDict

    from langgraph.graph import END, START, StateGraph

    from agent.nodes.base import emit
    from agent.runtime import events_to

    class S(TypedDict, total=False):
        n: int

    async def node(state: S) -> S:
        emit({"event": "node", "n": 1})
        return {"n": 1}

    builder = StateGraph(S)
    builder.add_node("one", node)
    builder.add_edge(START, "one")
    builder.add_edge("one", END)
    graph = builder.compile()

    heard: list[dict] = []
    with events_to(heard.append):
        parts = [p async for p in graph.astream({}, stream_mode=["updates", "custom"], version="v2")]
    assert heard == [{"event": "node", "n": 1}]
    assert [p["type"] for p in parts] == ["updates"]
    parts = [p async for p in graph.astream({}, stream_mode=["updates", "custom"], version="v2")]
    assert [p["data"] for p in parts if p["type"] == "custom"] == [{"event": "node", "n": 1}]


async def test_routers_choose_as_plain_functions_and_trace_no_run_of_their_own(tmp_path):
    """A conditional edge's router is not a traced run (a callback run per edge taken cost each action
    milliseconds); the nodes still are, and the route taken is the same."""
    from langchain_core.callbacks import AsyncCallbackHandler

    from agent.graph import build_graph
    from tests.support.factories import offline_context

    class Runs(AsyncCallbackHandler):
        def __init__(self) -> None:
            self.names: list[str] = []

        async def on_chain_start(self, serialized, inputs, *, name=None, **kwargs) -> None:  # noqa: ANN001
            self.names.append(str(name or (serialized or {}).get("name")))

    runs = Runs()
    graph = build_graph()
    ctx = offline_context(tmp_path / "runs", max_steps=1)
    result = await graph.ainvoke(
        {"goal": "what is 2+2", "start_url": "about:blank"}, {"callbacks": [runs]}, context=ctx
    )
    assert result["terminal_type"]
    assert {"start", "observe", "finalize"} <= set(runs.names)
    assert not [name for name in runs.names if name.startswith(("after_", "to_"))], runs.names
