"""Render ``runs/<run_id>/report.html`` from a run's ``trace.jsonl`` and ``result.json``.

The report is one self-contained HTML file that works from ``file://`` with no server: inline CSS, no
JavaScript at all (a Content-Security-Policy forbids scripts), screenshots embedded as ``data:`` URIs while the
total stays small, else linked relative to the run dir. Everything in a trace can come from a web page or a
model, so every value is HTML-escaped and only ``http(s)`` URLs become links. The renderer does not fail on bad
input: a missing ``result.json``, a truncated last trace line, an empty trace or odd field types all produce a
report that says what was missing.

Usage: ``write_report(run_dir)``, or ``python -m agent.report RUNS/<run_id> [...]``.
"""

from __future__ import annotations

import base64
import datetime as _dt
import html
import json
import mimetypes
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import quote

REPORT_NAME = "report.html"
TRACE_NAME = "trace.jsonl"
RESULT_NAME = "result.json"

#: Screenshots are embedded as data URIs while their total size stays under this; above it they are linked.
EMBED_LIMIT_BYTES = 2_000_000

TERMINAL_LABELS: dict[str, str] = {
    "goal_satisfied": "goal satisfied",
    "goal_failed": "goal failed",
    "loop_stuck": "loop stuck",
    "budget_exhausted": "budget exhausted",
}

#: Event keys worth showing next to the event type, in display order.
_EVENT_FIELDS = ("tab_id", "dialog_type", "message", "handled", "filename", "suggested_filename", "url")
#: Action argument keys in display order (the rest follow alphabetically).
_ARG_ORDER = ("text", "query", "url", "option", "key", "direction", "amount", "tab_id", "seconds", "answer")

_IMAGE_MAGIC = (
    (b"\x89PNG\r\n\x1a\n", "image/png"),
    (b"\xff\xd8\xff", "image/jpeg"),
    (b"GIF8", "image/gif"),
    (b"RIFF", "image/webp"),
)


# --------------------------------------------------------------------------------------------------------------
# Loading (never raises)
# --------------------------------------------------------------------------------------------------------------


@dataclass
class _Loaded:
    records: list[dict[str, Any]] = field(default_factory=list)
    result: dict[str, Any] | None = None
    problems: list[str] = field(default_factory=list)


def _load_trace(path: Path, problems: list[str]) -> list[dict[str, Any]]:
    if not path.is_file():
        problems.append(f"{TRACE_NAME} is missing: no steps were recorded.")
        return []
    try:
        raw = path.read_bytes().decode("utf-8", errors="replace")
    except OSError as exc:
        problems.append(f"{TRACE_NAME} could not be read ({exc.__class__.__name__}: {exc}).")
        return []
    lines = raw.splitlines()
    records: list[dict[str, Any]] = []
    bad: list[int] = []
    for number, line in enumerate(lines, start=1):
        if not line.strip():
            continue
        try:
            value = json.loads(line)
        except ValueError:
            bad.append(number)
            continue
        if isinstance(value, dict):
            records.append(value)
        else:
            bad.append(number)
    last_content = max((i for i, line in enumerate(lines, start=1) if line.strip()), default=0)
    if bad == [last_content] and last_content:
        problems.append(
            f"The last line of {TRACE_NAME} (line {last_content}) is truncated or invalid and was skipped "
            "(the run was probably interrupted while writing it)."
        )
    elif bad:
        shown = ", ".join(str(n) for n in bad[:10]) + (" ..." if len(bad) > 10 else "")
        problems.append(f"{len(bad)} invalid line(s) in {TRACE_NAME} were skipped (line {shown}).")
    if not records:
        problems.append(f"{TRACE_NAME} has no trace records.")
    return records


def _load_result(path: Path, problems: list[str]) -> dict[str, Any] | None:
    if not path.is_file():
        problems.append(
            f"{RESULT_NAME} is missing: the run did not finish normally; totals come from the trace."
        )
        return None
    try:
        value = json.loads(path.read_bytes().decode("utf-8", errors="replace"))
    except (OSError, ValueError) as exc:
        problems.append(
            f"{RESULT_NAME} could not be parsed ({exc.__class__.__name__}); totals come from the trace."
        )
        return None
    if not isinstance(value, dict):
        problems.append(f"{RESULT_NAME} is not a JSON object; totals come from the trace.")
        return None
    return value


