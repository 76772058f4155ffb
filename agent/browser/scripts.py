"""Page scripts: JavaScript kept in ``.js`` files next to the code that runs it, read once per process.

Scripts live as files (not Python strings) so they can be read, linted and diffed as JavaScript. Each file is
read on first use and cached; evaluating a script never touches the disk again.
"""

from __future__ import annotations

import functools
import re
from pathlib import Path

#: ``/*@include name.js*/`` in a script is replaced by that file's text (a path relative to the script's folder),
#: so two scripts can share one piece (the change tracker) without a copy of it.
_INCLUDE = re.compile(r"/\*@include ([\w./-]+\.js)\*/")

#: The browser layer's own scripts (actions, DOM watcher).
BROWSER_JS_DIR = Path(__file__).with_name("js")


@functools.cache
def read_script(path: Path) -> str:
    """The text of the script file at ``path``, its includes expanded (cached for the life of the process)."""
    path = Path(path)
    text = path.read_text(encoding="utf-8")
    return _INCLUDE.sub(lambda m: read_script((path.parent / m.group(1)).resolve()).strip(), text)


#: A comment after code on its line, when the comment holds no quote or slash (so never part of a string or regex).
_TRAILING_COMMENT = re.compile(r"\s+// [^'\"`/]*$")


def compact_script(text: str) -> str:
    """``text`` without comment lines, trailing comments, indentation and blank lines.

    A script sent with every evaluate call is parsed in the page each time: a quarter less to send and parse
    is a millisecond or two off each call. Only for scripts with no template literals (line breaks there are
    text); ``/* */`` comments stay.
    """
    out = []
    for line in text.split("\n"):
        line = _TRAILING_COMMENT.sub("", line.strip())
        if line and not line.startswith("//"):
            if "`" in line:
                return text
            out.append(line)
    return "\n".join(out)


def browser_script(name: str) -> str:
    """A script of ``agent/browser/js/`` by its name without ``.js``, e.g. ``browser_script("click")``."""
    return read_script(BROWSER_JS_DIR / f"{name}.js")
