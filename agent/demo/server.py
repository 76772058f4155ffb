"""Serve the bundled demo site, and the goals the demo runs.

``serve_demo()`` returns a started :class:`~agent.util.static_server.StaticServer` on 127.0.0.1; the caller
stops it. The pages in ``site/`` hold only their own content: each extends ``templates/layout.html`` (head,
header, navigation, main container and footer written once), lists the categories of ``site/data/catalog.json``
and builds its form fields with ``templates/forms.html``; the server renders it per request, so a browser still
gets plain, complete HTML at the same URLs. ``python -m agent.demo.server [PORT]`` serves the site for a look in
a normal browser.

The site's facts the goals rely on (kept in step with ``site/assets/account.js`` and ``site/data/catalog.json``,
and checked by ``tests/demo``): the demo account is ``demo`` / ``wayfinder``; its last order WF-10428 totals
$59.33; 10 of the 24 products cost less than $20; searching "mug" finds 3 products.
"""

from __future__ import annotations

import json
import sys
import time
from pathlib import Path

from jinja2 import Environment, FileSystemLoader, select_autoescape

from agent.util.static_server import Route, StaticServer

#: The site's files (package data: html, css, js, json only).
DEMO_ROOT = Path(__file__).parent / "site"
#: The shared page shell the pages extend.
DEMO_TEMPLATES = Path(__file__).parent / "templates"

#: Where a demo run starts, relative to the server's base URL.
DEMO_START_PATH = "/index.html"

#: The demo account, shown on the login page itself.
DEMO_CREDENTIALS = {"username": "demo", "password": "wayfinder"}

#: The goal ``python -m agent demo`` carries out: several steps (cookie banner, login form, account page) and
#: an answer that can be checked.
DEMO_GOAL = "Log in as demo with password wayfinder, then tell me the total of my last order."

#: The answer a successful run of :data:`DEMO_GOAL` gives.
DEMO_GOAL_ANSWER = "$59.33"

#: More goals on the same site, for the README and for trying the agent by hand.
DEMO_GOALS: list[str] = [
    "Search the store for mugs and tell me how many results there are.",
    "How many products cost less than $20?",
    "What is the price of the Cast Iron Skillet?",
    "Sign up for the newsletter with the email ada@example.com.",
    "Which Electronics product has the best rating?",
    "Add two Dot-Grid Notebook A5 to the cart and tell me the cart total.",
    "Use the contact form to ask about returns: name Ada Lovelace, email ada@example.com, "
    "message 'My order arrived damaged', and send me a copy.",
]


def page_environment() -> Environment:
    """Jinja2 over the page shell and the pages (autoescaped; blocks keep their own line breaks)."""
    return Environment(
        loader=FileSystemLoader([str(DEMO_TEMPLATES), str(DEMO_ROOT)]),
        autoescape=select_autoescape(["html"]),
        trim_blocks=True,
        keep_trailing_newline=True,
    )


def categories() -> list[str]:
    """The catalog's categories, sorted: the home page links them and the products page filters by them."""
    catalog = json.loads((DEMO_ROOT / "data" / "catalog.json").read_text(encoding="utf-8"))
    return sorted({product["category"] for product in catalog["products"]})


def render_page(name: str, environment: Environment | None = None) -> str:
    """The complete HTML of page ``name`` (``"cart.html"``), as a browser receives it."""
    return (environment or page_environment()).get_template(name).render(categories=categories())


def _page_route(environment: Environment, name: str) -> Route:
    def route(_handler: object) -> tuple[int, dict[str, str], bytes]:
        body = render_page(name, environment).encode("utf-8")
        return 200, {"Content-Type": "text/html; charset=utf-8"}, body

    return route


def page_routes() -> dict[str, Route]:
    """One route per page (and ``/`` for the home page), each rendering the page into the shared shell."""
    environment = page_environment()
    routes = {f"/{path.name}": _page_route(environment, path.name) for path in DEMO_ROOT.glob("*.html")}
    routes["/"] = routes["/index.html"]
    return routes


def serve_demo(port: int = 0) -> StaticServer:
    """Start serving the demo site on 127.0.0.1 (``port=0`` picks a free port) and return the running server."""
    if not (DEMO_ROOT / "index.html").is_file() or not (DEMO_TEMPLATES / "layout.html").is_file():
        raise FileNotFoundError(f"the demo site is missing from the installed package: {DEMO_ROOT}")
    return StaticServer(DEMO_ROOT, port=port, routes=page_routes()).start()


def main(argv: list[str] | None = None) -> int:
    """Serve the site until Ctrl-C (for looking at it in a normal browser)."""
    args = sys.argv[1:] if argv is None else argv
    port = int(args[0]) if args else 8765
    server = serve_demo(port)
    print(f"Wayfinder Demo Store on {server.base_url}{DEMO_START_PATH}  (Ctrl-C stops)", flush=True)
    try:
        while True:
            time.sleep(3600)
    except KeyboardInterrupt:
        pass
    finally:
        server.stop()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
