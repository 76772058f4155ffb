"""MiniWoB++ figures from episode records: success, strict success and the false-claim rate, per task and overall.

A false claim is an episode the agent ended ``goal_satisfied`` while the task's own reward says it failed
(raw reward <= 0, or the episode never ended). ``strict`` false claims also count partial credit (raw < 1).
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from benchmarks.common import claim_figures, environment_md, fmt, md_table, pct, summary


def _claimed(episode: dict[str, Any]) -> bool:
    return episode.get("terminal_type") == "goal_satisfied"


def _claims(rows: list[dict[str, Any]], key: str = "success") -> dict[str, Any]:
    return claim_figures((_claimed(e), bool(e.get(key))) for e in rows)


def aggregate(episodes: list[dict[str, Any]], tasks: list[str]) -> dict[str, Any]:
    """Per-task and overall figures. Episodes the harness could not start are counted apart, not as agent
    failures (there should be none; any is a harness bug)."""
    scored = [
        e for e in episodes if not (e.get("error") or "").startswith(("episode start", "the task gave"))
    ]
    per_task = []
    for task in tasks:
        rows = [e for e in scored if e["task"] == task]
        if not rows:
            continue
        claims = _claims(rows)
        per_task.append(
            {
                "task": task,
                "episodes": len(rows),
                "success": sum(e["success"] for e in rows),
                "strict_success": sum(e["strict_success"] for e in rows),
                "success_rate": round(sum(e["success"] for e in rows) / len(rows), 3),
                "strict_rate": round(sum(e["strict_success"] for e in rows) / len(rows), 3),
                "claimed": claims["claimed"],
                "false_claims": claims["false_claims"],
                "false_claim_rate": claims["false_claim_rate"],
                "ended": sum(bool(e.get("ended")) for e in rows),
                "mean_steps": round(sum(e.get("steps") or 0 for e in rows) / len(rows), 2),
                "median_s": summary([e.get("elapsed_s") or 0 for e in rows], 2)["median"],
                "terminals": dict(Counter(e.get("terminal_type") or "none" for e in rows)),
            }
        )
    n = len(scored)
    claimed = [e for e in scored if _claimed(e)]
    claims, strict_claims = _claims(scored), _claims(scored, "strict_success")
    overall = {
        "episodes": n,
        "tasks": len(per_task),
        "harness_errors": len(episodes) - n,
        "run_errors": sum(1 for e in scored if e.get("error")),
        "success": sum(e["success"] for e in scored),
        "strict_success": sum(e["strict_success"] for e in scored),
        "success_rate": round(sum(e["success"] for e in scored) / n, 3) if n else None,
        "strict_rate": round(sum(e["strict_success"] for e in scored) / n, 3) if n else None,
        "claimed": claims["claimed"],
        "false_claims": claims["false_claims"],
        "false_claim_rate": claims["false_claim_rate"],
        "strict_false_claims": strict_claims["false_claims"],
        "strict_false_claim_rate": strict_claims["false_claim_rate"],
        "tasks_with_false_claims": sorted(t["task"] for t in per_task if t["false_claims"]),
        "task_mean_success_rate": round(sum(t["success_rate"] for t in per_task) / len(per_task), 3)
        if per_task
        else None,
        "tasks_solved_every_seed": sum(1 for t in per_task if t["success"] == t["episodes"]),
        "tasks_never_solved": sum(1 for t in per_task if t["success"] == 0),
        "episodes_ended": sum(bool(e.get("ended")) for e in scored),
        "steps": summary([e.get("steps") or 0 for e in scored], 2),
        "episode_s": summary([e.get("elapsed_s") or 0 for e in scored], 2),
        "start_ms": summary([e.get("start_ms") or 0 for e in scored], 1),
        "terminal_types": dict(Counter(e.get("terminal_type") or "none" for e in scored).most_common()),
        "terminal_reasons": dict(
            Counter(f"{e.get('terminal_type')}/{e.get('terminal_reason')}" for e in scored).most_common()
        ),
        "claim_vs_reward": {
            "goal_satisfied_and_success": sum(e["success"] for e in claimed),
            "goal_satisfied_but_failed": sum(not e["success"] for e in claimed),
            "not_satisfied_but_success": sum(e["success"] for e in scored if e not in claimed),
            "not_satisfied_and_failed": sum(not e["success"] for e in scored if e not in claimed),
        },
        "episodes_with_actions_after_end": sum(1 for e in scored if e.get("actions_after_end")),
    }
    return {"overall": overall, "per_task": per_task}


def summary_line(o: dict[str, Any]) -> str:
    """The one line `python -m benchmarks.miniwob` prints: success, strict success and false claims."""
    return (
        f"success {o['success']}/{o['episodes']} ({pct(o['success_rate'])}), strict {o['strict_success']}"
        f"/{o['episodes']} ({pct(o['strict_rate'])}); false claims {o['false_claims']}/{o['claimed']} "
        f"goal_satisfied ({pct(o['false_claim_rate'])})"
    )


def to_markdown(report: dict[str, Any], *, per_task: bool = True) -> str:
    o = report["overall"]
    cvr = o["claim_vs_reward"]
    lines = [
        "# MiniWoB++ benchmark (offline rules planner)",
        "",
        environment_md(report["environment"]),
        "",
        f"{o['tasks']} task(s) x seeds {report['seeds']} = {o['episodes']} episode(s); agent budget "
        f"{report['agent_settings']['max_steps']} steps / {report['agent_settings']['max_seconds']:g} s per "
        f"episode; planner `{report['agent_settings']['planner']}`, no model. Success = raw reward > 0, "
        "strict = raw reward == 1 (an episode that never ended is a failure). False claim = the agent ended "
        "`goal_satisfied` and the task's reward says it failed.",
        "",
        md_table(
            ["measure", "value"],
            [
                ["success (raw > 0)", f"{o['success']}/{o['episodes']} = {pct(o['success_rate'])}"],
                [
                    "strict success (raw == 1)",
                    f"{o['strict_success']}/{o['episodes']} = {pct(o['strict_rate'])}",
                ],
                [
                    "false claims (goal_satisfied, not rewarded)",
                    f"{o['false_claims']}/{o['claimed']} = {pct(o['false_claim_rate'])}",
                ],
                [
                    "strict false claims (goal_satisfied, raw < 1)",
                    f"{o['strict_false_claims']}/{o['claimed']} = {pct(o['strict_false_claim_rate'])}",
                ],
                ["mean of per-task success rates", pct(o["task_mean_success_rate"])],
                [
                    "tasks solved on every seed / never",
                    f"{o['tasks_solved_every_seed']} / {o['tasks_never_solved']}",
                ],
                ["episodes that ended (any reward)", f"{o['episodes_ended']}/{o['episodes']}"],
                [
                    "steps per episode: median / mean / max",
                    f"{fmt(o['steps']['median'])} / {fmt(o['steps']['mean'], 2)} / {fmt(o['steps']['max'])}",
                ],
                [
                    "agent seconds per episode: median / p90 / max",
                    f"{fmt(o['episode_s']['median'], 2)} / {fmt(o['episode_s']['p90'], 2)} / {fmt(o['episode_s']['max'], 2)}",
                ],
                ["page load + episode start, ms: median", fmt(o["start_ms"]["median"])],
                ["terminal types", ", ".join(f"{k} {v}" for k, v in o["terminal_types"].items())],
                [
                    "goal_satisfied: rewarded / not rewarded",
                    f"{cvr['goal_satisfied_and_success']} / {cvr['goal_satisfied_but_failed']}",
                ],
                [
                    "other terminals: rewarded / not rewarded",
                    f"{cvr['not_satisfied_but_success']} / {cvr['not_satisfied_and_failed']}",
                ],
                [
                    "episodes where the agent acted after the episode ended",
                    o["episodes_with_actions_after_end"],
                ],
                [
                    "harness errors (episode not started; excluded) / run errors",
                    f"{o['harness_errors']} / {o['run_errors']}",
                ],
                ["total wall time, s", report["wall_s"]],
            ],
        ),
        "",
        "Terminal reasons: " + ", ".join(f"`{k}` {v}" for k, v in o["terminal_reasons"].items()),
        "",
        "Tasks with false claims: " + (", ".join(o["tasks_with_false_claims"]) or "none"),
        "",
    ]
    if not per_task:
        return "\n".join(lines)
    lines += [
        "## Per task",
        "",
        md_table(
            ["task", "episodes", "success", "strict", "false claims", "mean steps", "median s", "terminals"],
            [
                [
                    t["task"],
                    t["episodes"],
                    t["success"],
                    t["strict_success"],
                    f"{t['false_claims']}/{t['claimed']}",
                    t["mean_steps"],
                    t["median_s"],
                    ", ".join(f"{k} {v}" for k, v in t["terminals"].items()),
                ]
                for t in report["per_task"]
            ],
        ),
        "",
    ]
    return "\n".join(lines)
