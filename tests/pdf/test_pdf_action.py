"""pdf_extract in real Chromium: the PDF a tab shows, one the browser downloaded, another URL, a broken one."""

from __future__ import annotations

from agent.browser.actions import execute_action
from agent.browser.pdf_document import paged_lines


async def _act(session, name, **args):
    return await execute_action(session, {"action": name, "element_id": None, "args": args})


async def test_reads_the_pdf_the_tab_shows(session, pdf_url):
    opened = await _act(session, "navigate", url=pdf_url + "/handbook.pdf")
    assert opened["status"] == "success"
    result = await _act(session, "pdf_extract", mode="find", query="membership fee")
    assert result["status"] == "success", result["message"]
    assert "on page(s) 2" in result["message"]
    assert paged_lines(result["extracted"])[0] == (
        2,
        "The annual membership fee is 42 euros, paid each January.",
    )


async def test_reads_a_pdf_the_browser_downloaded(session, pdf_url):
    await _act(session, "navigate", url=pdf_url + "/index.html")
    await _act(session, "navigate", url=pdf_url + "/attachment.pdf")  # a download, not a page
    assert not session.page.url.endswith("attachment.pdf")
    result = await _act(session, "pdf_extract", mode="outline")
    assert result["status"] == "success", result["message"]
    assert "the downloaded file" in result["message"]
    assert "Harvest (page 3)" in result["extracted"]


async def test_reads_another_pdf_by_url(session, pdf_url):
    await _act(session, "navigate", url=pdf_url + "/index.html")
    result = await _act(session, "pdf_extract", mode="metadata", url=pdf_url + "/long.pdf")
    assert result["status"] == "success"
    assert "pages: 60" in result["extracted"] and "page limit" in result["message"]


async def test_no_pdf_and_a_broken_pdf_fail_clearly(session, pdf_url):
    for old in session.downloads_dir.glob("*.pdf"):  # what earlier tests downloaded
        old.unlink()
    await _act(session, "navigate", url=pdf_url + "/index.html")
    nothing = await _act(session, "pdf_extract", mode="text")
    assert nothing["status"] == "failure"
    assert "no PDF to read" in nothing["message"]
    await _act(session, "navigate", url=pdf_url + "/broken.pdf")
    broken = await _act(session, "pdf_extract", mode="text")
    assert broken["status"] == "failure"
    assert "could not be read" in broken["message"]
    assert broken["execution_time_ms"] < 15000


async def test_the_pdf_is_fetched_with_the_pages_cookies(session, pdf_url):
    await _act(session, "navigate", url=pdf_url + "/index.html")
    refused = await _act(session, "pdf_extract", mode="metadata", url=pdf_url + "/members/handbook.pdf")
    assert refused["status"] == "failure" and "HTTP 403" in refused["message"]
    await session.page.context.add_cookies([{"name": "member", "value": "1", "url": pdf_url}])
    opened = await _act(session, "navigate", url=pdf_url + "/members/handbook.pdf")
    assert opened["status"] == "success"
    result = await _act(session, "pdf_extract", mode="metadata")
    assert result["status"] == "success", result["message"]
    assert "pages: 4" in result["extracted"]
