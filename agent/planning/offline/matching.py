"""Grounding phrases in observed elements: fuzzy label match, role hints, state, and ambiguity.

The matcher never guesses: a best candidate below the threshold is "not found", and two candidates that score
within a small margin but lead to different places are "ambiguous" (the planner then gets a clear failure).
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Collection, Iterable
from dataclasses import dataclass, field
from urllib.parse import urlsplit

from agent.dom.text import mentioned_in_passing
from agent.planning.offline.listings import listing_items, peers_of
from agent.planning.offline.page import (
    ELEMENT_KINDS,
    Owners,
    attr,
    directional_distance,
    is_button,
    is_clickable,
    is_heading,
    is_link,
    is_text_field,
    labels,
    reading_order,
    rect,
    role_of,
    visible_text,
)
from agent.planning.offline.semantic import closeness, semantic_score
from agent.planning.offline.text import clip, norm, similarity, tokens
from agent.types import Element, Observation

THRESHOLD = 0.55
#: An option named in other words is taken only when the embedding scores it this well (and far ahead).
SEMANTIC_OPTION = 0.5
MARGIN = 0.04
GENERIC_NOUNS = frozenset(
    {
        "result",
        "item",
        "product",
        "entry",
        "article",
        "post",
        "story",
        "video",
        "listing",
        "card",
        "row",
        "one",
        "option",
        "hit",
        "match",
        "record",
        "thing",
        "link",
    }
)


@dataclass(frozen=True)
class Scored:
    element: Element
    score: float
    label: str


@dataclass(frozen=True)
class Pick:
    """The matcher's verdict: ``ok`` with an element, or ``not_found`` / ``ambiguous`` with a message."""

    status: str
    element: Element | None = None
    score: float = 0.0
    message: str = ""
    ranked: tuple[Scored, ...] = field(default=(), compare=False)

    @property
    def ok(self) -> bool:
        return self.status == "ok" and self.element is not None


def describe(el: Element | None) -> str:
    """'button "Sign in" (id 12)' - how elements are named in messages."""
    if not el:
        return "nothing"
    kind = role_of(el) or (el.get("tag") or "element")
    text = clip(visible_text(el) or el.get("placeholder") or attr(el, "name") or attr(el, "id"), 60)
    return f'{kind} "{text}" (id {el.get("id")})' if text else f"{kind} (id {el.get('id')})"


def role_matches(el: Element, hint: str) -> bool:
    check = ELEMENT_KINDS.get(hint)
    return check(el) if check else True


_ZONE_BONUS = {"main": 0.05, "dialog": 0.05, "header": 0.0, "nav": 0.0, "aside": -0.01, "footer": -0.03}
_FIELD_TYPES = {
    "password": "password",
    "passcode": "password",
    "pin": "password",
    "email": "email",
    "phone": "tel",
    "telephone": "tel",
    "tel": "tel",
    "mobile": "tel",
    "search": "search",
    "url": "url",
    "website": "url",
    "date": "date",
    "quantity": "number",
    "age": "number",
    "number": "number",
}


def label_score(el: Element, phrase: str) -> tuple[float, str]:
    """Best weighted similarity of the phrase to any of the element's labels."""
    best, best_label = 0.0, ""
    for text, weight in labels(el):
        s = similarity(phrase, text) * weight
        if s > best:
            best, best_label = s, text
    return best, best_label


def score_element(el: Element, phrase: str, role: str = "") -> Scored:
    """Label match adjusted for role hint, field type, state and placement."""
    if phrase:
        base, label = label_score(el, phrase)
        if base <= 0.2:
            return Scored(el, 0.0, label)
    else:
        base, label = 0.6, visible_text(el)
    score = base
    if role:
        if role_matches(el, role):
            score += 0.08
        elif {role} <= {"link", "button"} and (is_link(el) or is_button(el)):
            score -= 0.05
        else:
            score -= 0.12
    if is_text_field(el) and phrase:
        itype = (el.get("input_type") or "").lower()
        wanted = {_FIELD_TYPES[t] for t in tokens(phrase) if t in _FIELD_TYPES}
        if wanted and itype in wanted:
            score = max(score, 0.62) + 0.2
        if (itype == "password") != ("password" in wanted):
            score -= 0.35
    if el.get("disabled"):
        score -= 0.3
    if el.get("occluded") and el.get("zone") != "dialog":
        score -= 0.08
    if el.get("in_viewport"):
        score += 0.02
    score += _ZONE_BONUS.get(el.get("zone") or "main", 0.0)
    return Scored(el, round(score, 4), label)


