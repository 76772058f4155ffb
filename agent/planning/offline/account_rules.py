"""Clause rules for accounts: log in (with credentials, a provider or none) and sign up / subscribe / register.
Each rule takes a masked clause (fillers stripped) and returns intents, or None when it does not apply.
"""

from __future__ import annotations

import re

from agent.planning.offline.credentials import account_details
from agent.planning.offline.form_rules import field_values
from agent.planning.offline.intents import Click, Intent, Navigate, Submit, TypeText
from agent.planning.offline.page_rules import matched
from agent.planning.offline.targets import value
from agent.planning.offline.text import MASK
from agent.planning.offline.urls import canonical_url, looks_like_url

I = re.IGNORECASE  # noqa: E741 - short alias keeps the rule patterns readable

_CRED = r"(?:" + MASK + r"\d+" + MASK + r"|[^\s,;()]+)"


#: An account identifier a site may ask for instead of a user name: 'library card', 'member number', 'patient
#: ID', 'card number' (the words the goal uses name the field).
_IDENTIFIER = re.compile(
    r"(?:\b(?:with|using)\s+|\(\s*|,\s*)(?:the\s+|my\s+|an?\s+)?(?P<f>(?:[a-z]+\s+){0,2}?(?:card|number|id|no\.?|"
    r"code|ref\b\.?|reference)(?:\s+(?:number|no\.?))?|account|member)\s*[:=#]?\s*(?P<u>"
    + MASK
    + r"\d+"
    + MASK
    + r"|[\w.@-]*\d[\w.@-]*)",
    I,
)
#: A secret that is not called a password: 'PIN 4321', 'passphrase "..."'.
_OTHER_SECRET = re.compile(
    r"(?:,\s*|\s+and\s+|\s+with\s+|\s+using\s+|\s+)?(?:the\s+|a\s+|my\s+)?(?P<f>pin(?:\s+code)?|passphrase|"
    r"access\s+code|security\s+code)\s*(?:is\s+|of\s+|=\s*|:\s*)?(?P<p>" + _CRED + ")",
    I,
)


def credential_fields(rest: str, spans: tuple[str, ...]) -> tuple[str, str, str, str, str]:
    """(identifier, its field words, secret, its field words, leftover): 'with library card 20417 and PIN 4321'
    -> ('20417', 'library card', '4321', 'pin', ''); the usual 'as dave with password s3cret' -> ('dave',
    'username', 's3cret', 'password', '')."""
    secret_field = "password"
    user, password, rest = _credentials(rest, spans, allow_user=False)
    if not password:
        other = _OTHER_SECRET.search(rest)
        if other:
            password, secret_field = value(other.group("p"), spans), other.group("f").lower()
            rest = rest[: other.start()] + " " + rest[other.end() :]
    ident = _IDENTIFIER.search(rest)
    if ident and not re.fullmatch(r"(?:user\s*)?id", ident.group("f").strip(), I):
        field = re.sub(r"\s+", " ", ident.group("f").strip().lower())
        rest = rest[: ident.start()] + " " + rest[ident.end() :]
        return value(ident.group("u"), spans), field, password, secret_field, rest.strip()
    user, more, rest = _credentials(rest, spans)
    first = re.search(r"\(\s*(?P<u>[^\s,/()]+)\s*,?\s*\)", rest) if password and not user else None
    if first:  # '(dana@x.io, password Harbor!42)': the account, first in the brackets the password was in
        user, rest = value(first.group("u"), spans), rest[: first.start()] + " " + rest[first.end() :]
    field = "email" if "@" in user else "username"
    return user, field, password or more, secret_field, rest


