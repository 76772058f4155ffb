"""Clause rules for acting on controls: submit, check, select, type, whole forms, cart and clicks (logging in
and signing up are in :mod:`agent.planning.offline.account_rules`). Each rule takes a masked clause (fillers stripped) and returns intents, or None when it does not apply.
"""

from __future__ import annotations

import re

from agent.planning.offline.dates import value_kind
from agent.planning.offline.intents import (
    NEXT_EMPTY_FIELD,
    Choose,
    Click,
    Hover,
    Intent,
    SelectOption,
    SetCheck,
    Submit,
    TypeText,
)
from agent.planning.offline.page_rules import matched
from agent.planning.offline.targets import ARTICLES, click_targets, ordinal_of, split_list, target_of, value
from agent.planning.offline.text import MASK, number_value, only_mask
from agent.planning.offline.vocabulary import (
    CHECK_HINTS,
    CLICK_HINTS,
    CLICK_VERBS,
    CONTINUATIONS,
    FIELD_HINTS,
    INFO_NOUNS,
    KNOWN_FIELDS,
    PRONOUNS,
    PURPOSES,
    SELECT_HINTS,
)

I = re.IGNORECASE  # noqa: E741 - short alias keeps the rule patterns readable


@matched(
    r"^(?:submit|send)(?:\s+(?:the|this|your|my))?(?:\s+(?P<p>log[\s-]?in|sign[\s-]?in|signin|sign[\s-]?up|"
    r"signup|registration|register|subscription|subscribe|newsletter|search|contact))?(?:\s+(?:form|details|"
    r"info(?:rmation)?|data|it|request|entry|answers?))?$"
)
def parse_submit(m: re.Match[str], spans: tuple[str, ...]) -> list[Intent] | None:
    purpose = PURPOSES.get(re.sub(r"\s+", " ", (m.group("p") or "").lower()), "")
    return [Submit(purpose)]


def parse_check(c: str, spans: tuple[str, ...]) -> list[Intent] | None:
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
            r"(?:" + INFO_NOUNS + r")\b",
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
    items = split_list(x) if "," in x else [x]
    out: list[Intent] = []
    for raw in items:
        item = re.sub(r"(?:^|\s+)box$", "", raw.strip(), flags=I) if not ordinal_of(raw) else raw
        phrase, _role = _reference(item, spans, CHECK_HINTS)
        if not phrase and len(items) > 1:
            return None
        out.append(SetCheck(phrase, on))
    return out or None


def _reference(text: str, spans: tuple[str, ...], roles: tuple[str, ...]) -> tuple[str, str]:
    """An element named by its position keeps its noun ('the 2nd textbox' -> '2nd textbox', which the grounder
    reads as a position); any other reference is split into phrase and role hint."""
    position = ordinal_of(text)
    if position:
        return re.sub(r"^(?:the\s+)", "", re.sub(r"\s+", " ", text.strip()), flags=I), ""
    return target_of(text, spans, roles)


#: 'Select -10 with the spinner', 'set 40 using the slider': the value, and the control that takes it.
_WITH_CONTROL = re.compile(
    r"^(?:select|choose|pick|set|enter)\s+(?:the\s+)?(?:value\s+|number\s+)?(?P<o>.+?)\s+(?:with|using|via|on)\s+"
    r"(?P<s>(?:the\s+|a\s+)?(?:[\w-]+\s+){0,2}?(?:spinner|slider|stepper|picker|selector|dropdown|drop-down|"
    r"select|combo\s*box|list|field|input|box|control))$",
    re.I,
)


def parse_select(c: str, spans: tuple[str, ...]) -> list[Intent] | None:
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
        m = _WITH_CONTROL.match(c)
    if not m:
        return None
    if ordinal_of(m.group("o")) or re.fullmatch(r"it|this|that|them|these|those", m.group("o").strip(), I):
        return None  # ('change it on our booking' points back at news: no option called 'it')
    several = [m.group("o")]
    if not value_kind(value(m.group("o"), spans)):  # 'May 3, 2024' is one date; 'and' may be inside a name
        several = [o for o in re.split(r"\s*,\s*(?:and\s+|or\s+)?", m.group("o")) if o.strip()]
    options = [target_of(o, spans, ("",))[0] for o in several]
    field, role = target_of(m.group("s"), spans, SELECT_HINTS)
    if not all(options) or (not field and not role):
        return None
    if re.fullmatch(
        r"(?:the\s+)?(?:page|site|results?|list(?:ing)?|search\s+results|grid|table)", m.group("s").strip(), I
    ):
        return [Choose(option) for option in options]
    return [SelectOption(options[0], field, tuple(options[1:]))]


