"""A CLI run stopped while it waits for a slow model server closes cleanly: its own message and exit code,
no traceback and no asyncio noise ("Future exception was never retrieved", "Task was destroyed ...").

Ctrl-C at a terminal sends SIGINT to the whole foreground process group (Python, the Playwright driver and
Chromium); the test does the same with ``killpg``. SIGTERM goes to the Python process alone, as a service
manager sends it.
"""

from __future__ import annotations

import signal
import time

import pytest

from tests.durability.helpers import start_cli, stop_cli, wait_for
from tests.llm.fake_openai import FakeOpenAIServer, hang

NOISE = (
    "Traceback",
    "Future exception was never retrieved",
    "Task was destroyed",
    "Exception ignored",
    "Task exception was never retrieved",
    "Connection closed while reading from the driver",
    "RuntimeWarning",
)


@pytest.mark.parametrize(("stop", "code"), [(signal.SIGINT, 130), (signal.SIGTERM, 143)])
def test_a_run_stopped_during_a_model_call_prints_only_its_own_message(
    fake_openai: FakeOpenAIServer, site_url, tmp_path, stop, code
):
    fake_openai.responder = hang(60)
    proc = start_cli(
        "run", "what is the price of the kettle?", "--planner", "openai", "--model", "slow-model",
        "--base-url", fake_openai.base_url, "--start-url", site_url + "/index.html", "--plain",
        "--record-dir", str(tmp_path / "runs"), "--run-id", "slow", "--max-seconds", "120",
    )  # fmt: skip
    try:
        wait_for(lambda: fake_openai.requests or proc.poll() is not None, 90, "the model request")
        assert proc.poll() is None
        time.sleep(0.3)  # well inside the request
    finally:
        out, err, waited = stop_cli(proc, stop, group=stop == signal.SIGINT)  # SIGINT as Ctrl-C sends it
    assert proc.returncode == code, err[-3000:]
    assert waited < 15, waited  # the hanging request is abandoned, not waited for
    lines = [line for line in err.splitlines() if line.strip()]
    assert lines[0] == (
        f"model slow-model at {fake_openai.base_url}; structured output: auto (trying json_schema first)"
    )
    assert "The run is resumable; continue with: python -m agent resume slow" in err
    for noise in NOISE:
        assert noise not in err, err[-3000:]
