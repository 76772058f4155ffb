"""Navigation and tab actions: open a URL, search, go back or forward in history, switch tabs."""

from __future__ import annotations

import contextlib
import re
from typing import Any

from agent.browser.actions.base import (
    ActionRun,
    Outcome,
    fail,
    is_timeout,
    navigated,
    ok,
    page_changed,
    settle,
)
from agent.browser.actions.files import download_outcome
from agent.browser.actions.forms import field_value
from agent.browser.scripts import browser_script
from agent.browser.urls import build_search_url, check_navigation
from agent.types import ERROR_NAVIGATION_BLOCKED

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


def _net_error(message: str) -> str | None:
    """Chromium's net::ERR_* code in a Playwright error message, if any."""
    match = re.search(r"net::(ERR_[A-Z_]+)", message)
    return match.group(1) if match else None


async def _goto(run: ActionRun, url: str) -> Outcome:
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
        if is_timeout(exc):
            await session.stop_loading(page)  # else the tab stays stuck in the pending navigation
            return fail("timeout", f"{url} did not load within {timeout_s:.1f}s; stopped loading it")
        if "Download is starting" in message:
            return await download_outcome(run, url)
        blocked = _blocked_since(run) or _blocked_since(run, main_frame_only=False)
        if blocked:
            return fail(ERROR_NAVIGATION_BLOCKED, blocked)
        if "ERR_ABORTED" in message:  # a beforeunload answer may still be on its way
            await session.wait_for_event("dialog", since=run.mark, timeout=min(0.5, run.remaining(0.1)))
        if any(
            e.get("type") == "dialog" and e.get("dialog_type") == "beforeunload"
            for e in session.events_since(run.mark)
        ):
            return fail(
                ERROR_NAVIGATION_BLOCKED,
                "the page asked to confirm leaving (beforeunload) and the dialog was dismissed by the "
                "dialog policy; staying on the page",
            )
        code = session.net_error(url, _net_error(message))
        if code:
            return fail(ERROR_NAVIGATION_BLOCKED, f"could not load {url}: {code}")
        raise
    blocked = _blocked_since(run)
    if blocked:
        return fail(ERROR_NAVIGATION_BLOCKED, blocked)
    final = page.url
    refused = await session.refusal(final, document=True)
    if refused:
        return fail(ERROR_NAVIGATION_BLOCKED, f"ended on {final}: {refused}")
    await settle(run, cap=min(run.options.settle_timeout_s, 2.0))
    status = response.status if response is not None else None
    note = f" (HTTP {status})" if status and status >= 400 else ""
    return ok(f"opened {final}{note}")


def _blocked_since(run: ActionRun, *, main_frame_only: bool = True) -> str | None:
    """Why the domain guard refused a navigation during this action, if it did: a tab's own page only, unless
    ``main_frame_only`` is off (a load that failed may be explained by any refusal). A page that opened may
    embed a frame or a resource the guard refused: that page still opened."""
    for entry in run.session.blocked_since(run.mark):
        if entry.get("main_frame") or not main_frame_only:
            return f"blocked {entry['url']}: {entry['reason']}"
    return None


async def navigate_action(run: ActionRun) -> Outcome:
    """Open a URL in the active tab after the scheme and domain checks."""
    raw = str(run.args.get("url") or "")
    options = run.options
    check = check_navigation(
        raw, allowed_domains=options.allowed_domains, blocked_domains=options.blocked_domains
    )
    if not check.ok:
        return fail(ERROR_NAVIGATION_BLOCKED, f"not navigating to {raw!r}: {check.reason}")
    refused = await run.session.refusal(check.url, document=True)  # the address, before any request
    if refused:
        return fail(ERROR_NAVIGATION_BLOCKED, f"not navigating to {raw!r}: {refused}")
    return await _goto(run, check.url)


async def _find_search_box(run: ActionRun) -> Any:
    """The first visible, editable text or search field that looks like the page's search box."""
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


async def search_action(run: ActionRun) -> Outcome:
    """Search with the page's own search box when it has one, else with the search engine."""
    query = str(run.args.get("query") or run.args.get("text") or "").strip()
    if not query:
        return fail("unknown", "search needs args.query")
    session = run.session
    if not session.active_crashed:
        box = await _find_search_box(run)
        if box is not None:
            await box.fill(query, timeout=run.ms(2.0))
            value = await field_value(box, run)
            if value != query:
                return fail("unknown", f"the page's search box holds {value!r} instead of the query")
            mark = session.event_mark()
            await box.press("Enter", timeout=run.ms(2.0))
            await settle(run)
            if not page_changed(session, mark):
                with contextlib.suppress(Exception):
                    await box.evaluate(browser_script("request_submit"), timeout=run.ms(1.0))
                    await settle(run)
            if not page_changed(session, mark):
                return fail(
                    "tool_limit",
                    f"typed {query!r} into the page's search box and pressed Enter, but the page did not change",
                )
            return ok(f"searched {query!r} with the page's own search box")
    url = build_search_url(run.options.search_url_template, query)
    check = check_navigation(
        url, allowed_domains=run.options.allowed_domains, blocked_domains=run.options.blocked_domains
    )
    if not check.ok:
        return fail(
            ERROR_NAVIGATION_BLOCKED,
            f"no search box on the page and the search engine is off limits: {check.reason}",
        )
    outcome = await _goto(run, check.url)
    if outcome.status == "success":
        outcome.message = f"searched {query!r} with the search engine ({check.url})"
    return outcome


async def history_action(run: ActionRun) -> Outcome:
    """Go back or forward in the active tab's history."""
    page = run.session.page
    before = page.url
    go = page.go_back if run.name == "go_back" else page.go_forward
    word = "back" if run.name == "go_back" else "forward"
    try:
        await go(wait_until="domcontentloaded", timeout=max(0.1, run.remaining(0.3)) * 1000)
    except Exception as exc:
        if is_timeout(exc):
            await run.session.stop_loading(page)
            return fail("timeout", f"going {word} did not finish loading in time; stopped loading it")
        code = _net_error(str(exc))
        if code:
            return fail(ERROR_NAVIGATION_BLOCKED, f"going {word} failed: {code}")
        raise
    await settle(run, cap=1.5)
    after = run.session.page.url
    if after == before and not navigated(run):
        return fail("tool_limit", f"there is no page to go {word} to in this tab's history")
    return ok(f"went {word} to {after}")


async def switch_tab_action(run: ActionRun) -> Outcome:
    """Make another open tab the active one."""
    tab_id = str(run.args.get("tab_id") or "").strip()
    if not tab_id:
        return fail("unknown", "switch_tab needs args.tab_id")
    try:
        info = await run.session.switch_tab(tab_id)
    except KeyError as exc:
        return fail("element_not_found", str(exc.args[0]) if exc.args else f"no tab {tab_id}")
    return ok(f"switched to tab {tab_id}: {info['title'] or '(untitled)'} {info['url']}")
