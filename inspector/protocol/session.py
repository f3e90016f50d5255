"""The client side of an MCP session, sans-I/O.

Bytes or frames go in (``receive_data`` / ``receive_frame``); what they mean comes out as
``Received`` records holding the frame's ``WireMessage`` and its events; frames to send
accumulate in an outbox (``pop_outgoing``). No asyncio, no threads, no sockets: the
asyncio layer above moves the bytes, runs handlers and enforces deadlines by calling
``check_timeouts`` (the clock is injectable).

Nothing a server sends raises here. A problem becomes a diagnostic on the frame's record;
the message is still delivered whenever it can be understood.

Eras. This class drives the handshake era (``initialize`` + ``notifications/initialized``).
What differs in the modern era (2026-07-28: ``server/discover``, the per-request ``_meta``
envelope, ``input_required`` results) is confined to ``_open`` (how the session starts),
``_envelope`` (what every request carries) and ``_on_opening_result``; a modern-era session
overrides those three and keeps the request table, gating, validation and dispatch.
"""

from __future__ import annotations

import itertools
import time
from collections import OrderedDict
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from types import ModuleType
from typing import Any, Final

from inspector.protocol import jsonrpc
from inspector.protocol.capabilities import (
    client_capability_for,
    has_capability,
    notification_capability,
    server_capability_for,
)
from inspector.protocol.diagnostics import Diagnostic, DiagnosticCode, Severity
from inspector.protocol.events import (
    Event,
    HandshakeCompleted,
    HandshakeFailed,
    NotificationReceived,
    ProgressReceived,
    Received,
    RequestCancelledByServer,
    RequestFailed,
    RequestReceived,
    ResponseReceived,
)
from inspector.protocol.framing import LineFramer, OversizedLine, decode_frame
from inspector.protocol.jsonrpc import ErrorResponse, Invalid, Notification, Request, Response
from inspector.protocol.limits import DEFAULT_LIMITS, Limits
from inspector.protocol.methods import is_known_server_notification, is_known_server_request
from inspector.protocol.salvage import DECIMAL_ID, finite, salvage_id
from inspector.protocol.session_types import (
    CapabilityNotDeclared,
    InboundRequest,
    LocalProtocolError,
    PendingRequest,
    SessionState,
    Timeouts,
)
from inspector.protocol.versions import DEFAULT_VERSION, HANDSHAKE_VERSIONS, KNOWN_VERSIONS, Era, era_of
from inspector.protocol.wire import Direction, Kind, RequestId, WireMessage

__all__ = [
    "CapabilityNotDeclared",
    "ClientSession",
    "LocalProtocolError",
    "PendingRequest",
    "SessionState",
    "Timeouts",
]

NON_STANDARD_ALIASES: Final[dict[str, str]] = {"elicitation/request": "elicitation/create"}
_RECENT_IDS: Final = 4096


@dataclass(slots=True)
class _Ctx:
    """Per-frame scratch: the record being built and the events found."""

    wire: WireMessage
    events: list[Event] = field(default_factory=list)

    def diag(
        self, code: DiagnosticCode, message: str, severity: Severity = Severity.VIOLATION, path: str | None = None
    ) -> None:
        self.wire.diagnostics.append(Diagnostic(code, message, severity, path))


