"""Token usage and cost: per model reply, summed per backend call, summed again by the graph per node.

Counts come only from the server's ``usage`` figures (``AIMessage.usage_metadata``); nothing here tokenizes
text locally (tiktoken would download its tables).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from agent.types import Usage

_COUNT_KEYS = ("input_tokens", "output_tokens", "total_tokens", "calls")
#: Counted only once a call has sent an image: screenshots sent and their estimated tokens (part of input_tokens).
_IMAGE_KEYS = ("images", "image_tokens")


def empty_usage() -> Usage:
    return Usage(input_tokens=0, output_tokens=0, total_tokens=0, calls=0, cost_usd=0.0)


def cost_usd(
    input_tokens: int, output_tokens: int, price_per_1k_input: float, price_per_1k_output: float
) -> float:
    return input_tokens / 1000.0 * price_per_1k_input + output_tokens / 1000.0 * price_per_1k_output


def usage_from_metadata(
    metadata: Mapping[str, Any] | None, *, price_per_1k_input: float = 0.0, price_per_1k_output: float = 0.0
) -> Usage:
    """Usage of one model reply from its ``usage_metadata`` (None when the server sent no usage)."""
    meta = metadata or {}
    input_tokens = int(meta.get("input_tokens") or 0)
    output_tokens = int(meta.get("output_tokens") or 0)
    total = int(meta.get("total_tokens") or (input_tokens + output_tokens))
    return Usage(
        input_tokens=input_tokens,
        output_tokens=output_tokens,
        total_tokens=total,
        calls=1,
        cost_usd=cost_usd(input_tokens, output_tokens, price_per_1k_input, price_per_1k_output),
    )


def add_usage(a: Mapping[str, Any] | None, b: Mapping[str, Any] | None) -> Usage:
    """The sum of two usages (missing keys count as zero)."""
    a = a or {}
    b = b or {}
    total = empty_usage()
    for key in _COUNT_KEYS:
        total[key] = int(a.get(key) or 0) + int(b.get(key) or 0)  # type: ignore[literal-required]
    total["cost_usd"] = float(a.get("cost_usd") or 0.0) + float(b.get("cost_usd") or 0.0)
    for key in _IMAGE_KEYS:
        if key in a or key in b:
            total[key] = int(a.get(key) or 0) + int(b.get(key) or 0)  # type: ignore[literal-required]
    return total


def sum_usage(usages: Iterable[Mapping[str, Any] | None]) -> Usage:
    total = empty_usage()
    for usage in usages:
        total = add_usage(total, usage)
    return total
