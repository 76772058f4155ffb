"""``--cdp-url`` on the command line: a real Chromium started with a DevTools port on loopback (its own
User-Agent, a temporary profile), a real offline run attached to it through the flag. The run's tab shows in
that browser's ``/json/list`` while it works, the page's clicks reach the server with that browser's
User-Agent, and the browser keeps running afterwards with the run's tab gone. The flag is validated like the
setting, named as its source, and wins over ``WAYFINDER_CDP_URL``."""

from __future__ import annotations

import contextlib
import json
import threading
import urllib.request

from agent.cli import main
from tests.browser.helpers import debuggable_chromium
from tests.durability.conftest import click_site, record_dir  # noqa: F401 - fixtures, requested by name
from tests.durability.helpers import one_json_object, start_cli
from tests.durability.terminal import agent_env

USERS_AGENT = "UsersOwnBrowser/1.0 (wayfinder cdp test)"


def _tab_urls(cdp_url: str) -> list[str]:
    with urllib.request.urlopen(cdp_url + "/json/list", timeout=5) as reply:
        return [t.get("url", "") for t in json.loads(reply.read()) if t.get("type") == "page"]


def _watch_tabs(cdp_url: str, stop: threading.Event, seen: set[str]) -> None:
    while not stop.is_set():
        with contextlib.suppress(OSError):
            seen.update(_tab_urls(cdp_url))
        stop.wait(0.05)


def test_run_attaches_to_a_running_chromium_through_the_flag(click_site, record_dir):  # noqa: F811
    start = click_site.url("steps.html?run=cdpflag&delay=1")
    with debuggable_chromium(args=(f"--user-agent={USERS_AGENT}",)) as (cdp_url, proc):
        seen: set[str] = set()
        stop = threading.Event()
        watcher = threading.Thread(target=_watch_tabs, args=(cdp_url, stop, seen), daemon=True)
        watcher.start()
        try:
            child = start_cli(
                "run", 'click "Alpha", then click "Bravo"', "--start-url", start, "--cdp-url", cdp_url,
                "--record-dir", str(record_dir), "--json",
                env=agent_env(WAYFINDER_CDP_URL="http://127.0.0.1:9"),  # the flag wins over the variable
            )  # fmt: skip
            out, err = child.communicate(timeout=120)
        finally:
            stop.set()
            watcher.join(5)
        assert child.returncode == 0, err
        result = one_json_object(out)
        assert result["terminal_type"] == "goal_satisfied", result

        assert start in seen  # the run's tab was a tab of that browser while it worked
        assert click_site.count("cdpflag-alpha") == 1 and click_site.count("cdpflag-bravo") == 1
        assert click_site.user_agents["cdpflag-bravo"] == USERS_AGENT  # clicked in that browser
        assert proc.poll() is None  # the browser survives the run
        assert start not in _tab_urls(cdp_url)  # and the run's context (its tab) is gone


def test_a_bad_cdp_url_flag_is_one_line_naming_the_flag(click_site, record_dir, capsys):  # noqa: F811
    for bad, why in (("ftp://127.0.0.1:9", "ws:// or wss://"), ("http://127.0.0.1:9", "no browser answers")):
        code = main(
            ["run", "read the page", "--start-url", click_site.url("steps.html"), "--cdp-url", bad,
             "--record-dir", str(record_dir)]
        )  # fmt: skip
        lines = capsys.readouterr().err.strip().splitlines()
        assert code == 2, lines
        assert len(lines) == 1 and lines[0].startswith("error: setting 'cdp_url' from flag --cdp-url"), lines
        assert why in lines[0]
    assert not any(record_dir.iterdir())  # nothing written when a check fails
