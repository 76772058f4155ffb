"""Account details said as labelled values: 'card no. 2207 1936 54, pin 7730', 'The account number is 40917362
and the postcode is AS2 7JD', 'patient number LF-20834, date of birth 12/05/1988', 'Login x@y.com / pw'.

A site's log-in form asks for what it calls the account (a card, an account, a patient number, an email) and for
something only its owner knows (a password, a PIN, a postcode, a date of birth, a surname). People name each by
the words the form's labels use, so each value goes into the field its own words name. A clause is read as
account details only when every word in it is a label, a value or a filler ('my', 'and', a business's name):
anything else left over means it says more than which account to use.
"""

from __future__ import annotations

import re
from functools import lru_cache

from agent.planning.offline.dates import MONTH_WORD
from agent.planning.offline.targets import value
from agent.planning.offline.text import MASK

I = re.IGNORECASE  # noqa: E741 - short alias keeps the patterns readable

_QUOTED = MASK + r"\d+" + MASK
#: What only the account's owner knows, by the words that name it.
_SECRET_LABEL = (
    r"(?P<sl>password|passcode|passphrase|pass|pwd|pw|pin(?:\s+(?:code|number))?|access\s+code|security\s+code|"
    r"post\s*code|zip(?:\s+code)?|date\s+of\s+birth|d\.?o\.?b\.?|birth\s*date|born(?:\s+on)?|surname|"
    r"last\s+name|family\s+name)"
)
_DATE = (
    r"\d{1,2}[/.-]\d{1,2}[/.-]\d{2,4}|\d{4}-\d{2}-\d{2}|\d{1,2}(?:st|nd|rd|th)?\s+"
    + MONTH_WORD
    + r",?\s+\d{4}|"
    + MONTH_WORD
    + r"\s+\d{1,2}(?:st|nd|rd|th)?,?\s+\d{4}"
)
_POSTCODE = r"[A-Z]{1,2}\d[A-Z\d]?\s*\d[A-Z]{2}\b"
_SECRET = re.compile(
    rf"\b{_SECRET_LABEL}(?![\w-])\s*(?:is\s+|:\s*|=\s*|of\s+)?(?P<v>{_QUOTED}|{_DATE}|(?-i:{_POSTCODE})|"
    r"[^\s,;()]+)",
    I,
)
#: What the site calls the account: 'card no.', 'library card', 'council tax account', 'patient number', 'login'.
_ID_LABEL = (
    r"(?P<il>(?:[a-z][\w'&-]*\s+){0,3}?(?:(?:card|account|member(?:ship)?|customer|client|login|log-in|"
    r"user(?:\s*name)?|e-?mail(?:\s+address)?)(?:\s+(?:number|no\.?|id))?|[a-z]+\s+(?:number|no\.|no\b|id|ref\.?|"
    r"reference)|number|no\.|ref\.?|reference))"
)
_ID = re.compile(
    _ID_LABEL
    + r"\s*(?:is\s+|:\s*|=\s*|#\s*)?(?P<v>"
    + _QUOTED
    + r"|[\w.+-]+@[\w-]+(?:\.[\w-]+)+|\d+(?:[ -]\d+)*(?![\w@])|[\w./-]*\d[\w./-]*)",
    I,
)
#: 'x@y.com / Wingspan-42', 'RW-2291 / pw': the account and its password, side by side.
_PAIR = re.compile(
    r"(?P<u>[\w.+-]+@[\w-]+(?:\.[\w-]+)+|[\w.-]*\d[\w.-]*)\s*/\s*(?P<p>" + _QUOTED + r"|[^\s,;()]+)"
)
#: Words that say nothing about which account beyond the labels: linking words and whose it is.
_FILLER = re.compile(
    r"^(?:and|the|my|our|a|an|is|are|it's|its|i'm|i|am|with|using|use|for|me|to|into|on|at|of|in|details|login|"
    r"log|sign|signin|please|here|they|their|patient|member|customer|client|tenant|pupil|student|reader|"
    r"borrower|owner|holder|portal|area|online|website|site|account|registered|(?-i:[A-Z][\w&'.-]*))$",
    I,
)
#: What a business's name stands before in account details: 'the Larchfield Dental patient portal'.
_NAMED = frozenset(
    "patient member customer client tenant pupil student reader borrower owner holder portal area online "
    "website site account login details".split()
)


def _only_fillers(words: list[str]) -> bool:
    """Every word is a filler; a capitalised one only as the name before what the account is ('a Larchfield
    patient'), never a person's name said on its own ('He's Tomasz Brennan, date of birth ...')."""
    for k, word in enumerate(words):
        if not _FILLER.match(word):
            return False
        if word[:1].isupper() and word.lower() not in (
            "i'm",
            "i",
            "my",
            "our",
            "the",
            "log",
            "sign",
            "login",
        ):
            following = next((w for w in words[k + 1 :] if not w[:1].isupper()), "")
            if following.lower() not in _NAMED:
                return False
    return True


