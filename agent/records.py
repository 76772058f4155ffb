"""Run records on disk: ``<record_dir>/<run_id>/`` with trace.jsonl, result.json, screenshots/, downloads/.

The trace is append-only and keyed by ``seq`` (the state's record counter): a node that re-runs after a
resume writes the same seq again, and the recorder keeps the first copy, so no step is recorded twice.

Besides the records proper, a run directory holds two small bookkeeping files:

- ``status.json``: what the run is doing now (``running`` with the process id, ``paused`` at a question with
  the question, ``stopped``, ``finished``); ``python -m agent runs`` and ``resume`` read it;
- ``inflight.json``: the action ``execute`` is about to run (written, fsync'ed, before it acts), so a run
  resumed after a crash knows an action may have happened even though its trace record is missing; when the
  run is stopped (Ctrl-C, SIGTERM, a cancelled task) while the action runs, the action finishes and its
  result is noted here as ``completed``, so the resumed run replays it instead of acting again. A finished run
  has none.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import re
import secrets
import threading
import time
from collections.abc import Callable, Iterator
from concurrent.futures import Future, ThreadPoolExecutor
from contextvars import ContextVar
from pathlib import Path
from typing import Any

from agent.terminals import GOAL_SATISFIED
from agent.trace_file import append_line
from agent.types import TraceRecord
from agent.util.secrets import Secrets, secrets_of_run

_RUN_ID_RE = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.-]{0,80}$")


def new_run_id() -> str:
    """Sortable, unique, file-name-safe run id: 20261122-015036-3f9a1c."""
    return time.strftime("%Y%m%d-%H%M%S", time.gmtime()) + "-" + secrets.token_hex(3)


def valid_run_id(run_id: str) -> bool:
    """Run ids become directory names: no separators, no dot-dot, bounded length."""
    return bool(_RUN_ID_RE.match(run_id)) and ".." not in run_id


def _json_default(value: Any) -> Any:
    if isinstance(value, Path):
        return str(value)
    if isinstance(value, set | frozenset | tuple):
        return list(value)
    return repr(value)


class RunRecorder:
    """Writes one run's records. Thread-safe; safe to reopen for a resumed run."""

    def __init__(self, run_dir: Path, masking: Secrets | None = None):
        self.run_dir = Path(run_dir)
        #: The run's secrets: every record is masked with them before it is written (the nodes mask first;
        #: this is the last line, so no value reaches the disk even from a record a node built carelessly).
        self.masking = masking or Secrets()
        self.run_dir.mkdir(parents=True, exist_ok=True)
        (self.run_dir / "screenshots").mkdir(exist_ok=True)
        self.trace_path = self.run_dir / "trace.jsonl"
        self.result_path = self.run_dir / "result.json"
        self._lock = threading.Lock()
        self._seen: set[int] = set()
        #: The trace's size when this recorder last knew every seq in it: a file of that size holds no record
        #: it has not seen, so asking for one needs no read (execute asks on every step).
        self._known_size = -1
        self._rescan()

    def _rescan(self) -> list[dict[str, Any]]:
        size = _file_size(self.trace_path)  # before reading: a line added meanwhile makes the sizes differ
        records = read_trace(self.trace_path)
        self._seen |= {rec.get("seq", -1) for rec in records}
        self._known_size = max(size, 0)  # no file yet: an empty one holds nothing unseen either
        return records

    @property
    def screenshots_dir(self) -> Path:
        return self.run_dir / "screenshots"

    def has(self, seq: int) -> bool:
        return seq in self._seen

    def record(self, seq: int) -> TraceRecord | None:
        """The record already written for ``seq`` (used to avoid repeating a side effect on resume)."""
        wait_records_written()
        with self._lock:
            if seq not in self._seen and _file_size(self.trace_path) == self._known_size:
                return None  # no line it has not seen: no read of the whole trace on every step
            records = self._rescan()  # written by another process (a resume elsewhere), or asked by seq
        for rec in records:
            if rec.get("seq") == seq:
                return rec  # type: ignore[return-value]
        return None

    def append(self, record: TraceRecord) -> bool:
        """Append a record unless its seq was already written. Returns True when written.

        The line goes to the operating system at once (it survives the process being killed); it is not
        fsync'ed, like the checkpoints beside it (SQLite WAL, synchronous=NORMAL): a power cut may lose the
        last steps of both, never one without the other's earlier steps."""
        seq = int(record.get("seq", -1))
        record = self.masking.mask_data(record)
        # ASCII-only JSON: page text may hold U+2028/U+0085, which str.splitlines() treats as line ends.
        line = json.dumps(record, default=_json_default, ensure_ascii=True)
        with self._lock:
            if seq in self._seen:
                return False
            before = append_line(self.trace_path, (line + "\n").encode("ascii"))  # where our line went
            if before == self._known_size:  # ASCII only: one byte per character
                self._known_size = before + len(line) + 1
            self._seen.add(seq)
        return True

    def write_result(self, result: dict[str, Any]) -> Path:
        tmp = self.result_path.with_suffix(".json.tmp")
        tmp.write_text(
            json.dumps(self.masking.mask_data(result), indent=2, default=_json_default, ensure_ascii=False),
            encoding="utf-8",
        )
        tmp.replace(self.result_path)
        return self.result_path