def rank(
    elements: Iterable[Element],
    phrase: str,
    *,
    role: str = "",
    accept: Callable[[Element], bool] | None = None,
    avoid: Collection[int] = (),
    penalty: Callable[[Element], float] | None = None,
) -> list[Scored]:
    """Candidates (passing ``accept``, not avoided) best first; ties keep reading order. A paragraph that only
    mentions the phrase among more words of its own (the instruction, a tip) is not a candidate."""
    out: list[Scored] = []
    for el in reading_order(elements):
        if el.get("id") in avoid or (accept and not accept(el)):
            continue
        if (
            phrase
            and el.get("prose")
            and not is_clickable(el)
            and mentioned_in_passing(visible_text(el), phrase)
        ):
            continue
        scored = score_element(el, phrase, role)
        if penalty and scored.score > 0:
            scored = Scored(el, round(scored.score - penalty(el), 4), scored.label)
        if scored.score > 0:
            out.append(scored)
    out.sort(key=lambda s: -s.score)
    return out


def _contains(outer: list[float], inner: list[float], slack: float = 2.0) -> bool:
    ox, oy, ow, oh = outer
    ix, iy, iw, ih = inner
    return ix >= ox - slack and iy >= oy - slack and ix + iw <= ox + ow + slack and iy + ih <= oy + oh + slack


def same_target(a: Element, b: Element) -> bool:
    """Two elements that go to the same place: the same link (a logo and a nav link to '/'), or a wrapper and
    the control inside it (a tab's <li> and its <a>), which a click on either reaches."""
    ha, hb = attr(a, "href"), attr(b, "href")
    if ha and ha == hb:
        return True
    box_a, box_b = a.get("bbox"), b.get("bbox")
    if not (box_a and box_b and len(box_a) == 4 and len(box_b) == 4) or a.get("frame") != b.get("frame"):
        return False
    return _contains(box_a, box_b) or _contains(box_b, box_a)


def _innermost(ranked: list[Scored]) -> Scored:
    """The best candidate, or an interactive control nested in it that matches about as well: a click must
    land on the control, not on the middle of its wrapper."""
    best = ranked[0]
    for other in ranked[1:]:
        if other.score < best.score - MARGIN:
            break
        inner, outer = other.element.get("bbox"), best.element.get("bbox")
        if (
            inner
            and outer
            and len(inner) == 4
            and len(outer) == 4
            and other.element.get("interactive")
            and other.element.get("frame") == best.element.get("frame")
            and _contains(outer, inner)
            and not _contains(inner, outer)
        ):
            return other
    return best


def exact_case_winner(candidates: list[Scored], phrase: str) -> Scored | None:
    """The one candidate whose label is the phrase letter for letter ("Eget" vs "eget"), if exactly one is."""
    exact = [s for s in candidates if s.label.strip() == phrase.strip()]
    return exact[0] if len(exact) == 1 else None


def _path(element: dict) -> str:
    href = str((element.get("attrs") or {}).get("href") or "")
    return urlsplit(href).path.rstrip("/") if href else ""


def deepest_link(candidates: list[Scored]) -> Scored | None:
    """Links of one label whose addresses nest ('Orders' -> /admin/orders/ and /admin/orders/order/): the one
    that goes furthest, a section's own listing rather than the section's index. None unless all nest."""
    if any(s.label.strip().lower() != candidates[0].label.strip().lower() for s in candidates):
        return None
    paths = [_path(s.element) for s in candidates]
    if not all(paths) or len(set(paths)) != len(paths):
        return None
    ordered = sorted(zip(paths, candidates, strict=True), key=lambda pc: len(pc[0]))
    nested = all(b.startswith(a + "/") for (a, _), (b, _) in zip(ordered, ordered[1:], strict=False))
    return ordered[-1][1] if nested else None


