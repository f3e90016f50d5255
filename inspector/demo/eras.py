"""Which protocol era the demo answers (``--era``), and serving stdio in exactly that era.

* ``both`` (default): the SDK's dual-era loop; the client's first request decides the connection's era.
* ``legacy``: a 2025-11-25-only server. The SDK's handshake-only loop: ``server/discover`` and
  ``subscriptions/listen`` are unknown methods (-32601), anything but ``initialize``/``ping`` before the
  handshake is refused (-32602), as the SDK's handshake era does.
* ``modern``: a 2026-07-28-only server. ``initialize`` is an unknown method (-32601 Method not found, what the
  conformance suite's 2026-07-28 servers answer); a request without the per-request ``_meta`` envelope is
  refused by the SDK's own inbound ladder (-32602); everything else goes to the SDK's modern serving loop.
"""

from collections.abc import AsyncIterable
from typing import Any, Final, Literal, Protocol, get_args

import anyio
from anyio.streams.memory import MemoryObjectSendStream
from mcp.server.lowlevel.server import Server
from mcp.server.mcpserver import MCPServer
from mcp.server.runner import serve_dual_era_loop, serve_loop
from mcp.server.stdio import stdio_server
from mcp.shared._stream_protocols import ReadStream, WriteStream
from mcp.shared.inbound import InboundLadderRejection, classify_inbound_request
from mcp.shared.message import SessionMessage
from mcp_types import METHOD_NOT_FOUND, PROTOCOL_VERSION_META_KEY, ErrorData, JSONRPCError, JSONRPCRequest

__all__ = ["DEFAULT_ERA", "ERAS", "Era", "lowlevel_of", "serve_stdio", "serve_streams"]

Era = Literal["legacy", "modern", "both"]
ERAS: Final[tuple[Era, ...]] = get_args(Era)
DEFAULT_ERA: Final[Era] = "both"


def lowlevel_of(server: MCPServer[Any]) -> Server[Any]:
    # MCPServer keeps its low-level Server private; the SDK's own Client reaches it the same way.
    lowlevel: Server[Any] = server._lowlevel_server
    return lowlevel


async def serve_stdio(server: MCPServer[Any], era: Era = DEFAULT_ERA) -> None:
    """Serve ``server`` on this process's stdin/stdout in ``era``."""
    async with stdio_server() as (read_stream, write_stream):
        await serve_streams(server, read_stream, write_stream, era)


async def serve_streams(
    server: MCPServer[Any],
    read_stream: ReadStream[SessionMessage | Exception],
    write_stream: WriteStream[SessionMessage],
    era: Era = DEFAULT_ERA,
) -> None:
    """Serve ``server`` in ``era`` over one stream pair (stdio's, or in-memory ones) until the read side closes."""
    lowlevel = lowlevel_of(server)
    async with lowlevel.lifespan(lowlevel) as state:
        if era == "both":  # what ``Server.run`` does
            await serve_dual_era_loop(
                lowlevel,
                read_stream,
                write_stream,
                lifespan_state=state,
                init_options=lowlevel.create_initialization_options(),
            )
            return
        if era == "legacy":
            await serve_loop(
                lowlevel,
                read_stream,
                write_stream,
                lifespan_state=state,
                init_options=lowlevel.create_initialization_options(),
            )
            return
        # Modern only: the dual-era loop behind a gate that lets only enveloped requests through, so the
        # loop always opens the modern era; the gate answers the others itself.
        send, receive = anyio.create_memory_object_stream[SessionMessage | Exception](16)
        async with anyio.create_task_group() as group:
            group.start_soon(_gate, read_stream, write_stream, send)
            await serve_dual_era_loop(lowlevel, receive, write_stream, lifespan_state=state)
            group.cancel_scope.cancel()


class _Sender(Protocol):
    async def send(self, item: SessionMessage, /) -> None: ...


async def _gate(
    read_stream: AsyncIterable[SessionMessage | Exception],
    write_stream: _Sender,
    forward: MemoryObjectSendStream[SessionMessage | Exception],
) -> None:
    async with forward:
        async for item in read_stream:
            refusal = _refusal(item)
            if refusal is None:
                await forward.send(item)
                continue
            try:
                await write_stream.send(SessionMessage(refusal))
            except (anyio.ClosedResourceError, anyio.BrokenResourceError):
                return


def _refusal(item: SessionMessage | Exception) -> JSONRPCError | None:
    """The error a 2026-07-28-only server answers ``item`` with, or None to serve it."""
    if not isinstance(item, SessionMessage) or not isinstance(item.message, JSONRPCRequest):
        return None
    request = item.message
    if request.method == "initialize":
        error = ErrorData(code=METHOD_NOT_FOUND, message="Method not found", data="initialize")
        return JSONRPCError(jsonrpc="2.0", id=request.id, error=error)
    meta = (request.params or {}).get("_meta")
    if isinstance(meta, dict) and PROTOCOL_VERSION_META_KEY in meta:
        return None  # enveloped: the modern loop validates the rest
    verdict = classify_inbound_request({"method": request.method, "params": request.params})
    if not isinstance(verdict, InboundLadderRejection):  # pragma: no cover - no envelope never classifies as modern
        return None
    error = ErrorData(code=verdict.code, message=verdict.message, data=verdict.data)
    return JSONRPCError(jsonrpc="2.0", id=request.id, error=error)
