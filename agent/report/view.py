"""What the report shows, as plain data for ``templates/report.html`` (which does all escaping and markup).

Each function prepares one part: the header (goal, outcome, answer, totals, problems), one step of the
timeline as an ordered list of blocks (``{"kind": ...}``, one template macro per kind), and the raw trace
rows. A new section is new data here plus a block in the template.
"""

from __future__ import annotations

import datetime as _dt
import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from agent.report.loading import (
    ARG_ORDER,
    EVENT_FIELDS,
    TERMINAL_LABELS,
    LoadedRun,
    as_dict,
    as_text,
    fmt_cost,
    fmt_int,
    fmt_seconds,
    fmt_time,
    image_sources,
    load_run,
    num,
    short,
)
from agent.terminals import GOAL_SATISFIED

Block = dict[str, Any]


def link(url: Any, limit: int = 160) -> Block | None:
    """A URL to show: ``href`` only for http(s) (never javascript:, data: or file: from a page)."""
    value = as_text(url)
    if not value:
        return None
    href = value if value.lower().startswith(("http://", "https://")) else None
    return {"href": href, "label": short(value, limit)}


def badge(kind: str) -> Block:
    """The terminal badge: CSS class, label and the raw terminal type."""
    return {
        "kind": kind,
        "css": kind if kind in TERMINAL_LABELS else "unknown",
        "label": TERMINAL_LABELS.get(kind, kind.replace("_", " ") if kind else "no ending recorded"),
    }


@dataclass
class _Step:
    key: int | None
    records: list[dict[str, Any]] = field(default_factory=list)


def group_steps(records: list[dict[str, Any]]) -> list[_Step]:
    """Records (in ``seq`` order, the graph's own counter) grouped into steps: a new group when ``step`` goes up.

    A record whose ``step`` goes back stays in the group at hand: a run that ends while preparing step N+1 records
    its ending as step N, and that ending belongs after everything before it, never inside an earlier step.
    """
    groups: list[_Step] = []
    for record in records:
        number = num(record.get("step"))
        key = int(number) if number is not None else None
        current = groups[-1] if groups else None
        if current is None or (key is not None and (current.key is None or key > current.key)):
            groups.append(_Step(key))
        groups[-1].records.append(record)
    return groups


def terminal_of(loaded: LoadedRun) -> tuple[str, str]:
    result = loaded.result or {}
    kind, reason = as_text(result.get("terminal_type")), as_text(result.get("terminal_reason"))
    if not kind:
        for record in reversed(loaded.records):
            if record.get("terminal_type"):
                kind = as_text(record.get("terminal_type"))
                reason = reason or as_text(record.get("terminal_reason"))
                break
    return kind, reason


def totals(loaded: LoadedRun) -> list[tuple[str, str]]:
    """(label, value) rows of the header: steps, time, tokens, calls, cost, start."""
    result = loaded.result or {}
    records = loaded.records
    usage = as_dict(result.get("usage"))
    from_trace = not usage and bool(records)
    if from_trace:
        usage = {}
        for record in records:
            for key, value in as_dict(record.get("usage")).items():
                number = num(value)
                if number is not None:
                    usage[key] = usage.get(key, 0.0) + number
    executed = sum(1 for r in records if isinstance(r.get("result"), dict))
    step_count = num(result.get("steps"), default=float(executed) if records else None)
    elapsed = num(result.get("elapsed_s"))
    elapsed_note = ""
    if elapsed is None:
        stamps = [t for t in (num(r.get("ts")) for r in records) if t is not None]
        if len(stamps) >= 2:
            elapsed, elapsed_note = max(stamps) - min(stamps), " (from trace)"
    suffix = " (summed from trace)" if from_trace else ""
    tokens = num(usage.get("total_tokens"))
    inputs, outputs = num(usage.get("input_tokens")), num(usage.get("output_tokens"))
    token_text = fmt_int(tokens)
    if inputs is not None or outputs is not None:
        token_text += f" ({fmt_int(inputs)} in / {fmt_int(outputs)} out)"
    rows = [
        ("Steps", fmt_int(step_count)),
        ("Elapsed", fmt_seconds(elapsed) + elapsed_note),
        ("Tokens", token_text + suffix),
        ("Model calls", fmt_int(num(usage.get("calls")))),
        *(
            [
                (
                    "Screenshots sent",
                    f"{fmt_int(num(usage['images']))} (≈{fmt_int(num(usage.get('image_tokens')))} tokens)",
                )
            ]
            if num(usage.get("images"))
            else []
        ),
        ("Cost", fmt_cost(num(usage.get("cost_usd"))) + suffix),
    ]
    if result.get("started_at") is not None:
        rows.append(("Started", fmt_time(result.get("started_at"))))
    elif records and num(records[0].get("ts")) is not None:
        rows.append(("Started", fmt_time(records[0].get("ts"))))
    return rows


