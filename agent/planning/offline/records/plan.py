"""Planning a record goal: find the record, reach its form, fill it, save with the control that saves, and end
only when the page read again shows the change.

Every step is a canonical grammar step ('Click the "Modify" button', 'Select "critical" from "Priority"'), so
the translate node grounds it like any other. The plan is a pure function of the goal, the page and the history.
"""

from __future__ import annotations

import re
from typing import Any
from urllib.parse import quote, unquote, urlsplit, urlunsplit

from agent import terminals
from agent.planning.base import HistoryItem, PlanRequest, PlanResult
from agent.planning.offline.grammar import ParsedGoal
from agent.planning.offline.intents import (
    Ask,
    Click,
    Intent,
    Navigate,
    Search,
    SelectOption,
    SetCheck,
    Submit,
    TypeText,
    Wait,
)
from agent.planning.offline.page import is_link, visible_text
from agent.planning.offline.records.addresses import numbered_address
from agent.planning.offline.records.delete import (
    asks_to_confirm,
    confirm_control,
    delete_confirmed,
    delete_started,
    deletion_shown,
)
from agent.planning.offline.records.edits import read_text_edit
from agent.planning.offline.records.forms import (
    FIELD_MATCH,
    Fill,
    best_match,
    field_label,
    holds,
    on_record,
    op_control,
    plan_fills,
    record_link,
    record_words,
    save_control,
    search_box,
)
from agent.planning.offline.records.goal import (
    OPERATIONS,
    RecordGoal,
    kind_of,
    read_record_goal,
    record_question,
)
from agent.planning.offline.records.progress import (
    OWN_BUTTON,
    clicked_targets,
    ok_steps,
    pending_save,
    placed_in_form,
    placed_values,
    reread,
    saves_sent,
    searched_queries,
)
from agent.planning.offline.records.proof import CONFLICT, identity, read_change
from agent.planning.offline.records.row_actions import (
    acted_at,
    action_shown,
    agree_control,
    by_row,
    own_details,
    own_list_link,
    row_anchor,
    row_control,
)
from agent.planning.offline.text import clip, norm, similarity, split_identifier
from agent.types import Observation

MAX_SAVES = 3
MAX_STEPS = 5
_CREATING = re.compile(r"\b(?:new|create|add|file|submit|report|compose)\b", re.I)
_ARTICLES = re.compile(r"^(?:the|a|an|that|this|its)\s+", re.I)
LISTING_WORDS = "list index all browse view report reports overview roadmap milestones"


def record_goal_of(parsed: ParsedGoal) -> RecordGoal | None:
    """The record operation of a goal: in what the grammar cannot read, or in a goal that describes a record
    (the grammar would only guess a click or a typing from its words)."""
    edit = read_text_edit(parsed.goal)
    if edit is not None:
        return edit
    whole = read_record_goal(parsed.goal)
    if parsed.understood:
        if whole is not None and whole.op == "open" and _fills_after_opening(parsed.intents):
            return None  # 'open X, then type ... and click ...': opening is one of the steps the grammar read
        return whole if whole is not None and (whole.about or whole.number or whole.search) else None
    if not parsed.unknown:
        return None
    return read_record_goal(". ".join(parsed.unknown)) or whole


def _fills_after_opening(intents: tuple[Intent, ...]) -> bool:
    """Values are typed after the page is opened ('Open the workshop, then type "Dana" into "Your name"'): a
    form on it is filled, not a record looked up (a log-in's typing before it does not count)."""
    opened = next((n for n, i in enumerate(intents) if isinstance(i, Click)), None)
    return opened is not None and any(isinstance(i, TypeText) for i in intents[opened + 1 :])


def leading_intents(parsed: ParsedGoal) -> list[Intent]:
    """What the grammar reads before the record operation and must be done first: everything it read beside
    an unread clause, or a login ('log in as dave and comment on #10 ...')."""
    actions = [i for i in parsed.intents if not isinstance(i, Ask)]
    if parsed.unknown and read_record_goal(". ".join(parsed.unknown)) is not None:
        return actions
    logins = [n for n, i in enumerate(actions) if isinstance(i, Submit) and i.purpose == "login"]
    return actions[: logins[-1] + 1] if logins else []


def leading_goal(parsed: ParsedGoal, record: RecordGoal) -> str:
    """The leading intents as plan steps ('' when there are none)."""
    return "; ".join(i.step() for i in leading_intents(parsed))


