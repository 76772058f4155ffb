"""execute_action: run one Action on the session's active tab and judge the outcome on the page.

Contract: never raises, never exceeds its time bound (element and other actions ``options.action_timeout_s``,
navigate/search/go_back/go_forward ``options.navigation_timeout_s``, wait at most 10 s + 1 s; a hard
``asyncio.wait_for`` adds ``_GRACE_S`` for clean-up), and every failure is a result with an ``error_type`` and a
message written for the planner. After an action, the page is given up to ``options.settle_timeout_s`` (inside
the bound) for its navigation/XHR to land, so the next observation sees the result.

Element actions (click, type, select_option) try, in order: the direct Playwright action with a short timeout;
"wiggle" (re-mark the page with the observation layer, scroll the element to the centre, retry); a JS fallback
(``element.click()`` / setting the value with input+change events), never on a disabled or invisible element nor
through a page-covering overlay; and a text/role match from the element's description in ``observation``
(which also handles ids gone stale after the page replaced its DOM). A click whose Playwright log says the click
was dispatched is never retried, so a non-idempotent button is not pressed twice. An element under a
page-covering overlay (cookie wall, modal) fails at once with the overlay's text: the page wants it handled
first, as a person would. A disabled element fails with error_type ``tool_limit``; a hidden one is never touched.
Failures count per element id in ``session.failure_counts`` (success clears the count).

Events: the result's ``events`` are the session events that happened while the action ran (a copy); they stay
pending in the session, so the next observation's ``drain_events()`` reports them too. Nothing is lost between
an action and the observation that follows it.
"""

from __future__ import annotations

import asyncio
import contextlib
import difflib
import re
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

from agent.browser.session import BrowserClosedError, BrowserSession, BrowserSessionError, safe_filename
from agent.browser.urls import build_search_url, check_domain, check_navigation
from agent.types import META_ACTIONS, Action, ActionResult, Element, Observation

NAVIGATION_ACTIONS = ("navigate", "search", "go_back", "go_forward")
ELEMENT_ACTIONS = ("click", "type", "select_option")
MAX_WAIT_S = 10.0
_GRACE_S = 0.75

#: Model-style key names to Playwright key names.
KEY_ALIASES: dict[str, str] = {
    "enter": "Enter",
    "return": "Enter",
    "esc": "Escape",
    "escape": "Escape",
    "tab": "Tab",
    "space": "Space",
    "spacebar": "Space",
    "backspace": "Backspace",
    "delete": "Delete",
    "del": "Delete",
    "up": "ArrowUp",
    "down": "ArrowDown",
    "left": "ArrowLeft",
    "right": "ArrowRight",
    "arrowup": "ArrowUp",
    "arrowdown": "ArrowDown",
    "arrowleft": "ArrowLeft",
    "arrowright": "ArrowRight",
    "pageup": "PageUp",
    "pagedown": "PageDown",
    "page_up": "PageUp",
    "page_down": "PageDown",
    "home": "Home",
    "end": "End",
    "ctrl": "Control",
    "control": "Control",
    "cmd": "Meta",
    "meta": "Meta",
    "alt": "Alt",
    "shift": "Shift",
}

SEARCH_BOX_SELECTOR = ", ".join(
    (
        "input[type=search]",
        "[role=searchbox]",
        "input[name*=search i]",
        "input[placeholder*=search i]",
        "input[aria-label*=search i]",
        "input[id*=search i]",
        "input[name=q]",
        "textarea[name=q]",
        "[role=search] input",
        "form[role=search] input",
    )
)

# JS helpers -----------------------------------------------------------------------------------------------------

_STATE_JS = """
(el) => {
  const tag = el.tagName.toLowerCase();
  const style = getComputedStyle(el);
  const r = el.getBoundingClientRect();
  let visible = r.width > 0 && r.height > 0 && style.visibility !== 'hidden' && style.display !== 'none';
  if (visible && el.checkVisibility) visible = el.checkVisibility({ checkOpacity: true, checkVisibilityCSS: true });
  const disabled = (el.matches && el.matches(':disabled')) || el.getAttribute('aria-disabled') === 'true';
  const editable = el.isContentEditable ||
    ((tag === 'input' || tag === 'textarea') && !el.readOnly && !el.disabled);
  const label = (el.getAttribute('aria-label') || el.innerText || el.value || el.getAttribute('placeholder') ||
                 el.getAttribute('title') || '').trim().replace(/\\s+/g, ' ').slice(0, 80);
  let fixed = false;
  for (let n = el; n && n.nodeType === 1; n = n.parentElement || (n.getRootNode() && n.getRootNode().host)) {
    const p = getComputedStyle(n).position;
    if (p === 'fixed' || p === 'sticky') { fixed = true; break; }
  }
  return { tag, type: (el.getAttribute('type') || '').toLowerCase(), visible, disabled, editable, fixed,
           readonly: !!el.readOnly, contenteditable: !!el.isContentEditable, label,
           role: el.getAttribute('role') || '' };
}
"""

_OCCLUSION_JS = """
(el) => {
  const r = el.getBoundingClientRect();
  const w = innerWidth, h = innerHeight;
  const cx = Math.min(Math.max(r.left + r.width / 2, 0), w - 1);
  const cy = Math.min(Math.max(r.top + r.height / 2, 0), h - 1);
  const root = el.getRootNode();
  const hit = (root.elementFromPoint ? root : document).elementFromPoint(cx, cy);
  if (!hit || hit === el || el.contains(hit) || (hit.shadowRoot && hit.contains(el))) return { occluded: false };
  let top = hit;
  while (top.parentElement && !top.parentElement.contains(el)) top = top.parentElement;
  const o = top.getBoundingClientRect();
  const area = (Math.max(0, Math.min(o.right, w) - Math.max(o.left, 0)) *
                Math.max(0, Math.min(o.bottom, h) - Math.max(o.top, 0))) / (w * h);
  const text = (top.innerText || '').trim().replace(/\\s+/g, ' ').slice(0, 120);
  return { occluded: true, overlay: area >= 0.5, area, tag: top.tagName.toLowerCase(), text };
}
"""

