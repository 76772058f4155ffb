"""What the model reads of one observation: the one rendering both the prompts and ``observe`` use.

The planner's request holds the observation's element text and, after it, the page's visible text (for
``<pre>``, JSON and plain-text documents that text is the page); the executor's holds the element text alone.
:func:`model_sections` returns those parts, bounded the way the prompt bounds them, so ``python -m agent
observe`` prints exactly the words the model is given (the prompt builder then wraps each part in its
untrusted-content block).
"""

from __future__ import annotations

from typing import Any

#: Most characters of the page's visible text a planner request carries.
PAGE_TEXT_CHARS = 6000
#: Most characters of an observation's element text a request carries (the observation bounds it lower).
OBSERVATION_CHARS = 24000

#: Source names of the parts, as the prompt's blocks call them.
ELEMENTS_SOURCE = "page_elements"
PAGE_TEXT_SOURCE = "page_text"


def bounded(text: str, limit: int) -> str:
    """``text`` cut to ``limit`` characters, saying how many were cut."""
    return text if len(text) <= limit else text[:limit] + f"\n... ({len(text) - limit} more characters cut)"


def model_sections(
    observation: dict[str, Any] | None, *, include_page_text: bool = True
) -> list[tuple[str, str]]:
    """``[(source, text), ...]``: the element text, then (for the planner) the page text, as the model reads them."""
    obs = observation or {}
    sections = [(ELEMENTS_SOURCE, bounded(str(obs.get("text") or ""), OBSERVATION_CHARS))]
    page_text = str(obs.get("page_text") or "")
    if include_page_text and page_text:
        sections.append((PAGE_TEXT_SOURCE, bounded(page_text, PAGE_TEXT_CHARS)))
    return sections


def render_model_view(observation: dict[str, Any] | None, *, include_page_text: bool = True) -> str:
    """The parts of :func:`model_sections` as one text, each after a ``--- source ---`` line but the first."""
    out: list[str] = []
    for source, text in model_sections(observation, include_page_text=include_page_text):
        out.append(text if not out else f"--- {source} (the planner reads this too) ---\n{text}")
    return "\n".join(out)
