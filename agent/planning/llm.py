"""The ``openai`` planning backend: planner and executor prompts over any OpenAI-compatible chat server.

One request per call through ``ChatOpenAI.with_structured_output(<dict schema>, include_raw=True)`` so a bad
reply lands in ``parsing_error`` instead of raising; the structured-output method is negotiated with the
server (:mod:`agent.llm.structured`) and each node's replies are bounded by its own ``max_tokens``. Every reply — structured or recovered by the lenient
parser — is normalized, schema-validated and semantically checked; an unusable one is re-asked once with the
validation error appended, then reported as ``invalid_reply``. Transport failures come back as ``model_error``
or ``timeout`` results, never as exceptions, so the graph can route them to ``error_retry``.
"""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from functools import partial
from typing import Any

from langchain_core.messages import AIMessage, BaseMessage
from langchain_core.runnables import Runnable

from agent.context import Context
from agent.llm.client import MAX_BACKOFF_S, call_with_retries, make_chat_model
from agent.llm.errors import ModelCallError
from agent.llm.images import ScreenshotImage, screenshot_image, unless_images_refused, without_images
from agent.llm.parsing import ReplyParseError, message_text, parse_json_object
from agent.llm.prompting import (
    browser_state,
    build_messages,
    executor_user_text,
    planner_user_text,
    reask_messages,
    schema_instructions,
    wants_image,
)
from agent.llm.structured import SCHEMA_IN_PROMPT, SETTING_CHOICES, StructuredAsker
from agent.llm.untrusted import new_block_id
from agent.llm.usage import add_usage, empty_usage, usage_from_metadata
from agent.llm.validation import (
    EXECUTOR_SCHEMA,
    PLANNER_SCHEMA,
    executor_errors,
    normalize_executor,
    normalize_planner,
    planner_errors,
)
from agent.planning.base import PlanRequest, PlanResult, TranslateRequest, TranslateResult, Usage
from agent.planning.offline.abilities import resolve_ability
from agent.prompts import system_prompt
from agent.stages import allowed_actions
from agent.terminals import ANSWER_NOT_FOUND, INSUFFICIENT_KNOWLEDGE
from agent.types import ABILITY_ACTIONS, KIND_INVALID_REPLY, KIND_TIMEOUT, Action, Observation

DEFAULT_RETRY_BACKOFF_S = 0.5
_RAW_REPLY_CHARS = 4000


@dataclass
class _Reply:
    """The outcome of one structured question (after the re-ask, if any)."""

    value: dict[str, Any] | None = None
    usage: Usage = field(default_factory=empty_usage)
    error: str = ""
    error_kind: str = ""
    reply_text: str = ""
    #: False when the server refused the request itself (401, 403, 404, 400 ...): asking again cannot help.
    retryable: bool = True

    def failure(self) -> dict[str, Any]:
        """The fields a Plan/TranslateResult carries when there is no usable reply."""
        return {
            "reasoning": "",
            "raw": {"reply": self.reply_text[:_RAW_REPLY_CHARS]} if self.reply_text else {},
            "usage": self.usage,
            "error": self.error,
            "error_kind": self.error_kind,
            "error_retryable": self.retryable,
        }


def _reply_text(raw: Any) -> str:
    """What the model said, for the re-ask and for error records: content, else its tool-call arguments."""
    if not isinstance(raw, AIMessage):
        return ""
    text = message_text(raw.content)
    if text.strip():
        return text
    for call in raw.tool_calls or []:
        return json.dumps(call.get("args") or {}, ensure_ascii=False)
    for call in raw.invalid_tool_calls or []:
        return str(call.get("args") or "")
    return ""


def extract_reply(
    result: dict[str, Any], *, method: str, schema_name: str
) -> tuple[dict[str, Any] | None, str]:
    """The reply's object, or None and why there is none.

    With function_calling: the parsed tool call, a tool call to another name, then arguments that were not
    valid JSON. Then, for every method, the text content through our own parser — never LangChain's parse
    of content, which silently "repairs" truncated JSON into a shorter object.
    """
    raw = result.get("raw")
    if not isinstance(raw, AIMessage):
        return None, "the server sent no message"
    problems: list[str] = []
    if method == "function_calling":
        if isinstance(result.get("parsed"), dict) and result["parsed"]:
            return result["parsed"], ""
        for call in raw.tool_calls or []:
            if isinstance(call.get("args"), dict) and call["args"]:
                return call["args"], ""
        if raw.tool_calls and not raw.invalid_tool_calls:
            problems.append(f"the `{schema_name}` tool call had empty arguments")
        for call in raw.invalid_tool_calls or []:
            try:
                return parse_json_object(call.get("args")), ""
            except ReplyParseError as exc:
                problems.append(f"the tool-call arguments are unusable: {exc}")
        if not (raw.tool_calls or raw.invalid_tool_calls):
            problems.append(f"the reply did not call the `{schema_name}` tool")
    text = message_text(raw.content)
    if text.strip():
        try:
            return parse_json_object(text), ""
        except ReplyParseError as exc:
            problems.append(str(exc))
    refusal = (raw.additional_kwargs or {}).get("refusal")
    if refusal:
        problems.insert(0, f"the model refused: {refusal}")
    return None, "; ".join(problems) or "the reply was empty"


