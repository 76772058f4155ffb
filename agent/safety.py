"""Risk analysis of one proposed action, in code (the model's opinion is never the last word).

``analyze_action`` returns ``{"risk": "low" | "high" | "blocked", "reasons": [...]}``:

- blocked (never runs, recorded as a failed step): navigation the settings forbid (bad scheme, credentials in
  the URL, domain lists); a ``<secret:NAME>`` placeholder anywhere but the text of a ``type`` action (a secret
  never travels in a URL or a search), or typed on a page outside the secret's domains, or unknown;
- high (goes through ``confirm``): irreversible or costly actions - buying and paying, deleting, sending and
  publishing (on buttons, not on links: "Post 57" is a title), account and credential changes, a click that
  submits a page holding a filled payment field, downloading a file, choosing
  a file to upload; calling an MCP tool whose name or description is such a kind; typing a password the user did not give; and what the page, not the user, asked for: a navigation to a site that
  neither the goal, the start page, the current page nor any of its links names, and a link to another site
  whose address carries the goal's own data;
- low: everything else.

The goal's own words make an action expected, never approved: "buy the red mug" still asks before "Place
order" under the ``ask`` policy (the reason says the goal asked for it); ``--confirm yes`` is the approval.
"""

from __future__ import annotations

import re
from typing import Any
from urllib.parse import unquote, urlsplit

from agent.browser.urls import check_navigation, host_of
from agent.util.elements import element_by_id
from agent.util.risk_words import risky_kind
from agent.util.secrets import PLACEHOLDER_RE, Secrets, placeholders_in

_WHY = {
    "money": "spends money",
    "destroy": "deletes or cancels something",
    "publish": "sends or publishes something",
    "account": "changes an account, its credentials or permissions",
}
_PAYMENT_AUTOCOMPLETE = re.compile(r"^cc-(?:number|csc|exp)", re.I)
_PAYMENT_NAME = re.compile(r"card.?number|\bcvc\b|\bcvv\b|security code|iban", re.I)
_GOAL_DATA = re.compile(r"[\w.+-]+@[\w-]+(?:\.[\w-]+)+|\b\d{5,}\b|'[^']{4,}'|\"[^\"]{4,}\"")


def _label(element: dict[str, Any]) -> str:
    parts = [element.get("name") or "", element.get("text") or "", element.get("value") or ""]
    attrs = element.get("attrs") or {}
    parts += [attrs.get("aria-label", ""), attrs.get("title", "")]
    unique: list[str] = []
    for part in parts:
        if part and part.strip() and part.strip() not in unique:
            unique.append(part.strip())
    return " ".join(unique)[:300]


def _goal_allows(goal: str, text: str) -> bool:
    """True when the user's own goal contains this text (permission comes only from the user)."""
    return bool(text) and text.strip().lower() in goal.lower()


def _is_link(element: dict[str, Any]) -> bool:
    return element.get("role") == "link" or (element.get("tag") == "a" and element.get("role") != "button")


#: A card that pays for nothing: 'Library card number', 'Member card no.' name an account, not a payment card.
_ACCOUNT_CARD = re.compile(
    r"\b(?:library|member(?:ship)?|loyalty|student|staff|employee|patron|reader|club|identity|id)\s+card",
    re.I,
)


def _is_payment_field(element: dict[str, Any]) -> bool:
    attrs = element.get("attrs") or {}
    if _PAYMENT_AUTOCOMPLETE.match(attrs.get("autocomplete", "")):
        return True
    names = " ".join([element.get("name") or "", attrs.get("name", "")])
    found = _PAYMENT_NAME.search(names)
    if found and re.match(r"card", found.group(0), re.I):
        digits = re.sub(r"[\s-]", "", str(element.get("value") or ""))
        if _ACCOUNT_CARD.search(names) or (digits.isdigit() and len(digits) < 12):
            return False  # an account's card, or a number too short for any payment card (12-19 digits)
    return element.get("editable", True) and bool(found)


def frame_url(observation: dict[str, Any] | None, element: dict[str, Any] | None) -> str:
    """The address of the document holding ``element`` (its frame's, else the page's)."""
    observation = observation or {}
    path = (element or {}).get("frame") or ""
    if path:
        for frame in observation.get("frames") or []:
            if frame.get("path") == path and frame.get("url"):
                return str(frame["url"])
    return str(observation.get("url") or "")


