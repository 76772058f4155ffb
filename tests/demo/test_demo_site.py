"""The bundled demo store, exercised in real Chromium the way the agent will meet it.

Every page must load with no console errors and no request leaving 127.0.0.1 (the demo runs offline), and the
flows the demo goals rely on (cookie banner, login, search, filters, cart, forms) must behave as the goals say.
"""

from __future__ import annotations

import json
import re
import tomllib
import urllib.request
from collections.abc import Iterator
from fnmatch import fnmatch
from pathlib import Path

import pytest

from agent.demo import (
    DEMO_CREDENTIALS,
    DEMO_GOAL,
    DEMO_GOAL_ANSWER,
    DEMO_GOALS,
    DEMO_ROOT,
    DEMO_START_PATH,
    serve_demo,
)
from agent.demo.server import DEMO_TEMPLATES, page_routes, render_page

REPO = Path(__file__).resolve().parents[2]
CATALOG = json.loads((DEMO_ROOT / "data" / "catalog.json").read_text(encoding="utf-8"))["products"]
ACCEPT_CONSENT = "try { localStorage.setItem('wf-cookie-consent', 'all'); } catch (e) {}"


@pytest.fixture(scope="module")
def demo_url() -> Iterator[str]:
    server = serve_demo()
    try:
        yield server.base_url
    finally:
        server.stop()


class Watch:
    """Console errors, page errors, failed/errored responses and off-loopback requests of one page."""

    def __init__(self, page, base_url: str):
        self.base_url = base_url
        self.problems: list[str] = []
        self.requests: list[str] = []
        page.on("console", lambda m: m.type == "error" and self.problems.append(f"console: {m.text}"))
        page.on("pageerror", lambda e: self.problems.append(f"pageerror: {e}"))
        page.on("requestfailed", lambda r: self.problems.append(f"requestfailed: {r.url} {r.failure}"))
        page.on("response", lambda r: r.status >= 400 and self.problems.append(f"HTTP {r.status}: {r.url}"))
        page.on("request", lambda r: self.requests.append(r.url))

    def check(self) -> None:
        external = [
            u for u in self.requests if not (u.startswith(self.base_url + "/") or u.startswith("data:"))
        ]
        assert not external, f"requests left 127.0.0.1: {external}"
        assert not self.problems, self.problems


def _search_matches(query: str) -> list[str]:
    """The search page's matching rule, restated: every term in name/category/description; 'mugs' ~ 'mug'."""
    terms = query.lower().split()
    found = []
    for product in CATALOG:
        hay = f"{product['name']} {product['category']} {product['description']}".lower()
        if all(t in hay or (len(t) > 3 and t.endswith("s") and t[:-1] in hay) for t in terms):
            found.append(product["name"])
    return found


async def _goto(page, url: str) -> None:
    await page.goto(url)
    await page.wait_for_load_state("networkidle")


async def _consent_given(page) -> None:
    await page.context.add_init_script(ACCEPT_CONSENT)


PAGES = [
    ("/", "Wayfinder Demo Store"),
    ("/index.html", "Wayfinder Demo Store"),
    ("/products.html", "All products"),
    ("/products.html?category=Kitchen&price=under-20&sort=price-asc", "Kitchen"),
    ("/product.html?id=1", "Trail Coffee Mug"),
    ("/product.html?id=999", "Product not found"),
    ("/search.html?q=mug", "Search results for “mug”"),
    ("/search.html", "Search"),
    ("/login.html", "Log in"),
    ("/account.html", "Your account"),
    ("/cart.html", "Your cart"),
    ("/contact.html", "Contact us"),
]


@pytest.mark.parametrize(("path", "heading"), PAGES)
async def test_page_loads_cleanly_and_offline(page, demo_url, path, heading):
    watch = Watch(page, demo_url)
    await _goto(page, demo_url + path)
    assert (await page.locator("h1").first.inner_text()).strip() == heading
    # The shared chrome every page has: a labelled search box, main nav and the consent banner (first visit).
    await page.get_by_role("searchbox", name="Search products").wait_for()
    assert await page.get_by_role("navigation", name="Main").count() == 1
    assert await page.get_by_role("dialog", name="We use cookies").is_visible()
    watch.check()


