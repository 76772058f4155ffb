"""Imports flow one way: a module may import its own layer and the layers below it, never one above.

The walk reads every module under agent/ with ``ast`` (imports inside functions count too: a lazy import is
still a dependency) and checks each ``agent.*`` import against :data:`LAYERS`, the one place the layering is
written down (docs/ARCHITECTURE.md describes it).
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

AGENT_DIR = Path(__file__).resolve().parents[2] / "agent"

#: Lowest first, one line a layer: its name, then its modules under agent/. A module belongs to the layer of
#: its longest matching prefix; it may import from its own layer and any layer listed before it.
_LAYER_TABLE = """
base:                        types terminals util goals stages schemas prompts
browser:                     browser tools
dom:                         dom
settings, rules and records: context config settings_rules settings_checks safety evidence records trace_file report
llm:                         llm
planning:                    planning
run services:                runtime state
nodes:                       nodes
graph:                       graph
app:                         __init__ __main__ runner checkpointer cli cli_output cli_prompter cli_settings display demo batch batch_tasks batch_display
"""
LAYERS: tuple[tuple[str, tuple[str, ...]], ...] = tuple(
    (name, tuple("agent" if m == "__init__" else f"agent.{m}" for m in modules.split()))
    for name, _, modules in (line.partition(":") for line in _LAYER_TABLE.strip().splitlines())
)


#: Packages only some modules may reach into, even from above: the nodes are reached only through the graph
#: (the runner drives the graph, it does not call nodes), and the concrete planning backends only through
#: the per-run Runtime (nodes see the Backend protocol in agent.planning.base).
SEALED: dict[str, tuple[str, ...]] = {
    "agent.nodes": ("agent.nodes", "agent.graph"),
    "agent.planning.llm": ("agent.planning", "agent.runtime"),
    "agent.planning.offline": ("agent.planning", "agent.runtime"),
}

#: Known wrong-way imports still being removed, as (importer, imported). Empty now: keep it so (fix the import,
#: do not list it here).
ALLOWED: frozenset[tuple[str, str]] = frozenset()


def module_name(path: Path) -> str:
    parts = path.relative_to(AGENT_DIR.parent).with_suffix("").parts
    if parts[-1] == "__init__":
        parts = parts[:-1]
    return ".".join(parts)


def layer_of(module: str) -> int:
    """Index in :data:`LAYERS` of the longest prefix that matches ``module``."""
    best, best_len = -1, -1
    for index, (_, prefixes) in enumerate(LAYERS):
        for prefix in prefixes:
            if (module == prefix or module.startswith(prefix + ".")) and len(prefix) > best_len:
                best, best_len = index, len(prefix)
    if best_len <= len("agent") and module not in ("agent", "agent.__main__"):
        raise LookupError(f"{module} has no layer: add it to LAYERS in {Path(__file__).name}")
    return best


def imported_modules(path: Path, module: str) -> set[str]:
    """Every agent.* module ``path`` imports, anywhere in the file (``from agent import x`` names agent.x)."""
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names if alias.name.split(".")[0] == "agent")
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")[: len(package.split(".")) - (node.level - 1)]
                target = ".".join([*base, node.module] if node.module else base)
            else:
                target = node.module or ""
            if target.split(".")[0] != "agent":
                continue
            if target == "agent":
                found.update(f"agent.{alias.name}" for alias in node.names)
            else:
                found.add(target)
    return found


def all_modules() -> dict[str, Path]:
    return {module_name(p): p for p in sorted(AGENT_DIR.rglob("*.py"))}


def _within(module: str, prefix: str) -> bool:
    return module == prefix or module.startswith(prefix + ".")


def wrong_way(importer: str, imported: str) -> bool:
    """Does this import go up the layers, or into a sealed package from outside?"""
    if layer_of(imported) > layer_of(importer):
        return True
    for sealed, allowed in SEALED.items():
        if _within(imported, sealed) and not any(_within(importer, a) for a in allowed):
            return True
    return False


def violations() -> list[tuple[str, str]]:
    return [
        (module, target)
        for module, path in all_modules().items()
        for target in sorted(imported_modules(path, module))
        if wrong_way(module, target)
    ]


def test_every_module_has_a_layer():
    modules = all_modules()
    assert len(modules) > 40, "the walk found the agent package"
    for module in modules:
        layer_of(module)  # raises for a module no layer claims


def test_imports_flow_one_way():
    wrong = [v for v in violations() if v not in ALLOWED]
    assert not wrong, "imports that go up the layers or into a sealed package:\n" + "\n".join(
        f"  {a} ({LAYERS[layer_of(a)][0]}) imports {b} ({LAYERS[layer_of(b)][0]})" for a, b in wrong
    )


def test_allow_list_holds_only_live_violations():
    stale = ALLOWED - set(violations())
    assert not stale, f"fixed, so remove from ALLOWED: {sorted(stale)}"


def test_nodes_do_not_import_other_nodes():
    shared = {
        "agent.nodes",
        "agent.nodes.base",
        "agent.nodes.threads",
        "agent.nodes.approval",
        "agent.nodes.decisions",
        "agent.nodes.tool_calls",
    }
    for module, path in all_modules().items():
        if module.startswith("agent.nodes.") and module not in shared:
            others = {m for m in imported_modules(path, module) if m.startswith("agent.nodes")} - shared
            assert not others, (
                f"{module} imports the node modules {sorted(others)}: share through nodes/base.py"
            )


#: importer, imported, whether that import is wrong
RULE_CASES = """
agent.llm.usage        agent.planning.base     wrong
agent.runner           agent.nodes.finalize    wrong
agent.browser.session  agent.dom.observe       wrong
agent.dom.observe      agent.browser.session   fine
agent.browser.effects  agent.util.page_errors  fine
agent.util.elements    agent.dom.text          wrong
agent.nodes.planner    agent.runtime           fine
agent.nodes.planner    agent.planning.llm      wrong
agent.runtime          agent.planning.llm      fine
agent.planning.llm     agent.llm.client        fine
agent.graph            agent.nodes.finalize    fine
"""


@pytest.mark.parametrize("case", RULE_CASES.strip().splitlines())
def test_the_rule_itself(case):
    importer, imported, verdict = case.split()
    assert wrong_way(importer, imported) is (verdict == "wrong")
