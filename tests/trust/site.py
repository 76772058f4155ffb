"""Server-side pages of the trap site: error pages that answer with a real HTTP status and repeat the words
of the page that was asked for, as many real sites do. The static pages begin with a ``<!-- shell: ... -->``
line and hold only their own content; ``shell_routes`` serves them whole in :data:`SHELL`."""

from __future__ import annotations

import html
import json
import time
from http.server import SimpleHTTPRequestHandler
from pathlib import Path

from agent.util.static_server import Route
from tests.site_routes import shell_routes

PAGES = Path(__file__).parent / "pages"
Response = tuple[int, dict[str, str], bytes]
SHELL = (
    '<!doctype html>\n<html lang="en">\n<head><meta charset="utf-8"><title>{title} - {site}</title>'
    '<link rel="stylesheet" href="/style.css"></head>\n<body>\n'
    '<header class="site"><a href="/index.html">{site}</a><span>{section}</span></header>\n<main>\n'
    "{content}</body>\n</html>\n"
)


def _page(status: int, title: str, body: str) -> Response:
    page = (
        "<!doctype html><html lang='en'><head><meta charset='utf-8'>"
        f"<title>{html.escape(title)}</title><link rel='stylesheet' href='/style.css'></head><body>"
        "<header class='site'><a href='/index.html'>Northwind Outfitters</a></header>"
        f"<main>{body}</main></body></html>"
    )
    return status, {"Content-Type": "text/html; charset=utf-8"}, page.encode()


def missing_returns_page(handler: SimpleHTTPRequestHandler) -> Response:
    path = html.escape(handler.path.split("?", 1)[0])
    return _page(
        404,
        "Nimbus backpack return policy - page not found",
        "<h1>Nimbus backpack return policy</h1>"
        f"<p class='error'>Sorry, we could not find <code>{path}</code>. It may have moved or never "
        "existed.</p><p>Error 404. Try the search box or go back to the Nimbus backpack.</p>",
    )


def broken_order_page(handler: SimpleHTTPRequestHandler) -> Response:
    return _page(
        500,
        "Order 4471 status - Northwind Outfitters",
        "<h1>Order 4471 status</h1><p class='error'>Something went wrong while loading the status of order "
        "4471. Please try again in a few minutes.</p><p>Error 500 (internal server error). Reference "
        "7f3a-22.</p>",
    )


def soft_missing_page(handler: SimpleHTTPRequestHandler) -> Response:
    """A "soft 404": the shop's not-found view sent with HTTP 200 and the shop's plain title, naming the product
    that was asked for and pricing look-alikes under it."""
    return _page(
        200,
        "Lumen Store",
        "<h1>Sorry, we couldn't find that page</h1><p>The Halcyon blender page you were looking for doesn't "
        "exist any more. It may have moved.</p><h2>Popular right now</h2><ul><li>Halcyon blender jug "
        "<b>$24.00</b></li><li>Halcyon blender blade set <b>$18.00</b></li></ul>",
    )


def unavailable_catalogue_page(handler: SimpleHTTPRequestHandler) -> Response:
    return _page(
        503,
        "Service unavailable",
        "<h1>Spring catalogue</h1><p class='error'>Our catalogue service is busy. Please come back later.</p>",
    )


def lamp_api(handler: SimpleHTTPRequestHandler) -> Response:
    """The data a client-side product page fetches after load: a short pause, as a real API takes."""
    time.sleep(0.6)
    if "orion" in handler.path:
        return 404, {"Content-Type": "application/json"}, b'{"error": "no such product"}'
    data = {
        "name": "Arc desk lamp",
        "about": "A slim aluminium lamp with a warm dimmable LED.",
        "price": "$48.00",
    }
    return 200, {"Content-Type": "application/json"}, json.dumps(data).encode()


ROUTES: dict[str, Route] = {
    "/unseen/api/products/arc-desk-lamp": lamp_api,
    "/unseen/api/products/orion-desk-lamp": lamp_api,
    "/unseen/catalogue/spring": unavailable_catalogue_page,
    "/unseen/products/halcyon-blender": soft_missing_page,
    "/products/nimbus-backpack/returns": missing_returns_page,
    "/account/orders/4471": broken_order_page,
    **shell_routes(PAGES, SHELL),
}
