"""Shared pieces of the benchmarks: result directories, machine description, statistics, memory, tables."""

from __future__ import annotations

import datetime as _dt
import json
import os
import platform
import resource
import statistics
import subprocess
import sys
from collections.abc import Iterable, Sequence
from dataclasses import asdict
from importlib import metadata
from pathlib import Path
from typing import Any

REPO_ROOT = Path(__file__).resolve().parent.parent
DEFAULT_OUT = REPO_ROOT / "bench-results"


def timestamp() -> str:
    return _dt.datetime.now(_dt.UTC).strftime("%Y%m%d-%H%M%SZ")


def results_dir(out: str | Path | None = None, stamp: str | None = None) -> Path:
    """A new ``<out>/<UTC timestamp>/`` directory (suffixed when the name is taken)."""
    base = Path(out) if out else DEFAULT_OUT
    name = stamp or timestamp()
    path = base / name
    k = 1
    while path.exists():
        k += 1
        path = base / f"{name}-{k}"
    path.mkdir(parents=True)
    return path


# ------------------------------------------------------------------------------------------------ statistics


def percentile(values: Sequence[float], q: float) -> float | None:
    """The q-th percentile (0-100) with linear interpolation between closest ranks (numpy's default)."""
    data = sorted(float(v) for v in values)
    if not data:
        return None
    if len(data) == 1:
        return data[0]
    pos = (len(data) - 1) * q / 100.0
    lo = int(pos)
    hi = min(lo + 1, len(data) - 1)
    return data[lo] + (data[hi] - data[lo]) * (pos - lo)


def summary(values: Iterable[float], digits: int = 1) -> dict[str, Any]:
    """n, median, p90, min, max, mean of ``values`` (None when empty), rounded to ``digits``."""
    data = [float(v) for v in values]
    if not data:
        return {"n": 0, "median": None, "p90": None, "min": None, "max": None, "mean": None}

    def r(x: float | None) -> float | None:
        return None if x is None else round(x, digits)

    return {
        "n": len(data),
        "median": r(statistics.median(data)),
        "p90": r(percentile(data, 90)),
        "min": r(min(data)),
        "max": r(max(data)),
        "mean": r(statistics.fmean(data)),
    }


# ------------------------------------------------------------------------------------------------ memory


def _proc_children() -> dict[int, list[int]]:
    children: dict[int, list[int]] = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat", encoding="utf-8") as fh:
                stat = fh.read()
        except OSError:
            continue
        # comm may contain spaces and parentheses: the fields after the last ")" are fixed.
        fields = stat[stat.rfind(")") + 2 :].split()
        if len(fields) > 1:
            children.setdefault(int(fields[1]), []).append(int(entry))
    return children


def _status_kb(pid: int, key: str) -> int:
    return _status_like(f"/proc/{pid}/status", key)


def _comm(pid: int) -> str:
    try:
        with open(f"/proc/{pid}/comm", encoding="utf-8") as fh:
            return fh.read().strip()
    except OSError:
        return ""


def _pss_kb(pid: int) -> int | None:
    try:
        with open(f"/proc/{pid}/smaps_rollup", encoding="utf-8") as fh:
            for line in fh:
                if line.startswith("Pss:"):
                    return int(line.split()[1])
    except (OSError, ValueError, IndexError):
        pass
    return None