async def test_cookie_banner_blocks_until_accepted(page, demo_url):
    watch = Watch(page, demo_url)
    await _goto(page, demo_url + "/index.html")
    banner = page.get_by_role("dialog", name="We use cookies")
    assert await banner.is_visible()

    # The page content is covered: the hit test at a product link's centre lands on the backdrop.
    link = page.get_by_role("link", name="Shop all products")
    box = await link.bounding_box()
    hit = await page.evaluate(
        "([x, y]) => document.elementFromPoint(x, y).className", [box["x"] + box["width"] / 2, box["y"] + 5]
    )
    assert hit == "consent-backdrop"
    with pytest.raises(Exception, match="intercepts pointer events"):
        await link.click(timeout=1500)
    # The header stays usable (from the top of the page: the refused click may have scrolled the link into view,
    # and the header with it out of the viewport, where elementFromPoint finds nothing).
    await page.evaluate("() => window.scrollTo(0, 0)")
    assert await page.evaluate(
        "() => { const a = document.querySelector('.brand'); const r = a.getBoundingClientRect();"
        " return document.elementFromPoint(r.x + r.width / 2, r.y + r.height / 2).closest('.brand') !== null; }"
    )

    await page.get_by_role("button", name="Accept all cookies").click()
    assert await banner.count() == 0
    assert await page.evaluate("() => localStorage.getItem('wf-cookie-consent')") == "all"
    await link.click()
    await page.wait_for_url("**/products.html")
    await page.wait_for_load_state("networkidle")
    assert await page.get_by_role("dialog", name="We use cookies").count() == 0  # remembered across pages
    watch.check()


async def test_essential_only_also_dismisses_banner(page, demo_url):
    await _goto(page, demo_url + "/contact.html")
    await page.get_by_role("button", name="Only essential cookies").click()
    await page.reload()
    await page.wait_for_load_state("networkidle")
    assert await page.get_by_role("dialog", name="We use cookies").count() == 0
    assert await page.evaluate("() => localStorage.getItem('wf-cookie-consent')") == "essential"


async def test_login_flow_and_last_order(page, demo_url):
    await _consent_given(page)
    watch = Watch(page, demo_url)
    await _goto(page, demo_url + "/account.html")
    assert "Please log in" in await page.inner_text("main")
    assert DEMO_GOAL_ANSWER not in await page.inner_text("body")  # nothing leaks before login

    await page.get_by_role("banner").get_by_role("link", name="Log in").click()
    await page.wait_for_url("**/login.html")
    await page.wait_for_load_state("networkidle")
    notice = await page.inner_text("#demo-credentials")
    assert DEMO_CREDENTIALS["username"] in notice and DEMO_CREDENTIALS["password"] in notice

    await page.get_by_label("Username").fill("demo")
    await page.get_by_label("Password").fill("wrong")
    await page.get_by_role("main").get_by_role("button", name="Log in").click()
    assert "Wrong username or password" in await page.get_by_role("alert").inner_text()
    assert await page.get_by_label("Password").input_value() == ""

    await page.get_by_label("Password").fill(DEMO_CREDENTIALS["password"])
    await page.get_by_label("Password").press("Enter")
    await page.wait_for_url("**/account.html")
    await page.wait_for_load_state("networkidle")
    assert await page.get_by_role("banner").get_by_text("Welcome, demo").is_visible()
    assert (await page.inner_text("h1")).strip() == "Welcome, demo"
    last_order = await page.inner_text("#last-order")
    assert "Last order" in last_order and "WF-10428" in last_order
    assert await page.inner_text("#last-order-total") == DEMO_GOAL_ANSWER

    # The sign-in persists across pages; logging out ends it.
    await _goto(page, demo_url + "/index.html")
    assert await page.get_by_role("banner").get_by_text("Welcome, demo").is_visible()
    await page.get_by_role("button", name="Log out").click()
    await page.wait_for_url("**/index.html")
    await page.get_by_role("banner").get_by_role("link", name="Log in").wait_for()
    watch.check()


def test_demo_goal_answer_matches_order_lines():
    """The constant the demo checks against is the sum the account page computes (items + shipping)."""
    app = (DEMO_ROOT / "assets" / "account.js").read_text(encoding="utf-8")
    lines = re.findall(r"qty: (\d+), price: ([\d.]+)", app)
    shipping = float(re.search(r"shipping: ([\d.]+)", app).group(1))
    total = sum(int(q) * float(p) for q, p in lines) + shipping
    assert f"${total:.2f}" == DEMO_GOAL_ANSWER
    assert "demo" in DEMO_GOAL and "wayfinder" in DEMO_GOAL


