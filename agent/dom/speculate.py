"""Mark cross-origin frames while the top document's pass runs, when where they are can be told beforehand.

A frame in another renderer process is marked with its place in the page (path, offset, clip), which the top
document's pass reports; marked after that pass, its own pass (tens of milliseconds: another process, a fresh
script) adds to the observation's time. Here one small call first reads where the top document's shown frames
are (``js/frame_places.js``), and each cross-origin frame Playwright lists at that address starts its pass right
away, beside the top document's. After the top pass, a frame's early result is used only when the arguments the
usual path builds for it are exactly those it ran with (the same place, the same id base): the same pass, the
same result. Any other frame, or a wrong guess, is marked after the top pass as before.

On the next observation of the same frames (their last result kept) each one's pass starts at once with the
arguments it last ran with, most often unchanged: it answers "unchanged" beside the top pass instead of after it.
Its result counts only when the usual path builds those very arguments; otherwise it is awaited (the page and the
kept result still agree whatever it found) and the usual pass follows.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from agent.browser.scripts import read_script
from agent.dom.reuse import PageMemory
from agent.dom.wire import unpack_blocks

_PLACES_JS = read_script(Path(__file__).with_name("js") / "frame_places.js")
#: Frames marked early at most (a page full of ad frames is marked the usual way).
MAX_EARLY = 4

Evaluate = Callable[[Any, dict[str, Any], float], Awaitable[dict[str, Any]]]
#: A pass that keeps its result in the page's memory (``agent/dom/observe.py``'s ``_evaluate``).
EvaluateKept = Callable[[Any, dict[str, Any], float, PageMemory], Awaitable[dict[str, Any]]]


def _origin(url: str) -> str:
    try:
        parts = urlsplit(url)
    except ValueError:
        return ""
    return f"{parts.scheme}://{parts.netloc}" if parts.scheme in ("http", "https") and parts.netloc else ""


class EarlyFrames:
    """The early passes of one observation: started by :meth:`start`, handed out by :meth:`take`."""

    def __init__(self) -> None:
        self.task: asyncio.Future | None = None
        self.passes: dict[int, tuple[Any, dict[str, Any], asyncio.Future]] = {}
        self.again: dict[int, tuple[Any, dict[str, Any], asyncio.Future]] = {}

    @classmethod
    def start(
        cls,
        page: Any,
        memory: PageMemory,
        opts: Any,
        make_args: Callable[..., dict[str, Any]],
        evaluate: Evaluate,
        evaluate_kept: EvaluateKept,
    ) -> EarlyFrames:
        """Begin (without waiting) when ``opts`` (ObserveOptions) reads cross-origin frames at all: the passes of
        frames marked before, and the places of child frames on another origin not marked before."""
        early = cls()
        if not opts.cross_origin_frames:
            return early
        timeout = min(opts.frame_timeout_s, opts.total_timeout_s)
        try:
            main = page.main_frame
            for frame in page.frames:
                args = memory.last_args(frame) if frame is not main else None
                if args is not None and len(early.again) < MAX_EARLY and not frame.is_detached():
                    task = asyncio.ensure_future(evaluate_kept(frame, args, timeout, memory))
                    task.add_done_callback(_retrieve)
                    early.again[id(frame)] = (frame, args, task)
            origin = _origin(main.url)
            children = [
                f for f in page.frames
                if f.parent_frame is main and not f.is_detached() and not memory.has_pass(f)
                and _origin(f.url) not in ("", origin)
            ]  # fmt: skip
        except Exception:
            return early
        if children and origin:
            early.task = asyncio.ensure_future(
                early._run(main, children, memory, make_args, evaluate, timeout)
            )
            early.task.add_done_callback(_retrieve)
        return early

    async def _run(
        self, main: Any, children: list[Any], memory: PageMemory, make_args: Callable[..., dict[str, Any]],
        evaluate: Evaluate, timeout: float,
    ) -> None:  # fmt: skip
        async with asyncio.timeout(timeout):  # not wait_for: its own task would send this after the top pass
            places = await main.evaluate(_PLACES_JS)
        by_url: dict[str, list[dict[str, Any]]] = {}
        for place in places or []:
            by_url.setdefault(str(place.get("url") or ""), []).append(place)
        urls = [f.url for f in children]
        # Id bases are handed out in the order the usual path would (Playwright's frame order, frames it marks):
        # so every frame up to the first one whose fate is unclear gets its base here, and only those.
        for frame in children:
            hits = by_url.get(frame.url) or []
            seen = {place.get("seen") for place in hits}
            if seen == {"hidden"}:
                continue  # never entered by the top pass: never marked, no id base
            if not hits or seen != {"shown"} or len(self.passes) >= MAX_EARLY:
                break  # redirected, perhaps hidden, or enough: the usual path takes it from here
            base = memory.base_for(frame)
            if len(hits) != 1 or urls.count(frame.url) != 1:
                continue  # shown, but not told apart by its address: marked the usual way
            place = hits[0]
            args = make_args(
                base=base, framePath=place["path"], offset=place["offset"], clip=place["clip"],
                crossOrigin=True, bg=None,
            )  # fmt: skip
            task = asyncio.ensure_future(evaluate(frame, args, timeout))
            task.add_done_callback(_retrieve)
            self.passes[id(frame)] = (frame, args, task)

    async def take(self, frame: Any, args: dict[str, Any]) -> dict[str, Any] | None:
        """The early result of ``frame`` if it ran with exactly ``args`` (raises as that pass did); else None."""
        if self.task is None:
            return None
        with contextlib.suppress(Exception):
            await self.task  # the small call ran before the top pass: done by now
        hit = self.passes.pop(id(frame), None)
        if hit is None or hit[0] is not frame:
            return None
        if hit[1] != args:  # a wrong guess: it runs first, the usual pass follows it
            with contextlib.suppress(Exception):
                await hit[2]
            return None
        return await hit[2]  # the very pass the usual path would run: its result, or its failure

    async def mark(
        self,
        frame: Any,
        args: dict[str, Any],
        timeout: float,
        memory: PageMemory,
        evaluate: Callable[..., Any],
    ) -> dict[str, Any]:
        """A cross-origin frame's pass: the one started early with these very arguments, else ``evaluate``'s."""
        result = await self._mark(frame, args, timeout, memory, evaluate)
        memory.keep_args(frame, args)
        return result

    async def _mark(
        self,
        frame: Any,
        args: dict[str, Any],
        timeout: float,
        memory: PageMemory,
        evaluate: Callable[..., Any],
    ) -> dict[str, Any]:
        again = self.again.pop(id(frame), None)
        if again is not None and again[0] is frame:
            try:
                result = await again[2]  # runs to its end either way: one pass at a time per frame
            except Exception:
                result = None
            if result is not None and again[1] == args:
                return result
            return await evaluate(frame, args, timeout, memory)
        result = await self.take(frame, args)
        if result is None or result.get("unchanged"):
            return await evaluate(frame, args, timeout, memory)
        unpack_blocks(result)  # kept as agent/dom/observe.py's _evaluate keeps a full pass
        memory.keep_pass(int(args["base"]), result)
        return result

    def stop(self) -> None:
        """Drop what is still running (frames the top pass found hidden are never marked)."""
        tasks = [self.task] if self.task is not None else []
        tasks += [task for _, _, task in self.passes.values()]
        tasks += [task for _, _, task in self.again.values()]
        for task in tasks:
            if not task.done():
                task.cancel()
        self.passes.clear()
        self.again.clear()


def _retrieve(task: asyncio.Future) -> None:
    if not task.cancelled():
        task.exception()  # a failed early pass is retried the usual way; nothing to report here
