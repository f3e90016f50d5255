"""The client side of an MCP session, sans-I/O.

Bytes or frames go in (``receive_data`` / ``receive_frame``); what they mean comes out as
``Received`` records holding the frame's ``WireMessage`` and its events; frames to send
accumulate in an outbox (``pop_outgoing``). No asyncio, no threads, no sockets: the
asyncio layer above moves the bytes, runs handlers and enforces deadlines by calling
``check_timeouts`` (the clock is injectable).

Nothing a server sends raises here. A problem becomes a diagnostic on the frame's record;
the message is still delivered whenever it can be understood.

States: every change of state and every "may this be sent now" goes through the table in
:mod:`inspector.protocol.transitions`. Eras: what differs between the handshake era (``initialize``) and
2026-07-28 (``server/discover``, the ``_meta`` envelope, per-message HTTP headers, ``input_required``
results) is an :class:`~inspector.protocol.eras.EraRules` strategy chosen by :func:`rules_for` from the
offered version; the request table, id matching, diagnostics, validation and cancellation are this
class's, shared by both. :func:`new_session` is the one factory the client layer builds sessions with.
"""

from __future__ import annotations

import itertools
import time
from collections import OrderedDict
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from types import ModuleType
from typing import Any, Final

from inspector.protocol import jsonrpc, mrtr
from inspector.protocol.capabilities import (
    client_capability_for,
    has_capability,
    notification_capability,
    server_capability_for,
)
from inspector.protocol.diagnostics import Diagnostic, DiagnosticCode, Severity
from inspector.protocol.eras import EraRules, rules_for
from inspector.protocol.events import (
    Event,
    HandshakeCompleted,
    HandshakeFailed,
    InputRequested,
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
from inspector.protocol.transitions import RECEIVING, SendPermit, SessionEvent, next_state, send_permit
from inspector.protocol.versions import DEFAULT_VERSION, KNOWN_VERSIONS
from inspector.protocol.wire import Direction, Kind, RequestId, WireMessage

__all__ = [
    "CapabilityNotDeclared",
    "ClientSession",
    "LocalProtocolError",
    "PendingRequest",
    "SessionOffer",
    "SessionState",
    "Timeouts",
    "new_session",
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


@dataclass(frozen=True, slots=True)
class SessionOffer:
    """What a session offers the server: kept by the client layer to build the next session the same way."""

    protocol_version: str = DEFAULT_VERSION
    capabilities: dict[str, Any] = field(default_factory=dict)
    client_info: dict[str, Any] | None = None


@dataclass(slots=True)
class _Interim:
    """A logical request between an ``input_required`` answer and its retry."""

    pending: PendingRequest
    required: mrtr.InputRequired


class ClientSession:
    """One client<->server MCP session, in the era of its offered protocol version."""

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
        self.rules: EraRules = rules_for(protocol_version)
        self.era = self.rules.era
        self.offered_version = protocol_version
        self.protocol_version = protocol_version
        """The negotiated version once READY; the offered one until then."""
        self.client_capabilities: dict[str, Any] = dict(capabilities or {})
        self.client_info: dict[str, Any] = dict(client_info or {"name": "mcp-inspector-desktop", "version": "0.1.0"})
        self.server_capabilities: dict[str, Any] = {}
        self.server_info: dict[str, Any] = {}
        self.instructions: str | None = None
        self.initialize_result: dict[str, Any] | None = None
        """The opening result (initialize's or server/discover's)."""
        self.header_rules = False
        """Per-message HTTP headers reach the server (Streamable HTTP): the 2026-07-28 header rules apply
        (headers computed for each request, tools with invalid ``x-mcp-header`` annotations dropped)."""
        self.cancel_notifies = True
        """Cancelling a request sends ``notifications/cancelled`` (off where the transport cancels by closing
        the request's stream: Streamable HTTP in 2026-07-28)."""
        self.log_level: str | None = None
        """2026-07-28: the log level every request asks for in ``_meta`` (None: no log messages)."""
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
        self._interim: dict[RequestId, _Interim] = {}
        self._opening_id: RequestId | None = None

    @property
    def offer(self) -> SessionOffer:
        return SessionOffer(self.offered_version, self.client_capabilities, self.client_info)

    def _to(self, event: SessionEvent) -> None:
        self.state = next_state(self.state, event)

    # ------------------------------------------------------------------ outbound

    def start(self, *, timeouts: Timeouts | None = None) -> RequestId:
        """Queue the opening request (``initialize`` / ``server/discover``) and return its id."""
        self._to(SessionEvent.START)  # the table refuses a second start
        rid = self._queue_request(self.rules.opening_method, None, timeouts=timeouts, opening=True)
        self._opening_id = rid
        return rid

    def open_from(self, result: dict[str, Any]) -> list[Event]:
        """Open with an opening result the client already has (a fresh cached server/discover answer), without
        sending anything; the events are those its arrival would give (``HandshakeCompleted`` / ``Failed``)."""
        if not self.rules.opening_repeatable:
            raise LocalProtocolError(f"{self.rules.opening_method} results cannot be reused")
        self._to(SessionEvent.START)
        ctx = _Ctx(WireMessage(Direction.IN, b"", Kind.RESPONSE, self.rules.opening_method))
        self._on_opening_result(result, ctx)
        return ctx.events

    @property
    def opening_method(self) -> str:
        return self.rules.opening_method

    def is_opening(self, request_id: RequestId | None) -> bool:
        return request_id is not None and request_id == self._opening_id

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
        permit = send_permit(self.state)
        if permit is SendPermit.NOTHING or (permit is SendPermit.OPENING and method not in self.rules.early_methods):
            raise LocalProtocolError(f"cannot send {method}: session is {self.state.value}")
        if method == self.rules.opening_method and not self.rules.opening_repeatable:
            raise LocalProtocolError(f"{method} is sent by start()")
        is_forced = False
        if method in self.rules.removed_methods:
            if not forced:
                raise LocalProtocolError(
                    f"{method} does not exist in MCP {self.protocol_version} (force it to send anyway)"
                )
            is_forced = True
        cap = server_capability_for(method, self.protocol_version)
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
        opening: bool = False,
        origin: RequestId | None = None,
        round_: int = 1,
    ) -> RequestId:
        rid = next(self._ids)
        while rid in self._pending:
            rid = next(self._ids)
        token: RequestId | None = None
        given = params
        if progress:
            token = rid
            params = dict(params or {})
            meta = dict(params.get("_meta") or {})
            meta["progressToken"] = token
            params["_meta"] = meta
        params = self.rules.opening_params(self) if opening else self.rules.envelope(self, method, params)
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
            params=given,
            origin=rid if origin is None else origin,
            round=round_,
        )
        self._pending[rid] = pending
        if token is not None:
            self._progress[token] = rid
        wire = WireMessage(Direction.OUT, raw, Kind.REQUEST, method, rid, forced=forced)
        wire.headers = self.rules.headers(self, method, params)
        if round_ > 1:
            wire.origin, wire.round = pending.origin, round_
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

    def send_notification(self, method: str, params: dict[str, Any] | None = None) -> None:
        raw = jsonrpc.notification_frame(method, params)
        wire = WireMessage(Direction.OUT, raw, Kind.NOTIFICATION, method)
        wire.headers = self.rules.headers(self, method, params)
        self._outbox.append(wire)

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
        interim = self._interim.pop(request_id, None)
        if interim is not None:  # between rounds: nothing is at the server to cancel
            return RequestFailed(request_id, interim.pending.method, reason or "cancelled", kind="cancelled")
        pending = self._pending.pop(request_id, None)
        if pending is None:
            return None
        self._forget(pending, "cancelled")
        opening = self.is_opening(pending.id)
        if opening:
            self._fail(reason or f"{pending.method} was cancelled")
        # (the handshake era forbids cancelling initialize)
        if self.cancel_notifies and (not opening or self.rules.cancel_opening_notifies):
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
            if self.is_opening(pending.id):
                self._fail(reason)
        return failed

    def connection_lost(self, reason: str) -> list[RequestFailed]:
        """The transport is gone: every pending request fails at once."""
        failed = [RequestFailed(p.id, p.method, reason, kind="lost") for p in self._pending.values()]
        for p in list(self._pending.values()):
            self._forget(p, "lost")
        failed += [RequestFailed(rid, i.pending.method, reason, kind="lost") for rid, i in self._interim.items()]
        self._pending.clear()
        self._inbound.clear()
        self._interim.clear()
        self._to(SessionEvent.LOST)
        if self.failure is None and self.state is SessionState.FAILED:  # lost before it ever opened
            self.failure = reason
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
        if self.is_opening(pending.id):
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
            if _creates_task(pending, msg.result):  # a task handle, not the method's own result
                diags = self._validation.validate_task_handle(self.protocol_version, msg.result)
            else:
                diags = self._validation.validate_server_result(pending.method, self.protocol_version, msg.result)
        result = self.rules.observe_result(self, pending.method, msg.result, diags)
        ctx.wire.diagnostics.extend(diags)
        if self.is_opening(pending.id):
            self._on_opening_result(result, ctx)
            return
        kind = mrtr.result_type(result)
        if kind == "input_required" and isinstance(result, dict):
            self._on_input_required(pending, result, ctx, diags)
            return
        ctx.events.append(ResponseReceived(pending.id, pending.method, result, tuple(diags)))

    def _on_input_required(
        self, pending: PendingRequest, result: dict[str, Any], ctx: _Ctx, diags: list[Diagnostic]
    ) -> None:
        if pending.method not in mrtr.MRTR_METHODS:
            reason = (
                f"the server answered {pending.method} with input_required, which only "
                f"{', '.join(sorted(mrtr.MRTR_METHODS))} may get"
            )
            ctx.diag(DiagnosticCode.SCHEMA, reason, path="$.result.resultType")
            ctx.events.append(RequestFailed(pending.id, pending.method, reason, kind="invalid"))
            return
        required = mrtr.parse_input_required(result)
        ctx.wire.diagnostics.extend(required.diagnostics)
        for call in required.calls:
            cap = client_capability_for(call.method)
            if cap is not None and not has_capability(self.client_capabilities, cap):
                ctx.diag(
                    DiagnosticCode.UNDECLARED_CAPABILITY,
                    f"the server asked for {call.method} (input {call.key!r}) although the client did not "
                    f"declare '{cap}'",
                    path=f"$.result.inputRequests[{call.key!r}]",
                )
        if pending.round >= mrtr.MAX_INPUT_ROUNDS:
            reason = (
                f"{pending.method}: the server asked for input {pending.round} times in a row; giving up "
                f"(at most {mrtr.MAX_INPUT_ROUNDS} rounds)"
            )
            ctx.events.append(RequestFailed(pending.id, pending.method, reason, kind="invalid"))
            return
        self._interim[pending.id] = _Interim(pending, required)
        all_diags = tuple(diags) + required.diagnostics
        ctx.events.append(
            InputRequested(
                pending.id, pending.method, pending.origin or pending.id, pending.round, required.calls, all_diags
            )
        )

    def retry_with_input(self, request_id: RequestId, responses: dict[str, Any]) -> RequestId:
        """Send the next round of a request answered ``input_required`` (``InputRequested``): the original
        params with ``inputResponses`` and the echoed ``requestState``, under a new id. Returns that id."""
        interim = self._interim.pop(request_id, None)
        if interim is None:
            raise LocalProtocolError(f"request {request_id!r} is not waiting for input")
        if send_permit(self.state) is not SendPermit.ANYTHING:
            raise LocalProtocolError(f"cannot retry {interim.pending.method}: session is {self.state.value}")
        p = interim.pending
        params = mrtr.retry_params(p.params, responses, interim.required)
        return self._queue_request(
            p.method, params, forced=p.forced, progress=p.progress_token is not None, timeouts=p.timeouts,
            origin=p.origin, round_=p.round + 1,
        )  # fmt: skip

    def waiting_for_input(self, request_id: RequestId) -> bool:
        return request_id in self._interim

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
        if self.is_opening(pending.id):
            self._fail(f"the server refused {pending.method}: {reason}")
            ctx.events.append(HandshakeFailed(self.failure or reason, msg.code, msg.data))
            return
        ctx.events.append(RequestFailed(pending.id, pending.method, reason, msg.code, msg.data, kind="error"))

    def _on_invalid(self, msg: Invalid, ctx: _Ctx, first: bool) -> None:
        if msg.answers is not None:
            pending = self._match(msg.answers, ctx)
            self._stamp(ctx, first, Kind.RESPONSE, msg.answers, pending)
            if pending is not None:
                self._forget(pending, "answered")
                if self.is_opening(pending.id):
                    self._fail(f"unusable answer to {pending.method}: {msg.reason}")
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
            self._fail(f"the {self.rules.opening_method} result is not an object")
            ctx.events.append(HandshakeFailed(self.failure or ""))
            return
        opening = self.rules.accept_opening(self, result)
        ctx.wire.diagnostics.extend(opening.diagnostics)
        if opening.failure is not None:
            self._fail(opening.failure)
            ctx.events.append(HandshakeFailed(opening.failure))
            return
        self.protocol_version = opening.version
        self.server_capabilities = opening.capabilities
        self.server_info = opening.server_info
        self.instructions = opening.instructions
        self.initialize_result = result
        self._to(SessionEvent.OPENED)
        self.rules.after_opening(self)
        ctx.events.append(HandshakeCompleted(opening.version, result))

    def _fail(self, reason: str) -> None:
        if self.failure is None:
            self.failure = reason
        self._to(SessionEvent.OPEN_FAILED)

    # -- server notifications

    def _on_notification(self, msg: Notification, ctx: _Ctx) -> None:
        method, params = msg.method, msg.params
        settled = RECEIVING[self.state].settled
        if not settled and method != "notifications/message":
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
        if cap is not None and settled and not has_capability(self.server_capabilities, cap):
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
        if not RECEIVING[self.state].settled:
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


def _creates_task(pending: PendingRequest, result: Any) -> bool:
    """The answer is a task handle: the request asked for a task (2025-11-25 ``params.task``) or the server
    made one (2026-07-28 ``resultType: "task"``)."""
    return bool(pending.params and "task" in pending.params) or mrtr.result_type(result) == "task"


def new_session(
    offer: SessionOffer,
    *,
    id_generator: Iterator[RequestId] | None = None,
    clock: Callable[[], float] = time.monotonic,
    default_timeouts: Timeouts | None = None,
    validate: bool = True,
    limits: Limits = DEFAULT_LIMITS,
) -> ClientSession:
    """The one factory of sessions: the era follows ``offer.protocol_version`` (see :func:`rules_for`)."""
    return ClientSession(
        protocol_version=offer.protocol_version,
        capabilities=offer.capabilities,
        client_info=offer.client_info,
        id_generator=id_generator,
        clock=clock,
        default_timeouts=default_timeouts,
        validate=validate,
        limits=limits,
    )
