"""Semantic closeness of short texts ('shipping costs' ~ 'Delivery charges'), from a static embedding model whose
weights ship inside its wheel (wordllama): nothing is downloaded, ever.

The words of a goal and of a page often differ where the meaning does not; the lexical score (shared tokens,
near spellings through rapidfuzz) cannot see that, the embedding can, and each catches what the other misses.
The model is loaded once per process, on first use; when it cannot be loaded the planner goes on with the
lexical score alone and says so once (``load_note``).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from pathlib import Path
from typing import Any

#: Cosine closeness below this says nothing (unrelated texts score up to about 0.3 with this model).
FLOOR = 0.35
#: Cosine closeness that counts as a full match on the lexical scale.
CEILING = 0.85

_state: dict[str, Any] = {"tried": False, "model": None, "note": ""}


def _load() -> Any:
    """The wordllama model, or None (with the reason kept in ``load_note``) when it cannot be loaded."""
    if _state["tried"]:
        return _state["model"]
    _state["tried"] = True
    try:
        import wordllama
        from wordllama import WordLlama

        # The 0.4.0 wheel ships its tokenizer in <package>/tokenizers/ but looks for it in <package>/tokenizer/;
        # the package folder as cache_dir makes it look in the right place, and nothing is downloaded.
        package = Path(wordllama.__file__).parent
        _state["model"] = WordLlama.load(cache_dir=package, disable_download=True)
    except Exception as exc:  # any failure leaves the lexical score alone in charge
        _state["note"] = f"semantic matching is off ({type(exc).__name__}: {exc}); matching by words only"
    return _state["model"]


def load_note() -> str:
    """Why semantic matching is off in this process ('' while it works or was never needed)."""
    return str(_state["note"])


def take_note() -> str:
    """``load_note`` the first time it is asked for after the failure, then '' (one note per process)."""
    if not _state["note"] or _state.get("noted"):
        return ""
    _state["noted"] = True
    return str(_state["note"])


_VECTORS: dict[str, tuple[float, ...]] = {}
_MAX_VECTORS = 8192


def _vectors(texts: Sequence[str]) -> dict[str, tuple[float, ...]] | None:
    """Unit vectors of the texts (embedded in one batch, kept for the next call)."""
    model = _load()
    if model is None:
        return None
    missing = list(dict.fromkeys(t for t in texts if t.strip() and t not in _VECTORS))
    if missing:
        if len(_VECTORS) + len(missing) > _MAX_VECTORS:
            _VECTORS.clear()
        for text, vec in zip(missing, model.embed(missing, norm=True), strict=True):
            _VECTORS[text] = tuple(float(v) for v in vec)
    return _VECTORS


def closeness(phrase: str, texts: Sequence[str]) -> list[float] | None:
    """Cosine closeness of ``phrase`` to each text (-1..1), or None when the model is not available."""
    if not phrase.strip():
        return None
    vectors = _vectors([phrase, *texts])
    if vectors is None:
        return None
    base = vectors[phrase]
    return [sum(a * b for a, b in zip(base, vectors[t], strict=True)) if t.strip() else 0.0 for t in texts]


def semantic_score(cosine: float) -> float:
    """A cosine closeness on the lexical 0..1 scale: nothing below FLOOR, 1 at CEILING."""
    if not math.isfinite(cosine) or cosine <= FLOOR:
        return 0.0
    return round(min(1.0, (cosine - FLOOR) / (CEILING - FLOOR)), 4)


def blended(phrase: str, texts: Sequence[str], lexical: Sequence[float], weight: float = 1.0) -> list[float]:
    """Each text's score: its lexical score, or its semantic score (times ``weight``) when that is higher."""
    cosines = closeness(phrase, texts) if texts else None
    if cosines is None:
        return list(lexical)
    return [max(lex, weight * semantic_score(cos)) for lex, cos in zip(lexical, cosines, strict=True)]
