"""Which MiniWoB++ pages the benchmark runs, and where the ``miniwob`` package keeps them.

Only the environment is described here (task pages and how they behave); nothing in ``agent/`` sees it.
"""

from __future__ import annotations

import importlib.util
from pathlib import Path

#: Pixel, drag and drawing tasks: a DOM agent has no way to attempt them (coordinates, angles, colours).
PIXEL_TASKS: frozenset[str] = frozenset(
    {
        "bisect-angle",
        "circle-center",
        "right-angle",
        "find-midpoint",
        "draw-circle",
        "draw-line",
        "resize-textarea",
        "hot-cold",
        "count-sides",
        "visual-addition",
        "number-checkboxes",
        "use-colorwheel",
        "use-colorwheel-2",
    }
)
#: Pages in the package that are not registered as tasks.
UNREGISTERED_TASKS: frozenset[str] = frozenset(
    {
        "button-delay",
        "chase-circle",
        "hover-shape",
        "moving-items",
        "simon-says",
    }
)
#: Tasks whose problem can depend on today's date or on widget state left by an earlier episode. The harness
#: reloads the page before every episode anyway, so this list is informational (it is written to the results).
NONDETERMINISTIC_TASKS: frozenset[str] = frozenset(
    {
        "book-flight",
        "book-flight-nodelay",
        "choose-date",
        "choose-date-easy",
        "choose-date-medium",
        "choose-date-nodelay",
        "click-dialog",
        "click-dialog-2",
        "click-pie",
        "click-pie-nodelay",
        "click-scroll-list",
        "scroll-text",
        "scroll-text-2",
        "search-engine",
        "social-media",
        "social-media-all",
        "social-media-some",
        "terminal",
        "order-food",
        "phone-book",
        "stock-market",
    }
)

#: Seeds of the default run (``make bench``): every DOM task on two seeds, ~200 episodes.
DEFAULT_SEEDS = "0-1"
#: The ``--quick`` set (smoke test): two tasks that take one or two actions.
QUICK_TASKS: tuple[str, ...] = ("click-button", "enter-text")


def html_root() -> Path:
    """``miniwob/html`` inside the installed package (raises ModuleNotFoundError with a hint when missing)."""
    spec = importlib.util.find_spec("miniwob")
    if spec is None or not spec.submodule_search_locations:
        raise ModuleNotFoundError(
            "the 'miniwob' package is not installed: `python -m pip install --no-deps miniwob` "
            "(or `pip install -e '.[bench]'`)"
        )
    return Path(list(spec.submodule_search_locations)[0]) / "html"


def all_task_pages(root: Path | None = None) -> list[str]:
    return sorted(p.stem for p in ((root or html_root()) / "miniwob").glob("*.html"))


def is_excluded(task: str) -> bool:
    return task in PIXEL_TASKS or task in UNREGISTERED_TASKS or task.startswith("drag-")


def dom_tasks(root: Path | None = None) -> list[str]:
    """Every task page a DOM agent can attempt: all pages minus pixel/drag/drawing and unregistered ones."""
    return [t for t in all_task_pages(root) if not is_excluded(t)]