def _result(**fields: Any) -> PlanResult:
    result: dict[str, Any] = {"proposed_actions": [], "task_complete": False, "usage": {}}
    result.update(fields)
    return result  # type: ignore[return-value]


def _unmet(reason: str, answer: str, raw: dict[str, Any]) -> PlanResult:
    return _result(task_complete=True, success=False, failure_reason=reason, final_answer=clip(answer, 1000),
                   reasoning=answer[:200], raw=raw)  # fmt: skip


def _steps(steps: list[str], why: str, raw: dict[str, Any]) -> PlanResult:
    return _result(
        proposed_actions=steps[:MAX_STEPS], reasoning=why, raw={**raw, "pending": steps[:MAX_STEPS]}
    )


def fill_step(fill: Fill) -> str:
    """The grammar step that puts the fill's value into its field."""
    if fill.how == "select":
        return SelectOption(fill.value, fill.label).step()
    if fill.how == "check":
        return SetCheck(fill.label).step()
    if fill.how == "replace":
        return TypeText(fill.value, fill.label, replace=fill.old).step()
    return TypeText(fill.value, fill.label, append=fill.how == "append").step()


def plan_record(request: PlanRequest, goal: RecordGoal) -> PlanResult:
    """Next steps for a record goal on this page, or its end (proven, or unmet with what the page said)."""
    observation: Observation = request.get("observation") or {}
    history = list(request.get("history") or [])
    raw: dict[str, Any] = {
        "record": {"op": goal.op, "about": record_words(goal), "values": list(goal.values)}
    }
    if goal.op == "delete":
        return _delete(goal, observation, history, raw)
    if by_row(goal):
        acted = _row_action(goal, observation, history, raw)
        if acted is not None:
            return acted
    own = own_save_words(goal)
    saves = saves_sent(history, own)
    if goal.op != "open" and saves and pending_save(history, own):
        return _after_save(goal, observation, history, saves, raw)
    if goal.op == "open":
        return _open(goal, observation, history, raw)
    found = not goal.needs_record or on_record(goal, observation) or _started(goal, history)
    fills, missing = plan_fills(goal, observation)
    mine = own_details(goal)  # 'update my mobile number': the user's own details are the record
    found = found or (mine and bool(fills) and not missing)
    staged = bool(fills) and missing and _first_stage(goal, observation, fills)
    if found and fills and (not missing or staged) and _form_ready(goal, observation, history, fills):
        return _fill(goal, observation, fills, raw)
    if not found and mine:
        place = own_list_link(goal, observation, clicked_targets(history), details=True)
        if place is not None:
            return _steps([Click(visible_text(place), "link").step()], "the user's own details", raw)
    if not found:
        return _find(goal, observation, history, raw)
    control = op_control(goal, observation, clicked_targets(history))
    if control is not None:
        return _steps([Click(field_label(control) or visible_text(control), _role(control)).step()],
                      f"open the form that does '{goal.op}'", raw)  # fmt: skip
    section = _section(goal, observation, clicked_targets(history))
    if section is not None:
        return _steps(
            [Click(visible_text(section), "link").step()], f"the {goal.noun} section has its controls", raw
        )
    named = _page_by_name(goal, observation, history)
    if named:
        return _steps(
            [Navigate(named).step()], "pages here live at their name: open the new page's address", raw
        )
    listing = _listing(goal, observation, clicked_targets(history)) if goal.op == "create" else None
    if listing is not None:
        return _steps(
            [Click(visible_text(listing), "link").step()], "an index of records may offer to create one", raw
        )
    what = ", ".join(missing) or goal.op
    return _unmet("step_failed", f"Could not find where to {goal.op} on this page ({what}).", raw)


def _delete(
    goal: RecordGoal, observation: Observation, history: list[HistoryItem], raw: dict[str, Any]
) -> PlanResult:
    """Open the record, use its delete control, answer the confirmation yes, and end when the page after it
    names the record as deleted and links to it no more."""
    if delete_confirmed(history):
        quote = deletion_shown(goal, observation, identity(goal))
        raw["record"]["seen"] = [quote] if quote else []
        if quote:
            return _result(task_complete=True, success=True, final_answer=f"Deleted. The page says: {quote}",
                           raw=raw, reasoning="the page names the record as deleted")  # fmt: skip
        return _unmet(terminals.UNVERIFIED, "Deleted, but the page does not show the record as gone.", raw)
    if delete_started(history) and asks_to_confirm(observation):
        agree = confirm_control(observation)
        return _steps([Click(field_label(agree) or visible_text(agree), "button").step()],
                      "the page asks to confirm the deletion the goal asks for", raw)  # fmt: skip
    if not on_record(goal, observation):
        return _find(goal, observation, history, raw)
    control = op_control(goal, observation, clicked_targets(history))
    if control is None:
        return _unmet("step_failed", "The record has no control that deletes it here.", raw)
    return _steps([Click(field_label(control) or visible_text(control), _role(control)).step()],
                  "the record's own delete control", raw)  # fmt: skip


