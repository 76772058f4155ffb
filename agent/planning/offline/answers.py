"""Answering questions from what the page shows, without a model.

The question is classified (count, list, page message, title, attribute of an entity, generic), then answered
from the observation: element geometry first (a price belongs to the product card it sits in), page text lines
second. Answers are always text copied from the page (or a count of page items); when nothing fits, the
answer is "not found" and the caller decides whether to scroll on or give up.
"""

from __future__ import annotations

import re

from agent.planning.offline.items import explicit_count, filter_items, item_name, qualifiers
from agent.planning.offline.listings import listing_items
from agent.planning.offline.lookup import missing_names
from agent.planning.offline.matching import find_anchor
from agent.planning.offline.messages import answer_message, main_heading
from agent.planning.offline.page import ELEMENT_KINDS, role_of, site_words, visible_text, without_site_name
from agent.planning.offline.questions import QUESTION_STEMS, QUESTION_WORDS, Answer, Query
from agent.planning.offline.sections import headings_by_line
from agent.planning.offline.targets import ordinal_of
from agent.planning.offline.text import clip, norm, proper_names, stem, token_match, tokens
from agent.planning.offline.values import (
    MONEY_NOUNS,
    VALUE_RX,
    WHEN_RX,
    entity_lines,
    first_value,
    labelled_value,
    page_lines,
    value_by_label_words,
    value_for,
    value_near_lines,
)
from agent.planning.offline.vocabulary import label_forms
from agent.types import Observation


def _by_other_name(attr: str, lines: list[str], rx: re.Pattern[str]) -> tuple[str, str] | None:
    """The value right after a label of several words the attribute goes by ('Left to pay £270.00' for a
    balance), when the page gives one such value only."""
    found = []
    for form in (f for f in label_forms(attr)[1:] if len(f.split()) > 1):
        said = re.compile(rf"\b{re.escape(form)}\b\s*:?\s*", re.I)
        for line in lines:
            m = said.search(line)
            value = rx.search(line, m.end()) if m else None
            if m and value and value.start() - m.end() <= 2:
                found.append((value.group(0).strip(), line))
    return found[0] if len({v for v, _ in found}) == 1 else None