_WIGGLE_JS = """
(el) => {
  el.scrollIntoView({ block: 'center', inline: 'center', behavior: 'instant' });
}
"""

_SET_VALUE_JS = """
(el, [text, clear]) => {
  el.focus();
  const value = clear ? text : (el.value || '') + text;
  if (el.isContentEditable) { el.textContent = value; }
  else {
    const proto = el instanceof HTMLTextAreaElement ? HTMLTextAreaElement.prototype : HTMLInputElement.prototype;
    const setter = Object.getOwnPropertyDescriptor(proto, 'value').set;
    setter.call(el, value);
  }
  el.dispatchEvent(new Event('input', { bubbles: true }));
  el.dispatchEvent(new Event('change', { bubbles: true }));
}
"""

_CARET_END_JS = """
(el) => {
  el.focus();
  if (typeof el.setSelectionRange === 'function' && typeof el.value === 'string') {
    try { el.setSelectionRange(el.value.length, el.value.length); } catch (e) {}
  } else if (el.isContentEditable) {
    const range = document.createRange(); range.selectNodeContents(el); range.collapse(false);
    const sel = getSelection(); sel.removeAllRanges(); sel.addRange(range);
  }
}
"""

_FIELD_VALUE_JS = "(el) => el.isContentEditable ? el.innerText : (el.value ?? '')"

_SELECT_INFO_JS = """
(el) => ({
  tag: el.tagName.toLowerCase(),
  multiple: !!el.multiple,
  options: el.tagName === 'SELECT'
    ? [...el.options].map((o) => ({ value: o.value, label: (o.label || o.textContent || '').trim(), disabled: o.disabled }))
    : [],
})
"""

_BELOW_JS = "() => { const d = document.scrollingElement || document.documentElement; return d.scrollHeight - d.scrollTop - innerHeight; }"

_SCROLL_JS = """
([dy, useElement], el) => {
  const scrollable = (n) => {
    if (!n || n.nodeType !== 1) return false;
    const s = getComputedStyle(n);
    return /(auto|scroll|overlay)/.test(s.overflowY) && n.scrollHeight > n.clientHeight + 1;
  };
  let target = null;
  if (useElement && el) {
    let n = el;
    while (n && !scrollable(n)) n = n.parentElement || (n.getRootNode() && n.getRootNode().host) || null;
    target = n;
  }
  const doc = document.scrollingElement || document.documentElement;
  if (!target) {
    const before = doc.scrollTop;
    const amount = dy === 'page' ? Math.round(innerHeight * 0.85) : dy === '-page' ? -Math.round(innerHeight * 0.85) : dy;
    window.scrollBy({ top: amount, behavior: 'instant' });
    if (Math.abs(doc.scrollTop - before) >= 1 || useElement) {
      return { moved: doc.scrollTop - before, y: doc.scrollTop, below: doc.scrollHeight - doc.scrollTop - innerHeight,
               target: 'page' };
    }
    // The window does not scroll: find the largest scrollable container (app layouts scroll a <main>).
    let best = null, bestArea = 0;
    for (const n of document.querySelectorAll('body *')) {
      if (!scrollable(n)) continue;
      const r = n.getBoundingClientRect();
      const area = r.width * r.height;
      if (area > bestArea) { best = n; bestArea = area; }
    }
    if (!best) return { moved: 0, y: doc.scrollTop, below: doc.scrollHeight - doc.scrollTop - innerHeight, target: 'page' };
    target = best;
  }
  const before = target.scrollTop;
  const amount = dy === 'page' ? Math.round(target.clientHeight * 0.85) : dy === '-page' ? -Math.round(target.clientHeight * 0.85) : dy;
  target.scrollBy({ top: amount, behavior: 'instant' });
  return { moved: target.scrollTop - before, y: target.scrollTop,
           below: target.scrollHeight - target.scrollTop - target.clientHeight, target: target.tagName.toLowerCase() };
}
"""


# Plumbing -------------------------------------------------------------------------------------------------------


class _Fail(Exception):
    """A failure with a planner-facing message; ends the action (or the current fallback stage)."""

    def __init__(self, error_type: str, message: str, *, final: bool = False):
        super().__init__(message)
        self.error_type = error_type
        self.message = message
        self.final = final  # True: no later fallback can fix this (disabled, read-only, overlay)


@dataclass
class _Outcome:
    status: str
    error_type: str
    message: str
    fallback: str | None = None
    extracted: str | None = None


def _ok(message: str, **kw: Any) -> _Outcome:
    return _Outcome("success", "none", message, **kw)


def _fail(error_type: str, message: str) -> _Outcome:
    return _Outcome("failure", error_type, message)


@dataclass
class _Run:
    session: BrowserSession
    name: str
    args: dict[str, Any]
    element_id: int | None
    observation: Observation | None
    deadline: float
    mark: int
    started: float = 0.0  # monotonic start of the action
    attempt_cap: float | None = None  # shorter Playwright timeouts for one attempt (see _element_action)

    def remaining(self, margin: float = 0.0) -> float:
        return max(0.0, self.deadline - time.monotonic() - margin)

    def ms(self, cap: float, margin: float = 0.3) -> float:
        """A Playwright timeout (ms) of at most ``cap`` seconds that still fits the action's budget."""
        return max(50.0, min(cap, self.remaining(margin)) * 1000)

    @property
    def options(self) -> Any:
        return self.session.options