#: A role said beside a bare 'number': 'I'm a Larchfield patient, number LF-20834' means the patient number.
_ROLE = re.compile(r"\b(?P<r>patient|member|customer|client|tenant|pupil|student|reader|borrower)\b", I)
#: Numbers of things rather than of an account: an order is looked up, a phone number is a detail.
_NOT_ACCOUNT = re.compile(
    r"\b(?:booking|order|reservation|ticket|tracking|phone|telephone|mobile|invoice|case|parcel|claim|policy|"
    r"flight|confirmation|debit|credit)\b",
    I,
)
#: Words that act on the account rather than name it: 'block my card no. ...', 'freeze', 'cancel'.
_ACTS = re.compile(
    r"^(?:block|unblock|freeze|unfreeze|cancel|close|delete|remove|replace|report|lose|lost|stop|suspend|"
    r"activate|renew|pay|top|transfer|change|update|reset|order|request|open|use|check)$",
    I,
)
#: Secrets that identify a person rather than prove an account: beside an email alone they are contact details.
_PROOFS = frozenset({"postcode", "date of birth", "surname", "last name", "family name", "zip", "zip code"})
_PAYMENT = frozenset({"security code", "cvv", "cvc"})
_LEAD = re.compile(r"^(?:the|my|our|your)\s+", I)


def _secret_field(label: str) -> str:
    words = re.sub(r"\s+", " ", label.lower()).strip()
    if words in ("pass", "pwd", "pw", "passcode", "passphrase"):
        return "password"
    if words.startswith(("born", "dob", "d.o.b", "d.ob", "do.b", "birth")):
        return "date of birth"
    if words.replace(" ", "") == "postcode":
        return "postcode"
    return words


@lru_cache(maxsize=512)
def account_details(clause: str, spans: tuple[str, ...] = ()) -> tuple[tuple[str, str], ...] | None:
    """((field words, value), ...) when ``clause`` only says which account to use and how to prove it is the
    user's: an account and a secret (or 'account / password'). None when any other word is left over."""
    text = clause.strip().rstrip(".!")
    found: list[tuple[int, str, str]] = []  # (where, field, value)
    secrets = 0
    for m in _SECRET.finditer(text):
        found.append((m.start(), _secret_field(m.group("sl")), value(m.group("v"), spans)))
        secrets += 1
    text = _SECRET.sub(" , ", text)
    for m in _PAIR.finditer(text):
        user = value(m.group("u"), spans)
        found.append((m.start(), "email" if "@" in user else "username", user))
        found.append((m.start() + 1, "password", value(m.group("p"), spans)))
        secrets += 1
    text = _PAIR.sub(" , ", text)
    ids = 0
    role = _ROLE.search(text)
    for m in _ID.finditer(text):
        label = _LEAD.sub("", re.sub(r"\s+", " ", m.group("il").lower().strip()))
        if _NOT_ACCOUNT.search(label) or any(_ACTS.match(w) for w in label.split()[:-1]):
            return (
                None  # ('order number 1234, surname Reid' finds an order; 'block my card no. ...' acts on it)
            )
        if re.fullmatch(r"(?:my\s+)?(?:number|no\.)", label) and re.fullmatch(
            r"0\d[\d ]{8,}", m.group("v").strip()
        ):
            return None  # ('my number is 07700 900 264': a phone number)
        said = value(m.group("v"), spans)
        if "@" in said:
            field = "email"
        elif re.fullmatch(r"number|no\.", label) and role:
            field = f"{role.group('r').lower()} number"
        elif re.fullmatch(r"login|log-in|user\s*name|user", label):
            field = "username"
        else:
            field = label
        found.append((m.start(), field, said))
        ids += 1
    text = _ID.sub(" , ", text)
    if not secrets or not (ids or any(f in ("email", "username") for _, f, _ in found)):
        return None
    said_secrets = {f for _, f, _ in found if f in _PROOFS or f in _PAYMENT}
    if said_secrets & _PAYMENT or any(len(re.sub(r"\D", "", v)) >= 13 for _, _, v in found):
        return None  # a card's number and security code pay for something, they log in to nothing
    if (
        said_secrets
        and said_secrets <= _PROOFS
        and all(f in ("email", "username") for _, f, _ in found if f not in _PROOFS)
    ):
        return None  # ('Email jo@x.com, postcode AB1 2CD' in a booking: contact details, no account's)
    leftover = re.sub(r"[(),:;/]|\b(?:log|sign)[\s-]*(?:in|on)(?:to)?\b", " ", text, flags=I).split()
    if not _only_fillers(leftover):
        return None  # ('renew my loan, card 2207, pin 7730' asks for more than the account)
    return tuple((f, v) for _, f, v in sorted(found))
