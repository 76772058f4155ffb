"""Planning a record goal: find the record, reach its form, fill it, save with the control that saves, and end
only when the page read again shows the change.

Every step is a canonical grammar step ('Click the "Modify" button', 'Select "critical" from "Priority"'), so
the translate node grounds it like any other. The plan is a pure function of the goal, the page and the history.
"""

from __future__ import annotations

import re
from dataclasses import replace
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
    SelectOption,
    SetCheck,
    Submit,
    TypeText,
    Wait,
)
from agent.planning.offline.page import is_link, site_words, visible_text, without_site_name
from agent.planning.offline.records.bookings import (
    booking_step,
    form_page_words,
    is_booking,
    other_form,
)
from agent.planning.offline.records.confirming import acknowledgement, confirm_typing, reason_choice
from agent.planning.offline.records.delete import (
    asks_to_confirm,
    confirm_control,
    delete_confirmed,
    delete_started,
    deletion_shown,
)
from agent.planning.offline.records.fills import not_offered, plan_fills
from agent.planning.offline.records.finding import (
    CREATING,
    find_record,
    listing_link,
    open_record,
    section_link,
    subject_link,
)
from agent.planning.offline.records.forms import (
    Fill,
    field_label,
    holds,
    made_now_link,
    on_record,
    op_control,
    record_link,
    record_words,
    save_control,
)
from agent.planning.offline.records.goal import (
    OPERATIONS,
    RecordGoal,
    read_record_goal,
)
from agent.planning.offline.records.outcome import MAX_STEPS, next_steps, plan_result, unmet
from agent.planning.offline.records.progress import (
    OWN_BUTTON,
    clicked_since_save,
    clicked_targets,
    ok_steps,
    pending_save,
    placed_in_form,
    placed_values,
    reread,
    saves_sent,
)
from agent.planning.offline.records.proof import CONFLICT, booked_form_still_shown, identity, read_change
from agent.planning.offline.records.row_actions import (
    acted_at,
    action_shown,
    agree_control,
    by_row,
    item_link,
    own_details,
    own_list_link,
    page_control,
    row_anchor,
    row_control,
    ticked_row_control,
    verb_words,
)
from agent.planning.offline.text import clip, norm, split_identifier
from agent.types import Observation

MAX_SAVES = 3
#: The fields a log-in types into: its typing is never the change's.
_LOGIN_FIELD = re.compile(
    r"user\s*name|\buser\b|e-?mail|pass(?:word|code|phrase)|\bpin\b|login|number|\bno\.?$|\bid\b|\bref", re.I
)
#: A booking's form goes in stages (book, search, choose, details, confirm): each one's button counts as a save.
MAX_BOOKING_SAVES = 6


def _logins(actions: list[Intent]) -> list[Intent]:
    """The log-ins among the grammar's reading (each one's typing and its submit), nothing else."""
    kept: list[Intent] = []
    for n, intent in enumerate(actions):
        if isinstance(intent, Submit) and (intent.purpose == "login" or n and _types_surname(actions[n - 1])):
            k = n
            while k and isinstance(actions[k - 1], TypeText):
                k -= 1
            kept += actions[k : n + 1]
    return kept


def _types_surname(intent: Intent) -> bool:
    """A booking opened by its reference: the surname typed just before its submit."""
    return isinstance(intent, TypeText) and intent.field in ("surname", "last name", "family name")


def leading_intents(parsed: ParsedGoal, record: RecordGoal | None = None) -> list[Intent]:
    """What the grammar reads before the record operation and must be done first: everything it read beside
    an unread clause, or a login ('log in as dave and comment on #10 ...'). Before a booking, only its log-in:
    the grammar's reading of the booking's own sentence ('Click "her yearly vaccination ..."') is no step."""
    actions = [i for i in parsed.intents if not isinstance(i, Ask)]
    if record is not None and is_booking(record):
        return _logins(actions)
    logins = [n for n, i in enumerate(actions) if isinstance(i, Submit) and i.purpose == "login"]
    if not (parsed.unknown and read_record_goal(". ".join(parsed.unknown)) is not None):
        actions = actions[: logins[-1] + 1] if logins else []
    values = [norm(v) for v in record.values] if record is not None else []
    return [i for i in actions if not _guessed_change(i, values)]