def memory_snapshot() -> dict[str, Any] | None:
    """Memory now of this Python process, the Playwright driver and the browser processes below it.

    Read from /proc (Linux only; None elsewhere). ``*_pss_mb`` sums the proportional set size (shared pages
    split between the processes sharing them), the fairest "what does this take" figure; ``browser_rss_mb``
    sums resident sizes and counts shared pages once per process, so it overstates. Values are current, except
    ``python_peak_mb`` (this process's peak RSS, from getrusage); callers sample after each page and report
    the largest sample as the (sampled) peak.
    """
    if not os.path.isdir("/proc/self"):
        return None
    me = os.getpid()
    tree = _proc_children()
    stack, descendants = list(tree.get(me, [])), []
    while stack:
        pid = stack.pop()
        descendants.append(pid)
        stack.extend(tree.get(pid, []))
    driver_pss = browser_pss = browser_rss = 0
    browser_n = 0
    pss_ok = True
    for pid in descendants:
        rss = _status_kb(pid, "VmRSS")
        pss = _pss_kb(pid)
        if pss is None:
            pss_ok = False
            pss = rss
        if _comm(pid).startswith("node"):
            driver_pss += pss
        elif rss:
            browser_pss += pss
            browser_rss += rss
            browser_n += 1
    return {
        "python_rss_mb": round(_status_kb(me, "VmRSS") / 1024, 1),
        "python_peak_mb": round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, 1),
        "driver_pss_mb": round(driver_pss / 1024, 1),
        "browser_pss_mb": round(browser_pss / 1024, 1),
        "browser_rss_mb": round(browser_rss / 1024, 1),
        "browser_processes": browser_n,
        "pss_available": pss_ok,
    }


def peak_of(snapshots: Iterable[dict[str, Any] | None], key: str) -> float | None:
    """The largest value of ``key`` over memory snapshots (a sampled peak)."""
    values = [s[key] for s in snapshots if s and s.get(key) is not None]
    return max(values) if values else None


# ------------------------------------------------------------------------------------------------ environment


def _version(dist: str) -> str | None:
    try:
        return metadata.version(dist)
    except metadata.PackageNotFoundError:
        return None


def _git(*args: str) -> str | None:
    try:
        out = subprocess.run(
            ["git", *args], cwd=REPO_ROOT, capture_output=True, text=True, timeout=10, check=True
        )
    except (OSError, subprocess.SubprocessError):
        return None
    return out.stdout.strip()


def _cpu_model() -> str | None:
    try:
        with open("/proc/cpuinfo", encoding="utf-8") as fh:
            for line in fh:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or None


def _mem_total_gb() -> float | None:
    kb = _status_like("/proc/meminfo", "MemTotal")
    return round(kb / 1024 / 1024, 1) if kb else None


def _status_like(path: str, key: str) -> int:
    try:
        with open(path, encoding="utf-8") as fh:
            for line in fh:
                if line.startswith(key + ":"):
                    return int(line.split()[1])
    except (OSError, ValueError, IndexError):
        pass
    return 0


def load_average() -> list[float] | None:
    """1/5/15-minute load averages (other work on the machine skews timings: they are recorded with them)."""
    try:
        return [round(x, 2) for x in os.getloadavg()]
    except (AttributeError, OSError):
        return None


def environment(
    browser_user_agent: str | None = None,
    command: str | None = None,
    load_at_start: list[float] | None = None,
) -> dict[str, Any]:
    """What the numbers were measured on: machine, software versions, code revision, command line, load."""
    try:
        usable = len(os.sched_getaffinity(0))
    except (AttributeError, OSError):
        usable = os.cpu_count()
    status = _git("status", "--porcelain", "--untracked-files=no")
    browser_version = None
    if browser_user_agent and "Chrome/" in browser_user_agent:
        browser_version = browser_user_agent.split("Chrome/", 1)[1].split()[0]
    return {
        "command": command or " ".join(["python", *sys.argv]),
        "utc": _dt.datetime.now(_dt.UTC).isoformat(timespec="seconds"),
        "python": platform.python_version(),
        "platform": platform.platform(),
        "cpu_model": _cpu_model(),
        "cpus_usable": usable,
        "mem_total_gb": _mem_total_gb(),
        "chromium": browser_version,
        "browser_user_agent": browser_user_agent,
        "playwright": _version("playwright"),
        "langgraph": _version("langgraph"),
        "wayfinder": _version("wayfinder-agent"),
        "miniwob": _version("miniwob"),
        "git_commit": _git("rev-parse", "HEAD"),
        "git_dirty": None if status is None else bool(status),
        "load_avg_start": load_at_start,
        "load_avg_end": load_average(),
    }


def context_settings(ctx: Any) -> dict[str, Any]:
    """The agent settings of a run, without secrets."""
    data = asdict(ctx)
    data.pop("api_key", None)
    return data