def own_save_words(goal: RecordGoal) -> tuple[str, ...]:
    """The goal's own verb when a button named for it saves ('assign ... to X': 'Assign')."""
    return (goal.verb,) if goal.verb and goal.op == "update" else ()


def _row_action(
    goal: RecordGoal, observation: Observation, history: list[HistoryItem], raw: dict[str, Any]
) -> PlanResult | None:
    """An item of a list done by its own control ('Renew' on the loan's row), then the page's confirmation
    answered yes, and the end only when the page shows it done; None when this page has no such control and
    nothing was done yet (a cancel may still be a status set in the record's form)."""
    tried = clicked_targets(history)
    if acted_at(goal, history) >= 0:
        agree = agree_control(goal, observation, history)
        if agree is not None:
            return _steps([Click(visible_text(agree), "button").step()], "the page asks to confirm it", raw)
        quote = action_shown(goal, observation, history)
        raw["record"]["seen"] = [quote] if quote else []
        if quote:
            return _result(task_complete=True, success=True, final_answer=f"Done. The page says: {quote}",
                           raw=raw, reasoning=f"the page shows the {goal.noun or 'item'} {goal.verb} done")  # fmt: skip
        return _unmet(
            terminals.UNVERIFIED, f"Clicked {goal.verb!r}, but the page does not show it done.", raw
        )
    control = row_control(goal, observation, tried)
    if control is not None:
        near = row_anchor(goal, control, observation)
        return _steps([Click(visible_text(control), _role(control), near=near).step()],
                      f"the {goal.noun or 'item'}'s own {goal.verb!r} control, on its row", raw)  # fmt: skip
    if goal.op != "act":
        return None
    place = own_list_link(goal, observation, tried)
    if place is not None:
        return _steps([Click(visible_text(place), "link").step()], "the list of the user's own items", raw)
    return _unmet(
        "step_failed",
        f"No {goal.noun or 'item'} named {record_words(goal)!r} offers {goal.verb!r} here.",
        raw,
    )


def _role(el: Any) -> str:
    return "link" if is_link(el) else "button"


def _started(goal: RecordGoal, history: list[HistoryItem]) -> bool:
    """An operation control was already used on the confirmed record (its edit page may be titled otherwise)."""
    return bool(ok_steps(history)) and any(
        any(w in t.lower() for w in ("edit", "modify", "comment", "reply", "change"))
        for t in clicked_targets(history)
    )


def _form_ready(
    goal: RecordGoal, observation: Observation, history: list[HistoryItem], fills: list[Fill]
) -> bool:
    """A create goal fills a form only on a page for creating (or after its 'New ...' control was used, or
    when the form's own button creates)."""
    if goal.op != "create":
        return True
    where = f"{observation.get('title') or ''} {observation.get('url') or ''}"
    save = save_control(observation, [f.element for f in fills])
    return (
        bool(_CREATING.search(where))
        or any(_CREATING.search(t) for t in clicked_targets(history))
        or (save is not None and bool(_CREATING.search(field_label(save))))
    )


def _page_by_name(goal: RecordGoal, observation: Observation, history: list[HistoryItem]) -> str:
    """A wiki keeps each page at an address ending in its name: when this page's address ends in its own title,
    the new page named ``goal.title`` is at the same address with that name (the wiki offers to create it)."""
    if goal.op != "create" or not goal.title or not re.fullmatch(r"[\w.-]+", goal.title):
        return ""
    url = str(observation.get("url") or "")
    parts = urlsplit(url)
    head, _, last = parts.path.rpartition("/")
    name = unquote(last)
    heads = [observation.get("title") or ""] + [
        visible_text(e) for e in observation.get("elements") or [] if (e.get("tag") or "") == "h1"
    ]
    if not name or not any(
        norm(split_identifier(name)) in norm(split_identifier(h)) or name in h for h in heads
    ):
        return ""
    target = urlunsplit((parts.scheme, parts.netloc, f"{head}/{quote(goal.title)}", "", ""))
    return "" if any(h.get("plan_step") == Navigate(target).step() for h in history) else target