def secret_problem(
    action: dict[str, Any], observation: dict[str, Any] | None, secrets: Secrets
) -> str | None:
    """Why the ``<secret:...>`` placeholders of ``action`` may not be used here, or None."""
    args = action.get("args") or {}
    used = {
        key: placeholders_in(str(value))
        for key, value in args.items()
        if isinstance(value, str | dict | list)
    }
    named = [name for names in used.values() for name in names]
    if not named:
        return None
    if action.get("action") != "type" or any(used[key] for key in used if key != "text"):
        return (
            f"a secret (<secret:{named[0]}>) may only be typed into a field, never sent in a URL or elsewhere"
        )
    element = element_by_id(observation, action.get("element_id"))
    url = frame_url(observation, element)
    _, _, refused = secrets.substitute(str(args.get("text", "")), url)
    if refused:
        name = refused[0]
        if name not in secrets.by_name:
            return f"<secret:{name}> is not a secret of this run"
        host = host_of(url) or url or "this page"
        return (
            f"secret {name} may not be typed on {host} (allowed: {', '.join(secrets.by_name[name].domains)})"
        )
    return None


def _known_hosts(observation: dict[str, Any], goal: str, start_url: str) -> set[str]:
    hosts = {host_of(start_url), host_of(str(observation.get("url") or ""))}
    for element in observation.get("elements") or []:
        hosts.add(host_of((element.get("attrs") or {}).get("href", "")))
    hosts.update(host_of(word) for word in re.findall(r"[\w.-]+\.[a-z]{2,}[^\s'\"]*", goal, re.I))
    return {h for h in hosts if h}


def _user_named(host: str, goal: str) -> bool:
    """True when the goal names the site by a word of its host ("on wikipedia" for en.wikipedia.org)."""
    labels = [label for label in host.lower().split(".")[:-1] if len(label) >= 4 and label != "www"]
    words = set(re.findall(r"[a-z0-9-]+", goal.lower()))
    return any(label in words for label in labels)


def _goal_data_in(url: str, goal: str) -> str | None:
    """A piece of the goal's own data (an e-mail, a number, a quoted text) carried in ``url``, or None."""
    query = unquote(urlsplit(url).query + urlsplit(url).path).lower()
    for piece in _GOAL_DATA.findall(goal):
        piece = piece.strip("'\"").lower()
        if piece and piece in query:
            return piece
    return None


def _click_reasons(
    element: dict[str, Any], observation: dict[str, Any], goal: str, current_host: str | None
) -> list[str]:
    label = _label(element)
    what = f'{element.get("role") or element.get("tag")} "{label[:60]}"'
    reasons: list[str] = []
    kind = risky_kind(label, submits=not _is_link(element))
    if kind == "money" and element.get("input_type") == "radio":
        kind = None  # choosing how to pay ('I'll pay (£16.95)') spends nothing yet: the form's submit asks
    if kind:
        asked = " (the goal asks for it, but it cannot be undone)" if _goal_mentions(goal, label) else ""
        reasons.append(f"clicking {what} {_WHY[kind]}{asked}")
    asked = _confirms(observation) if not kind and submits_button(element) else None
    if asked:
        reasons.append(f"clicking {what} agrees to what the page asks ({_WHY[asked]})")
    attrs = element.get("attrs") or {}
    if "download" in attrs:
        reasons.append(f"clicking {what} downloads a file")
    submits = not _is_link(element) and element.get("input_type") not in ("checkbox", "radio")
    filled = [e for e in observation.get("elements") or [] if e is not element and e.get("value")]
    pays = any(_is_payment_field(e) for e in filled)
    if submits and element.get("tag") in ("button", "input") and not kind and pays:
        reasons.append(f"clicking {what} may submit a form holding payment details")
    paid = chosen_payment(observation)
    if submits_button(element) and not kind and paid:
        reasons.append(f"clicking {what} sends a form that chose {paid!r} (it spends money)")
    href = attrs.get("href", "")
    if _is_link(element) and href and host_of(href) and host_of(href) != current_host:
        carried = _goal_data_in(href, goal)
        if carried:
            reasons.append(f"the link {what} sends your data ({carried!r}) to {host_of(href)}")
    return reasons


def chosen_payment(observation: dict[str, Any]) -> str:
    """The label of a radio or checkbox the page shows chosen that spends money ('I'll pay (£16.95)'), or '':
    choosing it spends nothing, sending the form that holds it does."""
    for e in observation.get("elements") or []:
        if (
            e.get("checked")
            and e.get("input_type") in ("radio", "checkbox")
            and risky_kind(_label(e)) == "money"
        ):
            return _label(e)[:60]
    return ""


_ASKS = re.compile(r"\bare\s+you\s+sure\b|\bconfirm\b|\bcannot\s+be\s+undone\b|\breally\s+want\b", re.I)


def submits_button(element: dict[str, Any]) -> bool:
    return not _is_link(element) and element.get("input_type") not in ("checkbox", "radio", "text", "search")


def _confirms(observation: dict[str, Any]) -> str | None:
    """The risky kind a page's question names ('Are you sure you want to delete ...?'): the button that agrees
    to it does that, whatever its own label says ('Yes, I'm sure')."""
    text = f"{observation.get('title') or ''}\n{str(observation.get('page_text') or '')[:3000]}"
    for line in text.splitlines():
        if _ASKS.search(line):
            kind = risky_kind(line)
            if kind:
                return kind
    return None


