"""An ASGI gate in front of the SDK's Streamable HTTP app that keeps the demo to one protocol era.

The SDK routes each POST by its ``MCP-Protocol-Version`` header: a handshake-era value (or none) to the
2025-11-25 transport, anything else to the 2026-07-28 single-exchange entry. The gate answers what the
chosen era does not serve and passes the rest through untouched:

``legacy`` (a 2025-11-25-only server)
    A request whose ``MCP-Protocol-Version`` is not a handshake-era version gets ``400 Bad Request`` (the
    2025-11-25 rule for an unsupported version) with a JSON-RPC error: -32601 Method not found for the
    methods that era does not define (``server/discover``, ``subscriptions/listen``, ``tasks/update``),
    -32600 for the others.
``modern`` (a 2026-07-28-only server)
    ``initialize`` gets ``404`` and -32601 Method not found (what the conformance suite's 2026-07-28
    servers answer); another request without ``MCP-Protocol-Version`` gets ``400`` and -32020
    (HeaderMismatch: a required header is missing); one with a handshake-era version gets ``400`` and -32022
    naming the supported versions; GET and DELETE get ``405``.
"""

import json
from typing import Any, Final

from mcp_types import (
    HEADER_MISMATCH,
    INVALID_REQUEST,
    METHOD_NOT_FOUND,
    PARSE_ERROR,
    UNSUPPORTED_PROTOCOL_VERSION,
)
from mcp_types.version import HANDSHAKE_PROTOCOL_VERSIONS, MODERN_PROTOCOL_VERSIONS
from starlette.types import ASGIApp, Receive, Scope, Send

from inspector.demo.eras import Era

__all__ = ["MODERN_ONLY_METHODS", "EraGate"]

MODERN_ONLY_METHODS: Final = frozenset({"server/discover", "subscriptions/listen", "tasks/update"})
"""Methods a 2025-11-25 server does not have."""

_VERSION_HEADER: Final = b"mcp-protocol-version"
_MAX_BODY: Final = 4 * 1024 * 1024


class EraGate:
    """Wraps the Streamable HTTP ASGI app; ``era="both"`` passes everything through."""

    def __init__(self, app: ASGIApp, era: Era, *, path: str = "/mcp") -> None:
        self._app = app
        self._era = era
        self._path = path

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if self._era == "both" or scope["type"] != "http" or scope.get("path") != self._path:
            await self._app(scope, receive, send)
            return
        version = _header(scope, _VERSION_HEADER)
        handshake = version is None or version in HANDSHAKE_PROTOCOL_VERSIONS
        served = handshake if self._era == "legacy" else not handshake
        if served:
            await self._app(scope, receive, send)
            return
        if scope.get("method") != "POST":
            status, headers = (405, [(b"allow", b"POST")]) if self._era == "modern" else (400, [])
            await _respond(send, status, None, headers)
            return
        body = await _read_body(receive)
        if body is None:
            await _respond(send, 413, None)
            return
        try:
            message = json.loads(body)
        except ValueError:
            await _respond(send, 400, _error(None, PARSE_ERROR, "Parse error"))
            return
        request_id = message.get("id") if isinstance(message, dict) else None
        method = message.get("method") if isinstance(message, dict) else None
        if self._era == "legacy":
            if method in MODERN_ONLY_METHODS:
                await _respond(send, 400, _error(request_id, METHOD_NOT_FOUND, "Method not found", method))
            else:
                supported = ", ".join(HANDSHAKE_PROTOCOL_VERSIONS)
                text = f"Bad Request: Unsupported protocol version: {version} (supported: {supported})"
                await _respond(send, 400, _error(request_id, INVALID_REQUEST, text))
        elif method == "initialize":
            await _respond(send, 404, _error(request_id, METHOD_NOT_FOUND, "Method not found", method))
        elif version is None:
            await _respond(send, 400, _error(request_id, HEADER_MISMATCH, "Missing MCP-Protocol-Version header"))
        else:
            data = {"supported": list(MODERN_PROTOCOL_VERSIONS), "requested": version}
            await _respond(
                send, 400, _error(request_id, UNSUPPORTED_PROTOCOL_VERSION, "Unsupported protocol version", data)
            )


def _header(scope: Scope, name: bytes) -> str | None:
    for key, value in scope.get("headers", ()):
        if key.lower() == name:
            return bytes(value).decode("latin-1")
    return None


async def _read_body(receive: Receive) -> bytes | None:
    """The request body, or None when it is larger than ``_MAX_BODY``."""
    chunks: list[bytes] = []
    size = 0
    while True:
        message = await receive()
        if message["type"] != "http.request":
            return b"".join(chunks)
        chunk = message.get("body", b"")
        size += len(chunk)
        if size > _MAX_BODY:
            return None
        chunks.append(chunk)
        if not message.get("more_body", False):
            return b"".join(chunks)


def _error(request_id: Any, code: int, message: str, data: Any = None) -> dict[str, Any]:
    error: dict[str, Any] = {"code": code, "message": message}
    if data is not None:
        error["data"] = data
    if not isinstance(request_id, str | int) or isinstance(request_id, bool):
        request_id = None
    return {"jsonrpc": "2.0", "id": request_id, "error": error}


async def _respond(
    send: Send, status: int, body: dict[str, Any] | None, headers: list[tuple[bytes, bytes]] | None = None
) -> None:
    payload = b"" if body is None else json.dumps(body, separators=(",", ":")).encode()
    all_headers = list(headers or [])
    if body is not None:
        all_headers.append((b"content-type", b"application/json"))
    all_headers.append((b"content-length", str(len(payload)).encode()))
    await send({"type": "http.response.start", "status": status, "headers": all_headers})
    await send({"type": "http.response.body", "body": payload, "more_body": False})
