"""Where on the page a question is answered: a table cell, the section the question names, or the whole page,
and which section the answer came from.

A question about "the default of result_ttl" on a reference page full of "Default:" lines is read in the
section headed ``result_ttl`` only; "in the Logging section, ..." is read in that section; a table question is
read by row and column. Whatever answers, the answer carries its section heading and the URL (with the
section's anchor), so the claim can be checked against the right place.
"""

from __future__ import annotations

import re
from dataclasses import replace

from agent.planning.base import HistoryItem
from agent.planning.offline.answers import TEXT_ITSELF, answer_on, fits_kind
from agent.planning.offline.page import is_link, is_select, is_text_field, repeated_link_labels, visible_text
from agent.planning.offline.questions import Answer, Query, analyze, subject_words
from agent.planning.offline.sections import (
    EXACT_NAME,
    TERM_LEVEL,
    Section,
    best_section,
    inside,
    page_sections,
    section_of_line,
    source_url,
)
from agent.planning.offline.segments import (
    class_fits,
    class_mismatch,
    classes_in,
    clause_of,
    find_quote,
    named_segment,
    value_for_period,
    value_of_class,
)
from agent.planning.offline.site_search import echoes_search
from agent.planning.offline.tables import table_answer, table_caption, table_count
from agent.planning.offline.text import NOT_A_NAME, clip, norm, proper_names, similarity, tokens
from agent.planning.offline.urls import results_listing
from agent.planning.offline.values import VALUE_RX, WHEN_ANSWER, first_value, names_someone, page_lines
from agent.types import Observation

#: Question kinds a section can narrow (titles, URLs and page messages belong to the whole page).
SECTIONED = ("attribute", "generic", "count", "list", "superlative")
#: A heading that names the subject this well is where the answer is.
STRONG = 0.8
#: A section the user named ('in the Logging section') is accepted on a looser match.
NAMED = 0.6


def subjects(query: Query) -> list[str]:
    """What the question is about, most specific first: the section it names, its entity, noun, attribute,
    then its content words."""
    words = " ".join(subject_words(query)) if query.kind == "generic" else ""
    return [s for s in (query.entity, query.noun, query.attr, words) if s]


def answer_question(question: str, observation: Observation) -> Answer:
    """Answer ``question`` from the observation, or say it is not there; the answer says where it came from."""
    query = analyze(question)
    key = _missing_key(question, observation)
    if key:
        return Answer(False, f'Nothing on the page mentions "{key}".')
    answer = _answer(query, observation)
    condition = _CONDITION.search(query.entity)
    if (
        not answer.found and condition and any(classes_in(condition.group(0)))
    ):  # 'a family membership if we pay for the whole year in one go'
        again = _answer(analyze(_CONDITION.sub("", question.rstrip(" ?"))), observation)
        answer = _meeting(condition.group(0), again, query, observation) if again.found else answer
    if answer.found and not _names_exactly(query, answer):
        return replace(answer, found=False, text=f'Nothing on the page is about "{query.entity}" exactly.')
    other = _side_block_of_another(question, answer, observation) if answer.found else ""
    if other:
        return replace(answer, found=False, text=f"{answer.text} is said in a side block about {other!r}.")
    if answer.found and query.value_type == "money" and _starting_price(question, answer, observation):
        return replace(answer, found=False, text=f"{answer.text} is only a starting price ('from').")
    answer = _of_the_label_asked(question, query, answer) if answer.found else answer
    answer = _of_the_period_asked(question, answer, observation) if answer.found else answer
    if answer.found and any(
        classes_in(question)[:-1]
    ):  # ('the only amount on the page' is a child's: 'Child: £5')
        said = [line for line in page_lines(observation) if find_quote(line, answer.text) >= 0]
        if said and all(class_mismatch(question, line, answer.text) for line in said):
            return replace(
                answer,
                found=False,
                text=f"{answer.text} is not it: {class_mismatch(question, said[0], answer.text)}",
            )
    return answer


#: A price that is the least of several ('from £32.00 a month', 'prices start at £18'): no one thing's price.
_FROM = r"(?:from|starting\s+(?:at|from)|start(?:s|ing)?\s+at|as\s+little\s+as|as\s+low\s+as)\s*:?\s*$"
_ASKS_LEAST = re.compile(
    r"\b(?:from\s+(?:price|prices|cost)|(?:starting|from)\s+(?:price|at)|prices?\s+start|start(?:s|ing)?\s+(?:at|from)|"
    r"cheapest|lowest|least|minimum|min)\b",
    re.I,
)


