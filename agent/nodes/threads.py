"""What a run keeps across the calls that drive it: its settings, and records of its own when it is forked.

**Settings.** ``start`` stores the run's settings (minus the API key) in state (``settings``). A later call that
sends none - approving a paused run in Studio, an embedding app resuming with ``Command(resume=...)`` alone -
runs with them instead of the defaults.

**LangGraph Server** (``langgraph dev``, Studio, a deployment) is recognised by the run metadata the LangGraph
API puts on every run it executes (``langgraph_host``, ``langgraph_api_url``). The API turns the run's context
into a ``Context`` with every field filled in, and mirrors the keys the caller actually sent into
``config["configurable"]``: those keys are the settings given, laid over the stored ones. A person is present
there (Studio shows the interrupt and its buttons), so ``interactive`` is on unless the caller turned it off.
Outside the server (the CLI, ``run_goal``, an embedding app) settings are taken as passed.

**Copies.** A run going on in a copy of its thread (``threads.copy``) records under the copy's thread id,
starting from a copy of the original's records, so the two threads never share records or a browser.

**Forks.** A run continued from an earlier checkpoint of its thread (Studio's "fork" and "re-run from here":
``update_state`` or a run with ``checkpoint_id``) finds its trace already going on past the step it is about
to take. Its records then go to a directory of its own, ``<run_id>.from-<seq>`` (``-2``, ``-3`` ... for later
forks from the same step), which starts with a copy of the original's records up to the fork; the original's
records are never touched. Nothing recorded by the original is replayed in the fork (``execute`` replays a
result only from the run's own trace), and an approval given in the original does not carry over: a risky
action the fork reaches without its own approval is refused and asked for again. Nor does the original's proof:
the fork's browser never saw the effects of the steps before the fork, so ``goal_check`` proves a claim only on
steps the fork ran itself (``forked_from["steps"]``).
"""

from __future__ import annotations

import functools
import hashlib
import json
from dataclasses import asdict, fields
from pathlib import Path
from typing import Any

from agent.config import context_from_any
from agent.context import Context
from agent.records import known_recorder, read_trace, recorder_for, valid_run_id
from agent.runtime import run_config, served_by_langgraph_api

_FIELDS = frozenset(f.name for f in fields(Context))


def settings_snapshot(ctx: Context) -> dict[str, Any]:
    """The settings stored with a run: plain values, never the API key or the secrets."""
    data = asdict(ctx)
    for secret in ("api_key", "secrets"):  # never in a checkpoint: a resume must send them again
        data.pop(secret, None)
    return data


def run_context(raw: Any, state: dict[str, Any]) -> Context:
    """The settings a node runs with (see the module doc). Raises ConfigError for a bad value or type."""
    stored = state.get("settings") or None
    config = run_config()
    if served_by_langgraph_api(config):
        configurable = config.get("configurable") or {}
        given = {k: v for k, v in configurable.items() if k in _FIELDS and k != "run_id"}
        if isinstance(raw, Context) and raw.run_id:
            given["run_id"] = raw.run_id  # configurable["run_id"] is the server's own run id
        base = dict(stored) if stored else {"interactive": True}  # a person is present
        return _validated({**base, **given})
    if raw is None and stored:
        return _validated(stored)
    return context_from_any(raw)


@functools.lru_cache(maxsize=64)
def _validated_json(settings_json: str) -> Context:
    return context_from_any(json.loads(settings_json))


def _validated(settings: dict[str, Any]) -> Context:
    """``context_from_any`` for a mapping of plain values, validated once per distinct mapping."""
    try:
        key = json.dumps(settings, sort_keys=True)
    except (TypeError, ValueError):
        return context_from_any(settings)
    return _validated_json(key)


def fallback_context(state: dict[str, Any]) -> Context:
    """Settings to finish a run with when the ones passed cannot be used: the stored ones, else defaults."""
    try:
        return context_from_any(state.get("settings") or None)
    except Exception:  # noqa: BLE001 - stored settings from an older version: defaults still end the run
        return Context()


# ---------------------------------------------------------------------------------------------------------
# forks


def _goes_past(run_id: str, run_dir: Path, seq: int, node: str) -> bool:
    """True when ``run_dir``'s trace already holds steps after this one: the run is replaying its history.

    A record for this very step by this very node alone is a step cut off by a crash (its checkpoint was not
    saved); that is the same run going on, and ``execute`` reuses such a record instead of acting twice.
    """
    if not (run_dir / "trace.jsonl").exists():
        return False
    recorder = recorder_for(run_id, run_dir)
    if recorder.has(seq + 2):
        return True
    if not recorder.has(seq + 1):
        return False
    return (recorder.record(seq + 1) or {}).get("node") != node


def known_not_forked(state: dict[str, Any], ctx: Context) -> bool:
    """True when this process's own records show the run simply going on (no copied thread, no step after
    this one in its trace): :func:`fork_update` would return {}, and the disk need not be asked."""
    run_id = run_id_of(state, ctx)
    if not run_id or not state.get("run_dir"):
        return False
    thread = current_thread_id()
    if state.get("thread_id") and thread and thread != state.get("thread_id"):
        return False
    recorder = known_recorder(str(run_id), str(state["run_dir"]))
    seq = int(state.get("seq", 0))
    return recorder is not None and not recorder.has(seq + 1) and not recorder.has(seq + 2)


