"""The planner and executor system prompts: bundled Markdown files, overridable per run.

``prompts_dir`` (the setting of the same name) may hold ``planner.md``, ``executor.md`` or ``judge.md``; a file missing
there falls back to the bundled one, so a user can override just one prompt. Templates use ``{{name}}``
placeholders (plain replacement, so braces in JSON examples need no escaping).
"""

from __future__ import annotations

import re
from pathlib import Path

BUNDLED_DIR = Path(__file__).resolve().parent
PROMPT_NAMES = ("planner", "executor", "judge")

#: What each action does and the arguments it takes, as both prompts describe them.
ACTION_DESCRIPTIONS: dict[str, str] = {
    "click": "click an element (element_id).",
    "type": 'type into an input (element_id); args {"text", "submit": press Enter after, "clear": default true}.',
    "select_option": 'choose an option of a <select> (element_id); args {"option": label or value}.',
    "scroll": 'scroll the page (element_id null) or an element; args {"direction": "up"|"down", "amount"}.',
    "press_key": 'press a key; args {"key": "Enter"|"Escape"|"Tab"|"ArrowDown"|...}.',
    "navigate": 'open a URL; args {"url": full https:// URL}.',
    "search": 'web search when the page has no search box; args {"query"}.',
    "go_back": "go back in the tab's history.",
    "go_forward": "go forward in the tab's history.",
    "switch_tab": 'make another tab active; args {"tab_id": e.g. "t2"}.',
    "screenshot": "save a screenshot of the page.",
    "wait": 'wait for the page to settle; args {"seconds": at most 5}.',
    "pdf_extract": 'read the PDF the tab shows (first 50 pages); args {"mode": "metadata"|"text"|"find"|"outline"|'
    '"analysis", "pages": [3, 5] or "2-4", "query" (find), "task" (analysis: needs a model)}.',
    "mcp": 'call a tool listed under MCP TOOLS; args {"tool": its name, "arguments": an object fitting its schema}.',
    "done": 'finish the task; args {"answer", "success": default true}.',
    "ask_user": 'ask the user (only when allowed); args {"question"}.',
}

#: The offline planner's page moves, offered as actions (``agent.types.ABILITY_ACTIONS``): the planner proposes
#: them as steps, the executor chooses them with ``args.subject``, the backend grounds them itself.
ABILITIES_LINE = '`scan`, `expand`, `find_in_page`, `load_more`, `follow_link`: the agent\'s own page moves; args {"subject"}.'

_PLACEHOLDER_RE = re.compile(r"\{\{\s*([a-z_]+)\s*\}\}")


def action_names(names: list[str] | tuple[str, ...] | None = None) -> str:
    """The actions as one line of names (``click``, ``type`` ...): what the planner needs, in few tokens."""
    return ", ".join(f"`{name}`" for name in ACTION_DESCRIPTIONS if names is None or name in names)


def action_list(names: list[str] | tuple[str, ...] | None = None) -> str:
    """Markdown bullet list describing ``names`` (all actions by default), in a stable order."""
    chosen = [n for n in ACTION_DESCRIPTIONS if names is None or n in names]
    return "\n".join(f"- `{name}`: {ACTION_DESCRIPTIONS[name]}" for name in chosen)


#: path -> (modification time in ns, text): a prompt file is read again only after it changed.
_cache: dict[Path, tuple[int, str]] = {}


def _read(path: Path) -> str:
    mtime = path.stat().st_mtime_ns
    cached = _cache.get(path)
    if cached is not None and cached[0] == mtime:
        return cached[1]
    text = path.read_text(encoding="utf-8")
    _cache[path] = (mtime, text)
    return text


def load_prompt(name: str, prompts_dir: str | Path | None = None) -> str:
    """The raw template ``<name>.md`` from ``prompts_dir`` when it has one, else the bundled file."""
    if name not in PROMPT_NAMES:
        raise ValueError(f"unknown prompt {name!r}; expected one of {', '.join(PROMPT_NAMES)}")
    if prompts_dir:
        override = Path(prompts_dir).expanduser() / f"{name}.md"
        if override.is_file():
            return _read(override)
    return _read(BUNDLED_DIR / f"{name}.md")


def render(template: str, **values: str) -> str:
    """Replace ``{{key}}`` placeholders; unknown placeholders are left as they are."""
    return _PLACEHOLDER_RE.sub(lambda m: values.get(m.group(1), m.group(0)), template)


def system_prompt(name: str, prompts_dir: str | Path | None = None) -> str:
    """The rendered system prompt for ``planner`` or ``executor`` (``{{actions}}``: each action with its
    arguments; ``{{action_names}}``: their names only; ``{{abilities}}``: the page moves)."""
    return render(
        load_prompt(name, prompts_dir),
        actions=action_list(),
        action_names=action_names(),
        abilities=ABILITIES_LINE,
    )
