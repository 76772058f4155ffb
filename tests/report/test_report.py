"""The run report: rendered from a synthetic run dir and checked in real Chromium from file://.

The screenshot is a real Chromium capture (with a Set-of-Mark style badge drawn on the page), because the
report's job is to show exactly those images; the injection payloads stand in for untrusted page text and model
output.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from agent.report import REPORT_NAME, render_report, write_report

SCRIPT_PAYLOAD = "<script>window.__pwned = 'script'</script>"
IMG_PAYLOAD = "<img src=x onerror=\"window.__pwned = 'img'\">"
GOAL = "log in as demo & tell me the <b>total</b> of my last order"

MARKED_PAGE = """
<html><body style="margin:0;font:16px sans-serif">
<button style="margin:20px;padding:8px 16px;position:relative">Sign in
<span style="position:absolute;top:-8px;left:-8px;background:#e11;color:#fff;font-size:11px;padding:1px 4px">7</span>
</button></body></html>
"""


async def _make_screenshot(page, path: Path) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    await page.set_content(MARKED_PAGE)
    await page.screenshot(path=str(path), clip={"x": 0, "y": 0, "width": 200, "height": 80})


def _record(seq: int, node: str, step: int, **extra) -> dict:
    base = {
        "run_id": "r-test",
        "seq": seq,
        "ts": 1_700_000_000.0 + seq,
        "node": node,
        "stage": "locate",
        "step": step,
        "url": "http://127.0.0.1:8000/login.html",
        "plan_step": None,
        "action": None,
        "result": None,
        "node_ms": 10 * seq,
        "screenshot": None,
        "note": "",
        "terminal_type": None,
        "terminal_reason": None,
        "usage": {},
    }
    base.update(extra)
    return base


def _result(action: str, element_id, args: dict, *, status="success", message="", **extra) -> dict:
    out = {
        "action": action,
        "args": args,
        "element_id": element_id,
        "status": status,
        "error_type": "none" if status == "success" else "element_not_found",
        "message": message,
        "execution_time_ms": 123,
        "events": [],
        "fallback": None,
        "url_before": "http://127.0.0.1:8000/login.html",
        "url_after": "http://127.0.0.1:8000/login.html",
    }
    out.update(extra)
    return out


def _write_run(run_dir: Path, records: list[dict], result: dict | None, *, tail: str = "") -> None:
    run_dir.mkdir(parents=True, exist_ok=True)
    text = "".join(json.dumps(r) + "\n" for r in records) + tail
    (run_dir / "trace.jsonl").write_text(text, encoding="utf-8")
    if result is not None:
        (run_dir / "result.json").write_text(json.dumps(result), encoding="utf-8")


def _full_run(run_dir: Path) -> None:
    type_action = {"action": "type", "element_id": 4, "args": {"text": "demo"}, "reasoning": "username field"}
    click_action = {"action": "click", "element_id": 7, "args": {}, "reasoning": "submit the form"}
    records = [
        _record(1, "observe", 0, screenshot="screenshots/step-0.png"),
        _record(2, "planner", 0, plan_step="Type demo into the username field", usage={"total_tokens": 50}),
        _record(3, "translate", 0, plan_step="Type demo into the username field", action=type_action),
        _record(
            4,
            "act",
            1,
            plan_step="Type demo into the username field",
            action=type_action,
            result=_result("type", 4, {"text": "demo"}, message=SCRIPT_PAYLOAD + " typed " + IMG_PAYLOAD),
        ),
        _record(5, "observe", 1, screenshot="screenshots/step-1.png"),
        _record(
            6,
            "act",
            2,
            plan_step="Click Sign in",
            action=click_action,
            result=_result(
                "click",
                7,
                {},
                fallback="js_click",
                message="clicked",
                url_after="javascript:alert(1)",
                events=[
                    {"type": "tab_opened", "tab_id": "t2", "url": "http://127.0.0.1:8000/help.html"},
                    {"type": "dialog", "dialog_type": "alert", "message": "Hi </li><script>x()</script>"},
                    {"type": "download", "filename": "receipt.pdf"},
                ],
            ),
        ),
        _record(
            7,
            "act",
            3,
            plan_step="Open the account page",
            action={"action": "click", "element_id": 99, "args": {}},
            result=_result("click", 99, {}, status="failure", message="no element 99"),
        ),
        _record(
            8,
            "finish",
            3,
            terminal_type="goal_satisfied",
            terminal_reason="answer_found",
            note="answer grounded in page text",
        ),
    ]
    result = {
        "run_id": "r-test",
        "goal": GOAL,
        "terminal_type": "goal_satisfied",
        "terminal_reason": "answer_found",
        "final_answer": "Your last order total is $59.33 " + SCRIPT_PAYLOAD,
        "steps": 3,
        "url": "http://127.0.0.1:8000/account.html",
        "run_dir": str(run_dir),
        "elapsed_s": 12.5,
        "usage": {
            "input_tokens": 1000,
            "output_tokens": 234,
            "total_tokens": 1234,
            "calls": 3,
            "cost_usd": 0.0021,
        },
        "started_at": 1_700_000_000.0,
    }
    _write_run(run_dir, records, result)


async def _shown_screenshots(page, src_prefix: str, count: int):
    """The report's screenshots: ``count`` of them, each from ``src_prefix`` and actually decoded."""
    imgs = page.locator("img.shot-img")
    assert await imgs.count() == count
    for i in range(count):
        assert (await imgs.nth(i).get_attribute("src")).startswith(src_prefix)
        assert await imgs.nth(i).evaluate("img => img.complete && img.naturalWidth > 0")
    return imgs


