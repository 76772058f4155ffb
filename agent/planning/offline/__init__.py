"""The offline ``rules`` planning backend: deterministic, no network, the default when no model is configured.

It parses plain imperative goals ("go to x.test, log in as alice with password s3cret, then tell me what the
page says") into intents, plans them as canonical steps, and grounds each step on the observed page by fuzzy
matching element names and roles. Questions are answered from the page text.

Modules, each with one job:
- goal text: ``grammar`` (goal -> intents; the rule table), ``clauses`` (cutting a goal into clauses),
  ``vocabulary`` (word tables), ``targets`` (values and element references), ``page_rules`` and ``form_rules``
  (the clause rules), ``intents`` (intents and their step text), ``text`` and ``urls`` (normalizing);
- planning: ``planner`` (next steps), ``leads`` (where to go when this page cannot serve the goal);
- grounding: ``translator`` (step -> action), ``grounding`` (shared context and history), ``ground_controls``
  and ``ground_page`` (grounders by kind), ``matching`` (phrase -> element), ``reveal`` (opening collapsed
  sections and tabs when a step's element is hidden), ``dates`` (dates and times in an input's own format),
  ``calendar`` (a read-only date field filled through its calendar), ``semantic`` (closeness in meaning from a
  static embedding model shipped in its wheel, next to the lexical score);
- reading pages: ``page`` (element kinds, labels, geometry), ``listings``, ``overlays``;
- answering: ``questions`` (what is asked), ``answers`` (question -> answer), ``values`` (typed values in
  text), ``items`` (listing items and their facts), ``messages`` (what the page announces).
"""

from __future__ import annotations

from agent.planning.base import PlanRequest, PlanResult, TranslateRequest, TranslateResult
from agent.planning.offline.grammar import SUPPORTED_PHRASINGS, ParsedGoal, parse_goal
from agent.planning.offline.planner import plan_goal
from agent.planning.offline.questions import Answer
from agent.planning.offline.reading import answer_question
from agent.planning.offline.translator import translate_step


class RulesBackend:
    """The offline backend behind :class:`agent.planning.base.Backend`; stateless, so one instance can serve
    any number of runs."""

    name = "rules"

    async def plan(self, request: PlanRequest) -> PlanResult:
        return plan_goal(request)

    async def translate(self, request: TranslateRequest) -> TranslateResult:
        return translate_step(request)


__all__ = [
    "RulesBackend",
    "plan_goal",
    "translate_step",
    "parse_goal",
    "ParsedGoal",
    "answer_question",
    "Answer",
    "SUPPORTED_PHRASINGS",
]
