"""A stdio MCP server (official SDK) with prompts whose arguments are not free text, for the probe's samples.

Prompt arguments carry no schema on the wire (every value is a string); the SDK converts them to the function's
types and answers an error when that fails. ``repeat`` needs an integer ``times`` and ``toggle`` a yes/no
``enabled``; their descriptions say so, as a careful server author writes them. No completions are declared,
so the probe has only the names and descriptions to go by. Run as ``python tests/servers/typed_prompts.py``.
"""

from __future__ import annotations

from typing import Annotated, Literal

from mcp.server.mcpserver import MCPServer
from pydantic import Field

server = MCPServer("typed-prompts")


@server.prompt()
def repeat(
    word: Annotated[str, Field(description="The word to repeat")],
    times: Annotated[int, Field(description="How many times (an integer)")],
) -> str:
    """Repeat a word."""
    return " ".join([word] * times)


@server.prompt()
def toggle(enabled: Annotated[Literal["yes", "no"], Field(description="'yes' or 'no'")]) -> str:
    """Say whether something is on."""
    return f"enabled: {enabled}"


if __name__ == "__main__":
    server.run("stdio")
