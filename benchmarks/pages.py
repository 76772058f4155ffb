"""The pages the observation benchmark measures, and the goal/page pairs of its off-screen recall.

The demo store and the test fixture site as they ship, plus generated pages (deterministic, served by the
benchmark on 127.0.0.1): product listings of 500 and 2,000 cards, an article of about 8,000 words with many
links, and a list that grows when it is scrolled. Recall pairs name a target far down a page (a product, a
fact in the article); a system recalls it when its text holds both the target's name and its value.
"""

from __future__ import annotations

import html
import random
from dataclasses import dataclass
from typing import Any
from urllib.parse import parse_qs, urlsplit

#: Demo site pages (path relative to the site root).
DEMO_PAGES: tuple[str, ...] = (
    "index.html",
    "products.html",
    "product.html?id=1",
    "search.html?q=mug",
    "login.html",
    "account.html",
    "cart.html",
    "contact.html",
)

#: Fixture site pages that load on their own (no never-ending requests, no dialogs on load).
FIXTURE_PAGES: tuple[str, ...] = (
    "index.html",
    "article.html",
    "buttons.html",
    "cookies.html",
    "frame-form.html",
    "iframe.html",
    "login.html",
    "search.html",
    "select.html",
    "shadow.html",
    "store.html",
    "tabs.html",
    "observe/listing.html",
    "observe/form.html",
    "observe/hidden.html",
    "observe/occluded.html",
    "observe/shadow.html",
    "observe/crossorigin.html",
)

#: Generated listings: (card count, goal). The goal names a card far down the page, to see whether the
#: goal-aware ranking shows it; the no-goal runs show what a page without a goal hint costs.
LISTINGS: tuple[tuple[int, str], ...] = (
    (500, ""),
    (2000, ""),
    (2000, "What is the price of Product 1377?"),
)
QUICK_LISTINGS: tuple[tuple[int, str], ...] = ((500, ""),)

_WORDS = (
    "alpine canvas cedar copper delta ember field granite harbor indigo juniper kettle linen maple nimbus "
    "orchard pebble quartz river saddle timber umber velvet willow yarrow zephyr"
).split()
_CATEGORIES = ("Kitchen", "Outdoors", "Office", "Garden", "Electronics", "Books")


def listing_cards(n: int, seed: int = 7) -> list[dict[str, Any]]:
    """The cards of a generated listing (deterministic for a given seed): name, category, price, rating, words."""
    rng = random.Random(seed * 1_000_003 + n)
    cards = []
    for i in range(1, n + 1):
        words = " ".join(rng.choice(_WORDS) for _ in range(8))
        price = rng.randint(199, 19999) / 100
        rating = rng.randint(10, 50) / 10
        cards.append(
            {
                "i": i,
                "name": f"Product {i:04d}",
                "words": words,
                "price": f"${price:.2f}",
                "rating": rating,
                "category": rng.choice(_CATEGORIES),
            }
        )
    return cards


def listing_html(n: int, seed: int = 7) -> str:
    """A product listing of ``n`` cards: header, filters, cards (name, category, price, rating, words, button)."""
    cards = [
        f'<article class="card" id="p{c["i"]}"><img alt="{c["name"]}" width="80" height="80" '
        f'src="data:image/gif;base64,R0lGODlhAQABAAAAACw=">'
        f'<h3><a href="#p{c["i"]}">{c["name"]}</a></h3><p class="cat">{c["category"]}</p>'
        f'<p class="price">{c["price"]}</p><p class="rating">Rated {c["rating"]} of 5</p>'
        f'<p class="desc">{html.escape(c["words"])}</p>'
        f'<button type="button" aria-label="Add {c["name"]} to cart">Add to cart</button></article>'
        for c in listing_cards(n, seed)
    ]
    options = "".join(f"<option>{c}</option>" for c in _CATEGORIES)
    return (
        "<!doctype html><html lang='en'><head><meta charset='utf-8'>"
        f"<title>Listing of {n} products</title><style>"
        "body{font-family:sans-serif;margin:0} header,footer{padding:8px 16px;background:#eee}"
        "main{display:flex} aside{width:200px;padding:8px} "
        ".grid{display:grid;grid-template-columns:repeat(4,1fr);gap:8px;flex:1;padding:8px}"
        ".card{border:1px solid #ccc;padding:6px}</style></head><body>"
        "<header><a href='#'>Home</a> <a href='#'>Deals</a> <a href='#'>Account</a>"
        "<form role='search' onsubmit='return false'><input type='search' name='q' placeholder='Search products'>"
        "<button>Search</button></form></header><main><aside><h2>Filters</h2>"
        f"<label>Category <select name='category'><option value=''>All</option>{options}</select></label>"
        "<label><input type='checkbox' name='stock'> In stock only</label>"
        "<label>Max price <input type='number' name='max'></label></aside>"
        f"<section><h1>All products</h1><p>Showing {n} products</p><div class='grid'>{''.join(cards)}</div>"
        "</section></main><footer><a href='#'>About</a> <a href='#'>Contact</a> <a href='#'>Terms</a></footer>"
        "</body></html>"
    )


