"""What the session tells the layer above after each inbound frame."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from inspector.protocol.diagnostics import Diagnostic
from inspector.protocol.envelope import SERVER_INFO_KEY
from inspector.protocol.mrtr import InputCall
from inspector.protocol.wire import RequestId, WireMessage

__all__ = [
    "Event",
    "HandshakeCompleted",
    "HandshakeFailed",
    "InputRequested",
    "NotificationReceived",
    "ProgressReceived",
    "Received",
    "RequestCancelledByServer",
    "RequestFailed",
    "RequestReceived",
    "ResponseReceived",
]


@dataclass(frozen=True, slots=True)
class HandshakeCompleted:
    protocol_version: str
    result: dict[str, Any]

    @property
    def server_info(self) -> dict[str, Any]:
        """``serverInfo`` (initialize) or ``_meta["io.modelcontextprotocol/serverInfo"]`` (server/discover)."""
        info = self.result.get("serverInfo")
        if not isinstance(info, dict):
            meta = self.result.get("_meta")
            info = meta.get(SERVER_INFO_KEY) if isinstance(meta, dict) else None
        return info if isinstance(info, dict) else {}

    @property
    def capabilities(self) -> dict[str, Any]:
        caps = self.result.get("capabilities")
        return caps if isinstance(caps, dict) else {}

    @property
    def instructions(self) -> str | None:
        text = self.result.get("instructions")
        return text if isinstance(text, str) else None


@dataclass(frozen=True, slots=True)
class HandshakeFailed:
    reason: str
    code: int | None = None
    data: Any = None


@dataclass(frozen=True, slots=True)
class ResponseReceived:
    """A success answer to one of our requests (delivered even when it failed validation)."""

    request_id: RequestId
    method: str
    result: Any
    diagnostics: tuple[Diagnostic, ...] = ()


@dataclass(frozen=True, slots=True)
class RequestFailed:
    """One of our requests ended without a result: a JSON-RPC error, a broken answer, a timeout, a lost link."""

    request_id: RequestId
    method: str
    reason: str
    code: int | None = None
    """The JSON-RPC error code when the server sent an error response."""
    data: Any = None
    kind: str = "error"
    """``error`` (server error response), ``invalid`` (unusable answer), ``timeout``, ``cancelled``, ``lost``."""


@dataclass(frozen=True, slots=True)
class NotificationReceived:
    method: str
    params: dict[str, Any] | None
    diagnostics: tuple[Diagnostic, ...] = ()


@dataclass(frozen=True, slots=True)
class ProgressReceived:
    request_id: RequestId
    progress: float
    total: float | None
    message: str | None


@dataclass(frozen=True, slots=True)
class RequestReceived:
    """A server->client request the application must answer with ``respond`` or ``respond_error``."""

    id: RequestId
    method: str
    """The standard method name (``elicitation/request`` arrives as ``elicitation/create``)."""
    params: dict[str, Any] | None
    wire_method: str
    """The method name as sent."""
    diagnostics: tuple[Diagnostic, ...] = ()


@dataclass(frozen=True, slots=True)
class InputRequested:
    """2026-07-28: our request was answered ``input_required``. Answer ``calls`` (each through the handler of
    its method) and pass the results to ``ClientSession.retry_with_input``; the logical request goes on
    under a new id. ``origin`` is the id of the first round."""

    request_id: RequestId
    method: str
    origin: RequestId
    round: int
    calls: tuple[InputCall, ...]
    diagnostics: tuple[Diagnostic, ...] = ()
    subject: str | None = None
    """What the request is about: the tool's or prompt's ``name``, the resource's ``uri`` (None: not given)."""


@dataclass(frozen=True, slots=True)
class RequestCancelledByServer:
    """The server withdrew a request it had sent us; stop working on it and do not answer."""

    id: RequestId
    reason: str | None


Event = (
    HandshakeCompleted
    | HandshakeFailed
    | ResponseReceived
    | RequestFailed
    | NotificationReceived
    | ProgressReceived
    | RequestReceived
    | RequestCancelledByServer
    | InputRequested
)


@dataclass(slots=True)
class Received:
    """One inbound frame: the record of it, and what it means."""

    wire: WireMessage
    events: list[Event] = field(default_factory=list)