def _load(run_dir: Path) -> _Loaded:
    problems: list[str] = []
    records = _load_trace(run_dir / TRACE_NAME, problems)
    records.sort(key=lambda r: _num(r.get("seq"), default=float("inf")))
    result = _load_result(run_dir / RESULT_NAME, problems)
    return _Loaded(records=records, result=result, problems=problems)


# --------------------------------------------------------------------------------------------------------------
# Small, type-tolerant accessors (trace fields may be missing or of the wrong type)
# --------------------------------------------------------------------------------------------------------------


def _num(value: Any, default: float | None = None) -> float | None:
    if isinstance(value, bool):
        return default
    if isinstance(value, int | float):
        return float(value)
    if isinstance(value, str):
        try:
            return float(value)
        except ValueError:
            return default
    return default


def _dict(value: Any) -> dict[str, Any]:
    return value if isinstance(value, dict) else {}


def _text(value: Any) -> str:
    if value is None:
        return ""
    if isinstance(value, str):
        return value
    try:
        return json.dumps(value, ensure_ascii=False, default=str)
    except (TypeError, ValueError):
        return str(value)


def _e(value: Any) -> str:
    """Escape any value for HTML text or a quoted attribute."""
    return html.escape(_text(value), quote=True)


def _short(value: Any, limit: int = 300) -> str:
    text = _text(value)
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _url_html(url: Any, limit: int = 160) -> str:
    """A URL as text; only http(s) URLs become links (never javascript:, data: or file: from a page)."""
    text = _text(url)
    if not text:
        return ""
    label = _e(_short(text, limit))
    if text.lower().startswith(("http://", "https://")):
        return f'<a href="{_e(text)}" rel="noopener noreferrer" target="_blank">{label}</a>'
    return f"<span>{label}</span>"


def _fmt_seconds(value: float | None) -> str:
    if value is None:
        return "—"
    if value < 60:
        return f"{value:.1f} s"
    minutes, seconds = divmod(value, 60)
    return f"{int(minutes)} min {seconds:.0f} s"


def _fmt_int(value: float | None) -> str:
    return "—" if value is None else f"{int(value):,}"


def _fmt_cost(value: float | None) -> str:
    if value is None:
        return "—"
    return f"${value:.4f}" if value else "$0"


def _fmt_time(value: Any) -> str:
    number = _num(value)
    if number is not None and number > 1e8:
        moment = _dt.datetime.fromtimestamp(number, tz=_dt.UTC)
        return moment.strftime("%Y-%m-%d %H:%M:%S UTC")
    return _text(value)


# --------------------------------------------------------------------------------------------------------------
# Screenshots
# --------------------------------------------------------------------------------------------------------------


def _mime(path: Path, head: bytes) -> str:
    for magic, mime in _IMAGE_MAGIC:
        if head.startswith(magic):
            return mime
    guessed = mimetypes.guess_type(path.name)[0]
    return guessed if guessed and guessed.startswith("image/") else "image/png"


def _resolve_screenshot(run_dir: Path, value: Any) -> Path | None:
    """The screenshot file inside the run dir, or None (missing, or pointing outside the run dir)."""
    text = _text(value).strip()
    if not text:
        return None
    try:
        candidate = Path(text)
        path = (candidate if candidate.is_absolute() else run_dir / candidate).resolve()
        if not path.is_relative_to(run_dir.resolve()) or not path.is_file():
            return None
    except (OSError, ValueError):
        return None
    return path


def _image_sources(run_dir: Path, records: list[dict[str, Any]], embed_limit: int) -> dict[str, str]:
    """``screenshot value -> img src`` for every screenshot that exists: data URIs if small enough, else links."""
    files: dict[str, Path] = {}
    for record in records:
        value = record.get("screenshot")
        if not value or _text(value) in files:
            continue
        path = _resolve_screenshot(run_dir, value)
        if path is not None:
            files[_text(value)] = path
    total = 0
    for path in files.values():
        try:
            total += path.stat().st_size
        except OSError:
            continue
    embed = total <= embed_limit
    base = run_dir.resolve()
    sources: dict[str, str] = {}
    for value, path in files.items():
        if embed:
            try:
                data = path.read_bytes()
            except OSError:
                continue
            sources[value] = f"data:{_mime(path, data[:16])};base64,{base64.b64encode(data).decode('ascii')}"
        else:
            sources[value] = quote(path.relative_to(base).as_posix())
    return sources


