"""Who a goal invites into a team or workspace: 'invite Priya Shah (priya@x.io) to the Northwind workspace with the
Billing role' gives the new member's name, email and role, the values the invitation form asks for."""

from __future__ import annotations

import re

from agent.planning.offline.text import unmask

#: Who is invited, with their email and role: 'Priya Shah (priya@x.io) to the X workspace as an Admin'.
_INVITED = re.compile(
    r"^(?P<name>\x00\d+\x00|[A-Z][\w'.-]*(?:\s+[A-Z][\w'.-]*){0,3})\s*(?:\(\s*(?P<email>[\w.+-]+@[\w.-]+\w)\s*\))?"
    r"(?:\s+(?:to|into)\s+(?:the\s+|our\s+|my\s+)?[^,]+?)??(?:,?\s+(?:with\s+(?:the\s+|an?\s+)?(?P<role>[\w -]+?)\s+role"
    r"|as\s+(?:an?\s+)?(?P<role2>[\w -]+?)))?$"
)


def invitation(body: str, spans: tuple[str, ...]) -> tuple[tuple[str, str], ...] | None:
    """(field, value) pairs of the person invited (masked ``body`` after the verb), None when it names nobody."""
    m = _INVITED.match(body)
    if not m:
        return None
    given = (
        ("name", m.group("name")),
        ("email", m.group("email") or ""),
        ("role", m.group("role") or m.group("role2") or ""),
    )
    return tuple((f, unmask(v.strip(" .,;:\"'"), spans).strip()) for f, v in given if v)