def _listing_route(handler: Any) -> tuple[int, dict[str, str], bytes]:
    query = parse_qs(urlsplit(handler.path).query)
    n = max(1, min(10_000, int((query.get("n") or ["500"])[0])))
    return 200, {"Content-Type": "text/html; charset=utf-8"}, listing_html(n).encode()


def fixture_routes() -> dict:
    try:
        from tests.site_routes import ROUTES
    except ImportError:
        return {}
    return dict(ROUTES)


#: Facts placed in the article's last sections: (name, question, value).
ARTICLE_FACTS: tuple[tuple[str, str, str], ...] = (
    ("Harbor Mill", "In which year was the Harbor Mill founded?", "1874"),
    ("Cedar Bridge", "How long is the Cedar Bridge?", "412 metres"),
    ("Juniper Library", "How many books does the Juniper Library hold?", "86,300"),
    ("Quartz Observatory", "At what altitude is the Quartz Observatory?", "2,140 m"),
    ("Willow Ferry", "What does a ticket for the Willow Ferry cost?", "$3.75"),
    ("Ember Foundry", "How many people did the Ember Foundry employ?", "1,912"),
)
ARTICLE_SECTIONS = 40


def article_html(seed: int = 11) -> str:
    """About 8,000 words in 40 sections, every paragraph with links; the facts sit in sections 31-36."""
    rng = random.Random(seed)
    parts = []
    for s in range(1, ARTICLE_SECTIONS + 1):
        paragraphs = []
        for p in range(5):
            words = [rng.choice(_WORDS) for _ in range(38)]
            text = " ".join(words[:12]) + f' <a href="#s{s}-{p}">{words[12]} {words[13]}</a> '
            text += (
                " ".join(words[14:26]) + f' <a href="#n{s}-{p}">{words[26]} notes</a> ' + " ".join(words[27:])
            )
            paragraphs.append(f"<p>{text}.</p>")
        fact = s - 31
        if 0 <= fact < len(ARTICLE_FACTS):
            name, _question, value = ARTICLE_FACTS[fact]
            paragraphs.insert(2, f"<p>Records of the {name} agree on one figure: {value}.</p>")
        parts.append(
            f'<section id="s{s}"><h2>Section {s}: {rng.choice(_WORDS)} {rng.choice(_WORDS)}</h2>'
            + "".join(paragraphs)
            + "</section>"
        )
    nav = "".join(f'<li><a href="#s{s}">Section {s}</a></li>' for s in range(1, ARTICLE_SECTIONS + 1))
    return (
        "<!doctype html><html lang='en'><head><meta charset='utf-8'><title>A long article</title></head><body>"
        f"<header><a href='#'>Home</a> <a href='#'>Archive</a></header><nav><ol>{nav}</ol></nav>"
        f"<main><article><h1>A long article</h1>{''.join(parts)}</article></main>"
        "<footer><a href='#'>About</a></footer></body></html>"
    )