def _starting_price(question: str, answer: Answer, observation: Observation) -> bool:
    """Every line the answer stands on gives it as a starting price, and the question does not ask for one."""
    if _ASKS_LEAST.search(question):
        return False
    said = [ln for ln in page_lines(observation) if find_quote(ln, answer.text) >= 0]
    return bool(said) and all(
        re.search(_FROM, ln[: find_quote(ln, answer.text)].rstrip(), re.I) for ln in said
    )


def _side_block_of_another(question: str, answer: Answer, observation: Observation) -> str:
    """The heading of the side block the answer was read in when it names something the question does not
    ('Oakfield Pool & Gym' beside a question about Millbrook's prices): a side block speaks of other places."""
    heading = next(
        (
            e
            for e in observation.get("elements") or []
            if answer.section and visible_text(e) == answer.section
        ),
        None,
    )
    if heading is None or heading.get("zone") != "aside":
        return ""
    asked = set(tokens(question))
    names = [w for w in proper_names(answer.section) if norm(w) not in asked and not NOT_A_NAME.match(w)]
    return answer.section if names and not asked & set(tokens(answer.section)) else ""


def _of_the_period_asked(question: str, answer: Answer, observation: Observation) -> Answer:
    """A line of prices by period ('1 to 2 days: £76.00 a day ... 7 days: £408.00') answers with the price of
    the period asked ('for a whole week'), and with nothing when no label there is of that period."""
    lines = page_lines(observation)
    for at in (n for n, line in enumerate(lines) if find_quote(line, answer.text) >= 0):
        block = " ".join(lines[max(0, at - 4) : at + 5])  # (each label and price may be a line of its own)
        fits, by_period = value_for_period(question, block)
        if answer.text in fits:
            return answer  # ('Members: £30.00 a week / Non-members: £45.00 a week': each is a week's)
        fit = fits[0] if len(fits) == 1 else None
        if fit:
            return replace(
                answer, text=fit, evidence=next((x for x in lines if find_quote(x, fit) >= 0), block)
            )
        if by_period:
            return replace(
                answer, found=False, text=f"{answer.text} is not it: the page gives it for another period."
            )
    asked = classes_in(question)[-1]
    said = [
        classes_in(clause_of(line, answer.text))[-1] for line in lines if find_quote(line, answer.text) >= 0
    ]
    if (
        asked and said and all(periods and not asked & periods for periods in said)
    ):  # ('£68.00/day' for a week)
        return replace(
            answer, found=False, text=f"{answer.text} is not it: the page gives it for another period."
        )
    return answer


def _meeting(condition: str, answer: Answer, query: Query, observation: Observation) -> Answer:
    """The answer found without the question's condition, when the page says it of what the condition names
    ('£64.50 a year' for 'if we pay for the whole year'), or the value the page says of it instead ('£5.75 a
    month' for 'if we pay monthly'); not found when the page says neither."""
    rx = VALUE_RX.get(query.value_type)
    lines = [line for line in page_lines(observation) if answer.text in line]
    if class_fits(condition, " ".join(lines), answer.text) or not rx:
        return answer
    for line in lines:
        fit = value_of_class(condition, line, [m.group(0).strip() for m in rx.finditer(line)])
        if fit:
            return replace(answer, text=fit, evidence=line)
    return replace(answer, found=False, text=f"The page does not say {answer.text} is {condition.strip()}.")


#: A condition said after the thing asked about: it says which of its values, not what it is.
_CONDITION = re.compile(r"\s+(?:if|when|whenever|provided|assuming)\s+.+$", re.I)


def _of_the_label_asked(question: str, query: Query, answer: Answer) -> Answer:
    """A line that gives values by label ('Portmore – Skerrow: £3.50 ... Portmore – Inchbeg: £2.80') answers
    with the value of the label the question names; a value said of another class ('£14.00 adult' for a
    concession) answers nothing."""
    segment = named_segment(question, answer.evidence)
    if segment is not None and answer.text not in segment:
        rx = VALUE_RX.get(query.value_type)
        value = first_value(segment, rx) if rx is not None else None
        if not value:
            return replace(
                answer, found=False, text=f"The page gives it for another label: {answer.evidence}"
            )
        answer = replace(answer, text=value, evidence=segment)
    other = class_mismatch(question, answer.evidence, answer.text)
    if other:
        rx = VALUE_RX.get(query.value_type)
        values = [m.group(0).strip() for m in rx.finditer(answer.evidence)] if rx is not None else []
        fit = value_of_class(question, answer.evidence, values)
        if fit is None:
            return replace(answer, found=False, text=f"{answer.text} is not it: {other}")
        answer = replace(answer, text=fit)
    return answer


