"""Text that answers questions reaches the model: paragraphs, definitions and cells rank by the goal; a goal
match brings the block around it (a name never comes without its price); ``observe`` prints the model's input.
"""

from __future__ import annotations

import re

from agent.context import Context
from agent.dom.cli_support import EXIT_OK, observe_url
from agent.dom.observe import observe_page
from agent.dom.options import ObserveOptions
from agent.dom.view import PAGE_TEXT_SOURCE, render_model_view
from agent.llm.prompting import browser_state
from benchmarks.pages import listing_html
from benchmarks.tokens import count_tokens as o200k_tokens

#: An observation's text stays within this many o200k tokens on any page.
TOKEN_BOUND = 2500

NO_PRICE = "It has no price yet: it is not for sale until the collection launches"


def main_lines(obs) -> list[str]:
    lines = obs["text"].splitlines()
    start = lines.index("-- main --")
    end = next((i for i in range(start + 1, len(lines)) if lines[i].startswith("-- ")), len(lines))
    return lines[start + 1 : end]


async def test_main_paragraph_beats_the_asides_prices(open_page):
    page = await open_page("noprice.html")
    for goal in ("", "What is the price of the Aurora desk lamp?"):
        obs = await observe_page(page, goal=goal)
        paragraph = next(line for line in main_lines(obs) if "Aurora desk lamp is part of" in line)
        assert NO_PRICE in paragraph, (goal, paragraph)
        assert obs["text"].index(NO_PRICE) < obs["text"].index("-- aside --")
    # a tight budget: the paragraph holding the answer wins over the short price lines
    tight = ObserveOptions(max_elements=3)
    obs = await observe_page(page, goal="What is the price of the Aurora desk lamp?", options=tight)
    assert NO_PRICE in obs["text"]
    assert sum("$" in line for line in obs["text"].splitlines()) <= 1


async def test_answers_in_sentences_definitions_and_cells(open_page):
    page = await open_page("answers.html")
    tight = ObserveOptions(max_elements=6, max_chars=1500)
    cases = {
        "When did the harbour bridge open to traffic?": "opened to traffic on 19 March 1932",
        "How long is the warranty of the paint?": "Two years, parts and labour",
        "How long does the climb to the summit take?": "3 hours 30 minutes",
        "Who was the architect?": "John Bradfield",
    }
    for goal, answer in cases.items():
        obs = await observe_page(page, goal=goal, options=tight)
        assert answer in obs["text"], (goal, obs["text"])
    # the answer sits past the first 300 characters of its paragraph: the line keeps the sentences the goal's
    # words are in and drops the others
    goal_obs = await observe_page(page, goal="When did the bridge open to traffic?", options=tight)
    line = next(line for line in goal_obs["text"].splitlines() if "opened to traffic" in line)
    assert (
        line.split(" ", 2)[1] == "text" and "… The bridge opened to traffic on 19 March 1932, after" in line
    )
    assert "Construction took eight years" not in line
    plain = await observe_page(page)
    first = next(line for line in plain["text"].splitlines() if "steel through arch" in line)
    assert '"The harbour bridge is a steel through arch bridge' in first and first.endswith('…"')
    assert "1932" not in first


async def test_far_down_cards_come_with_their_price(page):
    html = listing_html(2000)

    async def fulfill(route):
        await route.fulfill(status=200, content_type="text/html", body=html)

    await page.route("http://cards.test/**", fulfill)
    await page.goto("http://cards.test/listing", wait_until="load")
    options = ObserveOptions(frame_timeout_s=20, total_timeout_s=30)  # room for a loaded machine
    far = (1100, 1234, 1400, 1555, 1690, 1777, 1850, 1901, 1960, 2000)
    for number in far:
        name = f"Product {number:04d}"
        price = re.search(rf'id="p{number}".*?class="price">(\$[\d.]+)<', html).group(1)
        obs = await observe_page(page, goal=f"What does {name} cost?", options=options)
        block = next(
            line for line in obs["text"].splitlines() if line.startswith("    in: ") and name in line
        )
        assert price in block, (name, price, block)
        assert f'link "{name}"' in obs["text"]
        assert o200k_tokens(obs["text"]) <= TOKEN_BOUND
    assert obs["counts"]["info_over_cap"] > 0  # most prices are not marked: the block brings them
    plain = await observe_page(page, options=options)
    assert "    in: " not in plain["text"]  # no goal, no block lines
    assert o200k_tokens(plain["text"]) <= TOKEN_BOUND


async def test_observe_prints_exactly_the_model_input(site_url, page):
    ctx = Context()
    goal = "When did the bridge open to traffic?"
    for name in ("answers.html", "plain.html", "data.json"):
        url = f"{site_url}/observe/{name}"
        code, printed = await observe_url(url, goal=goal, ctx=ctx)
        assert code == EXIT_OK
        await page.goto(url, wait_until="load")
        obs = await observe_page(page, goal=goal, options=ObserveOptions.from_context(ctx))
        state = browser_state(obs, block_id="b1", include_page_text=True)
        blocks = re.findall(
            r'<untrusted_page_content id=b1 source="(\w+)">\n(.*?)\n</untrusted_page_content>', state, re.S
        )
        assert [source for source, _ in blocks] == ["page_elements", PAGE_TEXT_SOURCE]
        model_input = (
            f"{blocks[0][1]}\n--- {PAGE_TEXT_SOURCE} (the planner reads this too) ---\n{blocks[1][1]}"
        )
        assert printed == model_input == render_model_view(obs)
        assert "no interactive or informative elements" not in printed
    assert '"eta_days": 3' in printed or '"eta_days":3' in printed
    assert (
        "Nordpost" in printed.split(f"--- {PAGE_TEXT_SOURCE}")[0]
    )  # the JSON is an element too, not only page text


async def test_a_line_break_separates_the_lines_it_breaks(page):
    """'course<br>Order a badge' is two lines, as the page shows it: joined, 'courseOrder' is a word the page
    never says (and a check for 'Order a badge' as words misses it)."""
    await page.set_content(
        "<main><h1>Onboarding</h1><p>- Set up laptop<br>- Complete the security course<br>Order a badge</p></main>"
    )
    obs = await observe_page(page)
    assert "courseOrder" not in obs["text"] and "courseOrder" not in obs["page_text"]
    assert "Order a badge" in obs["page_text"].splitlines()
    paragraph = next(e for e in obs["elements"] if "Set up laptop" in (e.get("text") or ""))
    assert "course Order a badge" in paragraph["text"]