def _guessed_change(intent: Intent, values: list[str]) -> bool:
    """The grammar's own guess at the change ('Type "Skerrow to YK27 HBN" into "registration ..."'): a typing of
    one of the change's values (or a longer value inside it), never into a log-in's own field."""
    if not isinstance(intent, TypeText):
        return False
    if _LOGIN_FIELD.search(intent.field) and not re.search(r"phone|mobile|tel\b", intent.field, re.I):
        return False
    typed = norm(intent.text)
    return any(v and (typed == v or (len(v) >= 6 and v in typed)) for v in values)


def leading_goal(parsed: ParsedGoal, record: RecordGoal) -> str:
    """The leading intents as plan steps ('' when there are none)."""
    return "; ".join(i.step() for i in leading_intents(parsed, record))


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
    if goal.about:  # ('the order waiting for approval at Fenwick Pharmacy' on Fenwick Pharmacy's own pages)
        goal = replace(goal, about=without_site_name(goal.about, site_words(observation)))
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
        return open_record(goal, observation, history, raw)
    found = not goal.needs_record or on_record(goal, observation) or _started(goal, history)
    fills, missing = plan_fills(goal, observation)
    mine = own_details(goal)  # 'update my mobile number': the user's own details are the record
    found = found or (mine and bool(fills) and not missing)
    booking = is_booking(goal)
    if (found or mine) and missing and (refused := not_offered(goal, observation, missing)):
        return unmet(terminals.ANSWER_NOT_FOUND, f"Not done: {refused}.", raw)
    staged = bool(fills) and missing and (booking or _first_stage(goal, observation, fills))
    if found and fills and (not missing or staged) and _form_ready(goal, observation, history, fills):
        return _fill(goal, observation, fills, raw)  # (a booking's form asks in stages: each takes its part)
    toward = booking_step(goal, observation, history) if booking else None
    if toward is not None:
        return next_steps([toward[0]], toward[1], raw)
    if not found and mine:
        place = subject_link(goal, observation, clicked_targets(history)) or own_list_link(
            goal, observation, clicked_targets(history), details=True
        )
        if place is not None:
            return next_steps([Click(visible_text(place), "link").step()], "the user's own details", raw)
    if not found:
        return find_record(goal, observation, history, raw)
    control = op_control(goal, observation, clicked_targets(history))
    control = None if control is not None and other_form(goal, visible_text(control)) else control
    if control is not None:
        return next_steps([Click(field_label(control) or visible_text(control), _role(control)).step()],
                      f"open the form that does '{goal.op}'", raw)  # fmt: skip
    section = section_link(goal, observation, clicked_targets(history))
    if section is not None:
        return next_steps(
            [Click(visible_text(section), "link").step()], f"the {goal.noun} section has its controls", raw
        )
    subject = (
        subject_link(goal, observation, clicked_targets(history)) if goal.op in ("create", "update") else None
    )
    if subject is not None:
        return next_steps(
            [Click(visible_text(subject), "link").step()], "the page for what the change is about", raw
        )
    named = _page_by_name(goal, observation, history)
    if named:
        return next_steps(
            [Navigate(named).step()], "pages here live at their name: open the new page's address", raw
        )
    listing = listing_link(goal, observation, clicked_targets(history)) if goal.op == "create" else None
    if listing is not None:
        return next_steps(
            [Click(visible_text(listing), "link").step()], "an index of records may offer to create one", raw
        )
    what = ", ".join(missing) or goal.op
    return unmet("step_failed", f"Could not find where to {goal.op} on this page ({what}).", raw)


