"""Terminal names are spelled out only in agent/terminals.py: everything else uses its constants.

The walk reads every module under agent/ with ``ast`` and reports each string constant that is a terminal type
or reason. Two kinds of place may still spell such a word, because there it is a different thing:

- a key (dict key, subscript, ``.get``/``getattr`` argument) that names a settings field or a state field
  (``max_steps`` the setting, ``world_frozen`` the state flag), or a key of an outside API
  (:data:`EXTERNAL_KEYS`);
- the one definition of another vocabulary that shares the word (:data:`OTHER_MEANINGS`), which has its own
  constant that the rest of the code uses.
"""

from __future__ import annotations

import ast
import dataclasses
from pathlib import Path

from agent import terminals
from agent.context import Context
from agent.state import AgentState

AGENT_DIR = Path(__file__).resolve().parents[2] / "agent"
TERMINAL_NAMES = frozenset(terminals.TERMINAL_TYPES) | frozenset(terminals.TERMINAL_REASONS)

#: (module, word) -> what the word means there. Each is the single definition of its vocabulary.
OTHER_MEANINGS: dict[tuple[str, str], str] = {
    ("types.py", "navigation_blocked"): "an action's error type (ErrorType, ERROR_NAVIGATION_BLOCKED)",
    ("types.py", "model_error"): "why a backend call failed (BackendErrorKind, KIND_MODEL_ERROR)",
    ("types.py", "invalid_action"): "why a backend call failed (BackendErrorKind, KIND_INVALID_ACTION)",
    ("state.py", "world_frozen"): "what started loop mitigation (LoopTrigger, TRIGGER_WORLD_FROZEN)",
}

#: Keys of outside APIs that happen to be a reason's word -> what they are.
EXTERNAL_KEYS: dict[str, str] = {"recursion_limit": "LangGraph's run config key (the superstep bound)"}

#: Settings and state fields: as keys these words name a field, not a run's ending.
FIELD_NAMES = (
    frozenset(f.name for f in dataclasses.fields(Context))
    | AgentState.__required_keys__
    | (AgentState.__optional_keys__)
)

_KEY_CALLS = frozenset({"get", "pop", "setdefault", "getattr", "hasattr", "setattr"})


def _key_constants(tree: ast.AST) -> set[int]:
    """ids of the string constants that stand as keys: dict keys, subscripts, get/getattr's key argument."""
    keys: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Dict):
            keys.update(id(k) for k in node.keys if k is not None)
        elif isinstance(node, ast.Subscript):
            keys.add(id(node.slice))
        elif isinstance(node, ast.Call) and node.args:
            func = node.func
            name = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")
            if name in _KEY_CALLS:
                keys.add(id(node.args[1] if name.endswith("attr") and len(node.args) > 1 else node.args[0]))
    return keys


def terminal_names_in(source: str, module: str) -> list[tuple[int, str]]:
    """(line, word) of every terminal name spelled out in ``source`` outside the allowed places."""
    tree = ast.parse(source)
    keys = _key_constants(tree)
    found = []
    for node in ast.walk(tree):
        if not (isinstance(node, ast.Constant) and isinstance(node.value, str)):
            continue
        word = node.value
        if word not in TERMINAL_NAMES or (module, word) in OTHER_MEANINGS:
            continue
        if id(node) in keys and (word in FIELD_NAMES or word in EXTERNAL_KEYS):
            continue
        found.append((node.lineno, word))
    return sorted(found)


def test_terminal_names_only_in_terminals_module():
    offenders = []
    for path in sorted(AGENT_DIR.rglob("*.py")):
        module = path.relative_to(AGENT_DIR).as_posix()
        if module == "terminals.py":
            continue
        offenders += [
            f"agent/{module}:{line}: {word!r}" for line, word in terminal_names_in(path.read_text(), module)
        ]
    assert not offenders, "use the constants of agent.terminals instead of spelling these out:\n" + "\n".join(
        offenders
    )


def test_every_allowed_definition_is_still_there():
    """An exception nobody needs any more is removed from the table, not left to hide a new use."""
    for module, word in OTHER_MEANINGS:
        source = (AGENT_DIR / module).read_text()
        assert any(isinstance(n, ast.Constant) and n.value == word for n in ast.walk(ast.parse(source))), (
            f"{module} no longer defines {word!r}: drop it from OTHER_MEANINGS"
        )


def test_the_scan_catches_a_spelled_out_name_and_spares_field_keys():
    source = (
        "def f(state, result):\n"
        '    if result["terminal_type"] == "goal_satisfied":\n'
        '        return {"world_frozen": False, "terminal_reason": "max_steps"}\n'
        '    return state.get("max_steps"), {"loop_stuck": 1}\n'
    )
    assert terminal_names_in(source, "nodes/example.py") == [
        (2, "goal_satisfied"),
        (3, "max_steps"),
        (4, "loop_stuck"),
    ]
    assert terminal_names_in('KIND = "navigation_blocked"\n', "types.py") == []
    assert terminal_names_in('KIND = "navigation_blocked"\n', "nodes/safety.py") == [
        (1, "navigation_blocked")
    ]