#: What a typing clause may carry besides the text and the field, compiled together:
#: - several fields: 'into both fields';
#: - a reference: words that point at text instead of being it ('type it'), which cannot be resolved here;
#: - a description of the text instead of the text ('an item that starts with "An"', 'a word with 5 letters'):
#:   typing the description itself would be a false success;
#: - a casing: 'in all upper case letters', 'in lowercase', 'in capitals'.
_SEVERAL_FIELDS, _REFERENCE, _DESCRIPTION, _CASING = (
    re.compile(rx, I)
    for rx in (
        r"\s+(?:into|in|to)\s+(?:the\s+)?(?P<n>both|two|2|all|each|every)\b.*\b(?:fields?|box(?:es)?|inputs?|"
        r"textbox(?:es)?)\b",
        r"(?:it|that|this|them|those|these|the\s+same|(?:the|that|this)\s+(?:text|word|words|value|number|answer|"
        r"result|one|phrase|name|code)(?:\s+(?:below|above|shown|displayed|given|here|there|of\s+.+|from\s+.+))?)",
        r"(?:(?:an?|any|some|one)\s+(?:\w+\s+){1,2}?|something\s+|anything\s+)(?:that|which|who|whose|with|"
        r"starting|beginning|ending|containing|matching|of\s+your|from\s+the)\b",
        r"\s+(?:in|using|with)\s+(?:all\s+)?(?:(?P<up>upper[\s-]*case|caps|capitals|capital\s+letters|"
        r"block\s+capitals)|(?P<low>lower[\s-]*case|small\s+letters))(?:\s+letters)?(?=\s|$)",
    )
)


#: The ways to say what to type where, tried in order, each with the most words its field phrase may have:
#: 'use the search box to enter X', 'enter your email a@b.c', 'type X into Y', 'type X in Y', 'fill Y with X',
#: 'enter X as Y', 'type X'. The group k marks a known field name, whose value must not be a continuation word.
_TYPING: tuple[tuple[re.Pattern[str], int], ...] = tuple(
    (re.compile(rx, I), longest)
    for rx, longest in (
        (
            r"^use\s+(?:the\s+)?(?P<f>.+?)\s+to\s+(?:enter|type|input|write|fill\s+in|search\s+for|search)\s+"
            r"(?P<t>.+)$",
            99,
        ),
        (
            r"^(?:enter|type|input|write|fill\s+in|provide|supply|use)\s+(?:the\s+|an?\s+|your\s+|my\s+)?(?P<k>)"
            r"(?P<f>"
            + KNOWN_FIELDS
            + r")\s*(?:as\s+|of\s+|=\s*|:\s*|is\s+)?(?P<t>"
            + MASK
            + r"\d+"
            + MASK
            + r"|(?!(?:into|in|to|as)\b)\S+(?:\s+(?!(?:into|in)\b)\S+){0,3}?)(?:\s+(?:into|in)\s+.+)?$",
            99,
        ),
        (
            r"^(?:type|enter|input|write|key\s+in|insert|paste|fill\s+in|put(?!\s+an?\s+(?:hold|reservation)\b))\s+"
            r"(?P<t>.+)\s+(?:into|in\s+to|inside|"
            r"onto)\s+(?P<f>.+)$",
            7,
        ),
        (  # ('put a hold on a book' reserves it: no typing)
            r"^(?:type|enter|input|write|key\s+in|insert|paste|put(?!\s+an?\s+(?:hold|reservation|stop|block)\b))"
            r"\s+(?P<t>.+)\s+(?:in|on|to)\s+(?P<f>.+)$",
            7,
        ),
        (
            r"^(?:fill(?:\s+in|\s+out)?|complete|populate|set|change|update)\s+(?P<f>.+?)\s+(?:with|to|as|=)\s+"
            r"(?P<t>.+)$",
            99,
        ),
        (
            r"^(?:enter|type|input|write|use|put(?!\s+an?\s+(?:hold|reservation)\b))\s+(?P<t>.+?)\s+(?:as|for)\s+"
            r"(?:the\s+|your\s+|my\s+)?(?P<f>.+)$",
            99,
        ),
        (r"^(?:type|enter|input|write|key\s+in)\s+(?P<t>.+)$", 99),
    )
)


