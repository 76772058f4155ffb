"""Acting on one item of a list by its own control: "renew my loan of X", "cancel my hold on Y", "withdraw my
pending leave request", "revoke the key named ci-runner".

Such an item has no page of its own to edit: it is a row (or a card) of a list of the user's things, and the
row carries a button named for what it does ("Renew", "Cancel hold", "Withdraw"). The row is the one whose own
text names the item best (all its names, most of its describing words, clearly ahead of every other row); a tie
is no guess. After the click, a page that asks "are you sure?" is answered yes, and the change is proven only by
what the page then shows: a line with the verb done ("renewed", "withdrawn") naming the item, or the item's row
saying so, or such a line while the item's row no longer offers the control.

Nothing here knows a site: rows are what a line of the page holds (bounding boxes), cards what a block holds
above its control.
"""

from __future__ import annotations

import re
from dataclasses import replace

from agent.planning.base import HistoryItem
from agent.planning.offline import page as kinds
from agent.planning.offline.dates import MONTH_NAME, WEEKDAY_BEFORE, days_said, same_day
from agent.planning.offline.page import visible_text
from agent.planning.offline.records.goal import RecordGoal
from agent.planning.offline.records.progress import CLICKED
from agent.planning.offline.text import norm, tokens
from agent.types import Element, Observation

#: Other words a control for the verb may carry ("Extend" renews a loan, "Remove" cancels a hold).
_ALSO = {
    "renew": ("extend",),
    "withdraw": ("cancel", "retract"),
    "cancel": ("remove",),
    "revoke": ("delete", "remove", "disable"),
    "unenrol": ("unenroll", "leave", "drop"),
    "unenroll": ("unenrol", "leave", "drop"),
    "reject": ("decline", "deny"),
    "decline": ("reject",),
    "approve": ("accept",),
    "pay": ("mark as paid", "paid"),
    "enrol": ("enroll", "register", "sign up", "join"),
    "book": ("book now", "reserve", "select", "choose", "check availability"),
    "reserve": ("book", "select", "choose"),
    "hire": ("book", "select", "choose", "get a quote"),
    "rent": ("book", "select", "choose", "hire"),
    "order": ("request", "add"),
    "apply": ("apply now",),
    "request": ("order", "new request"),
    "schedule": ("book", "new appointment"),
    "arrange": ("book", "new appointment"),
    "place": ("reserve", "request"),
    "enroll": ("enrol", "register", "sign up", "join"),
    "drop": ("unenrol", "unenroll", "withdraw", "leave", "remove"),
}
#: The verb done, as a page says it.
_DONE = {
    "renew": ("renewed", "extended"),
    "withdraw": ("withdrawn", "withdrew", "cancelled", "canceled", "retracted"),
    "cancel": ("cancelled", "canceled", "removed"),
    "revoke": ("revoked", "deleted", "removed", "disabled"),
    "unenrol": ("unenrolled", "unenroled", "removed", "left", "dropped"),
    "unenroll": ("unenrolled", "removed", "left", "dropped"),
    "approve": ("approved", "accepted"),
    "reject": ("rejected", "declined", "denied"),
    "decline": ("declined", "rejected"),
    "restore": ("restored",),
    "archive": ("archived",),
    "return": ("returned",),
    "accept": ("accepted",),
    "confirm": ("confirmed",),
    "pay": ("paid",),
    "enrol": ("enrolled", "enroled", "registered", "signed up", "joined"),
    "enroll": ("enrolled", "registered", "signed up", "joined"),
    "drop": ("dropped", "unenrolled", "unenroled", "withdrawn", "removed", "left"),
}
_ASKS = re.compile(
    r"\bare\s+you\s+sure\b|\bconfirm\b|\bdo\s+you\s+(?:really\s+)?want\b|\bcan(?:not|['’]t)\s+be\s+"
    r"(?:undone|reversed)\b",
    re.I,
)
_YES = re.compile(r"^\s*(?:yes|confirm|ok|proceed|continue)\b", re.I)
_NO = re.compile(r"^\s*(?:no|back|keep|go\s+back|return|never\s*mind|don'?t)\b", re.I)
_STOP = frozenset("my the a an our your of on for in at to with and this that".split())
#: A day said in words with the words around it ('on the 10th of december'), left out of the row's other words.
_DAY_WORDS = re.compile(
    rf"\b(?:on\s+)?(?:the\s+)?{WEEKDAY_BEFORE}(?:\d{{1,2}}(?:st|nd|rd|th)?\s+(?:of\s+)?{MONTH_NAME}"
    rf"|{MONTH_NAME}\s+\d{{1,2}}(?:st|nd|rd|th)?)(?:,?\s+\d{{4}})?",
    re.I,
)