def _short_error(exc: BaseException) -> str:
    text = str(exc).strip() or type(exc).__name__
    first = text.splitlines()[0]
    return first[:300]


def _is_timeout(exc: BaseException) -> bool:
    return isinstance(exc, asyncio.TimeoutError) or type(exc).__name__ == "TimeoutError"


def _describe(desc: Element | None, element_id: int | None) -> str:
    if not desc:
        return f"element {element_id}"
    label = desc.get("name") or desc.get("text") or desc.get("placeholder") or ""
    kind = desc.get("role") or desc.get("tag") or "element"
    label = f' "{label[:60]}"' if label else ""
    return f"element {element_id} ({kind}{label})"


def _find_in_observation(observation: Observation | None, element_id: int | None) -> Element | None:
    if not observation or element_id is None:
        return None
    for element in observation.get("elements") or []:
        if element.get("id") == element_id:
            return element
    return None


def _bound_for(name: str, options: Any, args: dict[str, Any]) -> float:
    if name in NAVIGATION_ACTIONS:
        return float(options.navigation_timeout_s)
    if name == "wait":
        return _wait_seconds(args)[0] + 1.0
    return float(options.action_timeout_s)


def _wait_seconds(args: dict[str, Any]) -> tuple[float, bool]:
    try:
        seconds = float(args.get("seconds", 1.0))
    except (TypeError, ValueError):
        seconds = 1.0
    clamped = min(max(seconds, 0.0), MAX_WAIT_S)
    return clamped, clamped != seconds


async def _safe_url(session: BrowserSession) -> str:
    try:
        return session.page.url
    except Exception:
        return ""


# Entry point ----------------------------------------------------------------------------------------------------


async def execute_action(
    session: BrowserSession, action: Action | dict[str, Any], *, observation: Observation | None = None
) -> ActionResult:
    """Execute one action on the active tab; see the module docstring for the contract."""
    started = time.monotonic()
    action = action if isinstance(action, dict) else {}
    name = str(action.get("action") or "")
    raw_args = action.get("args")
    args: dict[str, Any] = dict(raw_args) if isinstance(raw_args, dict) else {}
    element_id = action.get("element_id")
    with contextlib.suppress(TypeError, ValueError):
        element_id = int(element_id) if element_id is not None else None
    if not isinstance(element_id, int):
        element_id = None
    url_before = await _safe_url(session)
    mark = session.event_mark()

    outcome: _Outcome
    handler = _HANDLERS.get(name)
    if name in META_ACTIONS:
        outcome = _fail(
            "tool_limit", f"'{name}' is a meta action handled by the graph, not executed in the browser"
        )
    elif handler is None:
        outcome = _fail("unknown", f"unknown action {name!r}")
    else:
        bound = _bound_for(name, session.options, args)
        run = _Run(session, name, args, element_id, observation, started + bound, mark, started=started)
        try:
            outcome = await asyncio.wait_for(_guarded(handler, run), bound + _GRACE_S)
        except TimeoutError:
            outcome = _fail("timeout", f"{name} did not finish within {bound:.1f}s and was abandoned")
        except Exception as exc:  # belt and braces: _guarded already converts
            outcome = _fail("unknown", f"{name} failed: {_short_error(exc)}")

    if name in ELEMENT_ACTIONS and element_id is not None and session.is_alive:
        counts = session.failure_counts
        if outcome.status == "failure":
            counts[element_id] = counts.get(element_id, 0) + 1
        else:
            counts.pop(element_id, None)

    result: ActionResult = {
        "action": name,
        "args": args,
        "element_id": element_id,
        "status": outcome.status,  # type: ignore[typeddict-item]
        "error_type": outcome.error_type,
        "message": outcome.message,
        "execution_time_ms": int((time.monotonic() - started) * 1000),
        "events": session.events_since(mark),
        "fallback": outcome.fallback,
        "url_before": url_before,
        "url_after": await _safe_url(session),
    }
    if outcome.extracted is not None:
        result["extracted"] = outcome.extracted
    return result


async def _guarded(handler: Callable[[_Run], Awaitable[_Outcome]], run: _Run) -> _Outcome:
    """Turn every exception into an outcome with the right error type."""
    try:
        session = run.session
        if not session.is_alive:
            raise BrowserClosedError(session.dead_reason or "the browser session is closed")
        if session.active_crashed and run.name not in ("navigate", "search", "switch_tab", "wait"):
            return _fail(
                "unknown",
                f"tab {session.active_tab_id} crashed (its renderer is gone); navigate to a URL to continue in a "
                "fresh tab",
            )
        return await handler(run)
    except _Fail as exc:
        return _fail(exc.error_type, exc.message)
    except BrowserClosedError as exc:
        return _fail("unknown", f"the browser is gone: {exc}")
    except BrowserSessionError as exc:
        return _fail("unknown", str(exc))
    except TimeoutError:
        return _fail("timeout", f"{run.name} timed out")
    except Exception as exc:
        if _is_timeout(exc):
            return _fail("timeout", f"{run.name} timed out: {_short_error(exc)}")
        if "Target page, context or browser has been closed" in str(exc) or "has been closed" in str(exc):
            if not run.session.is_alive:
                return _fail("unknown", f"the browser is gone: {run.session.dead_reason}")
            return _fail("unknown", f"the tab was closed during {run.name}")
        if "crash" in str(exc).lower():
            return _fail("unknown", f"the tab crashed during {run.name}; navigate to continue in a fresh tab")
        return _fail("unknown", f"{run.name} failed: {_short_error(exc)}")


async def _settle(run: _Run, cap: float | None = None) -> None:
    cap = run.options.settle_timeout_s if cap is None else cap
    await run.session.wait_for_settle(min(cap, run.remaining(0.2)), since=run.started)