def parse_type(c: str, spans: tuple[str, ...]) -> list[Intent] | None:
    replaced = re.match(
        r"^replace\s+(?P<o>" + MASK + r"\d+" + MASK + r")\s+(?:with|by)\s+(?P<t>" + MASK + r"\d+" + MASK
        + r")\s+(?:in|inside)\s+(?:the\s+)?(?P<f>.+)$",
        c,
        I,
    )  # fmt: skip
    if replaced:
        field = value(replaced.group("f"), spans)
        old = value(replaced.group("o"), spans)
        return [TypeText(value(replaced.group("t"), spans), field, replace=old)] if field and old else None
    appended = re.match(r"^append\s+(?P<t>" + MASK + r"\d+" + MASK + r")\s+to\s+(?P<f>.+)$", c, I)
    if appended:
        field = value(appended.group("f"), spans)
        return [TypeText(value(appended.group("t"), spans), field, append=True)] if field else None
    casing = _CASING.search(c)
    if casing:
        typed = parse_type(c[: casing.start()] + c[casing.end() :], spans)
        if not typed or not all(isinstance(i, TypeText) for i in typed):
            return None
        change = str.upper if casing.group("up") else str.lower
        return [TypeText(change(i.text), i.field, i.submit) for i in typed if isinstance(i, TypeText)]
    several = _SEVERAL_FIELDS.search(c)
    if several:
        if several.group("n").lower() not in ("both", "two", "2"):
            return None  # how many fields 'all' means is not known here: say it is not understood
        typed = parse_type(c[: several.start()].strip(), spans)
        if not typed or len(typed) != 1 or not isinstance(typed[0], TypeText) or not typed[0].text:
            return None
        return [TypeText(typed[0].text, NEXT_EMPTY_FIELD)] * 2

    def make(t: str, f: str) -> list[Intent] | None:
        if re.match(r"(?:it|this|that|them)\s+(?:on|in|at|for|from|with|within|inside)\b", f.strip(), I):
            return None  # 'change it on my booking to ...': points back at news, names no field
        text = value(t, spans)
        field, _role = _reference(f, spans, FIELD_HINTS) if f else ("", "")
        if field.lower() in ("text", "it", "here", "there", "one") and only_mask(f.strip()) is None:
            field = ""
        if not text and only_mask(t.strip()) is None:
            return None
        if text not in spans and (_REFERENCE.fullmatch(text.strip()) or _DESCRIPTION.match(text.strip())):
            return None  # "type it", "enter an item that starts with An": a reference, not the text to type
        return [TypeText(text, field)]

    for rx, longest_field in _TYPING:
        m = rx.match(c)
        if not m:
            continue
        field = m.groupdict().get("f") or ""
        if (
            len(field.split()) > longest_field
            or m.group("t").lower() in CONTINUATIONS
            and "k" in m.groupdict()
        ):
            continue
        return make(m.group("t"), field)
    m = re.match(r"^(?:clear|empty|erase)\s+(?:out\s+)?(?P<f>.+)$", c, I)
    if m:
        field, role = target_of(m.group("f"), spans, FIELD_HINTS + ("checkbox",))
        if role == "checkbox":
            return [SetCheck(field, False)]
        return [TypeText("", field)] if field or role else None
    return None