def _answer_attribute(query: Query, observation: Observation, lines: list[str]) -> Answer:
    rx = VALUE_RX.get(query.value_type)
    said = re.sub(r"^(?:the|a|an)\s+", "", query.entity, flags=re.I)
    site = site_words(observation)
    entity = without_site_name(said, site)
    subject = f"the {query.attr} of {entity}" if entity else f"the {query.attr}"
    ordinal = ordinal_of(re.sub(r"^top\b", "first", entity, flags=re.I)) if entity else None
    if ordinal:
        items = listing_items(observation)
        n = ordinal[0]
        if not items or n > len(items):
            return Answer(False, f"Could not find {subject} on the page.")
        item = items[n - 1 if n > 0 else -1]
        if rx is None and re.fullmatch(
            r"(?:title|name|text|heading|headline|label|link)s?", query.attr, re.I
        ):
            return Answer(True, item_name(item), f"{subject}")
        value = value_for(observation, item, rx, visible_text(item)) if rx is not None else None
        if value:
            return Answer(True, value, f"{subject}: {value}")
        return Answer(False, f"Could not find {subject} on the page.")
    if entity:
        anchor = find_anchor(observation, entity)
        if anchor is not None and set(re.findall(r"[\w'’-]+", visible_text(anchor).lower())) <= site:
            anchor = None  # the site's own name (its link home) anchors no value of one of its items
        if anchor is not None and entity != said and (anchor.get("zone") or "main") not in ("main", "dialog"):
            # a side block speaks of other places too: only the site's own content is said of the site
            return Answer(False, f"Could not find {subject} in the site's own content on this page.")
        about = _page_about(query.entity, observation) or (
            query.by_topic and _on_topic(query.entity, observation, lines)
        )
        # on the entity's own page, a value its labels name ('Saturday' under 'Opening times') comes before the
        # value nearest its heading (which may be another's, in a column beside it)
        labelled = _value_in_sections(query.attr, observation, lines, rx) if about else None
        if labelled:
            return Answer(True, labelled[0], f"{subject}: {labelled[1]}")
        named = _by_other_name(query.attr, lines, rx) if about and rx is not None else None
        if (
            named
        ):  # ('Left to pay £270.00' for the balance of the plan, before the first amount under its title)
            return Answer(True, named[0], f"{subject}: {named[1]}")
        specific = rx is VALUE_RX["money"] and bool(set(tokens(query.attr)) - MONEY_NOUNS - {"price", "much"})
        named_figure = (
            value_by_label_words(lines, query.attr, rx)
            if specific and (about or (anchor is not None and _labelled_once(query.attr, lines)))
            else None
        )  # ('the damage excess of the electric car': the line labelled so, not the first amount under its name)
        if named_figure:
            return Answer(True, named_figure[0], f"{subject}: {named_figure[1]}")
        if rx is not None:
            lined = anchor is not None and anchor.get("tag") == "pre"  # (a text file's lines are its items)
            value = (value_for(observation, anchor, rx, entity) if anchor and not lined else None) or (
                value_near_lines(lines, entity, rx)
            )
            if value:
                return Answer(True, _yes_no(query, value), f"{subject}: {value}")
        around = []
        for n in entity_lines(lines, entity):
            around.extend(i for i in range(n, min(n + 8, len(lines))) if i not in around)
        if anchor is not None and not around:
            text = norm(visible_text(anchor))
            around = [n for n, line in enumerate(lines) if text and text in norm(line)][:1]
            around = [i for n in around for i in range(n, min(n + 8, len(lines)))]
        value = labelled_value(lines, query.attr, around) if around else None
        if value and fits_kind(value, rx):
            return Answer(True, value, f"{subject}: {value}")
        if not about:
            return Answer(False, f"Could not find {subject} on the page.")
        # the page is about the entity ('Eastside Library' for the 'Eastside branch'): its labels are its own
    if rx is not None:
        value = value_by_label_words(lines, query.attr, rx)
        if value:
            return Answer(True, value[0], f"{subject}: {value[1]}")
        amounts = {m.group(0).strip() for line in lines for m in rx.finditer(line)}
        heading = main_heading(observation)
        if (
            heading is not None
            and query.value_type == "money"
            and len(amounts) <= 3
            and set(tokens(query.attr)) <= {"price", "cost"}
        ):
            v = value_for(observation, heading, rx, visible_text(heading))
            if v:
                return Answer(True, v, f"{subject} near {visible_text(heading)!r}")
        if len(amounts) == 1:
            v = amounts.pop()
            return Answer(True, v, f"the only {query.value_type} value on the page")
    value = labelled_value(lines, query.attr)
    if value and fits_kind(value, rx):
        return Answer(True, value, f"{subject}: {value}")
    return Answer(False, f"Could not find {subject} on the page.")


def _labelled_once(attr: str, lines: list[str]) -> bool:
    """One line of the page names every word of the attribute ('Damage excess'): no other item's is there."""
    words = [w for w in tokens(attr) if w not in QUESTION_WORDS]
    return sum(1 for line in lines if words and all(w in tokens(line) for w in words)) == 1


#: A price said without an amount.
_NO_COST = re.compile(r"\b(?:free|no (?:charge|fee|cost)|at no cost|included|nothing)\b", re.I)


def fits_kind(value: str, rx: re.Pattern[str] | None) -> bool:
    """A labelled line answers a price only with an amount or a word of no cost: 'Prices: see our fees page
    for NHS and private prices' points to the answer elsewhere."""
    return rx is not VALUE_RX["money"] or bool(rx.search(value) or _NO_COST.search(value))


def _yes_no(query: Query, value: str) -> str:
    if not query.yes_no or query.value_type != "stock":
        return value
    negative = re.search(r"out\s+of\s+stock|sold\s+out|unavailable|\b0\s+(?:left|in\s+stock)", value, re.I)
    return f"{'No' if negative else 'Yes'} ({value})"


