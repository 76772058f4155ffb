"""A small MCP server (stdio, or streamable HTTP with ``--http PORT``) for the tests: a library's opening hours, a risky tool, a tool that fails."""

from __future__ import annotations

from mcp.server.fastmcp import FastMCP

server = FastMCP("library", log_level="WARNING")

HOURS = {"riverside": "09:30 to 18:00", "hilltop": "10:00 to 16:00"}


@server.tool()
def library_hours(branch: str) -> str:
    """Opening hours of a library branch, by the branch's name."""
    hours = HOURS.get(branch.strip().lower())
    if hours is None:
        raise ValueError(f"no branch named {branch}")
    return f"The {branch} library branch is open from {hours} on weekdays."


@server.tool()
def delete_reservation(reservation_id: int) -> str:
    """Delete a book reservation for good."""
    return f"reservation {reservation_id} deleted"


if __name__ == "__main__":
    import sys

    if len(sys.argv) > 2 and sys.argv[1] == "--http":  # streamable HTTP on 127.0.0.1:<port>/mcp
        server.settings.host, server.settings.port = "127.0.0.1", int(sys.argv[2])
        server.run("streamable-http")
    else:
        server.run("stdio")