def action_view(action: dict[str, Any], result: dict[str, Any], record: dict[str, Any]) -> Block:
    """The action of an attempt: name, element, target description, ordered args, reasoning."""
    element = action.get("element_id", result.get("element_id"))
    args = as_dict(action.get("args")) or as_dict(result.get("args"))
    keys = [k for k in ARG_ORDER if k in args] + sorted(k for k in args if k not in ARG_ORDER)
    return {
        "name": as_text(action.get("action") or result.get("action")) or "?",
        "element": None if element is None or element == "" else as_text(element),
        "target": short(as_text(record.get("target") or action.get("target")), 200),
        "args": [(k, short(args[k], 400)) for k in keys],
        "reasoning": short(action.get("reasoning"), 1000) if action.get("reasoning") else "",
    }


def _event_view(event: Any) -> Block:
    event_d = as_dict(event)
    if not event_d:
        return {"raw": short(event, 300)}
    parts = [
        {"link": link(event_d[k])} if k == "url" else {"text": short(event_d[k], 300)}
        for k in EVENT_FIELDS
        if event_d.get(k) not in (None, "")
    ]
    return {"type": as_text(event_d.get("type") or "event"), "parts": parts}


def result_view(result: dict[str, Any]) -> Block:
    """The outcome of an attempt: status, error type, time, message, fallback, extract, events, URL change."""
    status = as_text(result.get("status")) or "unknown"
    error = as_text(result.get("error_type"))
    ms = num(result.get("execution_time_ms"))
    events = result.get("events")
    before, after = as_text(result.get("url_before")), as_text(result.get("url_after"))
    return {
        "status": status,
        "css": status if status in ("success", "failure") else "unknown",
        "error": error if error and error != "none" else "",
        "ms": None if ms is None else int(ms),
        "message": short(result.get("message"), 2000) if result.get("message") else "",
        "fallback": as_text(result.get("fallback")) if result.get("fallback") else "",
        "extracted": short(result.get("extracted"), 1000) if result.get("extracted") else "",
        "events": [_event_view(e) for e in events] if isinstance(events, list) else [],
        "moved": (link(before), link(after)) if after and before and after != before else None,
    }


def note_view(node: str, note: str) -> Block:
    """A node's note; long or multi-line ones (tracebacks) collapse behind their first line."""
    if "\n" not in note.strip() and len(note) <= 300:
        return {"kind": "note", "node": node, "text": note, "collapsed": False}
    lines = [line for line in note.strip().splitlines() if line.strip()]
    summary = lines[-1] if lines and lines[0].startswith("Traceback") else (lines[0] if lines else "")
    return {
        "kind": "note",
        "node": node,
        "collapsed": True,
        "summary": short(summary, 200),
        "text": short(note, 20000),
    }


def _attempt_blocks(records: list[dict[str, Any]], statuses: list[str]) -> list[Block]:
    blocks: list[Block] = []
    executed = [as_dict(r.get("action")) for r in records if isinstance(r.get("result"), dict)]
    for record in records:
        action, result = as_dict(record.get("action")), as_dict(record.get("result"))
        if action and not result and action in executed:
            continue  # the translate node's proposal, shown once with its result below
        if not (action or result):
            if record.get("action") not in (None, "", {}):  # present but malformed: still show it
                blocks.append({"kind": "malformed", "text": short(record.get("action"), 300)})
            continue
        attempt = {"kind": "attempt", "action": action_view(action, result, record), "result": None}
        if result:
            attempt["result"] = result_view(result)
            statuses.append(as_text(result.get("status")))
        blocks.append(attempt)
    if not any(isinstance(r.get("action"), dict) or isinstance(r.get("result"), dict) for r in records):
        ended = any(r.get("terminal_type") for r in records)
        blocks.append({"kind": "no_action", "ended": ended})
    return blocks


