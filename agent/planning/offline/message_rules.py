"""Clause rules for writing to a site: 'Use the contact form to tell the organisers I left an umbrella',
'My name is Alex Byrne, email alex@example.net', 'pick the lost property subject'.

A message goal is sent: its send is planned after every value the goal gives the form, wherever the goal gives
them (``grammar._merge`` moves a ``Submit("send")`` last).
"""

from __future__ import annotations

import re

from agent.planning.offline.intents import Click, Intent, SelectOption, Submit, TypeText
from agent.planning.offline.page_rules import matched
from agent.planning.offline.targets import value

I = re.IGNORECASE  # noqa: E741 - short alias keeps the rule patterns readable

#: The fields a form of this kind names by a word the goal also uses.
_CHOICE_FIELDS = r"subject|topic|category|reason|department|type|kind|enquiry\s+type|option"


@matched(
    r"^(?:use|fill\s+in|fill\s+out|go\s+to|open)\s+(?:the\s+|their\s+|our\s+)?(?P<form>contact|feedback|enquiry|inquiry|"
    r"support|help)(?:\s+us)?\s+(?:form|page)\s+(?:and\s+)?(?:to\s+)?(?:tell|ask|let|inform|notify|say\s+to|write\s+to|"
    r"message)\s+(?:the\s+|our\s+|their\s+)?(?:[a-z]+\s+)?(?:know\s+)?(?:that\s+)?(?P<msg>.+)$"
)
def parse_contact(m: re.Match[str], spans: tuple[str, ...]) -> list[Intent] | None:
    """'Use the contact form to tell the organisers I left a blue umbrella at Quiz Night': open the form, write
    the message, and send it once every other value the goal gives is in."""
    message = value(m.group("msg").strip(), spans)
    if len(message.split()) < 2:
        return None
    form = m.group("form").lower()
    return [Click(target=form if form != "help" else "help", role="link"), TypeText(message, "message"),
            Submit("send")]  # fmt: skip


_PAIR = re.compile(
    r"^(?:my\s+|our\s+)?(?P<f>(?:full\s+)?name|e-?mail(?:\s+address)?|phone(?:\s+number)?|telephone|mobile)\s*"
    r"(?:is\s+|:\s*|=\s*)?(?P<v>.+?)\s*$",
    I,
)


@matched(
    r"^my\s+(?P<pairs>(?:full\s+)?name\s+is\s+.+|e-?mail(?:\s+address)?\s+is\s+.+|phone(?:\s+number)?\s+is\s+.+)$"
)
def parse_about_me(m: re.Match[str], spans: tuple[str, ...]) -> list[Intent] | None:
    """'My name is Alex Byrne, email alex@example.net': each value for the form's field of that name."""
    out: list[Intent] = []
    for pair in re.split(r"\s*,\s*(?:and\s+)?(?:my\s+)?|\s+and\s+(?:my\s+)?", m.group("pairs")):
        found = _PAIR.match(pair.strip())
        if not found:
            return None
        field = re.sub(r"\s+", " ", found.group("f").lower()).replace("e-mail", "email")
        out.append(
            TypeText(
                value(found.group("v").strip(" ."), spans), field.split()[-1] if "name" in field else field
            )
        )
    return out or None


@matched(rf"^(?:pick|choose|select|use)\s+(?:the\s+|a\s+|an\s+)?(?P<o>.+?)\s+(?P<f>{_CHOICE_FIELDS})$")
def parse_choice_of_field(m: re.Match[str], spans: tuple[str, ...]) -> list[Intent] | None:
    """'pick the lost property subject': the option 'lost property' of the field 'subject'."""
    option = value(m.group("o").strip(), spans)
    if not option or len(option.split()) > 5:
        return None
    return [SelectOption(option, m.group("f").lower())]
