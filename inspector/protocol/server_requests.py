"""Requests the server sends the client: which of them wait for our answer, and the screening of a new one
(non-standard aliases, reused ids, ``ping`` answered at once, methods the era or our capabilities rule out,
schema validation) before it reaches the caller as ``RequestReceived``."""

from __future__ import annotations

from dataclasses import dataclass
from types import ModuleType
from typing import Any, Final

from inspector.protocol import jsonrpc
from inspector.protocol.capabilities import client_capability_for, has_capability
from inspector.protocol.diagnostics import Diagnostic, DiagnosticCode, Severity
from inspector.protocol.events import RequestCancelledByServer, RequestReceived
from inspector.protocol.frame_context import FrameContext
from inspector.protocol.jsonrpc import Request
from inspector.protocol.methods import is_known_server_request
from inspector.protocol.session_types import InboundRequest, LocalProtocolError
from inspector.protocol.wire import RequestId

__all__ = ["NON_STANDARD_ALIASES", "AnswerNow", "RefuseNow", "ServerRequests"]

NON_STANDARD_ALIASES: Final[dict[str, str]] = {"elicitation/request": "elicitation/create"}


@dataclass(frozen=True, slots=True)
class AnswerNow:
    """Answer the request at once with this result (no caller involved: ``ping``)."""

    result: dict[str, Any]


@dataclass(frozen=True, slots=True)
class RefuseNow:
    """Answer the request at once with this JSON-RPC error (it must not reach the caller)."""

    code: int
    message: str


class ServerRequests:
    """The server's requests that wait for our answer, and the screening of each new one."""

    def __init__(self, validation: ModuleType | None) -> None:
        self._validation = validation
        self._waiting: dict[RequestId, InboundRequest] = {}

    def __contains__(self, rid: object) -> bool:
        return rid in self._waiting

    def get(self, rid: RequestId) -> InboundRequest:
        """The request ``rid`` waiting for an answer; raises LocalProtocolError when none is."""
        inbound = self._waiting.get(rid)
        if inbound is None:
            raise LocalProtocolError(f"no server request {rid!r} is waiting for an answer")
        return inbound

    def answered(self, rid: RequestId) -> None:
        """The request got its answer: it no longer waits."""
        del self._waiting[rid]

    def clear(self) -> None:
        self._waiting.clear()

    def receive(
        self,
        msg: Request,
        ctx: FrameContext,
        *,
        version: str,
        settled: bool,
        client_capabilities: dict[str, Any],
    ) -> AnswerNow | RefuseNow | None:
        """Screen a request from the server (``settled``: the opening is over). Returns what to answer at once,
        or None when the request waits for the caller (a ``RequestReceived`` on ``ctx``)."""
        wire_method = msg.method
        method = NON_STANDARD_ALIASES.get(wire_method, wire_method)
        if method != wire_method:
            ctx.diag(
                DiagnosticCode.NON_STANDARD_METHOD,
                f"{wire_method} is not a standard MCP method; the spec calls it {method}. Answered as {method}.",
                Severity.WARNING,
                "$.method",
            )
        if msg.id in self._waiting:
            ctx.diag(DiagnosticCode.DUPLICATE_RESPONSE, f"request id {msg.id!r} reused while still pending")
        if method == "ping":
            self._waiting[msg.id] = InboundRequest(method, wire_method)
            return AnswerNow({})
        if not settled:
            ctx.diag(DiagnosticCode.BEFORE_HANDSHAKE, f"{wire_method} request sent before the handshake completed")
        if not is_known_server_request(method, version):
            ctx.diag(
                DiagnosticCode.UNKNOWN_METHOD,
                f"{wire_method} is not a request a server may send in MCP {version}",
                Severity.WARNING,
            )
            return RefuseNow(jsonrpc.METHOD_NOT_FOUND, f"Method not found: {wire_method}")
        cap = client_capability_for(method)
        if cap is not None and not has_capability(client_capabilities, cap):
            ctx.diag(
                DiagnosticCode.UNDECLARED_CAPABILITY,
                f"the server sent {wire_method} although the client did not declare the '{cap}' capability",
            )
            return RefuseNow(
                jsonrpc.METHOD_NOT_FOUND, f"Method not found: the client did not declare the '{cap}' capability"
            )
        diags: list[Diagnostic] = []
        if self._validation is not None:
            diags = self._validation.validate_server_request(method, version, msg.params)
            ctx.wire.diagnostics.extend(diags)
        self._waiting[msg.id] = InboundRequest(method, wire_method)
        ctx.events.append(RequestReceived(msg.id, method, msg.params, wire_method, tuple(diags)))
        return None

    def on_cancelled(self, params: dict[str, Any], ctx: FrameContext) -> None:
        """``notifications/cancelled`` from the server: the request it names no longer waits for an answer."""
        rid = params.get("requestId")
        if jsonrpc.is_valid_id(rid) and rid in self._waiting:
            del self._waiting[rid]
            reason = params.get("reason")
            ctx.events.append(RequestCancelledByServer(rid, reason if isinstance(reason, str) else None))
        else:
            ctx.diag(
                DiagnosticCode.UNKNOWN_RESPONSE_ID,
                f"cancellation of {rid!r}, which is not a request the server has pending with us",
                Severity.INFO,
            )