# --------------------------------------------------------------------------------------------------------------
# Rendering
# --------------------------------------------------------------------------------------------------------------


@dataclass
class _Step:
    key: int | None
    records: list[dict[str, Any]] = field(default_factory=list)


def _group_steps(records: list[dict[str, Any]]) -> list[_Step]:
    """Records grouped by ``step``, groups in order of first appearance."""
    groups: dict[int | None, _Step] = {}
    for record in records:
        number = _num(record.get("step"))
        key = int(number) if number is not None else None
        groups.setdefault(key, _Step(key)).records.append(record)
    return list(groups.values())


def _terminal(loaded: _Loaded) -> tuple[str, str]:
    result = loaded.result or {}
    kind, reason = _text(result.get("terminal_type")), _text(result.get("terminal_reason"))
    if not kind:
        for record in reversed(loaded.records):
            if record.get("terminal_type"):
                kind = _text(record.get("terminal_type"))
                reason = reason or _text(record.get("terminal_reason"))
                break
    return kind, reason


def _badge(kind: str) -> str:
    css = kind if kind in TERMINAL_LABELS else "unknown"
    label = TERMINAL_LABELS.get(kind, kind.replace("_", " ") if kind else "no ending recorded")
    return f'<span class="badge badge-{css}" data-terminal="{_e(kind)}">{_e(label)}</span>'


def _totals(loaded: _Loaded) -> list[tuple[str, str]]:
    result = loaded.result or {}
    records = loaded.records
    usage = _dict(result.get("usage"))
    from_trace = not usage and bool(records)
    if from_trace:
        usage = {}
        for record in records:
            for key, value in _dict(record.get("usage")).items():
                number = _num(value)
                if number is not None:
                    usage[key] = usage.get(key, 0.0) + number
    executed = sum(1 for r in records if isinstance(r.get("result"), dict))
    step_count = _num(result.get("steps"), default=float(executed) if records else None)
    elapsed = _num(result.get("elapsed_s"))
    elapsed_note = ""
    if elapsed is None:
        stamps = [t for t in (_num(r.get("ts")) for r in records) if t is not None]
        if len(stamps) >= 2:
            elapsed, elapsed_note = max(stamps) - min(stamps), " (from trace)"
    suffix = " (summed from trace)" if from_trace else ""
    tokens = _num(usage.get("total_tokens"))
    inputs, outputs = _num(usage.get("input_tokens")), _num(usage.get("output_tokens"))
    token_text = _fmt_int(tokens)
    if inputs is not None or outputs is not None:
        token_text += f" ({_fmt_int(inputs)} in / {_fmt_int(outputs)} out)"
    rows = [
        ("Steps", _fmt_int(step_count)),
        ("Elapsed", _fmt_seconds(elapsed) + elapsed_note),
        ("Tokens", token_text + suffix),
        ("Model calls", _fmt_int(_num(usage.get("calls")))),
        ("Cost", _fmt_cost(_num(usage.get("cost_usd"))) + suffix),
    ]
    if result.get("started_at") is not None:
        rows.append(("Started", _fmt_time(result.get("started_at"))))
    elif records and _num(records[0].get("ts")) is not None:
        rows.append(("Started", _fmt_time(records[0].get("ts"))))
    return rows


