"""Observed effects: what an action did, read from the page itself (not from what the agent meant to do).

``before = await read_before(session, element_id)`` just before an action and
``effect = await read_effect(session, before, result)`` just after it give one small ``effect`` record: URL and
title change, the target's state (value, checked, selected option, expanded, disabled, removed), text that
appeared or disappeared (toasts, validation messages, new rows; those near the target first), dialogs, new tabs,
downloads, and whether the page settled. ``read_quote`` says where a quoted text sits on the live page and
whether its block names the goal's subject (the answer check). Every call is bounded and never raises: a page
that cannot be read gives ``None`` / an effect that says so.
"""

from __future__ import annotations

import asyncio
from collections import Counter
from typing import Any

from agent.browser.scripts import browser_script
from agent.browser.session import BrowserSession
from agent.util.page_errors import is_error_message

READ_TIMEOUT_S = 1.5
MAX_LISTED = 6
NEAR_PX = 400
_STATE_KEYS = ("value", "checked", "selected", "expanded", "pressed", "disabled", "invalid")


MAX_FRAMES = 6


async def _evaluate(
    target: Any, arg: dict[str, Any], timeout: float, script: str = "effects"
) -> dict[str, Any] | None:
    """Run a reader in a page or frame; None when it cannot be read (navigating away, detached, crashed)."""
    try:
        value = await asyncio.wait_for(target.evaluate(browser_script(script), arg), timeout)
    except Exception:  # noqa: BLE001 - a page that navigates away or crashes mid-read simply gives no reading
        return None
    return value if isinstance(value, dict) else None


def _frames(session: BrowserSession) -> list[Any]:
    try:
        page = session.page
        return [page.main_frame, *[f for f in page.frames if f is not page.main_frame]][:MAX_FRAMES]
    except Exception:  # noqa: BLE001
        return []


async def read_before(session: BrowserSession, element_id: int | None) -> dict[str, Any] | None:
    """The page (and its frames) and the target just before an action; starts watching mutations and
    ``invalid`` events. Holds the frames it read, so the reading after the action compares like with like."""
    readings = []
    for frame in _frames(session):
        reading = await _evaluate(frame, {"op": "before", "id": element_id}, READ_TIMEOUT_S)
        if reading is not None:
            readings.append((frame, reading))
    return {"frames": readings} if readings else None


def _merge(readings: list[dict[str, Any]]) -> dict[str, Any]:
    """One reading from the main document's and its frames' readings (texts pooled; the target where found)."""
    main = dict(readings[0])
    main["texts"] = [t for r in readings for t in r.get("texts") or []]
    main["invalid"] = [m for r in readings for m in r.get("invalid") or []]
    found = next((r for r in readings if (r.get("target") or {}).get("found")), None)
    if found is not None:
        main["target"], main["rect"] = found.get("target"), found.get("rect")
    return main


async def read_quote(
    session: BrowserSession,
    quote: str,
    subject: list[str],
    need: int | None = None,
    *,
    lists: bool = False,
    must: list[str] | None = None,
    main_only: bool = False,
    latest: list[str] | None = None,
    holiday: dict[str, Any] | None = None,
    soonest: list[str] | None = None,
) -> dict[str, Any] | None:
    """Where ``quote`` is on the live page: each occurrence with its block and whether that block (or the label
    of its list) names at least ``need`` of the ``subject`` words, ``must`` among them; plus the page's title, h1 and HTTP status, and
    with ``lists`` the sizes of the lists in the page's content (what a count is checked against). With
    ``main_only`` an occurrence outside the page's main content (aside, nav, header, footer) never answers. With
    ``latest`` (what a question asking for the latest asks: ['weight'] for 'her last weigh-in'), the latest row of
    the one dated table with a column of that name answers, under a heading naming the subject. ``holiday`` ({"name", "days": ISO dates}): a row
    whose dates take in one of the days names the holiday ('Easter' for a hire over 28 March 2027). With
    ``soonest`` ('my next invoice': the words beside the thing, ['unit', 'rent'] of 'my next unit rent invoice'),
    the row of the soonest day from today in the one dated table answers, of the rows naming those words."""
    arg = {
        "op": "quote",
        "quote": quote,
        "subject": subject,
        "need": need or len(subject),
        "must": must or [],
        "lists": lists,
        "main_only": main_only,
        "latest": latest or [],
        "holiday": holiday,
        "soonest": soonest,
    }
    readings = []
    for frame in _frames(session):
        reading = await _evaluate(frame, arg, READ_TIMEOUT_S, "quote")
        if reading is not None:
            readings.append(reading)
    if not readings:
        return None
    return {**readings[0], "found": [f for r in readings for f in r.get("found") or []]}