def _delete(
    goal: RecordGoal, observation: Observation, history: list[HistoryItem], raw: dict[str, Any]
) -> PlanResult:
    """Open the record, use its delete control, answer the confirmation yes, and end when the page after it
    names the record as deleted and links to it no more."""
    if delete_confirmed(history):
        quote = deletion_shown(goal, observation, identity(goal))
        raw["record"]["seen"] = [quote] if quote else []
        if quote:
            return plan_result(task_complete=True, success=True, final_answer=f"Deleted. The page says: {quote}",
                           raw=raw, reasoning="the page names the record as deleted")  # fmt: skip
        return unmet(terminals.UNVERIFIED, "Deleted, but the page does not show the record as gone.", raw)
    if delete_started(history) and asks_to_confirm(observation):
        agree = confirm_control(observation)
        return next_steps([Click(field_label(agree) or visible_text(agree), "button").step()],
                      "the page asks to confirm the deletion the goal asks for", raw)  # fmt: skip
    if not on_record(goal, observation):
        return find_record(goal, observation, history, raw)
    control = op_control(goal, observation, clicked_targets(history))
    if control is None:
        return unmet("step_failed", "The record has no control that deletes it here.", raw)
    return next_steps([Click(field_label(control) or visible_text(control), _role(control)).step()],
                  "the record's own delete control", raw)  # fmt: skip


def own_save_words(goal: RecordGoal) -> tuple[str, ...]:
    """The goal's own verb when a button named for it saves ('assign ... to X': 'Assign'); a booking's form
    goes on with 'Continue' or 'Check availability' and ends with 'Book', 'Order', 'Apply'."""
    if is_booking(goal):
        return (
            *verb_words(goal.verb),
            "continue",
            "next",
            "check availability",
            "available",  # 'Show available times', 'Find available slots': a booking's search stage
            "availability",
            "quote",
            "place order",
            "request",
        )
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
            box, typed = acknowledgement(observation), confirm_typing(goal, observation)
            ticks = [SetCheck(visible_text(box)).step()] if box is not None else []
            why = reason_choice(goal, observation)  # ('Why are you cancelling?': the goal says why)
            ticks += [SelectOption(why[1], why[0]).step()] if why else []
            ticks += [TypeText(typed[1], typed[0]).step()] if typed else []
            return next_steps(
                [*ticks, Click(visible_text(agree), "button").step()], "the page asks to confirm it", raw
            )
        quote = action_shown(goal, observation, history)
        raw["record"]["seen"] = [quote] if quote else []
        if quote:
            return plan_result(task_complete=True, success=True, final_answer=f"Done. The page says: {quote}",
                           raw=raw, reasoning=f"the page shows the {goal.noun or 'item'} {goal.verb} done")  # fmt: skip
        return unmet(terminals.UNVERIFIED, f"Clicked {goal.verb!r}, but the page does not show it done.", raw)
    ticked = ticked_row_control(goal, observation, tried)
    if ticked is not None:  # ('Select X' on its row, then 'Renew selected')
        box, bulk = ticked
        return next_steps([SetCheck(visible_text(box)).step(), Click(visible_text(bulk), _role(bulk)).step()],
                          f"tick the {goal.noun or 'item'}'s row, then {visible_text(bulk)!r}", raw)  # fmt: skip
    control = row_control(goal, observation, tried)
    if control is not None:
        near = row_anchor(goal, control, observation)
        return next_steps([Click(visible_text(control), _role(control), near=near).step()],
                      f"the {goal.noun or 'item'}'s own {goal.verb!r} control, on its row", raw)  # fmt: skip
    if goal.op not in ("act", "cancel"):
        return None
    own = (page_control(goal, observation, tried) if goal.op == "act" else None) or item_link(
        goal, observation, tried
    )
    if own is None and goal.op == "cancel":
        return None  # (a cancel may still be a status set in the record's form)
    if own is not None:
        return next_steps(
            [Click(visible_text(own), _role(own)).step()], "the item's own page and its control", raw
        )
    place = own_list_link(goal, observation, tried)
    if place is not None:
        return next_steps(
            [Click(visible_text(place), "link").step()], "where the user's items are listed", raw
        )
    return find_record(goal, observation, history, raw)


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
    save = save_control(observation, [f.element for f in fills], own_save_words(goal))
    words = form_page_words(goal) if is_booking(goal) else CREATING
    return (
        bool(words.search(where))
        or any(words.search(t) for t in clicked_targets(history))
        or (save is not None and bool(words.search(field_label(save))))
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
        and bool(CREATING.search(field_label(save)))
    )