def _navigated(run: _Run) -> bool:
    return any(e.get("type") in ("url_changed", "tab_opened") for e in run.session.events_since(run.mark))


# Element actions ------------------------------------------------------------------------------------------------

Attempt = Callable[[Any, str], Awaitable[_Outcome]]


async def _state(locator: Any, run: _Run) -> dict[str, Any]:
    return await locator.evaluate(_STATE_JS, timeout=run.ms(1.5))


async def _precheck(locator: Any, run: _Run, what: str) -> dict[str, Any]:
    state = await _state(locator, run)
    if state.get("disabled"):
        raise _Fail(
            "tool_limit",
            f"{what} is disabled; it cannot be used until the page enables it (fill in what it needs first)",
            final=True,
        )
    return state


async def _overlay_over(locator: Any, run: _Run) -> str | None:
    """Text of a page-covering overlay (cookie wall, modal) lying over the element once scrolled into view."""
    with contextlib.suppress(Exception):
        await locator.evaluate(_WIGGLE_JS, timeout=run.ms(1.0))
    try:
        info = await locator.evaluate(_OCCLUSION_JS, timeout=run.ms(1.0))
    except Exception:
        return None
    if info.get("occluded") and info.get("overlay"):
        return str(info.get("text") or info.get("tag") or "an overlay")
    return None


async def _overlay_check(locator: Any, run: _Run, what: str) -> None:
    """Refuse to act through a page-covering overlay: the page wants that handled first (a human would)."""
    text = await _overlay_over(locator, run)
    if text is not None:
        raise _Fail(
            "element_not_found",
            f"{what} is covered by an overlay that blocks the page ({text!r}); accept or close it first",
            final=True,
        )


async def _remark(run: _Run) -> None:
    """Re-run the observation layer's marking pass so ids of re-rendered elements exist again."""
    try:
        from agent.dom.observe import mark_frames
    except Exception:
        return
    with contextlib.suppress(Exception):
        await asyncio.wait_for(mark_frames(run.session.page), max(0.1, min(2.5, run.remaining(0.5))))


async def _match_by_description(run: _Run, desc: Element, kind: str) -> Any:
    """Find the element the observation described among visible elements by role+name, text, label, placeholder."""
    page = run.session.page
    role = (desc.get("role") or "").strip()
    name = re.sub(r"\s+", " ", (desc.get("name") or "").strip())
    text = re.sub(r"\s+", " ", (desc.get("text") or "").strip())
    placeholder = (desc.get("placeholder") or "").strip()
    strategies: list[tuple[str, Callable[[Any], Any]]] = []
    if role and name:
        strategies.append(("role+name", lambda f: f.get_by_role(role, name=name, exact=True)))
    if kind != "click" and name:
        strategies.append(("label", lambda f: f.get_by_label(name, exact=True)))
    if placeholder:
        strategies.append(("placeholder", lambda f: f.get_by_placeholder(placeholder, exact=True)))
    if text and len(text) <= 200:
        strategies.append(("text", lambda f: f.get_by_text(text, exact=True)))
    if role and name:
        strategies.append(("role+name~", lambda f: f.get_by_role(role, name=name)))
    ambiguous: list[str] = []
    for label, make in strategies:
        visible: list[Any] = []
        for frame in page.frames:
            if frame.is_detached():
                continue
            try:
                locator = make(frame)
                count = await asyncio.wait_for(locator.count(), max(0.05, min(1.0, run.remaining(0.5))))
            except Exception:
                continue
            for index in range(min(count, 10)):
                candidate = locator.nth(index)
                with contextlib.suppress(Exception):
                    if await candidate.is_visible():
                        visible.append(candidate)
        if len(visible) == 1:
            return visible[0]
        if len(visible) > 1:
            chosen = await _nearest(visible, desc.get("bbox"))
            if chosen is not None:
                return chosen
            ambiguous.append(f"{len(visible)} elements match {label}")
    if ambiguous:
        raise _Fail(
            "ambiguous_step", f"{_describe(desc, desc.get('id'))} is gone and " + "; ".join(ambiguous)
        )
    return None


async def _nearest(candidates: list[Any], bbox: list[float] | None) -> Any:
    """The one candidate sitting where the old element was (within a few px), else None."""
    if not bbox or len(bbox) != 4:
        return None
    hits = []
    for candidate in candidates:
        with contextlib.suppress(Exception):
            box = await candidate.bounding_box(timeout=500)
            if box and abs(box["x"] - bbox[0]) <= 6 and abs(box["y"] - bbox[1]) <= 6:
                hits.append(candidate)
    return hits[0] if len(hits) == 1 else None