async def _open(page, path: Path) -> None:
    await page.goto(path.resolve().as_uri())
    await page.wait_for_load_state("load")


async def test_report_renders_in_chromium(page, tmp_path):
    run_dir = tmp_path / "runs" / "r-test"
    await _make_screenshot(page, run_dir / "screenshots" / "step-0.png")
    await _make_screenshot(page, run_dir / "screenshots" / "step-1.png")
    _full_run(run_dir)

    report = write_report(run_dir)
    assert report == run_dir / REPORT_NAME and report.is_file()

    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    await _open(page, report)

    assert await page.inner_text("h1.goal") == GOAL
    badge = page.locator(".outcome .badge")
    assert (await badge.inner_text()).strip() == "goal satisfied"
    assert await badge.get_attribute("data-terminal") == "goal_satisfied"
    assert "answer_found" in await page.inner_text(".outcome")
    assert "$59.33" in await page.inner_text(".answer")
    totals = await page.inner_text(".totals")
    for expected in ("3", "12.5 s", "1,234", "$0.0021"):
        assert expected in totals

    steps = page.locator("article.step")
    assert await steps.count() == 4  # step 0 (observe/plan), 1, 2, 3
    assert "type" in await page.inner_text("#step-1 .action")
    assert "#4" in await page.inner_text("#step-1 .action")
    step2 = await page.inner_text("#step-2")
    assert "click" in step2 and "#7" in step2 and "js_click" in step2
    assert "tab_opened" in step2 and "dialog" in step2 and "download" in step2 and "receipt.pdf" in step2
    step3 = await page.inner_text("#step-3")
    assert "failure" in step3 and "element_not_found" in step3 and "no element 99" in step3
    assert "Run ended" in step3
    timings = await page.inner_text("#step-0 .timings")
    assert "observe" in timings and "planner" in timings and "ms" in timings

    # Screenshots are embedded and actually decode.
    imgs = await _shown_screenshots(page, "data:image/png;base64,", 2)

    # Clicking a screenshot enlarges it (CSS-only), clicking again shrinks it.
    first = imgs.first
    small = await first.evaluate("img => img.getBoundingClientRect().width")
    await first.click()
    big = await first.evaluate("img => getComputedStyle(img).position")
    assert big == "fixed"
    await first.click()
    assert await first.evaluate("img => img.getBoundingClientRect().width") == pytest.approx(small, abs=1)

    # Untrusted text is shown as text, never executed or parsed into elements.
    assert await page.evaluate("() => window.__pwned") is None
    assert await page.evaluate("() => document.querySelectorAll('script').length") == 0
    assert await page.evaluate("() => document.querySelectorAll('img:not(.shot-img)').length") == 0
    message = await page.inner_text("#step-1 .message")
    assert SCRIPT_PAYLOAD in message and IMG_PAYLOAD in message
    assert await page.evaluate("() => document.querySelectorAll('a[href^=\"javascript:\"]').length") == 0
    assert "javascript:alert(1)" in step2  # shown as text
    assert not errors

    # Raw trace table is collapsed by default and has one row per record.
    details = page.locator("#raw-trace")
    assert await details.get_attribute("open") is None
    await page.click("#raw-trace > summary")
    assert await details.get_attribute("open") is not None
    assert await page.locator("table.raw tbody tr").count() == 8


