"""What a resumed run gets back from the stopped one's browser, and how it says what it could not.

- a dismissed cookie banner stays dismissed (localStorage and cookie restored), the session cookie is kept
  with the run but never written into its trace, result, report or checkpoints;
- a damaged saved state, or a form whose field is gone, is named in ``resume_lost`` and a failure it
  explains ends ``goal_failed/resume_lost_state``, not a bare ``answer_not_found`` / ``action_rejected``.
"""

from __future__ import annotations

import json
import signal
from collections.abc import Iterator

import pytest

from agent.records import BROWSER_STATE_NAME
from tests.durability.helpers import assert_trace_intact, one_json_object, run_cli
from tests.durability.login_site import GOAL, LoginSite
from tests.durability.test_resume_login import stop_at


@pytest.fixture(scope="module")
def login_site() -> Iterator[LoginSite]:
    with LoginSite() as site:
        yield site


def _resume(record_dir, run_id: str) -> tuple[int, dict]:
    done = run_cli("resume", run_id, "--json", "--record-dir", str(record_dir))
    assert "Traceback" not in done.stderr, done.stderr[-3000:]
    return done.returncode, one_json_object(done.stdout)


def test_a_dismissed_cookie_banner_stays_dismissed_and_the_session_cookie_stays_private(login_site, tmp_path):
    record_dir, run_id = tmp_path / "runs", "banner"
    goal = f'click "Accept cookies", then {GOAL}'
    stop_at(login_site.url(run_id, banner=True), record_dir, run_id, "after_user", signal.SIGKILL, goal)
    assert login_site.banner_shows(run_id) == 1 and login_site.posts(run_id) == 0

    code, result = _resume(record_dir, run_id)
    assert code == 0 and (result["terminal_type"], result["steps"]) == ("goal_satisfied", 4)
    assert result["resume_lost"] == []
    assert login_site.banner_shows(run_id) == 1  # the new browser did not show the banner again
    assert login_site.posts(run_id) == 1
    assert_trace_intact(record_dir / run_id)

    run_dir = record_dir / run_id
    saved = json.loads((run_dir / BROWSER_STATE_NAME).read_text())
    assert (run_dir / BROWSER_STATE_NAME).stat().st_mode & 0o077 == 0  # owner-only
    [token] = [c["value"] for c in saved["cookies"] if c["name"] == "session"]
    for name in ("trace.jsonl", "result.json", "report.html", "checkpoints.sqlite", "context.json"):
        assert token.encode() not in (run_dir / name).read_bytes(), f"the session cookie leaked into {name}"


def test_a_damaged_saved_state_is_named_and_the_run_still_goes_on(login_site, tmp_path):
    """Stopped after the password (nothing to lose but typed values): the damaged file is reported, the
    typed values are still put back and the login still succeeds, with one POST."""
    record_dir, run_id = tmp_path / "runs", "damaged"
    stop_at(login_site.url(run_id), record_dir, run_id, "after_password", signal.SIGKILL)
    (record_dir / run_id / BROWSER_STATE_NAME).write_text('{"cookies": [', encoding="utf-8")

    code, result = _resume(record_dir, run_id)
    assert code == 0 and result["terminal_type"] == "goal_satisfied", result
    assert result["resume_lost"] == [
        "the cookies and site storage (the saved browser state is unreadable (JSONDecodeError))"
    ]
    assert login_site.posts(run_id) == 1


def test_a_lost_session_cookie_ends_resume_lost_state_naming_it(login_site, tmp_path):
    """Stopped after the submit with the saved state gone: the account page sends the new browser back to the
    sign-in form. The ending names what was lost instead of a bare failure."""
    record_dir, run_id = tmp_path / "runs", "nocookie"
    stop_at(login_site.url(run_id), record_dir, run_id, "after_submit", signal.SIGKILL)
    (record_dir / run_id / BROWSER_STATE_NAME).unlink()

    code, result = _resume(record_dir, run_id)
    lost = result["resume_lost"]
    assert lost[0] == "the cookies and site storage (no saved browser state)"
    assert any("/account" in item and "went to" in item and "/login" in item for item in lost), lost
    if result["terminal_type"] != "goal_satisfied":  # it may sign in again; if it fails, it says why
        assert (code, result["terminal_reason"]) == (1, "resume_lost_state")
        assert "could not restore the cookies and site storage" in result["stop_reason"]


def test_a_typed_value_whose_field_is_gone_ends_resume_lost_state(login_site, tmp_path):
    """Stopped after the user name; meanwhile the site renamed that field. The value cannot be put back, the
    submit is refused, and the ending says which typed value was lost."""
    record_dir, run_id = tmp_path / "runs", "redesigned"
    stop_at(login_site.url(run_id), record_dir, run_id, "after_user", signal.SIGKILL)
    login_site.redesigned.add(run_id)

    code, result = _resume(record_dir, run_id)
    assert result["resume_lost"] == [
        'the value typed into "Username" (the field is not on the page any more)'
    ]
    assert (code, result["terminal_type"], result["terminal_reason"]) == (
        1,
        "goal_failed",
        "resume_lost_state",
    )
    assert 'could not restore the value typed into "Username"' in result["stop_reason"]


async def test_session_storage_of_the_active_tab_comes_back_before_its_page_runs(login_site, tmp_path):
    """sessionStorage is per tab: it is saved with the storage state and seeded into the new tab (through a
    stand-in page, nothing reaches the site) before the page is reopened, so the page's own scripts see it."""
    from agent.browser.options import BrowserOptions
    from agent.browser.session import BrowserSession

    url = login_site.url("tabstate")
    state_file = tmp_path / BROWSER_STATE_NAME
    old = await BrowserSession.start(BrowserOptions(), tmp_path / "old")
    try:
        await old.page.goto(url)
        await old.page.evaluate(
            "() => { sessionStorage.setItem('wizard', 'step-2'); localStorage.setItem('k', 'v'); }"
        )
        assert await old.save_storage_state(state_file)
    finally:
        await old.close()

    new = await BrowserSession.start(BrowserOptions(), tmp_path / "new")
    try:
        saved = await new.load_storage_state(state_file)
        assert await new.seed_session_storage(url, saved)
        await new.page.add_init_script("window.__seen = sessionStorage.getItem('wizard')")
        await new.page.goto(url)
        seen = await new.page.evaluate("() => [window.__seen, localStorage.getItem('k'), location.href]")
        assert seen == ["step-2", "v", url]
        assert not await new.seed_session_storage(
            login_site.base_url.replace("127.0.0.1", "localhost") + "/", saved
        )
    finally:
        await new.close()