def fork_update(node: str, state: dict[str, Any], ctx: Context) -> dict[str, Any]:
    """State keys that move a run replaying its thread's history, or going on in a copy of its thread, to
    records of its own ({} when it is neither).

    Blocking file I/O: call it off the event loop.
    """
    run_id = run_id_of(state, ctx)
    if not run_id or not valid_run_id(str(run_id)):
        return {}
    run_dir = Path(state.get("run_dir") or Path(ctx.record_dir) / str(run_id))
    seq = int(state.get("seq", 0))
    thread = current_thread_id()
    copied = bool(state.get("thread_id")) and bool(thread) and thread != state.get("thread_id")
    fork_id = _copy_run_id(run_dir, str(run_id), seq, node) if copied else None
    if fork_id is None:
        if not _goes_past(str(run_id), run_dir, seq, node):
            return {"thread_id": thread} if copied else {}
        fork_id = _fork_run_id(run_dir, str(run_id), seq, node)
    return {
        "run_id": fork_id,
        "run_dir": str(run_dir.parent / fork_id),
        # ``steps``: the actions recorded before the fork, run by the original in its browser, not by this one
        "forked_from": {"run_id": str(run_id), "seq": seq, "steps": int(state.get("steps", 0))},
        "confirmation": None,  # an approval given in the original run does not carry over
        **({"thread_id": thread} if thread else {}),
    }


def _copy_run_id(run_dir: Path, run_id: str, seq: int, node: str) -> str | None:
    """A run going on in a copied thread records under the copy's own run id (None if that is taken)."""
    copy_id = thread_run_id()
    if not copy_id or not valid_run_id(copy_id):
        return None
    copy_dir = run_dir.parent / copy_id
    if not (copy_dir / "trace.jsonl").exists():
        _start_fork(run_dir, copy_dir, run_id, seq)
        return copy_id
    return None if _goes_past(copy_id, copy_dir, seq, node) else copy_id


def _fork_run_id(run_dir: Path, run_id: str, seq: int, node: str) -> str:
    """``<run_id>.from-<seq>`` (``-2``, ``-3`` ... for later forks from the same step), created if new."""
    base = f"{run_id}.from-{seq}"
    for n in range(1, 1000):
        fork_id = base if n == 1 else f"{base}-{n}"
        fork_dir = run_dir.parent / fork_id
        if not (fork_dir / "trace.jsonl").exists():
            _start_fork(run_dir, fork_dir, run_id, seq)
            return fork_id
        if not _goes_past(fork_id, fork_dir, seq, node):
            return fork_id  # this fork's own earlier call (e.g. before an interrupt): go on in it
    raise RuntimeError(f"too many forks of run {run_id} at step {seq}")


def _start_fork(run_dir: Path, fork_dir: Path, run_id: str, seq: int) -> None:
    """The fork's directory: the original's records up to the fork, and run.json saying where it came from."""
    fork_dir.mkdir(parents=True, exist_ok=True)
    kept = [r for r in read_trace(run_dir / "trace.jsonl") if int(r.get("seq", 0)) <= seq]
    lines = "".join(json.dumps({**r, "run_id": fork_dir.name}, ensure_ascii=True) + "\n" for r in kept)
    (fork_dir / "trace.jsonl").write_text(lines, encoding="utf-8")
    meta_path = run_dir / "run.json"
    meta = json.loads(meta_path.read_text(encoding="utf-8")) if meta_path.exists() else {}
    meta.update(run_id=fork_dir.name, forked_from={"run_id": run_id, "seq": seq})
    (fork_dir / "run.json").write_text(json.dumps(meta, indent=2), encoding="utf-8")


def run_id_of(state: dict[str, Any], ctx: Context) -> str | None:
    """The run's id: from state once ``start`` set it; before that, the one ``start`` will choose."""
    return state.get("run_id") or ctx.run_id or thread_run_id()


def current_thread_id() -> str | None:
    """The LangGraph thread this call runs on (None outside a threaded run)."""
    thread_id = (run_config().get("configurable") or {}).get("thread_id")
    return str(thread_id) if thread_id else None


def thread_run_id() -> str | None:
    """The LangGraph thread id; embedded as a subgraph, the thread id plus a tag of the parent's task.

    One parent thread may run this graph several times (two nodes, a loop): each run needs its own id, or the
    runs would share a record directory and the trace (which ``execute`` reads to avoid repeating an action
    after a resume) of an earlier run. The parent's task namespace is stable across interrupts and resumes.
    """
    configurable = run_config().get("configurable") or {}
    thread_id = configurable.get("thread_id")
    parent_ns = str(configurable.get("checkpoint_ns") or "").rpartition("|")[0]  # "" at the top level
    if thread_id and parent_ns:
        return f"{thread_id}.{hashlib.sha1(parent_ns.encode()).hexdigest()[:8]}"
    return str(thread_id) if thread_id else None
