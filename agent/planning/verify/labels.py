"""What a value found on the page is said of: another label's, another class's, another row's, or nothing the
question names. Each check gives why the value is not the one asked for ('' when nothing says so)."""

from __future__ import annotations

from typing import Any

from agent.planning.offline.segments import class_mismatch, rival_segment, row_class_mismatch
from agent.planning.offline.text import token_match, tokens
from agent.planning.offline.vocabulary import label_forms
from agent.planning.verify.parts import GoalPart

#: Words that name an amount as such, not which amount it is: a price of the page's own item needs no label.
_ANY_AMOUNT = frozenset({"price", "cost", "fee", "amount", "total", "charge", "much"})


def said_of_another(question: str, place: dict[str, Any], quote: str) -> str:
    """Why ``quote`` where ``place`` has it is the value of another label, class or row ('' when it is not)."""
    text, block = str(place.get("text") or ""), str(place.get("block_text") or "")
    return (
        rival_segment(question, text, quote)
        or class_mismatch(question, text, quote)
        or class_mismatch(question, block, quote)
        or row_class_mismatch(question, str(place.get("row_key") or ""), str(place.get("column") or ""))
    )


def unlabelled(part: GoalPart, place: dict[str, Any]) -> str:
    """Why an amount asked for by its own name alone ('how much do I owe': the balance) is not it: neither its
    line, nor its label, column or row names that attribute ('Next rent due: £875.00' is no balance owing)."""
    attr = str(part.get("attr") or "")
    words = [w for w in tokens(attr) if w not in _ANY_AMOUNT]
    if (
        part.get("answer_kind") != "attribute"
        or part.get("entity")
        or part.get("value_type") != "money"
        or not words
    ):
        return ""
    said = tokens(" ".join(str(place.get(k) or "") for k in ("text", "label", "column", "row_key")))
    for form in label_forms(attr):
        if all(any(token_match(w, t) >= 0.8 for t in said) for w in tokens(form)):
            return ""
    return f"nothing beside it says it is the {attr}"