def choose(ranked: list[Scored], phrase: str, *, what: str = "element", threshold: float = THRESHOLD) -> Pick:
    """The best candidate, or a clear not-found / ambiguous verdict."""
    ranked_t = tuple(ranked[:8])
    wanted = f'{what} "{phrase}"' if phrase else what
    if not ranked or ranked[0].score < threshold:
        closest = f"; closest: {describe(ranked[0].element)}" if ranked else ""
        return Pick("not_found", message=f"no {wanted} on the page{closest}", ranked=ranked_t)
    best = _innermost(ranked)
    rivals = [
        s for s in ranked[1:] if s.score >= best.score - MARGIN and not same_target(best.element, s.element)
    ]
    if rivals:
        winner = exact_case_winner([best, *rivals], phrase) or deepest_link([best, *rivals])
        if winner is not None:
            best, rivals = winner, []
    if rivals:
        names = ", ".join(describe(s.element) for s in [best, *rivals[:3]])
        return Pick(
            "ambiguous",
            message=f"{len(rivals) + 1} elements match {wanted} about equally: {names}; "
            "name it more precisely (e.g. add the product or section it belongs to)",
            ranked=ranked_t,
        )
    return Pick(
        "ok",
        element=best.element,
        score=best.score,
        ranked=ranked_t,
        message=f"{describe(best.element)} matches {wanted} (score {best.score:.2f})",
    )


def find_anchor(observation: Observation, phrase: str) -> Element | None:
    """The element that best names ``phrase`` anywhere on the page (headings and links preferred)."""
    best, best_score = None, 0.0
    for el in reading_order(observation.get("elements") or []):
        s, _ = label_score(el, phrase)
        if is_heading(el) or is_link(el):
            s += 0.03
        if (el.get("zone") or "main") in ("nav", "footer", "header"):
            s -= 0.05
        if s > best_score:
            best, best_score = el, s
    return best if best_score >= 0.62 else None


def _on_line_of(anchor: Element, other: Element) -> bool:
    """``other``'s middle is within the anchor's height: the same line of a row, however far apart."""
    a, b = rect(anchor), rect(other)
    if not a or not b:
        return False
    middle = b[1] + b[3] / 2
    return a[1] <= middle <= a[1] + a[3]


def choose_near(
    observation: Observation, ranked: list[Scored], phrase: str, anchor_phrase: str, *, what: str = "element"
) -> Pick:
    """Among candidates for ``phrase``, the one belonging to the card/row of ``anchor_phrase``."""
    anchor = find_anchor(observation, anchor_phrase)
    if anchor is None:
        return Pick("not_found", message=f'nothing named "{anchor_phrase}" on the page')
    cands = [s for s in ranked if s.score >= THRESHOLD]
    if not cands:
        return choose(ranked, phrase, what=what)
    owners = Owners(peers_of(anchor, observation))
    owned = [s for s in cands if owners.owns(anchor, s.element)]
    pool = owned or cands
    dist = sorted(
        ((directional_distance(anchor, s.element) - 40 * s.score, n, s) for n, s in enumerate(pool)),
        key=lambda t: (t[0], t[1]),
    )
    best = dist[0][2]
    if not math.isfinite(dist[0][0]):
        return choose(pool, phrase, what=what)
    level = [s for s in pool if _on_line_of(anchor, s.element)]
    if not owned and len(level) == 1:
        best, dist = level[0], [(0.0, 0, level[0])]  # the one on the anchor's own line (a wide table's row)
    if (
        len(dist) > 1
        and not owned
        and abs(dist[1][0] - dist[0][0]) < 8
        and not same_target(best.element, dist[1][2].element)
    ):
        return Pick("ambiguous", message=f'two {what}s "{phrase}" are equally close to "{anchor_phrase}"')
    return Pick(
        "ok",
        element=best.element,
        score=best.score,
        ranked=tuple(s for _, _, s in dist[:8]),
        message=f'{describe(best.element)} is the "{phrase}" of {describe(anchor)}',
    )


