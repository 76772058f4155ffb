"""The goal grammar: plain imperative English (and compositions of it) -> an ordered tuple of intents.

Quoted values are masked first so nothing inside quotes is ever split or reinterpreted. The goal is cut at
hard separators ("then", ";", newlines, sentence ends) and at soft ones ("and", commas) only where the next
words start a new command, so "search for salt and pepper" stays one search. Each clause is tried against
ordered rules; a clause no rule understands makes the whole goal not understood (never a partial guess).
Plan steps are rendered in a canonical subset of the same grammar, so ``parse_goal(step)`` reads them back.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from functools import lru_cache

from agent.planning.offline.intents import (
    Ask,
    Choose,
    Click,
    Dismiss,
    GoBack,
    GoForward,
    Intent,
    Navigate,
    PressKey,
    Scroll,
    ScrollTo,
    Search,
    SelectOption,
    SetCheck,
    Submit,
    TypeText,
    Wait,
)
from agent.planning.offline.text import (
    MASK,
    has_mask,
    mask_quotes,
    only_mask,
    ordinal_value,
    quote,
    unmask,
)
from agent.planning.offline.urls import canonical_url, looks_like_url

I = re.IGNORECASE  # noqa: E741 - short alias keeps the rule table readable


@dataclass(frozen=True)
class ParsedGoal:
    """The goal as intents, or the clauses that were not understood."""

    goal: str
    intents: tuple[Intent, ...]
    unknown: tuple[str, ...] = ()

    @property
    def understood(self) -> bool:
        return bool(self.intents) and not self.unknown

    @property
    def actions(self) -> tuple[Intent, ...]:
        return tuple(i for i in self.intents if not isinstance(i, Ask))

    @property
    def questions(self) -> tuple[Ask, ...]:
        return tuple(i for i in self.intents if isinstance(i, Ask))


SUPPORTED_PHRASINGS = (
    "go to / open / visit <url or page name>",
    "search for <text>",
    "click / tap / press <button or link>",
    "type <text> into <field>; fill <field> with <text>; enter <text> as <field>",
    "select <option> from <dropdown>",
    "check / uncheck <checkbox>",
    "press <key>",
    "scroll down / up / to the bottom",
    "log in as <user> with password <password>",
    "sign up / subscribe with <email>",
    "go back",
    "questions: what is / how many / find / list / tell me ...",
)

# --------------------------------------------------------------------------------------------------------------
# Clause splitting
# --------------------------------------------------------------------------------------------------------------

_HARD_SPLIT = re.compile(
    r"""\s*[\n;]+\s*
      | \s*,?\s*\b(?:and\s+then|then|after\s+that|afterwards?|after\s+which|and\s+finally|finally|lastly
                   |subsequently|once\s+(?:that\s+is|that's|it\s+is|it's)\s+done)\b[\s,:]*
      | (?<=[.!?])\s+(?=\S)
      | \s*,\s*(?:next|now)\s*,\s*""",
    re.I | re.X,
)
_SOFT_SPLIT = re.compile(r"\s*,\s*(?:and\s+|&\s*)?|\s+(?:and|&)\s+|\s+as\s+well\s+as\s+", re.I)

_FILLERS = re.compile(
    r"""^(?:please|pls|kindly|then|and|also|first(?:ly)?|second(?:ly)?|third(?:ly)?|next|now|finally|lastly
          |ok(?:ay)?|so|just|simply|go\s+ahead\s+and|afterwards?|after\s+that)\b[\s,:]*
      | ^(?:i\s+(?:want|need|would\s+like|'d\s+like|wish)\s+(?:you\s+)?to|can\s+you|could\s+you|would\s+you
          |will\s+you|help\s+me(?:\s+to)?|try\s+to|you\s+should|you\s+need\s+to|let'?s|step\s+\d+\s*[:.)-]
          |\d+\s*[.)]|[-*•]|>)\s*""",
    re.I | re.X,
)
_TRAILING = re.compile(r"(?:[\s.!,;:]+|\s+(?:please|for\s+me|now|thanks|thank\s+you))+$", re.I)

VERB_START = re.compile(
    r"""^(?:go|open|visit|navigate|browse|head|load|launch|search|look|google|click|double[- ]?click|right[- ]?click
        |tap|hit|press|push|select|choose|pick|type|enter|fill|input|write|put|set|clear|check|tick|mark|uncheck
        |untick|unmark|deselect|unselect|toggle|enable|disable|turn|switch|scroll|log|login|logout|sign|signin
        |signup|register|subscribe|submit|send|wait|accept|agree|dismiss|close|what|what's|whats|how|find|tell
        |which|who|whom|whose|when|where|why|list|get|give|show|count|read|extract|return|add|remove|download
        |follow|use|answer|is\s+there|are\s+there|does|did|verify|confirm|report|key\s+in|insert|paste
        |activate|expand|collapse|focus|locate|identify|determine)\b""",
    re.I | re.X,
)

_TYPE_VERB = re.compile(
    r"^(?:type|enter|input|write|fill(?:\s+in|\s+out)?|put|key\s+in|insert|provide|use)\b", re.I
)


def strip_fillers(clause: str) -> str:
    previous = None
    text = clause.strip()
    while text != previous:
        previous = text
        text = _FILLERS.sub("", text).strip()
        text = _TRAILING.sub("", text).strip()
    return text


def _soft_split(chunk: str, spans: tuple[str, ...]) -> list[str]:
    """Split a clause at commas/'and' only where a new command starts (or a type-command continues)."""
    bounds = list(_SOFT_SPLIT.finditer(chunk))
    parts: list[str] = []
    start = 0
    prefix = ""
    for n, m in enumerate(bounds):
        left = prefix + chunk[start : m.start()]
        end = bounds[n + 1].start() if n + 1 < len(bounds) else len(chunk)
        right = strip_fillers(chunk[m.end() : end])
        if not left.strip() or not right:
            continue
        if VERB_START.match(right):
            parts.append(left)
            start, prefix = m.end(), ""
            continue
        verb = _TYPE_VERB.match(strip_fillers(left))
        if verb and _typed_with_field(strip_fillers(left), spans):
            candidate = f"{verb.group(0)} {right}"
            if _typed_with_field(candidate, spans):
                parts.append(left)
                start, prefix = m.end(), verb.group(0) + " "
    parts.append(prefix + chunk[start:])
    return parts


def _typed_with_field(clause: str, spans: tuple[str, ...]) -> bool:
    intents = _parse_type(clause, spans)
    return bool(intents) and all(isinstance(i, TypeText) and i.field for i in intents)


def split_clauses(masked: str, spans: tuple[str, ...] = ()) -> list[str]:
    """Cut a masked goal into command clauses (fillers stripped, empty pieces dropped)."""
    clauses: list[str] = []
    for chunk in _HARD_SPLIT.split(masked):
        if not chunk or not chunk.strip():
            continue
        for part in _soft_split(chunk.strip(), spans):
            cleaned = strip_fillers(part)
            if cleaned:
                clauses.append(cleaned)
    return clauses


# --------------------------------------------------------------------------------------------------------------
# Values and targets
# --------------------------------------------------------------------------------------------------------------

_ARTICLES = re.compile(r"^(?:the|a|an|this|that|your|my|our|its|their|some|any)(?:\s+|$)", re.I)
_VALUE_NOISE = {
    "the",
    "a",
    "an",
    "text",
    "word",
    "words",
    "value",
    "string",
    "phrase",
    "query",
    "term",
    "number",
    "name",
    "following",
    "keyword",
    "keywords",
}


def value(text: str, spans: tuple[str, ...]) -> str:
    """The literal value a clause carries: a quoted span verbatim, else the words (quotes removed)."""
    t = text.strip()
    idx = only_mask(t)
    if idx is not None and idx < len(spans):
        return spans[idx]
    if has_mask(t):
        words = re.sub(MASK + r"\d+" + MASK, " ", t).lower().split()
        if all(w in _VALUE_NOISE for w in words):
            inner = re.search(MASK + r"(\d+)" + MASK, t)
            if inner and int(inner.group(1)) < len(spans):
                return spans[int(inner.group(1))]
    return unmask(t, spans).strip().strip(".,;:!?").strip()


def shown(text: str, spans: tuple[str, ...]) -> str:
    """The clause as the user wrote it, quotes restored (for questions and error messages)."""
    return re.sub(
        MASK + r"(\d+)" + MASK,
        lambda m: quote(spans[int(m.group(1))]) if int(m.group(1)) < len(spans) else "",
        text,
    ).strip()


ROLE_WORDS: dict[str, tuple[str, ...]] = {
    "textbox": (
        "text box",
        "textbox",
        "text field",
        "textfield",
        "text area",
        "textarea",
        "text input",
        "input field",
        "input box",
        "entry field",
        "field",
        "box",
        "input",
        "bar",
        "entry",
    ),
    "button": ("button", "btn"),
    "link": ("hyperlink", "link"),
    "tab": ("tab",),
    "checkbox": ("check box", "checkbox", "tick box", "tickbox", "toggle", "switch"),
    "radio": ("radio button", "radio", "option button"),
    "combobox": (
        "drop-down menu",
        "dropdown menu",
        "drop down menu",
        "drop-down list",
        "dropdown list",
        "drop-down",
        "drop down",
        "dropdown",
        "select box",
        "select menu",
        "select list",
        "combo box",
        "combobox",
        "list box",
        "listbox",
        "select",
        "menu",
        "list",
        "options",
    ),
    "": ("icon", "option", "item", "element", "control", "one"),
}
CLICK_ROLES = ("button", "link", "tab", "checkbox", "radio", "textbox", "")
FIELD_ROLES = ("textbox", "combobox", "")
SELECT_ROLES = ("combobox", "textbox", "")
CHECK_ROLES = ("checkbox", "radio", "button", "")

_LABELLED = re.compile(
    r"^(?P<role>[\w -]+?)\s+(?:labell?ed|named|called|titled|saying|that\s+says|which\s+says|with\s+(?:the\s+)?"
    r"(?:text|label|name|caption|title))\s+(?P<p>.+)$",
    I,
)


def _role_word_rx(roles: tuple[str, ...]) -> list[tuple[re.Pattern[str], str]]:
    pairs = [(w, r) for r in roles for w in ROLE_WORDS[r]]
    pairs.sort(key=lambda p: -len(p[0]))
    return [(re.compile(r"(?:^|\s)" + re.escape(w).replace(r"\ ", r"[\s-]+") + r"$", I), r) for w, r in pairs]


_ROLE_RX_CACHE: dict[tuple[str, ...], list[tuple[re.Pattern[str], str]]] = {}


def target_of(text: str, spans: tuple[str, ...], roles: tuple[str, ...]) -> tuple[str, str]:
    """Split an element reference into (phrase, role hint): 'the "Sign in" button' -> ('Sign in', 'button')."""
    rxs = _ROLE_RX_CACHE.setdefault(roles, _role_word_rx(roles))
    t = _ARTICLES.sub("", text.strip()).strip()
    m = _LABELLED.match(t)
    if m:
        head = " " + _ARTICLES.sub("", m.group("role")).strip()
        role = next((r for rx, r in rxs if rx.search(head)), "")
        return value(_ARTICLES.sub("", m.group("p").strip()), spans), role
    role = ""
    for rx, r in rxs:
        found = rx.search(t)
        if found:
            t, role = t[: found.start()].strip(), r
            break
    lead = re.match(r"^(?P<w>[\w -]+?)\s+(?P<rest>" + MASK + r"\d+" + MASK + r")$", t)
    if lead:
        head = " " + _ARTICLES.sub("", lead.group("w")).strip()
        hinted = next((r for rx, r in rxs if rx.fullmatch(head)), None)
        if hinted is not None:
            t, role = lead.group("rest"), role or hinted
    t = _ARTICLES.sub("", t).strip()
    return (value(t, spans) if t else ""), role


_PRONOUNS = {
    "it",
    "them",
    "this",
    "that",
    "one",
    "these",
    "those",
    "this one",
    "that one",
    "the item",
    "item",
}
_ORDINAL_RX = re.compile(
    r"^(?:the\s+)?(?P<o>first|second|third|fourth|fifth|sixth|seventh|eighth|ninth|tenth|last|\d+(?:st|nd|rd|th))"
    r"\s+(?P<n>[\w -]+?)(?:\s+(?:in|on|of|from)\s+(?:the\s+)?(?:list|page|results|listing|search\s+results|grid))?$"
    r"|^(?:the\s+)?(?P<n2>result|item|product|link|entry|article|post|story|video|listing)\s*(?:#|no\.\s*)(?P<o2>\d+)$"
    r"|^(?:the\s+)?(?P<n3>(?:search\s+)?result)\s+number\s+(?P<o3>\d+)$",
    I,
)
_ORDINAL_HEADS = frozenset(
    "result item product link button entry article post story video listing card row one option checkbox box "
    "field input tab image picture photo hit match record book course job review comment message email thread "
    "repository repo question answer title headline heading user profile song track episode movie film recipe "
    "offer deal hotel flight house apartment event file document folder cell suggestion dropdown radio".split()
)
_ORDINAL_NOUNS = {
    "search result": "result",
    "results": "result",
    "search results": "result",
    "hit": "result",
}


def ordinal_of(text: str) -> tuple[int, str] | None:
    """'the 7th search result' -> (7, 'result'); 'the last product' -> (-1, 'product')."""
    m = _ORDINAL_RX.match(text.strip())
    if not m:
        return None
    word, noun = next(
        (m.group(o), m.group(n)) for o, n in (("o", "n"), ("o2", "n2"), ("o3", "n3")) if m.group(o)
    )
    n = ordinal_value(word)
    if not n or has_mask(noun):
        return None
    noun = re.sub(r"\s+", " ", noun.lower().strip())
    noun = _ORDINAL_NOUNS.get(noun, noun)
    noun = re.sub(r"s$", "", noun) if noun.endswith("s") and not noun.endswith("ss") else noun
    if noun.split()[-1] not in _ORDINAL_HEADS or noun.split()[0] == "name":
        return None  # 'the first name field' is a field, 'the last page' a link: not list positions
    return n, noun


_NEAR_RX = re.compile(
    r"^(?P<h>.+?)\s+(?P<c>next\s+to|near|beside|for|below|under|belonging\s+to)\s+(?P<a>.+)$", I
)


def _split_list(text: str) -> list[str]:
    """'A, B and C' -> ['A', 'B', 'C'] (only called when a comma is present)."""
    text = re.sub(
        r"^(?:the\s+)?(?:following\s+)?(?:boxes|checkboxes|options|items|ones|words)?\s*:\s*",
        "",
        text,
        flags=I,
    )
    return [p for p in re.split(r"\s*,\s*(?:and\s+|or\s+)?|\s+(?:and|or)\s+", text) if p.strip()]


def _click_targets(x: str, spans: tuple[str, ...], role_default: str = "") -> list[Click] | None:
    x = x.strip()
    if not x:
        return None
    ordinal = ordinal_of(x)
    if ordinal:
        n, noun = ordinal
        return [Click(ordinal=n, noun=noun)]
    near = _NEAR_RX.match(x)
    if near:
        head, anchor, conn = near.group("h"), near.group("a"), near.group("c").lower()
        strong = conn not in ("for", "below", "under")
        phrase, role = target_of(head, spans, CLICK_ROLES)
        head_marked = has_mask(head) or bool(role)
        anchor_text = _ARTICLES.sub("", anchor.strip())
        if (strong or head_marked) and anchor_text.lower() not in _PRONOUNS and (phrase or role):
            return [
                Click(
                    target=phrase,
                    role=role or role_default,
                    near=value(anchor_text, spans),
                    connector=re.sub(r"\s+", " ", conn),
                )
            ]
    if "," in x:
        items = _split_list(x)
        if len(items) > 1 and all(len(i.split()) <= 5 for i in items):
            out = []
            for item in items:
                phrase, role = target_of(item, spans, CLICK_ROLES)
                if not phrase:
                    return None
                out.append(Click(target=phrase, role=role or role_default))
            return out
    phrase, role = target_of(x, spans, CLICK_ROLES)
    if not phrase and not role:
        return None
    return [Click(target=phrase, role=role or role_default)]


# --------------------------------------------------------------------------------------------------------------
# Rules: each takes a masked clause (fillers stripped) and returns intents, or None when it does not apply.
# --------------------------------------------------------------------------------------------------------------

Rule = Callable[[str, tuple[str, ...]], list[Intent] | None]


def _parse_answer(c: str, spans: tuple[str, ...]) -> list[Intent] | None:
    m = re.match(r"^answer\s*:\s*(?P<q>.+)$", c, I)
    if not m:
        return None
    q = _question_text(m.group("q"), spans)
    return [Ask(q)] if q else None


def _question_text(text: str, spans: tuple[str, ...]) -> str:
    """A question as shown to the user, whitespace collapsed and end punctuation dropped (stable round trip)."""
    return re.sub(r"\s+", " ", shown(text, spans)).strip().strip("?.!,;: ").strip()


def _parse_url(c: str, spans: tuple[str, ...]) -> list[Intent] | None:
    text = value(c, spans)
    return [Navigate(canonical_url(text))] if looks_like_url(text) else None


def _parse_back(c: str, spans: tuple[str, ...]) -> list[Intent] | None:
    if re.match(
        r"^(?:go|navigate|move|head|step)\s+back(?:wards?)?(?:\s+(?:to\s+)?(?:the\s+)?(?:previous|prior|last)"
        r"\s+page)?(?:\s+(?:a|one)\s+page)?$|^back$|^(?:return|go)\s+to\s+(?:the\s+)?(?:previous|prior)\s+"
        r"page$|^go\s+to\s+the\s+page\s+before$",
        c,
        I,
    ):
        return [GoBack()]
    if re.match(r"^(?:go|navigate|move)\s+forwards?(?:\s+(?:a|one)\s+page)?$|^forward$", c, I):
        return [GoForward()]
    return None


_DIALOG_WORDS = (
    r"(?:dialog|modal|pop-?up|pop\s+up|overlay|banner|lightbox|window|interstitial|notification|prompt|alert)"
)


def _parse_dismiss(c: str, spans: tuple[str, ...]) -> list[Intent] | None:
    if re.match(
        r"^(?:accept|allow|agree\s+to|consent\s+to|ok)\s+(?:all\s+)?(?:the\s+)?(?:cookies?|tracking|consent)"
        r"(?:\s+(?:banner|notice|pop-?up|dialog|prompt|consent|policy|wall|bar|message))?$",
        c,
        I,
    ):
        return [Dismiss("cookie")]
    if re.match(
        r"^(?:dismiss|close|hide|remove|get\s+rid\s+of|clear|accept)\s+(?:the\s+|this\s+|any\s+)?"
        r"(?:cookie|consent|gdpr|privacy)\s*(?:banner|notice|pop-?up|dialog|prompt|bar|wall|message)?$",
        c,
        I,
    ):
        return [Dismiss("cookie")]
    m = re.match(
        r"^(?:dismiss|close|hide|exit|get\s+rid\s+of)\s+(?:the\s+|this\s+|any\s+)?"
        + _DIALOG_WORDS
        + r"(?:\s+box|\s+window)?(?:\s+by\s+(?:clicking|pressing|tapping|hitting)(?:\s+on)?\s+(?P<x>.+))?$",
        c,
        I,
    )
    if m:
        if m.group("x"):
            return _click_targets(m.group("x"), spans)  # type: ignore[return-value]
        return [Dismiss("dialog")]
    return None


_CRED = r"(?:" + MASK + r"\d+" + MASK + r"|[^\s,;()]+)"


def _credentials(rest: str, spans: tuple[str, ...]) -> tuple[str, str, str]:
    """(user, password, leftover) from the tail of a login/sign-up clause."""
    password = ""
    pm = re.search(
        r"(?:,\s*|\s+and\s+|\s+with\s+|\s+using\s+|\s+)?(?:the\s+|a\s+|my\s+)?(?:password|passcode|pass|"
        r"pwd|pw)\s*(?:is\s+|of\s+|=\s*|:\s*)?(?P<p>" + _CRED + ")",
        rest,
        I,
    )
    if pm:
        password = value(pm.group("p"), spans)
        rest = rest[: pm.start()] + " " + rest[pm.end() :]
    user = ""
    um = re.search(
        r"(?:\b(?:as|with|using)\s+(?:(?:the|my|an?)\s+)?(?:(?:username|user\s*name|user|e-?mail(?:\s+address)?"
        r"|login|account|id)\s*[:=]?\s*)?|\b(?:username|user\s*name|user|e-?mail(?:\s+address)?|login)\s*"
        r"[:=]?\s*)(?P<u>" + _CRED + ")",
        rest,
        I,
    )
    if um and um.group("u").lower() not in ("and", "with", "password", "the", "a", "an"):
        user = value(um.group("u"), spans)
        rest = rest[: um.start()] + " " + rest[um.end() :]
    if not password and user and "/" in user and user.count("/") == 1 and "://" not in user:
        user, password = (s.strip() for s in user.split("/"))
    return user, password, rest.strip()


def _site_prefix(rest: str, spans: tuple[str, ...]) -> tuple[list[Intent], str]:
    m = re.match(r"^\s*(?:to|into|on|at)\s+(?:the\s+)?(?P<s>\S+)(?:\s+(?:site|website|page))?", rest, I)
    if m and looks_like_url(value(m.group("s"), spans)):
        return [Navigate(canonical_url(value(m.group("s"), spans)))], rest[m.end() :]
    m = re.match(r"^\s*(?:to|into)\s+(?:your|my|the)\s+account\b", rest, I)
    if m:
        return [], rest[m.end() :]
    return [], rest


def _parse_login(c: str, spans: tuple[str, ...]) -> list[Intent] | None:
    if re.match(r"^(?:log|sign)[\s-]*(?:out|off)\b|^(?:logout|signout)$", c, I):
        return [Click(target="log out")]
    m = re.match(r"^(?:(?:log|sign)[\s-]*(?:in|on)|login|signin|authenticate)(?:to)?\b(?P<rest>.*)$", c, I)
    if not m:
        return None
    prefix, rest = _site_prefix(m.group("rest"), spans)
    provider = re.fullmatch(
        r"\s*(?:with|using|via|through)\s+(?P<p>[A-Z][\w.]*(?:\s+[A-Z][\w.]*)?|sso|SSO)\s*", rest
    )
    if provider:
        return [*prefix, Click(target=f"log in with {value(provider.group('p'), spans)}")]
    user, password, leftover = _credentials(rest, spans)
    if not user and not password:
        if re.sub(
            r"\b(?:now|here|again|with\s+(?:my|the)\s+account|to\s+(?:your|my|the)\s+account)\b",
            "",
            leftover,
            flags=I,
        ).strip():
            return None
        return [*prefix, Click(target="log in")]
    intents: list[Intent] = list(prefix)
    if user:
        intents.append(TypeText(user, "email" if "@" in user else "username"))
    if password:
        intents.append(TypeText(password, "password"))
    intents.append(Submit("login"))
    return intents


def _parse_signup(c: str, spans: tuple[str, ...]) -> list[Intent] | None:
    m = re.match(
        r"^(?P<v>sign[\s-]*up|signup|subscribe|register|enrol+|join|create\s+(?:an?\s+|my\s+|a\s+new\s+)?"
        r"account)\b(?P<rest>.*)$",
        c,
        I,
    )
    if not m:
        return None
    verb = re.sub(r"\s+", " ", m.group("v").lower())
    prefix, rest = _site_prefix(m.group("rest"), spans)
    what = ""
    wm = re.match(
        r"^\s*(?:to|for|on|at)\s+(?:the\s+|our\s+|a\s+|an\s+|your\s+)?(?P<w>.+?)(?=\s+(?:with|using|as)\b|$)",
        rest,
        I,
    )
    if wm:
        what = value(wm.group("w"), spans)
        rest = rest[wm.end() :]
    user, password, leftover = _credentials(rest, spans)
    purpose = "subscribe" if verb.startswith("subscribe") or "newsletter" in what.lower() else "signup"
    if not user:
        if leftover:
            return None
        label = {"subscribe": "subscribe", "register": "register", "join": "join"}.get(verb, "sign up")
        if verb.startswith("create"):
            label = "create account"
        return [*prefix, Click(target=label)]
    intents: list[Intent] = [*prefix, TypeText(user, "email" if "@" in user else "username")]
    if password:
        intents.append(TypeText(password, "password"))
    intents.append(Submit(purpose))
    return intents


_PAGE_SUFFIX = re.compile(r"\s+(?P<w>page|section|screen|area|tab|site|website|view|menu)$", I)


def _parse_end_scroll(c: str, spans: tuple[str, ...]) -> list[Intent] | None:
    m = re.match(
        r"^(?:scroll(?:\s+(?:the\s+)?page)?(?:\s+all\s+the\s+way)?\s+(?:down\s+|up\s+)?|(?:go|jump|move)\s+)"
        r"to\s+(?:the\s+)?(?:very\s+)?(?P<e>bottom|top|end|beginning|start)(?:\s+of\s+(?:the\s+)?page)?$",
        c,
        I,
    )
    if not m:
        return None
    down = m.group("e").lower() in ("bottom", "end")
    return [Scroll("down" if down else "up", to_end=True)]


def _parse_navigate(c: str, spans: tuple[str, ...]) -> list[Intent] | None:
    if re.match(r"^(?:go|navigate|head|return)\s+(?:back\s+)?home$", c, I):
        return [Click(target="home", role="link")]
    m = re.match(
        r"^(?:go|navigate|browse|head|get|jump|proceed|move|switch|return|come)\s+(?:over\s+|back\s+|"
        r"straight\s+|directly\s+)?(?:to|into|onto)\s+(?P<t>.+)$",
        c,
        I,
    ) or re.match(r"^(?:open|visit|load|launch|browse|navigate)\s+(?:up\s+)?(?:to\s+)?(?P<t>.+)$", c, I)
    if not m:
        return None
    t = m.group("t").strip()
    text = value(t, spans)
    if looks_like_url(text):
        return [Navigate(canonical_url(text))]
    if looks_like_url(value(t.split()[0], spans)):
        return None  # a site followed by words this grammar does not know: better not understood than misread
    if re.match(r"^(?:the\s+)?(?:previous|prior)\s+page$", t, I):
        return [GoBack()]
    if re.search(r"\bnew\s+(?:tab|window)\b", t, I):
        return None
    ordinal = ordinal_of(t)
    if ordinal:
        return [Click(ordinal=ordinal[0], noun=ordinal[1])]
    t = _ARTICLES.sub("", t).strip()
    role = "link"
    suffix = _PAGE_SUFFIX.search(t)
    if suffix and len(t.split()) > 1:
        role = "tab" if suffix.group("w").lower() == "tab" else "link"
        t = t[: suffix.start()].strip()
    if re.search(r"\s(?:of|on|at)\s+\S+\.\S+$", t):
        return None
    phrase, hinted = target_of(t, spans, CLICK_ROLES)
    if not phrase:
        return None
    return [Click(target=phrase, role=hinted or role)]


def _parse_search(c: str, spans: tuple[str, ...]) -> list[Intent] | None:
    m = re.match(r"^search\s+(?:on\s+)?(?P<site>\S+)\s+for\s+(?P<q>.+)$", c, I)
    prefix: list[Intent] = []
    if m and looks_like_url(value(m.group("site"), spans)):
        prefix = [Navigate(canonical_url(value(m.group("site"), spans)))]
        q = m.group("q")
    else:
        m = (
            re.match(r"^(?:search|look|google|query|seek|hunt)\s+(?:for|up)\s+(?P<q>.+)$", c, I)
            or re.match(
                r"^search\s+(?:the|this|our|your)\s+(?:[\w-]+\s+){0,2}?(?:site|store|shop|catalog(?:ue)?|website|"
                r"page|web|internet|blog|docs|documentation|forum|wiki)\s+for\s+(?P<q>.+)$",
                c,
                I,
            )
            or re.match(r"^(?:search|google)\s+(?!for\b)(?P<q>.+)$", c, I)
            or re.match(r"^do\s+a\s+search\s+for\s+(?P<q>.+)$", c, I)
        )
        if not m:
            return None
        q = m.group("q")
    q = re.sub(
        r"\s+(?:in|using|with|on|via)\s+(?:the\s+)?(?:site\s+)?search(?:\s*(?:box|bar|field|engine|form))?$|"
        r"\s+on\s+(?:the\s+|this\s+)?(?:site|page|website)$",
        "",
        q,
        flags=I,
    )
    site = re.search(r"\s+(?:on|at|in)\s+(?P<s>\S+)$", q, I)
    if site and looks_like_url(value(site.group("s"), spans)):
        prefix = [Navigate(canonical_url(value(site.group("s"), spans)))]
        q = q[: site.start()]
    query = value(q, spans)
    return [*prefix, Search(query)] if query else None


_KEYS = (
    r"(?:ctrl|control|cmd|command|meta|alt|option|shift)\s*\+\s*(?:[\w]+)(?:\s*\+\s*[\w]+)?|enter|return|escape|esc"
    r"|tab|space\s*bar|spacebar|space|backspace|back\s+space|delete|del|home|end|page\s*up|page\s*down|pgup|pgdn"
    r"|(?:arrow\s*)?(?:up|down|left|right)(?:\s*arrow)?|f\d{1,2}|insert"
)
_KEY_NAMES = {
    "enter": "Enter",
    "return": "Enter",
    "escape": "Escape",
    "esc": "Escape",
    "tab": "Tab",
    "space": "Space",
    "spacebar": "Space",
    "backspace": "Backspace",
    "delete": "Delete",
    "del": "Delete",
    "home": "Home",
    "end": "End",
    "pageup": "PageUp",
    "pgup": "PageUp",
    "pagedown": "PageDown",
    "pgdn": "PageDown",
    "insert": "Insert",
    "up": "ArrowUp",
    "down": "ArrowDown",
    "left": "ArrowLeft",
    "right": "ArrowRight",
}
_MODIFIERS = {
    "ctrl": "Control",
    "control": "Control",
    "cmd": "Meta",
    "command": "Meta",
    "meta": "Meta",
    "alt": "Alt",
    "option": "Alt",
    "shift": "Shift",
}


def key_name(raw: str) -> str:
    """'page down' -> 'PageDown', 'up arrow' -> 'ArrowUp', 'ctrl+a' -> 'Control+A' (Playwright names)."""
    parts = [p.strip() for p in raw.split("+")]
    if len(parts) > 1:
        keys = [_MODIFIERS.get(p.lower(), "") for p in parts[:-1]]
        last = parts[-1]
        last = last.upper() if len(last) == 1 else key_name(last)
        return "+".join([k for k in keys if k] + [last])
    compact = re.sub(r"\s+|arrow", "", raw.lower())
    if re.fullmatch(r"f\d{1,2}", compact):
        return compact.upper()
    return _KEY_NAMES.get(compact, raw.strip().title())


def _parse_key(c: str, spans: tuple[str, ...]) -> list[Intent] | None:
    m = re.match(
        r"^(?:(?:press|hit|push|tap|strike|type|use)\s+(?:the\s+|on\s+)?)?(?P<k>" + _KEYS + r")(?:\s+(?:key|"
        r"button|key\s+on\s+the\s+keyboard))?(?:\s+(?P<n>once|twice|thrice|\d+\s+times))?$",
        c,
        I,
    )
    if not m or (
        not re.match(r"^(?:press|hit|push|tap|strike|type|use)\b", c, I)
        and m.group("k").lower() not in ("enter", "escape", "esc", "tab")
    ):
        return None
    return [PressKey(key_name(m.group("k")))] * _times(m.group("n"))


def _times(word: str | None) -> int:
    if not word:
        return 1
    w = word.lower().strip()
    return {"once": 1, "twice": 2, "thrice": 3}.get(w) or max(1, min(int(re.match(r"\d+", w).group(0)), 10))  # type: ignore[union-attr]


def _parse_scroll(c: str, spans: tuple[str, ...]) -> list[Intent] | None:
    m = re.match(
        r"^(?:scroll|page)(?:\s+(?:the\s+)?page)?(?:\s+(?P<d>down|up|downwards?|upwards?))?(?:\s+(?:the\s+)?"
        r"page)?(?:\s+(?:by\s+)?(?P<px>\d+)\s*(?:px|pixels?)?)?(?:\s+(?:a\s+(?:bit|little)|some|more|further|"
        r"a\s+page|one\s+page|once\s+more))?(?:\s+(?P<n>once|twice|thrice|\d+\s+times))?$",
        c,
        I,
    )
    if m and (c.lower().startswith("scroll") or m.group("d")):
        direction = "up" if (m.group("d") or "down").lower().startswith("up") else "down"
        pixels = min(int(m.group("px")), 100000) if m.group("px") else 0
        return [Scroll(direction, pixels)] * _times(m.group("n"))
    m = re.match(
        r"^scroll\s+(?:down\s+|up\s+)?(?:to|until\s+(?:you\s+)?(?:see|find|reach)|towards?)\s+(?P<t>.+)$",
        c,
        I,
    )
    if m:
        phrase, _ = target_of(m.group("t"), spans, ("",))
        return [ScrollTo(phrase)] if phrase else None
    return None


def _parse_wait(c: str, spans: tuple[str, ...]) -> list[Intent] | None:
    m = re.match(
        r"^wait(?:\s+for)?(?:\s+(?:about\s+|around\s+)?(?P<n>\d+(?:\.\d+)?)\s*(?P<u>ms|milliseconds?|s|secs?|"
        r"seconds?|minutes?|mins?)?)?(?P<rest>\s+.*)?$",
        c,
        I,
    )
    if not m:
        return None
    if m.group("n"):
        n = float(m.group("n"))
        unit = (m.group("u") or "s").lower()
        seconds = n / 1000 if unit.startswith(("ms", "milli")) else n * 60 if unit.startswith("min") else n
    else:
        seconds = 2.0 if m.group("rest") else 1.0
    return [Wait(round(min(max(seconds, 0.1), 30.0), 2))]


_PURPOSES = {
    "login": "login",
    "log-in": "login",
    "log in": "login",
    "sign-in": "login",
    "sign in": "login",
    "signin": "login",
    "sign-up": "signup",
    "sign up": "signup",
    "signup": "signup",
    "registration": "signup",
    "register": "signup",
    "subscription": "subscribe",
    "subscribe": "subscribe",
    "newsletter": "subscribe",
    "search": "search",
}


def _parse_submit(c: str, spans: tuple[str, ...]) -> list[Intent] | None:
    m = re.match(
        r"^(?:submit|send)(?:\s+(?:the|this|your|my))?(?:\s+(?P<p>log[\s-]?in|sign[\s-]?in|signin|sign[\s-]?up|"
        r"signup|registration|register|subscription|subscribe|newsletter|search|contact))?(?:\s+(?:form|details|"
        r"info(?:rmation)?|data|it|request|entry|answers?))?$",
        c,
        I,
    )
    if not m:
        return None
    purpose = _PURPOSES.get(re.sub(r"\s+", " ", (m.group("p") or "").lower()), "")
    return [Submit(purpose)]


_INFO_NOUNS = (
    r"price|cost|status|number|date|time|name|title|rating|weather|availability|total|balance|result|"
    r"results|amount|details?|value|stock|count|score|email|phone|address|description|text|heading"
)


def _parse_check(c: str, spans: tuple[str, ...]) -> list[Intent] | None:
    m = re.match(
        r"^(?P<v>check|tick|mark|uncheck|untick|unmark|deselect|unselect|un-check|un-tick|enable|disable|"
        r"turn\s+on|turn\s+off|switch\s+on|switch\s+off|toggle\s+on|toggle\s+off|activate|deactivate)\s+"
        r"(?:on\s+|off\s+)?(?P<x>.+)$",
        c,
        I,
    )
    if m:
        verb, x = m.group("v").lower(), m.group("x").strip()
        if verb == "check" and re.match(
            r"^(?:if|whether|that|what|how|who|when|where|which|out|for)\b|^(?:the\s+)?"
            r"(?:" + _INFO_NOUNS + r")\b",
            x,
            I,
        ):
            return None
        on = not re.match(r"^(?:un|de|disable|deactivate|turn\s+off|switch\s+off|toggle\s+off)", verb)
        if verb in ("activate", "deactivate", "mark", "unmark") and not re.search(
            r"check\s*box|toggle|switch|radio", x, I
        ):
            return None
        return _check_targets(x, spans, on)
    m = re.match(r"^(?:accept|agree\s+to|consent\s+to)\s+(?:all\s+)?(?P<x>.+)$", c, I)
    if m:
        return _check_targets(m.group("x"), spans, True)
    return None


def _check_targets(x: str, spans: tuple[str, ...], on: bool) -> list[Intent] | None:
    x = re.sub(
        r"^(?:the\s+)?(?:box|checkbox|check\s+box|option|toggle|switch|radio(?:\s+button)?)\s+(?:next\s+to|for|"
        r"beside|labell?ed|named|called|that\s+says)\s+",
        "",
        x.strip(),
        flags=I,
    )
    items = _split_list(x) if "," in x else [x]
    out: list[Intent] = []
    for item in (re.sub(r"(?:^|\s+)box$", "", i.strip(), flags=I) for i in items):
        phrase, _role = target_of(item, spans, CHECK_ROLES)
        if not phrase and len(items) > 1:
            return None
        out.append(SetCheck(phrase, on))
    return out or None


def _parse_select(c: str, spans: tuple[str, ...]) -> list[Intent] | None:
    m = re.match(
        r"^(?:select|choose|pick|set|change)\s+(?:the\s+)?(?:option\s+|value\s+)?(?P<o>.+?)\s+(?:from|in|"
        r"on|under|within|inside|out\s+of)\s+(?P<s>.+)$",
        c,
        I,
    ) or re.match(
        r"^(?:select|choose|pick)\s+(?:the\s+)?(?:option\s+|value\s+)?(?P<o>.+?)\s+as\s+(?:the\s+|your\s+|"
        r"my\s+)?(?P<s>.+)$",
        c,
        I,
    )
    if not m:
        return None
    if ordinal_of(m.group("o")):
        return None
    option, _ = target_of(m.group("o"), spans, ("",))
    field, role = target_of(m.group("s"), spans, SELECT_ROLES)
    if not option or (not field and not role):
        return None
    if re.fullmatch(
        r"(?:the\s+)?(?:page|site|results?|list(?:ing)?|search\s+results|grid|table)", m.group("s").strip(), I
    ):
        return [Choose(option)]
    return [SelectOption(option, field)]


_KNOWN_FIELDS = (
    r"user\s*name|username|user\s*id|user|login|e-?mail(?:\s+address)?|password|passcode|pin|full\s+name|"
    r"first\s+name|last\s+name|surname|name|phone(?:\s+number)?|telephone|mobile(?:\s+number)?|"
    r"zip(?:\s*code)?|postal\s+code|post\s*code|city|country|state|address|street|company|message|"
    r"comment|subject|topic|title|query|search\s+term|keyword|coupon(?:\s+code)?|promo\s+code|code|amount|"
    r"quantity|age|date|website|url|your\s+name"
)
_CONTINUATIONS = {"address", "number", "name", "code", "field", "box", "id", "term", "into", "in", "to", "as"}


_SEVERAL_FIELDS = re.compile(
    r"\b(?:into|in|to)\s+(?:both|all|each|every)\b.*\b(?:fields?|box(?:es)?|inputs?|textbox(?:es)?)\b", re.I
)
#: Words that point at text instead of being it; the offline planner cannot resolve them, so it says so.
_REFERENCE = re.compile(
    r"(?:it|that|this|them|those|these|the\s+same|(?:the|that|this)\s+(?:text|word|words|value|number|answer|"
    r"result|one|phrase|name|code)(?:\s+(?:below|above|shown|displayed|given|here|there|of\s+.+|from\s+.+))?)",
    re.I,
)


def _parse_type(c: str, spans: tuple[str, ...]) -> list[Intent] | None:
    if _SEVERAL_FIELDS.search(c):
        return None  # one TypeText would fill one field and claim success: say it is not understood

    def make(t: str, f: str) -> list[Intent] | None:
        text = value(t, spans)
        field, _role = target_of(f, spans, FIELD_ROLES) if f else ("", "")
        if field.lower() in ("text", "it", "here", "there", "one"):
            field = ""
        if not text and only_mask(t.strip()) is None:
            return None
        if text not in spans and _REFERENCE.fullmatch(text.strip()):
            return None  # "type it", "enter the value of X": a reference, not the text to type
        return [TypeText(text, field)]

    m = re.match(
        r"^use\s+(?:the\s+)?(?P<f>.+?)\s+to\s+(?:enter|type|input|write|fill\s+in|search\s+for|search)\s+"
        r"(?P<t>.+)$",
        c,
        I,
    )
    if m:
        return make(m.group("t"), m.group("f"))
    m = re.match(
        r"^(?:enter|type|input|write|fill\s+in|provide|supply|use)\s+(?:the\s+|an?\s+|your\s+|my\s+)?"
        r"(?P<f>"
        + _KNOWN_FIELDS
        + r")\s*(?:as\s+|of\s+|=\s*|:\s*|is\s+)?(?P<t>"
        + MASK
        + r"\d+"
        + MASK
        + r"|(?!(?:into|in|to|as)\b)\S+(?:\s+(?!(?:into|in)\b)\S+){0,3}?)(?:\s+(?:into|in)\s+.+)?$",
        c,
        I,
    )
    if m and m.group("t").lower() not in _CONTINUATIONS:
        return make(m.group("t"), m.group("f"))
    for rx in (
        r"^(?:type|enter|input|write|key\s+in|insert|paste|fill\s+in|put)\s+(?P<t>.+)\s+(?:into|in\s+to|inside|"
        r"onto)\s+(?P<f>.+)$",
        r"^(?:type|enter|input|write|key\s+in|insert|paste|put)\s+(?P<t>.+)\s+(?:in|on|to)\s+(?P<f>.+)$",
    ):
        m = re.match(rx, c, I)
        if m and len(m.group("f").split()) <= 7:
            return make(m.group("t"), m.group("f"))
    m = re.match(
        r"^(?:fill(?:\s+in|\s+out)?|complete|populate|set|change|update)\s+(?P<f>.+?)\s+(?:with|to|as|=)\s+"
        r"(?P<t>.+)$",
        c,
        I,
    )
    if m:
        return make(m.group("t"), m.group("f"))
    m = re.match(
        r"^(?:enter|type|input|write|use|put)\s+(?P<t>.+?)\s+(?:as|for)\s+(?:the\s+|your\s+|my\s+)?(?P<f>.+)$",
        c,
        I,
    )
    if m:
        return make(m.group("t"), m.group("f"))
    m = re.match(r"^(?:type|enter|input|write|key\s+in)\s+(?P<t>.+)$", c, I)
    if m:
        return make(m.group("t"), "")
    m = re.match(r"^(?:clear|empty|erase)\s+(?:out\s+)?(?P<f>.+)$", c, I)
    if m:
        field, role = target_of(m.group("f"), spans, FIELD_ROLES + ("checkbox",))
        if role == "checkbox":
            return [SetCheck(field, False)]
        return [TypeText("", field)] if field or role else None
    return None


_COUNT_WORDS = {
    "a": 1,
    "an": 1,
    "one": 1,
    "two": 2,
    "three": 3,
    "four": 4,
    "five": 5,
    "six": 6,
    "seven": 7,
    "eight": 8,
    "nine": 9,
    "ten": 10,
}


def _quantity(text: str) -> tuple[int, str]:
    """'two Dot-Grid Notebooks' -> (2, 'Dot-Grid Notebooks'); '3 x mugs' -> (3, 'mugs'); else (1, text)."""
    m = re.match(
        r"^(?P<n>\d{1,2}|a|an|one|two|three|four|five|six|seven|eight|nine|ten)\s*(?:x\s+|×\s*|pieces?\s+of\s+|"
        r"units?\s+of\s+|copies\s+of\s+)?(?P<rest>\S.*)$",
        text.strip(),
        I,
    )
    if not m:
        return 1, text
    word = m.group("n").lower()
    n = int(word) if word.isdigit() else _COUNT_WORDS[word]
    return max(1, min(n, 10)), m.group("rest")


_FIELD_PAIR = re.compile(
    r"^(?:(?:the|my|your)\s+)?(?P<f>" + _KNOWN_FIELDS + r")(?:\s*[:=]\s*|\s+(?:is\s+|as\s+)?)(?P<v>.+)$", I
)


def _parse_form(c: str, spans: tuple[str, ...]) -> list[Intent] | None:
    """'fill in the form: name Ada Lovelace, email ada@x.io, message "Hi"' -> one typed value per field."""
    m = re.match(
        r"^(?P<verb>use|fill(?:\s+in|\s+out)?|complete|submit)\s+(?:the\s+|this\s+)?(?:[\w-]+\s+)?form\b[^:]*?"
        r"(?::|\s+with)\s*(?P<pairs>.+)$",
        c,
        I,
    )
    if not m:
        return None
    out: list[Intent] = []
    for pair in re.split(r"\s*[,;]\s*(?:and\s+)?|\s+and\s+", m.group("pairs")):
        if not pair.strip():
            continue
        fm = _FIELD_PAIR.match(pair.strip())
        if not fm:
            return None
        out.append(TypeText(value(fm.group("v"), spans), re.sub(r"\s+", " ", fm.group("f").lower())))
    if out and m.group("verb").lower() == "submit":
        out.append(Submit(""))
    return out or None


def _parse_cart(c: str, spans: tuple[str, ...]) -> list[Intent] | None:
    m = re.match(
        r"^(?P<v>add|remove|delete|move)\s+(?P<x>.+?)\s+(?P<p>to|from|into|in)\s+(?:the\s+|my\s+|your\s+)?(?P<c>"
        r"(?:shopping\s+)?(?:cart|basket|bag)|wish\s*list|favou?rites|order|compare|comparison)$",
        c,
        I,
    )
    if not m:
        return None
    verb = m.group("v").lower()
    container = re.sub(r"\s+", " ", m.group("c").lower()).replace("shopping ", "")
    target = f"add to {container}" if verb in ("add", "move") else "remove"
    count, anchor = _quantity(_ARTICLES.sub("", m.group("x").strip()))
    anchor = _ARTICLES.sub("", anchor.strip())
    near = "" if anchor.lower() in _PRONOUNS else value(anchor, spans)
    click = Click(target=target, near=near) if near else Click(target=target)
    return [click] * (count if verb in ("add", "move") else 1)


_CLICK_VERBS = (
    r"click|double[- ]?click|right[- ]?click|left[- ]?click|tap|hit|press|push|follow|activate|expand|"
    r"collapse|open|focus|download|select|choose|pick"
)


def _parse_click(c: str, spans: tuple[str, ...]) -> list[Intent] | None:
    m = re.match(r"^(?P<v>" + _CLICK_VERBS + r")\s+(?:on\s+|at\s+|into\s+|in\s+)?(?P<x>.+)$", c, I)
    if not m:
        m = re.match(r"^(?P<v>choose)\s+(?P<x>.+)$", c, I)
    if not m:
        return None
    verb, x = m.group("v").lower(), m.group("x")
    role_default = "textbox" if verb == "focus" else "link" if verb == "download" else ""
    clicks = _click_targets(x, spans, role_default)
    if not clicks:
        return None
    if verb in ("select", "choose", "pick"):
        out: list[Intent] = []
        for click in clicks:
            if (
                click.ordinal
                or click.near
                or not click.target
                or click.role in ("button", "link", "tab", "textbox")
            ):
                out.append(click)
            elif click.role in ("checkbox", "radio"):
                out.append(SetCheck(click.target, True))
            else:
                out.append(Choose(click.target))
        return out
    return list(clicks)


_QUESTION_START = re.compile(
    r"""^(?:what|what's|whats|which|who|who's|whom|whose|when|where|why|how|tell|find|list|get|give|show\s+me|count
        |read|extract|look\s+for|locate|is\s+there|are\s+there|name
        |identify|report|return|check\s+(?:if|whether|that|what|how|who|when|where|which)|see\s+(?:if|whether)
        |verify|confirm|determine|figure\s+out|summari[sz]e|describe|check\s+(?:the\s+)?(?:"""
    + _INFO_NOUNS
    + r"""))\b""",
    re.I | re.X,
)
_BARE_FINDERS = re.compile(r"^(?:find|locate|look|look\s+around|find\s+it|search|identify)$", re.I)


def _parse_question(c: str, spans: tuple[str, ...]) -> list[Intent] | None:
    if _QUESTION_START.match(c) or c.rstrip().endswith("?"):
        q = _question_text(c, spans)
        return [Ask(q)] if len(re.findall(r"\w+", q)) >= 2 else None
    return None


RULES: tuple[Rule, ...] = (
    _parse_answer,
    _parse_form,
    _parse_url,
    _parse_back,
    _parse_dismiss,
    _parse_login,
    _parse_signup,
    _parse_end_scroll,
    _parse_search,
    _parse_key,
    _parse_scroll,
    _parse_wait,
    _parse_submit,
    _parse_select,
    _parse_check,
    _parse_type,
    _parse_cart,
    _parse_navigate,
    _parse_click,
    _parse_question,
)


def parse_clause(clause: str, spans: tuple[str, ...]) -> list[Intent] | None:
    """Intents of one masked clause, or None when no rule understands it."""
    question_mark = clause.rstrip().endswith("?")
    c = clause.rstrip().rstrip("?").strip()
    if question_mark and _QUESTION_START.match(c):
        return _parse_question(clause, spans)
    for rule in RULES:
        intents = rule(c, spans)
        if intents:
            return intents
    if question_mark:
        return _parse_question(clause, spans)
    return None


def _merge(intents: list[Intent]) -> list[Intent]:
    """Fold 'type X ... and press Enter' into one submitting type; move questions after the actions."""
    out: list[Intent] = []
    for intent in intents:
        prev = out[-1] if out else None
        if isinstance(intent, PressKey) and intent.key == "Enter":
            if isinstance(prev, TypeText) and not prev.submit:
                out[-1] = TypeText(prev.text, prev.field, True)
                continue
            if isinstance(prev, Search):
                continue
        out.append(intent)
    actions = [i for i in out if not isinstance(i, Ask)]
    questions = [i for i in out if isinstance(i, Ask)]
    return actions + questions


@lru_cache(maxsize=1024)
def parse_goal(goal: str) -> ParsedGoal:
    """Parse a goal (or a plan step) into intents. Never raises; unknown clauses are reported, not guessed."""
    text = (goal or "").strip()
    if not text:
        return ParsedGoal(goal="", intents=(), unknown=("(empty goal)",))
    masked, spans = mask_quotes(text)
    intents: list[Intent] = []
    unknown: list[str] = []
    answer = _parse_answer(masked.strip(), spans)
    if answer:
        return ParsedGoal(goal=text, intents=tuple(answer))
    for clause in split_clauses(masked, spans):
        if _BARE_FINDERS.match(clause):
            continue
        found = parse_clause(clause, spans)
        if found is None:
            unknown.append(shown(clause, spans))
        else:
            intents.extend(found)
    if not intents and not unknown:
        unknown.append(text)
    return ParsedGoal(goal=text, intents=tuple(_merge(intents)), unknown=tuple(unknown))


def not_understood_message(parsed: ParsedGoal) -> str:
    """What could not be understood, and what can be said instead."""
    missing = "; ".join(f'"{u}"' for u in parsed.unknown) or f'"{parsed.goal}"'
    return (
        f"The offline planner could not understand {missing}. It supports plain commands, joined by 'then', "
        f"'and', commas or new lines: " + "; ".join(SUPPORTED_PHRASINGS) + ". Quote exact values, e.g. "
        'type "alice" into "Username". For free-form goals configure a model (planner: openai).'
    )