def _action_html(action: dict[str, Any], result: dict[str, Any], record: dict[str, Any]) -> str:
    name = _text(action.get("action") or result.get("action")) or "?"
    element = action.get("element_id", result.get("element_id"))
    target = _text(record.get("target") or action.get("target"))
    parts = [f'<code class="action-name">{_e(name)}</code>']
    if element is not None and element != "":
        parts.append(f'<span class="target">on element <b>#{_e(element)}</b></span>')
    if target:
        parts.append(f'<span class="target-desc">{_e(_short(target, 200))}</span>')
    args = _dict(action.get("args")) or _dict(result.get("args"))
    keys = [k for k in _ARG_ORDER if k in args] + sorted(k for k in args if k not in _ARG_ORDER)
    arg_html = "".join(
        f'<li><span class="k">{_e(k)}</span> <span class="v">{_e(_short(args[k], 400))}</span></li>'
        for k in keys
    )
    out = f'<p class="action">{" ".join(parts)}</p>'
    if arg_html:
        out += f'<ul class="args">{arg_html}</ul>'
    if action.get("reasoning"):
        out += f'<p class="reasoning">{_e(_short(action.get("reasoning"), 1000))}</p>'
    return out


def _result_html(result: dict[str, Any]) -> str:
    status = _text(result.get("status")) or "unknown"
    css = status if status in ("success", "failure") else "unknown"
    bits = [f'<span class="status status-{css}">{_e(status)}</span>']
    error = _text(result.get("error_type"))
    if error and error != "none":
        bits.append(f'<span class="error-type">{_e(error)}</span>')
    ms = _num(result.get("execution_time_ms"))
    if ms is not None:
        bits.append(f'<span class="ms">{int(ms)} ms</span>')
    out = f'<p class="result">{" ".join(bits)}</p>'
    if result.get("message"):
        out += f'<p class="message">{_e(_short(result.get("message"), 2000))}</p>'
    if result.get("fallback"):
        out += f'<p class="fallback">Fallback used: <b>{_e(result.get("fallback"))}</b></p>'
    if result.get("extracted"):
        out += f'<p class="extracted">Extracted: {_e(_short(result.get("extracted"), 1000))}</p>'
    events = result.get("events")
    if isinstance(events, list) and events:
        items = []
        for event in events:
            event_d = _dict(event)
            if not event_d:
                items.append(f"<li>{_e(_short(event, 300))}</li>")
                continue
            detail = " · ".join(
                _url_html(event_d[k]) if k == "url" else _e(_short(event_d[k], 300))
                for k in _EVENT_FIELDS
                if event_d.get(k) not in (None, "")
            )
            items.append(
                f'<li><span class="event-type">{_e(event_d.get("type") or "event")}</span> {detail}</li>'
            )
        out += f'<ul class="events">{"".join(items)}</ul>'
    before, after = _text(result.get("url_before")), _text(result.get("url_after"))
    if after and before and after != before:
        out += f'<p class="url">URL: {_url_html(before)} → {_url_html(after)}</p>'
    return out


def _note_html(node: str, note: str) -> str:
    """A node's note; long or multi-line ones (tracebacks) collapse behind their first line."""
    label = f'<span class="label">{_e(node)}</span>'
    if "\n" not in note.strip() and len(note) <= 300:
        return f'<p class="note">{label} {_e(note)}</p>'
    lines = [line for line in note.strip().splitlines() if line.strip()]
    summary = lines[-1] if lines and lines[0].startswith("Traceback") else (lines[0] if lines else "")
    return (
        f'<details class="note"><summary>{label} {_e(_short(summary, 200))}</summary>'
        f"<pre>{_e(_short(note, 20000))}</pre></details>"
    )


