"""Clause rules for moving around and asking: URLs, back/forward, dialogs, navigation by name, search, keys,
scrolling, waiting, questions. Each rule takes a masked clause (fillers stripped) and returns intents, or None
when it does not apply.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable

from agent.planning.offline.intents import (
    Ask,
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
    Wait,
)
from agent.planning.offline.targets import (
    ARTICLES,
    click_targets,
    ordinal_of,
    question_text,
    target_of,
    value,
)
from agent.planning.offline.urls import canonical_url, looks_like_url
from agent.planning.offline.vocabulary import CLICK_HINTS, DIALOG_WORDS, INFO_NOUNS, KEYS, key_name

I = re.IGNORECASE  # noqa: E741 - short alias keeps the rule patterns readable

Rule = Callable[[str, tuple[str, ...]], list[Intent] | None]
MatchRule = Callable[[re.Match[str], tuple[str, ...]], list[Intent] | None]


def matched(pattern: str) -> Callable[[MatchRule], Rule]:
    """A clause rule that applies when the clause matches ``pattern`` (case-insensitive); its body gets the
    match. Every rule tries its pattern this one way."""
    rx = re.compile(pattern, I)

    def wrap(body: MatchRule) -> Rule:
        @functools.wraps(body)
        def rule(c: str, spans: tuple[str, ...]) -> list[Intent] | None:
            m = rx.match(c)
            return body(m, spans) if m else None

        return rule

    return wrap


@matched(r"^answer\s*:\s*(?P<q>.+)$")
def parse_answer(m: re.Match[str], spans: tuple[str, ...]) -> list[Intent] | None:
    q = question_text(m.group("q"), spans)
    return [Ask(q)] if q else None


def parse_url(c: str, spans: tuple[str, ...]) -> list[Intent] | None:
    text = value(c, spans)
    return [Navigate(canonical_url(text))] if looks_like_url(text) else None


def parse_back(c: str, spans: tuple[str, ...]) -> list[Intent] | None:
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


def parse_dismiss(c: str, spans: tuple[str, ...]) -> list[Intent] | None:
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
        + DIALOG_WORDS
        + r"(?:\s+box|\s+window)?(?:\s+by\s+(?:clicking|pressing|tapping|hitting)(?:\s+on)?\s+(?P<x>.+))?$",
        c,
        I,
    )
    if m:
        if m.group("x"):
            return click_targets(m.group("x"), spans)  # type: ignore[return-value]
        return [Dismiss("dialog")]
    return None


_PAGE_SUFFIX = re.compile(r"\s+(?P<w>page|section|screen|area|tab|site|website|view|menu)$", I)


@matched(
    r"^(?:scroll(?:\s+(?:the\s+)?page)?(?:\s+all\s+the\s+way)?\s+(?:down\s+|up\s+)?|(?:go|jump|move)\s+)"
    r"to\s+(?:the\s+)?(?:very\s+)?(?P<e>bottom|top|end|beginning|start)(?:\s+of\s+(?:the\s+)?page)?$"
)
def parse_end_scroll(m: re.Match[str], spans: tuple[str, ...]) -> list[Intent] | None:
    down = m.group("e").lower() in ("bottom", "end")
    return [Scroll("down" if down else "up", to_end=True)]


def parse_navigate(c: str, spans: tuple[str, ...]) -> list[Intent] | None:
    if re.match(r"^(?:go|navigate|head|return)\s+(?:back\s+)?home$", c, I):
        return [Click(target="home", role="link")]
    m = re.match(
        r"^(?:go|navigate|browse|head|get|jump|proceed|move|switch|return|come|(?:take|bring)\s+me)\s+"
        r"(?:over\s+|back\s+|straight\s+|directly\s+)?(?:to|into|onto)\s+(?P<t>.+)$",
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
    t = ARTICLES.sub("", t).strip()
    role = "link"
    suffix = _PAGE_SUFFIX.search(t)
    if suffix and len(t.split()) > 1:
        role = "tab" if suffix.group("w").lower() == "tab" else "link"
        t = t[: suffix.start()].strip()
    if re.search(r"\s(?:of|on|at)\s+\S+\.\S+$", t):
        return None
    phrase, hinted = target_of(t, spans, CLICK_HINTS)
    if not phrase:
        return None
    return [Click(target=phrase, role=hinted or role)]


def parse_search(c: str, spans: tuple[str, ...]) -> list[Intent] | None:
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
            or re.match(  # 'use the site's search to find X', 'using the search box, look up X'
                r"^(?:use|using)\s+(?:the\s+|this\s+|its\s+)?(?:(?:site|store|shop|page|website)(?:'s|’s)?\s+)?"
                r"(?:own\s+)?search(?:\s*(?:box|bar|field|function|feature|form|engine))?\s*,?\s*(?:to\s+)?"
                r"(?:find|look\s+up|look\s+for|search\s+for|locate|get\s+to)\s+(?P<q>.+)$",
                c,
                I,
            )
        )
        if not m:
            return None
        q = m.group("q")
        if m.re.pattern.startswith("^(?:use|using)"):
            q = re.sub(r"^(?:the|a|an)\s+", "", q, flags=I)  # 'to find the drip kit': the kit is searched for
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


def parse_key(c: str, spans: tuple[str, ...]) -> list[Intent] | None:
    m = re.match(
        r"^(?:(?:press|hit|push|tap|strike|type|use)\s+(?:the\s+|on\s+)?)?(?P<k>" + KEYS + r")(?:\s+(?:key|"
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


def parse_scroll(c: str, spans: tuple[str, ...]) -> list[Intent] | None:
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


@matched(
    r"^wait(?:\s+for)?(?:\s+(?:about\s+|around\s+)?(?P<n>\d+(?:\.\d+)?)\s*(?P<u>ms|milliseconds?|s|secs?|"
    r"seconds?|minutes?|mins?)?)?(?P<rest>\s+.*)?$"
)
def parse_wait(m: re.Match[str], spans: tuple[str, ...]) -> list[Intent] | None:
    if m.group("n"):
        n = float(m.group("n"))
        unit = (m.group("u") or "s").lower()
        seconds = n / 1000 if unit.startswith(("ms", "milli")) else n * 60 if unit.startswith("min") else n
    else:
        seconds = 2.0 if m.group("rest") else 1.0
    return [Wait(round(min(max(seconds, 0.1), 30.0), 2))]


QUESTION_START = re.compile(
    r"""^(?:what|what's|whats|which|who|who's|whom|whose|when|where|why|how|tell|find|list|get|give|show\s+me|count
        |read|extract|look\s+for|locate|is\s+there|are\s+there|name
        |identify|report(?!\s+(?:a|an)\b)|return|check\s+(?:if|whether|that|what|how|who|when|where|which)|see\s+(?:if|whether)
        |verify|confirm|determine|figure\s+out|summari[sz]e|describe|check\s+(?:the\s+)?(?:"""
    + INFO_NOUNS
    + r"""))\b""",
    re.I | re.X,
)


#: 'In the Logging section of the reference' on its own: where the question after it should look.
SCOPE_CLAUSE = re.compile(
    r"^(?:in|under|within|on|from)\s+(?:the\s+)?[\w\s'-]+?\s+(?:section|chapter|part|heading|table|tab|page)"
    r"(?:\s+(?:of|on|in)\s+(?:the\s+)?[\w\s'-]+?)?$",
    re.I,
)
#: 'According to the backup policy' or 'In the article about the new timetable' on its own: the document the
#: question after it is about (a scope only when a question follows it).
DOCUMENT_SCOPE = re.compile(
    r"^(?:according\s+to|as\s+stated\s+in|in|on|from)\s+(?:the|this|that|our|your)\s+[\w\s'’-]+$", re.I
)
BARE_FINDERS = re.compile(r"^(?:find|locate|look|look\s+around|find\s+it|search|identify)$", re.I)


#: A question mark alone does not make a question this grammar can read: it must be English.
_ENGLISH = re.compile(
    r"\b(?:the|a|an|is|are|was|were|do|does|did|can|could|of|in|on|for|to|with|what|which|who|how|when|where"
    r"|why|there|this|that|my|your|it|has|have)\b",
    re.I,
)


def parse_question(c: str, spans: tuple[str, ...]) -> list[Intent] | None:
    if QUESTION_START.match(c) or (c.rstrip().endswith("?") and _ENGLISH.search(c)):
        q = question_text(c, spans)
        return [Ask(q)] if len(re.findall(r"\w+", q)) >= 2 else None
    return None
