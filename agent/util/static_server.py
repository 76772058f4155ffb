"""A loopback HTTP server for bundled pages (the demo site, test fixtures).

Serves a directory read-only on 127.0.0.1 in a daemon thread, plus optional dynamic routes, so demos and tests
never need the network.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from functools import partial
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

#: A dynamic route: gets the handler, returns (status, headers, body). Query string is in handler.path.
Route = Callable[[SimpleHTTPRequestHandler], tuple[int, dict[str, str], bytes]]


class _Handler(SimpleHTTPRequestHandler):
    routes: dict[str, Route] = {}

    def log_message(self, format: str, *args: Any) -> None:  # noqa: A002 - silence request logging
        return

    def _dispatch(self) -> bool:
        path = self.path.split("?", 1)[0]
        route = self.routes.get(path)
        if route is None:
            return False
        status, headers, body = route(self)
        self.send_response(status)
        for key, value in headers.items():
            self.send_header(key, value)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        if self.command != "HEAD":
            self.wfile.write(body)
        return True

    def do_GET(self) -> None:  # noqa: N802 - http.server naming
        if not self._dispatch():
            super().do_GET()

    def do_HEAD(self) -> None:  # noqa: N802
        if not self._dispatch():
            super().do_HEAD()

    def do_POST(self) -> None:  # noqa: N802
        if not self._dispatch():
            self.send_error(405, "POST not supported here")

    def end_headers(self) -> None:
        self.send_header("Cache-Control", "no-store")
        super().end_headers()


class StaticServer:
    """Serve ``root`` on 127.0.0.1:<port> (0 picks a free port). Use as a context manager or start/stop."""

    def __init__(self, root: Path | str, *, port: int = 0, routes: dict[str, Route] | None = None):
        handler_cls = type("Handler", (_Handler,), {"routes": dict(routes or {})})
        self._httpd = ThreadingHTTPServer(("127.0.0.1", port), partial(handler_cls, directory=str(root)))
        self._httpd.daemon_threads = True
        self._thread = threading.Thread(target=self._httpd.serve_forever, name="static-server", daemon=True)

    @property
    def base_url(self) -> str:
        host, port = self._httpd.server_address[:2]
        return f"http://{host}:{port}"

    def start(self) -> StaticServer:
        self._thread.start()
        return self

    def stop(self) -> None:
        self._httpd.shutdown()
        self._httpd.server_close()

    def __enter__(self) -> StaticServer:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()
