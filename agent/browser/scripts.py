"""Page scripts: JavaScript kept in ``.js`` files next to the code that runs it, read once per process.

Scripts live as files (not Python strings) so they can be read, linted and diffed as JavaScript. Each file is
read on first use and cached; evaluating a script never touches the disk again.
"""

from __future__ import annotations

import functools
from pathlib import Path

#: The browser layer's own scripts (actions, DOM watcher).
BROWSER_JS_DIR = Path(__file__).with_name("js")


@functools.cache
def read_script(path: Path) -> str:
    """The text of the script file at ``path`` (cached for the life of the process)."""
    return Path(path).read_text(encoding="utf-8")


def browser_script(name: str) -> str:
    """A script of ``agent/browser/js/`` by its name without ``.js``, e.g. ``browser_script("click")``."""
    return read_script(BROWSER_JS_DIR / f"{name}.js")