def _answer_count(query: Query, observation: Observation, lines: list[str]) -> Answer:
    noun_key = stem(norm(query.noun).split()[-1]) if norm(query.noun) else ""
    if noun_key in ELEMENT_KINDS:
        n = sum(
            1
            for e in observation.get("elements") or []
            if ELEMENT_KINDS[noun_key](e) and (e.get("zone") or "main") in ("main", "dialog")
        )
        return Answer(True, str(n), f"counted {n} {query.noun} in the main content")
    if not query.price_filter:
        stated = explicit_count(lines, query.noun)
        wanted = qualifiers(query.noun)
        if stated and all(any(token_match(q, t) >= 0.8 for t in tokens(stated[1])) for q in wanted):
            return Answer(True, stated[0], f"the page says: {clip(stated[1], 120)}")
    items = filter_items(query, observation, lines)
    if items:
        return Answer(True, str(len(items)), f"counted {len(items)} {query.noun or 'items'} in the listing")
    if query.price_filter and listing_items(observation):
        return Answer(True, "0", f"no {query.noun or 'items'} in the listing match the price filter")
    return Answer(False, f"Could not find how many {query.noun or 'items'} there are on the page.")


def _answer_list(query: Query, observation: Observation, lines: list[str]) -> Answer:
    if query.value_type and query.value_type in VALUE_RX and not query.price_filter:
        rx = VALUE_RX[query.value_type]
        seen: list[str] = []
        for line in lines:
            for m in rx.finditer(line):
                if m.group(0).strip() not in seen:
                    seen.append(m.group(0).strip())
        if seen:
            return Answer(True, "; ".join(seen[:50]), f"{len(seen)} values")
    items = filter_items(query, observation, lines)
    if not items:
        return Answer(False, f"Could not find a list of {query.noun or 'items'} on the page.")
    names = [i.name + (f" ({i.price_text})" if query.price_filter and i.price_text else "") for i in items]
    text = "; ".join(names[:50]) + (f" … ({len(names)} in total)" if len(names) > 50 else "")
    return Answer(True, text, f"{len(names)} items in the listing")


def _answer_superlative(query: Query, observation: Observation, lines: list[str]) -> Answer:
    items = filter_items(query, observation, lines)
    low = query.attr.lower()
    if re.search(r"rat|review|popular", low):
        rated = [i for i in items if i.rating is not None]
        if not rated:
            return Answer(False, f"Could not find rated {query.noun or 'items'} on the page.")
        worst = bool(re.search(r"worst|lowest|fewest|least", low))
        by_reviews = "review" in low and "rating" not in low
        key = (lambda i: (i.reviews, i.rating)) if by_reviews else (lambda i: (i.rating, i.reviews))
        best = (min if worst else max)(rated, key=key)
        return Answer(True, f"{best.name} ({best.rating_text})", f"{len(rated)} rated items compared")
    priced = [i for i in items if i.price is not None]
    if not priced:
        return Answer(False, f"Could not find priced {query.noun or 'items'} on the page.")
    cheapest = low.startswith(("cheap", "least", "lowest"))
    best = (min if cheapest else max)(priced, key=lambda i: i.price or 0.0)
    return Answer(True, f"{best.name} ({best.price_text})", f"{len(priced)} priced items compared")


_WH_TYPES = {"when": "date", "how much": "money"}


_PERSON_RX = re.compile(r"\b[A-Z][a-z]+(?:\s+(?:[A-Z]\.|[A-Z][a-z]+|van|de|von|da))*\s+[A-Z][a-z]+\b")


#: A question asking for one of these ('which version', 'how many ... does') is answered by such a value only.
_STRICT_TYPES = frozenset({"version", "number"})


_PER_UNIT = re.compile(
    r"\b(?:per|a|an|each)\s+(?:day|night|week|month|year|hour|person|adult|child|head|item|flight|session)\b",
    re.I,
)


