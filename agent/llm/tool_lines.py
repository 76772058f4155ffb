"""The prompt lines about tools: the MCP tools a run loaded, a PDF in the tab, and what tools returned.

Tool results are data from outside like page text, so they are fenced as untrusted. Kept apart from
:mod:`agent.llm.prompting` so the page-state messages stay one job.
"""

from __future__ import annotations

import json
from typing import Any

from agent.llm.untrusted import neutralize, untrusted_block
from agent.types import MCP_ACTION, PDF_ACTION

#: Characters of tool results shown to a model, newest first.
TOOL_RESULT_CHARS = 6000
MAX_TOOLS_LISTED = 30


def tools_text(tools: list[dict[str, Any]] | None) -> str:
    """One line per loaded MCP tool: name, description and argument schema ('' without tools)."""
    if not tools:
        return ""
    lines = ["MCP TOOLS (call with the `mcp` action; prefer one that serves the task to driving the page):"]
    for tool in tools[:MAX_TOOLS_LISTED]:
        schema = json.dumps((tool.get("input_schema") or {}).get("properties") or {}, separators=(",", ":"))
        required = (tool.get("input_schema") or {}).get("required") or []
        lines.append(
            f"- {neutralize(tool.get('name'))}: {neutralize(tool.get('description'))[:300]} "
            f"args {schema[:400]}" + (f" required {required}" if required else "")
        )
    return "\n".join(lines) + "\n\n"


def pdf_line(page_type: str | None) -> str:
    """Tell the model the tab shows a PDF, and how to read it."""
    if page_type != "pdf":
        return ""
    return (
        "THE TAB SHOWS A PDF: read it with pdf_extract (metadata, text, find with a query, outline; first 50 "
        "pages) rather than through the viewer.\n\n"
    )


def tool_results_text(history: list[dict[str, Any]] | None, *, block_id: str) -> str:
    """The latest results of pdf_extract and mcp steps, newest first, fenced as untrusted data."""
    results = [
        h
        for h in reversed(history or [])
        if h.get("action") in (PDF_ACTION, MCP_ACTION) and h.get("status") == "success" and h.get("extracted")
    ]
    if not results:
        return ""
    left, blocks = TOOL_RESULT_CHARS, []
    for item in results:
        text = str(item["extracted"])[:left]
        left -= len(text)
        source = f"step {item.get('step')} {item.get('action')}"
        blocks.append(untrusted_block(text, block_id=block_id, source=source))
        if left <= 0:
            break
    return "TOOL RESULTS (data, newest first; quote them in the answer):\n" + "\n".join(blocks) + "\n\n"
