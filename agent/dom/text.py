"""Words: the one home for stop words, goal words, the tokenizer and keywords.

Bottom layer (it imports only agent.util), so the DOM ranking, the evidence rules and the offline planner all
read the same definitions. The stop-word sets are nested on purpose, each a superset of the one before:

- :data:`FUNCTION_WORDS`: articles, pronouns, prepositions; never the name of anything on a page.
- :data:`GOAL_STOPWORDS`: plus the wording of a request ("please find", "I would like", "tell me"), for
  ranking page elements by the goal's words (verbs such as "search" or "type" stay: they name controls).
- :data:`KEYWORD_STOPWORDS`: plus the action verbs ("type", "select", "search", "press"), for judging
  whether observed text mentions what the goal is about.

The error patterns live in :mod:`agent.util.page_errors` (browser reads them too, and sits below dom).
"""

from __future__ import annotations

import re

FUNCTION_WORDS = frozenset(
    "a an the please this that these those my your our its their of to on in for with and or is are be".split()
)

#: Request filler both goal-word sets drop, besides the function words.
_REQUEST_WORDS = frozenset(
    """from by at as was been me i you it we there what which who how then into up out some any all page site
    website web go open click find look tell show get give itself themselves himself herself myself yourself
    ourselves""".split()
)

GOAL_STOPWORDS = (
    FUNCTION_WORDS
    | _REQUEST_WORDS
    | frozenset(
        """about also but can could did do does goto had has have if just let like looking no not one only should
        so than us use using via want whom will would yes""".split()
    )
)

KEYWORD_STOPWORDS = (
    FUNCTION_WORDS
    | _REQUEST_WORDS
    | frozenset(
        """after before choose down enter fill list many much navigate onto press search select them type visit
        were when where why""".split()
    )
)

_TOKEN_RE = re.compile(r"[^\W_]+", re.UNICODE)
#: A word of observed text: may hold a currency sign and inner punctuation ("$19.99", "o'brien", "e-mail").
_KEYWORD_RE = re.compile(r"[a-z0-9$€£][a-z0-9$€£.,'-]*", re.IGNORECASE)


def tokenize(text: str) -> list[str]:
    """Lower-case word tokens (letters/digits of any script)."""
    return _TOKEN_RE.findall((text or "").lower())


def goal_tokens(goal: str) -> list[str]:
    """Content words of the goal, in order, without duplicates or stop words (for ranking elements)."""
    out: list[str] = []
    for tok in tokenize(goal):
        if tok in GOAL_STOPWORDS or (len(tok) < 2 and not tok.isdigit()) or tok in out:
            continue
        out.append(tok)
    return out


def keywords(text: str) -> list[str]:
    """Significant lower-case words of a text (stop words and 1-letter words dropped), in order, unique."""
    seen: dict[str, None] = {}
    for raw in _KEYWORD_RE.findall(text.lower()):
        word = raw.strip(".,'-")
        if len(word) > 1 and word not in KEYWORD_STOPWORDS:
            seen.setdefault(word, None)
    return list(seen)


def mentioned_in_passing(text: str, phrase: str) -> bool:
    """``phrase`` is under half of ``text``: a tip reading 'choose File>Export>PDF' or an instruction 'Select
    12/02/2016 as the date' mentions the item but is not it."""
    said, named = " ".join(text.lower().split()), " ".join(phrase.lower().split())
    return bool(said and named) and 2 * len(named) < len(said)


_PIECE_RE = re.compile(r"[A-Za-z]+|\d{1,3}|\S")


def estimate_tokens(text: str) -> int:
    """About how many tokens a BPE tokenizer (o200k, cl100k) makes of ``text``, without its tables.

    A Latin word is one token (long ones one more per 9 letters), a number one per 3 digits, any other
    character one: within about 10% of o200k on observation lines, and above it for other scripts.
    """
    return sum(1 + (len(p) - 1) // 9 if p[0].isalpha() else 1 for p in _PIECE_RE.findall(text or ""))
