"""Lenient extraction of one JSON object from a model's text reply.

Weaker local models ignore ``response_format`` now and then: they wrap the object in prose or a ```json fence,
leave a trailing comma, prepend a ``<think>`` block, or add a stray character before or after. This module
recovers the object in those cases and reports clearly when there is none. It never evaluates anything.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterator
from typing import Any

_THINK_RE = re.compile(r"<(think|thinking|reasoning)>.*?</\1>", re.S | re.I)
_FENCE_RE = re.compile(r"```[ \t]*(?:json|JSON|javascript|js)?[ \t]*\n?(.*?)```", re.S)
_MAX_CANDIDATES = 20


class ReplyParseError(ValueError):
    """The reply holds no usable JSON object."""


def _outside_strings(text: str, quote_opens: Callable[[], bool] = lambda: True) -> Iterator[tuple[int, str]]:
    """(index, character) of every character outside JSON strings, escapes honoured. A quote starts a string
    only when ``quote_opens()`` says so at that point (brace matching ignores quotes outside any object)."""
    in_string = escaped = False
    for i, ch in enumerate(text):
        if in_string:
            if escaped:
                escaped = False
            elif ch == "\\":
                escaped = True
            elif ch == '"':
                in_string = False
        elif ch == '"' and quote_opens():
            in_string = True
        else:
            yield i, ch


def _strip_trailing_commas(text: str) -> str:
    """Drop commas that directly precede ``}`` or ``]`` outside strings."""
    drop = {i for i, ch in _outside_strings(text) if ch == "," and text[i + 1 :].lstrip()[:1] in ("}", "]")}
    return "".join(ch for i, ch in enumerate(text) if i not in drop)


def _balanced_objects(text: str) -> list[str]:
    """Every top-level ``{...}`` span in ``text`` (string-aware brace matching), in order."""
    spans: list[str] = []
    depth = 0
    start = -1
    for i, ch in _outside_strings(text, lambda: depth > 0):  # noqa: B023 - reads the current depth on purpose
        if ch == "{":
            if depth == 0:
                start = i
            depth += 1
        elif ch == "}" and depth > 0:
            depth -= 1
            if depth == 0:
                spans.append(text[start : i + 1])
                if len(spans) >= _MAX_CANDIDATES:
                    break
    return spans


def _loads_object(text: str) -> dict[str, Any] | None:
    for candidate in (text, _strip_trailing_commas(text)):
        try:
            value = json.loads(candidate)
        except (json.JSONDecodeError, RecursionError):
            continue
        if isinstance(value, dict):
            return value
    return None


def _candidates(text: str) -> list[str]:
    """Texts that may be the object, most likely first: the whole reply, fenced blocks, brace spans."""
    found = [text.strip()]
    found += [m.group(1).strip() for m in _FENCE_RE.finditer(text)]
    stripped = text.strip()
    if len(stripped) > 2:
        found += [stripped[1:], stripped[:-1], stripped[1:-1]]  # one stray leading/trailing character
    found += _balanced_objects(text)
    seen: set[str] = set()
    return [c for c in found if c and not (c in seen or seen.add(c))]


def parse_json_object(text: str | None) -> dict[str, Any]:
    """The JSON object in ``text``; raises :class:`ReplyParseError` saying why there is none."""
    if text is None or not text.strip():
        raise ReplyParseError("the reply was empty")
    cleaned = _THINK_RE.sub("", text)
    for candidate in _candidates(cleaned):
        value = _loads_object(candidate)
        if value is not None:
            return value
    if "{" not in cleaned:
        raise ReplyParseError("the reply contained no JSON object")
    try:
        json.loads(cleaned.strip())
    except json.JSONDecodeError as exc:
        raise ReplyParseError(
            f"the reply is not valid JSON ({exc.msg} at line {exc.lineno} column {exc.colno})"
        ) from None
    raise ReplyParseError("the reply's JSON is not an object")


def message_text(content: Any) -> str:
    """The text of a message's content, whether a string or a list of content blocks."""
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        parts = []
        for block in content:
            if isinstance(block, str):
                parts.append(block)
            elif isinstance(block, dict) and isinstance(block.get("text"), str):
                parts.append(block["text"])
        return "".join(parts)
    return ""
