"""The PDF tests' documents, written once per session and served on loopback (one of them as a download)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from agent.util.static_server import StaticServer
from tests.llm.fake_openai import fake_openai, fake_openai_session  # noqa: F401 - fixtures, requested by name
from tests.pdf.documents import write_broken, write_handbook, write_long


@pytest.fixture(scope="session")
def pdf_dir(tmp_path_factory) -> Path:
    folder = tmp_path_factory.mktemp("pdfs")
    write_handbook(folder / "handbook.pdf")
    write_long(folder / "long.pdf")
    write_broken(folder / "broken.pdf")
    (folder / "index.html").write_text(
        '<html><head><title>Documents</title></head><body><a href="handbook.pdf">Handbook</a></body></html>'
    )
    return folder


@pytest.fixture(scope="session")
def pdf_url(pdf_dir) -> Iterator[str]:
    """Base URL of the documents; /attachment.pdf answers with the handbook as a download, and
    /members/handbook.pdf only to a request with the cookie member=1."""
    body = (pdf_dir / "handbook.pdf").read_bytes()

    def attachment(_handler):
        return (
            200,
            {"Content-Type": "application/pdf", "Content-Disposition": 'attachment; filename="hb.pdf"'},
            body,
        )

    def members_only(handler):
        if "member=1" not in (handler.headers.get("Cookie") or ""):
            return 403, {"Content-Type": "text/plain"}, b"members only"
        return 200, {"Content-Type": "application/pdf"}, body

    routes = {"/attachment.pdf": attachment, "/members/handbook.pdf": members_only}
    with StaticServer(pdf_dir, routes=routes) as server:
        yield server.base_url