def max_call_seconds(context: Context) -> float:
    """Worst-case wall time of one plan()/translate(): two questions (the re-ask), each with every retry
    running to its time limit after its backoff (a timed-out attempt is retried once, with twice the time).
    A caller's outer timeout at least this long never cuts a clean error short."""
    retries = max(0, int(context.model_max_retries))
    base = getattr(context, "model_retry_backoff_s", DEFAULT_RETRY_BACKOFF_S)
    backoff = sum(min(MAX_BACKOFF_S, base * 2**i * 1.25) for i in range(retries))
    attempts = context.model_timeout_s * (1 + 2 * retries)
    return 2 * (attempts + backoff)


class OpenAIBackend:
    """Backend ``openai``: the LLM planner and executor (see :class:`agent.planning.base.Backend`)."""

    name = "openai"

    def __init__(
        self,
        context: Context,
        *,
        retry_backoff_s: float | None = None,
        sleep: Callable[[float], Awaitable[Any]] = asyncio.sleep,
    ) -> None:
        method = context.structured_output_method
        if method not in SETTING_CHOICES:
            raise ValueError(
                f"structured_output_method must be one of {', '.join(SETTING_CHOICES)}, not {method!r}"
            )
        self.context = context
        self.retry_backoff_s = (
            retry_backoff_s
            if retry_backoff_s is not None
            else getattr(context, "model_retry_backoff_s", DEFAULT_RETRY_BACKOFF_S)
        )
        self._sleep = sleep
        #: ``time.monotonic()`` when the run's time budget ends (known from the planner's metrics).
        self._deadline: float | None = None
        #: Set when the server refused a request with images that it took without them: no images from then on.
        self._images_refused = False
        self._notes: list[str] = []  # remarks for the trace, handed out with the next result
        executor_model = context.executor_model or context.model
        self._planner = self._asker(context.model, context.planner_max_output_tokens, PLANNER_SCHEMA)
        #: each prompt's negotiating asker and reply normalizer
        self._prompts = {
            "planner": (self._planner, normalize_planner),
            "executor": (
                self._asker(executor_model, context.executor_max_output_tokens, EXECUTOR_SCHEMA),
                normalize_executor,
            ),
        }
        self._system = {
            "planner": system_prompt("planner", context.prompts_dir),
            "executor": system_prompt("executor", context.prompts_dir),
        }

    @property
    def method(self) -> str:
        """The structured-output method of the latest question (negotiated when the setting is ``auto``)."""
        return self._planner.last_method

    # --- construction helpers -------------------------------------------------------------------------

    def _asker(self, model: str | None, max_tokens: int, schema: dict[str, Any]) -> StructuredAsker:
        ctx = self.context
        chat = make_chat_model(
            model=model,
            base_url=ctx.base_url,
            api_key=ctx.api_key,
            temperature=ctx.temperature,
            timeout_s=ctx.model_timeout_s,
            max_tokens=max_tokens,
        )
        return StructuredAsker(
            chat,
            schema,
            setting=ctx.structured_output_method,
            base_url=ctx.base_url,
            model=model,
            call=self._invoke_seeing,
        )

    def _image(self, observation: Observation, history: list | None) -> ScreenshotImage | None:
        if self._images_refused or not wants_image(self.context.vision, observation, history):
            return None
        ctx = self.context
        return screenshot_image(
            observation["screenshot_path"], long_side=ctx.vision_image_size, detail=ctx.vision_detail
        )

    async def _invoke_seeing(self, runnable: Runnable, messages: list[BaseMessage]) -> dict[str, Any]:
        """One request; when the server refuses it (HTTP 400) while it carries images and takes the same request
        without them, vision is off for the rest of the run, with one note for the trace."""
        if self._images_refused:
            messages = without_images(messages)
        result, refused = await unless_images_refused(partial(self._invoke, runnable), messages)
        if refused is not None:
            self._images_refused = True
            self._notes.append(
                f"vision off for this run: the model server refused images ({refused.message[:200]})"
            )
        return result

    def _noted(self, result: Any) -> Any:
        """The result with any pending trace remark (vision turned off) attached."""
        if self._notes:
            result["note"] = "; ".join(self._notes)
            self._notes.clear()
        return result

    # --- Backend --------------------------------------------------------------------------------------

    def _messages(
        self, prompt: str, user_text: str, request: Any, *, page_text: bool
    ) -> tuple[Callable[[str], list[BaseMessage]], Usage]:
        """The request for each method (the same turns, the schema added to the system prompt for methods
        whose request does not carry it), and the usage its screenshot adds (images sent, estimated tokens)."""
        obs = request.get("observation") or {}
        state = browser_state(obs, block_id=new_block_id(), include_page_text=page_text)
        image = self._image(obs, request.get("history"))
        schema = PLANNER_SCHEMA if prompt == "planner" else EXECUTOR_SCHEMA

        def build(method: str) -> list[BaseMessage]:
            system = self._system[prompt]
            if method in SCHEMA_IN_PROMPT:
                system += schema_instructions(schema)
            return build_messages(system, user_text, state, image.part if image else None)

        return build, (Usage(images=1, image_tokens=image.tokens) if image else Usage())

    def _start_clock(self, request: PlanRequest) -> None:
        """The run's deadline, from the planner's view of the time already spent."""
        elapsed = float((request.get("metrics") or {}).get("elapsed_s") or 0.0)
        self._deadline = time.monotonic() + max(0.0, self.context.max_seconds - elapsed)

    async def _ask_prompt(
        self, prompt: str, user_text: str, request: Any, *, check: Callable[[dict[str, Any]], list[str]]
    ) -> _Reply:
        """Ask the planner or the executor prompt about ``request`` (only the planner reads the page text)."""
        asker, normalize = self._prompts[prompt]
        messages, seen = self._messages(prompt, user_text, request, page_text=prompt == "planner")
        return await self._ask(
            asker, messages, schema_name=asker.schema["title"], normalize=normalize, check=check, seen=seen
        )

    async def plan(self, request: PlanRequest) -> PlanResult:
        self._start_clock(request)
        reply = await self._ask_prompt("planner", planner_user_text(request), request, check=planner_errors)
        if reply.value is None:
            failed = PlanResult(proposed_actions=[], task_complete=False, final_answer="", **reply.failure())
            return self._noted(failed)
        return self._noted(plan_result(reply.value, reply.usage))

    async def translate(self, request: TranslateRequest) -> TranslateResult:
        obs = request.get("observation") or {}
        check = partial(executor_errors, observation=obs, allowed_actions=self._accepted_actions(request))
        reply = await self._ask_prompt("executor", executor_user_text(request), request, check=check)
        if reply.value is None:
            failed = TranslateResult(
                action=None,
                status="failure",
                error_type="timeout" if reply.error_kind == KIND_TIMEOUT else "unknown",
                message=reply.error,
                **reply.failure(),
            )
            return self._noted(failed)
        result = translate_result(reply.value, reply.usage)
        action = result.get("action")
        if action is not None and action["action"] in ABILITY_ACTIONS:
            result = _resolved(action, request, result)
        return self._noted(result)

    def _accepted_actions(self, request: TranslateRequest) -> list[str] | None:
        """The actions an executor reply may use: the allowed ones, plus ``ask_user`` when prompts are off and
        the stage would allow a question. The prompt never offers it then, but a model that asks anyway needs
        input no one can give: the graph ends the run with its question (``user_input_required``) instead of
        re-asking and failing as a model error."""
        allowed = request.get("allowed_actions")
        if not allowed:
            return allowed
        if "click" in allowed:  # the abilities become browser actions (see ``_resolved``)
            allowed = [*allowed, *ABILITY_ACTIONS]
        if "ask_user" in allowed or self.context.interactive:
            return allowed
        if "ask_user" in allowed_actions(request.get("stage"), interactive=True):
            return [*allowed, "ask_user"]
        return allowed

    # --- the question, its validation and the one re-ask -------------------------------------------------

    async def _invoke(self, runnable: Runnable, messages: list[BaseMessage]) -> dict[str, Any]:
        ctx = self.context
        return await call_with_retries(
            partial(runnable.ainvoke, messages),
            timeout_s=ctx.model_timeout_s,
            max_retries=max(0, int(ctx.model_max_retries)),
            base_s=self.retry_backoff_s,
            base_url=ctx.base_url,
            sleep=self._sleep,
            deadline=self._deadline,
        )

    async def _ask(
        self,
        asker: StructuredAsker,
        messages: Callable[[str], list[BaseMessage]],
        *,
        schema_name: str,
        normalize: Callable[[dict[str, Any]], dict[str, Any]],
        check: Callable[[dict[str, Any]], list[str]],
        seen: Usage | None = None,
    ) -> _Reply:
        usage = empty_usage()
        prices = {
            "price_per_1k_input": self.context.price_per_1k_input,
            "price_per_1k_output": self.context.price_per_1k_output,
        }
        asked = messages
        errors: list[str] = []
        text = ""
        for attempt in range(2):
            try:
                result = await asker.ask(asked)
                if seen and not self._images_refused:
                    usage = add_usage(usage, seen)
            except ModelCallError as exc:
                refused = exc.status is not None and not exc.retryable
                return _Reply(
                    usage=with_method(usage, asker.last_method),
                    error=exc.message,
                    error_kind=exc.kind,
                    reply_text=text,
                    retryable=not refused,
                )
            raw = result.get("raw")
            usage = add_usage(usage, usage_from_metadata(getattr(raw, "usage_metadata", None), **prices))
            text = _reply_text(raw)
            value, problem = extract_reply(result, method=asker.last_method, schema_name=schema_name)
            if value is None:
                errors = [problem]
            else:
                value = normalize(value)
                errors = check(value)
                if not errors:
                    return _Reply(value=value, usage=with_method(usage, asker.last_method))
            if attempt == 0:
                asked = partial(_reasked, messages, errors, text, schema_name)
        return _Reply(
            usage=with_method(usage, asker.last_method),
            error=f"invalid {schema_name} reply after one re-ask: {'; '.join(errors)}",
            error_kind=KIND_INVALID_REPLY,
            reply_text=text,
        )


