"""Hand-built observations shaped like agent/dom/som.js output: a login form, a 30-product shop listing, a
cookie wall, search results, a form with dropdowns/checkboxes, and a staff directory."""

from __future__ import annotations

from typing import Any

from agent.planning.offline.page import role_of
from agent.types import Element, Observation

VIEWPORT = 900.0


class Page:
    """Builds one observation; ids are assigned in the order elements are added."""

    def __init__(self, url: str, title: str, *, height: float = VIEWPORT, scroll_y: float = 0.0) -> None:
        self.url = url
        self.title = title
        self.height = height
        self.scroll_y = scroll_y
        self.elements: list[Element] = []
        self.lines: list[str] = []

    def link(self, text: str, href: str, **kw: Any) -> Element:
        """A link named ``text`` to ``href`` (see :meth:`add` for the placement arguments)."""
        return self.add("a", text, attrs={"href": href}, **kw)

    def add(
        self,
        tag: str,
        text: str = "",
        *,
        x: float = 100,
        y: float = 100,
        w: float = 200,
        h: float = 30,
        role: str = "",
        name: str | None = None,
        zone: str = "main",
        line: bool = True,
        **extra: Any,
    ) -> Element:
        interactive = tag in ("a", "button", "input", "select", "textarea") or role in (
            "button",
            "link",
            "tab",
        )
        el: dict[str, Any] = {
            "id": len(self.elements) + 1,
            "tag": tag,
            "role": role or _implicit(tag, extra.get("input_type", ""), extra.get("attrs", {})),
            "name": text if name is None else name,
            "text": "" if tag in ("input", "select", "textarea") else text,
            "value": "",
            "placeholder": "",
            "input_type": "",
            "attrs": {},
            "bbox": [x, y - self.scroll_y, w, h],
            "zone": zone,
            "fixed": False,
            "in_viewport": 0 <= y - self.scroll_y < VIEWPORT,
            "occluded": False,
            "disabled": False,
            "checked": None,
            "selected": None,
            "editable": tag in ("textarea",)
            or (
                tag == "input"
                and extra.get("input_type", "text") in ("text", "email", "password", "search", "tel", "")
            ),
            "interactive": interactive,
            "frame": "",
            "cross_origin": False,
        }
        el.update(extra)
        self.elements.append(el)  # type: ignore[arg-type]
        if line and (text or "").strip() and tag not in ("input", "select", "textarea"):
            self.lines.append(text)
        return el  # type: ignore[return-value]

    def text(self, line: str) -> None:
        """Visible text that is not a marked element (paragraphs)."""
        self.lines.append(line)

    def build(self, **extra: Any) -> Observation:
        obs: dict[str, Any] = {
            "url": self.url,
            "title": self.title,
            "elements": self.elements,
            "page_text": "\n".join(self.lines),
            "scroll": {
                "y": self.scroll_y,
                "height": self.height,
                "viewport_height": VIEWPORT,
                "above_px": self.scroll_y,
                "below_px": max(0.0, self.height - self.scroll_y - VIEWPORT),
            },
            "page_type": "other",
            "document_id": "doc-1",
        }
        obs.update(extra)
        return obs  # type: ignore[return-value]


def _implicit(tag: str, input_type: str, attrs: dict[str, str]) -> str:
    """The implicit role of a tag, as the offline planner reads it."""
    return role_of({"tag": tag, "input_type": input_type, "attrs": attrs})  # type: ignore[typeddict-item]


def _header(p: Page, host: str) -> None:
    p.link("Acme", f"https://{host}/", x=20, y=10, w=80, zone="header")
    p.link("Home", f"https://{host}/", x=400, y=10, w=60, zone="nav")
    p.link("Products", f"https://{host}/products", x=470, y=10, w=80, zone="nav")
    p.link("Sign in", f"https://{host}/login", x=1100, y=10, w=70, zone="header")