def _credentials(rest: str, spans: tuple[str, ...], allow_user: bool = True) -> tuple[str, str, str]:
    """(user, password, leftover) from the tail of a login/sign-up clause."""
    password = ""
    pm = re.search(
        r"(?:,\s*|\s+and\s+|\s+with\s+|\s+using\s+|\s+)?(?:the\s+|a\s+|my\s+)?(?:password|passcode|pass|"
        r"pwd|pw)(?![a-z0-9])\s*(?:is\s+|of\s+|=\s*|:\s*)?(?P<p>" + _CRED + ")",
        rest,
        I,
    )
    if pm:
        password = value(pm.group("p"), spans)
        rest = rest[: pm.start()] + " " + rest[pm.end() :]
    user = ""
    if not allow_user:
        return user, password, rest
    um = re.search(
        r"(?:\b(?:as|with|using)\s+(?:(?:the|my|an?)\s+)?(?:(?:username|user\s*name|user|e-?mail(?:\s+address)?"
        r"|login|account|id)\s*[:=]?\s*)?|\b(?:username|user\s*name|user|e-?mail(?:\s+address)?|login)\s*"
        r"[:=]?\s*)(?P<u>" + _CRED + ")",
        rest,
        I,
    )
    if um and um.group("u").lower() not in ("and", "with", "password", "the", "a", "an"):
        user = value(um.group("u"), spans)
        slash = re.match(r"\s*/\s*(?P<p>" + _CRED + ")", rest[um.end() :])  # 'as dave / s3cret'
        if slash and not password:
            password = value(slash.group("p"), spans)
        rest = rest[: um.start()] + " " + rest[um.end() + (slash.end() if slash else 0) :]
    tail = (
        re.fullmatch(r"\s*(?:and|,)\s*(?P<p>" + _CRED + r")\s*", rest, I) if user and not password else None
    )
    if tail and not re.fullmatch(r"[A-Za-z]+", value(tail.group("p"), spans)):  # (not '... and continue')
        # 'sign in with x@y.com and Kettle-on-55': the one word after the account is its password
        password, rest = value(tail.group("p"), spans), ""
    if not password and user and "/" in user and user.count("/") == 1 and "://" not in user:
        user, password = (s.strip() for s in user.split("/"))
    if not user and not password:  # '(dana@x.io / Harbor!42)': the pair alone, in brackets
        pair = re.search(r"\(\s*(?P<u>[^\s/()]+)\s*/\s*(?P<p>[^\s()]+)\s*\)", rest)
        if pair:
            user, password = value(pair.group("u"), spans), value(pair.group("p"), spans)
            rest = rest[: pair.start()] + " " + rest[pair.end() :]
    return user, password, rest.strip()


#: Fields a 'sign up with X' names as the account itself ('with the username ada'): read as credentials.
_ACCOUNT_FIELDS = frozenset({"user", "username", "user name", "login", "user id", "userid"})


def _site_prefix(rest: str, spans: tuple[str, ...]) -> tuple[list[Intent], str]:
    named = _SITE_NAME.match(rest)
    if named:  # 'to Pulsegrid as ...': where, not who
        rest = rest[named.end() :]
    m = re.match(r"^\s*(?:to|into|on|at)\s+(?:the\s+)?(?P<s>\S+)(?:\s+(?:site|website|page))?", rest, I)
    if m and looks_like_url(value(m.group("s"), spans)):
        return [Navigate(canonical_url(value(m.group("s"), spans)))], rest[m.end() :]
    m = re.match(r"^\s*(?:to|into)\s+(?:your|my|the)\s+account\b", rest, I)
    if m:
        return [], rest[m.end() :]
    return [], rest


#: The site's own name after 'log in to': capitalised words before the credentials ('to Pulsegrid (email ...').
_SITE_NAME = re.compile(
    r"^\s*(?i:to|into|on|at)\s+(?:the\s+)?[A-Z][\w&'.-]*(?:\s+[A-Z][\w&'.-]*){0,3}(?=\s+(?i:as|with|using)\b|\s*[(,:]|\s*$)"
)
_WHERE = re.compile(
    r"\b(?:to|into|on|at)\s+(?:the\s+|your\s+|my\s+|our\s+|their\s+)?[\w'&. -]{0,40}(?:portal|site|website|"
    r"account|area|app|dashboard|page|system|intranet|console|admin)\b",
    I,
)


