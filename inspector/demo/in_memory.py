"""The bundled demo server in this process, behind a ``MemoryTransport`` (no subprocess, no socket).

``demo_transport(era=...)`` is a transport to a fresh demo server (one per start, as one process per stdio
connection); ``serve_in_memory(server, pipe, era)`` serves one over a ``MemoryPipe``. The frames travel as
bytes, through the official SDK's in-memory streams on the server's side, so the client and its log see
exactly what stdio would carry. Meant for tests about the window; the CLI and the window run the demo as a
process.
"""

from __future__ import annotations

from typing import Any

import anyio
import mcp_types
from mcp.server.mcpserver import MCPServer
from mcp.shared._context_streams import ContextReceiveStream, ContextSendStream
from mcp.shared.memory import create_client_server_memory_streams
from mcp.shared.message import SessionMessage

from inspector.demo.eras import DEFAULT_ERA, Era, serve_streams
from inspector.demo.server import SERVER_NAME, build_server
from inspector.demo.variant_changed import DEFAULT_VARIANT, Variant
from inspector.transports.memory import MemoryPipe, MemoryTransport

__all__ = ["demo_transport", "serve_in_memory"]


def demo_transport(
    era: Era = DEFAULT_ERA, *, clock_interval: float = 2.0, variant: Variant = DEFAULT_VARIANT
) -> MemoryTransport:
    """A transport to the demo server running in this event loop, answering ``era`` (as ``--era``); ``variant``
    as ``--variant`` (``"changed"``: the deliberately changed build)."""

    async def serve(pipe: MemoryPipe) -> None:
        server = build_server(clock_interval=clock_interval, stderr=pipe.stderr, variant=variant)
        await serve_in_memory(server, pipe, era)

    suffix = "" if era == DEFAULT_ERA else f" --era {era}"
    if variant != DEFAULT_VARIANT:
        suffix += f" --variant {variant}"
    return MemoryTransport(serve, label=f"{SERVER_NAME} (in memory){suffix}")


async def serve_in_memory(server: MCPServer[Any], pipe: MemoryPipe, era: Era = DEFAULT_ERA) -> None:
    """Serve ``server`` over ``pipe`` until the client closes it."""
    async with create_client_server_memory_streams() as (client_streams, server_streams):
        from_server, to_server = client_streams
        async with anyio.create_task_group() as group:
            group.start_soon(_pump_in, pipe, to_server)
            group.start_soon(_pump_out, from_server, pipe)
            await serve_streams(server, *server_streams, era=era)
            group.cancel_scope.cancel()


async def _pump_in(pipe: MemoryPipe, to_server: ContextSendStream[SessionMessage | Exception]) -> None:
    """Frames from the client, parsed as stdio's reader does (a frame that is no message goes in as the error)."""
    async with to_server:
        while (frame := await pipe.receive()) is not None:
            item: SessionMessage | Exception
            try:
                item = SessionMessage(mcp_types.jsonrpc_message_adapter.validate_json(frame, by_name=False))
            except Exception as exc:
                item = exc
            await to_server.send(item)


async def _pump_out(from_server: ContextReceiveStream[SessionMessage | Exception], pipe: MemoryPipe) -> None:
    """The server's messages to the client, serialized as stdio's writer does."""
    async for item in from_server:
        if isinstance(item, SessionMessage):
            await pipe.send(item.message.model_dump_json(by_alias=True, exclude_unset=True).encode())
