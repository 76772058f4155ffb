"""Answers read from a plain-text document (a .txt file the browser shows in one <pre>), in real runs: its lines
are its blocks, so a price on a line naming a look-alike ('Harbour lamp Pro: £79.00' below 'Harbour lamp'), or
under a 'You may also like' line, is never the asked item's, and a text file whose first lines say the page is
gone answers nothing; the item's own price line, its sentence, or a line under its own heading line still does.
The same look-alike line in an HTML page (a list item with no name element, a paragraph under another heading)
is refused too; what a line says of the item itself under its own heading ('(large)', 'in stock', 'weight') is
no look-alike, and a page that only speaks of something removed is no error page."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from agent.runner import run_goal
from agent.util.static_server import StaticServer
from tests.support.factories import offline_context

DOCS = {
    "/gone.txt": "Harbour lamp\nSorry, that page is gone.\nYou may also like\nHarbour lamp Pro: £79.00\n",
    "/related.txt": "Harbour lamp\nOut of stock, no price yet\nYou may also like\nHarbour lamp Pro: £79.00\n",
    "/lookalike.txt": "Harbour lamp\nHarbour lamp Pro: £79.00\nHarbour lamp Pro stand: £12.00\n",
    "/sections.txt": "Harbour lamp\nA warm reading light with a brass shade.\n\nPrice: £45.00\n\nYou may also like\n"
    "Harbour lamp Pro: £79.00\n",
    "/sentence.txt": "Harbour lamp\nOur Harbour lamp is made by hand in Cornwall and costs £45.00.\n\nHarbour lamp Pro\n"
    "Price: £79.00\n",
    "/list.txt": "Lamps\nHarbour lamp Pro: £79.00\nHarbour lamp: £45.00\nDesk lamp: £20.00\n",
    "/large.txt": "Harbour lamp\nHarbour lamp (large): £45.00\n",
    "/brass.txt": "Harbour lamp\nA brass reading lamp.\nHarbour lamp in brass: £45.00\n",
    "/removed.txt": "Relisting fees\nThe old page for this item has been removed; this file replaces it.\n"
    "Harbour lamp relisting fee: £0.50\n",
}
_SHELL = "<!doctype html><html><head><meta charset='utf-8'><title>{0}</title></head><body><main>{1}</main></body></html>"
PAGES = {
    "/gone.html": (
        "Harbour lamp",
        "<h1>Harbour lamp</h1><p>Sorry, that page is gone.</p><h2>You may also like</h2>"
        "<ul><li>Harbour lamp Pro: £79.00</li><li>Desk lamp: £20.00</li></ul>",
    ),
    "/gone-p.html": (
        "Lamps",
        "<h1>Harbour lamp</h1><p>Sorry, that page is gone.</p><h2>You may also like</h2>"
        "<p>Harbour lamp Pro: £79.00</p>",
    ),
    "/own.html": (
        "Harbour lamp",
        "<h1>Harbour lamp</h1><p>Harbour lamp: £45.00</p><h2>You may also like</h2>"
        "<ul><li>Harbour lamp Pro: £79.00</li><li>Desk lamp: £20.00</li></ul>",
    ),
    "/large.html": ("Harbour lamp", "<h1>Harbour lamp</h1><p>Harbour lamp (large): £45.00</p>"),
    "/stock.html": ("Harbour lamp", "<h1>Harbour lamp</h1><p>Harbour lamp in stock: £45.00</p>"),
    "/weight.html": ("Harbour lamp", "<h1>Harbour lamp</h1><p>Harbour lamp weight: 2.1 kg</p>"),
    "/help.html": (
        "What happens when a listing is removed? | Help centre",
        "<h1>What happens when a listing is removed?</h1><p>The relisting fee is £0.50.</p>",
    ),
    "/own-sentence.html": (
        "Harbour lamp",
        "<h1>Harbour lamp</h1><p>The Harbour lamp costs £45.00 and ships in a "
        "week.</p><h2>You may also like</h2><p>Harbour lamp Pro: £79.00</p>",
    ),
}


def _doc(text: str):
    return lambda handler: (200, {"Content-Type": "text/plain; charset=utf-8"}, text.encode())


def _html(title: str, body: str):
    page = _SHELL.format(title, body).encode()
    return lambda handler: (200, {"Content-Type": "text/html; charset=utf-8"}, page)


@pytest.fixture(scope="module")
def text_site(tmp_path_factory) -> Iterator[str]:
    with StaticServer(
        tmp_path_factory.mktemp("text"),
        routes={p: _doc(t) for p, t in DOCS.items()} | {p: _html(*d) for p, d in PAGES.items()},
    ) as server:
        yield server.base_url


async def _ask(session, base: str, tmp_path, goal: str, path: str) -> dict:
    ctx = offline_context(tmp_path / "runs", action_timeout_s=5.0, max_steps=8, allowed_domains=["127.0.0.1"])
    return await run_goal(goal, ctx, start_url=base + path, session=session)


@pytest.mark.parametrize(
    "path", ["/gone.txt", "/related.txt", "/lookalike.txt", "/gone.html", "/gone-p.html"]
)
async def test_a_look_alike_line_never_answers_for_the_item(session, text_site, tmp_path, path):
    result = await _ask(session, text_site, tmp_path, "How much is the Harbour lamp?", path)
    assert result["terminal_type"] != "goal_satisfied", result
    assert "79" not in str(result.get("final_answer") or ""), result


@pytest.mark.parametrize(
    ("goal", "path", "answer"),
    [
        ("How much is the Harbour lamp?", "/sections.txt", "£45.00"),
        ("How much is the Harbour lamp?", "/sentence.txt", "£45.00"),
        ("How much is the Harbour lamp?", "/list.txt", "£45.00"),
        ("How much is the Harbour lamp Pro?", "/list.txt", "£79.00"),
        ("How much is the Harbour lamp Pro?", "/sentence.txt", "£79.00"),
        ("How much is the Harbour lamp?", "/own.html", "£45.00"),
        ("How much is the Harbour lamp?", "/own-sentence.html", "£45.00"),
        ("How much is the Harbour lamp Pro?", "/gone.html", "£79.00"),
        ("How much is the Harbour lamp?", "/large.txt", "£45.00"),
        ("How much is the Harbour lamp?", "/brass.txt", "£45.00"),
        ("How much is the Harbour lamp relisting fee?", "/removed.txt", "£0.50"),
        ("How much is the Harbour lamp?", "/large.html", "£45.00"),
        ("How much is the Harbour lamp?", "/stock.html", "£45.00"),
        ("How heavy is the Harbour lamp?", "/weight.html", "2.1 kg"),
        ("What is the relisting fee?", "/help.html", "£0.50"),
    ],
)
async def test_the_items_own_line_still_answers(session, text_site, tmp_path, goal, path, answer):
    result = await _ask(session, text_site, tmp_path, goal, path)
    assert result["terminal_type"] == "goal_satisfied", result
    assert answer in str(result["final_answer"]), result
