"""Checks of settings against the machine, made before a browser starts or a record is written.

:mod:`agent.settings_rules` decides whether a value is well-formed; this module decides whether it can work
here: the record directory is writable, a prompts directory and a browser executable exist, a browser answers
at ``cdp_url``, MCP servers' commands exist, and a model backend has a key unless its server is local. Each failure is a :class:`ConfigError` naming the setting, its
source and the fix.
"""

from __future__ import annotations

import ipaddress
import json
import os
import socket
import tempfile
import urllib.error
import urllib.request
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

from agent.browser.urls import LOCAL_HOSTS, host_of
from agent.context import Context
from agent.settings_rules import ConfigError
from agent.tools.mcp import missing_commands

#: Host name endings that only resolve on a local network.
_LOCAL_SUFFIXES = (".local", ".localhost", ".internal", ".lan", ".home.arpa")

Source = Callable[[str], str]


def _first_existing(path: Path) -> Path:
    current = path
    while not current.exists() and current != current.parent:
        current = current.parent
    return current


def _writable(directory: Path) -> bool:
    """True when a file can really be created in ``directory`` (``os.access`` is blind to root and mounts)."""
    try:
        with tempfile.TemporaryFile(dir=directory):
            return True
    except OSError:
        return False


def check_record_dir(record_dir: str, source: str) -> None:
    """``record_dir`` is a directory (or can be made one) that this process can write to."""
    path = Path(record_dir).expanduser()
    where = f"setting 'record_dir' from {source}: {record_dir!r}"
    if path.exists() and not path.is_dir():
        raise ConfigError(f"{where} is a file, not a directory; give a directory for the run records")
    existing = _first_existing(path)
    if not existing.is_dir():
        raise ConfigError(
            f"{where} lies inside the file {str(existing)!r}; give a directory for the run records"
        )
    if not _writable(existing):
        what = (
            "is not writable"
            if existing == path
            else f"cannot be created ({str(existing)!r} is not writable)"
        )
        raise ConfigError(f"{where} {what}; give a directory you can write to, e.g. --record-dir ./runs")


def check_prompts_dir(prompts_dir: str | None, source: str) -> None:
    if prompts_dir is None:
        return
    path = Path(prompts_dir).expanduser()
    if not path.is_dir():
        raise ConfigError(
            f"setting 'prompts_dir' from {source}: {prompts_dir!r} is not a directory; give the directory "
            "holding planner.md / executor.md, or leave it empty for the bundled prompts"
        )
    if not os.access(path, os.R_OK | os.X_OK):
        raise ConfigError(
            f"setting 'prompts_dir' from {source}: {prompts_dir!r} is not readable; fix its permissions"
        )


def check_browser_executable(executable: str | None, source: str) -> None:
    if executable is None:
        return
    path = Path(executable).expanduser()
    if not path.is_file() or not os.access(path, os.X_OK):
        raise ConfigError(
            f"setting 'browser_executable' from {source}: {executable!r} is not an executable file; give the "
            "path of a Chromium/Chrome binary, or leave it empty to find one automatically"
        )


def is_local_server(url: str) -> bool:
    """True for loopback, private-network and single-label hosts: servers that need no public API key."""
    host = (host_of(url) or "").strip("[]").lower()
    if not host:
        return False
    if host in LOCAL_HOSTS or "." not in host and ":" not in host or host.endswith(_LOCAL_SUFFIXES):
        return True
    try:
        address = ipaddress.ip_address(host)
    except ValueError:
        return False
    return address.is_loopback or address.is_private or address.is_link_local


def check_model_access(ctx: Context, source_of: Source, env: Mapping[str, str] | None = None) -> None:
    """A model backend needs a key unless it talks to a local server (else it would call the public API keyless)."""
    if not ctx.uses_model:
        return
    env = os.environ if env is None else env
    if ctx.api_key or env.get("OPENAI_API_KEY"):
        return
    base_url = ctx.base_url or env.get("OPENAI_BASE_URL") or env.get("OPENAI_API_BASE")
    if base_url and is_local_server(base_url):
        return
    why = "planner 'openai'" if ctx.planner == "openai" else f"model {ctx.model!r}"
    from_where = source_of("planner" if ctx.planner == "openai" else "model")
    server = f"the server {base_url!r} is not local" if base_url else "no --base-url is set"
    raise ConfigError(
        f"setting 'planner' from {from_where}: {why} needs an API key and {server}; "
        "set OPENAI_API_KEY, or --base-url for a local server"
    )


#: Seconds to wait for a browser's DevTools endpoint to answer before calling ``cdp_url`` wrong.
_CDP_CHECK_S = 5.0


def check_cdp_endpoint(cdp_url: str | None, source: str) -> None:
    """A ``cdp_url`` reaches a browser's DevTools endpoint: ``/json/version`` answers for http(s), the port
    accepts a connection for ws(s). Else the run would end in Playwright's call log instead of one line."""
    if not cdp_url:
        return
    where = f"setting 'cdp_url' from {source}: no browser answers at {cdp_url!r}"
    fix = "start Chrome/Chromium with --remote-debugging-port=9222 and give http://127.0.0.1:9222"
    try:
        if cdp_url.lower().startswith(("ws://", "wss://")):
            host = (host_of(cdp_url.replace("ws", "http", 1)) or "").strip("[]")
            port = int(cdp_url.split("://", 1)[1].split("/", 1)[0].rsplit(":", 1)[-1] or 0) or 80
            socket.create_connection((host, port), timeout=_CDP_CHECK_S).close()
            return
        url = cdp_url.rstrip("/") + "/json/version"
        with urllib.request.urlopen(url, timeout=_CDP_CHECK_S) as response:  # noqa: S310 - http(s) only
            version = json.loads(response.read(100_000).decode("utf-8", errors="replace"))
        if not isinstance(version, dict) or "webSocketDebuggerUrl" not in version:
            raise ValueError("it is not a DevTools endpoint (no webSocketDebuggerUrl in /json/version)")
    except (OSError, ValueError, urllib.error.URLError) as exc:
        reason = getattr(exc, "reason", None) or exc
        raise ConfigError(f"{where} ({str(reason)[:160]}); {fix}") from None


def check_ready_to_run(ctx: Context, source_of: Source, *, env: Mapping[str, str] | None = None) -> None:
    """Every machine-dependent check a run needs, in the order a user would fix them."""
    check_model_access(ctx, source_of, env)
    check_prompts_dir(ctx.prompts_dir, source_of("prompts_dir"))
    check_browser_executable(ctx.browser_executable, source_of("browser_executable"))
    check_record_dir(ctx.record_dir, source_of("record_dir"))
    check_cdp_endpoint(ctx.cdp_url, source_of("cdp_url"))
    check_mcp_commands(ctx.mcp_servers, source_of("mcp_servers"))


def check_mcp_commands(servers: dict[str, Any], source: str) -> None:
    """Each stdio MCP server's command exists (a server that starts but fails is a recorded run failure)."""
    missing = missing_commands(servers)
    if missing:
        raise ConfigError(f"setting 'mcp_servers' from {source}: {missing[0]}; install it or fix the command")
