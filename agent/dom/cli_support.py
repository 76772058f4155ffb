"""`python -m agent observe URL [--json] [--screenshot PATH]`: show exactly what the model would see.

The output is :func:`agent.dom.view.render_model_view`: the element text and the page text the planner's
request carries, bounded the same way.

A debugging aid that needs no run, no graph and no model: it launches its own headless Chromium (with a
throw-away HOME and profile), opens the URL, observes once and returns ``(exit_code, output_text)``. The CLI
module only prints the text and exits with the code.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import re
import tempfile
from pathlib import Path
from typing import Any

from agent.browser.urls import normalize_url as normalize_address
from agent.dom.observe import observe_page
from agent.dom.options import ObserveOptions
from agent.dom.view import render_model_view

EXIT_OK = 0
EXIT_BROWSER = 1  # no usable Chromium
EXIT_BAD_URL = 2  # malformed URL or unreachable page

_ALLOWED_SCHEMES = ("http", "https", "file", "about")
_HOST_RX = re.compile(
    r"^(?:localhost|[\w-]+(?:\.[\w-]+)+|\d{1,3}(?:\.\d{1,3}){3}|\[[0-9a-fA-F:]+\])(?::\d{1,5})?(?:[/?#].*)?$"
)


class BadUrlError(ValueError):
    """The argument is not something we can open."""


def normalize_url(raw: str) -> str:
    """A URL to open, or :class:`BadUrlError`: an existing local file becomes ``file://``; web addresses are
    normalized by :func:`agent.browser.urls.normalize_url` (bare hosts get ``https://``, loopback ``http://``)."""
    text = (raw or "").strip()
    if not text:
        raise BadUrlError("empty URL")
    if re.match(r"^[a-zA-Z][a-zA-Z0-9+.-]*:", text) and not _HOST_RX.match(text):
        scheme = text.split(":", 1)[0].lower()
        if scheme not in _ALLOWED_SCHEMES:
            raise BadUrlError(f"unsupported URL scheme {scheme!r} (use http, https, file or about)")
        if scheme in ("http", "https") and not re.match(r"^https?://[^/\s]+", text, re.I):
            raise BadUrlError(f"malformed URL {text!r}")
        return text if scheme in ("file", "about") else normalize_address(text)
    path = Path(text).expanduser()
    if path.exists():
        return path.resolve().as_uri()
    if " " in text or not _HOST_RX.match(text):
        raise BadUrlError(f"not a URL or host name: {text!r}")
    return normalize_address(text)  # as an address bar would: https://, or http:// for a loopback host


def _summary(observation: dict[str, Any]) -> dict[str, Any]:
    return {
        "url": observation.get("url", ""),
        "title": observation.get("title", ""),
        "page_type": observation.get("page_type", ""),
        "elements": len(observation.get("elements") or []),
        "kept": len(observation.get("kept_ids") or []),
        "omitted": observation.get("omitted", 0),
        "text": observation.get("text", ""),
        "model_view": render_model_view(observation),
        "counts": observation.get("counts", {}),
        "chars": observation.get("chars", 0),
        "observe_ms": observation.get("observe_ms", 0),
        "mapping_hash": observation.get("mapping_hash", ""),
        "candidate_hash": observation.get("candidate_hash", ""),
        "dom_hash": observation.get("dom_hash", ""),
        "document_id": observation.get("document_id", ""),
        "scroll": observation.get("scroll", {}),
        "frames": observation.get("frames", []),
        "screenshot_path": observation.get("screenshot_path"),
    }


async def observe_url(
    url: str,
    *,
    json_output: bool = False,
    screenshot: str | None = None,
    options: ObserveOptions | None = None,
    goal: str = "",
    navigation_timeout_s: float | None = None,
    executable: str | None = None,
    ctx: Any = None,
) -> tuple[int, str]:
    """Open ``url`` in a fresh headless Chromium, observe it once; ``(exit_code, output)``.

    0 with the model's text (or one JSON object with ``json_output``); 2 with a one-line error for a bad or
    unreachable URL; 1 when no Chromium can be found. ``ctx`` (an :class:`agent.context.Context`) supplies the
    observation bounds, browser executable, viewport and navigation timeout unless given explicitly.
    """
    from playwright.async_api import async_playwright

    from agent.browser.guard_proxy import PROXY_FAILURE, GuardProxy, start_url_gate
    from agent.browser.launch import CHROMIUM_FLAGS, BrowserNotFoundError, resolve_executable

    try:
        target = normalize_url(url)
    except BadUrlError as exc:
        return EXIT_BAD_URL, f"error: {exc}"
    if executable is None and ctx is not None:
        executable = getattr(ctx, "browser_executable", None)
    if navigation_timeout_s is None:
        navigation_timeout_s = float(getattr(ctx, "navigation_timeout_s", 20.0) or 20.0)
    viewport = {
        "width": int(getattr(ctx, "viewport_width", 1280) or 1280),
        "height": int(getattr(ctx, "viewport_height", 900) or 900),
    }
    try:
        exe = resolve_executable(executable)
    except BrowserNotFoundError as exc:
        return EXIT_BROWSER, f"error: {exc}"
    opts = options or (ObserveOptions.from_context(ctx) if ctx is not None else ObserveOptions())
    gate, refused = await start_url_gate(target, allow_local=bool(getattr(ctx, "allow_local", False)))
    if refused:  # the network guard's rules, as for a run's start URL; every later hop through its proxy
        return EXIT_BAD_URL, f"error: {refused}"
    with tempfile.TemporaryDirectory(prefix="wayfinder-observe-") as home:
        env = dict(os.environ)
        env.update({"HOME": home, "XDG_CONFIG_HOME": f"{home}/.config", "XDG_CACHE_HOME": f"{home}/.cache"})
        async with async_playwright() as pw, GuardProxy(gate) as proxy:
            try:
                context = await pw.chromium.launch_persistent_context(
                    user_data_dir=f"{home}/profile",
                    executable_path=exe,
                    headless=True,
                    args=[*CHROMIUM_FLAGS, *proxy.chromium_args()],
                    env=env,
                    viewport=viewport,
                    accept_downloads=False,
                )
            except Exception as exc:
                return EXIT_BROWSER, f"error: could not start Chromium: {str(exc).splitlines()[0]}"
            try:
                page = context.pages[0] if context.pages else await context.new_page()
                try:
                    await page.goto(
                        target, wait_until="domcontentloaded", timeout=navigation_timeout_s * 1000
                    )
                except Exception as exc:
                    reason = str(exc).splitlines()[0]
                    match = re.search(r"net::ERR_[A-Z_]+", reason)
                    detail = match.group(0) if match else reason
                    detail = (
                        f"net::{proxy.failure_for(target) or PROXY_FAILURE}"
                        if PROXY_FAILURE in detail
                        else detail
                    )
                    return EXIT_BAD_URL, f"error: cannot open {target}: {detail}"
                # give late scripts a moment, but never wait for a page that keeps loading
                with contextlib.suppress(Exception):
                    await page.wait_for_load_state("load", timeout=3000)
                observation = await observe_page(
                    page,
                    goal=goal,
                    options=opts,
                    screenshot=bool(screenshot),
                    screenshot_path=screenshot,
                )
            finally:
                with contextlib.suppress(Exception):
                    await asyncio.wait_for(context.close(), 10)
    if screenshot and not observation.get("screenshot_path"):
        note = f"warning: screenshot could not be saved to {screenshot}"
    else:
        note = ""
    if json_output:
        return EXIT_OK, json.dumps(_summary(observation), ensure_ascii=False)
    text = render_model_view(observation)
    if observation.get("screenshot_path"):
        text += f"\n(screenshot: {observation['screenshot_path']})"
    if note:
        text += "\n" + note
    return EXIT_OK, text


def observe_url_sync(url: str, **kwargs: Any) -> tuple[int, str]:
    """:func:`observe_url` for synchronous callers (the argparse CLI)."""
    return asyncio.run(observe_url(url, **kwargs))
