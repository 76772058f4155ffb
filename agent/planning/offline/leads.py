"""Where to go next when the current page cannot serve the goal: a login link, a section link, a search.

A person who is asked "how many products cost less than $20" on a shop's home page opens the Products page;
asked for "the cart total" they open the cart; asked to log in on a page without a login form they follow
"Log in". These helpers find such leads on the observed page (never by site name) so the planner can propose
one step towards them; each lead is offered once.
"""

from __future__ import annotations

import re
from collections.abc import Collection
from urllib.parse import urlsplit

from agent.planning.offline.account_rules import REFERENCE_FIELD
from agent.planning.offline.intents import Click, Intent, Submit, TypeText, is_secret_field
from agent.planning.offline.matching import choose, find_anchor, rank
from agent.planning.offline.page import (
    attr,
    is_button,
    is_link,
    is_text_field,
    labels,
    reading_order,
    visible_text,
)
from agent.planning.offline.questions import Query, subject_words
from agent.planning.offline.text import norm, stem, tokens
from agent.types import Element, Observation

_FILLER_WORDS = frozenset({"all", "shop", "view", "browse", "see", "our", "the", "every", "show"})
_COLLECTION_KINDS = ("count", "list", "superlative")
#: Words of a link that does something rather than shows something ('Cancel dentist appointment').
_CHANGES = frozenset(
    stem(w)
    for w in "cancel pay submit delete remove book add edit update change renew report make apply order buy create "
    "close send reschedule withdraw top amend request reserve upload transfer move".split()
)


def login_lead(pending: list[Intent], observation: Observation, goal: str = "") -> str | None:
    """'Log in as ...' on a page with no password field: the step that opens the login form (a 'Log in' link,
    else the account's, else the section the goal says the account is of: 'my council tax account')."""
    typed = [i for i in pending[:3] if isinstance(i, TypeText)]
    if not pending or not isinstance(pending[0], TypeText):
        return None
    elements = observation.get("elements") or []
    by_reference = pending[0].field == REFERENCE_FIELD or _bare_reference(typed)
    if by_reference:  # a booking opened by its reference: the 'Manage booking' form
        if any(is_text_field(e) and "reference" in norm(" ".join(t for t, _ in labels(e))) for e in elements):
            return None
        targets: tuple[str, ...] = ("manage booking", "manage my booking", "my booking", "find my booking")
        if pending[0].field != REFERENCE_FIELD:  # ('Reference 4451, surname Okafor' may be an account's too)
            targets += ("log in", "my account", "account")
    elif not any(is_secret_field(i.field) for i in typed) and not _logs_in(pending):
        return None
    elif any(is_secret_field(i.field) for i in typed) and any(
        (e.get("input_type") or "") == "password" for e in elements
    ):
        return None  # the log-in form is here
    elif not any(is_secret_field(i.field) for i in typed) and all(
        _asks_for(elements, t.field) for t in typed[:2]
    ):
        return None  # ... one that asks for a postcode or a date of birth instead of a password
    else:  # a site without a 'Log in' link asks at the account, or in the section the account is of
        targets = ("log in", "my account", "account", *_section_of(typed[0].field), *_sections_said(goal))
    for target in targets:
        step = Click(target, role="link")
        pick = choose(
            rank(elements, target, role="link", accept=lambda e: is_link(e) or is_button(e)), target
        )
        if pick.ok:
            return step.step()
    return None


def _bare_reference(typed: list[TypeText]) -> bool:
    """'Reference KQ7M4T, surname Okafor': a reference said without what of, typed with a surname."""
    return (
        len(typed) >= 2
        and re.fullmatch(r"(?:the\s+)?(?:reference|ref\.?)", typed[0].field.strip(), re.I) is not None
        and re.fullmatch(r"surname|last\s+name|family\s+name", typed[1].field.strip(), re.I) is not None
    )


def _section_of(field: str) -> tuple[str, ...]:
    """The section an account is kept in, by the words that name it: 'council tax account' is under 'Council
    tax', 'patient number' under a patient area."""
    words = [
        w for w in tokens(field) if w not in ("account", "number", "no", "id", "card", "ref", "reference")
    ]
    return (" ".join(words),) if words and "@" not in field else ()


#: 'my council tax account', 'the Larchfield patient portal': what the account is of, as the goal says it.
_ACCOUNT_OF = re.compile(r"\b(?:my|our|the)\s+((?:[a-z][\w'&-]*\s+){1,3}?)(?:account|portal|area)\b", re.I)


def _sections_said(goal: str) -> tuple[str, ...]:
    return tuple(dict.fromkeys(m.group(1).strip() for m in _ACCOUNT_OF.finditer(goal)))


def _logs_in(pending: list[Intent]) -> bool:
    """The typed values are a log-in's: its submit follows them ('account number ..., postcode ...')."""
    return any(isinstance(i, Submit) and i.purpose == "login" for i in pending[:4])