#: 'order 1042', 'plot 14', 'room #12': a thing named by its number (not 'under 20', 'in 2021', 'top 5').
_NUMBERED = re.compile(r"\b(?P<noun>[a-z]{3,})\s+(?:#|no\.?\s*)?(?P<n>\d{2,})\b(?![.,]\d)", re.I)
_NOT_A_NOUN = frozenset(
    "than under over below above least most from into with since until after before about around the and "
    "for top last first next costs cost priced".split()
)


def _missing_key(question: str, observation: Observation) -> str:
    """The numbered thing the question asks about when the page never shows its number ('order 2001' on a
    list of orders 1041-1043): nothing else on the page can answer for it."""
    text = "\n".join(page_lines(observation))
    for found in _NUMBERED.finditer(question):
        if found.group("noun").lower() in _NOT_A_NOUN:
            continue
        if not re.search(r"(?<![\d.,])" + found.group("n") + r"(?![\d]|[.,]\d)", text):
            return f"{found.group('noun')} {found.group('n')}"
    return ""


def _names_exactly(query: Query, answer: Answer) -> bool:
    """A question about '1.2.0' or 'result_ttl' is answered only from a place that names it as written
    ('Version 2.1.0' shares every digit with '1.2.0' and is another version)."""
    if not query.entity or not EXACT_NAME.search(query.entity):
        return True
    said = f"{answer.text} {answer.evidence} {answer.section}".lower()
    return bool(re.search(r"(?<![\w.])" + re.escape(query.entity.strip().lower()) + r"(?![\w]|\.\w)", said))


def _field_answer(query: Query, observation: Observation) -> Answer | None:
    """A record's edit form answers 'the city of X' with what its 'City' field holds, never with the line the
    page text shows after the label (a field's value is not page text)."""
    if query.kind != "attribute" or not query.attr or not query.entity:
        return None
    heads = [str(observation.get("title") or "")] + [
        visible_text(e) for e in observation.get("elements") or [] if (e.get("tag") or "") in ("h1", "h2")
    ]
    if not any(f" {norm(query.entity)} " in f" {norm(h)} " for h in heads):
        return None  # the form is the record's own only when the page is titled for it
    attr = norm(query.attr)
    for el in observation.get("elements") or []:
        if not (is_text_field(el) or is_select(el)) or (el.get("zone") or "main") not in ("main", ""):
            continue
        label = norm(str(el.get("name") or "")).strip(" :*")
        if label and (label == attr or similarity(label, attr) >= 0.9):
            value = " ".join(str(el.get("value") or "").split())
            if not value or value.strip("-") == "":
                return Answer(False, f"The field {label!r} is empty.")
            return Answer(True, value, f"the field {label!r} holds it", source=_url(observation))
    return None


def _answer(query: Query, observation: Observation) -> Answer:
    field = _field_answer(query, observation)
    if field is not None:
        return field
    counted = table_count(query, observation) if query.kind == "count" else None
    if counted is not None:
        return replace(counted, source=source_url(_url(observation), None))
    if query.kind in SECTIONED:
        cell = table_answer(query, observation)
        if cell is not None:
            return replace(
                cell, section=table_caption(observation), source=source_url(_url(observation), None)
            )
        scoped = _in_section(query, observation)
        if scoped is not None:
            return scoped
    return _sourced(answer_on(query, observation), observation, query)


def _url(observation: Observation) -> str:
    return observation.get("url") or ""


def _from(section: Section, answer: Answer, observation: Observation) -> Answer:
    if answer.found and norm(answer.text) == norm(section.heading):
        return _body_answer(section, observation)  # the heading restated is no answer; what it heads is
    return replace(answer, section=section.heading, source=source_url(_url(observation), section))


def _body_answer(section: Section, observation: Observation) -> Answer:
    """A section whose heading is the question itself (an FAQ entry): its body is the answer."""
    if not section.body:
        return _from(
            section, Answer(False, f'The section "{section.heading}" is collapsed or empty.'), observation
        )
    text = clip(" ".join(section.body[:2]), 300)
    return _from(section, Answer(True, text, f'the section "{section.heading}"'), observation)


