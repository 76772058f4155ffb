"""File actions: a screenshot saved into the run, and a navigation that turned out to be a download.

Downloads themselves are saved by the session (:mod:`agent.browser.session_events`) under a sanitized name in
the run's downloads folder; an action only reports where the file went.
"""

from __future__ import annotations

import asyncio
import time

from agent.browser.actions.base import ActionRun, Outcome, ok
from agent.browser.filenames import safe_filename
from agent.browser.session_secrets import screenshot_masks


async def screenshot_action(run: ActionRun) -> Outcome:
    """Save a screenshot under the run's screenshots folder (a requested name is sanitized)."""
    session = run.session
    requested = str(run.args.get("path") or "").strip()
    name = safe_filename(requested, default="") if requested else ""
    if not name:
        name = f"shot-{time.strftime('%Y%m%d-%H%M%S')}-{int(time.monotonic() * 1000) % 1000:03d}"
    if not name.lower().endswith((".png", ".jpg", ".jpeg")):
        name += ".png"
    await asyncio.to_thread(session.screenshots_dir.mkdir, parents=True, exist_ok=True)  # off the loop
    path = session.screenshots_dir / name
    await session.page.screenshot(
        path=str(path),
        full_page=bool(run.args.get("full_page", False)),
        mask=screenshot_masks(session.page),
        timeout=run.ms(run.options.action_timeout_s),
    )
    return ok(f"saved a screenshot to {path}", extracted=str(path))


async def download_outcome(run: ActionRun, url: str) -> Outcome:
    """``url`` answered with a file, not a page: wait for the session to save it and say where it is."""
    event = await run.session.wait_for_event("download", since=run.mark, timeout=run.remaining(0.2))
    saved = f" saved as {event['filename']}" if event and event.get("filename") else ""
    return ok(f"{url} is a file: the download started{saved}", extracted=(event or {}).get("path"))