async def _element_action(run: _Run, attempt: Attempt, js_attempt: Attempt | None, verb: str) -> _Outcome:
    """The fallback chain shared by click/type/select_option."""
    session, eid = run.session, run.element_id
    if eid is None:
        return _fail("element_not_found", f"{verb} needs an element_id from the observation")
    desc = _find_in_observation(run.observation, eid)
    what = _describe(desc, eid)
    errors: list[str] = []
    logs: list[str] = []  # full Playwright messages (their call logs say why an attempt failed)

    async def stage(locator: Any, stage_name: str | None, fn: Attempt) -> _Outcome | None:
        try:
            outcome = await fn(locator, what)
            outcome.fallback = stage_name
            return outcome
        except _Fail as exc:
            if exc.final:
                raise
            errors.append(f"{stage_name or 'direct'}: {exc.message}")
        except Exception as exc:
            if not session.is_alive:
                raise
            if verb == "click" and ("action done" in str(exc) or _navigated(run)):
                # The click was dispatched (Playwright's log says so) or the page reacted: do not press it again.
                return _ok(f"{verb} on {what} done (the page was still busy afterwards)", fallback=stage_name)
            if verb == "click" and "performing click action" in str(exc):
                raise _Fail(
                    "timeout",
                    f"the click on {what} was sent but the page did not respond in time (busy?); not retrying, "
                    "so it is never pressed twice",
                    final=True,
                ) from exc
            errors.append(f"{stage_name or 'direct'}: {_short_error(exc)}")
            logs.append(str(exc))
        return None

    hidden: list[str] = []
    pinned = False

    async def usable(locator: Any, *, wait: bool) -> dict[str, Any] | None:
        """The element's state when it can be acted on; None when the page hides it (never acted on)."""
        state = await _precheck(locator, run, what)
        if not state.get("visible") and wait:
            with contextlib.suppress(Exception):
                await locator.wait_for(state="visible", timeout=run.ms(0.5))
            state = await _precheck(locator, run, what)
        if not state.get("visible"):
            if not hidden:
                hidden.append(
                    f"{what} is not visible (the page hides it); refusing to act on a hidden element"
                )
            return None
        return state

    # 1. direct
    locator = await session.locate(eid)
    if locator is not None:
        if desc is None:  # no observation given: describe the element from the page for the messages
            with contextlib.suppress(Exception):
                state = await _state(locator, run)
                what = _describe(
                    {"role": state.get("role") or state.get("tag"), "name": state.get("label")}, eid
                )
        state = await usable(locator, wait=True)
        if state:
            # Under a page-covering overlay: give a transient one (spinner, fade-out) a short chance, no fallbacks.
            covered = await _overlay_over(locator, run)
            run.attempt_cap = 0.8 if covered else None
            result = await stage(locator, None, attempt)
            run.attempt_cap = None
            if result:
                return result
            if covered:
                await _overlay_check(locator, run, what)
            # A fixed element under another fixed one: scrolling cannot uncover it, go straight to JS.
            pinned = bool(state.get("fixed")) and any("intercepts pointer events" in log for log in logs)
    else:
        errors.append(f"direct: no element with id {eid} on the page")
    # 2. wiggle: re-mark, scroll into view, retry
    if run.remaining(0.5) > 0.2 and not pinned:
        await _remark(run)
        locator = await session.locate(eid)
        if locator is not None and await usable(locator, wait=False):
            with contextlib.suppress(Exception):
                await locator.evaluate(_WIGGLE_JS, timeout=run.ms(1.0))
                await asyncio.sleep(0.05)
            result = await stage(locator, "wiggle", attempt)
            if result:
                return result
    # 3. JS fallback on a visible element that is not under a page-covering overlay
    js_ready = locator is not None and js_attempt is not None and run.remaining(0.5) > 0.2
    if js_ready and await usable(locator, wait=False):
        await _overlay_check(locator, run, what)
        result = await stage(locator, "js_click" if verb == "click" else "js_input", js_attempt)  # type: ignore[arg-type]
        if result:
            return result
    # 4. text/role match from the observation's description
    if desc and run.remaining(0.5) > 0.2:
        match = await _match_by_description(run, desc, verb)
        if match is not None and await usable(match, wait=False):
            result = await stage(match, "text_match", attempt)
            if result:
                return result
            if js_attempt is not None and run.remaining(0.5) > 0.2:
                await _overlay_check(match, run, what)
                result = await stage(match, "text_match", js_attempt)
                if result:
                    return result
        elif match is None:
            errors.append("text_match: nothing on the page matches its role/name/text")
    elif not desc:
        errors.append("text_match: no observation describes this element")
    detail = "; ".join(hidden + errors[-3:])
    if run.remaining(0.3) <= 0:
        return _fail(
            "timeout", f"could not {verb} {what} within {run.options.action_timeout_s:.1f}s: {detail}"
        )
    return _fail("element_not_found", f"could not {verb} {what}: {detail}")


async def _do_click(run: _Run) -> _Outcome:
    async def direct(locator: Any, what: str) -> _Outcome:
        await locator.click(
            timeout=run.ms(run.attempt_cap or min(2.5, max(0.8, run.options.action_timeout_s / 4)))
        )
        await _settle(run)
        return _ok(f"clicked {what}")

    async def js(locator: Any, what: str) -> _Outcome:
        await locator.evaluate("(el) => el.click()", timeout=run.ms(1.5))
        await _settle(run)
        return _ok(f"clicked {what} with a JS click")

    return await _element_action(run, direct, js, "click")


async def _field_value(locator: Any, run: _Run) -> str:
    return str(await locator.evaluate(_FIELD_VALUE_JS, timeout=run.ms(1.0)))


def _holds(value: str, text: str, clear: bool) -> bool:
    squash = lambda s: re.sub(r"\s+", " ", s).strip()  # noqa: E731
    if clear:
        return value == text or squash(value) == squash(text)
    return value.endswith(text) or squash(value).endswith(squash(text))