_LOG_IN = re.compile(
    r"^(?:(?:log|sign)[\s-]*(?:in|on)(?=to\b|\b)|login(?=to\b|\b)|signin|authenticate)(?P<rest>.*)$", I
)
#: The account the rest is done as, said without 'log in': 'As mkovacs with password fjord-lamp, ...', "I'm
#: student 2231907 (password maple-leaf)", 'Using dana@x.io / Harbor!42, ...'.
_AS_ACCOUNT = re.compile(
    r"^(?P<rest>(?:as|i'?m|i\s+am)\s+(?:(?:an?|the)\s+)?(?:[a-z]+\s+(?=[\w.-]*\d))?\S+\s*(?:\(|,?\s*(?:with|using|and)\b)"
    r".*(?:password|passcode|pass|pin)\b.*)$|^(?:using|with)\s+(?P<slash>\S+\s*/\s*\S+)\s*$",
    I,
)
#: A role before an identifier with a digit: 'student 2231907', 'patient P-20577' (the form asks for its number).
_ROLE_ID = re.compile(
    r"^\s*(?:as|i'?m|i\s+am)\s+(?:(?:an?|the)\s+)?(?!(?:login|log-in|user(?:name)?)\b)(?P<f>[a-z]+)\s+"
    r"(?P<u>[\w.-]*\d[\w.-]*)\b",
    I,
)


#: The words of an account's number or ID: 'member ID', 'membership number', 'account no.', 'customer number'.
_ACCOUNT_NUMBER = (  # (any role's: 'pupil number', 'patient no.', 'tenancy ref'; a booking's goes with a surname)
    r"(?i:member(?:ship)?\s+(?:number|no\.?|id)|(?!(?:booking|order|reservation|ticket|tracking|phone|mobile)\b)"
    r"[a-z]+\s+(?:number|no\.|no\b|id|ref\.?|reference))"
)
#: The account stated rather than asked for: 'My login is dana@x.io / pw', 'Account: x@y.com, password pw',
#: 'On Riverline Jobs (x@y.com / pw)' (the site's name, then the credentials in brackets).
_STATED_ACCOUNT = re.compile(
    r"^(?:(?:my|the|our)\s+)?(?:(?!(?i:booking|order|reservation|ticket|tracking)\b)(?:[A-Z][\w&'.-]*|"
    r"(?i:portal|area|online|website|site))\s+){0,3}(?:(?P<kind>"
    + _ACCOUNT_NUMBER
    + r")|(?i:login|log-in|account|"
    r"credentials|login\s+details|account\s+details|sign[\s-]*in(?:\s+details)?|user(?:\s*name)?))\s*(?i:is|are|:)\s*"
    r"(?P<creds>.+)$"
    r"|^(?:(?i:i['’]?m|i\s+am|we['’]re|we\s+are)\s+(?i:an?\s+)?(?i:member|customer|client|patient|subscriber)s?\s+)?"
    r"(?i:on|at|for|with|of)\s+(?:the\s+)?[A-Z][\w&'.-]*(?:\s+[A-Z][\w&'.-]*){0,3}\s*\((?P<bracket>[^()]+)\)\s*$"
    r"|^(?:(?!(?i:booking|order|reservation|ticket|tracking)\b)[A-Z][\w&'.-]*\s+){0,2}(?P<pair>(?:(?i:user\s*name|username|user|e-?mail(?:\s+address)?|login|"
    r"member(?:ship)?)|" + _ACCOUNT_NUMBER + r")"
    r"\s*:?\s+\S+\s*,?\s*(?i:and\s+)?(?i:my\s+)?(?i:password|passcode|passphrase|pin)\b.+)$"
)


def _stated(clause: str) -> str | None:
    """The credentials of a clause that only states the account (with a password or 'user / password'); an
    account number keeps its words ('member ID RW-2291'), which name the field it goes into."""
    m = _STATED_ACCOUNT.match(clause.strip())
    said = (m.group("creds") or m.group("bracket") or m.group("pair")) if m else ""
    if said and m is not None and m.group("kind"):
        said = f"{m.group('kind')} {said}"
    if said and re.search(r"\b(?:password|passcode|passphrase|pass|pwd|pw|pin)\b|\S\s*/\s*\S", said, I):
        return said
    return None


