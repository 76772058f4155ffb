"""Answer evidence from what a tool returned: a quote found in a recorded ``pdf_extract`` or ``mcp`` result.

A PDF shown in the viewer has no page text to quote, and an MCP tool's answer never was on a page; their results
are recorded in the step history, so an answer copied from them is proven there: the evidence names the PDF page
(from the result's ``[page N]`` marks) or the tool. A page suffix the planner adds ("(page 2)") is not part of
the quote.
"""

from __future__ import annotations

import re
from typing import Any

from agent.browser.pdf_document import paged_lines
from agent.planning.verify.answers import answer_for, quote_candidates
from agent.planning.verify.parts import GoalPart
from agent.types import MCP_ACTION, PDF_ACTION

_PAGE_SUFFIX = re.compile(r"\s*\((?:pdf\s+)?page\s+\d+(?:\s+of the pdf)?\)", re.I)


def _norm(text: Any) -> str:
    return " ".join(str(text or "").lower().split())


def tool_answer_evidence(
    part: GoalPart, questions: list[GoalPart], answer: str, history: list[dict[str, Any]]
) -> dict[str, Any] | None:
    """Evidence that the answer to ``part`` was copied from a tool's recorded result, or None."""
    text = _PAGE_SUFFIX.sub("", answer_for(part, questions, answer)).strip()
    wanted = quote_candidates(part, text) if text else []
    results = [
        h
        for h in reversed(history)
        if h.get("action") in (PDF_ACTION, MCP_ACTION) and h.get("status") == "success" and h.get("extracted")
    ]
    for quote in wanted:
        for item in results:
            extracted = str(item["extracted"])
            if item.get("action") == PDF_ACTION:
                page = next((p for p, line in paged_lines(extracted) if _norm(quote) in _norm(line)), None)
                element = f"PDF page {page}" if page else ""
            else:
                page = None
                element = (
                    f"MCP tool {(item.get('args') or {}).get('tool')}"
                    if _norm(quote) in _norm(extracted)
                    else ""
                )
            if element:
                return {
                    "part": part.get("id", ""),
                    "kind": "answer",
                    "step": int(item.get("step") or 0),
                    "url": str(item.get("url") or ""),
                    "element": element,
                    "quote": quote[:300],
                }
    return None