def _file_size(path: Path) -> int:
    try:
        return path.stat().st_size
    except OSError:
        return -2  # no file: never equal to a size known from one


def read_trace(path: Path) -> list[dict[str, Any]]:
    """Trace records; a truncated last line (process killed mid-write) is skipped, not fatal."""
    if not path.exists():
        return []
    out = []
    for line in path.read_text(encoding="utf-8", errors="replace").split("\n"):
        line = line.strip()
        if not line:
            continue
        try:
            value = json.loads(line)
        except json.JSONDecodeError:
            continue
        if isinstance(value, dict):
            out.append(value)
    return out


#: The thread that writes trace records behind the steps (one, so records reach the file in order).
_writer = ThreadPoolExecutor(max_workers=1, thread_name_prefix="wayfinder-records")
_last_write: Future[Any] | None = None
_write_lock = threading.Lock()
#: Set by a driver whose event loop may block for a small file write (the runner): records are then written
#: at once, in the node, with no hop to the records thread and back (a millisecond per node on a busy
#: machine). Unset under LangGraph Server (it refuses blocking calls in async nodes) and in embedding apps.
_inline: ContextVar[bool] = ContextVar("wayfinder_inline_record_writes", default=False)


@contextlib.contextmanager
def inline_record_writes() -> Iterator[None]:
    """Within this block (and the tasks it starts), record writes happen at once on the calling thread."""
    token = _inline.set(True)
    try:
        yield
    finally:
        _inline.reset(token)


def blocking_io_allowed() -> bool:
    """True where the driver lets a node do small file I/O on the event loop (see :func:`inline_record_writes`)."""
    return _inline.get()


def write_soon(write: Callable[[], Any]) -> Future[Any]:
    """Run a blocking record write in order with the others and return its future: at once where the driver
    allows it and nothing is queued, else on the records thread (first in, first out). Wait with
    :func:`records_written` before anything that must follow it on disk (the next checkpoint, a report)."""
    global _last_write
    with _write_lock:
        if _inline.get() and (_last_write is None or _last_write.done()):
            done: Future[Any] = Future()
            try:
                done.set_result(write())
            except Exception as exc:  # noqa: BLE001 - handed over like a failed thread write
                done.set_exception(exc)
            _last_write = done
        else:
            _last_write = _writer.submit(write)
        return _last_write


def append_soon(run_id: str, run_dir: Path, record: dict[str, Any]) -> Future[bool]:
    """Append a record to the run's trace without waiting on the records thread (see :func:`write_soon`)."""
    return write_soon(lambda: recorder_for(run_id, Path(run_dir)).append(record))  # type: ignore[arg-type]


def wait_records_written() -> None:
    """Block until every record handed to the records thread so far is in its file."""
    last = _last_write
    if last is not None and not threading.current_thread().name.startswith("wayfinder-records"):
        last.exception()  # waits; the error itself reaches whoever awaits records_written()


async def records_written() -> None:
    """Wait, without blocking the event loop, until every record handed to the records thread is written."""
    last = _last_write
    if last is not None and not last.done():
        await until_written(last)


async def until_written(write: Future[Any]) -> Any:
    """Wait for one handed-over write. Shielded: a cancelled waiter (Ctrl-C, a stopped task) must not
    cancel the write itself while it still waits for the records thread, or the record would be lost."""
    if write.done():
        return write.result()  # written in place: no round trip through the loop
    return await asyncio.shield(asyncio.wrap_future(write))


_recorders: dict[str, RunRecorder] = {}
_recorders_lock = threading.Lock()


def _kept_recorder(run_id: str, run_dir: Path | str) -> RunRecorder | None:
    rec = _recorders.get(run_id)
    if rec is None:
        return None
    # the same text is the same directory (asked several times per graph node: no Path built for it)
    return rec if str(run_dir) == str(rec.run_dir) or rec.run_dir == Path(run_dir) else None


def known_recorder(run_id: str, run_dir: Path | str) -> RunRecorder | None:
    """The recorder of a run if this process has one already (never reads the disk)."""
    with _recorders_lock:
        return _kept_recorder(run_id, run_dir)


