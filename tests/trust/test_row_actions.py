"""Acting on one item of a list by its own control, in real runs on a small stateful account page (its own
markup): the right row's button is pressed, the server's state is checked, and success is claimed only when the
page after says the item was done; a row without the control, or a refusal, is no success and changes nothing."""

from __future__ import annotations

import html
from collections.abc import Iterator
from http.server import SimpleHTTPRequestHandler
from pathlib import Path
from urllib.parse import parse_qs, quote, urlsplit

import pytest

from agent.runner import run_goal
from agent.util.static_server import StaticServer
from tests.support.factories import offline_context

LOANS = {"106": ["Gardens of the Mind", "2025-06-03", 0], "107": ["Deep Water Atlas", "2025-05-28", 2],
         "118": ["Kitchen Chemistry", "2025-06-10", 1]}  # fmt: skip
HOLDS = {"108": "Winter Orchard", "101": "The Salt Road"}
STATE: dict[str, dict] = {}
REFUSE: set[str] = set()  # loans the server refuses to renew (reserved by someone else)
MISSING: set[str] = set()  # loans whose renewal answers 404


def _reset() -> None:
    STATE["loans"] = {k: list(v) for k, v in LOANS.items()}
    STATE["holds"] = dict(HOLDS)
    REFUSE.clear()
    MISSING.clear()


def _account(handler: SimpleHTTPRequestHandler) -> tuple[int, dict[str, str], bytes]:
    msg = parse_qs(urlsplit(handler.path).query).get("msg", [""])[-1]
    rows = "".join(
        f"<tr><td><a href='/book/{k}'>{html.escape(t)}</a></td><td>{due}</td><td>{used} of 2</td><td>"
        + (f"<form method='post' action='/renew'><input type='hidden' name='id' value='{k}'>"
           f"<button>Renew</button></form>" if used < 2 else "Renewal limit reached")
        + "</td></tr>"
        for k, (t, due, used) in STATE["loans"].items()
    )  # fmt: skip
    holds = "".join(
        f"<li><a href='/book/{k}'>{html.escape(t)}</a> - position 2 in queue "
        f"<form method='post' action='/cancel-hold' style='display:inline'><input type='hidden' name='id' "
        f"value='{k}'><button>Cancel hold</button></form></li>"
        for k, t in STATE["holds"].items()
    )
    side = "<aside><h3>New this week</h3><a href='/book/9'>Salt: A World History</a></aside>"
    flash = f"<p class='flash'>{html.escape(msg)}</p>" if msg else ""
    body = (
        "<!doctype html><html><head><title>My account</title></head><body><nav><a href='/'>Home</a></nav>"
        f"{flash}<main><h2>My account</h2><h3>Items on loan</h3><table><tr><th>Title</th><th>Due</th>"
        f"<th>Renewals</th><th></th></tr>{rows}</table><h3>Holds</h3><ul>{holds}</ul></main>{side}</body></html>"
    )
    return 200, {"Content-Type": "text/html; charset=utf-8"}, body.encode()


def _posted(handler: SimpleHTTPRequestHandler) -> str:
    length = int(handler.headers.get("Content-Length") or 0)
    return parse_qs(handler.rfile.read(length).decode()).get("id", [""])[-1]


def _back(message: str) -> tuple[int, dict[str, str], bytes]:
    return 303, {"Location": "/account?msg=" + quote(message)}, b""


def _renew(handler: SimpleHTTPRequestHandler) -> tuple[int, dict[str, str], bytes]:
    key = _posted(handler)
    loan = STATE["loans"].get(key)
    if loan is None or key in REFUSE:
        return _back("Sorry, this item could not be renewed: another member has reserved it.")
    if key in MISSING:  # an error page that echoes the request in the words of a success
        body = f"<h1>Page missing</h1><p>Renewed {html.escape(loan[0])} (page missing)</p>"
        return 404, {"Content-Type": "text/html; charset=utf-8"}, body.encode()
    loan[1], loan[2] = "2025-06-24", loan[2] + 1
    return _back(f"Renewed {loan[0]}. New due date 2025-06-24.")


