"""execute_action against the fixture site in real Chromium. Assertions read the page's own state."""

from __future__ import annotations

import asyncio
import time

from agent.browser.actions import GRACE_S, match_option
from agent.dom.observe import observe_page
from tests.browser.helpers import act, find, open_and_find, open_page

# --------------------------------------------------------------------------------------------- type / click


async def test_login_flow(session, site) -> None:
    username = await open_and_find(session, site + "/login.html", "Username")
    password = await find(session, "Password")
    result = await act(session, "type", username["id"], text="alice")
    assert result["status"] == "success", result
    assert await session.page.input_value("#username") == "alice"
    result = await act(session, "type", password["id"], text="secret", submit=True)
    assert result["status"] == "success", result
    assert "secret" not in result["message"]  # a password is never echoed
    assert await session.page.input_value("#password") == "secret"
    assert await session.page.inner_text("#status") == "Welcome, alice"
    assert any(e["type"] == "dom_changed" for e in result["events"])


async def test_login_wrong_password_shows_error(session, site) -> None:
    await open_page(session, site + "/login.html")
    await act(session, "type", (await find(session, "Username"))["id"], text="alice")
    await act(session, "type", (await find(session, "Password"))["id"], text="nope")
    result = await act(session, "click", (await find(session, "Sign in", role="button"))["id"])
    assert result["status"] == "success"
    assert await session.page.inner_text("#status") == "Invalid username or password"


async def test_type_replaces_by_default_and_appends_with_clear_false(session, site) -> None:
    field = await open_and_find(session, site + "/login.html", "Username")
    await act(session, "type", field["id"], text="bob")
    await act(session, "type", field["id"], text="alice")
    assert await session.page.input_value("#username") == "alice"
    result = await act(session, "type", field["id"], text="_smith", clear=False)
    assert result["status"] == "success", result
    assert await session.page.input_value("#username") == "alice_smith"


async def test_type_with_replace_swaps_words_and_keeps_the_rest(session, site) -> None:
    """What the field holds is read live (the observation clips it): lines past 200 characters survive."""
    await open_page(session, site + "/observe/form.html")
    long = "\n".join(f"Line {n}: functions that recieve a callback document it." for n in range(8))
    await session.page.fill("textarea[name=bio]", long)
    field = await find(session, "About you")
    result = await act(session, "type", field["id"], text="receive", replace="recieve")
    assert result["status"] == "success", result
    assert await session.page.input_value("textarea[name=bio]") == long.replace("recieve", "receive")
    missing = await act(session, "type", field["id"], text="x", replace="no such words")
    assert missing["status"] == "failure" and "does not hold" in missing["message"]
    assert await session.page.input_value("textarea[name=bio]") == long.replace("recieve", "receive")


async def test_type_verifies_the_field_value(session, site) -> None:
    coupon = await open_and_find(session, site + "/buttons.html", "Coupon code")
    result = await act(session, "type", coupon["id"], text="summer-2026")
    assert result["status"] == "failure"
    assert "'SUMMER'" in result["message"]  # the page reformatted the text: reported, not assumed
    assert await session.page.input_value("#coupon") == "SUMMER"


async def test_type_into_read_only_or_select_fails_clearly(session, site) -> None:
    notes = await open_and_find(session, site + "/buttons.html", "Delivery notes")
    result = await act(session, "type", notes["id"], text="ring twice")
    assert result["status"] == "failure" and result["error_type"] == "tool_limit"
    assert "read-only" in result["message"]
    assert await session.page.input_value("#notes") == "Leave at the door"
    country = await open_and_find(session, site + "/select.html", "Country")
    result = await act(session, "type", country["id"], text="Canada")
    assert result["status"] == "failure" and "select_option" in result["message"]


