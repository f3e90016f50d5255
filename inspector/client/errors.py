"""Errors the awaitable client API raises. Each one reads well as a single line."""

from __future__ import annotations

from typing import Any

from inspector.protocol.jsonrpc import ERROR_NAMES
from inspector.transports.base import TransportClosed, message_of

__all__ = [
    "CapabilityNotDeclared",
    "ClientError",
    "ConnectFailed",
    "ConnectionLost",
    "InvalidResponse",
    "NotConnected",
    "RemoteError",
    "RequestCancelled",
    "RequestTimeout",
    "describe_exception",
    "message_of",
]


def describe_exception(exc: BaseException) -> str:
    """``Type: message`` of an unexpected exception; just the type when it has no message (never empty)."""
    text = str(exc).strip()
    return f"{type(exc).__name__}: {text}" if text else type(exc).__name__


class ClientError(Exception):
    """Base of every error the client API raises."""


class RemoteError(ClientError):
    """The server answered with a JSON-RPC error."""

    def __init__(self, code: int | None, message: str, data: Any = None, *, method: str = "") -> None:
        self.code = code
        self.message = message
        self.data = data
        self.method = method
        name = ERROR_NAMES.get(code or 0)
        label = f"error {code}" + (f" ({name})" if name else "") if code is not None else "error"
        super().__init__(f"{method + ': ' if method else ''}{label}: {message}")


class RequestTimeout(ClientError):
    """No answer within the request's deadline (the request was cancelled at the server)."""


class RequestCancelled(ClientError):
    """The request was cancelled by us."""


class InvalidResponse(ClientError):
    """The server's answer could not be used (e.g. both result and error, unparsable)."""


class ConnectFailed(ClientError):
    """The transport could not start, or the handshake failed. ``code`` / ``data``: the server's JSON-RPC
    error when it refused the opening request."""

    def __init__(self, message: str, code: int | None = None, data: Any = None) -> None:
        super().__init__(message)
        self.code = code
        self.data = data


class NotConnected(ClientError):
    """The connection is not open (never connected, closed, or lost)."""


class ConnectionLost(ClientError):
    """The transport closed while requests were pending."""

    def __init__(self, reason: str, closed: TransportClosed | None = None) -> None:
        super().__init__(reason)
        self.closed = closed


class CapabilityNotDeclared(ClientError):
    """The server did not declare the capability this method needs (pass forced=True to send anyway)."""

    def __init__(self, method: str, capability: str) -> None:
        super().__init__(f"the server did not declare the '{capability}' capability that {method} needs")
        self.method = method
        self.capability = capability
