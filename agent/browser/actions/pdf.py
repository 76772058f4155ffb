"""``pdf_extract``: read the PDF the tab shows (or the one the run downloaded) instead of driving a PDF viewer.

Where the bytes come from, in order: ``args.url`` (checked by the network guard like a navigation); the active
tab when it shows a PDF (its URL fetched through the browser context's request API, so the page's cookies go
with it); else the newest PDF in the run's downloads folder (headless Chromium may download a PDF instead of
showing it). The bytes are parsed off the event loop by :mod:`agent.browser.pdf_document`, within the action's
time bound; the result's ``extracted`` holds the text with ``[page N]`` marks and its message says what was read
and whether the page limit applied.
"""

from __future__ import annotations

import asyncio
import contextlib
from pathlib import Path
from urllib.parse import urlsplit

from agent.browser.actions.base import ActionFailed, ActionRun, Outcome, ok
from agent.browser.pdf_document import PdfError, read_pdf
from agent.types import ERROR_NAVIGATION_BLOCKED

#: Largest PDF fetched (bytes): a bigger file is refused rather than read into memory.
MAX_PDF_BYTES = 40 * 1024 * 1024


def looks_like_pdf_url(url: str) -> bool:
    """The address names a PDF file (``.pdf`` path)."""
    try:
        return urlsplit(url or "").path.lower().endswith(".pdf")
    except ValueError:
        return False


async def _content_type(run: ActionRun) -> str:
    with contextlib.suppress(Exception):
        return str(await asyncio.wait_for(run.session.page.evaluate("document.contentType"), 1.0) or "")
    return ""


def _newest_download(folder: Path) -> Path | None:
    if not folder.is_dir():
        return None
    found = [p for p in folder.iterdir() if p.is_file() and p.suffix.lower() == ".pdf"]
    return max(found, key=lambda p: p.stat().st_mtime) if found else None


async def _fetch(run: ActionRun, url: str) -> bytes:
    refused = await run.session.refusal(url, document=True)
    if refused:
        raise ActionFailed(ERROR_NAVIGATION_BLOCKED, f"refused: {url}: {refused}", final=True)
    request = run.session.page.context.request
    response = await request.get(url, timeout=run.ms(run.options.navigation_timeout_s), max_redirects=5)
    try:
        if not response.ok:
            raise ActionFailed("unknown", f"the PDF at {url} answered HTTP {response.status}", final=True)
        length = int(response.headers.get("content-length") or 0)
        if length > MAX_PDF_BYTES:
            raise ActionFailed(
                "tool_limit", f"the PDF at {url} is {length} bytes, over the {MAX_PDF_BYTES} limit"
            )
        return await response.body()
    finally:
        with contextlib.suppress(Exception):
            await response.dispose()


async def pdf_source(run: ActionRun) -> tuple[str, bytes]:
    """(where the PDF came from, its bytes), or ActionFailed when there is no PDF to read."""
    url = str(run.args.get("url") or "").strip()
    if url:
        return url, await _fetch(run, url)
    page_url = run.session.page.url
    shows_pdf = looks_like_pdf_url(page_url) or "pdf" in (await _content_type(run)).lower()
    if shows_pdf and page_url.startswith(("http:", "https:")):
        return page_url, await _fetch(run, page_url)
    downloaded = await asyncio.to_thread(_newest_download, run.session.downloads_dir)
    if downloaded is not None:
        data = await asyncio.to_thread(downloaded.read_bytes)
        return f"the downloaded file {downloaded.name}", data
    raise ActionFailed(
        "tool_limit", "no PDF to read: the tab does not show a PDF and the run downloaded none", final=True
    )


async def pdf_extract_action(run: ActionRun) -> Outcome:
    """Extract metadata, text, matches or the outline of the PDF (see the module docstring)."""
    mode = str(run.args.get("mode") or "text").strip().lower()
    if mode == "analysis":
        mode = "text"  # the model reads the text above the browser layer (nodes), with its task
    source, data = await pdf_source(run)
    if len(data) > MAX_PDF_BYTES:
        raise ActionFailed("tool_limit", f"the PDF is {len(data)} bytes, over the {MAX_PDF_BYTES} limit")
    try:
        reading = await asyncio.wait_for(
            asyncio.to_thread(
                read_pdf, data, mode, pages=run.args.get("pages"), query=str(run.args.get("query") or "")
            ),
            timeout=max(0.5, run.remaining(0.2)),
        )
    except PdfError as exc:
        raise ActionFailed("unknown", f"{source}: {exc}", final=True) from exc
    except TimeoutError as exc:
        raise ActionFailed("timeout", f"reading the PDF at {source} took too long") from exc
    return ok(f"pdf_extract {mode} of {source}: {reading.summary}", extracted=reading.text)