def login_page() -> Observation:
    p = Page("https://app.test/login", "Sign in - Acme")
    _header(p, "app.test")
    p.add("h1", "Sign in to your account", x=400, y=120, w=480, h=40, interactive=False)
    p.add(
        "input",
        name="Email or username",
        x=400,
        y=200,
        w=320,
        input_type="text",
        attrs={"name": "login", "id": "login", "autocomplete": "username"},
        placeholder="you@example.com",
    )
    p.add(
        "input",
        name="Password",
        x=400,
        y=260,
        w=320,
        input_type="password",
        attrs={"name": "password", "id": "password", "autocomplete": "current-password"},
    )
    p.add(
        "input",
        name="Remember me",
        x=400,
        y=310,
        w=20,
        h=20,
        input_type="checkbox",
        checked=False,
        attrs={"name": "remember"},
    )
    p.add("button", "Sign in", x=400, y=350, w=120, h=36, input_type="submit")
    p.link("Forgot password?", "https://app.test/forgot", x=540, y=356, w=140)
    p.link("Privacy", "https://app.test/privacy", x=20, y=860, w=60, zone="footer")
    return p.build(page_type="form")


def dashboard_page() -> Observation:
    p = Page("https://app.test/dashboard", "Dashboard - Acme")
    _header(p, "app.test")
    p.add("h1", "Dashboard", x=400, y=120, w=300, h=40, interactive=False)
    p.add(
        "div",
        "Welcome back, alice! You have 3 new messages.",
        x=400,
        y=180,
        w=500,
        role="status",
        interactive=False,
        new=True,
    )
    p.link("Log out", "https://app.test/logout", x=1100, y=50, w=70, zone="header")
    return p.build()


COLORS = ["Blue", "Red", "Green", "Black", "White", "Silver"]
KINDS = ["Widget", "Gadget", "Gizmo", "Doohickey", "Sprocket"]


def products() -> list[tuple[str, str]]:
    """30 (name, price) pairs; 'Blue Widget' costs $19.99 and 'Blue Widget Pro' exists too."""
    out = []
    for i, kind in enumerate(KINDS):
        for j, color in enumerate(COLORS):
            name = f"{color} {kind}"
            price = f"${10 + i * 7 + j * 3}.99"
            out.append((name, price))
    out[0] = ("Blue Widget", "$19.99")
    out[1] = ("Blue Widget Pro", "$49.00")
    return out


def shop_listing(scroll_y: float = 0.0) -> Observation:
    """A 3-column grid of 30 cards (name link, price, 'Add to cart' button); the page is 3600px tall."""
    p = Page("https://shop.test/products", "Products - Shop", height=3600, scroll_y=scroll_y)
    _header(p, "shop.test")
    p.add(
        "input",
        name="Search products",
        x=700,
        y=10,
        w=200,
        input_type="search",
        zone="header",
        attrs={"name": "q"},
        placeholder="Search products",
    )
    p.add("h1", "All products", x=100, y=80, w=400, h=40, interactive=False)
    p.text("Showing 30 products")
    for n, (name, price) in enumerate(products()):
        col, row = n % 3, n // 3
        x, y = 100 + col * 360, 160 + row * 340
        slug = name.lower().replace(" ", "-")
        p.link(name, f"https://shop.test/products/{slug}", x=x, y=y + 200, w=300, h=24)
        p.add("span", price, x=x, y=y + 232, w=80, h=20, interactive=False)
        p.add("button", "Add to cart", x=x, y=y + 262, w=120, h=32)
    p.link("Next", "https://shop.test/products?page=2", x=600, y=3560, w=60)
    p.link("Terms", "https://shop.test/terms", x=20, y=3580, w=60, zone="footer")
    return p.build(page_type="listing")


def cookie_wall() -> Observation:
    p = Page("https://news.test/", "News")
    _header(p, "news.test")
    p.add("h1", "Top stories", x=100, y=100, w=400, interactive=False)
    for n in range(4):
        el = p.add(
            "a",
            f"Story number {n + 1} about things",
            x=100,
            y=160 + n * 60,
            w=500,
            attrs={"href": f"https://news.test/story/{n + 1}"},
        )
        el["occluded"] = True
    p.add(
        "p",
        "We use cookies to improve your experience. See our cookie policy.",
        x=300,
        y=600,
        w=600,
        zone="dialog",
        interactive=False,
        fixed=True,
    )
    p.add("button", "Manage preferences", x=300, y=660, w=180, zone="dialog", fixed=True)
    p.add("button", "Reject all", x=500, y=660, w=120, zone="dialog", fixed=True)
    p.add("button", "Accept all", x=640, y=660, w=120, zone="dialog", fixed=True)
    return p.build()