#: The operations done by an item's own control on its row (an update's verb names its save button instead).
ROW_OPS = ("act", "cancel")


def by_row(goal: RecordGoal) -> bool:
    """The goal is done by the item's own control ('Renew' on the loan's row)."""
    return goal.op in ROW_OPS and bool(goal.verb)


def verb_words(verb: str) -> tuple[str, ...]:
    base = verb.lower().split()[0] if verb else ""
    return (base, *_ALSO.get(base, ())) if base else ()


def done_words(verb: str) -> tuple[str, ...]:
    base = verb.lower().split()[0] if verb else ""
    return _DONE.get(base) or ((base + "d") if base.endswith("e") else (base + "ed"),)


def _has(text: str, words: tuple[str, ...]) -> bool:
    lowered = norm(text)
    return any(re.search(rf"\b{re.escape(w)}\b", lowered) for w in words)


def _box(el: Element) -> tuple[float, float, float, float]:
    box = el.get("bbox") or [0, 0, 0, 0]
    return float(box[0]), float(box[1]), float(box[2]), float(box[3])


#: Words of undoing: a control saying one ('Cancel hold') never does a verb that says none ('put a hold on').
_UNDOING = (
    "cancel", "remove", "delete", "withdraw", "decline", "reject", "revoke", "drop", "leave", "unsubscribe",
    "suspend", "pause", "freeze", "release",
)  # fmt: skip


def says_verb(text: str, verb: str) -> bool:
    """A control's words do ``verb`` (its other words too), and undo nothing the verb does not."""
    words = verb_words(verb)
    return _has(text, words) and not _has(text, tuple(w for w in _UNDOING if w not in words))


def _controls(observation: Observation, verb: str, tried: set[str] = frozenset()) -> list[Element]:
    return [
        e
        for e in observation.get("elements") or []
        if (kinds.is_button(e) or kinds.is_link(e))
        and 0 < len(visible_text(e)) <= 40
        and says_verb(visible_text(e), verb)
        and visible_text(e) not in tried
    ]


def row_text(control: Element, observation: Observation) -> str:
    """What the control's row says: the elements on its line; for a control alone on its line (a card), what
    its block holds above it, back to the block's previous control of the same kind."""
    x, y, w, h = _box(control)
    mid = y + h / 2
    zone = control.get("zone") or "main"  # (a row's cells share its zone: a sidebar beside it is no cell)
    elements = [
        e
        for e in observation.get("elements") or []
        if e is not control and visible_text(e) and (e.get("zone") or "main") == zone
    ]
    line = []
    for e in elements:
        _, ey, _, eh = _box(e)
        if eh <= max(3 * h, 60) and (ey <= mid <= ey + eh or ey < y + h and ey + eh > y and eh <= h):
            line.append(e)  # (a row's name set at its top still shares the line with the row's button)
    block = control.get("block")
    own = [
        e for e in line if block and e.get("block") == block
    ]  # the row's own cells, not a sidebar beside it
    line = own if any(not kinds.is_button(e) for e in own) else line
    if any(not (kinds.is_button(e) or kinds.is_link(e)) or len(visible_text(e)) > 40 for e in line):
        said = " ".join(visible_text(e) for e in sorted(line, key=lambda e: _box(e)[0]))
        return f"{said} {_read_row(line, observation)}".strip()
    above = (
        [e for e in elements if e.get("block") == block and _box(e)[1] < y]
        if block
        else [e for e in elements if _box(e)[1] < y and zone == "main"]
    )  # (a control in no block of its own is the page's: an item's own page, read from its top)
    siblings = [
        _box(e)[1]
        for e in above
        if (kinds.is_button(e) or kinds.is_link(e)) and visible_text(e) == visible_text(control)
    ]
    floor = max(siblings, default=-1.0)
    return " ".join(visible_text(e) for e in sorted(above, key=lambda e: _box(e)[1]) if _box(e)[1] > floor)


