"""An official-SDK server for the 2026-07-28 header, cache and error-code tests (Streamable HTTP, loopback).

``python tests/servers/headers_server.py`` serves ``http://127.0.0.1:<free port>/mcp`` and prints
``listening on <url>`` on stderr. It has:

* ``route``: arguments mirrored into headers (``x-mcp-header``): ``region`` (string, ``Region``),
  ``count`` (integer, ``Count``), ``dry_run`` (boolean, ``DryRun``); answers with the arguments it got,
  so a test sees the body arrived.
* ``needs_extension``: refuses with ``-32021`` unless the client declared the ``io.example/ext`` extension.
* a resource ``demo://greeting``; reading any other uri is the SDK's not-found error.
* cache hints: ``tools/list`` 60 s public, ``resources/read`` 5 s private.
"""

from __future__ import annotations

from typing import Annotated, Any

import anyio
from mcp.server.caching import CacheHint
from mcp.server.mcpserver import Context, MCPServer
from mcp.server.mcpserver.server import require_client_extension
from pydantic import Field

from inspector.demo.server import run_http

EXTENSION = "io.example/ext"


def build() -> MCPServer[Any]:
    server: MCPServer[Any] = MCPServer(
        "headers-test-server",
        cache_hints={
            "tools/list": CacheHint(ttl_ms=60_000, scope="public"),
            "resources/read": CacheHint(ttl_ms=5_000, scope="private"),
        },
    )

    @server.tool()
    def route(
        region: Annotated[str, Field(json_schema_extra={"x-mcp-header": "Region"})],
        query: str,
        count: Annotated[int, Field(json_schema_extra={"x-mcp-header": "Count"})] = 0,
        dry_run: Annotated[bool, Field(json_schema_extra={"x-mcp-header": "DryRun"})] = False,
    ) -> str:
        """Echo what arrived (the headers were checked by the SDK before this runs)."""
        return f"region={region} count={count} dry_run={dry_run} query={query}"

    @server.tool()
    def needs_extension(ctx: Context) -> str:
        """Only for clients that declared the io.example/ext extension."""
        require_client_extension(ctx.request_context, EXTENSION)
        return "ok"

    @server.resource("demo://greeting")
    def greeting() -> str:
        return "hello"

    return server


if __name__ == "__main__":
    anyio.run(run_http, build(), 0)