def _acted_at(records: list[dict[str, Any]]) -> int | None:
    """Index of the record that carried out this step's action (the last one with a result), if any."""
    done = [i for i, r in enumerate(records) if isinstance(r.get("result"), dict)]
    return done[-1] if done else None


def _first_shot(records: list[dict[str, Any]]) -> dict[str, Any] | None:
    return next((r for r in records if r.get("screenshot")), None)


def shot_view(record: dict[str, Any], label: str, anchor: str, sources: dict[str, str]) -> Block:
    """One labelled screenshot (or a note that its file is missing)."""
    value = as_text(record.get("screenshot"))
    src = sources.get(value)
    if src is None:
        return {"missing": short(value, 200), "label": label}
    return {
        "id": anchor,
        "src": src,
        "label": label,
        "alt": f"{label} ({as_text(record.get('node')) or 'page'}, {short(record.get('url'), 120)})",
        "caption": short(value, 120),
    }


def step_shots(step: _Step, following: _Step | None, index: int, sources: dict[str, str]) -> list[Block]:
    """The page before the action and after it, labelled: a screenshot taken before the step's action is the
    page before; one taken after it (in this step, else the next step's first look at the page) is the effect."""
    records = step.records
    acted = _acted_at(records)
    shots: list[Block] = []
    seen: set[str] = set()
    for position, record in enumerate(records):
        value = as_text(record.get("screenshot"))
        if not value or value in seen:
            continue
        seen.add(value)
        label = "Page before the action" if acted is None or position <= acted else "After the action"
        if acted is None:
            label = "Page"
        shots.append(shot_view(record, label, f"zoom-{index}-{len(seen)}", sources))
    if acted is not None and not any(s["label"] == "After the action" for s in shots) and following:
        after = _first_shot(following.records[: _acted_at(following.records) or None])
        if after is not None:
            shots.append(shot_view(after, "After the action", f"zoom-{index}-after", sources))
    return shots


def pages_view(records: list[dict[str, Any]]) -> Block | None:
    """The page the step started on and, when it acted, where the action left it and what it changed."""
    urls = [as_text(r.get("url")) for r in records if r.get("url")]
    if not urls:
        return None
    acted = _acted_at(records)
    block: Block = {"kind": "pages", "before": link(urls[0]), "after": None, "effect": ""}
    if acted is not None:
        result = as_dict(records[acted].get("result"))
        block["before"] = link(as_text(result.get("url_before")) or urls[0])
        block["after"] = link(as_text(result.get("url_after")) or as_text(records[acted].get("url")))
        block["effect"] = short(as_dict(result.get("effect")).get("summary"), 300)
    return block


def step_view(step: _Step, index: int, sources: dict[str, str], following: _Step | None = None) -> Block:
    """One step of the timeline: its blocks in record order, its screenshots and its overall status."""
    records = step.records
    title = f"Step {step.key}" if step.key is not None else "Unnumbered records"
    plan_steps: list[str] = []
    for record in records:
        plan = as_text(record.get("plan_step"))
        if plan and plan not in plan_steps:
            plan_steps.append(plan)
    blocks: list[Block] = []
    if plan_steps:
        blocks.append({"kind": "plan", "entries": [short(p, 500) for p in plan_steps]})
    statuses: list[str] = []
    blocks += _attempt_blocks(records, statuses)
    pages = pages_view(records)
    if pages is not None:
        blocks.append(pages)
    endings: list[tuple[str, str]] = []
    for record in records:
        if record.get("note"):
            blocks.append(note_view(as_text(record.get("node")) or "note", as_text(record.get("note"))))
        ending = (as_text(record.get("terminal_type")), as_text(record.get("terminal_reason")))
        if any(ending) and ending not in endings:
            endings.append(ending)
    # the ending comes after everything the step recorded (the notes of the nodes that ended the run too)
    blocks += [{"kind": "terminal", "badge": badge(kind), "reason": reason} for kind, reason in endings]
    timings = []
    for record in records:
        ms = num(record.get("node_ms"))
        timings.append((as_text(record.get("node") or "?"), None if ms is None else int(ms)))
    if timings:
        blocks.append({"kind": "timings", "entries": timings})
    return {
        "title": title,
        "anchor": f"step-{step.key}" if step.key is not None else "step-unnumbered",
        "css": "failure" if "failure" in statuses else ("success" if statuses else "none"),
        "status": statuses[-1] if statuses and statuses[-1] else "",
        "blocks": blocks,
        "shots": step_shots(step, following, index, sources),
    }


