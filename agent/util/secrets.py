"""Secrets: values the user lends a run that no model, record or screenshot may ever hold.

A secret is written ``NAME=VALUE`` or ``NAME=VALUE@domain`` (``--secret``, the ``secrets`` setting). Everything
the model reads and everything written to disk carries the placeholder ``<secret:NAME>`` instead of the value:

- :meth:`Secrets.mask` rewrites a text (the goal, page text, a message) and :meth:`Secrets.mask_data` a whole
  JSON-like value (an observation, an action result, a trace record), value by value;
- :meth:`Secrets.substitute` puts the values back into the text of one ``type`` action, at typing time only, and
  only when the page's host is one of the secret's domains; a placeholder for the wrong domain is refused.

The domain is what follows the **last** ``@``: a value that itself contains ``@`` (an e-mail address) must be
followed by its domain, or by ``@*`` (any domain). Without a domain a secret may be typed on any page.

The lowest layer holds this so the browser, dom, llm, records and report can all mask with it.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlsplit

#: How a secret appears wherever its value would: ``<secret:NAME>``.
PLACEHOLDER_RE = re.compile(r"<secret:([A-Za-z_][A-Za-z0-9_.-]{0,63})>")
_NAME_RE = re.compile(r"[A-Za-z_][A-Za-z0-9_.-]{0,63}")
_DOMAIN_RE = re.compile(r"\*|(?:\*\.)?[A-Za-z0-9\-.\[\]:]+")
#: Characters a value must have at least: masking a one-letter value would rewrite every text.
MIN_VALUE_CHARS = 3


def placeholder(name: str) -> str:
    return f"<secret:{name}>"


@dataclass(frozen=True)
class Secret:
    name: str
    value: str
    domains: tuple[str, ...] = ()  # empty: any page

    def allowed_on(self, url: str) -> bool:
        """True when this secret may be typed on the page at ``url`` (its host is one of the domains)."""
        if not self.domains or "*" in self.domains:
            return True
        host = (urlsplit(url).hostname or "").lower().rstrip(".")
        for domain in self.domains:
            bare = domain.lower().removeprefix("*.").strip("[]").rstrip(".")
            if host == bare or host.endswith("." + bare):
                return True
        return False


def parse_secret(entry: str) -> Secret:
    """``NAME=VALUE[@domain]`` as a :class:`Secret`, else ValueError saying what is wrong (never the value)."""
    name, sep, rest = str(entry).partition("=")
    name = name.strip()
    if not sep or not _NAME_RE.fullmatch(name):
        raise ValueError("a secret is written NAME=VALUE or NAME=VALUE@domain (NAME: letters, digits, _ . -)")
    value, at, domain = rest.rpartition("@")
    if not at:
        value, domain = rest, ""
    domain = domain.strip()
    if at and not _DOMAIN_RE.fullmatch(domain):
        raise ValueError(f"secret {name}: {domain!r} after the last '@' is not a domain (or *)")
    if len(value) < MIN_VALUE_CHARS:
        raise ValueError(f"secret {name}: the value must have at least {MIN_VALUE_CHARS} characters")
    if PLACEHOLDER_RE.search(value):
        raise ValueError(f"secret {name}: the value may not contain a <secret:...> placeholder")
    return Secret(name=name, value=value, domains=(domain,) if domain else ())


class Secrets:
    """The secrets of one run: masking, and substitution at typing time."""

    def __init__(self, items: Iterable[Secret] = ()) -> None:
        by_name: dict[str, Secret] = {}
        for item in items:
            by_name[item.name] = item
        self.by_name = by_name
        # Longest value first, so a value containing another is masked whole.
        self._ordered = sorted(by_name.values(), key=lambda s: len(s.value), reverse=True)

    @classmethod
    def from_entries(cls, entries: Iterable[str] | None) -> Secrets:
        return cls(parse_secret(entry) for entry in entries or ())

    def __bool__(self) -> bool:
        return bool(self.by_name)

    def mask(self, text: str) -> str:
        """``text`` with every secret value replaced by its placeholder."""
        if not self._ordered or not isinstance(text, str) or not text:
            return text
        for item in self._ordered:
            if item.value in text:
                text = text.replace(item.value, placeholder(item.name))
        return text

    def mask_data(self, value: Any) -> Any:
        """A copy of a JSON-like value (dicts, lists, strings) with every secret value masked."""
        if not self._ordered:
            return value
        if isinstance(value, str):
            return self.mask(value)
        if isinstance(value, dict):
            return {k: self.mask_data(v) for k, v in value.items()}
        if isinstance(value, list | tuple):
            return [self.mask_data(v) for v in value]
        return value

    def holds_value(self, text: str) -> bool:
        """True when ``text`` contains any secret value."""
        return any(item.value in text for item in self._ordered) if isinstance(text, str) else False

    def substitute(self, text: str, url: str) -> tuple[str, list[str], list[str]]:
        """(``text`` with the placeholders of secrets allowed on ``url`` replaced by their values, names used,
        names refused). Unknown names are refused too: a model cannot invent a secret."""
        used: list[str] = []
        refused: list[str] = []

        def swap(match: re.Match[str]) -> str:
            item = self.by_name.get(match.group(1))
            if item is None or not item.allowed_on(url):
                refused.append(match.group(1))
                return match.group(0)
            used.append(item.name)
            return item.value

        return PLACEHOLDER_RE.sub(swap, text), used, refused


def revealed_fields(
    secrets: Secrets, fields: list[dict[str, Any]], url: str
) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """(fields to type again on a resumed page, with their placeholders' values put back; fields whose
    secret may not be typed at ``url``). A field's ``value`` is what the run recorded: placeholders only."""
    ready: list[dict[str, Any]] = []
    refused: list[dict[str, Any]] = []
    for field in fields:
        value, _, not_here = secrets.substitute(str(field.get("value", "")), url)
        (refused if not_here else ready).append({**field, "value": value} if not not_here else field)
    return ready, refused


def placeholders_in(text: str) -> list[str]:
    """Names of the ``<secret:NAME>`` placeholders in ``text``."""
    return PLACEHOLDER_RE.findall(text) if isinstance(text, str) else []


#: The secrets of the runs this process drives, by run id, so records written far from the run's settings
#: (trace, result, report, status, in-flight note) are masked as well.
_BY_RUN: dict[str, Secrets] = {}


def register_run(run_id: str, secrets: Secrets) -> None:
    if secrets:
        _BY_RUN[run_id] = secrets


def secrets_of_run(run_id: str | None) -> Secrets:
    return _BY_RUN.get(run_id or "", _EMPTY)


_EMPTY = Secrets()
