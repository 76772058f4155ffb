"""Model plumbing for the ``openai`` backend: the chat client with timeouts and retries, lenient JSON
parsing, reply validation, prompt assembly with untrusted-content delimiting, and usage/cost accounting."""

from agent.llm.client import backoff_delay, call_with_retries, make_chat_model, resolve_api_key
from agent.llm.errors import ModelCallError, classify
from agent.llm.parsing import ReplyParseError, parse_json_object
from agent.llm.untrusted import neutralize, untrusted_block
from agent.llm.usage import add_usage, cost_usd, empty_usage, sum_usage, usage_from_metadata

__all__ = [
    "ModelCallError",
    "ReplyParseError",
    "add_usage",
    "backoff_delay",
    "call_with_retries",
    "classify",
    "cost_usd",
    "empty_usage",
    "make_chat_model",
    "neutralize",
    "parse_json_object",
    "resolve_api_key",
    "sum_usage",
    "untrusted_block",
    "usage_from_metadata",
]
