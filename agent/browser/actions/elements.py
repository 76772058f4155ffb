"""The fallback chain every element action (click, type, select_option) goes through.

In order: the direct Playwright action with a short timeout; "wiggle" (re-mark the page through
:mod:`agent.browser.marking`, scroll the element to the centre, retry); a JS fallback, never on a disabled or
invisible element nor through a page-covering overlay; and a role/name/text match from the element's
description in the observation (which also handles ids gone stale after the page replaced its DOM). A click
whose Playwright log says the click was dispatched is never retried, so a non-idempotent button is not pressed
twice.
"""

from __future__ import annotations

import asyncio
import contextlib
import re
from collections.abc import Awaitable, Callable
from typing import Any

from agent.browser.actions.base import (
    ActionFailed,
    ActionRun,
    Outcome,
    describe,
    fail,
    navigated,
    ok,
    short_error,
)
from agent.browser.marking import remark_page
from agent.browser.scripts import browser_script
from agent.types import Element
from agent.util.elements import element_by_id

#: One attempt of an element action: ``attempt(locator, what)`` where ``what`` describes the element.
Attempt = Callable[[Any, str], Awaitable[Outcome]]


async def element_state(locator: Any, run: ActionRun) -> dict[str, Any]:
    """What the element is now (agent/browser/js/element_state.js)."""
    return await locator.evaluate(browser_script("element_state"), timeout=run.ms(1.5))


async def precheck(locator: Any, run: ActionRun, what: str) -> dict[str, Any]:
    """The element's state; a disabled element ends the action at once (no fallback enables it)."""
    state = await element_state(locator, run)
    if state.get("disabled"):
        raise ActionFailed(
            "tool_limit",
            f"{what} is disabled; it cannot be used until the page enables it (fill in what it needs first)",
            final=True,
        )
    return state


async def overlay_over(locator: Any, run: ActionRun) -> str | None:
    """Text of a page-covering overlay (cookie wall, modal) lying over the element once scrolled into view."""
    with contextlib.suppress(Exception):
        await locator.evaluate(browser_script("scroll_into_view"), timeout=run.ms(1.0))
    try:
        info = await locator.evaluate(browser_script("occlusion"), timeout=run.ms(1.0))
    except Exception:
        return None
    if info.get("occluded") and info.get("overlay"):
        return str(info.get("text") or info.get("tag") or "an overlay")
    return None


async def overlay_check(locator: Any, run: ActionRun, what: str) -> None:
    """Refuse to act through a page-covering overlay: the page wants that handled first (a human would)."""
    text = await overlay_over(locator, run)
    if text is not None:
        raise ActionFailed(
            "element_not_found",
            f"{what} is covered by an overlay that blocks the page ({text!r}); accept or close it first",
            final=True,
        )


async def remark(run: ActionRun) -> None:
    """Re-run the observation layer's marking pass so ids of re-rendered elements exist again."""
    with contextlib.suppress(Exception):
        await remark_page(run.session.page, max(0.1, min(2.5, run.remaining(0.5))))


async def match_by_description(run: ActionRun, desc: Element, kind: str) -> Any:
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
            chosen = await nearest(visible, desc.get("bbox"))
            if chosen is not None:
                return chosen
            ambiguous.append(f"{len(visible)} elements match {label}")
    if ambiguous:
        raise ActionFailed(
            "ambiguous_step", f"{describe(desc, desc.get('id'))} is gone and " + "; ".join(ambiguous)
        )
    return None


async def nearest(candidates: list[Any], bbox: list[float] | None) -> Any:
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