def _step_html(step: _Step, index: int, sources: dict[str, str]) -> str:
    records = step.records
    title = f"Step {step.key}" if step.key is not None else "Unnumbered records"
    plan_steps: list[str] = []
    for record in records:
        text = _text(record.get("plan_step"))
        if text and text not in plan_steps:
            plan_steps.append(text)
    body: list[str] = []
    if plan_steps:
        items = "".join(f"<li>{_e(_short(p, 500))}</li>" for p in plan_steps)
        body.append(f'<div class="plan"><span class="label">Plan step</span><ul>{items}</ul></div>')
    statuses: list[str] = []
    executed = [_dict(r.get("action")) for r in records if isinstance(r.get("result"), dict)]
    for record in records:
        action, result = _dict(record.get("action")), _dict(record.get("result"))
        if action and not result and action in executed:
            continue  # the translate node's proposal, shown once with its result below
        if not (action or result):
            if record.get("action") not in (None, "", {}):  # present but malformed: still show it
                body.append(f'<p class="action"><code>{_e(_short(record.get("action"), 300))}</code></p>')
            continue
        block = _action_html(action, result, record)
        if result:
            block += _result_html(result)
            statuses.append(_text(result.get("status")))
        else:
            block += '<p class="result"><span class="status status-unknown">proposed, not executed</span></p>'
        body.append(f'<div class="attempt">{block}</div>')
    if not any(isinstance(r.get("action"), dict) or isinstance(r.get("result"), dict) for r in records):
        body.append('<p class="muted">No action in this step.</p>')
    urls = [_text(r.get("url")) for r in records if r.get("url")]
    if urls:
        body.append(f'<p class="url">Page: {_url_html(urls[-1])}</p>')
    endings: set[tuple[str, str]] = set()
    for record in records:
        if record.get("note"):
            body.append(_note_html(_text(record.get("node")) or "note", _text(record.get("note"))))
        ending = (_text(record.get("terminal_type")), _text(record.get("terminal_reason")))
        if any(ending) and ending not in endings:
            endings.add(ending)
            body.append(f'<p class="terminal">Run ended: {_badge(ending[0])} {_e(ending[1])}</p>')
    timings = []
    for record in records:
        ms = _num(record.get("node_ms"))
        label = _e(record.get("node") or "?")
        timings.append(f"<li>{label} <b>{int(ms)} ms</b></li>" if ms is not None else f"<li>{label}</li>")
    if timings:
        body.append(f'<ul class="timings" aria-label="Node timings">{"".join(timings)}</ul>')

    shots: list[str] = []
    seen: set[str] = set()
    for record in records:
        value = record.get("screenshot")
        if not value or _text(value) in seen:
            continue
        seen.add(_text(value))
        src = sources.get(_text(value))
        if src is None:
            shots.append(f'<p class="missing-shot">Screenshot not found: {_e(_short(value, 200))}</p>')
            continue
        shot_id = f"zoom-{index}-{len(seen)}"
        alt = f"Screenshot of {title.lower()} ({_text(record.get('node')) or 'page'})"
        shots.append(
            f'<figure class="shot"><input type="checkbox" class="zoom" id="{shot_id}" aria-label="Enlarge">'
            f'<label for="{shot_id}"><img class="shot-img" src="{_e(src)}" alt="{_e(alt)}"></label>'
            f"<figcaption>{_e(_short(value, 120))} · click to enlarge</figcaption></figure>"
        )

    status_css = "failure" if "failure" in statuses else ("success" if statuses else "none")
    heading_status = (
        f'<span class="status status-{status_css}">{_e(statuses[-1])}</span>'
        if statuses and statuses[-1]
        else ""
    )
    shot_html = f'<div class="shots">{"".join(shots)}</div>' if shots else ""
    anchor = f"step-{step.key}" if step.key is not None else "step-unnumbered"
    return (
        f'<article class="step step-{status_css}" id="{_e(anchor)}">'
        f"<h3>{_e(title)} {heading_status}</h3>"
        f'<div class="step-body"><div class="step-info">{"".join(body)}</div>{shot_html}</div></article>'
    )


def _raw_table(records: list[dict[str, Any]]) -> str:
    if not records:
        return '<p class="muted">No trace records.</p>'
    first_ts = _num(records[0].get("ts"))
    rows = []
    for record in records:
        ts = _num(record.get("ts"))
        rel = f"+{ts - first_ts:.2f} s" if ts is not None and first_ts is not None else ""
        action, result = _dict(record.get("action")), _dict(record.get("result"))
        action_text = _text(action.get("action"))
        if action_text and action.get("element_id") is not None:
            action_text += f" #{_text(action.get('element_id'))}"
        pretty = json.dumps(record, indent=2, ensure_ascii=False, default=str)
        rows.append(
            "<tr>"
            f"<td>{_e(record.get('seq'))}</td><td>{_e(rel)}</td><td>{_e(record.get('node'))}</td>"
            f"<td>{_e(record.get('stage'))}</td><td>{_e(record.get('step'))}</td><td>{_e(action_text)}</td>"
            f"<td>{_e(result.get('status'))}</td><td>{_e(record.get('node_ms'))}</td>"
            f'<td class="cell-url">{_e(_short(record.get("url"), 120))}</td>'
            f'<td class="cell-note">{_e(_short(record.get("note"), 200))}</td>'
            f"<td><details><summary>json</summary><pre>{_e(pretty)}</pre></details></td>"
            "</tr>"
        )
    head = "".join(
        f"<th>{h}</th>"
        for h in ("seq", "time", "node", "stage", "step", "action", "status", "ms", "url", "note", "")
    )
    return f'<div class="table-wrap"><table class="raw"><thead><tr>{head}</tr></thead><tbody>{"".join(rows)}</tbody></table></div>'


