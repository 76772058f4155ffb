"""`resume` on a run whose records are damaged: one clear line and exit 2, never a traceback."""

from __future__ import annotations

import json
import subprocess
import sys


def _resume(record_dir, run_id: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "agent", "resume", run_id, "--record-dir", str(record_dir), "--no-input"],
        capture_output=True,
        text=True,
        timeout=60,
    )


def test_a_checkpoint_file_that_is_not_a_database_is_one_line_and_exit_2(tmp_path):
    run_dir = tmp_path / "r1"
    run_dir.mkdir()
    (run_dir / "status.json").write_text(json.dumps({"status": "stopped"}))
    damaged = bytes(range(256)) * 16  # 4 KiB that no SQLite header starts with
    (run_dir / "checkpoints.sqlite").write_bytes(damaged)

    done = _resume(tmp_path, "r1")

    assert done.returncode == 2, done.stderr
    lines = [line for line in done.stderr.splitlines() if line.strip()]
    assert len(lines) == 1 and lines[0].startswith("error: the checkpoints of run r1 cannot be read"), lines
    assert "Traceback" not in done.stderr and done.stdout == ""
    assert (run_dir / "checkpoints.sqlite").read_bytes() == damaged  # the evidence is left as it was