def scroll_html(batch: int = 30, limit: int = 600) -> str:
    """A feed that shows ``batch`` items and appends the next batch whenever the reader nears its end."""
    return (
        "<!doctype html><html lang='en'><head><meta charset='utf-8'><title>Growing feed</title></head><body>"
        "<h1>Latest posts</h1><ul id='feed'></ul><p id='more'>Loading more...</p><script>"
        f"const feed=document.getElementById('feed');let n=0;function more(){{for(let k=0;k<{batch}&&n<{limit};k++)"
        "{n++;const li=document.createElement('li');li.innerHTML=`<h3><a href='#post${n}'>Post ${n}</a></h3>"
        "<p>Post ${n} talks about item ${n*7%101} and has ${n*13%57} replies.</p><button>Like</button>`;"
        "feed.appendChild(li);}}more();addEventListener('scroll',()=>{if(innerHeight+scrollY>"
        "document.body.offsetHeight-800)more();});</script></body></html>"
    )


def _generated_route(body: str) -> Any:
    def route(handler: Any) -> tuple[int, dict[str, str], bytes]:
        return 200, {"Content-Type": "text/html; charset=utf-8"}, body.encode()

    return route


def generated_routes() -> dict[str, Any]:
    """Routes of the generated pages (the listings take ``?n=``)."""
    return {
        "/listing": _listing_route,
        "/article": _generated_route(article_html()),
        "/feed": _generated_route(scroll_html()),
    }


@dataclass(frozen=True)
class RecallPair:
    """A goal naming a target far down a page; recalled when a text holds both ``name`` and ``value``."""

    page: str
    goal: str
    name: str
    value: str


LISTING_TARGETS = {
    500: (300, 350, 410, 450, 480, 499),
    2000: (1100, 1234, 1377, 1520, 1650, 1780, 1888, 1901, 1955, 1999),
}


def recall_pairs(quick: bool = False) -> list[RecallPair]:
    """The off-screen recall pairs: 16 products far down the two listings and the article's 6 facts."""
    pairs = []
    for n, targets in LISTING_TARGETS.items():
        if quick and n != QUICK_LISTINGS[0][0]:
            continue  # the quick run measures only the first listing
        cards = listing_cards(n)
        for i in targets[:2] if quick else targets:
            card = cards[i - 1]
            pairs.append(
                RecallPair(
                    f"listing-{n}", f"What is the price of {card['name']}?", card["name"], card["price"]
                )
            )
    for name, question, value in ARTICLE_FACTS[:1] if quick else ARTICLE_FACTS:
        pairs.append(RecallPair("article-8000", question, name, value))
    return pairs


def recalled(text: str, pair: RecallPair) -> bool:
    """Both the target's name and its value are in ``text`` (case and spacing as the page writes them)."""
    return pair.name in text and pair.value in text


def page_specs(demo_url: str, fixture_url: str, gen_url: str, groups: set[str], quick: bool) -> list[dict]:
    """The measured pages, in order: {group, name, url, goal, cards}."""
    specs: list[dict[str, Any]] = []
    if "demo" in groups:
        pages = DEMO_PAGES[:1] if quick else DEMO_PAGES
        specs += [{"group": "demo", "name": p, "url": f"{demo_url}/{p}"} for p in pages]
    if "fixture" in groups:
        pages = FIXTURE_PAGES[:1] if quick else FIXTURE_PAGES
        specs += [{"group": "fixture", "name": p, "url": f"{fixture_url}/{p}"} for p in pages]
    if "generated" in groups:
        for n, goal in QUICK_LISTINGS if quick else LISTINGS:
            name = f"listing-{n}" + (" (goal)" if goal else "")
            specs.append(
                {
                    "group": "generated",
                    "name": name,
                    "url": f"{gen_url}/listing?n={n}",
                    "goal": goal,
                    "cards": n,
                }
            )
        specs.append({"group": "generated", "name": "article-8000", "url": f"{gen_url}/article"})
        if not quick:
            specs.append({"group": "generated", "name": "feed (grows on scroll)", "url": f"{gen_url}/feed"})
    return specs