async def test_large_screenshots_are_linked_relative(page, tmp_path):
    run_dir = tmp_path / "run dir with spaces"
    await _make_screenshot(page, run_dir / "screenshots" / "step-0.png")
    await _make_screenshot(page, run_dir / "screenshots" / "step-1.png")
    _full_run(run_dir)

    report = write_report(run_dir, embed_limit_bytes=0)
    await _open(page, report)
    await _shown_screenshots(page, "screenshots/", 2)


def test_escaping_in_source(tmp_path):
    run_dir = tmp_path / "r"
    _full_run(run_dir)
    text = render_report(run_dir)
    assert SCRIPT_PAYLOAD not in text
    assert IMG_PAYLOAD not in text
    assert "<script" not in text.lower()
    assert "&lt;script&gt;window.__pwned" in text
    assert "<b>total</b>" not in text
    assert 'href="javascript:' not in text
    # Missing screenshots are reported, not rendered as broken images.
    assert "Screenshot not found: screenshots/step-0.png" in text


def test_screenshot_outside_run_dir_is_not_embedded(tmp_path):
    secret = tmp_path / "secret.png"
    secret.write_bytes(b"\x89PNG\r\n\x1a\nnot-really")
    run_dir = tmp_path / "r"
    _write_run(run_dir, [_record(1, "observe", 0, screenshot="../secret.png")], None)
    text = render_report(run_dir)
    assert "data:image" not in text
    assert "Screenshot not found: ../secret.png" in text


async def test_missing_result_and_truncated_trace(page, tmp_path):
    run_dir = tmp_path / "r"
    records = [
        _record(1, "observe", 0, usage={"total_tokens": 10}),
        _record(
            2,
            "act",
            1,
            action={"action": "navigate", "element_id": None, "args": {"url": "http://127.0.0.1/x"}},
            result=_result("navigate", None, {"url": "http://127.0.0.1/x"}),
            usage={"total_tokens": 5},
        ),
    ]
    _write_run(run_dir, records, None, tail='{"run_id": "r-test", "seq": 3, "node": "obs')
    report = write_report(run_dir)
    await _open(page, report)
    problems = await page.inner_text(".problems")
    assert "result.json is missing" in problems
    assert "truncated" in problems and "line 3" in problems
    assert "Goal unknown" in await page.inner_text("h1")
    assert (await page.inner_text(".outcome .badge")).strip() == "no ending recorded"
    totals = await page.inner_text(".totals")
    assert "15" in totals and "from trace" in totals
    assert "navigate" in await page.inner_text("#step-1")
    assert await page.locator("table.raw tbody tr").count() == 2


