"""What one page's observations keep between steps, so the next observation of the same document is cheap.

The marking pass answers "unchanged" (with its pass number) when nothing it reads can have changed since its
last full pass (``som/1_setup.js``); the result of that pass is kept here, per frame, and handed out again as a
fresh copy. The built observation is kept too: when every frame's pass is the one it was built from and the
goal, bounds, tabs and new-element marks are the same, ranking and rendering would give the same text again.
Anything else (another document, another pass, a lost cache) takes the full path.
"""

from __future__ import annotations

import json
import weakref
from collections.abc import Sequence
from typing import Any

#: Ids of a cross-origin frame's own counter start at ``FRAME_ID_BASE * k`` (k = 1, 2, ... per page).
FRAME_ID_BASE = 100_000


class PageMemory:
    """Per page: a stable id base per cross-origin frame, each frame's last full pass, the last observation."""

    def __init__(self) -> None:
        self.next = 1
        self.by_frame: dict[int, tuple[Any, int]] = {}
        self.passes: dict[int, tuple[str, int, dict[str, Any]]] = {}
        self.built: tuple[Any, dict[str, Any]] | None = None
        self.paths: dict[int, tuple[Any, str | None]] = {}
        self.args: dict[int, tuple[Any, dict[str, Any]]] = {}

    def frame_paths(self, frames: Sequence[Any]) -> list[str | None] | None:
        """The ``data-agent-frame`` paths last read for these frames; None unless every one is known."""
        out = []
        for frame in frames:
            hit = self.paths.get(id(frame))
            if hit is None or hit[0] is not frame:
                return None
            out.append(hit[1])
        return out

    def keep_frame_paths(self, frames: Sequence[Any], paths: Sequence[str | None]) -> None:
        """Remember the paths just read (entries of gone frames never match: frames are compared by identity)."""
        if len(self.paths) > 256:
            self.paths.clear()
        for frame, path in zip(frames, paths, strict=True):
            self.paths[id(frame)] = (frame, path)

    def keep_args(self, frame: Any, args: dict[str, Any]) -> None:
        """Remember the arguments ``frame``'s pass just ran with (its next pass most often runs with the same)."""
        if len(self.args) > 256:
            self.args.clear()
        self.args[id(frame)] = (frame, args)

    def last_args(self, frame: Any) -> dict[str, Any] | None:
        """The arguments of ``frame``'s last pass while its result is kept; None otherwise."""
        hit = self.args.get(id(frame))
        return hit[1] if hit is not None and hit[0] is frame and self.has_pass(frame) else None

    def base_for(self, frame: Any) -> int:
        """The id base of ``frame`` (0 for none): the same for the life of the frame object."""
        hit = self.by_frame.get(id(frame))
        if hit is not None and hit[0] is frame:
            return hit[1]
        k = self.next
        self.next += 1
        self.by_frame[id(frame)] = (frame, k * FRAME_ID_BASE)
        return k * FRAME_ID_BASE

    def has_pass(self, frame: Any) -> bool:
        """Whether a full pass of ``frame`` is kept (the next one is read by difference, or found unchanged)."""
        hit = self.by_frame.get(id(frame))
        return hit is not None and hit[0] is frame and hit[1] in self.passes

    def keep_pass(self, base: int, result: dict[str, Any]) -> None:
        """Keep a full pass's result (a copy the caller's edits cannot reach) under its document and number."""
        document_id, number = result.get("document_id"), result.get("pass")
        if document_id and isinstance(number, int) and not result.get("reused"):
            self.passes[base] = (document_id, number, fresh_copy(result))
        else:
            self.passes.pop(base, None)

    def kept_pass(self, base: int) -> list | None:
        """``[document id, pass number]`` of the result kept for the frame at ``base`` (None: nothing kept)."""
        hit = self.passes.get(base)
        return [hit[0], hit[1]] if hit is not None else None

    def fill_from_kept(self, base: int, result: dict[str, Any]) -> bool:
        """Put the kept description in place of each element handed over as its id alone; False when one is
        not kept (the caller then reads the page in full)."""
        elements = result.get("elements") or []
        if not any(isinstance(e, int) for e in elements):
            return True
        hit = self.passes.get(base)
        if hit is None or hit[0] != result.get("document_id"):
            return False
        kept = {e["id"]: e for e in hit[2].get("elements") or []}
        filled = []
        for e in elements:
            if isinstance(e, int):
                if e not in kept:
                    return False
                e = dict(kept[e])
            filled.append(e)
        result["elements"] = filled
        return True

    def prune(self, bases: set[int]) -> None:
        """Forget the passes of frames this observation did not read (gone, or unreachable this time)."""
        for base in [b for b in self.passes if b not in bases]:
            del self.passes[base]

    def reuse_pass(self, base: int, answer: dict[str, Any]) -> dict[str, Any] | None:
        """The kept result an "unchanged" answer points to, as a fresh copy; None when it is not kept."""
        hit = self.passes.get(base)
        if hit is None or hit[0] != answer.get("document_id") or hit[1] != answer.get("pass"):
            return None
        out = fresh_copy(hit[2])
        out["reused"] = True
        return out