def raw_rows(records: list[dict[str, Any]]) -> list[list[str]]:
    """The raw trace table: one row of cell texts per record, the last cell the record as pretty JSON."""
    if not records:
        return []
    first_ts = num(records[0].get("ts"))
    rows = []
    for record in records:
        ts = num(record.get("ts"))
        rel = f"+{ts - first_ts:.2f} s" if ts is not None and first_ts is not None else ""
        action, result = as_dict(record.get("action")), as_dict(record.get("result"))
        action_text = as_text(action.get("action"))
        if action_text and action.get("element_id") is not None:
            action_text += f" #{as_text(action.get('element_id'))}"
        rows.append(
            [
                as_text(record.get("seq")),
                rel,
                as_text(record.get("node")),
                as_text(record.get("stage")),
                as_text(record.get("step")),
                action_text,
                as_text(result.get("status")),
                as_text(record.get("node_ms")),
                short(record.get("url"), 120),
                short(record.get("note"), 200),
                json.dumps(record, indent=2, ensure_ascii=False, default=str),
            ]
        )
    return rows


def header_view(run_dir: Path, loaded: LoadedRun) -> Block:
    """The report's header: run id, goal, outcome, answer, totals, final URL and any missing records."""
    result = loaded.result or {}
    records = loaded.records
    run_id = as_text(result.get("run_id")) or next(
        (as_text(r["run_id"]) for r in records if r.get("run_id")), ""
    )
    kind, reason = terminal_of(loaded)
    stop_reason = as_text(result.get("stop_reason")) if result.get("stop_reason") else ""
    final_answer = result.get("final_answer")
    final_url = as_text(result.get("url")) or next(
        (as_text(r["url"]) for r in reversed(records) if r.get("url")), ""
    )
    return {
        "run_id": run_id or run_dir.name,
        "goal": as_text(result.get("goal")),
        "badge": badge(kind),
        "reason": reason,
        "stop_reason": stop_reason if stop_reason != reason else "",
        "answer_css": "answer" if kind == GOAL_SATISFIED else "answer answer-other",
        "answer": None if final_answer in (None, "") else as_text(final_answer),
        "show_answer": final_answer not in (None, "") or loaded.result is not None,
        "totals": totals(loaded),
        "final_url": link(final_url, 200),
        "problems": loaded.problems,
    }


def proof_view(result: dict[str, Any]) -> Block | None:
    """Each goal part with the evidence that proves it (quote, element, URL, step), or why it is missing."""
    parts = [as_dict(p) for p in result.get("goal_parts") or []]
    evidence = [as_dict(e) for e in result.get("evidence") or []]
    if not parts and not evidence:
        return None
    rows = []
    for part in parts or [{"id": e.get("part"), "kind": e.get("kind"), "text": ""} for e in evidence]:
        found = [e for e in evidence if e.get("part") == part.get("id")]
        rows.append(
            {
                "part": short(part.get("text") or part.get("id"), 300),
                "kind": as_text(part.get("kind")),
                "proofs": [
                    {
                        "quote": short(e.get("quote"), 300),
                        "element": short(e.get("element"), 120),
                        "step": as_text(e.get("step")),
                        "url": link(as_text(e.get("url")), 120),
                    }
                    for e in found
                ],
            }
        )
    return {
        "rows": rows,
        "missing": [short(m, 400) for m in result.get("missing") or []],
        "candidate": short(result.get("candidate_answer"), 500) if result.get("candidate_answer") else "",
    }


def report_view(run_dir: Path, embed_limit_bytes: int) -> Block:
    """Everything the template needs for one run directory."""
    loaded = load_run(run_dir)
    sources = image_sources(run_dir, loaded.records, embed_limit_bytes)
    groups = group_steps(loaded.records)
    return {
        "header": header_view(run_dir, loaded),
        "proof": proof_view(loaded.result or {}),
        "steps": [
            step_view(step, i, sources, groups[i + 1] if i + 1 < len(groups) else None)
            for i, step in enumerate(groups)
        ],
        "raw_rows": raw_rows(loaded.records),
        "record_count": len(loaded.records),
        "generated": _dt.datetime.now(tz=_dt.UTC).strftime("%Y-%m-%d %H:%M:%S UTC"),
    }