async def test_element_action_needs_an_element(session, site) -> None:
    await open_page(session, site + "/login.html")
    result = await act(session, "click")
    assert result["status"] == "failure" and result["error_type"] == "element_not_found"
    result = await act(session, "type", 424242, text="x")
    assert result["status"] == "failure" and result["error_type"] == "element_not_found"
    assert "424242" in result["message"]


async def test_iframe_form(session, site) -> None:
    await open_page(session, site + "/iframe.html")
    frame = session.page.frame_locator("#signup-frame")
    result = await act(session, "type", (await find(session, "Email address"))["id"], text="bob@example.com")
    assert result["status"] == "success", result
    result = await act(session, "select_option", (await find(session, "Plan"))["id"], option="Daily news")
    assert result["status"] == "success", result
    result = await act(session, "click", (await find(session, "Sign up"))["id"])
    assert result["status"] == "success", result
    assert await frame.locator("#email").input_value() == "bob@example.com"
    assert await frame.locator("#frame-result").inner_text() == "Thanks, bob@example.com (Daily news)"


async def test_shadow_dom_input_and_button(session, site) -> None:
    await open_page(session, site + "/shadow.html")
    result = await act(session, "type", (await find(session, "Postcode"))["id"], text="90210")
    assert result["status"] == "success", result
    result = await act(session, "click", (await find(session, "Check delivery"))["id"])
    assert result["status"] == "success", result
    assert await session.page.inner_text("#result") == "Delivery available to 90210"


async def test_cookie_wall_blocks_until_accepted(session, site) -> None:
    subscribe = await open_and_find(session, site + "/cookies.html", "Subscribe to newsletter")
    result = await act(session, "click", subscribe["id"])
    assert result["status"] == "failure" and result["error_type"] == "element_not_found"
    assert "overlay" in result["message"] and "We value your privacy" in result["message"]
    assert await session.page.inner_text("#result") == ""  # not clicked through the wall
    assert session.failure_counts.get(subscribe["id"]) == 1
    result = await act(session, "click", (await find(session, "Accept all"))["id"])
    assert result["status"] == "success"
    assert await session.page.is_hidden("#cookie-wall")
    result = await act(session, "click", subscribe["id"])
    assert result["status"] == "success", result
    assert await session.page.inner_text("#result") == "Subscribed to the newsletter"
    assert subscribe["id"] not in session.failure_counts


async def test_disabled_buttons_fail_and_are_not_clicked(session, site) -> None:
    place = await open_and_find(session, site + "/buttons.html", "Place order")
    result = await act(session, "click", place["id"])
    assert result["status"] == "failure" and "disabled" in result["message"]
    pay = await find(session, "Pay now")
    result = await act(session, "click", pay["id"])
    assert result["status"] == "failure" and "disabled" in result["message"]
    assert result["execution_time_ms"] < 2000
    assert await session.page.inner_text("#result") == ""
    # Once the page enables it, the same button works.
    await act(session, "click", (await find(session, "I accept the terms and conditions"))["id"])
    assert await session.page.is_checked("#accept-terms")
    result = await act(session, "click", place["id"])
    assert result["status"] == "success", result
    assert await session.page.inner_text("#result") == "Order placed"


async def test_button_under_fixed_banner_is_clicked(session, site) -> None:
    await open_page(session, site + "/buttons.html")
    result = await act(session, "click", (await find(session, "Confirm subscription"))["id"])
    assert result["status"] == "success", result
    assert await session.page.inner_text("#result") == "Subscription confirmed"


async def test_fixed_button_under_small_cover_uses_js_click(session, site) -> None:
    await open_page(session, site + "/buttons.html")
    result = await act(session, "click", (await find(session, "Chat with us"))["id"])
    assert result["status"] == "success", result
    assert result["fallback"] == "js_click"
    assert await session.page.inner_text("#result") == "Chat opened"


