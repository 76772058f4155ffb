"""The goal grammar's word tables: role words, key names, purposes, known field names, number words.

Tables, not patterns: widening what the planner understands is adding a word here.
"""

from __future__ import annotations

import re

from agent.browser.actions.forms import KEY_ALIASES
from agent.planning.offline.text import stem

ROLE_WORDS: dict[str, tuple[str, ...]] = {
    "textbox": (
        "text box",
        "textbox",
        "text field",
        "textfield",
        "text area",
        "textarea",
        "text input",
        "input field",
        "input box",
        "entry field",
        "field",
        "box",
        "input",
        "bar",
        "entry",
    ),
    "button": ("button", "btn"),
    "link": ("hyperlink", "link"),
    "tab": ("tab",),
    "checkbox": ("check box", "checkbox", "tick box", "tickbox", "toggle", "switch"),
    "radio": ("radio button", "radio", "option button"),
    "combobox": (
        "drop-down menu",
        "dropdown menu",
        "drop down menu",
        "drop-down list",
        "dropdown list",
        "drop-down",
        "drop down",
        "dropdown",
        "select box",
        "select menu",
        "select list",
        "combo box",
        "combobox",
        "list box",
        "listbox",
        "select",
        "menu",
        "list",
        "options",
    ),
    "": ("icon", "option", "item", "element", "control", "one"),
}


CLICK_HINTS = ("button", "link", "tab", "checkbox", "radio", "textbox", "")


FIELD_HINTS = ("textbox", "combobox", "")


SELECT_HINTS = ("combobox", "textbox", "")


CHECK_HINTS = ("checkbox", "radio", "button", "")


PRONOUNS = {
    "it",
    "them",
    "this",
    "that",
    "one",
    "these",
    "those",
    "this one",
    "that one",
    "the item",
    "item",
}


ORDINAL_HEADS = frozenset(
    "result item product link button entry article post story video listing card row one option checkbox box "
    "field input tab image picture photo hit match record book course job review comment message email thread "
    "repository repo question answer title headline heading user profile song track episode movie film recipe "
    "offer deal hotel flight house apartment event file document folder cell suggestion dropdown radio textbox "
    "textarea".split()
)


ORDINAL_NOUNS = {
    "search result": "result",
    "results": "result",
    "search results": "result",
    "hit": "result",
    "text box": "textbox",
    "text field": "field",
    "text input": "input",
    "input box": "input",
    "input field": "field",
    "input textbox": "textbox",
    "text area": "textarea",
    "radio button": "radio",
    "check box": "checkbox",
}


DIALOG_WORDS = (
    r"(?:dialog|modal|pop-?up|pop\s+up|overlay|banner|lightbox|window|interstitial|notification|prompt|alert)"
)


KEYS = (
    r"(?:ctrl|control|cmd|command|meta|alt|option|shift)\s*\+\s*(?:[\w]+)(?:\s*\+\s*[\w]+)?|enter|return|escape|esc"
    r"|tab|space\s*bar|spacebar|space|backspace|back\s+space|delete|del|home|end|page\s*up|page\s*down|pgup|pgdn"
    r"|(?:arrow\s*)?(?:up|down|left|right)(?:\s*arrow)?|f\d{1,2}|insert"
)


#: Spoken key names to Playwright's: the browser's own table plus a few spellings people write in goals.
_KEY_NAMES = {**KEY_ALIASES, "pgup": "PageUp", "pgdn": "PageDown", "insert": "Insert"}
_MODIFIERS = {
    **{name: key for name, key in KEY_ALIASES.items() if key in ("Control", "Meta", "Alt", "Shift")},
    "command": "Meta",
    "option": "Alt",
}