async def test_search_from_header_shows_matching_products(page, demo_url):
    await _consent_given(page)
    watch = Watch(page, demo_url)
    await _goto(page, demo_url + DEMO_START_PATH)
    box = page.get_by_role("searchbox", name="Search products")
    await box.fill("mug")
    await box.press("Enter")
    await page.wait_for_url("**/search.html?q=mug")
    await page.wait_for_load_state("networkidle")

    expected = _search_matches("mug")
    assert len(expected) == 3
    names = await page.locator("#search-results h3").all_inner_texts()
    assert sorted(names) == sorted(expected)
    assert await page.inner_text("#search-count") == "3 products found"
    assert await box.input_value() == "mug"

    for query in ("mugs", "coffee kitchen", "Electronics"):
        await _goto(page, f"{demo_url}/search.html?q={query.replace(' ', '+')}")
        names = await page.locator("#search-results h3").all_inner_texts()
        assert sorted(names) == sorted(_search_matches(query)) and names, query

    await _goto(page, demo_url + "/search.html?q=zzzz")
    assert "No products match “zzzz”" in await page.inner_text("#search-count")
    assert await page.locator("#search-results li").count() == 0
    watch.check()


async def test_search_query_is_text_not_markup(page, demo_url):
    await _consent_given(page)
    await _goto(page, demo_url + "/search.html?q=%3Cimg%20src%3Dx%20onerror%3Dwindow.__x%3D1%3E")
    assert "<img src=x" in await page.inner_text("h1")
    assert await page.evaluate("() => window.__x") is None


async def test_product_listing_filters(page, demo_url):
    await _consent_given(page)
    watch = Watch(page, demo_url)
    await _goto(page, demo_url + "/products.html")
    assert len(CATALOG) == 24
    assert await page.locator("#product-list li").count() == 24
    assert await page.inner_text("#result-count") == "Showing 24 of 24 products"

    await page.get_by_label("Price").select_option(label="Under $20")
    cheap = [p for p in CATALOG if p["price"] < 20]
    assert len(cheap) == 10
    assert await page.inner_text("#result-count") == f"Showing {len(cheap)} of 24 products"
    prices = [float(t.strip("$")) for t in await page.locator("#product-list .price").all_inner_texts()]
    assert len(prices) == len(cheap) and all(p < 20 for p in prices)
    assert page.url.endswith("products.html?price=under-20")

    await page.get_by_label("Category").select_option("Electronics")
    await page.get_by_label("Price").select_option(label="Any price")
    await page.get_by_label("Sort by").select_option(label="Top rated")
    names = await page.locator("#product-list h3").all_inner_texts()
    electronics = sorted((p for p in CATALOG if p["category"] == "Electronics"), key=lambda p: -p["rating"])
    assert names == [p["name"] for p in electronics]
    assert (await page.inner_text("h1")).strip() == "Electronics"
    watch.check()


async def test_product_detail_and_cart(page, demo_url):
    await _consent_given(page)
    watch = Watch(page, demo_url)
    await _goto(page, demo_url + "/product.html?id=16")
    assert (await page.inner_text("h1")).strip() == "Dot-Grid Notebook A5"
    assert "$13.90" in await page.inner_text(".detail")
    await page.get_by_label("Quantity").fill("2")
    await page.get_by_role("main").get_by_role("button", name="Add to cart", exact=True).click()
    assert "Added 2 × Dot-Grid Notebook A5" in await page.inner_text("#cart-status")
    assert await page.inner_text("[data-cart-count]") == "2"

    await page.get_by_role("link", name="View cart").click()
    await page.wait_for_url("**/cart.html")
    await page.wait_for_load_state("networkidle")
    assert await page.inner_text("#cart-total") == "$27.80"
    await page.get_by_role("button", name="Remove Dot-Grid Notebook A5 from cart").click()
    assert "Your cart is empty" in await page.inner_text("#cart-content")
    assert await page.inner_text("[data-cart-count]") == "0"

    await _goto(page, demo_url + "/product.html?id=12")  # out of stock
    assert await page.get_by_role("main").get_by_role("button", name="Add to cart", exact=True).is_disabled()
    watch.check()


async def test_newsletter_signup(page, demo_url):
    await _consent_given(page)
    watch = Watch(page, demo_url)
    await _goto(page, demo_url + "/index.html")
    email = page.get_by_label("Email address")
    await email.fill("not-an-email")
    await page.get_by_role("button", name="Subscribe").click()
    assert "valid email address" in await page.get_by_role("alert").inner_text()
    await email.fill("ada@example.com")
    await page.get_by_role("button", name="Subscribe").click()
    message = page.get_by_role("status").filter(has_text="Thanks for subscribing")
    assert "ada@example.com" in await message.inner_text()
    assert not await page.locator("#newsletter-form").is_visible()
    watch.check()


