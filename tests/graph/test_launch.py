"""Finding a browser: forced executable, Playwright-managed, system, else a clear error with install advice."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from agent.browser import launch
from agent.browser.launch import BrowserNotFoundError, resolve_executable


def test_forced_executable_wins(monkeypatch, tmp_path):
    fake = tmp_path / "chrome"
    fake.write_text("#!/bin/sh\n")
    fake.chmod(0o755)
    monkeypatch.setenv("WAYFINDER_BROWSER_EXECUTABLE", str(fake))
    assert resolve_executable() == str(fake)
    assert resolve_executable(str(fake)) == str(fake)


def test_forced_missing_executable_is_a_clear_error(monkeypatch):
    monkeypatch.delenv("WAYFINDER_BROWSER_EXECUTABLE", raising=False)
    with pytest.raises(BrowserNotFoundError, match="does not exist"):
        resolve_executable("/nowhere/chrome")


def test_playwright_managed_browser_is_found_in_its_cache(monkeypatch, tmp_path):
    chrome = tmp_path / "chromium-1234" / "chrome-linux" / "chrome"
    chrome.parent.mkdir(parents=True)
    chrome.write_text("#!/bin/sh\n")
    chrome.chmod(0o755)
    monkeypatch.setenv("PLAYWRIGHT_BROWSERS_PATH", str(tmp_path))
    monkeypatch.delenv("WAYFINDER_BROWSER_EXECUTABLE", raising=False)
    assert resolve_executable() == str(chrome)


def test_no_browser_anywhere_says_how_to_install_one(monkeypatch, tmp_path):
    monkeypatch.delenv("WAYFINDER_BROWSER_EXECUTABLE", raising=False)
    monkeypatch.setattr(launch, "playwright_managed_chromium", lambda: None)
    monkeypatch.setattr(launch, "system_chromium", lambda: None)
    with pytest.raises(BrowserNotFoundError) as err:
        resolve_executable()
    message = str(err.value)
    assert "playwright install chromium" in message and "apt-get install -y chromium" in message
    assert "WAYFINDER_BROWSER_EXECUTABLE" in message


def test_provision_reports_the_browser_it_will_use():
    proc = subprocess.run(
        [sys.executable, "-m", "agent.browser.provision"],
        capture_output=True,
        text=True,
        timeout=120,
        env={**os.environ},
    )
    assert proc.returncode == 0, proc.stderr
    path = proc.stdout.strip().removeprefix("browser: ")
    assert os.access(path, os.X_OK)