def key_name(raw: str) -> str:
    """'page down' -> 'PageDown', 'up arrow' -> 'ArrowUp', 'ctrl+a' -> 'Control+A' (Playwright names)."""
    parts = [p.strip() for p in raw.split("+")]
    if len(parts) > 1:
        keys = [_MODIFIERS.get(p.lower(), "") for p in parts[:-1]]
        last = parts[-1]
        last = last.upper() if len(last) == 1 else key_name(last)
        return "+".join([k for k in keys if k] + [last])
    compact = re.sub(r"\s+|arrow", "", raw.lower())
    if re.fullmatch(r"f\d{1,2}", compact):
        return compact.upper()
    return _KEY_NAMES.get(compact, raw.strip().title())


PURPOSES = {
    "login": "login",
    "log-in": "login",
    "log in": "login",
    "sign-in": "login",
    "sign in": "login",
    "signin": "login",
    "sign-up": "signup",
    "sign up": "signup",
    "signup": "signup",
    "registration": "signup",
    "register": "signup",
    "subscription": "subscribe",
    "subscribe": "subscribe",
    "newsletter": "subscribe",
    "search": "search",
}


INFO_NOUNS = (
    r"price|cost|status|number|date|time|name|title|rating|weather|availability|total|balance|result|"
    r"results|amount|details?|value|stock|count|score|email|phone|address|description|text|heading"
)


KNOWN_FIELDS = (
    r"user\s*name|username|user\s*id|user|login|e-?mail(?:\s+address)?|password|passcode|pin|full\s+name|"
    r"first\s+name|last\s+name|surname|name|phone(?:\s+number)?|telephone|mobile(?:\s+number)?|"
    r"zip(?:\s*code)?|postal\s+code|post\s*code|city|country|state|address|street|company|message|"
    r"comment|subject|topic|title|query|search\s+term|keyword|coupon(?:\s+code)?|promo\s+code|code|amount|"
    r"quantity|age|date|website|url|your\s+name"
)


CONTINUATIONS = {"address", "number", "name", "code", "field", "box", "id", "term", "into", "in", "to", "as"}


CLICK_VERBS = (
    r"click|double[- ]?click|right[- ]?click|left[- ]?click|tap|hit|press|push|follow|activate|expand|"
    r"collapse|open|focus|download|select|choose|pick"
)


# Where sites keep what people ask about: a link whose text is one of these words leads to the answers to questions
# using the words it lists ('How much is the Team plan?' -> 'Pricing', 'Who is the CTO?' -> 'About'). A lead, weaker
# than a link naming the subject itself, and tried after the site's own search.
_PRICES = (
    "price prices cost costs plan plans discount subscription tier fee fees billing trial refund cheap expensive"
    " much charge charges tariff"
)
_RELEASES = "release released version versions new changed fixed update updated"
_DOCS = "api reference configuration config setting settings install installation guide limit limits endpoint webhook"
_PEOPLE = "founded founder founders ceo cto cfo coo team staff history company mission headquarters based people owner"
SITE_SECTIONS: dict[str, frozenset[str]] = {  # stemmed, as text.tokens gives words
    stem(word): frozenset(stem(w) for w in leads.split())
    for words, leads in (
        ("pricing prices plans fees charges tariffs costs", _PRICES),
        ("changelog releases release history", _RELEASES),
        ("docs documentation reference developers", _DOCS + " integration integrations sdk webhooks"),
        ("about team company people", _PEOPLE + " role roles"),
        ("contact", "phone telephone email address call reach office visit"),
        ("careers jobs", "job jobs hiring vacancy vacancies position career salary"),
        ("shipping delivery", "ship shipping delivery deliver postage arrive dispatch"),
        ("returns refunds", "return returns refund exchange"),
        (
            "statement statements balance payments billing rent",
            "owe owed owing balance outstanding arrears pay rent",
        ),
        (
            "orders purchases",
            "order ordered parcel tracking dispatched collect collection",
        ),
    )
    for word in words.split()
}


