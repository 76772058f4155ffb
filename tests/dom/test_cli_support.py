"""`python -m agent observe` support: URL normalization and one real run against the fixture site."""

from __future__ import annotations

import asyncio
import json
import socket

import pytest

from agent.context import Context
from agent.dom.cli_support import EXIT_BAD_URL, EXIT_OK, BadUrlError, normalize_url, observe_url


def test_normalize_url(tmp_path):
    assert normalize_url("example.com") == "https://example.com/"
    assert normalize_url("Example.COM/Path") == "https://example.com/Path"
    assert normalize_url("localhost:8000/a?b=1") == "http://localhost:8000/a?b=1"  # loopback is served plain
    assert normalize_url("http://127.0.0.1:5/x") == "http://127.0.0.1:5/x"
    assert normalize_url("about:blank") == "about:blank"
    page = tmp_path / "p.html"
    page.write_text("<h1>x</h1>")
    assert normalize_url(str(page)) == page.resolve().as_uri()
    for bad in ("", "not a url", "ftp://x.test/", "javascript:alert(1)", "http://"):
        with pytest.raises(BadUrlError):
            normalize_url(bad)


async def test_bad_url_is_a_one_line_error():
    code, out = await observe_url("javascript:alert(1)", json_output=False, screenshot=None, options=None)
    assert code == EXIT_BAD_URL and out.startswith("error: unsupported URL scheme") and "\n" not in out


async def test_observe_url_json_and_unreachable(site_url, tmp_path):
    shot = tmp_path / "cli.png"
    ctx = Context(max_elements=10)  # the shape agent/cli.py calls it with
    with socket.socket() as sock:  # a port nothing listens on
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    # two independent browsers: run them side by side to keep the suite fast
    (code, out), (bad_code, bad_out) = await asyncio.gather(
        observe_url(
            f"{site_url}/observe/form.html",
            json_output=True,
            screenshot=str(shot),
            goal="create account",
            ctx=ctx,
        ),
        observe_url(f"http://127.0.0.1:{port}/", json_output=False, screenshot=None),
    )
    assert code == EXIT_OK
    data = json.loads(out)
    assert data["title"] == "Create account" and data["page_type"] == "form"
    assert data["elements"] == 19 and data["kept"] == 10 and data["omitted"] == 9
    assert data["chars"] == len(data["text"])
    assert '[1] h1 "Create account"' in data["text"]
    assert data["mapping_hash"] and data["candidate_hash"] and data["observe_ms"] >= 0
    assert data["screenshot_path"] == str(shot) and shot.stat().st_size > 1000

    assert bad_code == EXIT_BAD_URL
    assert bad_out == f"error: cannot open http://127.0.0.1:{port}/: net::ERR_CONNECTION_REFUSED"