def _cancel_hold(handler: SimpleHTTPRequestHandler) -> tuple[int, dict[str, str], bytes]:
    title = STATE["holds"].pop(_posted(handler), "")
    return _back(f"Your hold on {title} was cancelled.")


def _menu(handler: SimpleHTTPRequestHandler) -> tuple[int, dict[str, str], bytes]:
    """A restaurant's own menu (its name is its link home) beside an aside about another restaurant's dish."""
    body = (
        "<!doctype html><html><head><title>Lotus Garden - Menu</title></head><body><header><a href='/'>Lotus "
        "Garden</a></header><main><h1>Menu</h1><div><h3>Spring rolls</h3><p>£4.50</p></div></main><aside><h3>Also "
        "from Lotus Garden</h3><p>Half crispy aromatic duck at our sister restaurant Jade Palace: £16.90</p></aside>"
        "</body></html>"
    )
    return 200, {"Content-Type": "text/html; charset=utf-8"}, body.encode()


@pytest.fixture(scope="module")
def account_url() -> Iterator[str]:
    _reset()
    routes = {"/account": _account, "/renew": _renew, "/cancel-hold": _cancel_hold, "/menu": _menu}
    with StaticServer(Path(__file__).parent / "pages", routes=routes) as server:
        yield server.base_url


@pytest.fixture
def act(session, account_url, tmp_path):
    """``await act(goal, refuse=ids, missing=ids, path=...)``: a run from the account page (or ``path``), fresh
    state, the server refusing to renew the loans ``refuse`` names and answering 404 for ``missing``."""

    async def go(
        goal: str, refuse: tuple[str, ...] = (), missing: tuple[str, ...] = (), path: str = "/account"
    ):
        _reset()
        REFUSE.update(refuse)
        MISSING.update(missing)
        ctx = offline_context(
            tmp_path / "runs", action_timeout_s=5.0, max_seconds=60.0, confirm_policy="auto"
        )
        return await run_goal(goal, ctx, start_url=account_url + path, session=session)

    return go


async def test_the_items_own_renew_button_is_pressed_and_the_page_proves_it(act):
    result = await act("Renew my loan of Kitchen Chemistry")
    assert (result["terminal_type"], result["terminal_reason"]) == ("goal_satisfied", "action_verified")
    assert "Renewed Kitchen Chemistry" in result["final_answer"]
    assert STATE["loans"]["118"][2] == 2 and STATE["loans"]["106"][2] == 0  # that row, and only that row


async def test_a_hold_in_a_list_is_cancelled_on_its_own_item(act):
    result = await act("cancel my hold on The Salt Road")
    assert result["terminal_type"] == "goal_satisfied", result.get("stop_reason")
    assert STATE["holds"] == {"108": "Winter Orchard"}


async def test_a_row_without_the_control_is_no_success_and_nothing_changes(act):
    result = await act("renew my loan of Deep Water Atlas")
    assert result["terminal_type"] != "goal_satisfied"
    assert [v[2] for v in STATE["loans"].values()] == [0, 2, 1]


async def test_the_server_refusing_the_renewal_is_no_success(act):
    result = await act("renew my loan of Gardens of the Mind", refuse=("106",))
    assert result["terminal_type"] != "goal_satisfied"
    assert STATE["loans"]["106"][2] == 0


async def test_an_error_page_echoing_the_renewal_is_no_success(act):
    result = await act("renew my loan of Gardens of the Mind", missing=("106",))
    assert result["terminal_type"] != "goal_satisfied"


async def test_a_side_block_about_another_place_does_not_answer_for_this_site(act):
    """'... at Lotus Garden' on Lotus Garden's own menu: the aside's price is its sister restaurant's."""
    result = await act("What's the price of half crispy aromatic duck at Lotus Garden?", path="/menu")
    assert result["terminal_type"] != "goal_satisfied" and result["final_answer"] is None