def _answer_generic(query: Query, observation: Observation, lines: list[str]) -> Answer:
    asked = _PER_UNIT.sub(" ", query.question)  # 'per day' says how a price is counted, not what it is of
    words = [t for t in tokens(asked) if t not in QUESTION_STEMS and len(t) > 1]
    if not words:
        return Answer(False, f'Could not find an answer to "{query.question}" on the page.')
    low = query.question.lower()
    wanted = next((t for w, t in _WH_TYPES.items() if low.startswith(w)), query.value_type)
    typed = WHEN_RX if wanted == "date" and low.startswith("when") else VALUE_RX.get(wanted)
    # a line's section headings name its subject too, at half weight ('Saturday' under 'Recycling centre')
    heads = headings_by_line(observation, len(lines))
    headers = {
        t
        for e in observation.get("elements") or []
        if role_of(e) in ("columnheader", "rowheader")
        for t in tokens(visible_text(e))
    }
    best: tuple[float, int] | None = None
    for n, line in enumerate(lines):
        line_tokens = tokens(line)
        if not line_tokens or set(line_tokens) <= headers:
            continue  # a table's header row ('Passenger Seat') names what its rows hold, never a value
        head_tokens = tokens(heads[n]) if heads[n] else ()
        covered = sum(
            max(
                max((token_match(w, t) for t in line_tokens), default=0.0),
                0.5 * max((token_match(w, t) for t in head_tokens), default=0.0),
            )
            for w in words
        ) / len(words)
        extra = len([t for t in line_tokens if not any(token_match(w, t) >= 0.8 for w in words)])
        score = covered + (0.05 if extra else 0.0)
        after = lines[n + 1] if n + 1 < len(lines) and len(line_tokens) <= 3 else ""  # a term and its value
        if typed is not None and covered > 0 and first_value(f"{line} {after}", typed):
            score += 0.15
        if best is None or score > best[0] + 1e-9:
            best = (score, n)
    if best is None or best[0] < 0.55:
        return Answer(False, f'Could not find an answer to "{query.question}" on the page.')
    n = best[1]
    line = lines[n]
    context = line + (" " + lines[n + 1] if n + 1 < len(lines) else "")
    if typed is not None:
        v = first_value(context, typed)
        if v:
            return Answer(True, v, clip(line, 200))
        free = wanted == "money" and re.search(r"\bfree\b|\bno\s+(?:charge|fee|cost)\b", context, re.I)
        if wanted in _STRICT_TYPES or (wanted == "money" and not query.yes_no and not free):
            return Answer(False, f'Could not find the {wanted} asked for in "{query.question}" on the page.')
    if low.startswith("who"):
        asked = {norm(w) for w in query.question.split()}
        for m in _PERSON_RX.finditer(context):
            words = [w for w in m.group(0).split() if norm(w) not in asked]
            if len(words) >= 2:
                return Answer(True, " ".join(words), clip(line, 200))
    if query.yes_no:
        if not all(any(token_match(w, t) >= 0.8 for t in tokens(line)) for w in words):
            return Answer(False, f'The page does not say whether "{query.question}".')
        return Answer(True, f"Yes: {clip(line, 280)}", "the page mentions it")
    if all(any(token_match(w, t) >= 0.8 for w in words) for t in tokens(line)) and n + 1 < len(lines):
        return Answer(True, clip(f"{line} {lines[n + 1]}", 300), "label and value")
    which = _WHICH.match(low)
    if which and not _names_one(line, query.question):  # ('which library': 'to any library' names none)
        return Answer(
            False, f'The page does not name the {which.group("n")} asked for in "{query.question}".'
        )
    return Answer(True, clip(line, 300), "best matching line")


#: 'which library ...', 'what branch ...': the answer is one named thing.
_WHICH = re.compile(r"^\s*(?:which|what)\s+(?P<n>library|branch|office|shop|store|station|venue|site|location|"
                    r"centre|center|surgery|clinic|depot|room|school|hospital|practice)\b")  # fmt: skip


def _names_one(line: str, question: str) -> bool:
    """The line names something the question does not: a capitalised word that starts no sentence."""
    asked = {norm(w) for w in question.split()}
    starts = {m.end() - 1 for m in re.finditer(r"(?:^|[.!?:]\s+)\S", line)}  # where a sentence starts
    return any(
        m.start() not in starts and norm(m.group(0)) not in asked
        for m in re.finditer(r"\b[A-Z][\w'&-]+", line)
    )