async def test_hidden_link_is_never_clicked(session, site) -> None:
    await open_page(session, site + "/buttons.html")
    session.options.action_timeout_s = 2.5
    await session.page.eval_on_selector("#prize", "(el) => el.setAttribute('data-agent-id', '9999')")
    started = time.monotonic()
    result = await act(session, "click", 9999)
    assert result["status"] == "failure"
    assert time.monotonic() - started < 2.5 + GRACE_S + 0.5
    assert "not visible" in result["message"]
    assert session.page.url.endswith("/buttons.html")


async def test_stale_id_after_dom_replacement_uses_text_match(session, site) -> None:
    await open_page(session, site + "/replace.html")
    observation = await observe_page(session.page, goal="open Borealis")
    old = next(e for e in observation["elements"] if e.get("name") == "Open Borealis")
    reload_button = next(e for e in observation["elements"] if e.get("name") == "Reload list")
    result = await act(session, "click", reload_button["id"], observation)
    assert result["status"] == "success"
    assert await session.page.inner_text("#version") == "Version 2"
    assert await session.page.locator(f'[data-agent-id="{old["id"]}"]').count() == 0  # the old node is gone
    result = await act(session, "click", old["id"], observation)
    assert result["status"] == "success", result
    assert result["fallback"] == "text_match"
    assert await session.page.inner_text("#result") == "Opened Borealis (list version 2)"


async def test_stale_id_without_observation_fails_clearly(session, site) -> None:
    old = await open_and_find(session, site + "/replace.html", "Open Cygnus")
    await session.page.click("#reload")
    result = await act(session, "click", old["id"])
    assert result["status"] == "failure" and result["error_type"] == "element_not_found"
    assert "no observation" in result["message"]
    assert await session.page.inner_text("#result") == ""


async def test_failure_counts_clear_on_navigation(session, site) -> None:
    pay = await open_and_find(session, site + "/buttons.html", "Pay now")
    await act(session, "click", pay["id"])
    await act(session, "click", pay["id"])
    assert session.failure_counts[pay["id"]] == 2
    await open_page(session, site + "/login.html")
    assert session.failure_counts == {}


async def test_click_that_navigates_reports_the_new_page(session, site) -> None:
    await open_page(session, site + "/index.html")
    result = await act(session, "click", (await find(session, "Login form"))["id"])
    assert result["status"] == "success"
    assert result["url_after"].endswith("/login.html") and result["url_before"].endswith("/index.html")
    assert any(e["type"] == "url_changed" for e in result["events"])
    assert await session.page.inner_text("h1") == "Sign in"


async def test_confirm_dialog_from_click_is_dismissed(session, site) -> None:
    await open_page(session, site + "/dialogs.html")
    result = await act(session, "click", (await find(session, "Delete all items"))["id"])
    assert result["status"] == "success"
    dialog = next(e for e in result["events"] if e["type"] == "dialog")
    assert dialog["dialog_type"] == "confirm" and dialog["handled"] == "dismissed"
    assert await session.page.inner_text("#result") == "Confirm returned: false"


async def test_action_bound_holds_when_the_page_freezes(session, site) -> None:
    await open_page(session, site + "/slow.html")
    session.options.action_timeout_s = 0.8
    button = await find(session, "Run a long report")
    started = time.monotonic()
    result = await act(session, "click", button["id"])
    elapsed = time.monotonic() - started
    assert elapsed < 0.8 + GRACE_S + 0.5, result
    assert result["status"] == "failure" and result["error_type"] == "timeout"
    await asyncio.wait_for(session.page.evaluate("1"), 10)  # the page answers again once the report is done


# --------------------------------------------------------------------------------------------- select_option


async def test_select_option_by_label_value_case_prefix_and_typo(session, site) -> None:
    await open_page(session, site + "/select.html")
    country = (await find(session, "Country"))["id"]
    for option, value in [
        ("Canada", "ca"),
        ("gb", "gb"),
        ("united states", "us"),
        ("Germny", "de"),
        ("Ukr", "ua"),
    ]:
        result = await act(session, "select_option", country, option=option)
        assert result["status"] == "success", result
        assert await session.page.input_value("#country") == value, option