def _fill(goal: RecordGoal, observation: Observation, fills: list[Fill], raw: dict[str, Any]) -> PlanResult:
    todo = [f for f in fills if not holds(f)]
    own = OPERATIONS.get(goal.op, ()) if goal.op in OWN_BUTTON else ()
    own += own_save_words(goal)
    save = save_control(observation, [f.element for f in fills], own)
    if save is None:
        return unmet("step_failed", "The form has no control that saves it (only preview or cancel).", raw)
    ticks = acknowledgement(observation)  # 'I have read the booking conditions', 'I understand any exit fees'
    if ticks is not None and all(f.element is not ticks for f in todo):
        todo.append(Fill(ticks, field_label(ticks), "check", "conditions"))
    steps = [fill_step(f) for f in todo][: MAX_STEPS - 1]
    if len(steps) == len(todo):
        steps.append(Click(field_label(save) or visible_text(save), "button").step())
    return next_steps(steps, f"fill {len(todo)} field(s) and save with '{field_label(save)}'", raw)


def _after_save(
    goal: RecordGoal, observation: Observation, history: list[HistoryItem], saves: int, raw: dict[str, Any]
) -> PlanResult:
    again = reread(history, own_save_words(goal))
    blank = not observation.get("elements") and not str(observation.get("page_text") or "").strip() or (
        booked_form_still_shown(goal, observation, placed_values(history)))  # fmt: skip
    waited = sum(1 for h in history if h.get("plan_step") == Wait().step())
    if blank and waited < 2:  # the page after the save was read while still loading: read it again
        return next_steps([Wait().step()], "the page after the save is still empty", raw)
    reading = read_change(goal, observation, placed_values(history), again)
    raw["record"]["seen"] = reading.seen
    if reading.proven:
        answer = f"{goal.op.capitalize()} saved. The page now shows: " + "; ".join(reading.seen)
        return plan_result(task_complete=True, success=True, final_answer=clip(answer, 1000), raw=raw,
                       reasoning="the record read again shows every new value")  # fmt: skip
    if reading.problem == "preview" and saves < MAX_SAVES:
        fills, _ = plan_fills(goal, observation)
        save = save_control(observation, [f.element for f in fills])
        if save is not None:
            return next_steps(
                [Click(field_label(save), "button").step()], "the page is a preview; save it", raw
            )
    if reading.problem and CONFLICT.search(reading.problem) and saves < MAX_SAVES:
        fills, missing = plan_fills(goal, observation)
        if fills and not missing:
            return _fill(
                goal, observation, fills, raw
            )  # the form came back with the other change: save ours again
    if reading.problem and reading.problem != "preview":
        return unmet("page_error", f"The page refused the change: {reading.problem}", raw)
    fills, _ = plan_fills(goal, observation)
    most = MAX_BOOKING_SAVES if is_booking(goal) else MAX_SAVES
    if any(f.value not in placed_in_form(history) and not holds(f) for f in fills) and saves < most:
        return _fill(goal, observation, fills, raw)  # the next stage of the form takes the rest
    chosen = row_control(goal, observation, clicked_targets(history)) if is_booking(goal) else None
    if chosen is not None and saves < most:  # 'Select' on the row of the room asked for, among those free
        near = row_anchor(goal, chosen, observation)
        step = Click(visible_text(chosen), _role(chosen), near=near).step()
        return next_steps([step], "choose the item booked", raw)
    since = clicked_since_save(history, own_save_words(goal))  # (opened again once, not round and round)
    details = (
        own_list_link(goal, observation, since, details=True) if own_details(goal) and not again else None
    )
    if details is not None:  # saved to the user's own details: their form, opened again, shows what was kept
        return next_steps([Click(visible_text(details), "link").step()], "read the user's details again", raw)
    title = goal.title if goal.op == "create" else ""
    mine = RecordGoal(op="open", about=title or goal.about, number=goal.number)
    link = None if again else made_now_link(goal, observation) or record_link(mine, observation, set())
    if link is not None:
        return next_steps(
            [Click(visible_text(link), "link").step()], "read the record again on its own page", raw
        )
    unseen = ", ".join(repr(v) for v in reading.unseen) or "the change"
    return unmet(terminals.UNVERIFIED, f"Saved, but the page read again does not show {unseen}.", raw)