async def _do_type(run: _Run) -> _Outcome:
    text = run.args.get("text")
    if text is None:
        return _fail("unknown", "type needs args.text")
    text = str(text)
    clear = bool(run.args.get("clear", True))
    submit = bool(run.args.get("submit", False))

    async def finish(locator: Any, what: str, state: dict[str, Any], how: str) -> _Outcome:
        value = await _field_value(locator, run)
        secret = state.get("type") == "password"
        if not _holds(value, text, clear):
            shown = f"{len(value)} characters" if secret else repr(value[:120])
            raise _Fail("unknown", f"after typing, {what} holds {shown} instead of the text")
        typed = f"{len(text)} characters" if secret else repr(text[:80])
        message = f"typed {typed} into {what}{how}"
        if submit:
            await locator.press("Enter", timeout=run.ms(2.0))
            await _settle(run)
            message += " and pressed Enter"
        return _ok(message)

    async def check_field(locator: Any, what: str) -> dict[str, Any]:
        state = await _state(locator, run)
        if state.get("tag") == "select":
            raise _Fail("tool_limit", f"{what} is a dropdown; use select_option", final=True)
        if not state.get("editable"):
            reason = "read-only" if state.get("readonly") else "not a text field"
            raise _Fail("tool_limit", f"{what} is {reason}; cannot type into it", final=True)
        return state

    async def direct(locator: Any, what: str) -> _Outcome:
        state = await check_field(locator, what)
        if clear:
            await locator.fill(text, timeout=run.ms(2.0))
        else:
            await locator.evaluate(_CARET_END_JS, timeout=run.ms(1.0))
            await locator.press_sequentially(text, timeout=run.ms(3.0))
        return await finish(locator, what, state, "")

    async def js(locator: Any, what: str) -> _Outcome:
        state = await check_field(locator, what)
        await locator.evaluate(_SET_VALUE_JS, [text, clear], timeout=run.ms(1.5))
        return await finish(locator, what, state, " (set by script)")

    return await _element_action(run, direct, js, "type")


def _norm(text: str) -> str:
    return re.sub(r"\s+", " ", text or "").strip().casefold()


def match_option(wanted: str, options: list[dict[str, Any]]) -> dict[str, Any]:
    """Pick the <option> meant by ``wanted`` (label or value; exact, then case-insensitive, prefix, substring,
    then close spelling). Raises _Fail(ambiguous_step/element_not_found) listing the choices otherwise."""
    enabled = [o for o in options if not o.get("disabled")]
    target = _norm(wanted)
    tiers: list[Callable[[dict[str, Any]], bool]] = [
        lambda o: o["label"] == wanted,
        lambda o: o["value"] == wanted,
        lambda o: _norm(o["label"]) == target,
        lambda o: _norm(o["value"]) == target,
        lambda o: bool(target) and _norm(o["label"]).startswith(target),
        lambda o: bool(target) and target in _norm(o["label"]),
    ]
    for tier in tiers:
        hits = [o for o in enabled if tier(o)]
        if len(hits) == 1:
            return hits[0]
        if len(hits) > 1:
            labels = ", ".join(repr(o["label"]) for o in hits[:8])
            raise _Fail("ambiguous_step", f"option {wanted!r} matches several choices: {labels}")
    labels = [_norm(o["label"]) for o in enabled]
    close = difflib.get_close_matches(target, labels, n=2, cutoff=0.75)
    if len(close) == 1 or (len(close) == 2 and difflib.SequenceMatcher(None, target, close[0]).ratio() > 0.9):
        return enabled[labels.index(close[0])]
    if any(_norm(o["label"]) == target or o["value"] == wanted for o in options if o.get("disabled")):
        raise _Fail("tool_limit", f"option {wanted!r} is disabled")
    choices = ", ".join(repr(o["label"]) for o in enabled[:15])
    raise _Fail("element_not_found", f"no option matches {wanted!r}; choices: {choices}")


async def _do_select(run: _Run) -> _Outcome:
    wanted = run.args.get("option", run.args.get("text"))
    if wanted is None or str(wanted).strip() == "":
        return _fail("unknown", "select_option needs args.option (a visible label or a value)")
    wanted = str(wanted)

    async def direct(locator: Any, what: str) -> _Outcome:
        info = await locator.evaluate(_SELECT_INFO_JS, timeout=run.ms(1.0))
        if info["tag"] != "select":
            return await _custom_dropdown(run, locator, what, wanted)
        try:
            choice = match_option(wanted, info["options"])
        except _Fail as exc:
            exc.final = True
            raise
        await locator.select_option(value=choice["value"], timeout=run.ms(2.0))
        return await verify(locator, what, choice, "")

    async def verify(locator: Any, what: str, choice: dict[str, Any], how: str) -> _Outcome:
        selected = await locator.evaluate(
            "(el) => [...el.selectedOptions].map((o) => o.value)", timeout=run.ms(1.0)
        )
        if choice["value"] not in selected:
            raise _Fail("unknown", f"{what} did not keep the option {choice['label']!r}")
        await _settle(run, cap=1.0)
        return _ok(f"selected {choice['label']!r} in {what}{how}")

    async def js(locator: Any, what: str) -> _Outcome:
        info = await locator.evaluate(_SELECT_INFO_JS, timeout=run.ms(1.0))
        if info["tag"] != "select":
            raise _Fail("element_not_found", f"{what} is not a <select>")
        choice = match_option(wanted, info["options"])
        await locator.evaluate(
            "(el, v) => { el.value = v; el.dispatchEvent(new Event('input', {bubbles: true}));"
            " el.dispatchEvent(new Event('change', {bubbles: true})); }",
            choice["value"],
            timeout=run.ms(1.0),
        )
        return await verify(locator, what, choice, " (set by script)")

    return await _element_action(run, direct, js, "select_option")


async def _custom_dropdown(run: _Run, locator: Any, what: str, wanted: str) -> _Outcome:
    """A non-native dropdown (role=combobox/listbox): open it, then click the matching role=option."""
    await locator.click(timeout=run.ms(2.0))
    page = run.session.page
    options = page.get_by_role("option")
    await asyncio.sleep(0.15)
    items: list[dict[str, Any]] = []
    count = min(await options.count(), 100)
    for index in range(count):
        option = options.nth(index)
        with contextlib.suppress(Exception):
            if await option.is_visible():
                label = (await option.inner_text(timeout=500)).strip()
                items.append({"label": label, "value": label, "index": index, "disabled": False})
    if not items:
        raise _Fail(
            "element_not_found", f"{what} is not a <select> and showed no options when clicked", final=True
        )
    choice = match_option(wanted, items)
    await options.nth(choice["index"]).click(timeout=run.ms(2.0))
    await _settle(run, cap=1.0)
    return _ok(f"selected {choice['label']!r} in {what}")


