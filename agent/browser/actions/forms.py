"""Keyboard and form actions: type into a field, pick an option, press a key."""

from __future__ import annotations

import asyncio
import contextlib
import difflib
import re
from collections.abc import Callable
from typing import Any

from agent.browser.actions.base import ActionFailed, ActionRun, Outcome, fail, ok, settle
from agent.browser.actions.elements import element_action, element_state
from agent.browser.filenames import upload_source
from agent.browser.scripts import browser_script

#: Model-style key names to Playwright key names.
KEY_ALIASES: dict[str, str] = {
    "enter": "Enter",
    "return": "Enter",
    "esc": "Escape",
    "escape": "Escape",
    "tab": "Tab",
    "space": "Space",
    "spacebar": "Space",
    "backspace": "Backspace",
    "delete": "Delete",
    "del": "Delete",
    "up": "ArrowUp",
    "down": "ArrowDown",
    "left": "ArrowLeft",
    "right": "ArrowRight",
    "arrowup": "ArrowUp",
    "arrowdown": "ArrowDown",
    "arrowleft": "ArrowLeft",
    "arrowright": "ArrowRight",
    "pageup": "PageUp",
    "pagedown": "PageDown",
    "page_up": "PageUp",
    "page_down": "PageDown",
    "home": "Home",
    "end": "End",
    "ctrl": "Control",
    "control": "Control",
    "cmd": "Meta",
    "meta": "Meta",
    "alt": "Alt",
    "shift": "Shift",
}


async def field_value(locator: Any, run: ActionRun) -> str:
    """What the field holds now, to verify that typing landed."""
    return str(await locator.evaluate(browser_script("field_value"), timeout=run.ms(1.0)))


def _holds(value: str, text: str, clear: bool) -> bool:
    """The field shows the typed text (whole, or at its end when appending); whitespace is forgiven."""
    squash = lambda s: re.sub(r"\s+", " ", s).strip()  # noqa: E731
    if clear:
        return value == text or squash(value) == squash(text)
    return value.endswith(text) or squash(value).endswith(squash(text))


async def type_action(run: ActionRun) -> Outcome:
    """Type (replace, or append with clear=false) into a text field, verify it, optionally press Enter."""
    text = run.args.get("text")
    if text is None:
        return fail("unknown", "type needs args.text")
    text = str(text)
    clear = bool(run.args.get("clear", True))
    submit = bool(run.args.get("submit", False))
    old = str(run.args.get("replace") or "")

    async def finish(locator: Any, what: str, state: dict[str, Any], how: str) -> Outcome:
        value = await field_value(locator, run)
        secret = state.get("type") == "password"
        if not _holds(value, text, clear):
            shown = f"{len(value)} characters" if secret else repr(value[:120])
            raise ActionFailed("unknown", f"after typing, {what} holds {shown} instead of the text")
        typed = f"{len(text)} characters" if secret else repr(text[:80])
        message = f"typed {typed} into {what}{how}"
        if submit:
            await locator.press("Enter", timeout=run.ms(2.0))
            await settle(run)
            message += " and pressed Enter"
        return ok(message)

    async def check_field(locator: Any, what: str) -> dict[str, Any]:
        state = await element_state(locator, run)
        if state.get("tag") == "select":
            raise ActionFailed("tool_limit", f"{what} is a dropdown; use select_option", final=True)
        if not state.get("editable"):
            reason = "read-only" if state.get("readonly") else "not a text field"
            raise ActionFailed("tool_limit", f"{what} is {reason}; cannot type into it", final=True)
        return state

    async def swap(locator: Any, what: str, by_script: bool) -> Outcome:
        """Replace every ``old`` in what the field holds now by ``text``; the rest of it stays as it was."""
        await check_field(locator, what)
        held = await field_value(locator, run)
        if old not in held:
            raise ActionFailed("element_not_found", f"{what} does not hold {old[:80]!r}", final=True)
        whole = held.replace(old, text)
        if by_script:
            await locator.evaluate(browser_script("set_value"), [whole, True], timeout=run.ms(1.5))
        else:
            await locator.fill(whole, timeout=run.ms(2.0))
        now = await field_value(locator, run)
        if not _holds(now, whole, True):
            raise ActionFailed(
                "unknown", f"after replacing, {what} holds {now[:120]!r} instead of the new text"
            )
        return ok(
            f"replaced {old[:60]!r} with {text[:60]!r} in {what}" + (" (set by script)" if by_script else "")
        )

    async def direct(locator: Any, what: str) -> Outcome:
        if old:
            return await swap(locator, what, False)
        state = await check_field(locator, what)
        if state.get("tag") == "input" and state.get("type") == "file":
            return await choose_file(run, locator, what, text)
        if clear:
            await locator.fill(text, timeout=run.ms(2.0))
        else:
            await locator.evaluate(browser_script("caret_end"), timeout=run.ms(1.0))
            await locator.press_sequentially(text, timeout=run.ms(3.0))
        return await finish(locator, what, state, "")

    async def js(locator: Any, what: str) -> Outcome:
        if old:
            return await swap(locator, what, True)
        state = await check_field(locator, what)
        await locator.evaluate(browser_script("set_value"), [text, clear], timeout=run.ms(1.5))
        return await finish(locator, what, state, " (set by script)")

    return await element_action(run, direct, js, "type")