def _quantity(text: str) -> tuple[int, str]:
    """'two Dot-Grid Notebooks' -> (2, 'Dot-Grid Notebooks'); '3 x mugs' -> (3, 'mugs'); else (1, text)."""
    words = text.strip().split()
    for k in (2, 1):  # 'twenty five mugs', 'twenty-five mugs', 'two mugs', '3 mugs'
        n = number_value(" ".join(words[:k])) if len(words) > k else None
        if n:
            rest = re.sub(
                r"^(?:x\s+|×\s*|pieces?\s+of\s+|units?\s+of\s+|copies\s+of\s+)",
                "",
                " ".join(words[k:]),
                flags=I,
            )
            return max(1, min(n, 10)), rest
    m = re.match(r"^(?P<n>\d{1,2})\s*(?:x|×)\s*(?P<rest>\S.*)$", text.strip(), I)
    if m:
        return max(1, min(int(m.group("n")), 10)), m.group("rest")
    return 1, text


_FIELD_PAIR = re.compile(
    r"^(?:(?:the|my|your)\s+)?(?P<f>" + KNOWN_FIELDS + r")(?:\s*[:=]\s*|\s+(?:is\s+|as\s+)?)(?P<v>.+)$", I
)


def field_values(pairs: str, spans: tuple[str, ...]) -> list[Intent] | None:
    """'name Ada Lovelace, email ada@x.io and message "Hi"' -> one typed value per named field, or None when a
    part does not name a known field."""
    out: list[Intent] = []
    for pair in re.split(r"\s*[,;]\s*(?:and\s+)?|\s+and\s+", pairs):
        if not pair.strip():
            continue
        fm = _FIELD_PAIR.match(pair.strip())
        if not fm:
            return None
        out.append(TypeText(value(fm.group("v"), spans), re.sub(r"\s+", " ", fm.group("f").lower())))
    return out or None


@matched(
    r"^(?P<verb>use|fill(?:\s+in|\s+out)?|complete|submit)\s+(?:the\s+|this\s+)?(?:[\w-]+\s+)?form\b[^:]*?"
    r"(?::|\s+with)\s*(?P<pairs>.+)$"
)
def parse_form(m: re.Match[str], spans: tuple[str, ...]) -> list[Intent] | None:
    """'fill in the form: name Ada Lovelace, email ada@x.io, message "Hi"' -> one typed value per field."""
    out = field_values(m.group("pairs"), spans) or []
    if out and m.group("verb").lower() == "submit":
        out.append(Submit(""))
    return out or None


_BOOK = r"(?:book|reserve|register|enrol|enroll|sign\s+up)"
_PERSON = r"(?P<name>\x00\d+\x00|(?-i:[A-Z][\w'.-]*(?:\s+[A-Z][\w'.-]*){0,3}))"  # a name is capitalised
_EMAIL = r"\x00\d+\x00|[\w.+-]+@[\w.-]+\w"
_COUNT = (
    r"(?:(?P<n>a|an|one|two|three|four|five|six|\d+)\s+(?P<unit>place|places|seat|seats|spot|spots|ticket|tickets|"
    r"table|slot|people|persons|guests|attendees)\s+)"
)
_NUMBERS = {"a": "1", "an": "1", "one": "1", "two": "2", "three": "3", "four": "4", "five": "5", "six": "6"}


def _booking(what: str, name: str, email: str, m: re.Match[str], spans: tuple[str, ...]) -> list[Intent]:
    """Open what is booked, give the name, email and number of places its form asks for, send the form."""
    out: list[Intent] = [
        Click(target=value(what.strip(), spans), role="link"),
        TypeText(value(name, spans), "name"),
    ]
    if email:
        out.append(TypeText(value(email, spans), "email"))
    count = _NUMBERS.get((m.group("n") or "").lower(), m.group("n") or "")
    if count and count != "1":  # one place is what a booking form starts at; more must be asked for
        out.append(TypeText(count, re.sub(r"s$", "", m.group("unit").lower()) + "s"))
    return [*out, Submit("")]


