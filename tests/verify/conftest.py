"""Fixtures of the trust tests: the trap and control pages of tests/verify/pages on 127.0.0.1, real Chromium
(the shared ``session``), and whole runs of the real graph with the offline planner or the scripted model."""

from __future__ import annotations

import html
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import parse_qs, urlsplit

import pytest

from agent.runner import run_goal
from agent.util.static_server import StaticServer
from tests.llm.fake_openai import fake_openai, fake_openai_session  # noqa: F401 - fixtures
from tests.site_routes import shell_routes
from tests.support.factories import offline_context, trace_records

PAGES = Path(__file__).parent / "pages"
#: The page shell of the pages that begin with a ``<!-- shell: title="..." -->`` line (they hold the body only).
SHELL = (
    '<!doctype html>\n<html lang="en">\n<head><meta charset="utf-8"><title>{title}</title></head>\n<body>\n'
    "{content}</body>\n</html>\n"
)


def error_page(handler) -> tuple[int, dict[str, str], bytes]:
    """An error page (status ``code``) whose text repeats a product's name and price, as error pages echo URLs."""
    query = {k: v[-1] for k, v in parse_qs(urlsplit(handler.path).query).items()}
    code = int(query.get("code", "404"))
    title = "Page not found" if code == 404 else "Internal Server Error"
    body = (
        f"<h1>{code} {title}</h1><p>Sorry, the Blue Widget page could not be shown.</p>"
        "<p>Blue Widget price $12.50 (cached listing, no longer valid)</p>"
    )
    page = f"<!doctype html><html><head><title>{html.escape(title)}</title></head><body>{body}</body></html>"
    return code, {"Content-Type": "text/html; charset=utf-8"}, page.encode()


@pytest.fixture(scope="session")
def trap_url() -> Iterator[str]:
    with StaticServer(PAGES, routes={"/error": error_page, **shell_routes(PAGES, SHELL)}) as server:
        yield server.base_url


@pytest.fixture
def run(session, trap_url, tmp_path):
    """``await run(goal, path, **settings)`` -> (result, trace records) with the offline planner."""

    async def go(goal: str, path: str, **settings):
        bounds = {"max_seconds": 40.0, "action_timeout_s": 4.0, "navigation_timeout_s": 6.0}
        ctx = offline_context(tmp_path / "runs", **{**bounds, **settings})
        result = await run_goal(goal, ctx, start_url=trap_url + path, session=session)
        return result, trace_records(result["run_dir"])

    return go
