"""Tools whose parameters are mirrored into HTTP headers (``x-mcp-header``, Streamable HTTP 2026-07-28).

* ``route_query``: ``region`` (string) → ``Mcp-Param-Region``, ``priority`` (integer) → ``Mcp-Param-Priority``,
  ``verbose`` (boolean) → ``Mcp-Param-Verbose``; ``query`` is not mirrored. It answers with the ``Mcp-*``
  headers the server received, so an inspector can check what its client sent (the SDK server also rejects a
  call whose headers do not match the body with -32020).
* ``bad_header_tool``: an INVALID annotation — ``x-mcp-header`` on a ``number`` parameter, which the spec
  forbids (only string, integer and boolean). A conforming HTTP client must leave this tool out of its
  ``tools/list``; the tool itself works when called anyway. The SDK refuses to build such a tool from a
  function, so it is assembled by hand.
"""

from typing import Annotated, Any

from mcp.server.mcpserver import Context, MCPServer
from mcp.server.mcpserver.tools import Tool
from mcp.server.mcpserver.utilities.func_metadata import ArgModelBase, FuncMetadata
from mcp_types import CallToolResult, ToolAnnotations
from pydantic import ConfigDict, Field

from inspector.demo.client_input import json_result
from inspector.demo.media import icon

__all__ = ["BAD_HEADER_SCHEMA", "build_header_tools", "register_header_tools"]

_READ_ONLY = ToolAnnotations(read_only_hint=True, idempotent_hint=True, destructive_hint=False, open_world_hint=False)


def _mcp_headers(ctx: Context) -> dict[str, str] | None:
    headers = ctx.headers
    if headers is None:
        return None  # stdio: no headers at all
    return {name.lower(): value for name, value in headers.items() if name.lower().startswith("mcp-")}


def register_header_tools(server: MCPServer[Any]) -> None:
    @server.tool(title="Routing headers (x-mcp-header)", annotations=_READ_ONLY, icons=icon("tool"))
    async def route_query(
        ctx: Context,
        region: Annotated[
            str, Field(description="Mirrored as Mcp-Param-Region", json_schema_extra={"x-mcp-header": "Region"})
        ],
        priority: Annotated[
            int,
            Field(
                ge=0, le=9, description="Mirrored as Mcp-Param-Priority", json_schema_extra={"x-mcp-header": "Priority"}
            ),
        ] = 5,
        verbose: Annotated[
            bool, Field(description="Mirrored as Mcp-Param-Verbose", json_schema_extra={"x-mcp-header": "Verbose"})
        ] = False,
        query: Annotated[str, Field(description="Not mirrored")] = "SELECT 1",
    ) -> CallToolResult:
        """Shows the Mcp-* headers the server received with this call (none over stdio)."""
        arguments = {"region": region, "priority": priority, "verbose": verbose, "query": query}
        return json_result({"arguments": arguments, "headers": _mcp_headers(ctx)})


BAD_HEADER_SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {
        "score": {
            "type": "number",
            "description": "x-mcp-header on a number: not allowed, so the whole tool is invalid",
            "x-mcp-header": "Score",
        },
        "label": {"type": "string", "description": "A harmless string"},
    },
    "required": ["score"],
}


class _AnyArgs(ArgModelBase):
    """Accept the arguments as they come; ``bad_header_tool`` checks them itself."""

    model_config = ConfigDict(extra="allow", arbitrary_types_allowed=True)

    def model_dump_one_level(self) -> dict[str, Any]:
        return {"arguments": dict(self.model_extra or {})}


async def bad_header_tool(arguments: dict[str, Any]) -> CallToolResult:
    """Has an INVALID x-mcp-header annotation (on a number): clients must drop it from tools/list."""
    score = arguments.get("score")
    if isinstance(score, bool) or not isinstance(score, int | float):
        return json_result({"error": "score must be a number"}, is_error=True)
    return json_result({"score": score, "label": arguments.get("label")})


def build_header_tools() -> list[Tool]:
    """The hand-built tool with the invalid annotation (the SDK's from_function would refuse it)."""
    return [
        Tool(
            fn=bad_header_tool,
            name="bad_header_tool",
            title="Invalid x-mcp-header (clients must drop it)",
            description=bad_header_tool.__doc__ or "",
            parameters=BAD_HEADER_SCHEMA,
            fn_metadata=FuncMetadata(arg_model=_AnyArgs),
            is_async=True,
            context_kwarg=None,
            annotations=_READ_ONLY,
            icons=icon("tool"),
        )
    ]