#: A booking opened by its reference and the lead name instead of an account: 'My Skerry Air booking
#: reference is QK7R2M (surname Sinclair)', 'booking ref AB12CD, last name Reid', 'Booking KQ7M4T, surname Okafor'.
_BOOKING_REFERENCE = re.compile(
    r"^(?:(?:my|our|the)\s+)?(?:[A-Z][\w&'.-]*\s+){0,3}(?:(?i:booking|reservation|order|ticket)\s+(?i:reference|ref\.?|"
    r"number|no\.?|code)|(?i:booking|reservation))\s*(?i:is|:)?\s*(?P<ref>(?=[A-Z0-9-]*\d)[A-Z0-9][A-Z0-9-]{3,})\s*[,(]?\s*(?i:and\s+)?(?i:the\s+)?"
    r"(?i:my\s+)?(?P<field>(?i:surname|last\s+name|family\s+name))\s*(?i:is)?\s*:?\s*(?P<name>[A-Z][\w'-]+)\s*\)?$"
)
#: The field words a booking reference is typed into (the page's own label decides among its fields).
REFERENCE_FIELD = "booking reference"


def parse_booking_reference(c: str, spans: tuple[str, ...]) -> list[Intent] | None:
    """'My booking reference is QK7R2M (surname Sinclair)': the two fields a 'Manage booking' form asks for."""
    m = _BOOKING_REFERENCE.match(c.strip())
    if not m:
        return None
    field = re.sub(r"\s+", " ", m.group("field").lower())
    return [TypeText(m.group("ref"), REFERENCE_FIELD), TypeText(m.group("name"), field), Submit("")]


def is_login_clause(clause: str) -> bool:
    """The clause says which account to use (it logs in), whatever else the goal asks."""
    c = _unbracketed(clause)
    return bool(
        _LOG_IN.match(c)
        or _AS_ACCOUNT.match(c)
        or _stated(c)
        or _BOOKING_REFERENCE.match(c)
        or account_details(c) is not None
    )


#: Credentials that start with the account number's own words ('member ID RW-2291', 'member RW-2291, ...').
_NUMBERED_ACCOUNT = re.compile(r"^(?:member(?:ship)?\b|" + _ACCOUNT_NUMBER + ")", I)


def _unbracketed(clause: str) -> str:
    """A clause said in brackets of its own ('(Pupil number CW-4471, password Roundabout5)') without them."""
    c = clause.strip()
    m = re.fullmatch(r"\((?P<c>[^()]+)\)[.!]?", c)
    return m.group("c").strip() if m else c


def parse_login(c: str, spans: tuple[str, ...]) -> list[Intent] | None:
    """A log-in (or log-out) clause as the steps it takes; account details said as labelled values ('card no.
    2207 1936 54, pin 7730') are typed each into the field their words name."""
    said = _said_login(c, spans)
    if said is not None:
        return said
    details = account_details(_unbracketed(c), spans)
    if details is None:
        return None
    return [*(TypeText(v, field) for field, v in details), Submit("login")]


