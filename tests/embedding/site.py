"""A one-page site with a risky button, served on 127.0.0.1, that counts how often the button really ran.

``/account.html`` has a "Delete account" button (high risk: it goes through ``confirm``). Each click updates
the page ("Account deleted (N)", ``body[data-deletions]``) and POSTs ``/delete-account``, which the server
counts, so a test can tell from outside the browser whether the action ran, and how many times.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

from agent.util.static_server import StaticServer

PAGES = Path(__file__).parent / "pages"


@dataclass
class AccountSite:
    base_url: str = ""
    _deletions: int = 0
    _lock: threading.Lock = field(default_factory=threading.Lock)

    @property
    def url(self) -> str:
        return self.base_url + "/account.html"

    @property
    def deletions(self) -> int:
        """How many times the page's "Delete account" button ran (as the server saw it)."""
        with self._lock:
            return self._deletions

    def _delete(self, _handler: object) -> tuple[int, dict[str, str], bytes]:
        with self._lock:
            self._deletions += 1
        return 200, {"Content-Type": "text/plain"}, b"deleted"


@contextmanager
def account_site() -> Iterator[AccountSite]:
    site = AccountSite()
    with StaticServer(PAGES, routes={"/delete-account": site._delete}) as server:
        site.base_url = server.base_url
        yield site