# Page actions ---------------------------------------------------------------------------------------------------


async def _do_scroll(run: _Run) -> _Outcome:
    direction = str(run.args.get("direction") or "down").lower()
    if direction not in ("up", "down"):
        return _fail("unknown", f"scroll direction must be 'up' or 'down', not {direction!r}")
    amount = run.args.get("amount", "page")
    if isinstance(amount, str) and amount.strip().lower() in ("page", ""):
        dy: Any = "page" if direction == "down" else "-page"
    else:
        try:
            pixels = abs(int(float(str(amount).lower().replace("px", "").strip())))
        except ValueError:
            return _fail("unknown", f"scroll amount must be 'page' or a number of pixels, not {amount!r}")
        dy = pixels if direction == "down" else -pixels
    page = run.session.page
    if run.element_id is not None:
        locator = await run.session.locate(run.element_id)
        if locator is None:
            return _fail("element_not_found", f"no element {run.element_id} to scroll inside")
        info = await locator.evaluate(f"(el) => ({_SCROLL_JS})([{dy!r}, true], el)", timeout=run.ms(2.0))
    else:
        info = await page.evaluate(f"({_SCROLL_JS})([{dy!r}, false], null)")
    moved = int(info.get("moved") or 0)
    where = "" if info.get("target") == "page" else f" inside <{info.get('target')}>"
    if moved == 0:
        edge = "bottom" if direction == "down" else "top"
        await _settle(run, cap=1.5)  # an infinite list may still load more at the bottom
        return _fail("tool_limit", f"nothing moved{where}: already at the {edge}")
    await _settle(run, cap=2.0)
    below = max(0, int(info.get("below") or 0))
    if info.get("target") == "page":  # an infinite list may have grown meanwhile
        with contextlib.suppress(Exception):
            below = max(0, int(await page.evaluate(_BELOW_JS)))
    return _ok(f"scrolled {direction} {abs(moved)}px{where}; {below}px more below")


def normalize_key(key: str) -> str:
    """'enter' -> 'Enter', 'ctrl+a' -> 'Control+a', 'down' -> 'ArrowDown'."""
    parts = [p.strip() for p in re.split(r"\s*\+\s*", key.strip()) if p.strip()]
    out = []
    for part in parts:
        alias = KEY_ALIASES.get(part.lower().replace(" ", ""))
        if alias:
            out.append(alias)
        elif len(part) == 1:
            out.append(part)
        elif re.fullmatch(r"[fF]\d{1,2}", part):
            out.append(part.upper())
        else:
            out.append(part[:1].upper() + part[1:])
    return "+".join(out)


async def _do_press_key(run: _Run) -> _Outcome:
    raw = str(run.args.get("key") or "").strip()
    if not raw:
        return _fail("unknown", "press_key needs args.key")
    key = normalize_key(raw)
    if run.element_id is not None:
        locator = await run.session.locate(run.element_id)
        if locator is None:
            return _fail("element_not_found", f"no element {run.element_id} to press {key} on")
        await locator.press(key, timeout=run.ms(2.0))
    else:
        await run.session.page.keyboard.press(key)
    await _settle(run)
    return _ok(f"pressed {key}")


def _net_error(message: str) -> str | None:
    match = re.search(r"net::(ERR_[A-Z_]+)", message)
    return match.group(1) if match else None


async def _goto(run: _Run, url: str) -> _Outcome:
    """Navigate the active tab (a fresh one if it crashed) and classify what went wrong."""
    session = run.session
    if session.active_crashed:
        await session.replace_crashed_tab()
    page = await session.ensure_page()
    timeout_s = max(0.1, run.remaining(0.25))
    try:
        response = await page.goto(url, wait_until="domcontentloaded", timeout=timeout_s * 1000)
    except Exception as exc:
        message = str(exc)
        if _is_timeout(exc):
            await session.stop_loading(page)  # else the tab stays stuck in the pending navigation
            return _fail("timeout", f"{url} did not load within {timeout_s:.1f}s; stopped loading it")
        if "Download is starting" in message:
            event = await session.wait_for_event("download", since=run.mark, timeout=run.remaining(0.2))
            saved = f" saved as {event['filename']}" if event and event.get("filename") else ""
            return _ok(f"{url} is a file: the download started{saved}", extracted=(event or {}).get("path"))
        blocked = _blocked_since(run)
        if blocked:
            return _fail("navigation_blocked", blocked)
        if "ERR_ABORTED" in message:  # a beforeunload answer may still be on its way
            await session.wait_for_event("dialog", since=run.mark, timeout=min(0.5, run.remaining(0.1)))
        if any(
            e.get("type") == "dialog" and e.get("dialog_type") == "beforeunload"
            for e in session.events_since(run.mark)
        ):
            return _fail(
                "navigation_blocked",
                "the page asked to confirm leaving (beforeunload) and the dialog was dismissed by the "
                "dialog policy; staying on the page",
            )
        code = _net_error(message)
        if code:
            return _fail("navigation_blocked", f"could not load {url}: {code}")
        raise
    blocked = _blocked_since(run)
    if blocked:
        return _fail("navigation_blocked", blocked)
    final = page.url
    check = check_domain(final, session.options.allowed_domains, session.options.blocked_domains)
    if not check.ok and final != "about:blank":
        return _fail("navigation_blocked", f"ended on {final}: {check.reason}")
    await _settle(run, cap=min(run.options.settle_timeout_s, 2.0))
    status = response.status if response is not None else None
    note = f" (HTTP {status})" if status and status >= 400 else ""
    return _ok(f"opened {final}{note}")


def _blocked_since(run: _Run) -> str | None:
    for entry in run.session.blocked_since(run.mark):
        return f"blocked {entry['url']}: {entry['reason']}"
    return None