def answer_on(query: Query, observation: Observation) -> Answer:
    """Answer an analyzed question from the observation (all of it), or say it is not there."""
    lines = page_lines(observation)
    if query.kind == "count":
        return _answer_count(query, observation, lines)
    if query.kind == "list":
        return _answer_list(query, observation, lines)
    if query.kind == "message":
        return answer_message(observation)
    if query.kind == "title":
        title = observation.get("title") or ""
        return Answer(bool(title), title or "Could not find the page title.", "page title")
    if query.kind == "url":
        url = observation.get("url") or ""
        return Answer(bool(url), url or "Could not find the page URL.", "page URL")
    if query.kind == "heading":
        heading = main_heading(observation)
        if heading is not None:
            return Answer(True, visible_text(heading), "main heading")
        title = observation.get("title") or ""
        return Answer(bool(title), title or "Could not find a heading on the page.", "page title")
    if query.kind == "superlative":
        return _answer_superlative(query, observation, lines)
    if query.kind == "attribute":
        found = _answer_attribute(query, observation, lines)
        if found.found:
            return found
        if query.entity and _names_missing(query, lines):
            return found
        generic = _answer_generic(query, observation, lines)
        typed = VALUE_RX.get(query.value_type)
        fits = typed.search(generic.text) if typed is not None else _names_attribute(query, generic)
        if generic.found and fits:
            return generic
        return found
    missing = missing_names(query.question, observation)
    if (
        missing
    ):  # 'which day ... on Alder Crescent': a page that never says 'Alder Crescent' does not answer it
        return Answer(False, f"The page does not mention {missing[0]!r}.")
    return _answer_generic(query, observation, lines)


TEXT_ITSELF = re.compile(r"(?:title|name|text|heading|headline|label|link|caption)s?", re.I)


def _names_attribute(query: Query, answer: Answer) -> bool:
    """A line answers 'the default job timeout' only if it says 'timeout' (the attribute's head word)."""
    words = [w for w in tokens(query.attr) if w not in QUESTION_WORDS]
    if not words or TEXT_ITSELF.fullmatch(query.attr.strip()):
        return True  # an item's title or name is its line itself
    head = words[-1]
    return any(token_match(head, t) >= 0.8 for t in tokens(answer.evidence + " " + answer.text))


def _value_in_sections(
    attr: str, observation: Observation, lines: list[str], rx: re.Pattern[str] | None
) -> tuple[str, str] | None:
    """(value, its line) for an attribute whose words a line and the headings of its section name between them:
    'Saturday' then '10:00 to 13:30' under 'Opening hours' for the 'Saturday opening hours'. The value is the
    line's own (after its label) or the next line's, and of the asked type when there is one."""
    words = [w for w in tokens(attr) if w not in QUESTION_WORDS]
    if (
        rx is VALUE_RX["money"]
    ):  # 'concession price': the amount says it is a price; the label says 'Concession'
        words = [w for w in words if w not in MONEY_NOUNS] or words
    if not words:
        return None
    heads = headings_by_line(observation, len(lines))
    best: tuple[int, str, str] | None = None
    for n, line in enumerate(lines):
        own, head = tokens(line), tokens(heads[n]) if heads[n] else []
        on_line = [w for w in words if any(token_match(w, t) >= 0.8 for t in own)]
        covered = [w for w in words if w in on_line or any(token_match(w, t) >= 0.8 for t in head)]
        # every word, or all but one of three or more when the heading names one ('Opening times' for hours)
        enough = len(covered) == len(words) or (
            len(words) >= 3 and len(covered) > len(on_line) and len(covered) >= len(words) - 1
        )
        if not on_line or not enough:
            continue
        label = line.split(":", 1)
        value = label[1].strip() if len(label) == 2 and label[1].strip() else _after_label(line, words)
        said = re.sub(r"\([^)]*\)", " ", value).strip(" :–-")  # ('Adult: free' has a value of its own)
        if rx is not None:
            value = first_value(value, rx) or ""
        # a label on a line of its own ('Concession (60+, students)'), its value on the next
        if (
            not value
            and not said
            and n + 1 < len(lines)
            and len(tokens(re.sub(r"\([^)]*\)", " ", line))) <= 4
        ):
            value = lines[n + 1] if rx is None else first_value(lines[n + 1], rx) or ""
        if value and (best is None or len(on_line) > best[0]):
            best = (len(on_line), clip(value, 200), line)
    return (best[1], best[2]) if best else None