def recorder_for(run_id: str, run_dir: Path) -> RunRecorder:
    """The recorder of a run (one per run id per process)."""
    with _recorders_lock:
        rec = _kept_recorder(run_id, run_dir)
        if rec is None:
            rec = RunRecorder(Path(run_dir))
            _recorders[run_id] = rec
        rec.masking = secrets_of_run(run_id)  # (a resumed run may bring its secrets again)
        return rec


def forget_recorder(run_id: str) -> None:
    with _recorders_lock:
        _recorders.pop(run_id, None)


STATUS_NAME = "status.json"
INFLIGHT_NAME = "inflight.json"
#: The browser's cookies and storage after the last step (owner-only; never in graph state or reports).
BROWSER_STATE_NAME = "browser_state.json"


def _write_json_atomic(path: Path, data: dict[str, Any], *, durable: bool = True) -> None:
    """Whole or not at all (a killed process never leaves half a file); ``durable`` also survives a power cut."""
    tmp = path.with_name(path.name + f".{os.getpid()}.tmp")
    with tmp.open("w", encoding="utf-8") as fh:
        fh.write(json.dumps(data, default=_json_default, ensure_ascii=False))
        if durable:
            fh.flush()
            os.fsync(fh.fileno())
    tmp.replace(path)


def _read_json(path: Path) -> dict[str, Any]:
    try:
        value = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return value if isinstance(value, dict) else {}


def write_status(run_dir: Path, status: str, **extra: Any) -> None:
    """Record what the run is doing: running | paused | stopped | finished (never raises)."""
    data = {"status": status, "pid": os.getpid(), "host": _host(), "updated_at": time.time(), **extra}
    with contextlib.suppress(OSError):
        # no fsync: the status says what a live process is doing, and a power cut ends every process anyway
        _write_json_atomic(Path(run_dir) / STATUS_NAME, data, durable=False)


def read_status(run_dir: Path) -> dict[str, Any]:
    return _read_json(Path(run_dir) / STATUS_NAME)


def _host() -> str:
    return os.uname().nodename if hasattr(os, "uname") else ""


def pid_alive(pid: Any) -> bool:
    """Whether process ``pid`` exists on this machine (a zombie counts as gone)."""
    if not isinstance(pid, int) or pid <= 0:
        return False
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    except OSError:
        return False
    stat = Path(f"/proc/{pid}/stat")
    if stat.exists():
        with contextlib.suppress(OSError, IndexError):
            if stat.read_text().rsplit(")", 1)[1].split()[0] == "Z":
                return False
    return True


def live_owner(run_dir: Path) -> int | None:
    """The id of another live process that is driving this run right now, or None."""
    status = read_status(run_dir)
    pid = status.get("pid")
    if status.get("status") not in ("running", "paused") or pid == os.getpid():
        return None
    if status.get("host") and status.get("host") != _host():
        return None  # another machine's process: cannot tell, do not block
    return pid if pid_alive(pid) else None


def write_inflight(
    run_dir: Path,
    seq: int,
    action: dict[str, Any],
    risk: str | None,
    result: dict[str, Any] | None = None,
    *,
    run_id: str | None = None,
) -> None:
    """Note the action about to run (durably) before running it; or, with ``result``, note that it finished
    with that result although the run was stopped before recording it (so a resume replays it). Never raises."""
    note: dict[str, Any] = {"seq": int(seq), "action": action, "risk": risk, "pid": os.getpid()}
    if run_id:
        note["run_id"] = run_id
    if result is not None:
        note.update(completed=True, result=result)
    with contextlib.suppress(OSError):
        _write_json_atomic(Path(run_dir) / INFLIGHT_NAME, {**note, "ts": time.time()})


def read_inflight(run_dir: Path) -> dict[str, Any]:
    return _read_json(Path(run_dir) / INFLIGHT_NAME)


def clear_inflight(run_dir: Path) -> None:
    """A finished run has no action in flight: drop the note. Never raises."""
    with contextlib.suppress(OSError):
        (Path(run_dir) / INFLIGHT_NAME).unlink(missing_ok=True)


def run_status(run_dir: Path) -> str:
    """finished | running | paused | unfinished, from the files of a run directory."""
    run_dir = Path(run_dir)
    if (run_dir / "result.json").exists():
        return "finished"
    status = read_status(run_dir)
    if status.get("status") == "paused":
        return "paused"
    if (
        status.get("status") == "running"
        and pid_alive(status.get("pid"))
        and status.get("host", _host()) == _host()
    ):
        return "running"
    return "unfinished"


