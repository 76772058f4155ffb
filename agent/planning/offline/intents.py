"""Intents: what one part of a goal asks for, and its canonical plan-step text.

A goal is parsed once into an ordered tuple of intents. Each intent renders as one plan step that the same
grammar parses back into an equal intent, so the translate node needs nothing but the step string.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import ClassVar

from agent.planning.offline.text import ordinal_word, quote

_QUESTION_WORD = re.compile(
    r"^(?:what|what's|which|who|whom|whose|when|where|why|how|is|are|was|were|does|do|did|can|could|has|have)\b",
    re.I,
)
PURPOSE_WORDS = {"login": "login", "signup": "sign-up", "subscribe": "subscription", "search": "search"}


class _Templated:
    """An intent whose step is one template over its fields: ``{name}`` as written, ``{q_name}`` quoted."""

    TEMPLATE: ClassVar[str] = ""

    def step(self) -> str:
        values = dict(vars(self))
        quoted = {f"q_{k}": quote(v) for k, v in values.items() if isinstance(v, str)}
        return self.TEMPLATE.format(**values, **quoted)


@dataclass(frozen=True)
class _Targeted(_Templated):
    target: str  # the element's name (or, to scroll to, text on the page)


@dataclass(frozen=True)
class Navigate(_Templated):
    """Open ``url`` (already canonical: scheme and host)."""

    TEMPLATE: ClassVar[str] = "Navigate to {url}"
    url: str


@dataclass(frozen=True)
class Search(_Templated):
    """Search for ``query``: with the page's own search box when it has one, else with the search engine."""

    TEMPLATE: ClassVar[str] = "Search for {q_query}"
    query: str


@dataclass(frozen=True)
class Click:
    """Click an element named ``target`` (optionally a role such as link/button), or the n-th listing item."""

    target: str = ""
    role: str = ""
    ordinal: int = 0  # 1-based; -1 = last; 0 = none
    noun: str = ""  # what the ordinal counts: result, product, link, button ...
    near: str = ""  # an anchor phrase: the target closest to it ("Add to cart" near "Blue Widget")
    connector: str = "near"

    def step(self) -> str:
        if self.ordinal:
            return f"Click the {ordinal_word(self.ordinal)} {self.noun or 'result'}"
        text = f"Click the {quote(self.target)} {self.role}" if self.role else f"Click {quote(self.target)}"
        if self.near:
            text += f" {self.connector} {quote(self.near)}"
        return text


@dataclass(frozen=True)
class Hover(_Targeted):
    """Point at an element without clicking it: a menu item whose submenu opens under the pointer (a click
    would choose the item itself)."""

    TEMPLATE: ClassVar[str] = "Point at {q_target}"


@dataclass(frozen=True)
class Choose(_Targeted):
    """Select/choose/pick an item: check it if it is a checkbox/radio, pick it in a dropdown, else click it."""

    TEMPLATE: ClassVar[str] = "Choose {q_target}"


#: The field of a TypeText that goes into the first empty text field ('type X into both fields' is two of them).
NEXT_EMPTY_FIELD = "next empty field"


@dataclass(frozen=True)
class TypeText:
    text: str
    field: str = ""
    submit: bool = False
    append: bool = False  # add to the end of what the field holds (a new line of a page), never replace it
    replace: str = ""  # put ``text`` where the field holds this, keeping the rest of what it holds

    def step(self) -> str:
        if self.replace:
            return f"Replace {quote(self.replace)} with {quote(self.text)} in {quote(self.field)}"
        if self.append:
            return f"Append {quote(self.text)} to {quote(self.field)}"
        base = f"Type {quote(self.text)}" + (f" into {quote(self.field)}" if self.field else "")
        return base + (" and press Enter" if self.submit else "")


@dataclass(frozen=True)
class SelectOption:
    """Pick ``option`` in a dropdown or list; ``more`` are further options of a list that takes several."""

    option: str
    field: str = ""
    more: tuple[str, ...] = ()

    @property
    def options(self) -> tuple[str, ...]:
        return (self.option, *self.more)

    def step(self) -> str:
        picked = ", ".join(quote(o) for o in self.options)
        return f"Select {picked} from " + (quote(self.field) if self.field else "the dropdown")