def _first_stage(goal: RecordGoal, observation: Observation, fills: list[Fill]) -> bool:
    """A form that creates the record from its name first ('Page name' + 'Create page'), the rest comes after."""
    save = save_control(observation, [f.element for f in fills])
    return (
        goal.op == "create"
        and any(f.what == "title" for f in fills)
        and save is not None
        and bool(_CREATING.search(field_label(save)))
    )


def _fill(goal: RecordGoal, observation: Observation, fills: list[Fill], raw: dict[str, Any]) -> PlanResult:
    todo = [f for f in fills if not holds(f)]
    own = OPERATIONS.get(goal.op, ()) if goal.op in OWN_BUTTON else ()
    own += own_save_words(goal)
    save = save_control(observation, [f.element for f in fills], own)
    if save is None:
        return _unmet("step_failed", "The form has no control that saves it (only preview or cancel).", raw)
    steps = [fill_step(f) for f in todo][: MAX_STEPS - 1]
    if len(steps) == len(todo):
        steps.append(Click(field_label(save) or visible_text(save), "button").step())
    return _steps(steps, f"fill {len(todo)} field(s) and save with '{field_label(save)}'", raw)


def _after_save(
    goal: RecordGoal, observation: Observation, history: list[HistoryItem], saves: int, raw: dict[str, Any]
) -> PlanResult:
    again = reread(history, own_save_words(goal))
    blank = not observation.get("elements") and not str(observation.get("page_text") or "").strip()
    waited = sum(1 for h in history if h.get("plan_step") == Wait().step())
    if blank and waited < 2:  # the page after the save was read while still loading: read it again
        return _steps([Wait().step()], "the page after the save is still empty", raw)
    reading = read_change(goal, observation, placed_values(history), again)
    raw["record"]["seen"] = reading.seen
    if reading.proven:
        answer = f"{goal.op.capitalize()} saved. The page now shows: " + "; ".join(reading.seen)
        return _result(task_complete=True, success=True, final_answer=clip(answer, 1000), raw=raw,
                       reasoning="the record read again shows every new value")  # fmt: skip
    if reading.problem == "preview" and saves < MAX_SAVES:
        fills, _ = plan_fills(goal, observation)
        save = save_control(observation, [f.element for f in fills])
        if save is not None:
            return _steps([Click(field_label(save), "button").step()], "the page is a preview; save it", raw)
    if reading.problem and CONFLICT.search(reading.problem) and saves < MAX_SAVES:
        fills, missing = plan_fills(goal, observation)
        if fills and not missing:
            return _fill(
                goal, observation, fills, raw
            )  # the form came back with the other change: save ours again
    if reading.problem and reading.problem != "preview":
        return _unmet("page_error", f"The page refused the change: {reading.problem}", raw)
    fills, _ = plan_fills(goal, observation)
    if any(f.value not in placed_in_form(history) for f in fills) and saves < MAX_SAVES:
        return _fill(goal, observation, fills, raw)  # the next stage of the form takes the rest
    title = goal.title if goal.op == "create" else ""
    mine = RecordGoal(op="open", about=title or goal.about, number=goal.number)
    link = None if again else record_link(mine, observation, set())
    if link is not None:
        return _steps(
            [Click(visible_text(link), "link").step()], "read the record again on its own page", raw
        )
    unseen = ", ".join(repr(v) for v in reading.unseen) or "the change"
    return _unmet(terminals.UNVERIFIED, f"Saved, but the page read again does not show {unseen}.", raw)