def choose_ordinal(observation: Observation, n: int, noun: str, *, avoid: Collection[int] = ()) -> Pick:
    """The n-th (or last, n = -1) item of the main listing, or of the elements the noun names."""
    elements = [e for e in observation.get("elements") or [] if e.get("id") not in avoid]
    noun_key = noun.split()[-1] if noun else "result"
    what = f"{noun or 'result'} #{n}" if n > 0 else f"last {noun or 'result'}"
    if noun_key in ELEMENT_KINDS and noun_key != "link":
        pool = reading_order(
            e
            for e in elements
            if ELEMENT_KINDS[noun_key](e) and (e.get("zone") or "main") in ("main", "dialog")
        )
    else:
        pool = [e for e in listing_items(observation) if e.get("id") not in avoid]
        if noun_key == "link" and not pool:
            pool = reading_order(e for e in elements if is_link(e) and (e.get("zone") or "main") == "main")
        if noun and noun_key not in GENERIC_NOUNS:
            pool = [e for e in pool if label_score(e, noun)[0] >= 0.6]
    if not pool:
        return Pick("not_found", message=f"no {noun or 'result'} list on the page")
    index = n - 1 if n > 0 else len(pool) - 1
    if index >= len(pool):
        return Pick("not_found", message=f"the page lists only {len(pool)} {noun or 'result'}s, not {n}")
    target = pool[index]
    if not is_clickable(target):
        links = [e for e in elements if is_clickable(e) and directional_distance(target, e) < 120]
        if links:
            target = min(links, key=lambda e: directional_distance(target, e))
    return Pick("ok", element=target, score=1.0, message=f"{describe(target)} is the {what}")


def text_of_choice(el: Element, option: str) -> str | None:
    """The exact option label of a <select> that matches ``option`` (None when it has no such option)."""
    options = [o for o in el.get("options") or [] if o]
    if not options:
        return None
    exact = [o for o in options if norm(o) == norm(option)]
    if exact:
        return exact[0]
    same_time = same_time_option(options, option)
    if same_time is not None:
        return same_time
    scored = sorted(
        ((similarity(option, o), n, o) for n, o in enumerate(options)), key=lambda t: (-t[0], t[1])
    )
    if scored and scored[0][0] >= 0.75 and (len(scored) == 1 or scored[1][0] < scored[0][0] - 0.02):
        return scored[0][2]
    return _meant_option(options, option)


def same_time_option(options: list[str], option: str) -> str | None:
    """The one option that is the same time of day written otherwise ('10:20' for '10.20am', '19:00' for
    '7pm'); None when ``option`` is no time alone or no single option is that time."""
    asked = clock_time(option)
    if asked is None:
        return None
    same = [o for o in options if clock_time(o) == asked]
    return same[0] if len(same) == 1 else None


def clock_time(text: str) -> tuple[int, int] | None:
    """(hour, minute) of a time of day written alone ('4:15pm', '16:15', '7 pm'), or None."""
    m = _CLOCK.fullmatch(text.strip().rstrip(".").lower())
    if m is None:
        return None
    hour, minute = int(m.group("h")), int(m.group("m") or 0)
    half = (m.group("ap") or "").replace(".", "")
    if half == "pm" and hour < 12:
        hour += 12
    elif half == "am" and hour == 12:
        hour = 0
    return (hour, minute) if hour < 24 and minute < 60 else None


#: A time of day alone: '10:20', '10.20am', '7 pm', '19:00'.
_CLOCK = re.compile(r"(?P<h>\d{1,2})(?:[:.](?P<m>\d{2}))?\s*(?P<ap>[ap]\.?m\.?)?")


def _meant_option(options: list[str], option: str) -> str | None:
    """The one option that means what was asked in other words, when the embedding sets it well apart."""
    cosines = closeness(option, options)
    if not cosines:
        return None
    ranked = sorted(zip((semantic_score(c) for c in cosines), options, strict=True), key=lambda t: -t[0])
    if ranked[0][0] >= SEMANTIC_OPTION and (len(ranked) == 1 or ranked[1][0] < ranked[0][0] - 0.2):
        return ranked[0][1]
    return None
