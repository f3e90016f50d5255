"""What crossed the wire: one record per frame, in either direction, classified."""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum

from inspector.protocol.diagnostics import Diagnostic

__all__ = ["Direction", "Kind", "RequestId", "WireMessage"]

RequestId = int | str


class Direction(StrEnum):
    OUT = "out"
    """client -> server"""
    IN = "in"
    """server -> client"""


class Kind(StrEnum):
    REQUEST = "request"
    NOTIFICATION = "notification"
    RESPONSE = "response"
    ERROR = "error"
    INVALID = "invalid"
    TRANSPORT = "transport"
    STDERR = "stderr"
    HTTP = "http"
    """An HTTP exchange (HTTP transports): its JSON summary, not a JSON-RPC message."""


@dataclass(slots=True)
class WireMessage:
    """One frame as it was sent or received, with what the engine made of it."""

    direction: Direction
    raw: bytes
    kind: Kind
    method: str | None = None
    """For responses and errors: the method of the request they answer, when known."""
    id: RequestId | None = None
    diagnostics: list[Diagnostic] = field(default_factory=list)
    forced: bool = False
    """An outbound request sent although the server did not declare the capability."""
    latency: float | None = None
    """Seconds between a request and this response to it."""
    origin: RequestId | None = None
    """Outbound requests of a multi-round-trip request (2026-07-28), from its second round on: the id of the
    first round, so that every round is seen as one logical request (None for everything else)."""
    round: int = 1
    headers: dict[str, str] = field(default_factory=dict)
    """Outbound, modern era over HTTP: the per-message headers the transport adds (``MCP-Protocol-Version``,
    ``Mcp-Method``, ``Mcp-Name``, ``Mcp-Param-*``); stdio ignores them. Empty for everything else."""

    def text(self) -> str:
        return self.raw.decode("utf-8", "backslashreplace")