async def test_empty_and_missing_trace(page, tmp_path):
    empty = tmp_path / "empty"
    _write_run(
        empty,
        [],
        {
            "run_id": "e",
            "goal": "do nothing",
            "terminal_type": "goal_failed",
            "terminal_reason": "invalid_goal",
            "final_answer": None,
            "steps": 0,
        },
    )
    await _open(page, write_report(empty))
    assert await page.inner_text("h1.goal") == "do nothing"
    assert (await page.inner_text(".outcome .badge")).strip() == "goal failed"
    assert "no trace records" in await page.inner_text(".problems")
    assert "No steps were recorded" in await page.inner_text(".timeline")

    nothing = tmp_path / "nothing"
    nothing.mkdir()
    await _open(page, write_report(nothing))
    problems = await page.inner_text(".problems")
    assert "trace.jsonl is missing" in problems and "result.json is missing" in problems


def test_malformed_fields_do_not_crash(tmp_path):
    run_dir = tmp_path / "r"
    records = [
        {"seq": "x", "step": "two", "action": "click", "result": ["not", "a", "dict"], "node_ms": "slow"},
        {"seq": 2, "step": 1, "action": {"action": "click", "args": "nope"}, "result": {"events": {"a": 1}}},
        {"seq": 3, "step": 1, "screenshot": 42, "usage": {"total_tokens": "many"}, "ts": "yesterday"},
    ]
    _write_run(run_dir, records, None, tail="[1, 2, 3]\n\n")
    (run_dir / "result.json").write_text("[]", encoding="utf-8")
    text = render_report(run_dir)
    assert "<html" in text and "</html>" in text
    assert "not a JSON object" in text
    assert "invalid line" in text or "truncated" in text


def test_terminal_from_trace_when_result_missing(tmp_path):
    run_dir = tmp_path / "r"
    _write_run(
        run_dir, [_record(1, "finish", 2, terminal_type="loop_stuck", terminal_reason="world_frozen")], None
    )
    text = render_report(run_dir)
    assert 'class="badge badge-loop_stuck"' in text and "world_frozen" in text


def test_missing_run_dir_raises_and_cli_writes_report(tmp_path, capsys):
    from agent.report import main

    with pytest.raises(NotADirectoryError):
        write_report(tmp_path / "no-such-run")
    run_dir = tmp_path / "r"
    _full_run(run_dir)
    assert main([str(run_dir)]) == 0
    assert capsys.readouterr().out.strip() == str(run_dir / REPORT_NAME)
    assert (run_dir / REPORT_NAME).read_text(encoding="utf-8").startswith("<!doctype html>")


def test_traceback_note_collapses_and_ending_shown_once(tmp_path):
    run_dir = tmp_path / "r"
    trace = 'Traceback (most recent call last):\n  File "x.py", line 1\nImportError: <boom>'
    records = [
        _record(1, "planner", 0, note=trace, terminal_type="goal_failed", terminal_reason="node_error"),
        _record(
            2,
            "finalize",
            0,
            note="goal_failed/node_error",
            terminal_type="goal_failed",
            terminal_reason="node_error",
        ),
    ]
    _write_run(run_dir, records, None)
    text = render_report(run_dir)
    assert (
        '<details class="note"><summary><span class="label">planner</span> ImportError: &lt;boom&gt;' in text
    )
    assert text.count("Run ended:") == 1


def test_a_password_typed_into_a_field_is_masked_even_when_the_typing_failed(tmp_path):
    run_dir = tmp_path / "r"
    action = {"action": "type", "element_id": 5, "args": {"text": "hunter22"}, "reasoning": "the PIN box"}
    records = [
        _record(1, "translate", 1, action=action, note='type textbox "PIN"', plan_step='Type "hunter22"'),
        _record(
            2,
            "execute",
            1,
            action=action,
            result=_result("type", 5, {"text": "hunter22"}, status="failure", message="hunter22 rejected"),
        ),
    ]
    _write_run(run_dir, records, {"goal": "sign in with PIN hunter22", "terminal_type": "goal_failed"})
    text = render_report(run_dir)
    assert "hunter22" not in text and text.count("••••••") >= 5
