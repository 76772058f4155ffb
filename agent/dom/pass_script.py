"""The marking pass's script, installed in every new document of a browser context before the page asks for it.

Sent with each call (``frame.evaluate(SOM_JS, args)``), the pass's 50 KB source crossed two processes and was
compiled again in every fresh document: on a small page that was twice the pass's own time (about 6 ms of a
15 ms cold observation, 3 ms of every warm one). Registered once per context as an init script, Chromium
compiles it while the document is created, reusing its compiled code across documents, and each observation
sends only a short call. A document that was created before the registration (the page open when the first
observation came, a tab of a browser the agent attached to) gets the whole script with that call instead, which
also installs it there; nothing else changes: same function, same arguments, same result.

The function is kept on the document as a property that cannot be overwritten (the pass's own state lives on
the document already), so a page's script cannot swap it for another between two observations. Its name ends in
a random suffix drawn once per process: a document made before the registration gets the pass only from its
first observation, and a page script there could otherwise claim the name first and answer the short call.
"""

from __future__ import annotations

import asyncio
import contextlib
import re
import secrets
import weakref
from pathlib import Path
from typing import Any

from agent.browser.scripts import compact_script, read_script

#: The marking pass, kept by job in ``agent/dom/som/`` and joined once, in this order, into one function.
SOM_PARTS: tuple[str, ...] = ("1_setup", "2_classify", "3_walk", "4_describe", "5_result")
SOM_DIR = Path(__file__).with_name("som")

_DECLARED = re.compile(r"^(?P<indent>\s+)function (?P<name>\w+)\((?P<rest>.*)$")


def eager(source: str) -> str:
    """``source`` with each indented ``function name(...) {...}`` declared as ``var name = (function name(...)
    {...});``: V8 compiles a function in brackets with the function around it instead of at its first call.

    The pass runs every one of its helpers each time, so nothing is compiled that would not be anyway; what
    changes is when. A cross-origin frame's document lives in a renderer of its own, where nothing of the pass
    was compiled before: compiled lazily, its first pass spent 6 to 12 ms compiling the helpers one call at a
    time; compiled with the init script, when the document is created, that work is done before the agent asks.
    Each declaration ends at the first line that closes it at its own indentation (how agent/dom/som is written);
    a declaration that never closes is an error here, not a broken pass in the page."""
    lines = source.split("\n")
    out: list[str] = []
    k = 0
    while k < len(lines):
        m = _DECLARED.match(lines[k])
        if m is None:
            out.append(lines[k])
            k += 1
            continue
        indent, name, rest = m.group("indent"), m.group("name"), m.group("rest")
        head = f"{indent}var {name} = (function {name}({rest}"
        if lines[k].count("{") and lines[k].count("{") == lines[k].count("}"):
            out.append(head + ");")  # a helper on one line
            k += 1
            continue
        end = next((j for j in range(k + 1, len(lines)) if lines[j].rstrip() == f"{indent}}}"), None)
        if end is None:
            raise ValueError(f"agent/dom/som: function {name} does not close at its own indentation")
        out += [head, *lines[k + 1 : end], f"{indent}}});"]
        k = end + 1
    return "\n".join(out)


SOM_JS: str = compact_script("".join(eager(read_script(SOM_DIR / f"{part}.js")) for part in SOM_PARTS))

#: Where a document keeps the pass: a name no page can know before the pass is installed.
PASS_PROPERTY = "__wayfinderSomFn_" + secrets.token_hex(8)
_PROP = PASS_PROPERTY
_DEFINE = (
    "try{if(typeof document." + _PROP + "!=='function')Object.defineProperty(document,'" + _PROP + "',"
    "{value:f,writable:false,configurable:false,enumerable:false});}catch(e){}"
)
#: Run at the creation of every document of the context: the pass, defined once on the document.
INIT_JS = "(()=>{const f=(" + SOM_JS + ");" + _DEFINE + "})();"
#: An observation's call when the document has the pass: its result, or null when it has none.
CALL_JS = "a=>{const f=document." + _PROP + ";return typeof f==='function'?f(a):null;}"
#: The call for a document without it: the whole pass, installed there for the next call, then run.
DEFINE_AND_CALL_JS = "a=>{const f=(" + SOM_JS + ");" + _DEFINE + "return f(a);}"

#: Contexts the init script is registered in (weakly: a closed context goes away with its pages).
_registered: weakref.WeakSet[Any] = weakref.WeakSet()


async def register(context: Any) -> None:
    """Have every document ``context`` creates from now on hold the pass (once per context; best effort: a
    context that refuses init scripts is simply marked by whole-script calls)."""
    if context is None or context in _registered:
        return
    with contextlib.suppress(TypeError):
        _registered.add(context)
    with contextlib.suppress(Exception):
        await context.add_init_script(script=INIT_JS)


async def run_pass(frame: Any, args: dict[str, Any]) -> Any:
    """The marking pass in ``frame``'s document with ``args``: by the short call when its context creates
    documents with the pass, else by the whole script while the context is registered beside it."""
    context = _context_of(frame)
    if context is not None and context in _registered:
        result = await frame.evaluate(CALL_JS, args)
        if result is not None:
            return result
    else:
        register_soon(context)  # beside the pass: the browser answers both at once
    return await frame.evaluate(DEFINE_AND_CALL_JS, args)


def register_soon(context: Any) -> None:
    """:func:`register` without waiting for it (before the start page opens: its document may already hold the
    pass; if the registration comes too late for it, its first observation sends the whole script)."""
    if context is None or context in _registered:
        return
    task = asyncio.ensure_future(register(context))
    _pending.add(task)
    task.add_done_callback(_pending.discard)


def _context_of(frame: Any) -> Any:
    try:
        return frame.page.context
    except Exception:  # noqa: BLE001 - a detached frame, a stand-in: marked by whole-script calls
        return None


_pending: set[asyncio.Future] = set()
