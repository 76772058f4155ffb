"""Threads under LangGraph Server keep their word: a paused run remembers how it was started, a fork acts again in
records of its own, and no browser outlives its run (cancel, thread delete, idle timeout).

Driven through ``langgraph_sdk`` against the session's ``langgraph dev`` (tests/studio/conftest.py). The account
page's server counts every real click of "Delete account"; the server's Chromiums are counted by their profile
path (under the server's own TMPDIR).
"""

from __future__ import annotations

import asyncio
import threading
import time
from pathlib import Path

from langgraph_sdk import get_client
from langgraph_sdk.schema import Command

from agent.util.static_server import StaticServer
from tests.embedding.site import PAGES, account_site
from tests.studio.conftest import GRAPH_ID, custom_events, no_blocking_errors, stream_run, updates

GOAL = "click Delete account"


def _interrupt_types(parts: list) -> list[str]:
    return [i["value"]["type"] for u in updates(parts) if "__interrupt__" in u for i in u["__interrupt__"]]


def _steps(parts: list) -> list[tuple[str, str]]:
    return [(e["action"], e["status"]) for e in custom_events(parts) if e.get("event") == "step"]


async def test_approving_with_no_settings_runs_once_and_a_fork_acts_again_in_its_own_records(
    dev_server, context
):
    client = get_client(url=dev_server.url)
    with account_site() as site:
        thread_id = (await client.threads.create())["thread_id"]
        # Neither `interactive` nor `confirm_policy` is sent: under the server a person is present, so it asks.
        parts = await stream_run(
            client, thread_id, context=context, input={"goal": GOAL, "start_url": site.url}
        )
        assert _interrupt_types(parts) == ["confirm"]
        assert site.deletions == 0
        copy_id = (await client.threads.copy(thread_id))[
            "thread_id"
        ]  # a copy of the paused thread, for later

        # Approve with no settings at all, as Studio's "continue" does: the run goes on with its own settings.
        parts = await stream_run(client, thread_id, command=Command(resume={"decision": "approve"}))
        assert _steps(parts) == [("click", "success")]
        values = (await client.threads.get_state(thread_id))["values"]
        assert (values["terminal_type"], values["terminal_reason"]) == ("goal_satisfied", "action_verified")
        assert site.deletions == 1  # exactly once
        run_dir = Path(context["record_dir"]) / thread_id  # the stored record_dir was used, not the default
        assert values["run_dir"] == str(run_dir)
        original = {name: (run_dir / name).read_bytes() for name in ("trace.jsonl", "result.json")}

        # Re-run from the checkpoint just before the click ran (Studio's "re-run from here").
        history = await client.threads.get_history(thread_id, limit=200)
        before_click = next(h for h in history if h["next"] == ["execute"])
        parts = await stream_run(
            client, thread_id, input=None, checkpoint_id=before_click["checkpoint"]["checkpoint_id"]
        )
        state = await client.threads.get_state(thread_id)
        # The approval belonged to the original run: the fork does not replay the click or claim it; it asks.
        assert site.deletions == 1
        assert state["values"].get("terminal_type") != "goal_satisfied"
        assert _interrupt_types(parts) == ["confirm"] and state["interrupts"]
        forks = list(
            run_dir.parent.glob(f"{thread_id}.from-*")
        )  # the fork's records have a home of their own
        assert len(forks) == 1
        fork_dir = forks[0]

        # Approved in the fork, the click runs again (once), recorded in the fork's own directory.
        parts = await stream_run(client, thread_id, command=Command(resume={"decision": "approve"}))
        values = (await client.threads.get_state(thread_id))["values"]
        assert site.deletions == 2
        assert (values["terminal_type"], values["run_dir"]) == ("goal_satisfied", str(fork_dir))
        assert "Account deleted (1)" in values["final_answer"]  # what the fork's own (new) page showed
        assert (fork_dir / "result.json").is_file()
        assert {name: (run_dir / name).read_bytes() for name in original} == original  # untouched

        # The copy, approved with no settings, acts in records (and a browser) of its own.
        parts = await stream_run(client, copy_id, command=Command(resume={"decision": "approve"}))
        values = (await client.threads.get_state(copy_id))["values"]
        assert site.deletions == 3
        assert (values["terminal_type"], values["run_dir"]) == (
            "goal_satisfied",
            str(run_dir.parent / copy_id),
        )
        assert {name: (run_dir / name).read_bytes() for name in original} == original
        for thread in (thread_id, copy_id):
            await client.threads.delete(thread)
    no_blocking_errors(dev_server)


async def test_no_chromium_outlives_a_cancel_a_thread_delete_or_an_idle_timeout(dev_server, context):
    client = get_client(url=dev_server.url)
    assert dev_server.wait_for_no_chromium() == []  # what earlier tests started is gone
    slow_hit = threading.Event()

    def slow(_handler: object) -> tuple[int, dict[str, str], bytes]:
        slow_hit.set()
        time.sleep(10)
        return 200, {"Content-Type": "text/html"}, b"<title>late</title>"

    with StaticServer(PAGES, routes={"/slow": slow}) as pages, account_site() as site:
        # A run cancelled while its browser waits for a page.
        thread_id = (await client.threads.create())["thread_id"]
        run = await client.runs.create(
            thread_id, GRAPH_ID, context=context, input={"goal": GOAL, "start_url": pages.base_url + "/slow"}
        )
        assert await asyncio.to_thread(slow_hit.wait, 30), "the run never reached the page"
        assert dev_server.chromium_processes()
        await client.runs.cancel(thread_id, run["run_id"])
        assert await asyncio.to_thread(dev_server.wait_for_no_chromium) == []

        # A thread deleted while it waits for an approval.
        thread_id = (await client.threads.create())["thread_id"]
        parts = await stream_run(
            client, thread_id, context=context, input={"goal": GOAL, "start_url": site.url}
        )
        assert _interrupt_types(parts) == ["confirm"] and dev_server.chromium_processes()
        await client.threads.delete(thread_id)
        assert await asyncio.to_thread(dev_server.wait_for_no_chromium) == []

        # A paused thread left alone past the idle timeout; approved later, it reopens the page and acts once.
        thread_id = (await client.threads.create())["thread_id"]
        idle_context = {**context, "browser_idle_timeout_s": 1}
        parts = await stream_run(
            client, thread_id, context=idle_context, input={"goal": GOAL, "start_url": site.url}
        )
        assert _interrupt_types(parts) == ["confirm"]
        assert await asyncio.to_thread(dev_server.wait_for_no_chromium) == []
        parts = await stream_run(client, thread_id, command=Command(resume={"decision": "approve"}))
        values = (await client.threads.get_state(thread_id))["values"]
        assert values["terminal_type"] == "goal_satisfied" and site.deletions == 1
        assert await asyncio.to_thread(dev_server.wait_for_no_chromium) == []  # finalize closed it
    no_blocking_errors(dev_server)