async def choose_file(run: ActionRun, locator: Any, what: str, text: str) -> Outcome:
    """ "Typing" a path into a file input chooses that file: only from the run's downloads folder (what this run
    downloaded) or the ``upload_dirs`` setting, never from anywhere else on the disk."""
    roots = [run.session.downloads_dir, *run.options.upload_dirs]
    try:
        paths = [upload_source(line, roots) for line in text.splitlines() if line.strip()]
    except ValueError as exc:
        raise ActionFailed("tool_limit", f"not uploading: {exc}", final=True) from None
    if not paths:
        raise ActionFailed("unknown", "type into a file input needs the path of the file to upload")
    await locator.set_input_files([str(p) for p in paths], timeout=run.ms(3.0))
    return ok(f"chose {', '.join(p.name for p in paths)} for {what}")


def _norm(text: str) -> str:
    """Whitespace-collapsed, case-folded text for comparing option labels."""
    return re.sub(r"\s+", " ", text or "").strip().casefold()


def match_option(wanted: str, options: list[dict[str, Any]]) -> dict[str, Any]:
    """Pick the <option> meant by ``wanted`` (label or value; exact, then case-insensitive, prefix, substring,
    then close spelling). Raises ActionFailed(ambiguous_step/element_not_found) listing the choices otherwise."""
    enabled = [o for o in options if not o.get("disabled")]
    target = _norm(wanted)
    tiers: list[Callable[[dict[str, Any]], bool]] = [
        lambda o: o["label"] == wanted,
        lambda o: o["value"] == wanted,
        lambda o: _norm(o["label"]) == target,
        lambda o: _norm(o["value"]) == target,
        lambda o: bool(target) and _norm(o["label"]).startswith(target),
        lambda o: bool(target) and target in _norm(o["label"]),
    ]
    for tier in tiers:
        hits = [o for o in enabled if tier(o)]
        if len(hits) == 1:
            return hits[0]
        if len(hits) > 1:
            labels = ", ".join(repr(o["label"]) for o in hits[:8])
            raise ActionFailed("ambiguous_step", f"option {wanted!r} matches several choices: {labels}")
    labels = [_norm(o["label"]) for o in enabled]
    close = difflib.get_close_matches(target, labels, n=2, cutoff=0.75)
    if len(close) == 1 or (len(close) == 2 and difflib.SequenceMatcher(None, target, close[0]).ratio() > 0.9):
        return enabled[labels.index(close[0])]
    if any(_norm(o["label"]) == target or o["value"] == wanted for o in options if o.get("disabled")):
        raise ActionFailed("tool_limit", f"option {wanted!r} is disabled")
    choices = ", ".join(repr(o["label"]) for o in enabled[:15])
    raise ActionFailed("element_not_found", f"no option matches {wanted!r}; choices: {choices}")


async def select_action(run: ActionRun) -> Outcome:
    """Pick an option of a <select> (or of a custom dropdown) by label or value, and verify it."""
    wanted = run.args.get("option", run.args.get("text"))
    if wanted is None or str(wanted).strip() == "":
        return fail("unknown", "select_option needs args.option (a visible label or a value)")
    wanted = str(wanted)
    # args.options (a list) selects several options of a multiple <select> at once: one by one, each would
    # replace the last.
    several = [str(o) for o in run.args.get("options") or [] if str(o).strip()]

    async def direct(locator: Any, what: str) -> Outcome:
        info = await locator.evaluate(browser_script("select_info"), timeout=run.ms(1.0))
        if info["tag"] != "select":
            return await _custom_dropdown(run, locator, what, wanted)
        try:
            if len(several) > 1:
                return await select_several(locator, what, info)
            choice = match_option(wanted, info["options"])
        except ActionFailed as exc:
            exc.final = True
            raise
        await locator.select_option(value=choice["value"], timeout=run.ms(2.0))
        return await verify(locator, what, choice, "")

    async def select_several(locator: Any, what: str, info: dict[str, Any]) -> Outcome:
        if not info.get("multiple"):
            raise ActionFailed("tool_limit", f"{what} takes one option, not {len(several)}")
        choices = [match_option(w, info["options"]) for w in several]
        await locator.select_option(value=[c["value"] for c in choices], timeout=run.ms(2.0))
        selected = await locator.evaluate(browser_script("selected_values"), timeout=run.ms(1.0))
        if sorted(selected) != sorted(c["value"] for c in choices):
            raise ActionFailed("unknown", f"{what} did not keep the options {[c['label'] for c in choices]}")
        await settle(run, cap=1.0)
        return ok(f"selected {', '.join(repr(c['label']) for c in choices)} in {what}")

    async def verify(locator: Any, what: str, choice: dict[str, Any], how: str) -> Outcome:
        selected = await locator.evaluate(browser_script("selected_values"), timeout=run.ms(1.0))
        if choice["value"] not in selected:
            raise ActionFailed("unknown", f"{what} did not keep the option {choice['label']!r}")
        await settle(run, cap=1.0)
        return ok(f"selected {choice['label']!r} in {what}{how}")

    async def js(locator: Any, what: str) -> Outcome:
        info = await locator.evaluate(browser_script("select_info"), timeout=run.ms(1.0))
        if info["tag"] != "select":
            raise ActionFailed("element_not_found", f"{what} is not a <select>")
        choice = match_option(wanted, info["options"])
        await locator.evaluate(browser_script("set_select_value"), choice["value"], timeout=run.ms(1.0))
        return await verify(locator, what, choice, " (set by script)")

    return await element_action(run, direct, js, "select_option")