def _resolved(ability: Action, request: TranslateRequest, chosen: TranslateResult) -> TranslateResult:
    """An ability the model chose, carried out as the browser action the offline planner's code picks for it
    (the model's usage and reply are kept)."""
    args = ability.get("args") or {}
    result = resolve_ability(ability["action"], str(args.get("subject") or ""), request)
    return TranslateResult(
        **{**result, "usage": chosen.get("usage"), "raw": {**chosen.get("raw", {}), **result.get("raw", {})}}
    )


def _reasked(
    messages: Callable[[str], list[BaseMessage]], errors: list[str], text: str, schema_name: str, method: str
) -> list[BaseMessage]:
    return reask_messages(messages(method), errors, text, schema_name=schema_name, method=method)


def with_method(usage: Usage, method: str) -> Usage:
    """A call's usage, noting the structured-output method it was made with (recorded in the trace and in
    result.json)."""
    return {**usage, "structured_output": method}


# ---------------------------------------------------------------------------------------------------------
# Mapping validated replies onto the Backend results
# ---------------------------------------------------------------------------------------------------------


def failure_reason(said: Any) -> str:
    """The terminal reason of a planner that gave up: ``answer_not_found`` for the ways models say "not found"
    (``not_found``, ``Not found``, ``answer-not-found`` ...), else what it said (the graph keeps only the
    reasons it knows; anything else becomes ``insufficient_knowledge``)."""
    text = str(said or "").strip()
    key = "_".join(text.lower().replace("-", " ").split())
    if key in ("not_found", ANSWER_NOT_FOUND, "notfound", "no_answer", "information_not_found"):
        return ANSWER_NOT_FOUND
    return key or INSUFFICIENT_KNOWLEDGE


def plan_result(out: dict[str, Any], usage: Usage) -> PlanResult:
    """A validated planner reply as a :class:`PlanResult` (seed fields kept verbatim in ``raw``)."""
    complete = bool(out["taskComplete"])
    success = bool(out.get("success", True)) if complete else True
    result = PlanResult(
        proposed_actions=[] if complete else list(out["proposedActions"]),
        task_complete=complete,
        final_answer=out.get("finalAnswer") or "",
        success=success,
        reasoning=out.get("stepByStepReasoning") or "",
        raw=out,
        usage=usage,
    )
    if not success:
        result["failure_reason"] = failure_reason(out.get("failureReason"))
    return result


def translate_result(out: dict[str, Any], usage: Usage) -> TranslateResult:
    """A validated executor reply as a :class:`TranslateResult`; ``action`` is None on a failure."""
    action: Action | None = None
    if out["status"] == "success":
        action = Action(
            action=out["action"], element_id=out["element_id"], args=out["args"], reasoning=out["reasoning"]
        )
    return TranslateResult(
        action=action,
        status=out["status"],
        error_type=out["error_type"],
        message=out["message"],
        reasoning=out["reasoning"],
        raw=out,
        usage=usage,
    )