async def element_action(run: ActionRun, attempt: Attempt, js_attempt: Attempt | None, verb: str) -> Outcome:
    """The fallback chain shared by click/type/select_option."""
    session, eid = run.session, run.element_id
    if eid is None:
        return fail("element_not_found", f"{verb} needs an element_id from the observation")
    desc = element_by_id(run.observation, eid)
    what = describe(desc, eid)
    errors: list[str] = []
    logs: list[str] = []  # full Playwright messages (their call logs say why an attempt failed)

    async def stage(locator: Any, stage_name: str | None, fn: Attempt) -> Outcome | None:
        try:
            outcome = await fn(locator, what)
            outcome.fallback = stage_name
            return outcome
        except ActionFailed as exc:
            if exc.final:
                raise
            errors.append(f"{stage_name or 'direct'}: {exc.message}")
        except Exception as exc:
            if not session.is_alive:
                raise
            if verb == "click" and ("action done" in str(exc) or navigated(run)):
                # The click was dispatched (Playwright's log says so) or the page reacted: do not press it again.
                return ok(f"{verb} on {what} done (the page was still busy afterwards)", fallback=stage_name)
            if verb == "click" and "performing click action" in str(exc):
                raise ActionFailed(
                    "timeout",
                    f"the click on {what} was sent but the page did not respond in time (busy?); not retrying, "
                    "so it is never pressed twice",
                    final=True,
                ) from exc
            errors.append(f"{stage_name or 'direct'}: {short_error(exc)}")
            logs.append(str(exc))
        return None

    hidden: list[str] = []
    pinned = False

    async def usable(locator: Any, *, wait: bool) -> dict[str, Any] | None:
        """The element's state when it can be acted on; None when the page hides it (never acted on)."""
        state = await precheck(locator, run, what)
        if not state.get("visible") and wait:
            with contextlib.suppress(Exception):
                await locator.wait_for(state="visible", timeout=run.ms(0.5))
            state = await precheck(locator, run, what)
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
                state = await element_state(locator, run)
                what = describe(
                    {"role": state.get("role") or state.get("tag"), "name": state.get("label")}, eid
                )
        state = await usable(locator, wait=True)
        if state:
            # Under a page-covering overlay: give a transient one (spinner, fade-out) a short chance, no fallbacks.
            covered = await overlay_over(locator, run)
            run.attempt_cap = 0.8 if covered else None
            result = await stage(locator, None, attempt)
            run.attempt_cap = None
            if result:
                return result
            if covered:
                await overlay_check(locator, run, what)
            # A fixed element under another fixed one: scrolling cannot uncover it, go straight to JS.
            pinned = bool(state.get("fixed")) and any("intercepts pointer events" in log for log in logs)
    else:
        errors.append(f"direct: no element with id {eid} on the page")
    # 2. wiggle: re-mark, scroll into view, retry
    if run.remaining(0.5) > 0.2 and not pinned:
        await remark(run)
        locator = await session.locate(eid)
        if locator is not None and await usable(locator, wait=False):
            with contextlib.suppress(Exception):
                await locator.evaluate(browser_script("scroll_into_view"), timeout=run.ms(1.0))
                await asyncio.sleep(0.05)
            result = await stage(locator, "wiggle", attempt)
            if result:
                return result
    # 3. JS fallback on a visible element that is not under a page-covering overlay
    js_ready = locator is not None and js_attempt is not None and run.remaining(0.5) > 0.2
    if js_ready and await usable(locator, wait=False):
        await overlay_check(locator, run, what)
        result = await stage(locator, "js_click" if verb == "click" else "js_input", js_attempt)  # type: ignore[arg-type]
        if result:
            return result
    # 4. text/role match from the observation's description
    if desc and run.remaining(0.5) > 0.2:
        match = await match_by_description(run, desc, verb)
        if match is not None and await usable(match, wait=False):
            result = await stage(match, "text_match", attempt)
            if result:
                return result
            if js_attempt is not None and run.remaining(0.5) > 0.2:
                await overlay_check(match, run, what)
                result = await stage(match, "text_match", js_attempt)
                if result:
                    return result
        elif match is None:
            errors.append("text_match: nothing on the page matches its role/name/text")
    elif not desc:
        errors.append("text_match: no observation describes this element")
    detail = "; ".join(hidden + errors[-3:])
    if run.remaining(0.3) <= 0:
        return fail(
            "timeout", f"could not {verb} {what} within {run.options.action_timeout_s:.1f}s: {detail}"
        )
    return fail("element_not_found", f"could not {verb} {what}: {detail}")