async def _do_navigate(run: _Run) -> _Outcome:
    raw = str(run.args.get("url") or "")
    options = run.options
    check = check_navigation(
        raw, allowed_domains=options.allowed_domains, blocked_domains=options.blocked_domains
    )
    if not check.ok:
        return _fail("navigation_blocked", f"not navigating to {raw!r}: {check.reason}")
    return await _goto(run, check.url)


async def _find_search_box(run: _Run) -> Any:
    page = run.session.page
    candidates = page.locator(SEARCH_BOX_SELECTOR)
    try:
        count = min(await candidates.count(), 12)
    except Exception:
        return None
    for index in range(count):
        candidate = candidates.nth(index)
        with contextlib.suppress(Exception):
            if await candidate.is_visible() and await candidate.is_editable(timeout=500):
                kind = (await candidate.get_attribute("type", timeout=500) or "").lower()
                if kind in ("", "search", "text"):
                    return candidate
    return None


async def _do_search(run: _Run) -> _Outcome:
    query = str(run.args.get("query") or run.args.get("text") or "").strip()
    if not query:
        return _fail("unknown", "search needs args.query")
    session = run.session
    if not session.active_crashed:
        box = await _find_search_box(run)
        if box is not None:
            await box.fill(query, timeout=run.ms(2.0))
            value = await _field_value(box, run)
            if value != query:
                return _fail("unknown", f"the page's search box holds {value!r} instead of the query")
            mark = session.event_mark()
            await box.press("Enter", timeout=run.ms(2.0))
            await _settle(run)
            changed = any(
                e.get("type") in ("url_changed", "dom_changed", "tab_opened")
                for e in session.events_since(mark)
            )
            if not changed:
                with contextlib.suppress(Exception):
                    await box.evaluate("(el) => el.form && el.form.requestSubmit()", timeout=run.ms(1.0))
                    await _settle(run)
                changed = any(
                    e.get("type") in ("url_changed", "dom_changed", "tab_opened")
                    for e in session.events_since(mark)
                )
            if not changed:
                return _fail(
                    "tool_limit",
                    f"typed {query!r} into the page's search box and pressed Enter, but the page did not change",
                )
            return _ok(f"searched {query!r} with the page's own search box")
    url = build_search_url(run.options.search_url_template, query)
    check = check_navigation(
        url, allowed_domains=run.options.allowed_domains, blocked_domains=run.options.blocked_domains
    )
    if not check.ok:
        return _fail(
            "navigation_blocked",
            f"no search box on the page and the search engine is off limits: {check.reason}",
        )
    outcome = await _goto(run, check.url)
    if outcome.status == "success":
        outcome.message = f"searched {query!r} with the search engine ({check.url})"
    return outcome


async def _do_history(run: _Run) -> _Outcome:
    page = run.session.page
    before = page.url
    go = page.go_back if run.name == "go_back" else page.go_forward
    word = "back" if run.name == "go_back" else "forward"
    try:
        await go(wait_until="domcontentloaded", timeout=max(0.1, run.remaining(0.3)) * 1000)
    except Exception as exc:
        if _is_timeout(exc):
            await run.session.stop_loading(page)
            return _fail("timeout", f"going {word} did not finish loading in time; stopped loading it")
        code = _net_error(str(exc))
        if code:
            return _fail("navigation_blocked", f"going {word} failed: {code}")
        raise
    await _settle(run, cap=1.5)
    after = run.session.page.url
    if after == before and not _navigated(run):
        return _fail("tool_limit", f"there is no page to go {word} to in this tab's history")
    return _ok(f"went {word} to {after}")


async def _do_switch_tab(run: _Run) -> _Outcome:
    tab_id = str(run.args.get("tab_id") or "").strip()
    if not tab_id:
        return _fail("unknown", "switch_tab needs args.tab_id")
    try:
        info = await run.session.switch_tab(tab_id)
    except KeyError as exc:
        return _fail("element_not_found", str(exc.args[0]) if exc.args else f"no tab {tab_id}")
    return _ok(f"switched to tab {tab_id}: {info['title'] or '(untitled)'} {info['url']}")


async def _do_screenshot(run: _Run) -> _Outcome:
    session = run.session
    requested = str(run.args.get("path") or "").strip()
    name = safe_filename(requested, default="") if requested else ""
    if not name:
        name = f"shot-{time.strftime('%Y%m%d-%H%M%S')}-{int(time.monotonic() * 1000) % 1000:03d}"
    if not name.lower().endswith((".png", ".jpg", ".jpeg")):
        name += ".png"
    await asyncio.to_thread(session.screenshots_dir.mkdir, parents=True, exist_ok=True)  # off the loop
    path = session.screenshots_dir / name
    await session.page.screenshot(
        path=str(path),
        full_page=bool(run.args.get("full_page", False)),
        timeout=run.ms(run.options.action_timeout_s),
    )
    return _ok(f"saved a screenshot to {path}", extracted=str(path))


async def _do_wait(run: _Run) -> _Outcome:
    seconds, clamped = _wait_seconds(run.args)
    await asyncio.sleep(seconds)
    note = f" (capped at {MAX_WAIT_S:.0f}s)" if clamped else ""
    return _ok(f"waited {seconds:g}s{note}")


_HANDLERS: dict[str, Callable[[_Run], Awaitable[_Outcome]]] = {
    "click": _do_click,
    "type": _do_type,
    "select_option": _do_select,
    "scroll": _do_scroll,
    "press_key": _do_press_key,
    "navigate": _do_navigate,
    "search": _do_search,
    "go_back": _do_history,
    "go_forward": _do_history,
    "switch_tab": _do_switch_tab,
    "screenshot": _do_screenshot,
    "wait": _do_wait,
}