@dataclass(frozen=True)
class SetCheck:
    target: str
    on: bool = True

    def step(self) -> str:
        return f"{'Check' if self.on else 'Uncheck'} {quote(self.target)}"


@dataclass(frozen=True)
class PressKey(_Templated):
    key: str  # as Playwright names it: Enter, Escape, ArrowDown, Control+a ...
    TEMPLATE: ClassVar[str] = "Press {key}"


@dataclass(frozen=True)
class Scroll:
    direction: str = "down"
    pixels: int = 0  # 0 = one page
    to_end: bool = False  # all the way (bottom when down, top when up)

    def step(self) -> str:
        if self.to_end:
            return "Scroll to the bottom" if self.direction == "down" else "Scroll to the top"
        return f"Scroll {self.direction}" + (f" {self.pixels} pixels" if self.pixels else "")


@dataclass(frozen=True)
class ScrollTo(_Targeted):
    TEMPLATE: ClassVar[str] = "Scroll to {q_target}"


@dataclass(frozen=True)
class GoBack(_Templated):
    TEMPLATE: ClassVar[str] = "Go back"  # in the active tab's history


@dataclass(frozen=True)
class GoForward(_Templated):
    TEMPLATE: ClassVar[str] = "Go forward"  # in the active tab's history


@dataclass(frozen=True)
class Wait:
    seconds: float = 1.0

    def step(self) -> str:
        return f"Wait {self.seconds:g} seconds"


@dataclass(frozen=True)
class Submit:
    """Submit the current form: its submit button (by purpose words), else Enter in the last field."""

    purpose: str = ""  # login | signup | subscribe | search | ""

    def step(self) -> str:
        word = PURPOSE_WORDS.get(self.purpose, "")
        return f"Submit the {word} form" if word else "Submit the form"


@dataclass(frozen=True)
class Dismiss:
    """Get a cookie banner or blocking dialog out of the way."""

    kind: str = "cookie"  # cookie | dialog

    def step(self) -> str:
        return "Accept the cookie banner" if self.kind == "cookie" else "Close the dialog"


@dataclass(frozen=True)
class Ask:
    """A question answered from the page text (the goal's answer)."""

    question: str

    def step(self) -> str:
        mark = "?" if _QUESTION_WORD.match(self.question) else ""
        return f"Answer: {self.question}{mark}"


Intent = (
    Navigate
    | Search
    | Click
    | Hover
    | Choose
    | TypeText
    | SelectOption
    | SetCheck
    | PressKey
    | Scroll
    | ScrollTo
    | GoBack
    | GoForward
    | Wait
    | Submit
    | Dismiss
    | Ask
)

#: Intents that act on an element of the current page (they need a page to be open).
ELEMENT_INTENTS = (Click, Hover, Choose, TypeText, SelectOption, SetCheck, ScrollTo, Submit, Dismiss)


def always_changes_page(intent: Intent) -> bool:
    """Steps after this one must be planned against the page it leads to."""
    if isinstance(intent, Navigate | Search | GoBack | GoForward | Submit):
        return True
    if isinstance(intent, TypeText):
        return intent.submit
    return isinstance(intent, PressKey) and intent.key == "Enter"


def describe(intent: Intent) -> str:
    """A past-tense summary for the final answer; secrets typed into password fields are masked."""
    if isinstance(intent, TypeText) and is_secret_field(intent.field):
        return f"typed {'•' * 6} into {quote(intent.field)}"
    step = intent.step()
    verb, _, rest = step.partition(" ")
    past = {
        "Navigate": "navigated",
        "Search": "searched",
        "Click": "clicked",
        "Choose": "chose",
        "Point": "pointed",
        "Type": "typed",
        "Select": "selected",
        "Check": "checked",
        "Uncheck": "unchecked",
        "Append": "appended",
        "Replace": "replaced",
        "Press": "pressed",
        "Scroll": "scrolled",
        "Go": "went",
        "Wait": "waited",
        "Submit": "submitted",
        "Accept": "accepted",
        "Close": "closed",
    }.get(verb, verb.lower())
    return f"{past} {rest}".strip()


def is_secret_field(field: str) -> bool:
    f = field.lower()
    return any(
        w in f
        for w in (
            "password",
            "passcode",
            "passwd",
            "pwd",
            "pin",
            "secret",
            "cvv",
            "cvc",
            "passphrase",
            "security code",
            "access code",
        )
    )