def _is_run_dir(path: Path) -> bool:
    return path.is_dir() and any(
        (path / name).exists()
        for name in ("run.json", "context.json", "trace.jsonl", "result.json", STATUS_NAME)
    )


def list_runs(record_dir: Path, limit: int = 20) -> list[dict[str, Any]]:
    """Recent runs, newest first: their result when they ended, else ``status`` paused / running / unfinished.

    Every entry has run_id, run_dir, goal, status (finished | paused | running | unfinished), terminal_type,
    terminal_reason, steps and started_at; a paused run also has ``question`` (what it is waiting for).
    """
    record_dir = Path(record_dir)
    if not record_dir.is_dir():
        return []
    runs = []
    for child in record_dir.iterdir():
        if not _is_run_dir(child):
            continue
        meta = _read_json(child / "run.json")
        info: dict[str, Any] = {
            "run_id": child.name,
            "run_dir": str(child),
            "goal": meta.get("goal"),
            "terminal_type": None,
            "terminal_reason": None,
            "steps": None,
            "started_at": meta.get("started_at"),
        }
        status = run_status(child)
        if status == "finished":
            result = _read_json(child / "result.json")
            if result:
                info.update(
                    {
                        k: v
                        for k, v in result.items()
                        if k != "started_at" and (v is not None or k not in info)
                    }
                )
                info["started_at"] = info["started_at"] or result.get("started_at")
            else:
                info["terminal_type"] = "unreadable"
        else:
            trace = read_trace(child / "trace.jsonl")
            info["steps"] = max((int(r.get("step") or 0) for r in trace), default=0)
            if trace:
                info["url"] = trace[-1].get("url")
            if status == "paused":
                info["question"] = (read_status(child).get("interrupt") or {}).get("question")
        info["status"] = status
        if not info.get("started_at"):
            info["started_at"] = child.stat().st_mtime
        runs.append(info)
    runs.sort(key=lambda r: (float(r.get("started_at") or 0), r["run_id"]), reverse=True)
    return runs[:limit]


# ---------------------------------------------------------------------------------------------------------
# The run's outcome (result.json) and report, written by finalize and by the runner when finalize cannot run
# ---------------------------------------------------------------------------------------------------------


def elapsed_seconds(state: dict[str, Any]) -> float:
    """Wall-clock seconds the run has used (across resumptions)."""
    started = state.get("started_at")
    if not started:
        return 0.0
    return round(float(state.get("elapsed_before", 0.0)) + time.time() - float(started), 2)


def result_object(state: dict[str, Any]) -> dict[str, Any]:
    """The run's outcome: what ``--json`` prints and ``result.json`` holds."""
    usage = state.get("usage") or {}
    return {
        "run_id": state.get("run_id"),
        "goal": state.get("goal"),
        "terminal_type": state.get("terminal_type"),
        "terminal_reason": state.get("terminal_reason"),
        "stop_reason": state.get("stop_reason"),
        # an answer only for a proven goal: failure text belongs in stop_reason, never in final_answer
        "final_answer": state.get("final_answer") if state.get("terminal_type") == GOAL_SATISFIED else None,
        "candidate_answer": state.get("candidate_answer"),
        "judge": state.get("judge"),
        "evidence": list(state.get("goal_evidence") or []),
        "missing": list(state.get("missing") or []),
        "resume_lost": list(state.get("resume_lost") or []),
        "goal_parts": [{k: p.get(k) for k in ("id", "kind", "text")} for p in state.get("goal_parts") or []],
        "steps": int(state.get("steps", 0)),
        "stage": state.get("stage"),
        "url": state.get("url", ""),
        "run_dir": state.get("run_dir"),
        "elapsed_s": elapsed_seconds(state),
        "started_at": state.get("started_at"),
        "finished_at": time.time(),
        "usage": {
            "input_tokens": int(usage.get("input_tokens", 0)),
            "output_tokens": int(usage.get("output_tokens", 0)),
            "total_tokens": int(usage.get("total_tokens", 0)),
            "calls": int(usage.get("calls", 0)),
            "cost_usd": round(float(usage.get("cost_usd", 0.0)), 6),
            # screenshots sent to the model and their estimated tokens (part of input_tokens), once there were any
            **{key: int(usage[key]) for key in ("images", "image_tokens") if key in usage},
            "by_node": state.get("usage_by_node") or {},
            "structured_output": usage.get("structured_output"),
        },
    }


def write_report_safely(run_dir: Path) -> None:
    """report.html for people; a rendering problem never spoils the run's result."""
    from agent.report import write_report

    try:
        write_report(run_dir)
    except Exception:  # noqa: BLE001
        return
