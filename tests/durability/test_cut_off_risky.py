"""An approved risky action cut off by a crash (SIGKILL while its request is in flight) is not run again on
resume unless the person at the terminal says so: they are asked, with the reason, and their answer decides.

The shop's "Buy now" calls a server endpoint that counts at once and answers three seconds later, so the test
kills the run while the purchase is surely in flight and before its step could be recorded.
"""

from __future__ import annotations

import signal

import pytest

from tests.durability.helpers import executed, wait_for
from tests.durability.terminal import Terminal, agent_command
from tests.durability.test_resume import _kill_session

REPEAT_QUESTION = r'Allow click button "Buy now"\?\s+why:\s+the run stopped while it was running'


@pytest.mark.parametrize(("answer", "orders"), [("deny", 1), ("approve", 2)])
def test_a_cut_off_purchase_is_repeated_only_when_the_person_approves(click_site, record_dir, answer, orders):
    run_id, item = f"cutoff-{answer}", f"cutoff-{answer}"
    rd = ["--record-dir", str(record_dir)]
    url = click_site.url(f"shop.html?item={item}&delay=3")
    with Terminal(
        agent_command("run", 'click "Buy now"', "--start-url", url, "--run-id", run_id, *rd)
    ) as term:
        term.expect(r"approve / deny / edit", 90)
        term.sendline("approve")
        wait_for(lambda: click_site.count(item) == 1, 60, "the purchase request")
        assert not executed(record_dir / run_id, 1)
        term.kill(signal.SIGKILL)
        term.wait(30)
        _kill_session(term.proc.pid)

    with Terminal(agent_command("resume", run_id, *rd)) as term:
        term.expect(REPEAT_QUESTION, 90)
        term.expect(r"approve / deny", 10)
        term.sendline(answer)
        # denied, the agent looks again and may propose the purchase anew: it is still asked first
        if answer == "deny" and term.expect(r"goal_\w+/\w+|approve / deny / edit", 90).group(0).startswith(
            "approve"
        ):
            term.sendline("deny")
        code = term.wait(90)
        _kill_session(term.proc.pid)
    assert click_site.count(item) == orders, term.text[-2000:]
    assert code == (0 if answer == "approve" else 1), term.text[-2000:]
