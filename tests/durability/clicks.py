"""A fixture site whose buttons report their clicks to the server, so tests can count side effects.

``ClickSite`` serves ``tests/durability/pages/`` (or the pages it is given) on 127.0.0.1 with one dynamic route:
``/api/click?name=N`` (GET or POST) increments counter ``N`` and answers ``{"name": N, "count": n}``;
with ``&delay=S`` it counts at once and answers S seconds later (at most 10), so a click is surely in flight.
The counts live in the test process: ``site.count("buy")`` is the number of times the page really clicked, and
``site.user_agents["buy"]`` the User-Agent of the browser that sent the last one.
Run ``python -m tests.durability.clicks`` to serve it by hand (it prints the URL).
"""

from __future__ import annotations

import json
import threading
import time
from collections import Counter
from http.server import SimpleHTTPRequestHandler
from pathlib import Path
from urllib.parse import parse_qs, urlsplit

from agent.util.static_server import StaticServer

PAGES = Path(__file__).parent / "pages"


class ClickSite(StaticServer):
    def __init__(self, pages: Path = PAGES) -> None:
        self.clicks: Counter[str] = Counter()
        self.user_agents: dict[str, str] = {}
        self._lock = threading.Lock()
        super().__init__(pages, routes={"/api/click": self._click})

    def _click(self, handler: SimpleHTTPRequestHandler) -> tuple[int, dict[str, str], bytes]:
        query = parse_qs(urlsplit(handler.path).query)
        name = (query.get("name") or ["?"])[-1]
        with self._lock:
            self.clicks[name] += 1
            self.user_agents[name] = handler.headers.get("User-Agent", "")
            count = self.clicks[name]
        time.sleep(min(10.0, float((query.get("delay") or ["0"])[-1] or 0)))
        return 200, {"Content-Type": "application/json"}, json.dumps({"name": name, "count": count}).encode()

    def count(self, name: str) -> int:
        with self._lock:
            return self.clicks[name]

    def url(self, page: str) -> str:
        return f"{self.base_url}/{page}"


if __name__ == "__main__":  # pragma: no cover - manual use
    with ClickSite() as site:
        print(site.base_url, flush=True)
        try:
            while True:
                time.sleep(5)
                print(dict(site.clicks), flush=True)
        except KeyboardInterrupt:
            pass