# ------------------------------------------------------------------------------------------------ output


def write_json(path: Path, data: Any) -> None:
    path.write_text(json.dumps(data, indent=2, ensure_ascii=False, default=str) + "\n", encoding="utf-8")


def save_report(out_dir: Path, name: str, report: dict[str, Any], markdown: str) -> dict[str, Any]:
    """``<name>.json`` and ``<name>.md`` of one benchmark into ``out_dir``; returns the report."""
    write_json(out_dir / f"{name}.json", report)
    (out_dir / f"{name}.md").write_text(markdown, encoding="utf-8")
    return report


def fmt(value: Any, digits: int = 1) -> str:
    if value is None:
        return "-"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, float):
        return f"{value:.{digits}f}"
    return str(value)


def md_table(headers: Sequence[str], rows: Iterable[Sequence[Any]]) -> str:
    def cell(v: Any) -> str:
        return fmt(v).replace("|", "\\|").replace("\n", " ")

    lines = ["| " + " | ".join(headers) + " |", "| " + " | ".join("---" for _ in headers) + " |"]
    lines.extend("| " + " | ".join(cell(v) for v in row) + " |" for row in rows)
    return "\n".join(lines)


def environment_md(env: dict[str, Any]) -> str:
    return (
        f"Measured {env.get('utc')} on {env.get('cpus_usable')} usable CPU(s) ({env.get('cpu_model')}), "
        f"{env.get('mem_total_gb')} GB RAM, {env.get('platform')}; Python {env.get('python')}, "
        f"Chromium {env.get('chromium')}, Playwright {env.get('playwright')}, miniwob {env.get('miniwob')}; "
        f"git {str(env.get('git_commit') or '?')[:12]}{' (uncommitted changes)' if env.get('git_dirty') else ''}; "
        f"load average (1/5/15 min) {env.get('load_avg_start')} at start, {env.get('load_avg_end')} at end.\n"
        f"Command: `{env.get('command')}`"
    )


# ------------------------------------------------------------------------------------------------ claims


def claim_figures(outcomes: Iterable[tuple[bool, bool]]) -> dict[str, Any]:
    """Success and false-claim figures from (agent claimed success, the environment's own check agrees) pairs.

    The false-claim rate is the share of the agent's ``goal_satisfied`` endings that the task's own check
    refutes: a claim that cannot be believed costs the user more than an honest "I could not". It is None when
    the agent claimed nothing (no claims, no rate), never 0 by default.
    """
    pairs = [(bool(c), bool(v)) for c, v in outcomes]
    claimed = sum(1 for c, _ in pairs if c)
    false_claims = sum(1 for c, v in pairs if c and not v)
    verified = sum(1 for _, v in pairs if v)
    return {
        "runs": len(pairs),
        "success": verified,
        "success_rate": round(verified / len(pairs), 3) if pairs else None,
        "claimed": claimed,
        "false_claims": false_claims,
        "false_claim_rate": round(false_claims / claimed, 3) if claimed else None,
        "missed_successes": sum(1 for c, v in pairs if v and not c),
    }


def claims_summary(label: str, o: dict[str, Any], success: str = "success") -> str:
    """One line of claim figures: '<label>: success 20/33 (60.6%); false claims 0/20 goal_satisfied (0.0%)'."""
    return (
        f"{label}: {success} {o['success']}/{o['runs']} ({pct(o['success_rate'])}); false claims "
        f"{o['false_claims']}/{o['claimed']} goal_satisfied ({pct(o['false_claim_rate'])})"
    )


async def live_session(session: Any, ctx: Any, browser_dir: Path) -> Any:
    """``session`` while its browser runs; else a new one (a goal that took the browser down must not sink the
    goals after it). ``None`` starts the first one."""
    from agent.browser.session import BrowserSession

    if session is not None and session.is_alive:
        return session
    if session is not None:
        await session.close()
    return await BrowserSession.start(ctx.browser_options(browser_dir), browser_dir)


def pct(x: float | None) -> str:
    """0.146 -> '14.6%'; None -> '-'."""
    return "-" if x is None else f"{100 * x:.1f}%"
