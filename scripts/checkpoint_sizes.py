"""How big a run's checkpoints are: the demo goal on the bundled demo store, offline, checkpointed in SQLite.

    python scripts/checkpoint_sizes.py

Prints the run's ending, its steps, the number of checkpoints, their total and largest size in bytes (the
serialized state LangGraph stores per step) and the bytes of pending writes.
"""

from __future__ import annotations

import asyncio
import sqlite3
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from agent.context import Context  # noqa: E402
from agent.demo.server import DEMO_GOAL, serve_demo  # noqa: E402
from agent.runner import run_goal  # noqa: E402


async def main() -> None:
    records = Path(tempfile.mkdtemp(prefix="wayfinder-sizes-"))
    server = serve_demo()
    try:
        ctx = Context(planner="rules", record_dir=str(records), run_id="sizes", headless=True)
        result = await run_goal(DEMO_GOAL, ctx, start_url=server.base_url + "/")
    finally:
        server.stop()
    with sqlite3.connect(records / "sizes" / "checkpoints.sqlite") as db:
        sizes = [row[0] for row in db.execute("SELECT length(checkpoint) FROM checkpoints")]
        writes = db.execute("SELECT coalesce(sum(length(value)), 0) FROM writes").fetchone()[0]
    print(
        f"{result['terminal_type']}/{result['terminal_reason']} steps={result['steps']} "
        f"checkpoints={len(sizes)} total={sum(sizes)} largest={max(sizes)} writes={writes} (bytes)"
    )


if __name__ == "__main__":
    asyncio.run(main())