def search_results() -> Observation:
    p = Page("https://search.test/?q=running+shoes", "running shoes - Search", height=2400)
    p.add(
        "input",
        name="Search",
        x=100,
        y=20,
        w=500,
        input_type="search",
        zone="header",
        attrs={"name": "q"},
        value="running shoes",
    )
    p.add("button", "Search", x=610, y=20, w=80, zone="header")
    p.text("About 1,240 results")
    sites = [
        "runnersworld.example",
        "shoeshop.example",
        "sportsreview.example",
        "marathon.example",
        "trailblog.example",
        "fitnessmag.example",
    ]
    for n, site in enumerate(sites):
        y = 120 + n * 130
        p.add(
            "a",
            f"Best running shoes of the year — review {n + 1}",
            x=100,
            y=y,
            w=600,
            h=26,
            attrs={"href": f"https://{site}/best-running-shoes"},
        )
        p.text(f"https://{site}/best-running-shoes")
        p.text(f"Snippet {n + 1}: our testers ran hundreds of miles in these shoes.")
    p.link("Next", "https://search.test/?q=running+shoes&page=2", x=100, y=2300, w=60)
    return p.build(page_type="search")


def form_page() -> Observation:
    p = Page("https://shop.test/order", "Order form")
    p.add("h1", "Customize your order", x=100, y=60, w=400, interactive=False)
    p.add("input", name="First name", x=100, y=120, w=250, input_type="text", attrs={"name": "first_name"})
    p.add("input", name="Last name", x=400, y=120, w=250, input_type="text", attrs={"name": "last_name"})
    p.add("input", name="Email", x=100, y=180, w=300, input_type="email", attrs={"name": "email"})
    for name, x, options, field in (
        ("Color", 100, ["Choose a color", "Red", "Green", "Blue"], "color"),
        ("Size", 350, ["Small", "Medium", "Large"], "size"),
    ):
        p.add(
            "select", name=name, x=x, y=240, w=200, options=options, value=options[0], attrs={"name": field}
        )
    for name, x, y, kind, checked, field in (
        ("Subscribe to newsletter", 100, 300, "checkbox", True, "newsletter"),
        ("I agree to the terms and conditions", 100, 340, "checkbox", False, "terms"),
        ("Express shipping", 100, 380, "radio", False, "shipping"),
        ("Standard shipping", 300, 380, "radio", True, "shipping"),
    ):
        p.add(
            "input", name=name, x=x, y=y, w=20, h=20, input_type=kind, checked=checked, attrs={"name": field}
        )
    p.add("textarea", name="Message", x=100, y=430, w=500, h=80, attrs={"name": "message"})
    p.add("button", "Cancel", x=100, y=540, w=100)
    p.add("button", "Place order", x=220, y=540, w=140, input_type="submit")
    return p.build(page_type="form")


def directory_page() -> Observation:
    """A staff table: name | team | email | phone rows."""
    p = Page("https://corp.test/team", "Our team")
    p.add("h1", "Our team", x=100, y=60, w=300, interactive=False)
    people = [
        ("John Smith", "Sales", "john.smith@corp.test", "+1 555 010 2000"),
        ("Jane Doe", "Engineering", "jane.doe@corp.test", "+1 555 010 3000"),
        ("Ann Lee", "Support", "ann.lee@corp.test", "+1 555 010 4000"),
    ]
    for n, (name, team, email, phone) in enumerate(people):
        y = 140 + n * 40
        p.add("td", name, x=100, y=y, w=200, interactive=False, line=False)
        p.add("td", team, x=320, y=y, w=150, interactive=False, line=False)
        p.link(email, f"mailto:{email}", x=490, y=y, w=240, line=False)
        p.add("td", phone, x=750, y=y, w=180, interactive=False, line=False)
        p.text(f"{name} {team} {email} {phone}")
    p.text("Founded: March 3, 2011")
    return p.build()


def blank_page() -> Observation:
    return {
        "url": "about:blank",
        "title": "",
        "elements": [],
        "page_text": "",
        "scroll": {"y": 0, "height": 0, "viewport_height": VIEWPORT, "above_px": 0, "below_px": 0},
    }