def _read_row(line: list[Element], observation: Observation) -> str:
    """The row as the page's text reads it, when one of its lines holds every cell of the row: a row's words
    that no element carries ('Northlight Logistics, Wakefield' under the job's link) are the row's too."""
    cells = [
        visible_text(e) for e in line if not (kinds.is_button(e) or kinds.is_link(e)) and visible_text(e)
    ]
    if len(cells) < 2:
        return ""
    hits = [t for t in str(observation.get("page_text") or "").splitlines() if all(c in t for c in cells)]
    return hits[0] if len(hits) == 1 else ""


def row_anchor(goal: RecordGoal, control: Element, observation: Observation) -> str:
    """A text of the control's own row that no other element of the page carries, the most telling first: the
    step 'Click "Withdraw" near <it>' then means this row's button, whatever the other rows hold."""
    elements = observation.get("elements") or []
    counts: dict[str, int] = {}
    for e in elements:
        counts[norm(visible_text(e))] = counts.get(norm(visible_text(e)), 0) + 1
    _, y, _, h = _box(control)
    mid = y + h / 2
    cx, cy, cw, ch = _box(control)
    mine = [
        e for e in elements
        if e is not control and visible_text(e) and counts.get(norm(visible_text(e))) == 1
        and not (_box(e)[0] <= cx and _box(e)[1] <= cy and _box(e)[0] + _box(e)[2] >= cx + cw
                 and _box(e)[1] + _box(e)[3] >= cy + ch)  # not the row itself: it holds every row's control
        and len(visible_text(e)) <= 80 and _box(e)[1] <= mid <= _box(e)[1] + _box(e)[3]
        and _box(e)[3] <= max(4 * h, 100)  # (a cell of a row whose text wraps is taller than its control)
    ]  # fmt: skip
    mine.sort(key=lambda e: (-_score(goal, visible_text(e)), abs(_box(e)[0] - _box(control)[0])))
    return visible_text(mine[0]) if mine else ""


def _describing(goal: RecordGoal) -> tuple[list[str], list[str]]:
    """(names that must all be said, other describing words) of the item."""
    about = re.sub(r"['’]s\b", "", goal.about or goal.title)  # ("Clover's appointment": Clover)
    capitals = " ".join(re.findall(r"\b[A-Z][\w'-]*", about)) if about != about.lower() else ""
    names = [n for n in tokens(capitals) if n not in _STOP]
    words = [w for w in tokens(about) if w not in _STOP]
    return names, [w for w in words if w not in names]


def _score(goal: RecordGoal, text: str) -> float:
    about = goal.about or goal.title
    days = days_said(about)
    if days:  # 'her appointment on the 10th of december': the row of that day; its other words as usual
        if not same_day(days[0], text):
            return 0.0
        rest = replace(goal, about=_DAY_WORDS.sub(" ", about), title="")
        return _score(rest, text) if _describing(rest) != ([], []) else 1.0
    names, words = _describing(goal)
    said = set(tokens(text))
    if not said or any(n not in said for n in names):
        return 0.0
    if not words:
        return 1.0 if names else 0.0
    return (len(names) + sum(1 for w in words if w in said)) / (len(names) + len(words))


def row_control(goal: RecordGoal, observation: Observation, tried: set[str]) -> Element | None:
    """The control for ``goal.verb`` on the row that names the item: the best row, if clearly the best."""
    scored = sorted(
        ((_score(goal, row_text(c, observation)), c) for c in _controls(observation, goal.verb, tried)),
        key=lambda s: -s[0],
    )
    if not scored or scored[0][0] < 0.5:
        return None
    if len(scored) > 1 and scored[1][0] >= scored[0][0]:
        exact = [c for v, c in scored if v >= scored[0][0] and _names_exactly(goal, row_text(c, observation))]
        return exact[0] if len(exact) == 1 else None  # 'ci-runner', not 'ci-runner-legacy'; else no guess
    return scored[0][1]


#: A line that reports nothing done: '0 items renewed', 'No loans were renewed'.
_NONE_DONE = re.compile(
    r"\b(?:0|no|none|zero)\s+(?:of\s+\w+\s+)?(?:[a-z]+\s+){0,2}(?:(?:was|were|have\s+been|has\s+been)\s+)?[a-z]+ed\b",
    re.I,
)


def clicked_targets_since(history: list[HistoryItem], start: int) -> list[str]:
    """What the steps from ``start`` on clicked, by the words of their plan step."""
    return [str(h.get("plan_step") or "") for h in history[max(0, start) :] if h.get("action") == "click"]


