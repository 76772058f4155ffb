"""Text normalization and fuzzy phrase similarity shared by the goal grammar, the matcher and the answerer.

Pages and goals spell the same thing many ways ("Sign in", "log-in", "LOGIN"); matching on a canonical form
with token overlap plus a sequence ratio tolerates that without a model, and stays deterministic.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable
from functools import lru_cache
from os.path import commonprefix

from rapidfuzz import fuzz
from word2number import w2n

from agent.dom.text import FUNCTION_WORDS

# ----------------------------------------------------------------------------------------------------------
# Quoting: quoted values are taken verbatim, so the grammar masks them before splitting a goal into clauses.
# ----------------------------------------------------------------------------------------------------------

MASK = "\x00"
_QUOTED_RX = re.compile(r'"([^"]*)"|“([^”]*)”|‘([^’]*)’|«([^»]*)»|(?<![\w])\'([^\']*)\'(?![\w])')
_MASK_RX = re.compile(MASK + r"(\d+)" + MASK)


#: Where one sentence of a goal ends and the next starts: after '.', '!' or '?', never after the 'no.' or 'ref.'
#: of an identifier ('Patient no. BR-118204'). A pattern to join into others (it has no groups).
SENTENCE_BREAK = (
    r"(?:(?<=[.!?])(?<!\b[Nn]o\.)(?<!\b[Rr]ef\.)\s+"
    r"|(?<=\b[Nn]o\.)\s+(?![\w-]*\d)|(?<=\b[Rr]ef\.)\s+(?![\w-]*\d))"
)


def mask_quotes(text: str) -> tuple[str, tuple[str, ...]]:
    """Replace every quoted span by a placeholder token; returns the masked text and the spans in order."""
    spans: list[str] = []

    def keep(m: re.Match[str]) -> str:
        spans.append(next(g for g in m.groups() if g is not None))
        return f"{MASK}{len(spans) - 1}{MASK}"

    return _QUOTED_RX.sub(keep, text), tuple(spans)


def unmask(text: str, spans: tuple[str, ...]) -> str:
    """Put the quoted spans back (without their quotes)."""
    return _MASK_RX.sub(lambda m: spans[int(m.group(1))] if int(m.group(1)) < len(spans) else "", text)


def unmask_where(text: str, spans: tuple[str, ...], plain: Callable[[str], bool]) -> str:
    """Put back (without quotes) only the spans ``plain`` says were quoted as values, not as titles to keep whole
    (an email address, a name its email spells); the others stay masked, at their indexes."""
    return _MASK_RX.sub(
        lambda m: spans[i] if (i := int(m.group(1))) < len(spans) and plain(spans[i]) else m.group(0), text
    )


#: A figure glued to its unit ('23kg', '128GB'): written apart, it matches a page's 'Up to 23 kg'.
_GLUED_UNIT = re.compile(r"\b(\d+(?:\.\d+)?)(kg|g|mg|cm|mm|km|ml|cl|gb|tb|mb|kw|kwh|mah|lbs?|oz|ft)\b", re.I)


def split_units(text: str) -> str:
    """``text`` with each figure written apart from its unit ('a 23kg bag' -> 'a 23 kg bag')."""
    return _GLUED_UNIT.sub(r"\1 \2", text)


def only_mask(text: str) -> int | None:
    """The span index when ``text`` is exactly one placeholder (a fully quoted value), else None."""
    m = _MASK_RX.fullmatch(text.strip())
    return int(m.group(1)) if m else None


def has_mask(text: str) -> bool:
    return bool(_MASK_RX.search(text))


def quote(value: str) -> str:
    """Quote a value for a plan step with a quote character it does not contain."""
    for left, right in (('"', '"'), ("'", "'"), ("“", "”"), ("«", "»")):
        if left not in value and right not in value:
            return f"{left}{value}{right}"
    return '"' + value.replace('"', "'") + '"'


# ----------------------------------------------------------------------------------------------------------
# Normalization
# ----------------------------------------------------------------------------------------------------------

_CLOSE_SYMBOLS = re.compile(r"[×✕✖✗╳⨯]")
_CANONICAL = [
    (re.compile(r"\b(?:log|sign)[\s-]*(?:in|on)\b|\bsignin\b|\blogon\b"), "login"),
    (re.compile(r"\b(?:log|sign)[\s-]*out\b|\bsignout\b"), "logout"),
    (re.compile(r"\bsign[\s-]*up\b"), "signup"),
    (re.compile(r"\be[\s-]?mail\b"), "email"),
    (re.compile(r"\buser[\s-]?name\b|\buser[\s-]?id\b|\blogin[\s-]?(?:name|id)\b"), "username"),
    (re.compile(r"\bpass[\s-]?word\b"), "password"),
    (re.compile(r"\bcheck[\s-]?out\b"), "checkout"),
    (re.compile(r"\b(?:zip|postal|post)[\s-]?code\b"), "zipcode"),
    (re.compile(r"\b(?:first|given)[\s-]?name\b"), "firstname"),
    (re.compile(r"\b(?:last|family|sur)[\s-]?name\b"), "lastname"),
    (re.compile(r"\bdrop[\s-]?down\b"), "dropdown"),
    (re.compile(r"\bcheck[\s-]?box(es)?\b"), "checkbox"),
    (re.compile(r"\bwish[\s-]?list\b"), "wishlist"),
    (re.compile(r"\bhome[\s-]?page\b"), "home"),
    (re.compile(r"\bnews[\s-]?letter\b"), "newsletter"),
    (re.compile(r"\bcart\b|\bbasket\b|\bshopping bag\b"), "cart"),
    (re.compile(r"\bok(?:ay)?\b"), "ok"),
]


@lru_cache(maxsize=8192)
def norm(text: str) -> str:
    """Lower-case, accent-free, punctuation-free, canonical spelling of common UI words."""
    s = unicodedata.normalize("NFKD", text or "")
    s = "".join(ch for ch in s if not unicodedata.combining(ch)).lower()
    s = _CLOSE_SYMBOLS.sub(" close ", s).replace("&", " and ")
    s = re.sub(r"[^\w]+|_", " ", s)
    s = re.sub(r"\s+", " ", s).strip()
    for rx, repl in _CANONICAL:
        s = rx.sub(repl, s)
    return s


def split_identifier(ident: str) -> str:
    """'loginEmail' / 'user_name' / 'first-name' -> words, so ids and name attributes can be matched."""
    s = re.sub(r"(?<=[a-z0-9])(?=[A-Z])", " ", ident or "")
    return re.sub(r"[_\-.\[\]]+", " ", s)


def stem(token: str) -> str:
    """A very light plural stemmer: 'products' -> 'product', 'entries' -> 'entry', 'boxes' -> 'box'."""
    if len(token) > 4 and token.endswith("ies"):
        return token[:-3] + "y"
    if len(token) > 4 and token.endswith("es") and token[-3] in "sxz" or token.endswith(("ches", "shes")):
        return token[:-2]
    if len(token) > 3 and token.endswith("s") and not token.endswith(("ss", "us", "is")):
        return token[:-1]
    return token


@lru_cache(maxsize=8192)
def tokens(text: str) -> tuple[str, ...]:
    """Content tokens of a phrase: normalized, stemmed, stop words dropped (kept when nothing else is left)."""
    words = norm(text).split()
    kept = [stem(w) for w in words if w not in FUNCTION_WORDS]
    return tuple(kept or [stem(w) for w in words])


# Words that mean the same thing on a page. Weight is the credit a synonym gets against an exact token.
_SYNONYM_GROUPS: list[tuple[float, frozenset[str]]] = [
    (0.85, frozenset({"signup", "register", "registration", "join", "enroll", "enrol"})),
    (
        0.85,
        frozenset({"username", "user", "account"}),
    ),  # not "login": "press login" names a button, not a field
    (0.85, frozenset({"login", "signin", "logon"})),
    (0.75, frozenset({"username", "email"})),
    (0.85, frozenset({"password", "passcode", "pwd", "passwd", "pin"})),
    (0.85, frozenset({"search", "find", "query", "q", "lookup", "keyword"})),
    (0.7, frozenset({"submit", "send", "go", "continue", "confirm", "apply", "save", "done"})),
    (0.85, frozenset({"buy", "purchase", "order", "checkout"})),
    (0.85, frozenset({"zipcode", "zip", "postcode"})),
    (0.85, frozenset({"phone", "telephone", "mobile", "tel", "cell"})),
    (0.85, frozenset({"close", "dismiss", "x", "hide"})),
    (0.85, frozenset({"accept", "agree", "allow", "consent", "ok"})),
    (0.85, frozenset({"remove", "delete", "trash", "discard"})),
    (0.8, frozenset({"next", "continue", "forward"})),
    (0.8, frozenset({"previous", "prev", "back"})),
    (0.85, frozenset({"home", "start", "main"})),
    (0.85, frozenset({"settings", "preference", "option", "configuration"})),
    (0.8, frozenset({"profile", "account"})),
    (0.85, frozenset({"quantity", "qty", "amount"})),
    (0.8, frozenset({"message", "comment", "note", "feedback"})),
    (0.85, frozenset({"subscribe", "signup", "join"})),
    (0.85, frozenset({"firstname", "fname", "forename"})),
    (0.85, frozenset({"lastname", "lname", "surname"})),
    (0.85, frozenset({"email", "mail"})),
    (0.85, frozenset({"price", "cost"})),
    (0.8, frozenset({"help", "support", "faq"})),
    (0.8, frozenset({"contact", "support"})),
]


@lru_cache(maxsize=4096)
def synonym_weight(a: str, b: str) -> float:
    best = 0.0
    for weight, group in _SYNONYM_GROUPS:
        if a in group and b in group:
            best = max(best, weight)
    return best


@lru_cache(maxsize=65536)
def token_match(a: str, b: str) -> float:
    """Credit for phrase token ``a`` found as page token ``b``: exact 1, synonym, prefix, typo."""
    if a == b:
        return 1.0
    syn = synonym_weight(a, b)
    if syn:
        return syn
    if a.isdigit() or b.isdigit():
        return 0.0
    if len(a) >= 3 and len(b) >= 3 and (a.startswith(b) or b.startswith(a)):
        return 0.7 if min(len(a), len(b)) >= 4 else 0.5
    if len(a) >= 4 and len(b) >= 4 and (a in b or b in a):
        return 0.55
    if len(a) >= 5 and len(b) >= 5 and fuzz.ratio(a, b) >= 84:
        return 0.8
    common = len(commonprefix([a, b]))
    if common >= 5 and common >= 0.6 * min(len(a), len(b)):
        return 0.75  # one word, two forms: 'deployment' / 'deploying', 'configuration' / 'configuring'
    return 0.0


@lru_cache(maxsize=32768)
def similarity(phrase: str, label: str) -> float:
    """How well a page label matches a phrase, 0..1. Exact (after normalization) is 1.0.

    Recall of the phrase's tokens dominates (the label must contain what was asked for), precision keeps
    "Blue Widget" above "Blue Widget Pro", and character-bigram overlap breaks remaining ties.
    """
    p_norm, l_norm = norm(phrase), norm(label)
    if not p_norm or not l_norm:
        return 0.0
    if p_norm == l_norm:
        return 1.0
    p_toks, l_toks = tokens(phrase), tokens(label)
    if not p_toks or not l_toks:
        return 0.0
    if p_toks == l_toks:
        return 0.97
    rows = [[token_match(p, t) for t in l_toks] for p in p_toks]
    matched = sum(max(row) for row in rows)
    if not matched:
        return 0.0
    recall = matched / len(p_toks)
    used = sum(1 for j in range(len(l_toks)) if any(row[j] >= 0.7 for row in rows))
    precision = used / len(l_toks)
    score = 0.6 * recall + 0.25 * precision + 0.15 * bigram_dice(p_norm, l_norm)
    if f" {p_norm} " in f" {l_norm} ":
        score = max(score, 0.72 + 0.25 * precision)
    return round(min(score, 0.96), 4)


def bigram_dice(a: str, b: str) -> float:
    """Character-bigram overlap, 0..1: a cheap stand-in for a sequence ratio that breaks ties between labels."""
    if a == b:
        return 1.0
    pa = [a[i : i + 2] for i in range(len(a) - 1)]
    pb = [b[i : i + 2] for i in range(len(b) - 1)]
    if not pa or not pb:
        return 0.0
    counts: dict[str, int] = {}
    for bg in pb:
        counts[bg] = counts.get(bg, 0) + 1
    common = 0
    for bg in pa:
        if counts.get(bg, 0) > 0:
            counts[bg] -= 1
            common += 1
    return 2 * common / (len(pa) + len(pb))


def clip(text: str, limit: int = 300) -> str:
    """One line, at most ``limit`` characters: answers and messages must stay readable."""
    s = re.sub(r"\s+", " ", text or "").strip()
    return s if len(s) <= limit else s[: limit - 1].rstrip() + "…"


ORDINALS = {
    "first": 1,
    "second": 2,
    "third": 3,
    "fourth": 4,
    "fifth": 5,
    "sixth": 6,
    "seventh": 7,
    "eighth": 8,
    "ninth": 9,
    "tenth": 10,
    "last": -1,
}
ORDINAL_WORDS = {v: k for k, v in ORDINALS.items()}


def number_value(text: str) -> int | None:
    """'3' -> 3, 'a' / 'one' -> 1, 'twenty-five' -> 25 (number words through word2number), else None."""
    t = (text or "").strip().lower()
    if re.fullmatch(r"\d{1,4}", t):
        return int(t)
    if t in ("a", "an", "a single", "single"):
        return 1
    words = re.split(r"[\s-]+", t)
    if not all(w in w2n.american_number_system and w != "point" for w in words):
        return None  # word2number skips words it does not know: 'two dot grid' must not read as 2
    try:
        return int(w2n.word_to_num(t.replace("-", " ")))
    except (ValueError, IndexError, TypeError):
        return None


def ordinal_value(word: str) -> int | None:
    """'third' -> 3, '7th' -> 7, 'last' -> -1, else None."""
    w = word.lower().strip()
    if w in ORDINALS:
        return ORDINALS[w]
    m = re.fullmatch(r"(\d+)(?:st|nd|rd|th)?", w.lstrip("#"))
    return int(m.group(1)) if m and int(m.group(1)) > 0 else None


def ordinal_word(n: int) -> str:
    if n in ORDINAL_WORDS:
        return ORDINAL_WORDS[n]
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


def proper_names(text: str) -> list[str]:
    """The words of ``text`` written as a name (a capital or a digit first): 'Eastside' in 'Eastside branch',
    both words of 'Quayside Baths'. The others name the kind of thing it is, which a page may call otherwise."""
    return [w for w in re.findall(r"[\w'’-]+", text) if w[:1].isupper() or w[:1].isdigit()]


#: 'the last time he was weighed' says when: it names no 'Time' column, and no block need say 'last' or 'time'.
TIME_IDIOM = re.compile(
    r"\b(?:the\s+)?(?:last|first|next|this|that|each|every|any|some)\s+time\b|\b(?:at\s+the|on|in)\s+time\b",
    re.I,
)
#: Capitalised words that are no name a block must say: days, months, 'I', titles ('Dr', 'Prof'), figures.
NOT_A_NAME = re.compile(
    r"^(?:mon|tues|wednes|thurs|fri|satur|sun)days?$|^(?:january|february|march|april|may|june|july|august|"
    r"september|october|november|december|i|dr|mr|mrs|ms|mx|prof|professor|sir|dame|cllr|rev)\.?$|^\d",
    re.IGNORECASE,
)


def named_phrases(question: str) -> list[str]:
    """The names a question says, as runs of capitalised words after its first word ('Alder Crescent', 'Dr Lucas
    Brennan' -> 'Lucas Brennan'); days, months, titles and 'I' are no names."""
    runs = re.findall(
        r"[A-Z][\w'’.-]*(?:\s+[A-Z][\w'’.-]*)*", question.split(" ", 1)[-1] if " " in question else ""
    )
    out = []
    for run in runs:
        words = [re.sub(r"['’]s$", "", w) for w in run.split()]
        words = [w for w in words if not NOT_A_NAME.match(w)]
        if words:
            out.append(" ".join(words))
    return out
