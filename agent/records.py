"""Run records on disk: ``<record_dir>/<run_id>/`` with trace.jsonl, result.json, screenshots/, downloads/.

The trace is append-only and keyed by ``seq`` (the state's record counter): a node that re-runs after a
resume writes the same seq again, and the recorder keeps the first copy, so no step is recorded twice.
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import secrets
import threading
import time
from pathlib import Path
from typing import Any

from agent.types import TraceRecord

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

    def __init__(self, run_dir: Path):
        self.run_dir = Path(run_dir)
        self.run_dir.mkdir(parents=True, exist_ok=True)
        (self.run_dir / "screenshots").mkdir(exist_ok=True)
        self.trace_path = self.run_dir / "trace.jsonl"
        self.result_path = self.run_dir / "result.json"
        self._lock = threading.Lock()
        self._seen: set[int] = {rec.get("seq", -1) for rec in read_trace(self.trace_path)}

    @property
    def screenshots_dir(self) -> Path:
        return self.run_dir / "screenshots"

    def has(self, seq: int) -> bool:
        return seq in self._seen

    def record(self, seq: int) -> TraceRecord | None:
        """The record already written for ``seq`` (used to avoid repeating a side effect on resume)."""
        for rec in read_trace(self.trace_path):
            if rec.get("seq") == seq:
                return rec  # type: ignore[return-value]
        return None

    def append(self, record: TraceRecord) -> bool:
        """Append a record unless its seq was already written. Returns True when written."""
        seq = int(record.get("seq", -1))
        line = json.dumps(record, default=_json_default, ensure_ascii=False)
        with self._lock:
            if seq in self._seen:
                return False
            with self.trace_path.open("a", encoding="utf-8") as fh:
                fh.write(line + "\n")
                fh.flush()
                os.fsync(fh.fileno())
            self._seen.add(seq)
        return True

    def write_result(self, result: dict[str, Any]) -> Path:
        tmp = self.result_path.with_suffix(".json.tmp")
        tmp.write_text(json.dumps(result, indent=2, default=_json_default, ensure_ascii=False), encoding="utf-8")
        tmp.replace(self.result_path)
        return self.result_path


def read_trace(path: Path) -> list[dict[str, Any]]:
    """Trace records; a truncated last line (process killed mid-write) is skipped, not fatal."""
    if not path.exists():
        return []
    out = []
    for line in path.read_text(encoding="utf-8", errors="replace").splitlines():
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


_recorders: dict[str, RunRecorder] = {}
_recorders_lock = threading.Lock()


def recorder_for(run_id: str, run_dir: Path) -> RunRecorder:
    """The recorder of a run (one per run id per process)."""
    with _recorders_lock:
        rec = _recorders.get(run_id)
        if rec is None or rec.run_dir != Path(run_dir):
            rec = RunRecorder(Path(run_dir))
            _recorders[run_id] = rec
        return rec


def forget_recorder(run_id: str) -> None:
    with _recorders_lock:
        _recorders.pop(run_id, None)


def list_runs(record_dir: Path, limit: int = 20) -> list[dict[str, Any]]:
    """Recent runs (newest first) with their result, or 'unfinished' when no result was written."""
    record_dir = Path(record_dir)
    if not record_dir.is_dir():
        return []
    runs = []
    for child in record_dir.iterdir():
        if not child.is_dir():
            continue
        result_path = child / "result.json"
        info: dict[str, Any] = {"run_id": child.name, "run_dir": str(child), "mtime": child.stat().st_mtime}
        if result_path.exists():
            try:
                info.update(json.loads(result_path.read_text(encoding="utf-8")))
            except (OSError, json.JSONDecodeError):
                info["terminal_type"] = "unreadable"
        else:
            meta_path = child / "run.json"
            if meta_path.exists():
                with contextlib.suppress(OSError, json.JSONDecodeError):
                    info.update(json.loads(meta_path.read_text(encoding="utf-8")))
            info.setdefault("terminal_type", None)
            info["status"] = "unfinished"
        runs.append(info)
    runs.sort(key=lambda r: r["mtime"], reverse=True)
    return runs[:limit]
