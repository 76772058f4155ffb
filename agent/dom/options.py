"""ObserveOptions: the knobs of one observation (bounds, screenshots, time limits).

Kept apart from :class:`agent.context.Context` so the observation layer can be used (and tested) without the
graph; :meth:`ObserveOptions.from_context` maps the run-time settings onto it.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

SCREENSHOT_MODES: tuple[str, ...] = ("never", "on_demand", "every_step")
MIN_CHARS = 400  # room for the header and a few element lines


@dataclass(kw_only=True)
class ObserveOptions:
    """Bounds and behaviour of :func:`agent.dom.observe.observe_page`."""

    #: Most elements listed in the model's text (the rest are counted in ``omitted``).
    max_elements: int = 120
    #: Most characters of the model's text, header and omission note included.
    max_chars: int = 12000
    #: Most tokens of the model's text (estimated: :func:`agent.dom.text.estimate_tokens`), the whole text.
    max_tokens: int = 2250
    #: never | on_demand (only when the caller asks) | every_step.
    screenshot_mode: str = "never"
    #: Draw numbered Set-of-Mark badges on screenshots.
    draw_badges: bool = True
    #: Bound of ``page_text`` (visible text of the page in reading order).
    page_text_chars: int = 20000
    #: Informative (non-interactive) elements marked per frame: headings, prices, labels, cells...
    max_informative: int = 800
    #: Hard cap of marked elements per frame; protects against pathological pages.
    max_marked: int = 5000
    #: Visible text kept per element.
    element_text_chars: int = 160
    #: Reach into cross-origin iframes through Playwright's frames.
    cross_origin_frames: bool = True
    #: Upper bound for one frame's marking pass; a hung page costs at most this (plus the frames' share).
    frame_timeout_s: float = 3.0
    #: How long one frame's marking walk may run before it stops and says where it stopped (None: a share of
    #: ``frame_timeout_s``, so the pass always hands back what it marked before the evaluate call times out).
    marking_budget_s: float | None = None
    #: Upper bound for the whole observation (all frames, screenshot excluded).
    total_timeout_s: float = 6.0
    #: Upper bound for taking a screenshot.
    screenshot_timeout_s: float = 5.0

    def __post_init__(self) -> None:
        if self.screenshot_mode not in SCREENSHOT_MODES:
            raise ValueError(
                f"screenshot_mode must be one of {SCREENSHOT_MODES}, not {self.screenshot_mode!r}"
            )
        # Clamp instead of raising: a too-small bound from a config file must not stop a run.
        self.max_elements = max(1, int(self.max_elements))
        self.max_chars = max(MIN_CHARS, int(self.max_chars))
        self.max_tokens = max(MIN_CHARS // 4, int(self.max_tokens))

    @classmethod
    def from_context(cls, ctx: Any) -> ObserveOptions:
        """Options from an :class:`agent.context.Context` (or anything with the same attribute names)."""
        kwargs: dict[str, Any] = {}
        for name in ("max_elements", "max_chars", "screenshot_mode", "draw_badges"):
            value = getattr(ctx, name, None)
            if value is not None:
                kwargs[name] = value
        return cls(**kwargs)
