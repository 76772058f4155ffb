"""Pointer actions: click an element, scroll the page or a scrollable element."""

from __future__ import annotations

import contextlib
from typing import Any

from agent.browser.actions.base import ActionFailed, ActionRun, Outcome, fail, ok, settle
from agent.browser.actions.elements import element_action
from agent.browser.scripts import browser_script

#: How long pointing at an item waits for the submenu it hides to open (hover-intent menus wait 0.1-1 s).
HOVER_OPEN_S = 1.5


async def click_action(run: ActionRun) -> Outcome:
    """Click an element (through the element fallback chain); with args.hover, only move the pointer onto it
    (a menu that opens its submenu on hover would take a click on the parent item as choosing it)."""

    async def direct(locator: Any, what: str) -> Outcome:
        if run.args.get("hover"):
            await locator.hover(timeout=run.ms(2.0))
            opened = ""
            with contextlib.suppress(Exception):  # a submenu may open a moment after the pointer arrives
                wait = run.ms(HOVER_OPEN_S)
                opened = await locator.evaluate(browser_script("hover_popup"), wait, timeout=wait + 1000)
            await settle(run)
            note = {"opened": "; its submenu opened", "closed": "; no submenu opened"}.get(opened, "")
            return ok(f"pointed at {what}{note}")
        await locator.click(
            timeout=run.ms(run.attempt_cap or min(2.5, max(0.8, run.options.action_timeout_s / 4)))
        )
        await settle(run)
        return ok(f"clicked {what}")

    async def js(locator: Any, what: str) -> Outcome:
        if run.args.get("hover"):
            raise ActionFailed(
                "element_not_found", f"could not point at {what}"
            )  # a script click would choose it
        await locator.evaluate(browser_script("click"), timeout=run.ms(1.5))
        await settle(run)
        return ok(f"clicked {what} with a JS click")

    return await element_action(run, direct, js, "click")


async def scroll_action(run: ActionRun) -> Outcome:
    """Scroll the page, or inside an element, by a page or a number of pixels."""
    direction = str(run.args.get("direction") or "down").lower()
    if direction not in ("up", "down"):
        return fail("unknown", f"scroll direction must be 'up' or 'down', not {direction!r}")
    amount = run.args.get("amount", "page")
    if isinstance(amount, str) and amount.strip().lower() in ("page", ""):
        dy: Any = "page" if direction == "down" else "-page"
    else:
        try:
            pixels = abs(int(float(str(amount).lower().replace("px", "").strip())))
        except ValueError:
            return fail("unknown", f"scroll amount must be 'page' or a number of pixels, not {amount!r}")
        dy = pixels if direction == "down" else -pixels
    page = run.session.page
    if run.element_id is not None:
        locator = await run.session.locate(run.element_id)
        if locator is None:
            return fail("element_not_found", f"no element {run.element_id} to scroll inside")
        script = f"(el) => ({browser_script('scroll')})([{dy!r}, true], el)"
        info = await locator.evaluate(script, timeout=run.ms(2.0))
    else:
        info = await page.evaluate(f"({browser_script('scroll')})([{dy!r}, false], null)")
    moved = int(info.get("moved") or 0)
    where = "" if info.get("target") == "page" else f" inside <{info.get('target')}>"
    if moved == 0:
        edge = "bottom" if direction == "down" else "top"
        await settle(run, cap=1.5)  # an infinite list may still load more at the bottom
        return fail("tool_limit", f"nothing moved{where}: already at the {edge}")
    await settle(run, cap=2.0)
    below = max(0, int(info.get("below") or 0))
    if info.get("target") == "page":  # an infinite list may have grown meanwhile
        with contextlib.suppress(Exception):
            below = max(0, int(await page.evaluate(browser_script("space_below"))))
    return ok(f"scrolled {direction} {abs(moved)}px{where}; {below}px more below")
