"""Observation: run the Set-of-Mark pass in every reachable frame and turn it into an ``Observation``.

The marking pass (``som/*.js``, joined into ``SOM_JS`` and installed in each new document by ``pass_script``)
runs once in the top document (it walks same-origin iframes and open shadow roots itself) and once in each
visible cross-origin frame that Playwright can enter, with an id base of ``100000 * k`` so ids stay unique across
the page. Every evaluate call is time-bounded and every failure is caught: a blank, loading, crashed or hostile
page yields a valid Observation (possibly with no elements), never an exception or a hang.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import inspect
import itertools
import json
import tempfile
import time
from pathlib import Path
from typing import Any

from agent.browser.marking import set_page_marker
from agent.browser.scripts import read_script
from agent.browser.session_secrets import screenshot_masks
from agent.dom.frames import frame_paths
from agent.dom.options import ObserveOptions
from agent.dom.pass_script import run_pass
from agent.dom.reuse import FRAME_ID_BASE, PageMemory, build_key, copy_observation, memory_for  # noqa: F401
from agent.dom.serialize import build_observation
from agent.dom.speculate import EarlyFrames
from agent.dom.wire import unpack_blocks, unpack_elements
from agent.types import Element, Observation

#: Screenshot badges (drawn, then removed again): ``agent/dom/js/``.
_BADGE_JS = read_script(Path(__file__).with_name("js") / "badges.js")
_UNBADGE_JS = read_script(Path(__file__).with_name("js") / "unbadge.js")

#: Share of a frame's time bound the marking walk may take before it stops and reports where it stopped (the
#: rest is for describing the marked elements and handing them over).
MARKING_BUDGET_SHARE = 0.7

_OVERLAY_ATTR = "data-agent-overlay"

_RETRYABLE = ("execution context was destroyed", "cannot find context", "navigat", "frame was detached")


def _js_args(options: ObserveOptions, **extra: Any) -> dict[str, Any]:
    args: dict[str, Any] = {
        "base": 0,
        "framePath": "",
        "offset": [0, 0],
        "clip": None,
        "crossOrigin": False,
        "bg": [255, 255, 255],
        "maxInfo": options.max_informative,
        "maxElements": options.max_marked,
        "textChars": options.element_text_chars,
        "pageTextChars": options.page_text_chars,
        # the walk stops itself (and says where) well before the evaluate call would time out
        "timeBudgetMs": int(1000 * _marking_budget_s(options)),
    }
    args.update(extra)
    return args


def _marking_budget_s(options: ObserveOptions) -> float:
    if options.marking_budget_s is not None:
        return max(0.01, float(options.marking_budget_s))
    return options.frame_timeout_s * MARKING_BUDGET_SHARE


class _EvalError(Exception):
    """The marking pass could not run in a frame (timeout, navigation, closed page)."""


async def _evaluate(
    frame: Any, args: dict[str, Any], timeout: float, memory: PageMemory | None = None
) -> dict[str, Any]:
    """A bounded marking pass in ``frame``, or the kept result of its last one when the pass says nothing changed
    (``memory``: where results are kept, under ``args["base"]``; a lost one means a forced full pass)."""
    started = time.monotonic()
    if memory is None:
        result = await _evaluate_once(frame, args, timeout)
        unpack_blocks(result)
        return result
    base = int(args.get("base") or 0)
    result = await _evaluate_once(frame, {**args, "have": memory.kept_pass(base)}, timeout)
    if result.get("unchanged"):
        kept = memory.reuse_pass(base, result)
        if kept is not None:
            return kept
    elif memory.fill_from_kept(base, result):
        unpack_blocks(result)
        memory.keep_pass(base, result)
        return result
    # the kept result is gone (or does not match): read the page in full
    result = await _evaluate_once(frame, {**args, "force": True}, timeout - (time.monotonic() - started))
    unpack_blocks(result)
    memory.keep_pass(base, result)
    return result


async def _evaluate_once(frame: Any, args: dict[str, Any], timeout: float) -> dict[str, Any]:
    """One bounded marking pass in ``frame``; one retry when a navigation destroyed the context mid-call."""
    for attempt in (0, 1):
        if timeout <= 0:
            raise _EvalError("observation time budget exhausted")
        started = time.monotonic()
        try:
            result = await asyncio.wait_for(run_pass(frame, args), timeout)
        except TimeoutError as exc:
            raise _EvalError(f"marking pass timed out after {timeout:.1f}s (page busy or hung)") from exc
        except Exception as exc:  # Playwright Error: closed target, navigation, detached frame
            message = str(exc).split("\n", 1)[0]
            if attempt == 0 and any(key in message.lower() for key in _RETRYABLE):
                left = timeout - (time.monotonic() - started)
                try:
                    await asyncio.wait_for(
                        frame.wait_for_load_state("domcontentloaded"), max(0.05, min(left, 2.0))
                    )
                except Exception:
                    await asyncio.sleep(0.05)
                timeout -= time.monotonic() - started
                continue
            raise _EvalError(message or type(exc).__name__) from exc
        # The pass returns one JSON string: Playwright's structured serialization of ~1000 nested dicts costs
        # seconds, a string costs milliseconds.
        if isinstance(result, str):
            try:
                result = json.loads(result)
            except ValueError as exc:
                raise _EvalError("marking pass returned malformed data") from exc
        if not isinstance(result, dict):
            raise _EvalError("marking pass returned nothing")
        unpack_elements(result)  # an id alone stays: described as in the kept pass (filled by _evaluate)
        return result
    raise _EvalError("page kept navigating during observation")


def _depth(frame: Any) -> int:
    depth = 0
    parent = frame.parent_frame
    while parent is not None and depth < 50:
        depth += 1
        parent = parent.parent_frame
    return depth


def _empty_raw(url: str, error: str = "") -> dict[str, Any]:
    return {
        "ok": False,
        "error": error,
        "url": url,
        "title": "",
        "document_id": "",
        "elements": [],
        "frames": [],
        "page_text": "",
        "stats": {},
        "counts": {},
        "blocks": {},
        "scroll": {"y": 0.0, "height": 0.0, "viewport_height": 0.0, "above_px": 0.0, "below_px": 0.0},
        "truncated": False,
    }


async def collect(page: Any, options: ObserveOptions | None = None) -> dict[str, Any]:
    """Run the marking pass in all reachable frames; the raw material :func:`build_observation` turns into text.

    Never raises: on failure the result has ``ok=False``, an ``error`` and no elements.
    """
    opts = options or ObserveOptions()
    deadline = time.monotonic() + opts.total_timeout_s
    try:
        url = page.url
    except Exception:
        url = ""
    memory = memory_for(page)
    early = EarlyFrames.start(
        page, memory, opts, functools.partial(_js_args, opts), _evaluate_once, _evaluate
    )
    try:
        return await _collect(page, opts, url, memory, deadline, early)
    finally:
        early.stop()


async def _collect(
    page: Any, opts: ObserveOptions, url: str, memory: PageMemory, deadline: float, early: EarlyFrames
) -> dict[str, Any]:
    try:
        main = page.main_frame
        top = await _evaluate(main, _js_args(opts), min(opts.frame_timeout_s, opts.total_timeout_s), memory)
    except _EvalError as exc:
        return _empty_raw(url, str(exc))
    except Exception as exc:
        return _empty_raw(url, str(exc).split("\n", 1)[0] or type(exc).__name__)
    if not top.get("ok"):
        return _empty_raw(top.get("url") or url, str(top.get("error") or "marking pass failed"))
    raw = _empty_raw(url)
    raw.update(top)
    raw["ok"] = True
    raw["error"] = ""
    raw["passes"] = [(0, top.get("document_id"), top.get("pass"))]
    if opts.cross_origin_frames and any(
        f.get("cross_origin") and not f.get("reached") for f in raw["frames"]
    ):
        await _reach_cross_origin(page, raw, opts, deadline, memory, early)
    raw["frames"] = [
        {
            "path": f.get("path", ""),
            "url": f.get("url", ""),
            "cross_origin": bool(f.get("cross_origin")),
            "reached": bool(f.get("reached")),
            "name": f.get("name", ""),
        }
        for f in raw["frames"]
    ]
    memory.prune({base for base, _, _ in raw["passes"]})
    counts = raw.setdefault("counts", {})
    counts["marked"] = len(raw["elements"])  # after dropping page-forged duplicate ids
    return raw


async def _reach_cross_origin(
    page: Any, raw: dict, opts: ObserveOptions, deadline: float, memory: PageMemory, early: EarlyFrames
) -> None:
    """Mark cross-origin frames through Playwright, parents before children, each with its own id range."""
    by_path = {f["path"]: f for f in raw["frames"]}
    owner = {f["path"]: "" for f in raw["frames"]}  # frame path -> path of the pass that found its <iframe>
    passes: dict[str, list[dict[str, Any]]] = {"": raw["elements"]}
    seen_ids = {e["id"] for e in raw["elements"]}
    try:
        candidates = [f for f in page.frames if f is not page.main_frame and not f.is_detached()]
    except Exception:
        return
    extra_text: list[str] = []
    for _, group in itertools.groupby(sorted(candidates, key=_depth), key=_depth):
        group = list(group)
        remaining = deadline - time.monotonic()
        if remaining <= 0:
            break
        # Unchanged parents (every pass so far reused) mean the same <iframe> elements with the same paths.
        paths = memory.frame_paths(group) if raw.get("reused") else None
        if paths is None:
            paths = await frame_paths(group, by_path, min(1.0, remaining))
            memory.keep_frame_paths(group, paths)
        jobs = []
        for frame, path in zip(group, paths, strict=True):
            info = by_path.get(path or "")
            if info is None or info.get("reached") or not info.get("cross_origin"):
                continue  # reached by the parent's own walk, or hidden (never walked): leave it alone
            args = _js_args(
                opts,
                base=memory.base_for(frame),
                framePath=info["path"],
                offset=info.get("offset") or [0, 0],
                clip=info.get("clip"),
                crossOrigin=True,
                bg=None,
            )
            jobs.append((frame, info, args))
        if not jobs:
            continue
        remaining = deadline - time.monotonic()
        results = await asyncio.gather(
            *(
                early.mark(frame, args, min(opts.frame_timeout_s, remaining), memory, _evaluate)
                for frame, _, args in jobs
            ),
            return_exceptions=True,
        )
        for (frame, info, args), result in zip(jobs, results, strict=True):
            if isinstance(result, BaseException) or not result.get("ok"):
                continue
            info["reached"] = True
            raw["passes"].append((int(args["base"]), result.get("document_id"), result.get("pass")))
            raw["reused"] = bool(raw.get("reused") and result.get("reused"))
            with contextlib.suppress(Exception):
                info["url"] = frame.url or info.get("url", "")
            zone, fixed = info.get("zone") or "main", bool(info.get("fixed"))
            own: list[dict[str, Any]] = []
            for element in result.get("elements", []):
                if element["id"] in seen_ids:
                    continue  # a page-forged duplicate id: the first one wins
                seen_ids.add(element["id"])
                if element.get("zone") == "main" and zone != "main":
                    element["zone"] = zone
                element["fixed"] = bool(element.get("fixed")) or fixed
                own.append(element)
            passes[info["path"]] = own
            _add_counts(raw, result)
            for sub in result.get("frames", []):
                by_path[sub["path"]] = sub
                owner[sub["path"]] = info["path"]
                raw["frames"].append(sub)
            if result.get("page_text"):
                extra_text.append(result["page_text"])
    if len(passes) > 1:
        raw["elements"] = _in_document_order("", passes, owner, by_path)
    if extra_text:
        joined = "\n".join([raw.get("page_text", "")] + extra_text).strip()
        raw["page_text"] = joined


def _add_counts(raw: dict[str, Any], result: dict[str, Any]) -> None:
    """Fold a cross-origin frame's counts and blocks into the page's, so the totals stay true."""
    raw.setdefault("blocks", {}).update(result.get("blocks") or {})
    counts = raw.setdefault("counts", {})
    for key, value in (result.get("counts") or {}).items():
        if key.endswith("_y") or key in ("stop", "max_elements", "max_info"):  # per pass: the first one's
            if not counts.get(key):
                counts[key] = value
        elif isinstance(value, int | float) and not isinstance(value, bool):
            counts[key] = counts.get(key, 0) + value
    raw["truncated"] = bool(raw.get("truncated") or result.get("truncated"))


def _in_document_order(
    path: str,
    passes: dict[str, list[dict[str, Any]]],
    owner: dict[str, str],
    frames: dict[str, dict[str, Any]],
) -> list[dict[str, Any]]:
    """One pass's elements with each cross-origin frame's elements spliced in where its <iframe> sits."""
    children = sorted(
        (int(frames[child].get("index") or 0), child)
        for child, parent in owner.items()
        if parent == path and child in passes
    )
    out: list[dict[str, Any]] = []
    own = passes.get(path, [])
    k = 0
    for i in range(len(own) + 1):
        while k < len(children) and children[k][0] <= i:
            out.extend(_in_document_order(children[k][1], passes, owner, frames))
            k += 1
        if i < len(own):
            out.append(own[i])
    return out


async def mark_frames(page: Any, *, options: ObserveOptions | None = None) -> list[Element]:
    """Mark the page (all reachable frames) with ``data-agent-id`` and return the raw element dicts.

    The cheap entry point for the browser layer's re-mark ("wiggle") fallback: no serialization, no screenshot.
    """
    raw = await collect(page, options)
    return list(raw["elements"])


# The browser layer's "wiggle" fallback re-marks a page through this hook (browser must not import dom).
set_page_marker(mark_frames)


def default_screenshot_path() -> str:
    """Where a screenshot goes when the caller did not say: a fresh file in the temp directory."""
    folder = Path(tempfile.gettempdir()) / "wayfinder-screenshots"
    folder.mkdir(parents=True, exist_ok=True)
    return str(folder / f"observe-{time.strftime('%Y%m%d-%H%M%S')}-{time.monotonic_ns() % 1_000_000:06d}.png")


def badge_items(observation: Observation) -> list[dict[str, Any]]:
    """The elements to mark on a screenshot: listed, in the viewport, and seen by a person there (not covered by
    a dialog or another layer at their centre), in reading order so labels are placed top to bottom."""
    kept = set(observation.get("kept_ids") or [])
    items = []
    for element in observation.get("elements") or []:
        if element.get("id") in kept and element.get("in_viewport") and not element.get("occluded"):
            x, y, w, h = element.get("bbox") or [0, 0, 0, 0]
            items.append({"id": element["id"], "x": x, "y": y, "w": w, "h": h})
    return sorted(items, key=lambda item: (item["y"], item["x"]))


async def take_screenshot(
    page: Any, observation: Observation, path: str, *, badges: bool = True, timeout: float = 5.0
) -> str | None:
    """Viewport screenshot to ``path`` with numbered badges on the elements of :func:`badge_items`; None on failure.

    The overlay lives in a closed shadow root marked ``data-agent-overlay`` (ignored by the DOM watcher) and is
    removed again whatever happens.
    """
    items = badge_items(observation)
    await asyncio.to_thread(Path(path).parent.mkdir, parents=True, exist_ok=True)  # off the event loop
    drawn = False
    try:
        if badges and items:
            await asyncio.wait_for(page.evaluate(_BADGE_JS, items), timeout)
            drawn = True
        shot = page.screenshot(path=path, timeout=timeout * 1000, mask=screenshot_masks(page))
        await asyncio.wait_for(shot, timeout + 1)
        return path
    except Exception:
        return None
    finally:
        if drawn:
            with contextlib.suppress(Exception):
                await asyncio.wait_for(page.evaluate(_UNBADGE_JS), 2)


async def observe_page(
    page: Any,
    *,
    goal: str = "",
    previous: Observation | None = None,
    options: ObserveOptions | None = None,
    tabs: list | None = None,
    active_tab_id: str = "",
    screenshot_path: str | None = None,
    screenshot: bool = False,
) -> Observation:
    """Observe one Playwright page: mark, serialize (goal-aware, bounded), optionally screenshot.

    A screenshot is taken when ``screenshot`` is true, when a ``screenshot_path`` is given (the caller asks for
    one there), or when ``options.screenshot_mode == "every_step"``; it goes to ``screenshot_path`` (else a temp
    file) and ``screenshot_path`` in the result says where it is (None when none was taken or it failed).
    """
    started = time.perf_counter()
    opts = options or ObserveOptions()
    raw = await collect(page, opts)
    tabs = _active_title_from_pass(list(tabs or []), active_tab_id, raw)
    memory = memory_for(page)
    key = build_key(
        raw, goal=goal, previous=previous, options=opts, tabs=tabs, active_tab_id=active_tab_id or ""
    )
    if key is not None and memory.built is not None and memory.built[0] == key:
        observation = copy_observation(memory.built[1])  # the same passes, goal and marks: the same text
    else:
        observation = build_observation(
            raw, goal=goal, previous=previous, options=opts, tabs=tabs, active_tab_id=active_tab_id or ""
        )
        memory.built = (key, copy_observation(observation)) if key is not None else None
    observation["screenshot_path"] = None
    if screenshot or screenshot_path or opts.screenshot_mode == "every_step":
        path = screenshot_path or default_screenshot_path()
        observation["screenshot_path"] = await take_screenshot(
            page, observation, path, badges=opts.draw_badges, timeout=opts.screenshot_timeout_s
        )
    observation["observe_ms"] = int((time.perf_counter() - started) * 1000)
    return observation


def _active_title_from_pass(tabs: list, active_tab_id: str, raw: dict[str, Any]) -> list:
    """The active tab's title as the pass just read it: the session refreshes titles on load events, in tasks of
    their own, so right after a navigation (or a title set by script) its copy can lag or still be empty."""
    title = raw.get("title") if raw.get("ok") else ""
    if not title or not active_tab_id:
        return tabs
    return [{**tab, "title": title} if tab.get("id") == active_tab_id else tab for tab in tabs]


async def observe(
    session: Any,
    *,
    goal: str = "",
    previous: Observation | None = None,
    options: ObserveOptions | None = None,
    screenshot_path: str | None = None,
    screenshot: bool = False,
) -> Observation:
    """Observe the session's active tab (``session.page``), with its tabs and active tab id in the header.

    Page trouble never raises (see :func:`observe_page`), but a dead browser does: ``session.page`` raising is
    a session failure the graph must see, not an empty page to plan on.
    """
    tabs: list = []
    try:
        listed = session.tabs()
        if inspect.isawaitable(listed):
            listed = await listed
        tabs = list(listed or [])
    except Exception:
        tabs = []
    active = ""
    try:
        active = session.active_tab_id or ""
    except Exception:
        active = ""
    return await observe_page(
        session.page,
        goal=goal,
        previous=previous,
        options=options,
        tabs=tabs,
        active_tab_id=active,
        screenshot_path=screenshot_path,
        screenshot=screenshot,
    )
