"""Fixtures of the CLI tests (shared with the durability tests: the click-counting site, a record dir)."""

from __future__ import annotations

from tests.durability.conftest import click_site, record_dir  # noqa: F401 - fixtures, requested by name
