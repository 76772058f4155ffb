"""One quick benchmark run as the tests drive it: a real subprocess from the repository root, checked to exit 0."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]


def run_quick_benchmark(
    module: str, out_root: Path, timeout: float, extra: tuple[str, ...] = ()
) -> tuple[str, Path]:
    """Run ``python -m <module> --quick --out <out_root> [extra]``; returns its stdout and the one folder it wrote.

    A failed run fails the test with the tail of its output, so the reason shows in the test report."""
    proc = subprocess.run(
        [sys.executable, "-m", module, "--quick", "--out", str(out_root), *extra],
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=timeout,
    )
    assert proc.returncode == 0, proc.stdout[-2000:] + proc.stderr[-4000:]
    (out,) = [p for p in out_root.iterdir() if p.is_dir()]
    return proc.stdout, out
