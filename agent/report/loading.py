"""Reading a run's records for the report: never raises, and says what was missing.

Also the small type-tolerant accessors and formatters the report's view uses (trace fields may be missing or of
the wrong type) and the screenshots, embedded as ``data:`` URIs while their total stays small, else linked.
"""

from __future__ import annotations

import base64
import datetime as _dt
import json
import mimetypes
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import quote

from agent.terminals import BUDGET_EXHAUSTED, GOAL_FAILED, GOAL_SATISFIED, LOOP_STUCK

REPORT_NAME = "report.html"
TRACE_NAME = "trace.jsonl"
RESULT_NAME = "result.json"

#: Screenshots are embedded as data URIs while their total size stays under this; above it they are linked.
EMBED_LIMIT_BYTES = 2_000_000

TERMINAL_LABELS: dict[str, str] = {
    GOAL_SATISFIED: "goal satisfied",
    GOAL_FAILED: "goal failed",
    LOOP_STUCK: "loop stuck",
    BUDGET_EXHAUSTED: "budget exhausted",
}

#: Event keys worth showing next to the event type, in display order.
EVENT_FIELDS = ("tab_id", "dialog_type", "message", "handled", "filename", "suggested_filename", "url")
#: Action argument keys in display order (the rest follow alphabetically).
ARG_ORDER = ("text", "query", "url", "option", "key", "direction", "amount", "tab_id", "seconds", "answer")

#: What the trace already shows in place of a secret value.
HIDDEN = "<hidden>"
#: What a masked secret reads as in the report (the same length whatever was typed).
MASK = "••••••"
#: Words in a field's description that make what was typed into it a secret.
_SECRET_FIELD = re.compile(r"\b(password|passcode|passphrase|passwort|pin)\b", re.IGNORECASE)
#: Shorter secrets are masked where they are a whole value, not inside other text (they would hit ordinary words).
_MIN_MASKED_SUBSTRING = 3

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
class LoadedRun:
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
    lines = raw.split("\n")
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


def load_run(run_dir: Path) -> LoadedRun:
    problems: list[str] = []
    records = _load_trace(run_dir / TRACE_NAME, problems)
    records.sort(key=lambda r: num(r.get("seq"), default=float("inf")))
    result = _load_result(run_dir / RESULT_NAME, problems)
    return mask_secrets(LoadedRun(records=records, result=result, problems=problems))


# --------------------------------------------------------------------------------------------------------------
# Secrets: what was typed into a password field is masked everywhere the report shows text
# --------------------------------------------------------------------------------------------------------------


def typed_secrets(records: list[dict[str, Any]]) -> set[str]:
    """The values typed into password fields: the page said so (the effect's target is a secret or of type
    password), or the field's description (note, reasoning) names it a password, passcode or PIN."""
    found: set[str] = set()
    for record in records:
        action, result = as_dict(record.get("action")), as_dict(record.get("result"))
        if (action.get("action") or result.get("action")) != "type":
            continue
        target = as_dict(as_dict(result.get("effect")).get("target"))
        described = " ".join(
            as_text(x) for x in (record.get("note"), action.get("reasoning"), action.get("target"))
        )
        if target.get("secret") or target.get("type") == "password" or _SECRET_FIELD.search(described):
            for args in (as_dict(action.get("args")), as_dict(result.get("args"))):
                text = args.get("text")
                if isinstance(text, str) and text.strip() and text != HIDDEN:
                    found.add(text)
            # the plan step that asked for it quotes the value first (Type "..." into "Password")
            quoted = re.findall(r'"([^"]+)"', as_text(record.get("plan_step")))
            if len(quoted) >= 2:
                found.add(quoted[0])
    return found


def _masked(value: Any, secrets: list[str]) -> Any:
    if isinstance(value, str):
        if value in secrets:
            return MASK
        for secret in secrets:
            if len(secret) >= _MIN_MASKED_SUBSTRING:
                value = value.replace(secret, MASK)
        return value
    if isinstance(value, dict):
        return {key: _masked(item, secrets) for key, item in value.items()}
    if isinstance(value, list):
        return [_masked(item, secrets) for item in value]
    return value


def mask_secrets(loaded: LoadedRun) -> LoadedRun:
    """The run with every password value masked in every record and in the result (goal, arguments, plan
    steps, notes, the raw trace): the report shows what was done, never the secret itself."""
    secrets = sorted(typed_secrets(loaded.records), key=len, reverse=True)
    if not secrets:
        return loaded
    loaded.records = _masked(loaded.records, secrets)
    loaded.result = _masked(loaded.result, secrets)
    return loaded


# --------------------------------------------------------------------------------------------------------------
# Small, type-tolerant accessors (trace fields may be missing or of the wrong type)
# --------------------------------------------------------------------------------------------------------------


def num(value: Any, default: float | None = None) -> float | None:
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


def as_dict(value: Any) -> dict[str, Any]:
    return value if isinstance(value, dict) else {}


def as_text(value: Any) -> str:
    if value is None:
        return ""
    if isinstance(value, str):
        return value
    try:
        return json.dumps(value, ensure_ascii=False, default=str)
    except (TypeError, ValueError):
        return str(value)


def short(value: Any, limit: int = 300) -> str:
    text = as_text(value)
    return text if len(text) <= limit else text[: limit - 1] + "…"


def fmt_seconds(value: float | None) -> str:
    if value is None:
        return "—"
    if value < 60:
        return f"{value:.1f} s"
    minutes, seconds = divmod(value, 60)
    return f"{int(minutes)} min {seconds:.0f} s"


def fmt_int(value: float | None) -> str:
    return "—" if value is None else f"{int(value):,}"


def fmt_cost(value: float | None) -> str:
    if value is None:
        return "—"
    return f"${value:.4f}" if value else "$0"


def fmt_time(value: Any) -> str:
    number = num(value)
    if number is not None and number > 1e8:
        moment = _dt.datetime.fromtimestamp(number, tz=_dt.UTC)
        return moment.strftime("%Y-%m-%d %H:%M:%S UTC")
    return as_text(value)


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
    text = as_text(value).strip()
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


def image_sources(run_dir: Path, records: list[dict[str, Any]], embed_limit: int) -> dict[str, str]:
    """``screenshot value -> img src`` for every screenshot that exists: data URIs if small enough, else links."""
    files: dict[str, Path] = {}
    for record in records:
        value = record.get("screenshot")
        if not value or as_text(value) in files:
            continue
        path = _resolve_screenshot(run_dir, value)
        if path is not None:
            files[as_text(value)] = path
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
