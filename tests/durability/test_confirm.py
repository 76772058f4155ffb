"""A risky action through the real CLI: asked at the terminal, approved once, denied never, no terminal -> denied.

``python -m agent run`` runs in subprocesses against a page whose "Buy now" button reports every click to the
test's server, so "clicked exactly once" and "never clicked" are counted where they happen. The three runs are
independent and run side by side to keep the wall time down. (``--yes``, which approves without asking, is
checked by tests/cli/test_cli.py.)
"""

from __future__ import annotations

import re

from tests.durability.helpers import assert_trace_intact, one_json_object, start_cli
from tests.durability.terminal import Terminal, agent_command

BUY_GOAL = 'click "Buy now"'


def test_approve_deny_and_no_terminal(click_site, record_dir, request):
    common = ["--record-dir", str(record_dir), "--max-seconds", "90"]
    # no terminal on stdin (a pipe from /dev/null): nobody to ask, so the action is denied and never runs
    no_tty = start_cli(
        "run", BUY_GOAL, "--start-url", click_site.url("shop.html?item=noterm"), "--json", *common
    )
    request.addfinalizer(lambda: no_tty.poll() is None and (no_tty.kill(), no_tty.communicate()))
    # approve: rich display on the terminal (stderr), the human summary on stdout
    with (
        Terminal(
            agent_command(
                "run",
                BUY_GOAL,
                "--start-url",
                click_site.url("shop.html?item=approve"),
                "--run-id",
                "approve",
                *common,
            ),
            separate_stdout=True,
        ) as yes,
        Terminal(
            agent_command(
                "run",
                BUY_GOAL,
                "--start-url",
                click_site.url("shop.html?item=deny"),
                "--run-id",
                "deny",
                "--json",
                *common,
            ),
            separate_stdout=True,
        ) as no,
    ):
        yes.expect(r'\? Allow click button "Buy now"\?', 90)
        yes.expect(r"why:\s+clicking button", 5)
        yes.expect(r"approve / deny / edit \[a/d/e\]", 5)
        assert click_site.count("approve") == 0  # nothing happens before the person answers
        yes.sendline("a")

        no.expect(r'\? Allow click button "Buy now"\?', 90)
        no.expect(r"approve / deny / edit", 5)
        no.sendline("maybe")  # consent is strict: anything but an approval denies
        no.expect(r"'maybe' is not an approval: denied", 10)

        assert yes.wait(90) == 0, yes.text[-2000:]
        assert no.wait(90) == 1, no.text[-2000:]
    out, err = no_tty.communicate(timeout=120)

    assert click_site.count("approve") == 1
    assert click_site.count("deny") == 0
    assert click_site.count("noterm") == 0

    # the approved run: rich live display (status line with stage/step, a table of steps) on the terminal
    screen = yes.text
    assert re.search(r"stage (orient|locate|context)", screen) and re.search(r"step \d", screen)
    assert re.search(r"#\s+time\s+stage\s+action\s+target\s+result\s+url", screen)
    assert re.search(r'click\s+button "Buy now"\s+ok \(approved\)', screen)
    assert "\x1b[" in yes.raw  # it really is the rich (terminal) display
    assert "goal_satisfied/action_verified" in yes.stdout and "records:" in yes.stdout
    records = assert_trace_intact(record_dir / "approve")
    assert [r["note"] for r in records if r["node"] == "confirm"] == ["approved by the user"]
    assert sum(r["node"] == "execute" for r in records) == 1

    # the denied run: --json keeps stdout to exactly one object; the prompt went to the terminal (stderr)
    result = one_json_object(no.stdout)
    assert (result["terminal_type"], result["terminal_reason"]) == ("goal_failed", "user_declined")
    assert "denied because the answer 'maybe' is not an approval" in result["stop_reason"]
    assert "Allow click" not in no.stdout
    records = assert_trace_intact(record_dir / "deny")
    assert not any(r["node"] == "execute" for r in records)

    # no terminal: denied without a prompt
    assert no_tty.returncode == 1, err[-2000:]
    denied = one_json_object(out)
    assert (denied["terminal_type"], denied["terminal_reason"]) == ("goal_failed", "user_declined")
    assert "no one to ask" in denied["stop_reason"]
    assert "approve / deny" not in err
