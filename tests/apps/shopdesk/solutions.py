"""Shopdesk: a scripted Playwright solution of every goal through the Django admin's own pages."""

from __future__ import annotations

from typing import Any

from tests.apps.harness import Solution
from tests.apps.selftest import fill_fields
from tests.apps.shopdesk.project import PASSWORD, USER


async def _login(page: Any, base: str) -> None:
    await page.goto(f"{base}/admin/login/?next=/admin/")
    await page.get_by_label("Username").fill(USER)
    await page.get_by_label("Password").fill(PASSWORD)
    async with page.expect_navigation():
        await page.get_by_role("button", name="Log in").click()
    await page.get_by_role("button", name="Log out").wait_for()


async def _save(page: Any) -> None:
    async with page.expect_navigation():
        await page.get_by_role("button", name="Save", exact=True).click()
    await page.locator(".messagelist .success").wait_for()


async def _find(page: Any, base: str, model: str, words: str) -> None:
    """The changelist's search, then the row whose link is exactly ``words`` (a note may mention it too)."""
    await page.goto(f"{base}/admin/orders/{model}/")
    await page.locator("#searchbar").fill(words)
    async with page.expect_navigation():
        await page.locator("#searchbar").press("Enter")
    async with page.expect_navigation():
        await page.locator("#result_list").get_by_role("link", name=words, exact=True).click()


async def _edit(page: Any, base: str, model: str, words: str, **fields: str) -> None:
    await _login(page, base)
    await _find(page, base, model, words)
    await fill_fields(page, "id_%s", fields)
    await _save(page)


async def _add(page: Any, base: str, model: str, **fields: str) -> None:
    await _login(page, base)
    await page.goto(f"{base}/admin/orders/{model}/add/")
    await fill_fields(page, "id_%s", fields)
    await _save(page)


async def _append_note(page: Any, base: str) -> None:
    await _login(page, base)
    await _find(page, base, "order", "SO-1002")
    notes = page.locator("#id_notes")
    await notes.fill(await notes.input_value() + "\nCustomer called, deliver after 5pm.")
    await _save(page)


async def _delete(page: Any, base: str) -> None:
    await _login(page, base)
    await _find(page, base, "customer", "Test Customer")
    async with page.expect_navigation():
        await page.get_by_role("link", name="Delete").click()
    async with page.expect_navigation():
        await page.get_by_role("button", name="Yes, I’m sure").click()


async def _read(page: Any, base: str, model: str, words: str, field: str) -> str:
    await _login(page, base)
    await _find(page, base, model, words)
    return await page.locator(f"#id_{field}").input_value()


async def _count(page: Any, base: str) -> str:
    await _login(page, base)
    await page.goto(f"{base}/admin/orders/order/")
    async with page.expect_navigation():
        await page.locator("#changelist-filter").get_by_role("link", name="Pending").click()
    return str(await page.locator("#result_list tbody tr").count())


async def _open(page: Any, base: str) -> None:
    await _login(page, base)
    await _find(page, base, "order", "SO-1003")


SOLUTIONS: dict[str, Solution] = {
    "ship-order": lambda p, b: _edit(p, b, "order", "SO-1004", status="Shipped"),
    "add-customer": lambda p, b: _add(
        p, b, "customer", name="Ines Duarte", email="ines.duarte@example.org", city="Porto"
    ),
    "change-email": lambda p, b: _edit(p, b, "customer", "Bruno Keller", email="bruno.keller@example.net"),
    "append-note": _append_note,
    "cancel-order": lambda p, b: _edit(p, b, "order", "SO-1007", status="Cancelled"),
    "create-order": lambda p, b: _add(
        p, b, "order", number="SO-1013", customer="Ana Lima", placed_on="2026-11-20", status="Paid"
    ),
    "change-date": lambda p, b: _edit(p, b, "order", "SO-1009", placed_on="2026-10-02"),
    "reassign-order": lambda p, b: _edit(p, b, "order", "SO-1010", customer="Dana Kowalski"),
    "delete-customer": _delete,
    "which-city": lambda p, b: _read(p, b, "customer", "Chen Wei", "city"),
    "count-pending": _count,
    "when-placed": lambda p, b: _read(p, b, "order", "SO-1005", "placed_on"),
    "open-order": _open,
}
