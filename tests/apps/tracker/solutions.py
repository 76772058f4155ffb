"""Quillbox tracker: a scripted Playwright solution of every goal, as a careful person would click through it.

Used by the self-test: each must pass its goal's database check (so the checks can be met through the
application's own forms), while doing nothing must fail every check.
"""

from __future__ import annotations

from typing import Any

from tests.apps.harness import Solution
from tests.apps.selftest import fill_fields


async def _submit(page: Any, button: str = "Submit changes") -> None:
    async with page.expect_navigation():
        await page.get_by_role("button", name=button, exact=True).click()


async def _modify(page: Any, base: str, n: int, **fields: str) -> None:
    await page.goto(f"{base}/ticket/{n}")
    await page.get_by_text("Modify Ticket").click()
    await fill_fields(page, "field-%s", fields)
    await _submit(page)


async def _action(page: Any, base: str, n: int, action: str, value: str = "") -> None:
    await page.goto(f"{base}/ticket/{n}")
    await page.get_by_text("Modify Ticket").click()
    await page.locator(f"#action_{action}").check()
    if action == "resolve":
        await page.locator("#action_resolve_resolution").select_option(value)
    elif action == "reassign":
        await page.locator("#action_reassign_owner").fill(value)
    await _submit(page)


async def _comment(page: Any, base: str, n: int, text: str) -> None:
    await page.goto(f"{base}/ticket/{n}")
    await page.locator("#comment").fill(text)
    await page.get_by_role("button", name="Preview").click()  # a preview first: it must not save
    await page.locator(".preview").wait_for()
    await _submit(page)


async def _new_ticket(page: Any, base: str, summary: str, **fields: str) -> None:
    await page.goto(f"{base}/newticket")
    await fill_fields(page, "field-%s", {"summary": summary, **fields})
    await _submit(page, "Create ticket")


async def _wiki_edit(page: Any, base: str, name: str, change: Any) -> None:
    await page.goto(f"{base}/wiki/{name}")
    await page.get_by_role("button", name="Edit this page").click()
    area = page.locator("#text")
    await area.fill(change(await area.input_value()))
    await _submit(page)


async def _wiki_new(page: Any, base: str, name: str, text: str) -> None:
    await page.goto(f"{base}/wiki")
    await page.get_by_label("Page name").fill(name)
    await page.get_by_role("button", name="Create page").click()
    await page.locator("#text").fill(text)
    await _submit(page)


async def _login(page: Any, base: str, user: str, password: str) -> None:
    await page.goto(f"{base}/login")
    await page.get_by_label("Username").fill(user)
    await page.get_by_label("Password").fill(password)
    async with page.expect_navigation():
        await page.get_by_role("button", name="Login").click()
    await page.get_by_text(f"logged in as {user}").wait_for()


async def _cell_after(page: Any, label: str) -> str:
    return (await page.locator(f"th:text-is('{label}') + td").inner_text()).strip()


async def _ticket_field(page: Any, base: str, n: int, label: str) -> str:
    await page.goto(f"{base}/ticket/{n}")
    return await _cell_after(page, label)


async def _due(page: Any, base: str, milestone: str) -> str:
    await page.goto(f"{base}/roadmap")
    await page.get_by_role("link", name=f"Milestone: {milestone}").click()
    return (await page.locator("dt:text-is('Due') + dd").inner_text()).strip()


async def _count_open(page: Any, base: str, owner: str) -> str:
    await page.goto(f"{base}/query")
    await page.get_by_label("Owner").fill(owner)
    async with page.expect_navigation():
        await page.get_by_role("button", name="Update").click()
    return str(await page.locator("table.listing tbody tr").count())


async def _search_open(page: Any, base: str, words: str) -> None:
    await page.goto(f"{base}/search")
    await page.get_by_label("Search terms").fill(words)
    await page.get_by_label("Search terms").press("Enter")
    await page.locator("#content dt a").first.click()
    await page.wait_for_load_state()


SOLUTIONS: dict[str, Solution] = {
    "file-defect": lambda p, b: _new_ticket(
        p, b, "Printing cuts off the last line of a note", priority="critical"
    ),
    "new-enhancement": lambda p, b: _new_ticket(
        p, b, "Pin notes to the top of the list", type="enhancement", component="editor", milestone="2.1"
    ),
    "new-task": lambda p, b: _new_ticket(p, b, "Translate the help pages into Portuguese", type="task"),
    "comment-about": lambda p, b: _comment(p, b, 1, "Also happens with the 1.3.2 build."),
    "comment-number": lambda p, b: _comment(
        p, b, 14, "Images survive the HTML export when the note has no tags."
    ),
    "raise-priority": lambda p, b: _modify(p, b, 2, priority="critical"),
    "lower-priority": lambda p, b: _modify(p, b, 17, priority="trivial"),
    "close-fixed": lambda p, b: _action(p, b, 3, "resolve", "fixed"),
    "close-wontfix": lambda p, b: _action(p, b, 16, "resolve", "wontfix"),
    "reopen": lambda p, b: _action(p, b, 12, "reopen"),
    "reassign": lambda p, b: _action(p, b, 9, "reassign", "carol"),
    "move-milestone": lambda p, b: _modify(p, b, 5, milestone="2.1"),
    "set-component": lambda p, b: _modify(p, b, 15, component="accounts"),
    "add-keyword": lambda p, b: _modify(p, b, 8, keywords="power regression"),
    "rename": lambda p, b: _modify(p, b, 11, summary="Document the backup file format"),
    "wiki-create": lambda p, b: _wiki_new(p, b, "ReleaseNotes20", "Version 2.0 brings a faster sync engine."),
    "wiki-create-named": lambda p, b: _wiki_new(
        p, b, "TeamContacts", "Ask in the chat before paging anyone."
    ),
    "wiki-append-step": lambda p, b: _wiki_edit(
        p, b, "ReleaseChecklist", lambda t: t + "\n* Announce the release on the forum"
    ),
    "wiki-typo": lambda p, b: _wiki_edit(p, b, "CodingStyle", lambda t: t.replace("recieve", "receive")),
    "wiki-append-line": lambda p, b: _wiki_edit(p, b, "OnCallRota", lambda t: t + "\nWeek 51: alice"),
    "wiki-replace": lambda p, b: _wiki_edit(
        p,
        b,
        "MeetingNotes",
        lambda t: t.replace("sync rewrite is on track", "sync rewrite is two weeks late"),
    ),
    "who-assigned": lambda p, b: _ticket_field(p, b, 8, "Owned by:"),
    "milestone-due": lambda p, b: _due(p, b, "2.0"),
    "count-open": lambda p, b: _count_open(p, b, "alice"),
    "priority-of": lambda p, b: _ticket_field(p, b, 5, "Priority:"),
    "who-reported": lambda p, b: _ticket_field(p, b, 10, "Reported by:"),
    "due-date": lambda p, b: _due(p, b, "2.1"),
    "take-me": lambda p, b: p.goto(f"{b}/ticket/13"),
    "search-open": lambda p, b: _search_open(p, b, "wake from sleep"),
    "open-wiki": lambda p, b: p.goto(f"{b}/wiki/OnCallRota"),
    "login-create": lambda p, b: _then(
        _login(p, b, "carol", "carol-pass-1"), lambda: _new_ticket(p, b, "Widget shows a stale note count")
    ),
    "login-comment": lambda p, b: _then(
        _login(p, b, "dave", "dave-secret"),
        lambda: _comment(p, b, 10, "Fixed in the login rewrite, please retest."),
    ),
}


async def _then(first: Any, second: Any) -> None:
    await first
    await second()