#: Attribute words that name no label of their own ('the default value' is labelled 'Default').
_VAGUE = frozenset({"value", "setting", "option", "parameter", "field", "property"})


def _attempts(query: Query, section: Section) -> list[Query]:
    """The question as asked, preceded (for attributes) by its attribute without the words the section
    heading already says: 'the default log level' in the section 'log_level' asks for its 'default'."""
    if query.kind != "attribute" or not query.attr:
        return [query]
    said = set(tokens(section.heading)) | _VAGUE
    kept = [w for w in query.attr.split() if not (set(tokens(w)) & said)]
    reduced = " ".join(kept)
    if reduced and reduced != query.attr:
        return [replace(query, attr=reduced, entity=""), query]
    return [query]


def _in_section(query: Query, observation: Observation) -> Answer | None:
    """The answer read inside the section the question names, or None when no section stands out."""
    sections = [s for s in page_sections(observation) if s.level > 1]
    if not sections:
        return None
    named = bool(query.section)
    found = best_section(sections, [query.section] if named else subjects(query))
    if found is None or found[1] < (NAMED if named else STRONG):
        if named:
            return Answer(False, f'There is no "{query.section}" section on this page.')
        return None
    section, score = found
    unscoped = replace(query, section="", page="")
    typed = VALUE_RX.get(query.value_type)
    if query.kind == "generic" and not named:  # (a price asked for: a body without one answers nothing)
        if typed is not None and not any(typed.search(line) for line in section.body):
            return None
        return _body_answer(section, observation)
    narrowed = inside(section, observation)
    if section.level < TERM_LEVEL:
        nested = [s for s in page_sections(narrowed) if s.element_id != section.element_id]
        heads = [query.attr.split()[-1]] if query.attr else []  # "the default rate": a term named "..._rate"
        inner = best_section(nested, subjects(unscoped) + heads) if nested else None
        if inner is not None and inner[1] >= NAMED:
            for attempt in _attempts(unscoped, inner[0]):
                answer = answer_on(attempt, inside(inner[0], narrowed))
                if answer.found:
                    return _from(inner[0], answer, observation)
    if not section.body:
        return _body_answer(section, observation)
    for attempt in _attempts(unscoped, section):
        answer = answer_on(attempt, narrowed)
        if answer.found:
            sourced = _from(section, answer, observation)
            if not sourced.found or fits_kind(sourced.text, typed):
                return sourced  # (a 'Prices' heading over 'See our fees page' gives no price: told below)
    if named:
        return _from(section, answer, observation)
    if typed is not None and not any(typed.search(line) for line in section.body):
        # a price or a time asked for, and the section says none: its body is no answer. A heading that links
        # to the item's own page is a lead to follow; any other section named so says there is none here.
        if score < 1.0 or _links_away(section, observation):
            return None
        return _from(
            section,
            Answer(False, f'The section "{section.heading}" gives no {query.value_type}.'),
            observation,
        )
    if score == 1.0 and query.kind in ("attribute", "generic"):
        return _body_answer(
            section, observation
        )  # headed by the exact name asked about ('1.2.0', 'result_ttl')
    return None


def _links_away(section: Section, observation: Observation) -> bool:
    """The section's heading is (or holds) a link to another page: the card of an item that has its own page."""
    here = _url(observation).split("#", 1)[0]
    heading = norm(section.heading)
    for el in observation.get("elements") or []:
        href = str((el.get("attrs") or {}).get("href") or "").split("#", 1)[0]
        if is_link(el) and href and href != here and norm(visible_text(el)) == heading:
            return True
    return False


#: Evidence of answers that are a page line picked for sharing the question's words.
LINE_ANSWERS = frozenset({"best matching line", "label and value", "the page mentions it"})


def _is_lead(text: str, observation: Observation) -> bool:
    """The line is an entry of an index or a menu (it starts with a link to another page): a lead to follow,
    not an answer."""
    here = (_url(observation)).split("#", 1)[0]
    start = norm(text)
    if _describes_a_card(text, observation):
        return True
    for el in observation.get("elements") or []:
        href = ((el.get("attrs") or {}).get("href") or "").split("#", 1)[0]
        label = norm(visible_text(el))
        if is_link(el) and href and href != here and len(label) >= 8 and start.startswith(label):
            return True
    return False


