"""What a screenshot must not show: fields a secret was typed into, and password fields.

The run's secret values never come into the browser layer except inside the ``type`` action that types them;
after typing, the field is marked with :data:`SECRET_ATTR`, and every screenshot (the observation's and the
screenshot action's) is taken with Playwright's ``mask`` over the marked fields and all password inputs, so a
value shown in clear text (an API key in a text field) is a solid box in the picture.
"""

from __future__ import annotations

import asyncio
import contextlib
from typing import Any

from agent.browser.session_base import SessionState

#: Attribute set on a field that holds a secret's value.
SECRET_ATTR = "data-agent-secret"
#: What every screenshot masks.
MASK_SELECTOR = f'[{SECRET_ATTR}], input[type="password"]'


def screenshot_masks(page: Any) -> list[Any]:
    """Locators to pass as ``mask=`` to ``page.screenshot``: the secret-bearing fields of every frame."""
    masks = []
    for frame in list(page.frames):
        with contextlib.suppress(Exception):
            if not frame.is_detached():
                masks.append(frame.locator(MASK_SELECTOR))
    return masks


class SecretFieldsMixin(SessionState):
    """Marking the fields a secret was typed into (see the module docstring)."""

    async def mark_secret_field(self, element_id: int | None) -> None:
        """Mark the field ``element_id`` as holding a secret; never raises."""
        locator = await self.locate(element_id)  # type: ignore[attr-defined]
        if locator is None:
            return
        with contextlib.suppress(Exception):
            await asyncio.wait_for(locator.evaluate(f"el => el.setAttribute('{SECRET_ATTR}', '')"), 2)
