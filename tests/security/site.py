"""The adversarial pages, served on 127.0.0.1, and "another site": the same server reached as ``localhost``.

Two host names for one loopback server give two origins (and two hosts for the domain and secret rules)
without any network. Routes:

- ``/collect`` (GET or POST): records the request (host, path with query, body) and answers 204 - the place
  a lure, a hidden form or an obeyed injection would send data to; a test asserts what reached it;
- ``/never``: answers nothing for a long time (a page that never loads).

Pages may write ``OTHER`` into links and text from script (``other()`` in ``pages/common.js``), so the
attacker's address carries the server's port.
"""

from __future__ import annotations

import threading
import time
from dataclasses import dataclass
from http.server import SimpleHTTPRequestHandler
from pathlib import Path

from agent.util.static_server import StaticServer

PAGES = Path(__file__).parent / "pages"


@dataclass(frozen=True)
class Hit:
    host: str
    path: str
    body: str


class SecuritySite(StaticServer):
    def __init__(self) -> None:
        self.hits: list[Hit] = []
        self._lock = threading.Lock()
        self._stop = threading.Event()
        super().__init__(PAGES, routes={"/collect": self._collect, "/never": self._never})

    def _collect(self, handler: SimpleHTTPRequestHandler) -> tuple[int, dict[str, str], bytes]:
        length = int(handler.headers.get("Content-Length") or 0)
        body = handler.rfile.read(length).decode("utf-8", "replace") if length else ""
        with self._lock:
            self.hits.append(Hit(handler.headers.get("Host", ""), handler.path, body))
        return 204, {}, b""

    def _never(self, handler: SimpleHTTPRequestHandler) -> tuple[int, dict[str, str], bytes]:
        self._stop.wait(60)
        return 503, {}, b""

    def stop(self) -> None:
        self._stop.set()
        super().stop()

    def collected(self, containing: str = "") -> list[Hit]:
        """The requests ``/collect`` received whose path or body holds ``containing``."""
        with self._lock:
            return [h for h in self.hits if containing in h.path or containing in h.body]

    def url(self, page: str) -> str:
        return f"{self.base_url}/{page}"

    @property
    def other(self) -> str:
        """The same server as another site (``http://localhost:PORT``)."""
        return self.base_url.replace("127.0.0.1", "localhost")


if __name__ == "__main__":  # pragma: no cover - manual use
    with SecuritySite() as site:
        print(site.base_url, flush=True)
        time.sleep(3600)
