"""The wording that says something went wrong: the one home of the error patterns every layer reads.

Below browser and dom, so the effect reader (browser), the page facts (dom), the evidence rules and the offline
planner all spot errors with the same words. Two patterns, because a page can *be* an error (a 404 page, a
server error) or *show* one (a form's "invalid password" message):

- :data:`ERROR_PAGE`: a title or main heading of an error page.
- :data:`ERROR_MESSAGE`: a message the page shows about something that went wrong.
- :data:`NOT_DONE`: a line saying the change asked for was not made, however politely the page thanks the user.
"""

from __future__ import annotations

import re

#: A message longer than this is page content that mentions an error word, not an error message.
MAX_ERROR_MESSAGE_CHARS = 300

ERROR_PAGE = re.compile(
    r"(?:\b(?:not found|page not found|server error|internal error|access denied|forbidden|bad gateway|"
    r"service unavailable|this site can.t be reached|err_[a-z_]+|something went wrong|page unavailable)\b|"
    r"^\W*(?:sorry\W+)?(?:this|that|the)\s+(?:page|product|item|listing)\s+(?:you\s+(?:want(?:ed)?|asked\s+for|"
    r"are\s+looking\s+for)\s+)?(?:is|has\s+been|was)\s+(?:gone|removed|deleted)\b|"
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


#: A line saying the change was not made, whatever else thanks the user: 'We couldn't accept your gas reading',
#: 'The hall isn't reserved yet', 'Your booking has not been cancelled', 'Your request was declined'. Said of what
#: was just done (past tense, or 'your ...' / 'the ...' not done): never a policy ('we cannot change bookings within
#: 48 hours'), an empty list ('You haven't placed any orders yet') or a question ('Haven't registered yet?'). A change
#: waiting for a link or code only the user has is not made either.
NOT_DONE = re.compile(
    r"\b(?:could\s*n[o'’]t|could\s+not|(?:were|was)\s+unable\s+to)\s+(?:accept|process|save|book|reserve|complete|"
    r"submit|update|change|cancel|confirm|register|take)\b|"
    r"\b(?:your|the)\s+(?:[\w-]+\s+){0,3}?(?:is|are|was|were|has|have)\s*(?:n[o'’]t|\s+not)\s+(?:yet\s+)?(?:been\s+)?"
    r"(?:reserved|booked|confirmed|cancell?ed|made|processed|completed?|updated|saved|submitted|placed|registered|"
    r"enrolled|scheduled|accepted)\b|"
    r"\b(?:your|the)\s+(?:[\w-]+\s+){0,3}?(?:was|were|has\s+been|have\s+been)\s+(?:rejected|declined|refused)\b|"
    # pending a step only the user has the means for (a link, a code): 'Your email address will change when you
    # click it', 'won't change until you click the link', 'Until you enter it we'll keep using 07700 900456'
    r"\b(?:will|won['’]t|will\s+not)\s+(?:change|update|switch|take\s+effect|be\s+(?:changed|updated|used|confirmed|active|activated))\s+"
    r"(?:when|once|after|until|as\s+soon\s+as)\s+you(?:['’]ve|\s+have)?\s+(?:(?:click|follow|open)\w*\s+(?:on\s+)?"
    r"(?:it|the\s+(?:confirmation\s+|verification\s+)?link)|(?:enter|type|use)\w*\s+(?:it|the\s+code)|"
    r"(?:confirm|verif)\w*\s+(?:it|them|your)\b)|"
    r"\bwe['’]ll\s+(?:update|change|switch)\s+(?:[\w-]+\s+){0,3}?once\s+you(?:['’]ve|\s+have)?\s+(?:confirm|verif|click)\w*|"
    r"\b(?:link|code)\b[^?]{0,160}?\buntil\s+(?:then|you(?:['’]ve|\s+have)?\s+\w+(?:\s+(?:it|them|the\s+(?:code|link)))?)"
    r",?\s+we(?:['’]ll|\s+will)\s+(?:keep|continue|still)\s+(?:using|to\s+use|use|send(?:ing)?|to\s+send)\b|"
    r"\buntil\s+then,?\s+(?:your|the\s+(?:old|current|existing|previous))\s+(?:[\w-]+\s+){0,3}?(?:stays?|remains?|"
    r"will\s+(?:stay|remain))\b|"
    r"\b(?:change|update|switch|transfer)\s+(?:of\s+[\w-]+\s+)?(?:is\s+)?pending\b",
    re.I,
)


def not_done(line: str) -> bool:
    """``line`` says the change just asked for was not made (a question or a long passage never does)."""
    return "?" not in line and len(line) <= MAX_ERROR_MESSAGE_CHARS and bool(NOT_DONE.search(line))


def is_error_message(text: str) -> bool:
    """Is ``text`` a short message about something that went wrong (a toast, a validation line, an alert, a
    'not reserved yet')?"""
    return len(text) <= MAX_ERROR_MESSAGE_CHARS and bool(ERROR_MESSAGE.search(text)) or not_done(text)