def _find(
    goal: RecordGoal, observation: Observation, history: list[HistoryItem], raw: dict[str, Any]
) -> PlanResult:
    """Reach the record: the best matching link, the site's search, or a listing page."""
    tried = clicked_targets(history)
    searched = searched_queries(history)
    if goal.search and goal.search.lower() not in searched:
        return _steps([Search(goal.search).step()], "search with the site's search as the goal asks", raw)
    link = record_link(goal, observation, tried)
    if link is not None:
        return _steps(
            [Click(visible_text(link), "link").step()], "the link that best matches the record", raw
        )
    address = numbered_address(goal.number, observation)
    if address and not any(h.get("plan_step") == Navigate(address).step() for h in history):
        return _steps(
            [Navigate(address).step()], "its siblings' links say where a record of this number is", raw
        )
    query = _ARTICLES.sub("", record_words(goal) or (f"#{goal.number}" if goal.number else "")).strip()
    if query and search_box(observation) is not None and query.lower() not in searched:
        return _steps([Search(query).step()], "look the record up with the site's search", raw)
    if query and search_box(observation) is None:
        page = best_match("search", _links(observation, tried), FIELD_MATCH)
        if page is not None:
            return _steps(
                [Click(visible_text(page), "link").step()], "the site's search page can look it up", raw
            )
    listing = _listing(goal, observation, tried)
    if listing is not None:
        return _steps([Click(visible_text(listing), "link").step()], "a listing of records may name it", raw)
    what = record_words(goal) or f"#{goal.number}"
    return _unmet(
        terminals.ANSWER_NOT_FOUND, f"Could not find the {goal.noun or 'record'} {what!r} on this site.", raw
    )


def _links(observation: Observation, tried: set[str]) -> list[Any]:
    """Short links not followed yet (site navigation, listings)."""
    return [
        e for e in observation.get("elements") or []
        if is_link(e) and visible_text(e) and visible_text(e) not in tried and len(visible_text(e)) <= 30
    ]  # fmt: skip


def _listing(goal: RecordGoal, observation: Observation, tried: set[str]) -> Any:
    """A link to a listing of records: named for their kind ('Tickets') or as a list ('View all', 'Index')."""
    links = [e for e in _links(observation, tried) if not _CREATING.search(visible_text(e))]
    noun = goal.noun.split()[-1] if goal.noun else ""
    words = [f"{noun}s", *LISTING_WORDS.split()] if noun else LISTING_WORDS.split()
    scored = []
    for e in links:
        text = split_identifier(visible_text(e))  # 'TitleIndex' -> 'Title Index'
        scored.append((max(similarity(w, text) for w in words), e))
    scored.sort(key=lambda s: -s[0])
    return scored[0][1] if scored and scored[0][0] >= FIELD_MATCH else None


def _section(goal: RecordGoal, observation: Observation, tried: set[str]) -> Any:
    """A link to the part of the site for this kind of record ('Wiki' for a wiki page)."""
    kind = kind_of(goal.noun)
    links = [
        e for e in observation.get("elements") or []
        if is_link(e) and visible_text(e) not in tried and len(visible_text(e)) <= 30 and kind & kind_of(visible_text(e))
        and (goal.op == "create" or not _CREATING.search(visible_text(e)))
    ]  # fmt: skip
    return best_match(goal.noun, links, 0.3) if links else None


def _open(
    goal: RecordGoal, observation: Observation, history: list[HistoryItem], raw: dict[str, Any]
) -> PlanResult:
    searched_now = goal.search and goal.search.lower() in searched_queries(history)
    if on_record(goal, observation) and (not goal.search or searched_now) and ok_steps(history):
        heading = next((visible_text(e) for e in observation.get("elements") or [] if (e.get("tag") or "") == "h1"),
                       observation.get("title") or "")  # fmt: skip
        raw["record"]["seen"] = [heading]
        answer = f"Opened {heading!r} at {observation.get('url') or ''}"
        return _result(
            task_complete=True, success=True, final_answer=answer, raw=raw, reasoning="the record is open"
        )
    return _find(goal, observation, history, raw)


def record_lookup(question: str, request: PlanRequest) -> PlanResult | None:
    """A question about a described record ('who is assigned to the ticket about ...'): find the record first;
    None once its page is open (the question is then answered from it) or when it cannot be found."""
    goal = record_question(question)
    observation: Observation = request.get("observation") or {}
    if goal is None or on_record(goal, observation):
        return None
    found = _find(goal, observation, list(request.get("history") or []), {"record": {"op": "read"}})
    return None if found.get("task_complete") else found


def record_page_first(question: str, request: PlanRequest, loose: bool = False) -> PlanResult | None:
    """A question naming a record by its number (or describing it, when the answer found is only a loosely
    matching line), answered on a page that is not the record's own (a listing row): the record's page, linked
    from here, is where its fields are read and proven; None otherwise."""
    goal = record_question(question)
    if goal is None or not (goal.number or loose):
        return None
    found = record_lookup(question, request)
    steps = (found or {}).get("proposed_actions") or []
    return found if steps and str(steps[0]).startswith(("Click", "Navigate")) else None