@matched(
    rf"^{_BOOK}\s+(?:me\s+)?{_COUNT}?(?:on|for|in|at|to)\s+(?:the\s+)?(?P<what>.+?)\s+(?:for|as|under\s+"
    rf"the\s+name(?:\s+of)?)\s+{_PERSON}(?:\s*,?\s+(?:with|and)\s+"
    rf"(?:(?:the\s+|an?\s+)?e-?mail(?:\s+address)?\s+)?(?P<email>{_EMAIL}))?$"
)
def parse_booking(m: re.Match[str], spans: tuple[str, ...]) -> list[Intent] | None:
    """'Book 2 places on the Raku Weekend for "Dana Ruiz" with email "d@x.org"'."""
    return _booking(m.group("what"), m.group("name"), m.group("email") or "", m, spans)


@matched(
    rf"^{_BOOK}\s+{_PERSON}\s*(?:\(\s*(?P<email>{_EMAIL})\s*\)|,?\s+(?:\(|with\s+)?(?:(?:the\s+)?e-?mail\s+)?"
    rf"(?P<email2>{_EMAIL})\)?)?,?\s+(?:for|on|to|at|in)\s+{_COUNT}?(?:(?:on|for|in|at|to)\s+)?(?:the\s+)?(?P<what>.+)$"
)
def parse_booking_person(m: re.Match[str], spans: tuple[str, ...]) -> list[Intent] | None:
    """'Register Sam Ortega (sam@x.org) for 2 places at the Garden Work Day': the person first, then the event."""
    if re.match(r"^(?:me|us|myself)$", m.group("name"), re.I):
        return None
    return _booking(m.group("what"), m.group("name"), m.group("email") or m.group("email2") or "", m, spans)


@matched(
    r"^(?P<v>add|remove|delete|move)\s+(?P<x>.+?)\s+(?P<p>to|from|into|in)\s+(?:the\s+|my\s+|your\s+)?(?P<c>"
    r"(?:shopping\s+)?(?:cart|basket|bag)|wish\s*list|favou?rites|order|compare|comparison)$"
)
def parse_cart(m: re.Match[str], spans: tuple[str, ...]) -> list[Intent] | None:
    verb = m.group("v").lower()
    container = re.sub(r"\s+", " ", m.group("c").lower()).replace("shopping ", "")
    target = f"add to {container}" if verb in ("add", "move") else "remove"
    count, anchor = _quantity(ARTICLES.sub("", m.group("x").strip()))
    anchor = ARTICLES.sub("", anchor.strip())
    near = "" if anchor.lower() in PRONOUNS else value(anchor, spans)
    click = Click(target=target, near=near) if near else Click(target=target)
    return [click] * (count if verb in ("add", "move") else 1)


def _menu_path(x: str, spans: tuple[str, ...]) -> list[Intent] | None:
    """'A>B>C': point at each menu on the way (its submenu opens under the pointer), then click the last."""
    path = [value(p, spans) for p in re.split(r"\s*>\s*", x.strip())]
    if len(path) < 2 or not all(path) or any(len(p.split()) > 6 for p in path):
        return None
    return [*(Hover(p) for p in path[:-1]), Click(target=path[-1])]


@matched(
    r"^(?:hover|mouse)\s+(?:the\s+(?:mouse|pointer|cursor)\s+)?(?:over|on|onto)\s+(?P<x>.+)$|^point\s+(?:at|to)\s+"
    r"(?P<y>.+)$|^move\s+the\s+(?:mouse|pointer|cursor)\s+(?:over|onto|to)\s+(?P<z>.+)$"
)
def parse_hover(m: re.Match[str], spans: tuple[str, ...]) -> list[Intent] | None:
    phrase, _role = target_of(m.group("x") or m.group("y") or m.group("z"), spans, CLICK_HINTS)
    return [Hover(phrase)] if phrase else None


def parse_click(c: str, spans: tuple[str, ...]) -> list[Intent] | None:
    m = re.match(r"^(?P<v>" + CLICK_VERBS + r")\s+(?:on\s+|at\s+|into\s+|in\s+)?(?P<x>.+)$", c, I)
    if not m:
        m = re.match(r"^(?P<v>choose)\s+(?P<x>.+)$", c, I)
    if not m:
        return None
    verb, x = m.group("v").lower(), m.group("x")
    if re.search(r"\w\s*>\s*\w", x):
        return _menu_path(x, spans)
    role_default = "textbox" if verb == "focus" else "link" if verb == "download" else ""
    clicks = click_targets(x, spans, role_default)
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