def _said_login(c: str, spans: tuple[str, ...]) -> list[Intent] | None:
    c = _unbracketed(c)
    if re.match(r"^(?:log|sign)[\s-]*(?:out|off)\b|^(?:logout|signout)$", c, I):
        return [Click(target="log out")]
    stated = _stated(c)  # ('Login: x / pw' states the account; it asks for no login page by name)
    m = None if stated else _LOG_IN.match(c) or _AS_ACCOUNT.match(c)
    if not m and not stated:
        return None
    if stated:
        said = f" with {stated}" if _NUMBERED_ACCOUNT.match(stated) else f" as {stated}"
    else:
        said = m.group("rest") if m.group("rest") is not None else f" as {m.group('slash')}"  # type: ignore[union-attr]
    said = re.sub(r"\s+for\s+(?:me|us)\b", " ", said, flags=I)  # ('Sign in to Tarnwell Water for me (...)')
    prefix, rest = _site_prefix(said, spans)
    rest = _ROLE_ID.sub(lambda r: f" with {r.group('f')} number {r.group('u')}", rest, count=1)
    provider = re.fullmatch(
        r"\s*(?:with|using|via|through)\s+(?P<p>[A-Z][\w.]*(?:\s+[A-Z][\w.]*)?|sso|SSO)\s*", rest
    )
    if provider:
        return [*prefix, Click(target=f"log in with {value(provider.group('p'), spans)}")]
    user, user_field, password, secret_field, leftover = credential_fields(rest, spans)
    if not user and not password:
        if re.sub(
            r"\b(?:now|here|again|with\s+(?:my|the)\s+account|to\s+(?:your|my|the)\s+account)\b",
            "",
            _WHERE.sub(" ", leftover),  # 'sign in to my Ravenscar Climbing Centre account'
            flags=I,
        ).strip():
            return None
        return [*prefix, Click(target="log in")]
    leftover = _WHERE.sub(" ", leftover)  # 'to the patient portal': where, not what
    if re.sub(r"[\s(),/]+|\band\b", "", leftover, flags=I):
        return None  # words left over are no credentials: not read as a login, never dropped unread
    intents: list[Intent] = list(prefix)
    if user:
        intents.append(TypeText(user, user_field))
    if password:
        intents.append(TypeText(password, secret_field))
    intents.append(Submit("login"))
    return intents


@matched(
    r"^(?P<v>sign[\s-]*up|signup|subscribe|register|enrol+|join|create\s+(?:an?\s+|my\s+|a\s+new\s+)?"
    r"account)\b(?P<rest>.*)$"
)
def parse_signup(m: re.Match[str], spans: tuple[str, ...]) -> list[Intent] | None:
    verb = re.sub(r"\s+", " ", m.group("v").lower())
    if re.match(
        r"\s+(?:her|him|them|my\s+[a-z]+|[A-Z][a-z]+\s+[A-Z][a-z]+)\s+(?:as|for|on|onto)\b", m.group("rest")
    ):
        return None  # 'register her as my guest': someone else is registered, no account is made
    prefix, rest = _site_prefix(m.group("rest"), spans)
    # 'subscribe bob@example.org to the newsletter': the address as the verb's direct object
    direct = re.match(r"^\s*(?P<u>" + _CRED + r")(?=\s+(?:to|for|on|at)\s|\s*$)", rest, I)
    direct_user = value(direct.group("u"), spans) if direct else ""
    if "@" in direct_user:
        rest = rest[direct.end() :]  # type: ignore[union-attr]
    else:
        direct_user = ""
    what = ""
    wm = re.match(
        r"^\s*(?:to|for|on|at)\s+(?:the\s+|our\s+|a\s+|an\s+|your\s+)?(?P<w>.+?)(?=\s+(?:with|using|as)\b|$)",
        rest,
        I,
    )
    if wm:
        what = value(wm.group("w"), spans)
        rest = rest[wm.end() :]
    purpose = "subscribe" if verb.startswith("subscribe") or "newsletter" in what.lower() else "signup"
    named = re.match(r"^\s*(?:with|using)\s+(?P<pairs>.+)$", rest, I)
    fields = field_values(named.group("pairs"), spans) if named else None
    if fields and not any(isinstance(f, TypeText) and f.field in _ACCOUNT_FIELDS for f in fields[:1]):
        lead = [TypeText(direct_user, "email")] if direct_user else []
        return [*prefix, *lead, *fields, Submit(purpose)]  # 'with the name Ada and the email ...': the fields
    user, password, leftover = _credentials(rest, spans)
    user = user or direct_user
    if not user:
        if leftover:
            return None
        label = {"subscribe": "subscribe", "register": "register", "join": "join"}.get(verb, "sign up")
        if verb.startswith("create"):
            label = "create account"
        return [*prefix, Click(target=label)]
    intents: list[Intent] = [*prefix, TypeText(user, "email" if "@" in user else "username")]
    if password:
        intents.append(TypeText(password, "password"))
    intents.append(Submit(purpose))
    return intents
