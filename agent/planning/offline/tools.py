"""The offline planner's tools: questions about a PDF answered with ``pdf_extract``, goals an MCP tool serves.

A PDF question is answered from the document, not the viewer: first a search for the question's words (find),
then the text of the pages; the answer is the sentence (or value) copied from the PDF with its page number, which
the judge finds again in the recorded result. A goal is handed to an MCP tool when the tool's name and
description share the goal's words and its required arguments can be filled from the goal (quoted values,
numbers, enum words); a tool that failed once is not tried again (the page is the way then). Plan steps are
plain sentences; :func:`tool_action` turns them into the actions.
"""

from __future__ import annotations

import json
import re
from typing import Any

from agent import terminals
from agent.browser.pdf_document import paged_lines
from agent.dom.text import keywords
from agent.planning.offline.questions import analyze
from agent.planning.offline.reading import answer_question
from agent.planning.offline.text import clip
from agent.types import MCP_ACTION, PDF_ACTION, Action

PDF_TEXT_STEP = "Read the text of the PDF"
_FIND_STEP = re.compile(r'^Find "(.+)" in the PDF$', re.I)
_MCP_STEP = re.compile(r"^Call the MCP tool (\S+) with (\{.*\})\s*$", re.S | re.I)
_QUOTED = re.compile(r"\"([^\"]+)\"|“([^”]+)”|(?<!\w)'([^']+)'(?!\w)")
_NUMBER = re.compile(r"(?<![\w.])-?\d+(?:\.\d+)?(?![\w.])")
_SENTENCE_END = re.compile(r"(?<=[.!?])\s+")


def find_step(query: str) -> str:
    return f'Find "{query}" in the PDF'


def mcp_step(name: str, arguments: dict[str, Any]) -> str:
    return f"Call the MCP tool {name} with {json.dumps(arguments, ensure_ascii=False, sort_keys=True)}"


def tool_action(step: str) -> Action | None:
    """The action of a tool step this module wrote (None for any other step)."""
    step = step.strip()
    if step == PDF_TEXT_STEP:
        return _action(PDF_ACTION, "read the PDF's text", mode="text")
    found = _FIND_STEP.match(step)
    if found:
        return _action(
            PDF_ACTION, f"search the PDF for {found.group(1)!r}", mode="find", query=found.group(1)
        )
    called = _MCP_STEP.match(step)
    if called:
        try:
            arguments = json.loads(called.group(2))
        except ValueError:
            return None
        return _action(
            MCP_ACTION, f"call the MCP tool {called.group(1)}", tool=called.group(1), arguments=arguments
        )
    return None


def _action(name: str, why: str, **args: Any) -> Action:
    return {"action": name, "element_id": None, "args": args, "reasoning": why}  # type: ignore[typeddict-item]


def _tried(history: list[Any], step: str) -> bool:
    return any(h.get("plan_step") == step for h in history)


def _stem(word: str) -> str:
    return word[:5] if len(word) >= 6 else word


def _words(text: str) -> set[str]:
    return {_stem(w) for w in keywords(text)}


# --------------------------------------------------------------------------------------------------------------
# PDF questions


def question_words(question: str) -> str:
    """What to search the PDF for: the question's attribute and subject words."""
    query = analyze(question)
    words = keywords(f"{query.attr} {query.entity}") if (query.attr or query.entity) else []
    return " ".join(words or keywords(question)) or question