def _goal_mentions(goal: str, label: str) -> bool:
    words = [w for w in re.findall(r"[a-z]{3,}", label.lower())]
    return bool(words) and all(w in goal.lower() for w in words[:2])


def analyze_action(
    action: dict[str, Any],
    observation: dict[str, Any] | None,
    *,
    goal: str = "",
    allowed_domains: list[str] | tuple[str, ...] = (),
    blocked_domains: list[str] | tuple[str, ...] = (),
    secrets: Secrets | None = None,
    start_url: str = "",
    tools: list[dict[str, Any]] | None = None,
) -> dict[str, Any]:
    """Risk of ``action`` on the page described by ``observation`` (``tools``: the run's MCP tool catalog)."""
    name = action.get("action", "")
    args = action.get("args") or {}
    observation = observation or {}
    reasons: list[str] = []

    if name == "navigate":
        check = check_navigation(
            str(args.get("url", "")), allowed_domains=allowed_domains, blocked_domains=blocked_domains
        )
        if not check.ok:
            return {"risk": "blocked", "reasons": [check.reason]}
    problem = secret_problem(action, observation, secrets or Secrets())
    if problem:
        return {"risk": "blocked", "reasons": [problem]}
    current_host = host_of(str(observation.get("url") or ""))
    if name == "navigate" and current_host:  # (before the first page, every destination is the user's)
        target = host_of(str(args.get("url", "")))
        if (
            target
            and not _user_named(target, goal)
            and target not in _known_hosts(observation, goal, start_url)
        ):
            reasons.append(
                f"navigating to {target}: neither the goal, the start page nor this page's links name it "
                "(a page may have asked for it)"
            )
    element = element_by_id(observation, action.get("element_id"))
    if element is not None:
        label = _label(element)
        if name == "click":
            reasons += _click_reasons(element, observation, goal, current_host)
        if name == "type":
            text = str(args.get("text", ""))
            user_gave = _goal_allows(goal, text) or bool(placeholders_in(text))
            if element.get("input_type") == "password" and not user_gave:
                reasons.append("typing a password the goal did not provide")
            if element.get("input_type") == "file":
                reasons.append(f"choosing {text[:60]!r} to upload from this computer")
            unasked = [n for n in placeholders_in(text) if f"<secret:{n}>" not in goal]
            if unasked and element.get("input_type") != "password":
                reasons.append(f"typing secret {unasked[0]} into a field that is not a password field")
            if args.get("submit") and risky_kind(label):
                reasons.append(f'submitting "{label[:60]}" may have side effects')
            if args.get("submit") and chosen_payment(observation):
                reasons.append(
                    f"submitting a form that chose {chosen_payment(observation)!r} (it spends money)"
                )
        if name == "select_option" and risky_kind(str(args.get("option", ""))):
            reasons.append(f'selecting "{args.get("option")}" may have side effects')
    if name == "press_key" and str(args.get("key") or "").lower() == "enter" and chosen_payment(observation):
        reasons.append(
            f"pressing Enter may send a form that chose {chosen_payment(observation)!r} (it spends money)"
        )
    if name == "mcp":
        reasons += _tool_reasons(str(args.get("tool") or ""), tools or [])
    return {"risk": "high" if reasons else "low", "reasons": reasons}


def _tool_reasons(name: str, tools: list[dict[str, Any]]) -> list[str]:
    """An MCP tool whose name or description is an irreversible kind (pay, delete, send ...) is risky like
    such a button: calling it goes through confirm."""
    tool = next((t for t in tools if t.get("name") == name), {})
    label = f"{re.sub(r'[_-]+', ' ', name)} {tool.get('description') or ''}"
    kind = risky_kind(re.sub(r"(?<=[a-z])(?=[A-Z])", " ", label), submits=True)
    return [f"calling the MCP tool {name!r} {_WHY[kind]}"] if kind else []


def recorded_action(action: dict[str, Any], observation: dict[str, Any] | None) -> dict[str, Any]:
    """``action`` as history, trace and report keep it: text typed into a password or payment field is
    hidden (the offline planner types the goal's password as is; a secret is already a placeholder)."""
    if action.get("action") != "type":
        return action
    element = element_by_id(observation, action.get("element_id")) or {}
    text = str((action.get("args") or {}).get("text", ""))
    hidden = element.get("input_type") == "password" or _is_payment_field(element)
    if not hidden or not text or not PLACEHOLDER_RE.sub("", text).strip():
        return action  # nothing to hide, or only placeholders
    return {**action, "args": {**(action.get("args") or {}), "text": "<hidden>"}}
