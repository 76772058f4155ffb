"""PNG charts of the benchmark results (matplotlib, no display): time and tokens per page for the three
observations, and MiniWoB++ success and false claims per task. Each chart is drawn from one results file."""

from __future__ import annotations

from pathlib import Path
from typing import Any

#: The systems of the observation charts: (label, colour).
SYSTEMS = (
    ("Wayfinder observe, cold", "#1f77b4"),
    ("Wayfinder observe, warm", "#6baed6"),
    ("Playwright aria_snapshot()", "#2ca02c"),
    ("browser-use page state", "#d62728"),
)


def _pyplot() -> Any:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    return plt


def _median(stats: dict[str, Any] | None) -> float:
    value = (stats or {}).get("median")
    return float(value) if value else 0.0


def _bars(
    path: Path, labels: list[str], series: list[tuple[str, str, list[float]]], xlabel: str, title: str
) -> Path:
    plt = _pyplot()
    height = max(3.0, 0.42 * len(labels) * max(1, len(series)) / 2 + 1.2)
    fig, ax = plt.subplots(figsize=(10, height))
    step = 0.8 / max(1, len(series))
    for k, (name, colour, values) in enumerate(series):
        ys = [i + k * step for i in range(len(labels))]
        ax.barh(ys, [max(v, 0.1) for v in values], height=step, label=name, color=colour)
    ax.set_yticks([i + step * (len(series) - 1) / 2 for i in range(len(labels))], labels, fontsize=8)
    ax.invert_yaxis()
    ax.set_xscale("log")
    ax.set_xlabel(xlabel)
    ax.set_title(title, fontsize=10)
    ax.grid(axis="x", which="both", alpha=0.3)
    ax.legend(fontsize=8, loc="lower right")
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)
    return path


def observe_charts(report: dict[str, Any], out_dir: Path) -> list[Path]:
    """observe-time.png and observe-tokens.png: one row per page, one bar per system (log scale)."""
    pages = report["pages"]
    labels = [f"{p['group']}: {p['page']}" for p in pages]
    bu = [p.get("browser_use") or {} for p in pages]
    with_bu = bool(report.get("browser_use_measured"))
    times = [
        (SYSTEMS[0][0], SYSTEMS[0][1], [_median(p["observe_cold_ms"]) for p in pages]),
        (SYSTEMS[1][0], SYSTEMS[1][1], [_median(p["observe_warm_ms"]) for p in pages]),
        (SYSTEMS[2][0], SYSTEMS[2][1], [_median(p["aria_ms"]) for p in pages]),
    ]
    tokens = [
        ("Wayfinder observe", SYSTEMS[0][1], [float(p["tokens"]) for p in pages]),
        (SYSTEMS[2][0], SYSTEMS[2][1], [float(p["aria_tokens"]) for p in pages]),
    ]
    if with_bu:
        times.append((SYSTEMS[3][0], SYSTEMS[3][1], [_median(b.get("cold_ms")) for b in bu]))
        tokens.append((SYSTEMS[3][0], SYSTEMS[3][1], [float(b.get("tokens") or 0) for b in bu]))
    runs = report["runs"]
    return [
        _bars(
            out_dir / "observe-time.png",
            labels,
            times,
            "median ms (log scale)",
            f"Observation time per page, median of {runs}",
        ),
        _bars(
            out_dir / "observe-tokens.png",
            labels,
            tokens,
            "tokens, o200k_base (log scale)",
            "Tokens the model gets per page",
        ),
    ]


def miniwob_chart(report: dict[str, Any], out_dir: Path) -> Path:
    """miniwob-tasks.png: per task, episodes, successes and false claims (tasks with any of them)."""
    plt = _pyplot()
    tasks = [t for t in report["per_task"] if t["success"] or t["claimed"]]
    tasks.sort(key=lambda t: (-t["success"], t["task"]))
    names = [t["task"] for t in tasks] or ["(no task succeeded or claimed success)"]
    fig, ax = plt.subplots(figsize=(10, max(3.0, 0.22 * len(names) + 1.5)))
    ys = list(range(len(names)))
    ax.barh(ys, [t["episodes"] for t in tasks] or [0], color="#dddddd", label="episodes")
    ax.barh(ys, [t["success"] for t in tasks] or [0], color="#2ca02c", label="success (reward > 0)")
    ax.barh(
        ys, [-t["false_claims"] for t in tasks] or [0], color="#d62728", label="false claims (drawn left)"
    )
    ax.set_yticks(ys, names, fontsize=7)
    ax.invert_yaxis()
    ax.axvline(0, color="black", linewidth=0.6)
    o = report["overall"]
    ax.set_title(
        f"MiniWoB++, offline planner: {o['success']}/{o['episodes']} episodes succeeded, "
        f"{o['false_claims']}/{o['claimed']} claims false ({len(report['per_task']) - len(tasks)} tasks with neither not shown)",
        fontsize=9,
    )
    ax.legend(fontsize=8, loc="lower right")
    fig.tight_layout()
    path = out_dir / "miniwob-tasks.png"
    fig.savefig(path, dpi=110)
    plt.close(fig)
    return path