async def test_contact_form(page, demo_url):
    await _consent_given(page)
    watch = Watch(page, demo_url)
    await _goto(page, demo_url + "/contact.html")
    send = page.get_by_role("button", name="Send message")
    await send.click()
    errors = await page.inner_text("#contact-errors")
    assert "Enter your name" in errors and "Choose a topic" in errors

    await page.get_by_label("Your name").fill("Ada Lovelace")
    await page.get_by_label("Email", exact=True).fill("ada@example.com")
    await page.get_by_label("Topic").select_option(label="Returns and refunds")
    await page.get_by_label("Message", exact=True).fill("My order arrived damaged")
    await page.get_by_label("Send me a copy of my message").check()
    await send.click()
    errors = await page.inner_text("#contact-errors")
    assert "privacy policy" in errors and "Enter your name" not in errors

    await page.get_by_label("I agree to the privacy policy").check()
    await send.click()
    done = await page.inner_text("#contact-done")
    assert "Message sent" in done and "Thanks, Ada Lovelace!" in done
    assert "Returns and refunds" in done and "copy of your message" in done
    assert re.search(r"reference number is C-\d{5}\.", done)
    assert not await page.locator("#contact-errors").is_visible()
    watch.check()


def test_site_is_static_offline_and_packaged():
    """Only file types the package-data globs ship, and no reference to anything off the site."""
    globs = tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["setuptools"][
        "package-data"
    ]["agent"]
    files = [p for root in (DEMO_ROOT, DEMO_TEMPLATES) for p in root.rglob("*") if p.is_file()]
    assert files
    for path in files:
        rel = path.relative_to(DEMO_ROOT.parent.parent).as_posix()  # relative to the agent package
        assert any(fnmatch(rel, g) or fnmatch(path.name, g.removeprefix("**/")) for g in globs), rel
        text = path.read_text(encoding="utf-8")
        assert not re.search(r"(https?:)?//[a-z0-9.-]+\.[a-z]{2,}/", text, re.I), f"external URL in {rel}"
        assert "@import" not in text and "url(" not in text, f"external resource in {rel}"
    ids = [p["id"] for p in CATALOG]
    assert len(set(ids)) == len(ids) == 24
    assert {p["category"] for p in CATALOG} == {
        "Apparel",
        "Electronics",
        "Home",
        "Kitchen",
        "Office",
        "Outdoors",
    }


def test_goals_and_server():
    assert 5 <= len(DEMO_GOALS) <= 8 and len(set(DEMO_GOALS)) == len(DEMO_GOALS)
    assert all(isinstance(g, str) and g.strip() for g in DEMO_GOALS)
    assert DEMO_GOAL not in DEMO_GOALS
    server = serve_demo()
    try:
        assert server.base_url.startswith("http://127.0.0.1:")
        with urllib.request.urlopen(server.base_url + DEMO_START_PATH, timeout=5) as response:
            assert response.status == 200
            assert b"Wayfinder Demo Store" in response.read()
    finally:
        server.stop()


PAGES = sorted(path.name for path in DEMO_ROOT.glob("*.html"))


def test_pages_share_one_shell_and_are_complete_documents():
    """Each page file holds only its content; what a browser gets is a whole document with the shared shell."""
    shell = (DEMO_TEMPLATES / "layout.html").read_text(encoding="utf-8")
    assert "site-header" in shell and "site-footer" in shell
    assert len(PAGES) == 8 and set(page_routes()) == {"/", *(f"/{name}" for name in PAGES)}
    for name in PAGES:
        source = (DEMO_ROOT / name).read_text(encoding="utf-8")
        assert "site-header" not in source and "site-footer" not in source, name
        html = render_page(name)
        assert html.startswith("<!doctype html>") and html.rstrip().endswith("</html>"), name
        assert (
            html.count('<header class="site-header">') == 1
            and html.count('<footer class="site-footer">') == 1
        )
        assert html.count('aria-current="page"') <= 1, name
        assert "{%" not in html and "{{" not in html, name


def test_server_renders_pages_at_the_same_urls(demo_url):
    with urllib.request.urlopen(demo_url + "/", timeout=5) as response:
        root = response.read().decode("utf-8")
        assert response.headers["Content-Type"].startswith("text/html")
    with urllib.request.urlopen(demo_url + "/products.html?category=Office", timeout=5) as response:
        products = response.read().decode("utf-8")
    assert root == render_page("index.html")
    assert products == render_page("products.html")
    assert '<body data-page="products">' in products
    assert '<a href="products.html" aria-current="page">Products</a>' in products
    with urllib.request.urlopen(demo_url + "/assets/style.css", timeout=5) as response:
        assert response.status == 200
