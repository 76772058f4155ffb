"""MCP servers' tools through ``langchain-mcp-adapters``: connections from the settings, loading, calling.

A server is a stdio command (``{command, args, env, cwd}``) or a streamable HTTP endpoint (``{url, headers}``).
The adapter opens a fresh session for each call (stateless), so nothing outlives a call but the tool list, and a
run's tools can be found again by run id after a resume. Every argument set is checked against the tool's input
schema (jsonschema) before the call; every failure is one clear line (:class:`McpError`), never a traceback.
"""

from __future__ import annotations

import asyncio
import json
import os
import shutil
from dataclasses import dataclass, field
from typing import Any

#: Bound of the text one tool result hands back (the records keep it whole up to this).
MAX_RESULT_CHARS = 20_000
TRANSPORTS = ("stdio", "streamable_http", "http", "sse")


class McpError(Exception):
    """A server that cannot start or list its tools, an unknown tool, bad arguments or a failed call."""


def server_connection(name: str, spec: Any) -> dict[str, Any]:
    """The adapter's connection for one server of the ``mcp_servers`` setting, or ValueError saying what is wrong."""
    if not isinstance(spec, dict):
        raise ValueError(f"server {name!r} must be a mapping with 'command' (stdio) or 'url' (HTTP)")
    transport = str(spec.get("transport") or ("stdio" if spec.get("command") else "streamable_http"))
    if transport not in TRANSPORTS:
        raise ValueError(f"server {name!r}: transport {transport!r} is not one of {', '.join(TRANSPORTS)}")
    if transport == "stdio":
        command = spec.get("command")
        if not isinstance(command, str) or not command.strip():
            raise ValueError(f"server {name!r}: a stdio server needs 'command'")
        args = spec.get("args") or []
        if not isinstance(args, list) or not all(isinstance(a, str | int | float) for a in args):
            raise ValueError(f"server {name!r}: 'args' must be a list of words")
        env = spec.get("env") or {}
        if not isinstance(env, dict):
            raise ValueError(f"server {name!r}: 'env' must be a mapping")
        connection: dict[str, Any] = {
            "transport": "stdio",
            "command": command,
            "args": [str(a) for a in args],
        }
        # The server inherits the agent's environment (PATH, a virtualenv), with the setting's values on top.
        connection["env"] = {**os.environ, **{str(k): str(v) for k, v in env.items()}}
        if spec.get("cwd"):
            connection["cwd"] = str(spec["cwd"])
        return connection
    url = spec.get("url")
    if not isinstance(url, str) or not url.startswith(("http://", "https://")):
        raise ValueError(f"server {name!r}: an HTTP server needs 'url' (http:// or https://)")
    connection = {"transport": "streamable_http" if transport == "http" else transport, "url": url}
    if isinstance(spec.get("headers"), dict):
        connection["headers"] = {str(k): str(v) for k, v in spec["headers"].items()}
    return connection


def missing_commands(servers: dict[str, Any]) -> list[str]:
    """Lines naming each stdio server whose command is not found (checked before a run starts)."""
    lines = []
    for name, spec in (servers or {}).items():
        command = spec.get("command") if isinstance(spec, dict) else None
        if isinstance(command, str) and command and shutil.which(command) is None:
            lines.append(f"MCP server {name!r}: command {command!r} is not found")
    return lines


def _first_line(exc: BaseException) -> str:
    """The innermost useful message of an exception (task groups wrap the real one)."""
    while isinstance(exc, BaseExceptionGroup) and exc.exceptions:
        exc = exc.exceptions[0]
    text = str(exc).strip().splitlines()
    return (text[0] if text else type(exc).__name__)[:200]


@dataclass
class McpTools:
    """One run's loaded tools: the adapter's tools by name and their catalog (plain data for state)."""

    tools: dict[str, Any] = field(default_factory=dict)
    catalog: list[dict[str, Any]] = field(default_factory=list)
    timeout_s: float = 30.0

    async def call(self, name: str, arguments: Any) -> str:
        """The tool's text result, or McpError (unknown tool, arguments the schema refuses, a failed call)."""
        tool = self.tools.get(name)
        if tool is None:
            known = ", ".join(sorted(self.tools)) or "none"
            raise McpError(f"no MCP tool named {name!r} (loaded: {known})")
        if not isinstance(arguments, dict):
            raise McpError(f"the arguments of {name!r} must be an object")
        problems = argument_errors(schema_of(tool), arguments)
        if problems:
            raise McpError(f"bad arguments for {name!r}: {'; '.join(problems)}")
        try:
            content = await asyncio.wait_for(tool.ainvoke(arguments), self.timeout_s)
        except TimeoutError:
            raise McpError(f"the MCP tool {name!r} did not answer within {self.timeout_s:g}s") from None
        except Exception as exc:  # noqa: BLE001 - a tool's error or a broken server: one line for the planner
            raise McpError(f"the MCP tool {name!r} failed: {_first_line(exc)}") from None
        return result_text(content)[:MAX_RESULT_CHARS]


def schema_of(tool: Any) -> dict[str, Any]:
    """A tool's input schema as JSON schema (MCP tools carry it as a dict)."""
    schema = getattr(tool, "args_schema", None)
    if isinstance(schema, dict):
        return schema
    if schema is not None and hasattr(schema, "model_json_schema"):
        return schema.model_json_schema()
    return {"type": "object"}


def argument_errors(schema: dict[str, Any], arguments: dict[str, Any]) -> list[str]:
    """Why ``arguments`` do not fit ``schema`` (at most three lines; empty when they fit)."""
    from jsonschema import Draft202012Validator

    validator = Draft202012Validator(schema)
    errors = sorted(validator.iter_errors(arguments), key=lambda e: list(e.path))
    return [
        (f"{'.'.join(str(p) for p in e.path)}: " if e.path else "") + e.message.replace("\n", " ")[:160]
        for e in errors[:3]
    ]


def result_text(content: Any) -> str:
    """Plain text of a tool result: text blocks as they are, any other block (an image, a file) as JSON."""
    if isinstance(content, str):
        return content
    blocks = content if isinstance(content, list) else [content]
    return "\n".join(_block_text(block) for block in blocks)


def _block_text(block: Any) -> str:
    if isinstance(block, str):
        return block
    if isinstance(block, dict) and block.get("type") == "text":
        return str(block.get("text") or "")
    return json.dumps(block, default=str)[:500]


async def load_tools(servers: dict[str, Any], timeout_s: float) -> McpTools:
    """Start each server once to list its tools; McpError naming the first server that fails."""
    from langchain_mcp_adapters.client import MultiServerMCPClient

    loaded = McpTools(timeout_s=timeout_s)
    for name, spec in servers.items():
        try:
            connection = server_connection(name, spec)
        except ValueError as exc:
            raise McpError(str(exc)) from None
        client = MultiServerMCPClient({name: connection}, handle_tool_errors=False)  # type: ignore[dict-item]
        try:
            tools = await asyncio.wait_for(client.get_tools(server_name=name), timeout_s)
        except TimeoutError:
            raise McpError(f"MCP server {name!r} did not list its tools within {timeout_s:g}s") from None
        except Exception as exc:  # noqa: BLE001 - any start failure: one line naming the server
            raise McpError(f"MCP server {name!r} could not start: {_first_line(exc)}") from None
        for tool in tools:
            loaded.tools[tool.name] = tool
            loaded.catalog.append(
                {
                    "name": tool.name,
                    "server": name,
                    "description": " ".join(str(tool.description or "").split())[:400],
                    "input_schema": schema_of(tool),
                }
            )
    return loaded