class ClientSession:
    """One client<->server MCP session (handshake era)."""

    def __init__(
        self,
        *,
        protocol_version: str = DEFAULT_VERSION,
        capabilities: dict[str, Any] | None = None,
        client_info: dict[str, Any] | None = None,
        id_generator: Iterator[RequestId] | None = None,
        clock: Callable[[], float] = time.monotonic,
        default_timeouts: Timeouts | None = None,
        validate: bool = True,
        limits: Limits = DEFAULT_LIMITS,
    ) -> None:
        if protocol_version not in KNOWN_VERSIONS:
            raise ValueError(f"unknown protocol version {protocol_version!r}; known: {', '.join(KNOWN_VERSIONS)}")
        if era_of(protocol_version) is not Era.HANDSHAKE:
            raise ValueError(f"protocol version {protocol_version} belongs to the modern era, not supported yet")
        self.offered_version = protocol_version
        self.protocol_version = protocol_version
        """The negotiated version once READY; the offered one until then."""
        self.client_capabilities: dict[str, Any] = dict(capabilities or {})
        self.client_info: dict[str, Any] = dict(client_info or {"name": "mcp-inspector-desktop", "version": "0.1.0"})
        self.server_capabilities: dict[str, Any] = {}
        self.server_info: dict[str, Any] = {}
        self.instructions: str | None = None
        self.initialize_result: dict[str, Any] | None = None
        self.state = SessionState.NEW
        self.failure: str | None = None
        self.validate = validate
        # Schema validation needs mcp-types, whose import costs about half a second: load it only when used.
        self._validation: ModuleType | None = None
        if validate:
            from inspector.protocol import validation

            self._validation = validation
        self._ids = id_generator if id_generator is not None else itertools.count(1)
        self._clock = clock
        self._default_timeouts = default_timeouts or Timeouts()
        self.limits = limits
        self._framer = LineFramer(limits.message_bytes)
        self._outbox: list[WireMessage] = []
        self._pending: dict[RequestId, PendingRequest] = {}
        self._progress: dict[RequestId, RequestId] = {}
        self._finished: OrderedDict[RequestId, str] = OrderedDict()
        """Recently answered ids -> why they are no longer pending (answered / cancelled / timeout)."""
        self._inbound: dict[RequestId, InboundRequest] = {}
        self._initialize_id: RequestId | None = None

    # ------------------------------------------------------------------ outbound

    def start(self, *, timeouts: Timeouts | None = None) -> RequestId:
        """Queue the opening request (``initialize``) and return its id."""
        if self.state is not SessionState.NEW:
            raise LocalProtocolError(f"session already started (state {self.state})")
        self.state = SessionState.INITIALIZING
        return self._open(timeouts)

    def _open(self, timeouts: Timeouts | None) -> RequestId:
        params = {
            "protocolVersion": self.offered_version,
            "capabilities": self.client_capabilities,
            "clientInfo": self.client_info,
        }
        rid = self._queue_request("initialize", params, timeouts=timeouts)
        self._initialize_id = rid
        return rid

    def send_request(
        self,
        method: str,
        params: dict[str, Any] | None = None,
        *,
        forced: bool = False,
        progress: bool = False,
        timeouts: Timeouts | None = None,
    ) -> RequestId:
        """Queue a request; return its id. Raises LocalProtocolError when it may not be sent now."""
        allowed = self.state is SessionState.READY or (method == "ping" and self.state is SessionState.INITIALIZING)
        if not allowed:
            raise LocalProtocolError(f"cannot send {method}: session is {self.state.value}")
        if method == "initialize":
            raise LocalProtocolError("initialize is sent by start()")
        cap = server_capability_for(method, self.protocol_version)
        is_forced = False
        if cap is not None and not has_capability(self.server_capabilities, cap):
            if not forced:
                raise CapabilityNotDeclared(method, cap)
            is_forced = True
        return self._queue_request(method, params, forced=is_forced, progress=progress, timeouts=timeouts)

    def _queue_request(
        self,
        method: str,
        params: dict[str, Any] | None,
        *,
        forced: bool = False,
        progress: bool = False,
        timeouts: Timeouts | None = None,
    ) -> RequestId:
        rid = next(self._ids)
        while rid in self._pending:
            rid = next(self._ids)
        token: RequestId | None = None
        if progress:
            token = rid
            params = dict(params or {})
            meta = dict(params.get("_meta") or {})
            meta["progressToken"] = token
            params["_meta"] = meta
        params = self._envelope(method, params)
        raw = jsonrpc.request_frame(rid, method, params)
        now = self._clock()
        t = timeouts or self._default_timeouts
        pending = PendingRequest(
            id=rid,
            method=method,
            sent_at=now,
            timeouts=t,
            deadline=None if t.request is None else now + t.request,
            hard_deadline=None if t.max_total is None else now + t.max_total,
            progress_token=token,
            forced=forced,
        )
        self._pending[rid] = pending
        if token is not None:
            self._progress[token] = rid
        wire = WireMessage(Direction.OUT, raw, Kind.REQUEST, method, rid, forced=forced)
        if forced:
            wire.diagnostics.append(
                Diagnostic(
                    DiagnosticCode.FORCED,
                    f"sent although the server did not declare the capability {method} needs",
                    Severity.INFO,
                )
            )
        self._outbox.append(wire)
        return rid

    def _envelope(self, method: str, params: dict[str, Any] | None) -> dict[str, Any] | None:
        """What every request carries besides its own params (nothing in the handshake era)."""
        return params

    def send_notification(self, method: str, params: dict[str, Any] | None = None) -> None:
        raw = jsonrpc.notification_frame(method, params)
        self._outbox.append(WireMessage(Direction.OUT, raw, Kind.NOTIFICATION, method))

    def respond(self, request_id: RequestId, result: dict[str, Any]) -> None:
        """Answer a server request (RequestReceived) with a result. A result that is not JSON raises TypeError
        or ValueError, and the request still waits for an answer (e.g. an error saying so)."""
        inbound = self._inbound.get(request_id)
        if inbound is None:
            raise LocalProtocolError(f"no server request {request_id!r} is waiting for an answer")
        raw = jsonrpc.response_frame(request_id, result)
        del self._inbound[request_id]
        wire = WireMessage(Direction.OUT, raw, Kind.RESPONSE, inbound.wire_method, request_id)
        if self._validation is not None:
            for d in self._validation.validate_client_result(inbound.method, self.protocol_version, result):
                wire.diagnostics.append(Diagnostic(d.code, f"our answer: {d.message}", Severity.WARNING, d.path))
        self._outbox.append(wire)

    def respond_error(self, request_id: RequestId, code: int, message: str, data: Any = None) -> None:
        """Answer a server request with a JSON-RPC error."""
        inbound = self._inbound.pop(request_id, None)
        if inbound is None:
            raise LocalProtocolError(f"no server request {request_id!r} is waiting for an answer")
        self._queue_error(request_id, code, message, data, inbound.wire_method)

    def _queue_error(self, rid: RequestId | None, code: int, message: str, data: Any, method: str | None) -> None:
        raw = jsonrpc.error_frame(rid, code, message, data)
        self._outbox.append(WireMessage(Direction.OUT, raw, Kind.ERROR, method, rid))

    def is_answerable(self, request_id: RequestId) -> bool:
        """True while a server request still waits for our answer (not answered, not withdrawn)."""
        return request_id in self._inbound

    def cancel(self, request_id: RequestId, reason: str | None = None) -> RequestFailed | None:
        """Withdraw one of our requests: notifies the server and forgets the request."""
        pending = self._pending.pop(request_id, None)
        if pending is None:
            return None
        self._forget(pending, "cancelled")
        if pending.method == "initialize":
            self._fail(reason or "initialize was cancelled")
        if pending.method != "initialize":  # the spec forbids cancelling initialize
            params: dict[str, Any] = {"requestId": request_id}
            if reason:
                params["reason"] = reason
            self.send_notification("notifications/cancelled", params)
        return RequestFailed(request_id, pending.method, reason or "cancelled", kind="cancelled")

    def pop_outgoing(self) -> list[WireMessage]:
        """Take every frame queued for sending, in order."""
        out, self._outbox = self._outbox, []
        return out

    # ------------------------------------------------------------------ time

    def next_deadline(self) -> float | None:
        deadlines = [d for p in self._pending.values() if (d := p.next_deadline()) is not None]
        return min(deadlines) if deadlines else None

    def check_timeouts(self) -> list[RequestFailed]:
        """Fail (and cancel at the server) every request whose deadline passed."""
        now = self._clock()
        failed: list[RequestFailed] = []
        for pending in list(self._pending.values()):
            d = pending.next_deadline()
            if d is None or d > now:
                continue
            hard = pending.hard_deadline is not None and pending.hard_deadline <= now
            if hard:
                reason = f"{pending.method} exceeded the maximum total time of {pending.timeouts.max_total:g} s"
            else:
                reason = f"{pending.method} timed out after {pending.timeouts.request:g} s without an answer"
            self.cancel(pending.id, reason)
            self._finished[pending.id] = "timeout"
            failed.append(
                RequestFailed(pending.id, pending.method, reason, code=jsonrpc.REQUEST_TIMEOUT, kind="timeout")
            )
            if pending.method == "initialize":
                self._fail(reason)
        return failed

    def connection_lost(self, reason: str) -> list[RequestFailed]:
        """The transport is gone: every pending request fails at once."""
        failed = [RequestFailed(p.id, p.method, reason, kind="lost") for p in self._pending.values()]
        for p in list(self._pending.values()):
            self._forget(p, "lost")
        self._pending.clear()
        self._inbound.clear()
        if self.state in (SessionState.NEW, SessionState.INITIALIZING):
            self._fail(reason)
        elif self.state is SessionState.READY:
            self.state = SessionState.CLOSED
        return failed

    @property
    def pending(self) -> dict[RequestId, PendingRequest]:
        return self._pending

    # ------------------------------------------------------------------ inbound

    def receive_data(self, data: bytes) -> list[Received]:
        """Feed stream bytes (stdio); return one Received per complete frame (or oversized line)."""
        return [
            self.receive_oversized(line) if isinstance(line, OversizedLine) else self.receive_frame(line)
            for line in self._framer.feed(data)
        ]

    def end_of_data(self) -> list[Received]:
        """The stream ended; a last line without newline still counts as a frame."""
        rest = self._framer.flush()
        return [self.receive_frame(rest)] if rest is not None else []

    def receive_oversized(self, line: OversizedLine) -> Received:
        """A frame longer than ``limits.message_bytes``: only its head was kept. Logged with a diagnostic
        naming the limit; the answer it was (when its id stands near the start) fails at once."""
        figure = line.size if line.complete else None
        breach = self.limits.replace(message_bytes=line.limit).exceeded("message_bytes", "a message", figure)
        diagnostic = Diagnostic(DiagnosticCode.LIMIT_EXCEEDED, f"{breach}; the rest of it was dropped", raw=line.head)
        return self._unreadable(line.head, diagnostic, reply=False)

    def receive_frame(self, raw: bytes) -> Received:
        """Process one complete frame (one line, one HTTP body, one SSE event)."""
        decoded = decode_frame(raw)
        if not decoded.ok:
            assert decoded.diagnostic is not None
            return self._unreadable(
                raw, decoded.diagnostic, reply=decoded.diagnostic.code is not DiagnosticCode.JSON_TOO_DEEP
            )
        value = decoded.value
        wire = WireMessage(Direction.IN, raw, Kind.INVALID)
        ctx = _Ctx(wire)
        if isinstance(value, list):
            self._on_batch(value, ctx)
        else:
            self._dispatch(value, ctx, first=True)
        return Received(wire, ctx.events)

    def _unreadable(self, raw: bytes, diagnostic: Diagnostic, *, reply: bool) -> Received:
        """A frame that cannot be parsed (or was too large to keep): logged with ``diagnostic``; when it is (the
        start of) an answer we wait for, that request fails now instead of at its deadline; otherwise it is
        answered with a parse error (id null) when ``reply``."""
        wire = WireMessage(Direction.IN, raw, Kind.INVALID)
        wire.diagnostics.append(diagnostic)
        ctx = _Ctx(wire)
        salvaged = salvage_id(raw)
        if salvaged is None or salvaged not in self._pending:
            if reply:
                # JSON-RPC: what cannot be parsed is answered with a parse error (id null)
                self._queue_error(None, jsonrpc.PARSE_ERROR, f"Parse error: {diagnostic.message}", None, None)
            return Received(wire, ctx.events)
        pending = self._pending.pop(salvaged)
        self._forget(pending, "answered")
        self._stamp(ctx, True, Kind.RESPONSE, salvaged, pending)
        ctx.wire.kind = Kind.INVALID
        reason = f"the answer could not be read: {diagnostic.message}"
        if pending.id == self._initialize_id:
            self._fail(reason)
            ctx.events.append(HandshakeFailed(reason))
        else:
            ctx.events.append(RequestFailed(pending.id, pending.method, reason, kind="invalid"))
        return Received(wire, ctx.events)

    def _on_batch(self, items: list[Any], ctx: _Ctx) -> None:
        if not items:
            ctx.diag(DiagnosticCode.BATCH_UNSUPPORTED, "empty JSON-RPC batch")
            self._queue_error(None, jsonrpc.INVALID_REQUEST, "Invalid request: empty batch", None, None)
            return
        if self.protocol_version != "2025-03-26":
            ctx.diag(
                DiagnosticCode.BATCH_UNSUPPORTED,
                f"JSON-RPC batches are not part of MCP {self.protocol_version} (only 2025-03-26 allowed them)",
            )
        for i, item in enumerate(items):
            self._dispatch(item, ctx, first=(i == 0))

    def _dispatch(self, value: Any, ctx: _Ctx, *, first: bool) -> None:
        msg, diags = jsonrpc.classify(value)
        ctx.wire.diagnostics.extend(diags)
        if isinstance(msg, Response):
            self._on_response(msg, ctx, first)
        elif isinstance(msg, ErrorResponse):
            self._on_error(msg, ctx, first)
        elif isinstance(msg, Notification):
            if first:
                ctx.wire.kind, ctx.wire.method = Kind.NOTIFICATION, msg.method
            self._on_notification(msg, ctx)
        elif isinstance(msg, Request):
            if first:
                ctx.wire.kind, ctx.wire.method, ctx.wire.id = Kind.REQUEST, msg.method, msg.id
            self._on_request(msg, ctx)
        else:
            self._on_invalid(msg, ctx, first)

    # -- answers to our requests

    def _match(self, rid: RequestId | None, ctx: _Ctx) -> PendingRequest | None:
        if rid is None:
            return None
        pending = self._pending.pop(rid, None)
        if pending is not None:
            return pending
        alt: RequestId | None = None
        if isinstance(rid, str) and DECIMAL_ID.fullmatch(rid):
            alt = int(rid)
        elif isinstance(rid, int):
            alt = str(rid)
        if alt is not None and alt in self._pending:
            ctx.diag(
                DiagnosticCode.ID_TYPE_MISMATCH,
                f"response id {rid!r} has a different JSON type than the request id {alt!r}",
                path="$.id",
            )
            return self._pending.pop(alt)
        why = self._finished.get(rid)
        if why == "answered":
            ctx.diag(DiagnosticCode.DUPLICATE_RESPONSE, f"a second answer for request {rid!r}; the first one was kept")
        elif why in ("cancelled", "timeout"):
            ctx.diag(
                DiagnosticCode.LATE_RESPONSE,
                f"answer for request {rid!r} arrived after it was {why if why == 'cancelled' else 'timed out'}",
                Severity.INFO,
            )
        elif why == "lost":
            ctx.diag(DiagnosticCode.LATE_RESPONSE, f"answer for request {rid!r} after the connection was lost")
        else:
            ctx.diag(DiagnosticCode.UNKNOWN_RESPONSE_ID, f"response for id {rid!r}, which no request of ours has")
        return None

    def _forget(self, pending: PendingRequest, why: str) -> None:
        if pending.progress_token is not None:
            self._progress.pop(pending.progress_token, None)
        self._finished[pending.id] = why
        if len(self._finished) > _RECENT_IDS:
            self._finished.popitem(last=False)

    def _stamp(self, ctx: _Ctx, first: bool, kind: Kind, rid: RequestId | None, pending: PendingRequest | None) -> None:
        if not first:
            return
        ctx.wire.kind, ctx.wire.id = kind, rid
        if pending is not None:
            ctx.wire.method = pending.method
            ctx.wire.latency = self._clock() - pending.sent_at

    def _on_response(self, msg: Response, ctx: _Ctx, first: bool) -> None:
        pending = self._match(msg.id, ctx)
        self._stamp(ctx, first, Kind.RESPONSE, msg.id, pending)
        if pending is None:
            return
        self._forget(pending, "answered")
        diags: list[Diagnostic] = []
        if self._validation is not None:
            diags = self._validation.validate_server_result(pending.method, self.protocol_version, msg.result)
            ctx.wire.diagnostics.extend(diags)
        if pending.id == self._initialize_id:
            self._on_opening_result(msg.result, ctx)
            return
        ctx.events.append(ResponseReceived(pending.id, pending.method, msg.result, tuple(diags)))

    def _on_error(self, msg: ErrorResponse, ctx: _Ctx, first: bool) -> None:
        pending = self._match(msg.id, ctx) if msg.id is not None else None
        if msg.id is None:
            ctx.diag(
                DiagnosticCode.UNKNOWN_RESPONSE_ID,
                f"error with id null (the server could not read something we sent): {msg.message}",
                Severity.WARNING,
            )
        self._stamp(ctx, first, Kind.ERROR, msg.id, pending)
        if pending is None:
            return
        self._forget(pending, "answered")
        name = jsonrpc.ERROR_NAMES.get(msg.code or 0)
        reason = msg.message or name or "error"
        if pending.id == self._initialize_id:
            self._fail(f"the server refused initialize: {reason}")
            ctx.events.append(HandshakeFailed(self.failure or reason, msg.code, msg.data))
            return
        ctx.events.append(RequestFailed(pending.id, pending.method, reason, msg.code, msg.data, kind="error"))

    def _on_invalid(self, msg: Invalid, ctx: _Ctx, first: bool) -> None:
        if msg.answers is not None:
            pending = self._match(msg.answers, ctx)
            self._stamp(ctx, first, Kind.RESPONSE, msg.answers, pending)
            if pending is not None:
                self._forget(pending, "answered")
                if pending.id == self._initialize_id:
                    self._fail(f"unusable answer to initialize: {msg.reason}")
                    ctx.events.append(HandshakeFailed(self.failure or msg.reason))
                else:
                    ctx.events.append(RequestFailed(pending.id, pending.method, msg.reason, kind="invalid"))
            return
        if first and msg.method is not None:
            ctx.wire.method = msg.method
        if msg.reply_code is not None:
            self._queue_error(
                msg.reply_id, msg.reply_code, f"{jsonrpc.ERROR_NAMES[msg.reply_code]}: {msg.reason}", None, msg.method
            )

    # -- the opening

    def _on_opening_result(self, result: Any, ctx: _Ctx) -> None:
        if not isinstance(result, dict):
            self._fail("the initialize result is not an object")
            ctx.events.append(HandshakeFailed(self.failure or ""))
            return
        version = result.get("protocolVersion")
        if not isinstance(version, str) or version not in HANDSHAKE_VERSIONS:
            known = ", ".join(HANDSHAKE_VERSIONS)
            self._fail(
                f"the server chose protocol version {version!r}, which this client does not speak (known: {known})"
            )
            ctx.diag(DiagnosticCode.VERSION_MISMATCH, self.failure or "", path="$.result.protocolVersion")
            ctx.events.append(HandshakeFailed(self.failure or ""))
            return
        if version != self.offered_version:
            ctx.diag(
                DiagnosticCode.VERSION_MISMATCH,
                f"the server chose protocol version {version} instead of the offered {self.offered_version}",
                Severity.INFO,
                "$.result.protocolVersion",
            )
        self.protocol_version = version
        caps = result.get("capabilities")
        info = result.get("serverInfo")
        instructions = result.get("instructions")
        self.server_capabilities = caps if isinstance(caps, dict) else {}
        self.server_info = info if isinstance(info, dict) else {}
        self.instructions = instructions if isinstance(instructions, str) else None
        self.initialize_result = result
        self.state = SessionState.READY
        self.send_notification("notifications/initialized")
        ctx.events.append(HandshakeCompleted(version, result))

    def _fail(self, reason: str) -> None:
        if self.state is not SessionState.FAILED:
            self.state = SessionState.FAILED
            self.failure = reason

    # -- server notifications

    def _on_notification(self, msg: Notification, ctx: _Ctx) -> None:
        method, params = msg.method, msg.params
        if self.state is not SessionState.READY and method != "notifications/message":
            ctx.diag(DiagnosticCode.BEFORE_HANDSHAKE, f"{method} sent before the handshake completed", Severity.WARNING)
        diags: list[Diagnostic] = []
        if is_known_server_notification(method, self.protocol_version):
            if self._validation is not None:
                diags = self._validation.validate_server_notification(method, self.protocol_version, params)
                ctx.wire.diagnostics.extend(diags)
        else:
            ctx.diag(
                DiagnosticCode.UNKNOWN_METHOD,
                f"{method} is not a server notification in MCP {self.protocol_version}",
                Severity.WARNING,
            )
        cap = notification_capability(method)
        if cap is not None and self.state is SessionState.READY and not has_capability(self.server_capabilities, cap):
            ctx.diag(
                DiagnosticCode.UNDECLARED_CAPABILITY,
                f"{method} sent, but the server did not declare '{cap}'",
                Severity.WARNING,
            )
        if method == "notifications/progress" and isinstance(params, dict):
            self._on_progress(params, ctx)
        elif method == "notifications/cancelled" and isinstance(params, dict):
            rid = params.get("requestId")
            if jsonrpc.is_valid_id(rid) and rid in self._inbound:
                del self._inbound[rid]
                reason = params.get("reason")
                ctx.events.append(RequestCancelledByServer(rid, reason if isinstance(reason, str) else None))
            else:
                ctx.diag(
                    DiagnosticCode.UNKNOWN_RESPONSE_ID,
                    f"cancellation of {rid!r}, which is not a request the server has pending with us",
                    Severity.INFO,
                )
        ctx.events.append(NotificationReceived(method, params, tuple(diags)))

    def _on_progress(self, params: dict[str, Any], ctx: _Ctx) -> None:
        token = params.get("progressToken")
        rid = self._progress.get(token) if jsonrpc.is_valid_id(token) else None  # type: ignore[arg-type]
        pending = self._pending.get(rid) if rid is not None else None
        if pending is None:
            ctx.diag(
                DiagnosticCode.UNKNOWN_PROGRESS_TOKEN,
                f"progress for token {token!r}, which matches no pending request",
                Severity.WARNING,
                "$.params.progressToken",
            )
            return
        progress = finite(params.get("progress"))
        if progress is None:
            if self._validation is None:
                ctx.diag(DiagnosticCode.SCHEMA, "progress must be a number", path="$.params.progress")
            return  # with validation on, the schema check reported it
        if pending.last_progress is not None and progress <= pending.last_progress:
            ctx.diag(
                DiagnosticCode.SCHEMA,
                f"progress went from {pending.last_progress:g} to {progress:g}; it must increase",
                Severity.WARNING,
                "$.params.progress",
            )
        pending.last_progress = progress
        if pending.timeouts.reset_on_progress and pending.timeouts.request is not None:
            pending.deadline = self._clock() + pending.timeouts.request
        message = params.get("message")
        ctx.events.append(
            ProgressReceived(
                pending.id, progress, finite(params.get("total")), message if isinstance(message, str) else None
            )
        )

    # -- server requests

    def _on_request(self, msg: Request, ctx: _Ctx) -> None:
        wire_method = msg.method
        method = NON_STANDARD_ALIASES.get(wire_method, wire_method)
        if method != wire_method:
            ctx.diag(
                DiagnosticCode.NON_STANDARD_METHOD,
                f"{wire_method} is not a standard MCP method; the spec calls it {method}. Answered as {method}.",
                Severity.WARNING,
                "$.method",
            )
        if msg.id in self._inbound:
            ctx.diag(DiagnosticCode.DUPLICATE_RESPONSE, f"request id {msg.id!r} reused while still pending")
        if method == "ping":
            self._inbound[msg.id] = InboundRequest(method, wire_method)
            self.respond(msg.id, {})
            return
        if self.state is not SessionState.READY:
            ctx.diag(DiagnosticCode.BEFORE_HANDSHAKE, f"{wire_method} request sent before the handshake completed")
        version = self.protocol_version
        if not is_known_server_request(method, version):
            ctx.diag(
                DiagnosticCode.UNKNOWN_METHOD,
                f"{wire_method} is not a request a server may send in MCP {version}",
                Severity.WARNING,
            )
            self._queue_error(msg.id, jsonrpc.METHOD_NOT_FOUND, f"Method not found: {wire_method}", None, wire_method)
            return
        cap = client_capability_for(method)
        if cap is not None and not has_capability(self.client_capabilities, cap):
            ctx.diag(
                DiagnosticCode.UNDECLARED_CAPABILITY,
                f"the server sent {wire_method} although the client did not declare the '{cap}' capability",
            )
            self._queue_error(
                msg.id,
                jsonrpc.METHOD_NOT_FOUND,
                f"Method not found: the client did not declare the '{cap}' capability",
                None,
                wire_method,
            )
            return
        diags: list[Diagnostic] = []
        if self._validation is not None:
            diags = self._validation.validate_server_request(method, version, msg.params)
            ctx.wire.diagnostics.extend(diags)
        self._inbound[msg.id] = InboundRequest(method, wire_method)
        ctx.events.append(RequestReceived(msg.id, method, msg.params, wire_method, tuple(diags)))
