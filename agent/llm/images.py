"""Screenshots for a model: scaled to a long side, encoded as an ``image_url`` part, their tokens estimated,
and taken out of a conversation again when a server refuses images.

The file on disk stays as captured (the report shows it); only what is sent is scaled down, never up.
"""

from __future__ import annotations

import base64
import io
import math
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeVar

from langchain_core.messages import BaseMessage, HumanMessage

from agent.llm.errors import ModelCallError

T = TypeVar("T")

MAX_IMAGE_BYTES = 8 * 1024 * 1024
#: The default longest side, in pixels, of a screenshot sent to a model.
DEFAULT_LONG_SIDE = 1024
DETAILS = ("auto", "low", "high")
#: Stands in for a screenshot taken out of a message (a server that refuses images).
NO_IMAGE_NOTE = "(no screenshot: this model server does not accept images)"


@dataclass(frozen=True)
class ScreenshotImage:
    """One screenshot as sent: the content part, its size after scaling and its estimated token cost."""

    part: dict[str, Any]
    width: int
    height: int
    tokens: int


def image_tokens(width: int, height: int, detail: str = "auto") -> int:
    """Estimated input tokens of one image (OpenAI's published tiling rule: ``low`` is a flat 85; otherwise
    fit in 2048x2048, shortest side down to 768, then 170 per 512-pixel tile plus 85). Servers count
    images inside their own input_tokens; this says how much of that the screenshots were."""
    if detail == "low" or width <= 0 or height <= 0:
        return 85
    scale = min(1.0, 2048 / max(width, height))
    w, h = width * scale, height * scale
    scale = min(1.0, 768 / min(w, h))
    w, h = w * scale, h * scale
    return 85 + 170 * math.ceil(w / 512) * math.ceil(h / 512)


def screenshot_image(
    path: str | Path, *, long_side: int = DEFAULT_LONG_SIDE, detail: str = "auto"
) -> ScreenshotImage | None:
    """The screenshot scaled so its longer side is at most ``long_side``, as a PNG data URL ``image_url`` part
    with ``detail``; None when the file is unreadable, not an image or too big."""
    from PIL import Image, UnidentifiedImageError

    try:
        data = Path(path).read_bytes()
    except OSError:
        return None
    if not data or len(data) > MAX_IMAGE_BYTES:
        return None
    try:
        with Image.open(io.BytesIO(data)) as image:
            width, height = image.size
            factor = long_side / max(width, height)
            if factor < 1:
                width, height = max(1, round(width * factor)), max(1, round(height * factor))
                buffer = io.BytesIO()
                image.convert("RGB").resize((width, height), Image.Resampling.LANCZOS).save(buffer, "PNG")
                data = buffer.getvalue()
    except (UnidentifiedImageError, OSError, ValueError):
        return None
    url = f"data:image/png;base64,{base64.b64encode(data).decode('ascii')}"
    part = {"type": "image_url", "image_url": {"url": url, "detail": detail}}
    return ScreenshotImage(part, width, height, image_tokens(width, height, detail))


def image_part(path: str | Path, *, long_side: int = DEFAULT_LONG_SIDE, detail: str = "auto") -> dict | None:
    """Just the content part of :func:`screenshot_image` (None when there is no usable image)."""
    image = screenshot_image(path, long_side=long_side, detail=detail)
    return image.part if image else None


def has_images(messages: list[BaseMessage]) -> bool:
    return any(isinstance(m.content, list) and any(_is_image(p) for p in m.content) for m in messages)


def without_images(messages: list[BaseMessage]) -> list[BaseMessage]:
    """The same conversation with every image part replaced by a short text saying there is none."""
    out: list[BaseMessage] = []
    for message in messages:
        if not (isinstance(message.content, list) and any(_is_image(p) for p in message.content)):
            out.append(message)
            continue
        texts = [
            p.get("text", "") if isinstance(p, dict) else str(p) for p in message.content if not _is_image(p)
        ]
        text = "\n\n".join(t for t in texts if t) + "\n\n" + NO_IMAGE_NOTE
        out.append(HumanMessage(content=text) if isinstance(message, HumanMessage) else message)
    return out


async def unless_images_refused(
    ask: Callable[[list[BaseMessage]], Awaitable[T]], messages: list[BaseMessage]
) -> tuple[T, ModelCallError | None]:
    """``ask(messages)``; when the server refuses it (HTTP 400) while it carries images, the same request without
    them: (the reply, the refusal) if that one is taken. Any other failure, or a refusal without images, is raised."""
    try:
        return await ask(messages), None
    except ModelCallError as exc:
        if exc.status != 400 or not has_images(messages):
            raise
        return await ask(without_images(messages)), exc


def _is_image(part: Any) -> bool:
    return isinstance(part, dict) and part.get("type") in ("image_url", "image")