def _after_label(line: str, words: list[str]) -> str:
    """'Warranty 3 years' -> '3 years': what follows the attribute's words at the start of a line (a table row
    read as one line); '' when the line does not start with them or holds nothing else."""
    raw = line.split()
    k = 0
    while k < len(raw) and any(token_match(w, t) >= 0.8 for t in tokens(raw[k]) for w in words):
        k += 1
    rest = " ".join(raw[k:]) if 0 < k < len(raw) else ""
    return (
        "" if re.fullmatch(r"(?:(?:by|of|for|to|at|in|on|from|with)\b\s*)+:?", rest, re.I) else rest
    )  # 'Run by'


def _page_about(entity: str, observation: Observation) -> bool:
    """The page's main heading (or title) names the entity by its name ('Eastside Library' is the page of the
    'Eastside branch'): what the page's own labels say is said of it."""
    work, by, maker = entity.partition(" by ")
    if by and proper_names(maker):  # 'The Salt Road by Imogen Hale': the book's page, which names its author
        said = tokens(" ".join(page_lines(observation)))
        if not all(any(token_match(w, t) >= 0.9 for t in said) for w in tokens(maker)):
            return False
        entity = work
    names = proper_names(entity) or ([entity] if len(tokens(entity)) >= 2 else [])
    site = site_words(observation)
    if names and all(set(re.findall(r"[\w'’-]+", n.lower())) <= site for n in names):
        # the site's own name: every page of the site is its page, but 'the minimum spend for delivery at Lotus
        # Garden' is the page of what the rest of the words name
        rest = " ".join(w for w in re.findall(r"[\w'’-]+", entity) if w.lower() not in site)
        if not tokens(rest):
            return True
        names = [rest] if len(tokens(rest)) >= 2 else []
    if not names:
        return False  # ('the kit' is said of every kit)
    heading = main_heading(observation)
    head = visible_text(heading) if heading is not None else ""
    if head and set(re.findall(r"[\w'’-]+", head.lower())) <= site:  # an h1 that only names the site
        head = f"{head} {_first_subheading(observation)}"
    text = tokens(f"{head} {observation.get('title') or ''}")
    return all(any(token_match(w, t) >= 0.9 for t in text) for name in names for w in tokens(name))


def _first_subheading(observation: Observation) -> str:
    """The first heading below the page's h1 in its main content (a site whose h1 is its own name)."""
    heads = [e for e in observation.get("elements") or [] if (e.get("tag") or "").lower() in ("h2", "h3")]
    mains = [e for e in heads if (e.get("zone") or "main") == "main"]
    return visible_text(mains[0]) if mains else ""


def _on_topic(topic: str, observation: Observation, lines: list[str]) -> bool:
    """An item asked for by what it is about ('the article about the river clean-up'): its heading, title and
    opening lines name at least two thirds of the topic's words (and two or more)."""
    words = set(tokens(topic))
    if len(words) < 2:
        return False
    heading = main_heading(observation)
    head = visible_text(heading) if heading is not None else ""
    start = next((n for n, line in enumerate(lines) if head and norm(line) == norm(head)), 0)
    said = tokens(" ".join([head, str(observation.get("title") or ""), *lines[start : start + 6]]))
    named = sum(1 for w in words if any(token_match(w, t) >= 0.8 for t in said))
    return named >= max(2, -(-2 * len(words) // 3))


def _names_missing(query: Query, lines: list[str]) -> bool:
    """The question names an entity in capitals that the page never mentions (a 'Purple Widget')."""
    names = re.findall(r"\b[A-Z][\w-]*(?:\s+[A-Z][\w-]*)*", query.entity)
    text = norm(" ".join(lines))
    return any(norm(name) not in text for name in names)
