"""Shopdesk (the Django admin): goals a shop manager gives an agent there, each checked in Django's database.

Seeded ids: customers 1 Ana Lima, 2 Bruno Keller, 3 Chen Wei, 4 Dana Kowalski, 5 Emeka Obi, 6 Test Customer;
orders 1..12 are SO-1001..SO-1012. Every goal carries the sign-in: the admin shows nothing to a stranger.
"""

from __future__ import annotations

import contextlib
import shutil
import tempfile
from collections.abc import Iterator
from pathlib import Path

from tests.apps.dbdiff import Expect, Table, text_ends_with_added_line
from tests.apps.harness import AppGoal, Application
from tests.apps.shopdesk.project import PASSWORD, USER, DjangoServer, ensure_installed

TABLES = (
    Table("orders_customer", ("id",)),
    Table("orders_order", ("id",)),
)
DEFAULTS = {"orders_order": {"notes": ""}}
LOGIN = f"Log in as {USER} with password {PASSWORD}"


def _order(n: int, **fields: object) -> Expect:
    return Expect(changed={("orders_order", (n,)): fields})


GOALS: list[AppGoal] = [
    AppGoal(
        "ship-order",
        f"Log in to the shop admin as {USER} with password {PASSWORD} and mark order SO-1004 as shipped.",
        _order(4, status="shipped"),
    ),
    AppGoal(
        "add-customer",
        f'Log in as {USER} (password {PASSWORD}), then add a customer named "Ines Duarte" with email '
        "ines.duarte@example.org, city Porto.",
        Expect(
            added={
                "orders_customer": (
                    {"name": "Ines Duarte", "email": "ines.duarte@example.org", "city": "Porto"},
                )
            }
        ),
    ),
    AppGoal(
        "change-email",
        f"Sign in as {USER} / {PASSWORD} and change the email of customer Bruno Keller to bruno.keller@example.net",
        Expect(changed={("orders_customer", (2,)): {"email": "bruno.keller@example.net"}}),
    ),
    AppGoal(
        "append-note",
        f'{LOGIN}. Add a note to order SO-1002: "Customer called, deliver after 5pm." Keep the existing notes.',
        _order(2, notes=text_ends_with_added_line("Customer called, deliver after 5pm.")),
    ),
    AppGoal("cancel-order", f"{LOGIN} and cancel order SO-1007.", _order(7, status="cancelled")),
    AppGoal(
        "create-order",
        f"{LOGIN}, then create order SO-1013 for Ana Lima, placed on 2026-11-20, with status paid.",
        Expect(
            added={
                "orders_order": (
                    {"number": "SO-1013", "customer_id": 1, "placed_on": "2026-11-20", "status": "paid"},
                )
            }
        ),
    ),
    AppGoal(
        "change-date",
        f"{LOGIN} and change the date of order SO-1009 to 2026-10-02.",
        _order(9, placed_on="2026-10-02"),
    ),
    AppGoal(
        "reassign-order",
        f"{LOGIN}. Order SO-1010 belongs to Dana Kowalski, not Emeka Obi: fix its customer.",
        _order(10, customer_id=4),
    ),
    AppGoal(
        "delete-customer",
        f'{LOGIN} and delete the customer "Test Customer".',
        Expect(removed=(("orders_customer", (6,)),)),
    ),
    AppGoal(
        "which-city",
        f"{LOGIN}. Which city is the customer Chen Wei in?",
        answer=("Singapore",),
        wrong=("Lisbon", "Zurich", "Krakow", "Lagos"),
    ),
    AppGoal("count-pending", f"{LOGIN} and tell me how many orders are pending.", answer=("4",)),
    AppGoal(
        "when-placed",
        f"{LOGIN}. When was order SO-1005 placed?",
        answer=("2026-10-14", "Oct. 14, 2026", "October 14, 2026"),
    ),
    AppGoal("open-order", f"{LOGIN} and open order SO-1003.", url=r"^/admin/orders/order/3/change/"),
]

SMOKE_GOALS = ("cancel-order",)


@contextlib.contextmanager
def running_shopdesk() -> Iterator[Application]:
    """The Django admin on loopback over a working copy of the seeded database (installs Django on first use)."""
    python, project, _ = ensure_installed()
    with tempfile.TemporaryDirectory(prefix="shopdesk-") as tmp:
        seed, live = Path(tmp) / "seed.sqlite3", Path(tmp) / "live.sqlite3"
        shutil.copyfile(project.parent / "seed.sqlite3", seed)
        shutil.copyfile(seed, live)
        server = DjangoServer(python, project, live).start()
        try:
            yield Application("shopdesk (Django admin)", server.base_url, live, seed, TABLES, GOALS, DEFAULTS)
        finally:
            server.stop()