async def _custom_dropdown(run: ActionRun, locator: Any, what: str, wanted: str) -> Outcome:
    """A non-native dropdown (role=combobox/listbox): open it, then click the matching role=option."""
    await locator.click(timeout=run.ms(2.0))
    page = run.session.page
    options = page.get_by_role("option")
    await asyncio.sleep(0.15)
    items: list[dict[str, Any]] = []
    count = min(await options.count(), 100)
    for index in range(count):
        option = options.nth(index)
        with contextlib.suppress(Exception):
            if await option.is_visible():
                label = (await option.inner_text(timeout=500)).strip()
                items.append({"label": label, "value": label, "index": index, "disabled": False})
    if not items:
        return await _stand_in_dropdown(run, locator, what, wanted)
    choice = match_option(wanted, items)
    await options.nth(choice["index"]).click(timeout=run.ms(2.0))
    await settle(run, cap=1.0)
    return ok(f"selected {choice['label']!r} in {what}")


async def _stand_in_dropdown(run: ActionRun, locator: Any, what: str, wanted: str) -> Outcome:
    """A dropdown drawn over a hidden <select> (its list items carry no option role): click the item of the
    opened list that reads as the option, then check that the select it stands for took it."""
    info = await locator.evaluate(browser_script("stand_in_select"), timeout=run.ms(1.0))
    if not info.get("options"):
        raise ActionFailed(
            "element_not_found", f"{what} is not a <select> and showed no options when clicked", final=True
        )
    choice = match_option(wanted, info["options"])
    item = locator.get_by_text(choice["label"], exact=True)
    shown = [item.nth(i) for i in range(min(await item.count(), 10))]
    visible = [x for x in shown if await x.is_visible()]
    if not visible:
        raise ActionFailed("element_not_found", f"{what} opened no list item {choice['label']!r}", final=True)
    await visible[-1].click(timeout=run.ms(2.0))
    await settle(run, cap=1.0)
    after = await locator.evaluate(browser_script("stand_in_select"), timeout=run.ms(1.0))
    if choice["value"] not in after.get("selected", []):
        raise ActionFailed("unknown", f"{what} did not keep the option {choice['label']!r}")
    return ok(f"selected {choice['label']!r} in {what}")


def normalize_key(key: str) -> str:
    """'enter' -> 'Enter', 'ctrl+a' -> 'Control+a', 'down' -> 'ArrowDown'."""
    parts = [p.strip() for p in re.split(r"\s*\+\s*", key.strip()) if p.strip()]
    out = []
    for part in parts:
        alias = KEY_ALIASES.get(part.lower().replace(" ", ""))
        if alias:
            out.append(alias)
        elif len(part) == 1:
            out.append(part)
        elif re.fullmatch(r"[fF]\d{1,2}", part):
            out.append(part.upper())
        else:
            out.append(part[:1].upper() + part[1:])
    return "+".join(out)


async def press_key_action(run: ActionRun) -> Outcome:
    """Press a key (or chord) on an element, or on the page when no element is given."""
    raw = str(run.args.get("key") or "").strip()
    if not raw:
        return fail("unknown", "press_key needs args.key")
    key = normalize_key(raw)
    if run.element_id is not None:
        locator = await run.session.locate(run.element_id)
        if locator is None:
            return fail("element_not_found", f"no element {run.element_id} to press {key} on")
        await locator.press(key, timeout=run.ms(2.0))
    else:
        await run.session.page.keyboard.press(key)
    await settle(run)
    return ok(f"pressed {key}")
