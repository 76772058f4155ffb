"""The Quillbox tracker behaves like real applications (form tokens, preview, mid-air collisions, validation), and
its database checks refuse an unrequested change or lost text."""

from __future__ import annotations

import sqlite3

from tests.apps.dbdiff import check_change, snapshot


async def test_an_extra_change_or_lost_text_fails_the_check(tracker, app_page):
    goal = tracker.goal("raise-priority")
    before = tracker.reset()
    await app_page.goto(f"{tracker.base_url}/ticket/2")
    await app_page.get_by_text("Modify Ticket").click()
    await app_page.locator("#field-priority").select_option("critical")
    await app_page.locator("#field-milestone").select_option("2.1")  # not asked for
    await app_page.get_by_role("button", name="Submit changes").click()
    await app_page.wait_for_url("**/ticket/2?saved=1*")
    problems = tracker.judge(goal, before, None, app_page.url)
    assert problems == ["ticket (2,): milestone changed from '2.0' to '2.1'"]

    goal = tracker.goal("wiki-append-step")
    before = tracker.reset()
    await app_page.goto(f"{tracker.base_url}/wiki/ReleaseChecklist?action=edit")
    await app_page.locator("#text").fill("* Announce the release on the forum")  # the old steps are lost
    await app_page.get_by_role("button", name="Submit changes").click()
    await app_page.wait_for_url("**saved=1")
    assert tracker.judge(goal, before, None, app_page.url)


async def test_preview_and_validation_save_nothing(tracker, app_page):
    before = tracker.reset()
    await app_page.goto(f"{tracker.base_url}/newticket")
    await app_page.get_by_role("button", name="Create ticket").click()
    await app_page.get_by_text("Tickets must contain a summary.").wait_for()
    await app_page.locator("#field-summary").fill("A preview only")
    await app_page.get_by_role("button", name="Preview").click()
    await app_page.get_by_text("Preview (not saved yet)").wait_for()
    await app_page.goto(f"{tracker.base_url}/ticket/4")
    await app_page.get_by_role("button", name="Submit changes").click()
    await app_page.get_by_text("No changes to save").wait_for()
    assert snapshot(tracker.db_path, tracker.tables) == before


async def test_mid_air_collision_and_missing_token_are_refused(tracker, app_page):
    before = tracker.reset()
    await app_page.goto(f"{tracker.base_url}/ticket/7")
    await app_page.locator("#comment").fill("My stale comment")
    con = sqlite3.connect(tracker.db_path)  # someone else saves the ticket meanwhile
    con.execute("UPDATE ticket SET revision = revision + 1 WHERE id = 7")
    con.commit()
    con.close()
    await app_page.get_by_role("button", name="Submit changes").click()
    await app_page.get_by_text("mid-air collision").wait_for()
    await app_page.goto(f"{tracker.base_url}/wiki/CodingStyle?action=edit")
    await app_page.evaluate("document.querySelector('input[name=__token]').value = 'forged'")
    await app_page.locator("#text").fill("vandalised")
    await app_page.get_by_role("button", name="Submit changes").click()
    await app_page.get_by_text("Missing or invalid form token").wait_for()
    assert (
        check_change(before, snapshot(tracker.db_path, tracker.tables), tracker.goal("who-assigned").expect)
        == []
    )