def _asks_for(elements: list[Element], field: str) -> bool:
    """A text field on the page is labelled with the words the goal named the account by (all but one of them:
    'Larchfield patient number' is the form's 'Patient number')."""
    every = {stem(w) for w in tokens(field) if len(w) > 2}
    words = every - _GENERIC or every  # ('account number': a phone number's field shares only 'number')
    for e in elements:
        if is_text_field(e) or (e.get("role") or "") == "combobox":
            said = {stem(w) for t, _ in labels(e) for w in tokens(t)}
            if "birth" in field and said & {"day", "dob", "birth"}:
                return True  # (a date of birth asked in parts: Day, Month, Year)
            if words <= _GENERIC and words <= said:
                return True  # ('account number': both words, never a phone number's field)
            if words and len(words & said) >= max(1, len(words) - 1) and (words & said) - _GENERIC:
                return True
    return False


#: Words every account's field may carry: they tell no form apart.
_GENERIC = frozenset({"number", "account", "card", "code", "ref", "reference", "your", "the"})


def _short_links(observation: Observation) -> list[Element]:
    return [
        e
        for e in reading_order(observation.get("elements") or [])
        if is_link(e)
        and not e.get("disabled")
        and (e.get("zone") or "main") in ("nav", "header", "main", "aside")
        and 1 <= len(tokens(visible_text(e))) <= 4
    ]


def _link_step(el: Element) -> str:
    return Click(visible_text(el), role="link").step()


def _about(observation: Observation, word: str) -> bool:
    """Whether the page is about ``word`` already: its title, h1 or path says so (a 'Featured products' h2 on a
    home page does not make it the products page)."""
    heads = [
        visible_text(e) for e in observation.get("elements") or [] if (e.get("tag") or "").lower() == "h1"
    ]
    path = urlsplit(observation.get("url") or "").path
    text = " ".join([observation.get("title") or "", *heads, path.replace("/", " ").replace(".", " ")])
    return any(stem(t) == word for t in norm(text).split())


def section_lead(query: Query, observation: Observation) -> str | None:
    """For a question about a collection ('how many products ...') asked elsewhere: the section's link."""
    if query.kind not in _COLLECTION_KINDS or not query.noun:
        return None
    nouns = [stem(w) for w in norm(query.noun).split()]
    if not nouns:
        return None
    head = nouns[-1]
    if _about(observation, head):
        return None
    for el in _short_links(observation):
        words = {stem(w) for w in norm(visible_text(el)).split()} - _FILLER_WORDS
        if words == {head}:
            return _link_step(el)
    return None


def subject_lead(query: Query, observation: Observation, seen: Collection[str] = ()) -> str | None:
    """A short link all of whose words the question uses ('Cart (2)' for 'what is the cart total'), or one that
    names all the subject with little else, to a page not seen yet in this run (``seen``: URLs without fragment; this page always counts as seen)."""
    words = set(subject_words(query))
    figures = {t for t in tokens(query.question) if any(ch.isdigit() for ch in t)}
    best: tuple[int, str] | None = None
    whole: tuple[int, str] | None = None  # (words beyond the subject, step): a link naming all of it
    here = (observation.get("url") or "").split("#", 1)[0]
    for el in _short_links(observation):
        if attr(el, "href").split("#", 1)[0] in {here, *seen}:
            continue  # a link back to a page already read leads nowhere new
        theirs = {t for t in tokens(visible_text(el)) if any(ch.isdigit() for ch in t)}
        if figures and theirs - figures:
            continue  # 'INV-2024-0011' is no lead to invoice INV-2024-0012
        link_words = {t for t in tokens(visible_text(el)) if not t.isdigit()} - _FILLER_WORDS
        if link_words and link_words <= words and (best is None or len(link_words) > best[0]):
            best = (len(link_words), _link_step(el))
        extra = len(link_words - words)
        reads = not (link_words - words) & _CHANGES  # ('Pay rent balance now' acts; it leads to no reading)
        if (
            len(words) > 1
            and words <= link_words
            and extra <= 2
            and reads
            and (whole is None or extra < whole[0])
        ):
            whole = (extra, _link_step(el))
    if whole is not None and (best is None or best[0] < len(words)):
        return whole[1]  # ('View rent statement and balance' for the balance of rent, before 'Rent')
    return best[1] if best else None


def entity_lead(query: Query, observation: Observation) -> str | None:
    """The link to the thing the question names ('the Cast Iron Skillet' on a listing that omits its price)."""
    if not query.entity:
        return None
    anchor = find_anchor(observation, query.entity)
    if anchor is None or not is_link(anchor) or not attr(anchor, "href"):
        return None
    return Click(visible_text(anchor), role="link").step()