def _extra_texts(texts: list[dict[str, Any]], baseline: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Texts of ``texts`` beyond those in ``baseline``, counted per text: a status line that now repeats a
    button's label ("ONE") is new even though the same words were on the page before."""
    spare = Counter(t.get("t") for t in texts) - Counter(t.get("t") for t in baseline)
    out = []
    for t in texts:
        if spare[t.get("t")] > 0:
            spare[t.get("t")] -= 1
            out.append(t)
    return out


def _near(text: dict[str, Any], rect: list[int] | None) -> bool:
    if not rect:
        return False
    top, bottom = rect[1] - NEAR_PX, rect[1] + rect[3] + NEAR_PX
    return top <= int(text.get("y", -(10**9))) <= bottom


def _changed_state(before: dict[str, Any], after: dict[str, Any]) -> list[str]:
    return [k for k in _STATE_KEYS if before.get(k) != after.get(k) and (k in before or k in after)]


def read_effect_from(
    before: dict[str, Any] | None, after: dict[str, Any] | None, result: dict[str, Any]
) -> dict[str, Any]:
    """The effect record from two page readings and the action's result (pure, so it is tested directly)."""
    events = result.get("events") or []
    effect: dict[str, Any] = {
        "dialogs": [
            f"{e.get('dialog_type', 'dialog')}: {e.get('message', '')}"[:160]
            for e in events
            if e.get("type") == "dialog"
        ],
        "tabs_opened": [str(e.get("url") or "") for e in events if e.get("type") == "tab_opened"],
        "downloads": [str(e.get("filename") or "") for e in events if e.get("type") == "download"],
    }
    url_before = (before or {}).get("url") or result.get("url_before") or ""
    url_after = (after or {}).get("url") or result.get("url_after") or ""
    effect["url_changed"] = bool(url_after) and url_after != url_before
    effect["url"] = url_after
    if before is None or after is None:
        effect.update(readable=False, settled=False, appeared=[], disappeared=[], errors=[], target={})
        effect["changed"] = effect["url_changed"] or any(
            effect[k] for k in ("dialogs", "tabs_opened", "downloads")
        )
        effect["summary"] = summarize(effect, result)
        return effect
    same = bool(after.get("same_document"))
    effect["navigated"] = not same
    effect["title_changed"] = after.get("title") != before.get("title")
    effect["title"] = after.get("title") or ""
    effect["settled"] = bool(after.get("settled"))
    status = int(after.get("status") or 0)
    if not same and status >= 400:
        effect["http_status"] = status
    rect = after.get("rect") or before.get("rect")
    fresh = _extra_texts(after.get("texts") or [], before.get("texts") or [])
    fresh.sort(key=lambda t: (not t.get("a"), not t.get("h"), not _near(t, rect)))
    gone = _extra_texts(before.get("texts") or [], after.get("texts") or [])
    effect["appeared"] = [str(t["t"]) for t in fresh[:MAX_LISTED]]
    effect["disappeared"] = [str(t["t"]) for t in gone[: MAX_LISTED // 2]] if same else []
    # an error is new text announced by the page (alert/status/live region) or, in the same document, any new
    # short text that reads like one; browser validation bubbles arrive as `invalid` events
    errors = [str(t["t"]) for t in fresh if (t.get("a") or same) and is_error_message(str(t.get("t") or ""))]
    errors += [f"validation: {m}" for m in after.get("invalid") or []]
    target_before = before.get("target") or {}
    target_after = after.get("target") or {}
    target: dict[str, Any] = {}
    if target_before.get("found"):
        target = {k: target_after.get(k) for k in _STATE_KEYS if k in target_after}
        target.update(tag=target_before.get("tag"), type=target_before.get("type"))
        if target_after.get("value_len") is not None:
            target["value_len"] = target_after.get("value_len")
        if target_after.get("secret"):
            target["secret"] = True
        target["removed"] = same and not (target_after.get("found") and target_after.get("connected"))
        target["hidden"] = same and target_after.get("found") and not target_after.get("visible")
        target["changed"] = _changed_state(target_before, target_after) if target_after.get("found") else []
        if target_after.get("invalid") and not target_before.get("invalid"):
            errors.append(f"validation: {target_after['invalid']}")
    effect["target"] = target
    effect["errors"] = list(dict.fromkeys(errors))[:MAX_LISTED]
    effect["changed"] = bool(
        effect["url_changed"]
        or not same
        or effect["title_changed"]
        or fresh
        or effect["disappeared"]
        or target.get("changed")
        or target.get("removed")
        or effect["dialogs"]
        or effect["tabs_opened"]
        or effect["downloads"]
    )
    effect["summary"] = summarize(effect, result)
    return effect


def summarize(effect: dict[str, Any], result: dict[str, Any] | None = None) -> str:
    """One short line: what the page shows changed ("nothing changed" is a fact worth reading)."""
    parts: list[str] = []
    if effect.get("errors"):
        parts.append("error shown: " + "; ".join(e[:80] for e in effect["errors"][:2]))
    if effect.get("http_status"):
        parts.append(f"HTTP {effect['http_status']}")
    if effect.get("url_changed"):
        parts.append(f"URL now {str(effect.get('url'))[:100]}")
    elif effect.get("navigated"):
        parts.append("page reloaded")
    if effect.get("title_changed") and effect.get("title"):
        parts.append(f"title now {effect['title'][:60]!r}")
    target = effect.get("target") or {}
    if target.get("removed"):
        parts.append("target removed")
    for key in target.get("changed") or []:
        value = target.get(key)
        if key == "value":
            shown = f"{target.get('value_len', 0)} chars" if target.get("secret") else repr(str(value)[:40])
            parts.append(f"field holds {shown}")
        elif key == "selected":
            parts.append(f"selected {', '.join(value or [])[:60]!r}")
        else:
            parts.append(f"{key}={value}")
    shown = [t for t in effect.get("appeared") or [] if t not in (effect.get("errors") or [])]
    if shown and not effect.get("navigated"):
        parts.append("appeared: " + " | ".join(t[:60] for t in shown[:2]))
    if effect.get("dialogs"):
        parts.append("dialog " + effect["dialogs"][0][:80])
    if effect.get("tabs_opened"):
        parts.append(f"new tab {effect['tabs_opened'][0][:80]}")
    if effect.get("downloads"):
        parts.append(f"downloaded {', '.join(effect['downloads'])[:80]}")
    if not parts:
        if effect.get("readable") is False:
            return "effect unknown (page could not be read)"
        return "nothing changed"
    if effect.get("settled") is False and effect.get("readable", True):
        parts.append("page still changing")
    return "; ".join(parts)


async def read_effect(
    session: BrowserSession, before: dict[str, Any] | None, result: dict[str, Any], element_id: int | None
) -> dict[str, Any]:
    """The effect of the action that just ran (bounded; never raises)."""
    before_merged = after = None
    if before is not None:
        afters, befores = [], []
        for n, (frame, reading) in enumerate(before.get("frames") or []):
            arg = {"op": "after", "token": reading.get("token"), "id": element_id, "quiet_ms": 120}
            arg["max_wait_ms"] = 500 if n == 0 else 0
            frames = _frames(session) if n == 0 else []
            target = frames[0] if frames else frame  # the main frame object survives navigations
            later = await _evaluate(target, arg, READ_TIMEOUT_S + 0.5)
            if later is None and n == 0:
                break
            if later is not None:
                befores.append(reading)
                afters.append(later)
        if afters:
            before_merged, after = _merge(befores), _merge(afters)
    try:
        return read_effect_from(before_merged, after, result)
    except Exception:  # noqa: BLE001 - a malformed reading must not cost the step
        return {"readable": False, "changed": False, "summary": "effect unknown (page could not be read)"}
