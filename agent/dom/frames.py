"""Which cross-origin frame is which: the path the parent's marking pass wrote on each frame's <iframe>.

Asking Playwright for a frame's <iframe> (``frame_element``) costs 50 to 110 ms for a frame in another process,
most of a cold observation of a page with one embed. The parent's pass already reported every <iframe> it
met, with its path and address: a frame whose address only one unreached <iframe> has is that one. Frames that
share an address, or were redirected elsewhere, are still asked for their element.
"""

from __future__ import annotations

import asyncio
from collections.abc import Mapping, Sequence
from typing import Any


async def frame_path(frame: Any, timeout: float) -> str | None:
    """The ``data-agent-frame`` path the parent's pass wrote on this frame's <iframe>, if any."""

    async def read() -> str | None:
        handle = await frame.frame_element()
        try:
            return await handle.get_attribute("data-agent-frame")
        finally:
            await handle.dispose()

    try:
        return await asyncio.wait_for(read(), timeout)
    except Exception:
        return None


def _address(frame: Any) -> str:
    try:
        return str(frame.url or "")
    except Exception:
        return ""


async def frame_paths(
    frames: Sequence[Any], infos: Mapping[str, dict[str, Any]], timeout: float
) -> list[str | None]:
    """The path of each frame: from its address when exactly one unreached cross-origin <iframe> has it (and no
    other frame of the group claims it), else by asking for the frame's element."""
    open_infos = [i for i in infos.values() if i.get("cross_origin") and not i.get("reached")]
    addresses = [_address(f) for f in frames]
    paths: list[str | None] = []
    for address in addresses:
        matches = [i for i in open_infos if address and i.get("url") == address]
        unique = len(matches) == 1 and addresses.count(address) == 1
        paths.append(str(matches[0].get("path") or "") or None if unique else None)
    unknown = [k for k, path in enumerate(paths) if path is None]
    if unknown:
        asked = await asyncio.gather(*(frame_path(frames[k], timeout) for k in unknown))
        for k, path in zip(unknown, asked, strict=True):
            paths[k] = path
    return paths