def render_report(run_dir: Path | str, *, embed_limit_bytes: int = EMBED_LIMIT_BYTES) -> str:
    """The report HTML of a run dir as a string (see :func:`write_report`)."""
    run_dir = Path(run_dir)
    loaded = _load(run_dir)
    result = loaded.result or {}
    records = loaded.records
    steps = _group_steps(records)
    sources = _image_sources(run_dir, records, embed_limit_bytes)

    run_id = _text(result.get("run_id")) or next((_text(r["run_id"]) for r in records if r.get("run_id")), "")
    run_id = run_id or run_dir.name
    goal = _text(result.get("goal"))
    kind, reason = _terminal(loaded)
    final_answer = result.get("final_answer")
    final_url = _text(result.get("url")) or next(
        (_text(r["url"]) for r in reversed(records) if r.get("url")), ""
    )

    goal_html = (
        f'<h1 class="goal">{_e(goal)}</h1>'
        if goal
        else '<h1 class="goal goal-unknown">Goal unknown (not recorded in result.json)</h1>'
    )
    outcome = f'<div class="outcome">{_badge(kind)}'
    if reason:
        outcome += f' <span class="reason">{_e(reason)}</span>'
    if result.get("stop_reason") and _text(result.get("stop_reason")) != reason:
        outcome += f' <span class="stop-reason">stop reason: {_e(result.get("stop_reason"))}</span>'
    outcome += "</div>"
    answer_css = "answer" if kind == "goal_satisfied" else "answer answer-other"
    if final_answer not in (None, ""):
        answer_html = (
            f'<section class="{answer_css}"><h2>Final answer</h2><p>{_e(final_answer)}</p></section>'
        )
    elif loaded.result is not None:
        answer_html = f'<section class="{answer_css}"><h2>Final answer</h2><p class="muted">No answer was given.</p></section>'
    else:
        answer_html = ""
    totals = "".join(f"<div><dt>{_e(k)}</dt><dd>{_e(v)}</dd></div>" for k, v in _totals(loaded))
    if final_url:
        totals += f'<div class="wide"><dt>Final URL</dt><dd>{_url_html(final_url, 200)}</dd></div>'
    problems = ""
    if loaded.problems:
        items = "".join(f"<li>{_e(p)}</li>" for p in loaded.problems)
        problems = f'<aside class="problems" role="note"><h2>Incomplete record</h2><ul>{items}</ul></aside>'

    timeline = "".join(_step_html(step, i, sources) for i, step in enumerate(steps))
    if not timeline:
        timeline = '<p class="muted">No steps were recorded.</p>'
    generated = _dt.datetime.now(tz=_dt.UTC).strftime("%Y-%m-%d %H:%M:%S UTC")
    return f"""<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; img-src data: file: 'self'; base-uri 'none'; form-action 'none'">
<meta name="referrer" content="no-referrer">
<title>Wayfinder run {_e(run_id)}</title>
<style>{_CSS}</style>
</head>
<body>
<header class="run-header">
<p class="eyebrow">Wayfinder run report · <span class="run-id">{_e(run_id)}</span></p>
{goal_html}
{outcome}
{answer_html}
<dl class="totals">{totals}</dl>
{problems}
</header>
<main>
<section class="timeline" aria-labelledby="timeline-title">
<h2 id="timeline-title">Timeline</h2>
{timeline}
</section>
<section class="raw-trace">
<details id="raw-trace"><summary>Raw trace ({len(records)} records)</summary>{_raw_table(records)}</details>
</section>
</main>
<footer>Generated by Wayfinder on {_e(generated)} from {_e(TRACE_NAME)} and {_e(RESULT_NAME)}.</footer>
</body>
</html>
"""