#: A control that acts on the rows ticked ('Renew selected', 'Cancel checked items').
_ON_TICKED = re.compile(r"\b(?:selected|ticked|checked|marked|chosen)\b")


def ticked_row_control(
    goal: RecordGoal, observation: Observation, tried: set[str]
) -> tuple[Element, Element] | None:
    """(the tick box on the item's row, the page's one control for the verb on what is ticked), when the page
    acts on ticked rows ('Select Bread Baking for Beginners' then 'Renew selected'), not row by row."""
    bulk = [c for c in _controls(observation, goal.verb, tried) if _ON_TICKED.search(norm(visible_text(c)))]
    if len(bulk) != 1:
        return None
    scored = sorted(
        (
            (_score(goal, f"{visible_text(b)} {row_text(b, observation)}"), b)
            for b in observation.get("elements") or []
            if kinds.role_of(b) == "checkbox" and not b.get("checked") and not b.get("disabled")
        ),
        key=lambda s: -s[0],
    )
    if not scored or scored[0][0] < 0.5:
        return None
    if len(scored) > 1 and scored[1][0] >= scored[0][0]:
        exact = [b for v, b in scored if v >= scored[0][0] and _names_exactly(goal, visible_text(b))]
        return (exact[0], bulk[0]) if len(exact) == 1 else None
    return scored[0][1], bulk[0]


def _names_exactly(goal: RecordGoal, text: str) -> bool:
    """The text says the item's whole name as a name of its own, not the start of a longer one."""
    name = (goal.title or goal.about).strip().lower()
    return bool(name) and re.search(rf"(?<![\w-]){re.escape(name)}(?![\w-])", text.lower()) is not None


def page_control(goal: RecordGoal, observation: Observation, tried: set[str]) -> Element | None:
    """On the item's own page (its heading names it), its one control for the verb ('Enrol on this course')."""
    headings = [
        visible_text(e) for e in observation.get("elements") or [] if (e.get("tag") or "") in ("h1", "h2")
    ]
    if not any(_score(goal, h) >= 0.5 for h in headings[:3]):
        return None
    controls = _controls(observation, goal.verb, tried)
    return controls[0] if len(controls) == 1 else None


#: A link that does something rather than name an item ('Request leave', 'New request', 'Add a hold').
_CONTROL_LINK = re.compile(
    r"^\s*(?:request|new|create|add|book|apply|submit|file|report|cancel|withdraw|renew|edit|delete|remove|"
    r"log\s*(?:in|out)|sign\s*(?:in|out|up)|register|enrol+|join)\b",
    re.I,
)


def item_link(goal: RecordGoal, observation: Observation, tried: set[str]) -> Element | None:
    """A link that names the item (its own page may carry the control), when one names it best; a short link
    by its row too (an order's number leads the row that names the medicine and its status)."""

    def score(e: Element) -> float:
        short = len(visible_text(e)) <= 20
        return max(_score(goal, visible_text(e)), _score(goal, row_text(e, observation)) if short else 0.0)

    scored = sorted(
        (
            (score(e), e)
            for e in observation.get("elements") or []
            if kinds.is_link(e) and 0 < len(visible_text(e)) <= 80 and visible_text(e) not in tried
            and not _CONTROL_LINK.match(visible_text(e))
        ),
        key=lambda s: -s[0],
    )  # fmt: skip
    if not scored or scored[0][0] < 0.5 or (len(scored) > 1 and scored[1][0] >= scored[0][0]):
        return None
    return scored[0][1]


def acted_at(goal: RecordGoal, history: list[HistoryItem]) -> int:
    """Where in the history the verb's control was clicked (-1 when it was not)."""
    for n in range(len(history) - 1, -1, -1):
        m = CLICKED.match(str(history[n].get("plan_step") or ""))
        if history[n].get("status") == "success" and m and _has(m.group("t"), verb_words(goal.verb)):
            return n
    return -1


