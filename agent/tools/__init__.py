"""Tools the agent may call besides the browser: MCP servers' tools (:mod:`agent.tools.mcp`).

Sits beside ``browser`` in the layers (it imports only ``agent.types`` and itself): the tools and their client
live in :mod:`agent.tools.registry`, keyed by run id like browsers; graph state holds only their catalog.
"""