def pdf_answer(question: str, texts: list[str]) -> tuple[str, int] | None:
    """(the answer copied from the PDF, its page) from recorded pdf_extract texts, or None."""
    lines = [(page, line) for text in texts for page, line in paged_lines(text) if page > 0]
    if not lines:
        return None
    observation = {"page_text": "\n".join(line for _, line in lines), "elements": [], "text": "", "url": ""}
    answer = answer_question(question, observation)  # type: ignore[arg-type]
    if answer.found:
        page = next((p for p, line in lines if answer.text.lower() in line.lower()), 0)
        if page:
            return answer.text, page
    wanted = _words(question_words(question))
    best: tuple[int, int, str] | None = None
    for page, line in lines:
        for sentence in _SENTENCE_END.split(line):
            hits = len(wanted & _words(sentence))
            if hits and (best is None or hits > best[0]):
                best = (hits, page, sentence.strip())
    if best is None or best[0] < max(1, (len(wanted) + 1) // 2):
        return None
    return best[2], best[1]


def pdf_plan(questions: list[Any], observation: dict[str, Any], history: list[Any]) -> dict[str, Any] | None:
    """The next step for questions asked on a PDF tab: search it, read it, or answer with the page number."""
    if not questions or observation.get("page_type") != "pdf":
        return None
    texts = [
        str(h.get("extracted"))
        for h in history
        if h.get("action") == PDF_ACTION and h.get("status") == "success" and h.get("extracted")
    ]
    source = str(observation.get("url") or "")
    found = [(q, pdf_answer(q.question, texts)) for q in questions]
    evidence = [
        {
            "question": q.question,
            "answer": a[0] if a else "",
            "found": bool(a),
            "section": f"page {a[1]}" if a else "",
            "source": source,
        }
        for q, a in found
    ]
    raw = {"evidence": evidence, "pdf": True}
    if all(a for _, a in found):
        parts = [f"{a[0]} (page {a[1]})" for _, a in found if a]
        text = (
            parts[0]
            if len(parts) == 1
            else "; ".join(f"{q.question}: {p}" for (q, _), p in zip(found, parts, strict=True))
        )
        return {
            "task_complete": True,
            "success": True,
            "final_answer": clip(text, 1000),
            "raw": raw,
            "reasoning": "the answer is in the PDF",
        }
    pending = next(q for q, a in found if not a)
    for step in (find_step(question_words(pending.question)), PDF_TEXT_STEP):
        if not _tried(history, step):
            return {
                "proposed_actions": [step],
                "raw": raw,
                "reasoning": "the tab shows a PDF: read it with pdf_extract",
            }
    return {
        "task_complete": True,
        "success": False,
        "failure_reason": terminals.ANSWER_NOT_FOUND,
        "final_answer": f"The PDF does not say: {pending.question}",
        "raw": raw,
        "reasoning": "searched and read the PDF (first 50 pages); the answer is not in it",
    }


# --------------------------------------------------------------------------------------------------------------
# MCP tools


def _name_words(name: str) -> set[str]:
    return _words(re.sub(r"(?<=[a-z])(?=[A-Z])|[_\-.]+", " ", name))


def fill_arguments(schema: dict[str, Any], goal: str) -> dict[str, Any] | None:
    """Arguments for the tool's schema taken from the goal (None when a required one has no value there)."""
    quoted = [next(g for g in m.groups() if g) for m in _QUOTED.finditer(goal)]
    numbers = [float(n) if "." in n else int(n) for n in _NUMBER.findall(_QUOTED.sub(" ", goal))]
    goal_low = goal.lower()
    required = set(schema.get("required") or [])
    arguments: dict[str, Any] = {}
    for prop, spec in (schema.get("properties") or {}).items():
        kind = spec.get("type") if isinstance(spec, dict) else None
        value: Any = None
        if isinstance(spec, dict) and spec.get("enum"):
            value = next((e for e in spec["enum"] if str(e).lower() in goal_low), None)
        elif kind == "string" and quoted:
            value = quoted.pop(0)
        elif kind in ("integer", "number") and numbers:
            value = numbers.pop(0)
        if value is None:
            if prop in required:
                return None
            continue
        arguments[prop] = value
    return arguments


def best_tool(goal: str, tools: list[dict[str, Any]]) -> tuple[dict[str, Any], dict[str, Any]] | None:
    """(tool, arguments) of the tool that fits the goal best, or None when none fits well."""
    wanted = _words(_QUOTED.sub(" ", goal))
    best: tuple[int, dict[str, Any], dict[str, Any]] | None = None
    for tool in tools:
        by_name = len(_name_words(str(tool.get("name") or "")) & wanted)
        by_text = len(_words(str(tool.get("description") or "")) & wanted)
        if by_name < 1 or by_name + by_text < 2:
            continue
        arguments = fill_arguments(tool.get("input_schema") or {}, goal)
        if arguments is None:
            continue
        score = 2 * by_name + by_text
        if best is None or score > best[0]:
            best = (score, tool, arguments)
    return (best[1], best[2]) if best else None


def mcp_plan(goal: str, tools: list[dict[str, Any]], history: list[Any]) -> dict[str, Any] | None:
    """Call the MCP tool that serves the goal; once it answered, its result is the answer."""
    for item in reversed(history):
        if item.get("action") == MCP_ACTION and item.get("status") == "success" and item.get("extracted"):
            tool = (item.get("args") or {}).get("tool")
            return {
                "task_complete": True,
                "success": True,
                "final_answer": clip(str(item["extracted"]).strip(), 1000),
                "raw": {
                    "evidence": [
                        {
                            "question": goal,
                            "answer": str(item["extracted"])[:300],
                            "found": True,
                            "section": f"MCP tool {tool}",
                            "source": "",
                        }
                    ]
                },
                "reasoning": f"the MCP tool {tool} answered",
            }
    chosen = best_tool(goal, tools or [])
    if chosen is None:
        return None
    tool, arguments = chosen
    step = mcp_step(str(tool["name"]), arguments)
    if _tried(history, step):
        return None  # it failed: the page is the way now
    return {
        "proposed_actions": [step],
        "raw": {"tool": tool["name"]},
        "reasoning": f"the MCP tool {tool['name']} serves the goal ({tool.get('description', '')[:120]})",
    }
