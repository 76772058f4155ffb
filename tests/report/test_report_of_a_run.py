"""The report of a real run (offline, on the demo store, a screenshot every step): steps in the graph's order,
each with the page before and the effect after, labelled, the ending last, and the password masked everywhere."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from agent.demo.server import DEMO_CREDENTIALS, DEMO_START_PATH, serve_demo
from agent.report import REPORT_NAME, write_report
from agent.report.loading import MASK
from agent.runner import run_goal
from tests.support.factories import offline_context, trace_records


@pytest.fixture(scope="module")
def demo_store():
    server = serve_demo()
    yield server.base_url
    server.stop()


async def test_the_report_of_a_login_run_is_in_order_labelled_and_masked(demo_store, page, tmp_path):
    user, password = DEMO_CREDENTIALS["username"], DEMO_CREDENTIALS["password"]
    goal = f"log in as {user} with password {password}, then tell me the total of my last order"
    ctx = offline_context(
        tmp_path / "runs", start_url=demo_store + DEMO_START_PATH, max_steps=20, screenshot_mode="every_step"
    )
    result = await run_goal(goal, ctx)
    assert result["terminal_type"] == "goal_satisfied"
    run_dir = Path(result["run_dir"])
    records = trace_records(run_dir)
    ends_at = [r["step"] for r in records if r.get("terminal_type")]
    assert ends_at and ends_at[0] < max(r["step"] for r in records)  # the step field goes back at the end

    report = write_report(run_dir)
    html = report.read_text(encoding="utf-8")
    timeline = html.split("<main>", 1)[1]
    assert password not in html  # not in the goal, the arguments, the plan steps, the notes or the raw trace
    assert MASK in timeline or "&lt;hidden&gt;" in timeline
    await page.goto(report.resolve().as_uri())

    anchors = await page.eval_on_selector_all("article.step", "els => els.map(e => e.id)")
    numbers = [int(re.fullmatch(r"step-(\d+)", a).group(1)) for a in anchors]
    assert numbers == sorted(set(numbers)) and numbers[-1] == max(r["step"] for r in records)
    steps = page.locator("article.step")
    assert "Run ended" in await steps.last.inner_text()
    for i in range(await steps.count() - 1):
        assert "Run ended" not in await steps.nth(i).inner_text()
    last_blocks = await steps.last.locator(".step-info > *").evaluate_all("els => els.map(e => e.className)")
    after_end = last_blocks[last_blocks.index("terminal") + 1 :]
    assert after_end in ([], ["timings"])  # nothing but the timings after the ending

    acted = [r["step"] for r in records if isinstance(r.get("result"), dict) and r["node"] == "execute"]
    for number in acted:
        text = await page.inner_text(f"#step-{number}")
        assert "Page before:" in text and "After the action:" in text
        labels = await page.eval_on_selector_all(
            f"#step-{number} .shot-label", "els => els.map(e => e.textContent)"
        )
        assert labels == ["Page before the action", "After the action"]
    [secret_step] = [
        r["step"]
        for r in records
        if r["node"] == "execute"
        and ((r.get("result") or {}).get("effect") or {}).get("target", {}).get("secret")
    ]
    typed = await page.inner_text(f"#step-{secret_step}")  # the password step: masked in its arguments
    assert password not in typed and ("text " + MASK in typed.replace("\n", " ") or "<hidden>" in typed)
    assert (run_dir / REPORT_NAME).is_file()