async def test_select_option_ambiguous_disabled_unknown(session, site) -> None:
    await open_page(session, site + "/select.html")
    country = (await find(session, "Country"))["id"]
    result = await act(session, "select_option", country, option="United")
    assert result["status"] == "failure" and result["error_type"] == "ambiguous_step"
    assert "United States" in result["message"] and "United Kingdom" in result["message"]
    result = await act(session, "select_option", country, option="New Zealand (unavailable)")
    assert result["status"] == "failure" and "disabled" in result["message"]
    result = await act(session, "select_option", country, option="Atlantis")
    assert result["status"] == "failure" and "Canada" in result["message"]  # lists the choices
    assert await session.page.input_value("#country") == ""


async def test_select_option_custom_combobox_then_save(session, site) -> None:
    await open_page(session, site + "/select.html")
    result = await act(
        session, "select_option", (await find(session, "Gift wrap"))["id"], option="Gold paper"
    )
    assert result["status"] == "success", result
    await act(session, "select_option", (await find(session, "Delivery speed"))["id"], option="Express")
    await act(session, "select_option", (await find(session, "Country"))["id"], option="Canada")
    await act(session, "click", (await find(session, "Save shipping details"))["id"])
    assert await session.page.inner_text("#result") == "Saved: Canada, Express (2 days), Gold paper"


def test_match_option_tiers() -> None:
    options = [
        {"value": "s", "label": "Small"},
        {"value": "m", "label": "Medium"},
        {"value": "l", "label": "Large"},
        {"value": "xl", "label": "Extra large"},
    ]
    assert match_option("Medium", options)["value"] == "m"
    assert match_option("xl", options)["value"] == "xl"
    assert match_option("  small ", options)["value"] == "s"
    assert match_option("Mediun", options)["value"] == "m"
    assert match_option("extra", options)["value"] == "xl"


# --------------------------------------------------------------------------------------------- scroll / keys


async def test_infinite_scroll_loads_more(session, site) -> None:
    await open_page(session, site + "/infinite.html")
    page = session.page
    await page.wait_for_function("document.querySelectorAll('#items li').length >= 20")
    for _ in range(2):
        result = await act(session, "scroll", direction="down")
        assert result["status"] == "success", result
    count = await page.locator("#items li").count()
    assert count >= 40
    assert (await page.inner_text("#count")) == f"Showing {count} posts"
    y = await page.evaluate("scrollY")
    result = await act(session, "scroll", direction="up", amount=300)
    assert result["status"] == "success"
    assert await page.evaluate("scrollY") == y - 300
    result = await act(session, "press_key", key="end")
    assert result["status"] == "success" and result["message"] == "pressed End"


async def test_scroll_inside_element_and_at_the_edge(session, site) -> None:
    await open_page(session, site + "/buttons.html")
    terms = await find(session, "Terms and conditions", role="region")
    result = await act(session, "scroll", terms["id"], direction="down", amount=50)
    assert result["status"] == "success", result
    assert await session.page.eval_on_selector("#terms", "(el) => el.scrollTop") == 50
    assert await session.page.evaluate("scrollY") == 0  # the page itself did not move
    await open_page(session, site + "/login.html")
    result = await act(session, "scroll", direction="up")
    assert result["status"] == "failure" and "already at the top" in result["message"]
    result = await act(session, "scroll", direction="sideways")
    assert result["status"] == "failure"


async def test_press_key_on_element_submits(session, site) -> None:
    await open_page(session, site + "/login.html")
    await session.page.fill("#username", "alice")
    await session.page.fill("#password", "secret")
    result = await act(session, "press_key", (await find(session, "Password"))["id"], key="enter")
    assert result["status"] == "success"
    assert await session.page.inner_text("#status") == "Welcome, alice"