def forget(page: Any) -> None:
    """Drop what ``page``'s observations kept: the next one is a full pass (the cold path), ids unchanged."""
    memory = memory_for(page)
    memory.passes.clear()
    memory.built = None


def fresh_copy(result: dict[str, Any]) -> dict[str, Any]:
    """A copy of a pass result whose lists and dicts ``collect`` edits are its own (nested values shared)."""
    out = dict(result)
    out["elements"] = [dict(e) for e in result.get("elements") or []]
    out["frames"] = [dict(f) for f in result.get("frames") or []]
    out["counts"] = dict(result.get("counts") or {})
    out["blocks"] = dict(result.get("blocks") or {})
    return out


_MEMORY: weakref.WeakKeyDictionary[Any, PageMemory] = weakref.WeakKeyDictionary()
_MEMORY_FALLBACK: dict[int, PageMemory] = {}


def memory_for(page: Any) -> PageMemory:
    """The memory of ``page`` (created on first use, gone with the page)."""
    try:
        memory = _MEMORY.get(page)
        if memory is None:
            memory = PageMemory()
            _MEMORY[page] = memory
        return memory
    except TypeError:  # not weak-referenceable / hashable: keyed by identity instead
        return _MEMORY_FALLBACK.setdefault(id(page), PageMemory())


def build_key(
    raw: dict[str, Any],
    *,
    goal: str,
    previous: dict[str, Any] | None,
    options: Any,
    tabs: Sequence[dict[str, Any]],
    active_tab_id: str,
) -> tuple | None:
    """Everything a built observation depends on: its frames' passes, goal, bounds, tabs, new-element marks.

    None when the raw result names no passes (a failed read): such a result is never kept."""
    passes = raw.get("passes")
    if not raw.get("ok") or not passes:
        return None
    document_id = raw.get("document_id") or ""
    new: frozenset = frozenset()  # no previous observation of this document: nothing is marked new either
    if previous and document_id and previous.get("document_id") == document_id:
        seen = {e.get("id") for e in previous.get("elements") or []}
        new = frozenset(e["id"] for e in raw.get("elements") or [] if e.get("id") not in seen)
    bounds = (options.max_elements, options.max_chars, options.max_tokens)
    try:
        tab_key = json.dumps(list(tabs), sort_keys=True, default=str)
    except (TypeError, ValueError):
        return None
    return (tuple(passes), goal, new, bounds, tab_key, active_tab_id)


def copy_observation(observation: dict[str, Any]) -> dict[str, Any]:
    """A copy of a kept observation whose lists and element dicts are the caller's own."""
    out = dict(observation)
    out["elements"] = [dict(e) for e in observation.get("elements") or []]
    out["kept_ids"] = list(observation.get("kept_ids") or [])
    out["tabs"] = [dict(t) for t in observation.get("tabs") or []]
    out["frames"] = [dict(f) for f in observation.get("frames") or []]
    out["scroll"] = dict(observation.get("scroll") or {})
    out["counts"] = dict(observation.get("counts") or {})
    return out