#: Where a site keeps records of a kind, beyond a list named for them ('Billing' holds the invoices).
RECORD_PLACES: dict[str, tuple[str, ...]] = {
    "invoice": ("billing", "payments", "account"),
    "receipt": ("billing", "payments", "orders", "account"),
    "payment": ("billing", "account"),
    "statement": ("billing", "documents", "account"),
    "order": ("order history", "purchases", "account"),
    "booking": ("reservations", "trips", "account"),
    "reservation": ("bookings", "trips", "account"),
    "appointment": ("bookings", "account"),
    "application": ("account",),
    "loan": ("loans", "account"),
    "hold": ("holds", "reservations", "account"),
}


#: What a page calls the doer of a verb a question asks with ('who leads X' -> 'Led by', 'Leader'), for verbs
#: whose forms are not regular; a regular verb gets '<verb>ed by', '<verb>er' and '<verb>or' (see label_forms).
_DOER_FORMS: dict[str, tuple[str, ...]] = {
    "lead": ("led by", "leader", "lead", "hosted by"),
    "run": ("run by", "organised by", "organized by", "host"),
    "teach": ("taught by", "teacher", "tutor", "instructor", "lecturer"),
    "write": ("written by", "writer", "author"),
    "wrote": ("written by", "writer", "author"),
    "own": ("owned by", "owner"),
    "make": ("made by", "maker", "manufacturer"),
    "give": ("given by", "speaker", "presenter"),
    "take": ("taken by", "photographer"),
    "speak": ("speaker",),
}
#: Words for the same attribute ('phone' on a page that says 'Telephone:' or 'Tel.').
_ATTRIBUTE_SYNONYMS: dict[str, tuple[str, ...]] = {
    "phone": ("telephone", "tel", "phone number", "call"),
    "phone number": ("telephone", "tel", "phone", "telephone number"),
    "telephone": ("phone", "tel"),
    "email": ("e-mail", "email address"),
    "address": ("location", "where", "find us"),
    "price": ("cost", "fee"),
    "cost": ("price", "fee", "costs"),
    "fee": ("cost", "price", "charge"),
    "balance": (
        "balance owing",
        "balance to pay",
        "outstanding",
        "owed",
        "owing",
        "arrears",
        "left to pay",
        "still to pay",
    ),
    "opening hours": ("hours", "opening times", "open"),
    "hours": ("opening hours", "opening times"),
}


def label_forms(attr_text: str) -> tuple[str, ...]:
    """The ways a page may label ``attr_text``, the attribute itself first: its synonyms, and for a verb
    ('leads', 'organises') the doer's labels ('Led by', 'Leader', 'Organised by', 'Organiser')."""
    attr = " ".join(attr_text.lower().split())
    forms = [attr, *_ATTRIBUTE_SYNONYMS.get(attr, ())]
    if " " not in attr and attr.isalpha() and len(attr) > 3 and not attr.endswith(("ss", "us", "is")):
        bases = (
            [attr[:-2], attr[:-1]] if attr.endswith("es") else [attr[:-1]] if attr.endswith("s") else [attr]
        )
        known = next((b for b in bases if b in _DOER_FORMS), "")
        if known:
            forms += _DOER_FORMS[known]
        elif attr.endswith(("s", "ed")):  # a verb a doer does: 'organises' -> 'Organised by', 'Organiser'
            root = attr[:-2] if attr.endswith("ed") else attr[:-1]
            root = root[:-1] if root.endswith("e") else root
            forms += (f"{root}ed by", f"{root}er", f"{root}or")
    return tuple(dict.fromkeys(forms))


#: People a goal's situation introduces ("a contractor is coming in", "my dad uses BSL"): whom a later 'they',
#: 'he' or 'she' means.
PEOPLE: tuple[str, ...] = tuple(
    """contractor contractors visitor visitors guest guests dad mum mom mother father son daughter partner wife
    husband friend friends colleague colleagues child children kid kids manager boss student students parent
    parents grandmother grandfather grandma grandpa nephew niece brother sister client clients customer customers
    employee employees tenant tenants neighbour neighbor teenager carer baby toddler""".split()
)