def agree_control(goal: RecordGoal, observation: Observation, history: list[HistoryItem]) -> Element | None:
    """On a page that asks whether to go on, the button that agrees (a yes, or the verb again)."""
    text = f"{observation.get('title') or ''}\n{observation.get('page_text') or ''}"[:3000]
    heads = [visible_text(e) for e in observation.get("elements") or [] if kinds.is_heading(e)]
    asked = any(
        h.rstrip().endswith("?") and _has(h, verb_words(goal.verb)) for h in heads
    )  # 'Cancel booking X?'
    if not _ASKS.search(text) and not asked:
        return None
    clicked = {
        m.group("t")
        for h in history[acted_at(goal, history) :]
        if (m := CLICKED.match(str(h.get("plan_step") or "")))
    }
    buttons = [
        e
        for e in observation.get("elements") or []
        if kinds.is_button(e) and 0 < len(visible_text(e)) <= 40 and not _NO.search(visible_text(e))
        and visible_text(e) not in clicked
    ]  # fmt: skip
    yes = [e for e in buttons if _YES.search(visible_text(e))]
    return (yes or [e for e in buttons if _has(visible_text(e), verb_words(goal.verb))] or [None])[0]


def _appeared(goal: RecordGoal, history: list[HistoryItem]) -> list[str]:
    """The texts that appeared on the page from the click on the verb's control on (its effect and after)."""
    start = acted_at(goal, history)
    if start < 0:
        return []
    return [
        norm(t)
        for h in history[start:]
        for t in (h.get("effect") or {}).get("appeared") or []
        if str(t).strip()
    ]


def action_shown(goal: RecordGoal, observation: Observation, history: list[HistoryItem]) -> str:
    """The page's own words, new since the verb's control was clicked, that the item had the verb done: a line
    naming the item, or any such line once the item's row no longer offers the control ('' otherwise)."""
    start = acted_at(goal, history)
    if start < 0 or any((h.get("effect") or {}).get("http_status") for h in history[start:]):
        return (
            ""  # (an error page that echoes the request, 'Renewed X could not be found', says nothing done)
        )
    done = done_words(goal.verb)
    new = _appeared(goal, history)
    lines = [ln.strip() for ln in str(observation.get("page_text") or "").splitlines() if ln.strip()]
    fresh = [
        ln for ln in lines
        if len(ln) <= 300 and _has(ln, done) and not _has(ln, ("not", "cannot", "failed", "unable", "none"))
        and not _NONE_DONE.search(ln) and any(t in norm(ln) for t in new if _has(t, done))
    ]  # fmt: skip
    for ln in fresh:
        if _score(goal, ln) >= 0.5:
            return ln[:200]
    still_offered = any(
        _score(goal, row_text(c, observation)) >= 0.5 for c in _controls(observation, goal.verb)
    )
    on_ticked = any(_ON_TICKED.search(norm(t)) for t in clicked_targets_since(history, start))
    if fresh and not still_offered and not on_ticked:  # (a shared 'Renew selected' stays: only a named line)
        return f"{fresh[0][:160]} (no row of it offers {goal.verb!r} any more)"
    return ""


def own_details(goal: RecordGoal) -> bool:
    """An update of the user's own details ('change my mobile number to ...'): no record to look up."""
    mine = re.fullmatch(r"my\s+(?:[\w'-]+\s+)?(?:record|account|profile|details)", goal.about.strip(), re.I)
    return (
        goal.op == "update"
        and not ((goal.about and not mine) or goal.number or goal.search)
        and bool(re.search(r"\bmy\b", goal.said, re.I))
    )


#: Where the items a verb acts on are listed, when the goal names no kind: one renews a loan.
_KEPT_IN = {"renew": re.compile(r"\b(?:loans?|borrowed|on\s+loan|checked\s+out|items?\s+out)\b")}


def own_list_link(
    goal: RecordGoal, observation: Observation, tried: set[str], details: bool = False
) -> Element | None:
    """The link to where the user's own items are listed: one naming their kind ('My loans', 'Requests'),
    else the account's own page ('My account', 'Dashboard')."""
    noun = (goal.noun or "").lower()
    best, best_score = None, 0.0
    for e in observation.get("elements") or []:
        text = visible_text(e)
        if not kinds.is_link(e) or not text or len(text) > 30 or text in tried:
            continue
        lowered = norm(text)
        score = 0.0
        if noun and re.search(rf"\b{re.escape(noun)}s?\b", lowered):
            score = 2.0
        elif not noun and (kept := _KEPT_IN.get(goal.verb.lower())) and kept.search(lowered):
            score = 2.0  # ('renew Bread Baking for Beginners': the user's loans)
        elif details and re.search(r"\b(?:profile|details|settings|personal|contact\s+info)", lowered):
            score = 1.5  # where one's own details are kept
        elif re.search(r"\b(?:my|account|dashboard|profile)\b", lowered):
            score = 1.0
        if score > best_score:
            best, best_score = e, score
    return best
