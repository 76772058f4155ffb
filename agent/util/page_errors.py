"""The wording that says something went wrong: the one home of the error patterns every layer reads.

Below browser and dom, so the effect reader (browser), the page facts (dom), the evidence rules and the offline
planner all spot errors with the same words. Two patterns, because a page can *be* an error (a 404 page, a
server error) or *show* one (a form's "invalid password" message):

- :data:`ERROR_PAGE`: a title or main heading of an error page.
- :data:`ERROR_MESSAGE`: a message the page shows about something that went wrong.
"""

from __future__ import annotations

import re

#: A message longer than this is page content that mentions an error word, not an error message.
MAX_ERROR_MESSAGE_CHARS = 300

ERROR_PAGE = re.compile(
    r"(?:\b(?:not found|page not found|server error|internal error|access denied|forbidden|bad gateway|"
    r"service unavailable|this site can.t be reached|err_[a-z_]+|something went wrong|page unavailable)\b|"
    r"^\W*(?:error\W*)?(?:4\d\d|5\d\d)\b|\b(?:4\d\d|5\d\d)\s*(?:error|[-:|–—]))",
    re.I,
)

ERROR_MESSAGE = re.compile(
    r"\b(invalid|incorrect|wrong|error|failed|failure|denied|not\s+(?:found|valid|allowed|recognized|recognised)|"
    r"try\s+again|unable|could not|couldn't|is required|are required|must be|expired|rejected|please\s+(?:enter|"
    r"fill|provide|select|choose|correct)|"
    r"do(?:es)?\s*n[o']?t\s+look\s+(?:right|valid|correct)|(?:nothing|not)\s+(?:was\s+|been\s+|were\s+)?"
    r"(?:saved|sent|submitted|accepted))\b",
    re.IGNORECASE,
)


def is_error_message(text: str) -> bool:
    """Is ``text`` a short message about something that went wrong (a toast, a validation line, an alert)?"""
    return len(text) <= MAX_ERROR_MESSAGE_CHARS and bool(ERROR_MESSAGE.search(text))
