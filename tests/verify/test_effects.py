"""Observed effects in real Chromium: each action's record says what the page itself shows changed."""

from __future__ import annotations

from agent.browser.effects import read_before, read_effect, read_effect_from
from tests.browser.helpers import act, find, open_page


async def _effect(session, name, element=None, **args):
    """Run one action between the two page readings, as the execute node does."""
    element_id = element["id"] if element else None
    before = await read_before(session, element_id)
    result = await act(session, name, element_id, **args)
    assert result["status"] == "success", result
    return await read_effect(session, before, result, element_id)


async def test_typing_shows_the_value_the_field_now_holds(session, trap_url):
    await open_page(session, trap_url + "/controls.html")
    effect = await _effect(session, "type", await find(session, "Full name"), text="Ada Lovelace")
    assert effect["target"]["value"] == "Ada Lovelace" and "value" in effect["target"]["changed"]
    assert effect["changed"] and effect["errors"] == [] and effect["settled"]
    assert effect["summary"] == "field holds 'Ada Lovelace'"


async def test_a_click_that_adds_a_row_shows_the_new_text(session, trap_url):
    await open_page(session, trap_url + "/controls.html")
    effect = await _effect(session, "click", await find(session, "Add row"))
    assert effect["appeared"] == ["Row 1 added"] and effect["changed"]
    assert not effect["url_changed"] and not effect["navigated"]


async def test_a_click_that_does_nothing_says_so(session, trap_url):
    await open_page(session, trap_url + "/controls.html")
    effect = await _effect(session, "click", await find(session, "Do nothing"))
    assert not effect["changed"] and effect["summary"] == "nothing changed"


async def test_checkbox_select_and_expanded_states(session, trap_url):
    await open_page(session, trap_url + "/controls.html")
    checked = await _effect(session, "click", await find(session, "I accept the terms", role="checkbox"))
    assert checked["target"]["checked"] is True and "checked" in checked["target"]["changed"]
    selected = await _effect(session, "select_option", await find(session, "Size"), option="Large")
    assert selected["target"]["selected"] == ["Large"] and "selected 'Large'" in selected["summary"]
    expanded = await _effect(session, "click", await find(session, "More options"))
    assert expanded["target"]["expanded"] is True
    assert "Extra options appear here" in expanded["appeared"]


async def test_following_a_link_records_the_new_url_and_title(session, trap_url):
    await open_page(session, trap_url + "/controls.html")
    effect = await _effect(session, "click", await find(session, "Next page"))
    assert effect["url_changed"] and effect["url"].endswith("/next.html") and effect["navigated"]
    assert effect["title_changed"] and effect["title"] == "Next page"
    assert "The next page" in effect["appeared"]  # the new page's heading comes first
    navigated = await _effect(session, "navigate", url=trap_url + "/controls.html")
    assert navigated["url"].endswith("/controls.html") and navigated["title"] == "Controls"


async def test_a_validation_message_after_submit_is_an_error(session, trap_url):
    await open_page(session, trap_url + "/signup.html")
    await act(session, "type", (await find(session, "Email"))["id"], text="not-an-email")
    effect = await _effect(session, "click", await find(session, "Subscribe"))
    assert effect["errors"] == ["Please enter a valid email address. Nothing was saved."]
    assert effect["summary"].startswith("error shown: Please enter a valid email address")


async def test_passwords_are_never_recorded(session, trap_url):
    await open_page(session, trap_url + "/login.html")
    effect = await _effect(session, "type", await find(session, "Password"), text="hunter2")
    assert "hunter2" not in str(effect)
    assert effect["target"]["value_len"] == 7 and effect["summary"] == "field holds 7 chars"


async def test_an_error_status_is_recorded(session, trap_url):
    await open_page(session, trap_url + "/controls.html")
    effect = await _effect(session, "navigate", url=trap_url + "/error?code=500")
    assert effect["http_status"] == 500 and "HTTP 500" in effect["summary"]


def test_an_unreadable_page_gives_an_honest_record():
    result = {
        "status": "success",
        "url_before": "http://a.test/",
        "url_after": "http://a.test/",
        "events": [],
    }
    effect = read_effect_from(None, None, result)
    assert effect["readable"] is False and effect["changed"] is False
    assert effect["summary"] == "effect unknown (page could not be read)"
    opened = read_effect_from(
        None, None, {**result, "events": [{"type": "tab_opened", "url": "http://b.test/"}]}
    )
    assert opened["changed"] and opened["tabs_opened"] == ["http://b.test/"]
