"""Files in and out: downloads land in the run's downloads folder under safe names whatever the server
suggests; a file input is given files only from that folder or the ``upload_dirs`` setting."""

from __future__ import annotations

import asyncio
from pathlib import Path
from urllib.parse import quote

import pytest

from agent.browser.filenames import upload_source
from tests.browser.helpers import act, find
from tests.netguard.conftest import Site


@pytest.mark.parametrize("name", ["../../x", "/tmp/wayfinder-absolute-x", "..\\..\\x"])
async def test_a_download_named_to_escape_lands_inside_the_run(guarded, site: Site, name: str) -> None:
    downloads = Path(guarded.downloads_dir).resolve()
    body = f'<a href="/download?name={quote(name, safe="")}">Get the file</a>'
    await act(guarded, "navigate", url=site.url("good.test", "/html?body=" + quote(body)))
    mark = guarded.event_mark()
    await act(guarded, "click", (await find(guarded, "Get the file"))["id"])
    event = await guarded.wait_for_event("download", since=mark, timeout=5)
    assert event and event.get("path"), event
    saved = Path(event["path"]).resolve()
    assert saved.parent == downloads
    assert ".." not in saved.name and "/" not in saved.name and "x" in saved.name
    assert saved.read_text().startswith("downloaded content of")
    for outside in (downloads.parent / "x", downloads.parent.parent / "x", Path("/tmp/wayfinder-absolute-x")):
        assert not outside.exists(), outside


async def _file_input_page(session, site: Site) -> int:
    body = '<label>Attachment <input type="file" id="attachment"></label>'
    await act(session, "navigate", url=site.url("good.test", "/html?body=" + quote(body)))
    return (await find(session, "Attachment"))["id"]


async def _chosen(session) -> list[str]:
    return await session.page.evaluate(
        "() => [...document.getElementById('attachment').files].map(f => f.name)"
    )


async def test_a_file_input_takes_a_downloaded_file_and_nothing_from_elsewhere(
    guarded, site: Site, tmp_path
) -> None:
    downloads = Path(guarded.downloads_dir)
    await asyncio.to_thread(downloads.mkdir, parents=True, exist_ok=True)
    (downloads / "invoice.txt").write_text("invoice")
    if not (downloads / "escape.txt").is_symlink():
        (downloads / "escape.txt").symlink_to("/etc/passwd")  # a link inside the folder to a file outside it
    field = await _file_input_page(guarded, site)

    for refused in ("/etc/passwd", str(downloads / "escape.txt"), "../../../etc/hostname"):
        result = await act(guarded, "type", field, text=refused)
        assert result["status"] == "failure" and result["error_type"] == "tool_limit", result
        assert "not uploading" in result["message"]
        assert await _chosen(guarded) == []

    result = await act(guarded, "type", field, text="invoice.txt")
    assert result["status"] == "success", result
    assert await _chosen(guarded) == ["invoice.txt"]


def test_upload_dirs_and_hidden_files(tmp_path) -> None:
    shared = tmp_path / "shared"
    (shared / ".ssh").mkdir(parents=True)
    (shared / ".ssh" / "id_rsa").write_text("key")
    (shared / ".env").write_text("TOKEN=1")
    (shared / "report.pdf").write_text("%PDF")
    assert (
        upload_source(str(shared / "report.pdf"), [tmp_path / "downloads", shared]) == shared / "report.pdf"
    )
    for hidden in (shared / ".env", shared / ".ssh" / "id_rsa"):
        with pytest.raises(ValueError, match="hidden"):
            upload_source(str(hidden), [shared])
    with pytest.raises(ValueError, match="outside"):
        upload_source(str(tmp_path / "elsewhere.txt"), [shared])
    with pytest.raises(ValueError, match="not an existing file"):
        upload_source(str(shared / "missing.pdf"), [shared])