def write_report(run_dir: Path | str, *, embed_limit_bytes: int = EMBED_LIMIT_BYTES) -> Path:
    """Write ``run_dir/report.html`` and return its path.

    Screenshots are embedded when their total size is at most ``embed_limit_bytes``, else linked relative to the
    run dir (so the report still opens from ``file://``). The file is written atomically. Only a missing run
    directory raises (``NotADirectoryError``); missing or damaged files inside it are described in the report.
    """
    run_dir = Path(run_dir)
    if not run_dir.is_dir():
        raise NotADirectoryError(f"not a run directory: {run_dir}")
    target = run_dir / REPORT_NAME
    tmp = run_dir / (REPORT_NAME + ".tmp")
    tmp.write_text(render_report(run_dir, embed_limit_bytes=embed_limit_bytes), encoding="utf-8")
    tmp.replace(target)
    return target


_CSS = """
:root{--bg:#f6f7f9;--card:#fff;--ink:#1b1f24;--muted:#5b6472;--line:#dde1e6;--ok:#1a7f37;--bad:#c62828;
--warn:#b85c00;--budget:#6f42c1;--grey:#6b7280;--code:#f0f2f5}
*{box-sizing:border-box}
body{margin:0;font:15px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:var(--ink);background:var(--bg)}
.run-header,main,footer{max-width:1200px;margin:0 auto;padding:16px 24px}
.run-header{background:var(--card);border-bottom:1px solid var(--line);max-width:none;padding:20px max(24px,calc(50vw - 576px))}
.eyebrow{margin:0;color:var(--muted);font-size:13px;text-transform:uppercase;letter-spacing:.04em}
.goal{font-size:24px;margin:6px 0 10px;overflow-wrap:anywhere}
.goal-unknown{color:var(--muted);font-style:italic}
.outcome{display:flex;gap:10px;align-items:center;flex-wrap:wrap}
.badge{display:inline-block;padding:3px 10px;border-radius:999px;color:#fff;font-weight:600;font-size:13px;background:var(--grey)}
.badge-goal_satisfied{background:var(--ok)}.badge-goal_failed{background:var(--bad)}
.badge-loop_stuck{background:var(--warn)}.badge-budget_exhausted{background:var(--budget)}
.reason{font-family:ui-monospace,SFMono-Regular,Menlo,monospace;font-size:13px}
.stop-reason{color:var(--muted);font-size:13px}
.answer{margin:14px 0;padding:10px 14px;border-left:4px solid var(--ok);background:#f3faf5}
.answer h2{margin:0 0 4px;font-size:13px;text-transform:uppercase;color:var(--muted)}
.answer p{margin:0;white-space:pre-wrap;overflow-wrap:anywhere}
.totals{display:flex;flex-wrap:wrap;gap:8px 28px;margin:12px 0 0}
.totals div{min-width:90px}.totals .wide{flex-basis:100%}
.totals dt{font-size:12px;color:var(--muted);text-transform:uppercase}
.totals dd{margin:0;font-weight:600;overflow-wrap:anywhere}
.problems{margin-top:14px;padding:10px 14px;border:1px solid #f0c36d;background:#fff8e6;border-radius:6px}
.problems h2{margin:0 0 4px;font-size:15px}.problems ul{margin:0;padding-left:20px}
h2{font-size:19px}
.step{background:var(--card);border:1px solid var(--line);border-left:4px solid var(--grey);border-radius:6px;
margin:0 0 14px;padding:12px 16px}
.step-success{border-left-color:var(--ok)}.step-failure{border-left-color:var(--bad)}
.step h3{margin:0 0 8px;font-size:16px;display:flex;gap:8px;align-items:center}
.step-body{display:grid;grid-template-columns:minmax(0,1fr) minmax(0,420px);gap:16px}
.step-body>:only-child{grid-column:1/-1}
@media (max-width:860px){.step-body{grid-template-columns:1fr}}
.step-info p{margin:4px 0;overflow-wrap:anywhere}
.label{display:inline-block;font-size:12px;color:var(--muted);text-transform:uppercase;margin-right:4px}
.plan ul{margin:2px 0 6px;padding-left:20px}
.attempt{padding:6px 0;border-top:1px dashed var(--line)}.attempt:first-of-type{border-top:0}
code,.reason{background:var(--code);padding:1px 5px;border-radius:4px}
.action-name{font-weight:700}
.args{margin:2px 0;padding-left:20px;font-size:14px}.args .k{color:var(--muted)}
.args .v{font-family:ui-monospace,SFMono-Regular,Menlo,monospace;white-space:pre-wrap;overflow-wrap:anywhere}
.reasoning{color:var(--muted);font-style:italic}
.status{font-size:12px;font-weight:700;padding:1px 8px;border-radius:999px;background:#e5e7eb;color:#374151}
.status-success{background:#dcfce7;color:#14532d}.status-failure{background:#fee2e2;color:#7f1d1d}
.error-type{font-family:ui-monospace,monospace;color:var(--bad)}.ms{color:var(--muted);font-size:13px}
.message{white-space:pre-wrap;background:var(--code);padding:6px 8px;border-radius:4px;font-size:14px}
.fallback{color:var(--warn)}
.events{margin:4px 0;padding-left:20px;font-size:14px}
.event-type{font-family:ui-monospace,monospace;font-weight:700}
.url{font-size:13px;color:var(--muted)}
.note{font-size:14px;white-space:pre-wrap;margin:4px 0}.terminal{font-weight:600}
details.note summary{cursor:pointer}details.note pre{margin:4px 0;padding:6px 8px;background:var(--code);border-radius:4px;
font-size:12px;overflow-x:auto;white-space:pre-wrap;overflow-wrap:anywhere}
.answer-other{border-left-color:var(--grey);background:#f4f5f7}
.timings{list-style:none;padding:0;margin:6px 0 0;display:flex;flex-wrap:wrap;gap:4px 14px;font-size:12px;color:var(--muted)}
.muted{color:var(--muted)}.missing-shot{color:var(--bad);font-size:13px}
.shots{display:flex;flex-direction:column;gap:10px}
.shot{margin:0}
.shot figcaption{font-size:12px;color:var(--muted);overflow-wrap:anywhere}
.shot-img{display:block;width:100%;height:auto;border:1px solid var(--line);border-radius:4px;cursor:zoom-in;background:#fff}
.zoom{position:absolute;opacity:0;width:1px;height:1px}
.zoom:focus-visible+label .shot-img{outline:3px solid #2563eb}
.zoom:checked+label .shot-img{position:fixed;inset:0;width:100vw;height:100vh;object-fit:contain;z-index:100;
background:rgba(15,17,20,.92);border:0;border-radius:0;padding:2vh 2vw;cursor:zoom-out}
.raw-trace details>summary{cursor:pointer;font-weight:600;font-size:17px;margin:10px 0}
.table-wrap{overflow-x:auto;background:var(--card);border:1px solid var(--line);border-radius:6px}
table.raw{border-collapse:collapse;width:100%;font-size:12px}
table.raw th,table.raw td{border-bottom:1px solid var(--line);padding:4px 6px;text-align:left;vertical-align:top}
table.raw th{background:#eef0f3;position:sticky;top:0}
.cell-url,.cell-note{max-width:280px;overflow-wrap:anywhere}
table.raw pre{margin:4px 0;max-width:640px;max-height:360px;overflow:auto;white-space:pre-wrap;font-size:11px}
footer{color:var(--muted);font-size:12px}
a{color:#1d4ed8}
"""


def main(argv: list[str] | None = None) -> int:
    """``python -m agent.report RUN_DIR [...]``: (re)write the report of each run dir and print its path."""
    args = sys.argv[1:] if argv is None else argv
    if not args:
        print("usage: python -m agent.report RUN_DIR [RUN_DIR ...]", file=sys.stderr)
        return 2
    for arg in args:
        print(write_report(Path(arg)))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