def _describes_a_card(text: str, observation: Observation) -> bool:
    """The line is a card's description, followed by the card's 'Read more' link: it says what the page behind
    the link is about, it does not answer for it."""
    repeated = repeated_link_labels(observation.get("elements") or [])
    if not repeated:
        return False
    lines = page_lines(observation)
    probe = norm(text)
    for n, line in enumerate(lines[:-1]):
        if probe and probe in norm(line):
            following = [" ".join(ln.lower().split()) for ln in lines[n + 1 : n + 3]]
            return any(f in repeated for f in following)
    return False


def _sourced(answer: Answer, observation: Observation, query: Query) -> Answer:
    """A whole-page answer with the section it sits in; a line that is only a heading is no answer."""
    if not answer.found:
        return replace(answer, source=_url(observation))
    sections = page_sections(observation)
    text = norm(answer.text)
    for section in sections:
        heading = norm(section.heading)
        if section.level > 1 and heading and text.startswith(heading):
            rest = text[len(heading) :].strip()
            if not rest or rest not in norm(" ".join(section.body)):
                return _body_answer(section, observation)  # the heading restated, or run into the next one
    asks_for_name = bool(TEXT_ITSELF.fullmatch(query.attr.strip()))  # a link's text is the title asked for
    if (
        answer.evidence in LINE_ANSWERS
        and not asks_for_name
        and _is_lead(answer.text.removeprefix("Yes: "), observation)
    ):
        return Answer(False, f"Only a link to it is here: {answer.text}", source=_url(observation))
    lines = page_lines(observation)
    line = ""
    for said in (answer.evidence, answer.text):  # a short value is found by the line it was read from
        probe = norm(said)[:40]
        line = next((ln for ln in lines if len(probe) >= 3 and probe in norm(ln)), "")
        if line:
            break
    holder = section_of_line(sections, line) if line else None
    if holder is not None and holder.level == 1:
        holder = None
    return replace(
        answer, section=holder.heading if holder else "", source=source_url(_url(observation), holder)
    )


def checked_answer(
    answer: Answer, observation: Observation, history: list[HistoryItem], question: str = ""
) -> Answer:
    """A line that only repeats what the agent typed into a search ('0 results for X') answers nothing; nor does
    a results listing's summary of a page, for a question about something: the page it leads to answers."""
    if answer.found and echoes_search(f"{answer.text} {answer.evidence}", observation, history):
        return replace(answer, found=False, text=f"Only the search for it is on the page: {answer.text}")
    if (
        answer.found
        and results_listing(str(observation.get("url") or ""))
        and analyze(question).kind in ("attribute", "generic")
    ):
        return replace(answer, found=False, text=f"Only a search result's summary says: {answer.text}")
    if answer.found and re.match(r"\s*when\b", question, re.I) and not WHEN_ANSWER.search(answer.text):
        return replace(answer, found=False, text=f"No time or date is given for it here: {answer.text}")
    if answer.found and re.match(r"\s*who\b", question, re.I) and not names_someone(answer.text, question):
        return replace(answer, found=False, text=f"No one is named for it here: {answer.text}")
    if answer.found and no_identifier(question, answer.text):
        return replace(answer, found=False, text=f"No number or code is given for it here: {answer.text}")
    return answer


#: A question for an identifier: 'my membership number', 'the booking reference', 'the order ID' (not 'the number
#: of ...', a count; not a phone number, which has its own shape).
_ASKS_IDENTIFIER = re.compile(
    r"\b(?<!phone\s)(?<!telephone\s)(?<!mobile\s)(?<!contact\s)(?:number|no\.|code|reference|ref|id)\b(?!\s+of\b)",
    re.I,
)
_IDENTIFIER = re.compile(r"\b(?=[\w/-]*\d)[A-Z0-9][A-Z0-9/-]+\b")
_NOT_IDENTIFIER = re.compile(
    VALUE_RX["money"].pattern + "|" + VALUE_RX["date"].pattern + r"|\b(?:19|20)\d\d\b", re.I
)


def no_identifier(question: str, text: str) -> bool:
    """The question asks for a number, a code or a reference, and the answer is a sentence that gives none
    (a plan's price and next payment date are no membership number); a short answer ('FIC HAL') may be one."""
    if not _ASKS_IDENTIFIER.search(question) or re.match(r"\s*how\s+many\b", question, re.I):
        return False
    return len(text.split()) > 4 and not _IDENTIFIER.search(_NOT_IDENTIFIER.sub(" ", text))
