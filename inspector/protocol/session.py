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
offered version. What both eras share is this class's, with collaborators for its parts: the table of our
requests and the matching of answers to it (:mod:`~inspector.protocol.request_table`), the server's requests
(:mod:`~inspector.protocol.server_requests`), the checks of server notifications and progress
(:mod:`~inspector.protocol.server_notifications`) and the rounds of ``input_required`` answers
(:mod:`~inspector.protocol.input_rounds`). :func:`new_session` is the one factory the client layer builds
sessions with.
"""

from __future__ import annotations

import itertools
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from types import ModuleType
from typing import Any

from inspector.protocol import jsonrpc, mrtr
from inspector.protocol.capabilities import has_capability, server_capability_for
from inspector.protocol.diagnostics import Diagnostic, DiagnosticCode, Severity
from inspector.protocol.envelope import declared_extensions
from inspector.protocol.eras import EraRules, rules_for
from inspector.protocol.events import (
    Event,
    HandshakeCompleted,
    HandshakeFailed,
    NotificationReceived,
    Received,
    RequestFailed,
    ResponseReceived,
)
from inspector.protocol.frame_context import FrameContext
from inspector.protocol.framing import LineFramer, OversizedLine, decode_frame
from inspector.protocol.input_rounds import InputRounds
from inspector.protocol.jsonrpc import ErrorResponse, Invalid, Notification, Request, Response
from inspector.protocol.lazy_module import LazyModule
from inspector.protocol.limits import DEFAULT_LIMITS, Limits
from inspector.protocol.request_table import RequestTable
from inspector.protocol.salvage import salvage_id
from inspector.protocol.server_notifications import apply_progress, screen_notification
from inspector.protocol.server_requests import NON_STANDARD_ALIASES as NON_STANDARD_ALIASES
from inspector.protocol.server_requests import RefuseNow, ServerRequests
from inspector.protocol.session_types import (
    CapabilityNotDeclared,
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
    "ResultCheck",
    "SessionOffer",
    "SessionState",
    "Timeouts",
    "new_session",
]

ResultCheck = Callable[[str, dict[str, Any] | None, Any], list[Diagnostic]]
"""``check(method, params, result)``: diagnostics about a result of ours (see ``ClientSession.result_checks``)."""


@dataclass(frozen=True, slots=True)
class SessionOffer:
    """What a session offers the server: kept by the client layer to build the next session the same way."""

    protocol_version: str = DEFAULT_VERSION
    capabilities: dict[str, Any] = field(default_factory=dict)
    client_info: dict[str, Any] | None = None


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
        # Schema validation needs mcp-types, whose import costs about half a second: load it only when used
        # (at the first frame checked, not when the session is made: the app starts the server meanwhile).
        self._validation: ModuleType | None = LazyModule("inspector.protocol.validation") if validate else None
        self._ids = id_generator if id_generator is not None else itertools.count(1)
        self._clock = clock
        self._default_timeouts = default_timeouts or Timeouts()
        self.limits = limits
        self._framer = LineFramer(limits.message_bytes)
        self._outbox: list[WireMessage] = []
        self._requests = RequestTable()
        self._server_requests = ServerRequests(self._validation)
        self._rounds = InputRounds()
        self._opening_id: RequestId | None = None
        self.result_checks: list[ResultCheck] = []
        """Extra checks of our requests' results, each ``check(method, params, result) -> diagnostics`` (the
        client's outputSchema check): what they find is on the answer's frame like any other diagnostic."""
        self._holds = 0
        """How many holds on the request deadlines are in force (see :meth:`hold_deadlines`)."""

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
        ctx = FrameContext(WireMessage(Direction.IN, b"", Kind.RESPONSE, self.rules.opening_method))
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
        extensions: dict[str, Any] | None = None,
    ) -> RequestId:
        """``extensions``: what a later round carries over from its logical request (None: a first send, which
        declares those of the current context, ``declaring_extensions``)."""
        rid = next(self._ids)
        while rid in self._requests:
            rid = next(self._ids)
        token: RequestId | None = None
        given = params
        if progress:
            token = rid
            params = dict(params or {})
            meta = dict(params.get("_meta") or {})
            meta["progressToken"] = token
            params["_meta"] = meta
        declared = declared_extensions() if extensions is None else extensions
        params = self.rules.opening_params(self) if opening else self.rules.envelope(self, method, params, declared)
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
            extensions=declared,
        )
        self._requests.add(pending)
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
        inbound = self._server_requests.get(request_id)
        raw = jsonrpc.response_frame(request_id, result)
        self._server_requests.answered(request_id)
        wire = WireMessage(Direction.OUT, raw, Kind.RESPONSE, inbound.wire_method, request_id)
        if self._validation is not None:
            for d in self._validation.validate_client_result(inbound.method, self.protocol_version, result):
                wire.diagnostics.append(Diagnostic(d.code, f"our answer: {d.message}", Severity.WARNING, d.path))
        self._outbox.append(wire)

    def respond_error(self, request_id: RequestId, code: int, message: str, data: Any = None) -> None:
        """Answer a server request with a JSON-RPC error."""
        inbound = self._server_requests.get(request_id)
        self._server_requests.answered(request_id)
        self._queue_error(request_id, code, message, data, inbound.wire_method)

    def _queue_error(self, rid: RequestId | None, code: int, message: str, data: Any, method: str | None) -> None:
        raw = jsonrpc.error_frame(rid, code, message, data)
        self._outbox.append(WireMessage(Direction.OUT, raw, Kind.ERROR, method, rid))

    def is_answerable(self, request_id: RequestId) -> bool:
        """True while a server request still waits for our answer (not answered, not withdrawn)."""
        return request_id in self._server_requests

    def cancel(self, request_id: RequestId, reason: str | None = None) -> RequestFailed | None:
        """Withdraw one of our requests: notifies the server and forgets the request."""
        interim = self._rounds.take(request_id)
        if interim is not None:  # between rounds: nothing is at the server to cancel
            return RequestFailed(request_id, interim.pending.method, reason or "cancelled", kind="cancelled")
        pending = self._requests.pop(request_id)
        if pending is None:
            return None
        self._requests.forget(pending, "cancelled")
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

    @property
    def deadlines_held(self) -> bool:
        """True while a hold suspends the requests' ``request`` periods (a person is answering the server)."""
        return self._holds > 0

    def hold_deadlines(self) -> None:
        """Suspend the ``request`` period of every request (pending now or sent meanwhile) until the matching
        :meth:`release_deadlines`: the server asked a person something, and the answer it waits for cannot come
        before the person's does. Holds nest; ``max_total`` caps still apply."""
        self._holds += 1

    def release_deadlines(self) -> None:
        """End one hold. When the last one ends, every pending request gets its full ``request`` period again
        (as after a progress notification): the server could not answer while the person was deciding."""
        if self._holds == 0:
            return
        self._holds -= 1
        if self._holds:
            return
        now = self._clock()
        for pending in self._requests.pending.values():
            period = pending.timeouts.request
            if period is not None and pending.deadline is not None:
                pending.deadline = max(pending.deadline, now + period)

    def next_deadline(self) -> float | None:
        return self._requests.next_deadline(soft=not self.deadlines_held)

    def check_timeouts(self) -> list[RequestFailed]:
        """Fail (and cancel at the server) every request whose deadline passed (while the deadlines are held,
        only ``max_total`` caps)."""
        now = self._clock()
        failed: list[RequestFailed] = []
        held = self.deadlines_held
        for pending in list(self._requests.pending.values()):
            d = pending.hard_deadline if held else pending.next_deadline()
            if d is None or d > now:
                continue
            hard = pending.hard_deadline is not None and pending.hard_deadline <= now
            if hard:
                reason = f"{pending.method} exceeded the maximum total time of {pending.timeouts.max_total:g} s"
            else:
                reason = f"{pending.method} timed out after {pending.timeouts.request:g} s without an answer"
            self.cancel(pending.id, reason)
            self._requests.mark(pending.id, "timeout")
            failed.append(
                RequestFailed(pending.id, pending.method, reason, code=jsonrpc.REQUEST_TIMEOUT, kind="timeout")
            )
            if self.is_opening(pending.id):
                self._fail(reason)
        return failed

    def connection_lost(self, reason: str) -> list[RequestFailed]:
        """The transport is gone: every pending request fails at once."""
        failed = [RequestFailed(p.id, p.method, reason, kind="lost") for p in self._requests.take_all("lost")]
        failed += [RequestFailed(rid, i.pending.method, reason, kind="lost") for rid, i in self._rounds.take_all()]
        self._server_requests.clear()
        self._to(SessionEvent.LOST)
        if self.failure is None and self.state is SessionState.FAILED:  # lost before it ever opened
            self.failure = reason
        return failed

    @property
    def pending(self) -> dict[RequestId, PendingRequest]:
        return self._requests.pending

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
        ctx = FrameContext(wire)
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
        ctx = FrameContext(wire)
        salvaged = salvage_id(raw)
        pending = self._requests.pop(salvaged) if salvaged is not None else None
        if pending is None:
            if reply:
                # JSON-RPC: what cannot be parsed is answered with a parse error (id null)
                self._queue_error(None, jsonrpc.PARSE_ERROR, f"Parse error: {diagnostic.message}", None, None)
            return Received(wire, ctx.events)
        self._requests.forget(pending, "answered")
        ctx.stamp(True, Kind.RESPONSE, salvaged, pending, self._clock)
        ctx.wire.kind = Kind.INVALID
        reason = f"the answer could not be read: {diagnostic.message}"
        if self.is_opening(pending.id):
            self._fail(reason)
            ctx.events.append(HandshakeFailed(reason))
        else:
            ctx.events.append(RequestFailed(pending.id, pending.method, reason, kind="invalid"))
        return Received(wire, ctx.events)

    def _on_batch(self, items: list[Any], ctx: FrameContext) -> None:
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

    def _dispatch(self, value: Any, ctx: FrameContext, *, first: bool) -> None:
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

    def _on_response(self, msg: Response, ctx: FrameContext, first: bool) -> None:
        pending = self._requests.match(msg.id, ctx)
        ctx.stamp(first, Kind.RESPONSE, msg.id, pending, self._clock)
        if pending is None:
            return
        self._requests.forget(pending, "answered")
        diags: list[Diagnostic] = []
        if self._validation is not None:
            if _creates_task(pending, msg.result):  # a task handle, not the method's own result
                diags = self._validation.validate_task_handle(self.protocol_version, msg.result)
            else:
                diags = self._validation.validate_server_result(pending.method, self.protocol_version, msg.result)
        result = self.rules.observe_result(self, pending.method, msg.result, diags, pending.params)
        ctx.wire.diagnostics.extend(diags)
        if self.is_opening(pending.id):
            self._on_opening_result(result, ctx)
            return
        kind = mrtr.result_type(result)
        if kind == "input_required" and isinstance(result, dict):
            self._rounds.on_input_required(pending, result, ctx, diags, self.client_capabilities)
            return
        for check in self.result_checks:
            found = check(pending.method, pending.params, result)
            diags.extend(found)
            ctx.wire.diagnostics.extend(found)
        ctx.events.append(ResponseReceived(pending.id, pending.method, result, tuple(diags)))

    def retry_with_input(self, request_id: RequestId, responses: dict[str, Any]) -> RequestId:
        """Send the next round of a request answered ``input_required`` (``InputRequested``): the original
        params with ``inputResponses`` and the echoed ``requestState``, under a new id. Returns that id."""
        interim = self._rounds.take(request_id)
        if interim is None:
            raise LocalProtocolError(f"request {request_id!r} is not waiting for input")
        if send_permit(self.state) is not SendPermit.ANYTHING:
            raise LocalProtocolError(f"cannot retry {interim.pending.method}: session is {self.state.value}")
        p = interim.pending
        params = mrtr.retry_params(p.params, responses, interim.required)
        return self._queue_request(
            p.method, params, forced=p.forced, progress=p.progress_token is not None, timeouts=p.timeouts,
            origin=p.origin, round_=p.round + 1, extensions=p.extensions,
        )  # fmt: skip

    def waiting_for_input(self, request_id: RequestId) -> bool:
        return request_id in self._rounds

    def _on_error(self, msg: ErrorResponse, ctx: FrameContext, first: bool) -> None:
        pending = self._requests.match(msg.id, ctx) if msg.id is not None else None
        if msg.id is None:
            ctx.diag(
                DiagnosticCode.UNKNOWN_RESPONSE_ID,
                f"error with id null (the server could not read something we sent): {msg.message}",
                Severity.WARNING,
            )
        ctx.stamp(first, Kind.ERROR, msg.id, pending, self._clock)
        if pending is None:
            return
        self._requests.forget(pending, "answered")
        name = jsonrpc.ERROR_NAMES.get(msg.code or 0)
        reason = msg.message or name or "error"
        if self.is_opening(pending.id):
            self._fail(f"the server refused {pending.method}: {reason}")
            ctx.events.append(HandshakeFailed(self.failure or reason, msg.code, msg.data))
            return
        ctx.events.append(RequestFailed(pending.id, pending.method, reason, msg.code, msg.data, kind="error"))

    def _on_invalid(self, msg: Invalid, ctx: FrameContext, first: bool) -> None:
        if msg.answers is not None:
            pending = self._requests.match(msg.answers, ctx)
            ctx.stamp(first, Kind.RESPONSE, msg.answers, pending, self._clock)
            if pending is not None:
                self._requests.forget(pending, "answered")
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

    def _on_opening_result(self, result: Any, ctx: FrameContext) -> None:
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

    # -- what the server sends on its own

    def _on_notification(self, msg: Notification, ctx: FrameContext) -> None:
        method, params = msg.method, msg.params
        diags = screen_notification(
            method,
            params,
            ctx,
            version=self.protocol_version,
            settled=RECEIVING[self.state].settled,
            server_capabilities=self.server_capabilities,
            validation=self._validation,
        )
        if method == "notifications/progress" and isinstance(params, dict):
            pending = self._requests.by_progress_token(params.get("progressToken"))
            apply_progress(pending, params, ctx, clock=self._clock, validating=self._validation is not None)
        elif method == "notifications/cancelled" and isinstance(params, dict):
            self._server_requests.on_cancelled(params, ctx)
        ctx.events.append(NotificationReceived(method, params, tuple(diags)))

    def _on_request(self, msg: Request, ctx: FrameContext) -> None:
        reply = self._server_requests.receive(
            msg,
            ctx,
            version=self.protocol_version,
            settled=RECEIVING[self.state].settled,
            client_capabilities=self.client_capabilities,
        )
        if isinstance(reply, RefuseNow):
            self._queue_error(msg.id, reply.code, reply.message, None, msg.method)
        elif reply is not None:
            self.respond(msg.id, reply.result)


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
