"""Connection = transport + session, with an awaitable API for every MCP method of both eras.

The session (sans-I/O) decides; this class moves bytes between it and the transport and routes what comes
in to its collaborators: our requests in flight (:mod:`inspector.client.requesting`, futures keyed by request
id in :mod:`inspector.client.outstanding`), the answers to the server (:mod:`inspector.client.answering`), the
listen streams (:mod:`inspector.client.listen`). The frames sent go through one queue
(:mod:`inspector.client.writer`); the session's deadlines arm one timer (:mod:`inspector.client.deadline_timer`);
a recorder that falls behind slows reading down (:mod:`inspector.client.recorder`).

Eras (``protocol_era``: ``legacy``, ``modern``, ``auto``) and the opening exchange: see
:mod:`inspector.client.opening`. Which era was chosen and why is in :attr:`ServerInfo.era` /
:attr:`ServerInfo.era_reason`. Sessions are built by the one factory ``inspector.protocol.session.new_session``,
here and in renewal.

Multi-round-trip requests (2026-07-28): an ``input_required`` answer is answered through the same
``handlers`` as the handshake era's server requests, one input after another, and the request is retried
under a new id; the caller awaits one logical request throughout.

Session expiry and requests the transport could not deliver (HTTP): see :mod:`inspector.client.renewal`.

Every background task (the writer, each server-request handler, the re-initialization after a session
expired) and every callback of the transport or the timer is supervised (:mod:`inspector.client.supervision`):
an exception nobody expected (a transport raising what it should not, a broken recorder or callback, a bug)
ends the connection as a lost one, with one line naming what failed (:meth:`Connection._broken`), so that
every pending request fails at once instead of at its timeout, and the transport is closed. Nothing ends as
"Task exception was never retrieved".
"""

from __future__ import annotations

import asyncio
import itertools
import time
from collections import deque
from collections.abc import Awaitable, Callable, Coroutine
from dataclasses import replace
from typing import Any

from inspector.client.answering import Answering
from inspector.client.deadline_timer import DeadlineTimer
from inspector.client.discover_cache import SHARED as SHARED_DISCOVER
from inspector.client.discover_cache import DiscoverCache
from inspector.client.errors import (
    ClientError,
    ConnectFailed,
    ConnectionLost,
    NotConnected,
    RemoteError,
    describe_exception,
    message_of,
)
from inspector.client.handlers import HeadlessHandlers, ServerRequestHandlers
from inspector.client.listen import Listening, Subscription
from inspector.client.opening import DISCOVER_TIMEOUT, MODERN_ERRORS, Opening, choose_era
from inspector.client.output_check import OutputSchemaCheck
from inspector.client.outstanding import Outstanding, ProgressCallback
from inspector.client.recorder import BACKLOG_POLL, Recorder, backpressure
from inspector.client.renewal import DeliveryFailed, SessionRenewal
from inspector.client.requesting import Requesting
from inspector.client.server_info import ServerInfo, server_info_of
from inspector.client.supervision import Supervisor, retrieve
from inspector.client.writer import Writer
from inspector.protocol.diagnostics import Diagnostic, Severity
from inspector.protocol.eras import DiscoverRules
from inspector.protocol.events import (
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
from inspector.protocol.limits import Limits
from inspector.protocol.mcp_headers import ToolDropped, is_header_mismatch
from inspector.protocol.pagination import Paginator
from inspector.protocol.result_cache import CACHEABLE_METHODS, ResultCache
from inspector.protocol.session import ClientSession, SessionOffer, SessionState, Timeouts, new_session
from inspector.protocol.versions import DEFAULT_VERSION, MODERN_VERSION, Era, EraChoice
from inspector.protocol.wire import RequestId, WireMessage
from inspector.transports.base import (
    DataReceived,
    FrameReceived,
    SendFailed,
    SessionExpired,
    StderrLine,
    Transport,
    TransportClosed,
    TransportError,
    TransportEvent,
    TransportNote,
)

__all__ = [
    "BACKLOG_POLL",
    "DISCOVER_TIMEOUT",
    "MODERN_ERRORS",
    "Connection",
    "DeliveryFailed",
    "ProgressCallback",
    "Recorder",
    "ServerInfo",
]


class Connection:
    """One live session with one server."""

    def __init__(
        self,
        transport: Transport,
        *,
        protocol_version: str = DEFAULT_VERSION,
        capabilities: dict[str, Any] | None = None,
        client_info: dict[str, Any] | None = None,
        handlers: ServerRequestHandlers | None = None,
        timeouts: Timeouts | None = None,
        recorder: Recorder | None = None,
        on_notification: Callable[[NotificationReceived], None] | None = None,
        on_message: Callable[[WireMessage], None] | None = None,
        on_transport_event: Callable[[TransportEvent], None] | None = None,
        validate: bool = True,
        limits: Limits | None = None,
        protocol_era: EraChoice | str = EraChoice.AUTO,
        discover_timeout: float = DISCOVER_TIMEOUT,
        listen_for_changes: bool = False,
        log_level: str | None = None,
        reuse_discover: bool = True,
        discover_cache: DiscoverCache | None = None,
        request_meta: dict[str, Any] | None = None,
    ) -> None:
        """``limits``: what the session bounds (a message's size); None: the transport's own limits.
        ``protocol_version``: the version offered in its era (a handshake-era one is offered by ``initialize``
        in ``legacy`` and ``auto``; 2026-07-28 means ``modern`` unless ``protocol_era`` says otherwise).
        ``listen_for_changes``: in 2026-07-28, open a ``subscriptions/listen`` stream for the list changes the
        server declares (``listChanged``) right after connecting, so that those notifications arrive as they do
        in the handshake era (a window keeps its lists fresh with them). ``log_level``: in 2026-07-28 the level
        every request asks log messages for (None: none; ``set_logging_level`` changes it). ``request_meta``:
        keys merged into ``params._meta`` of every request sent with :meth:`request` (the caller's own ``_meta``
        keys win; e.g. the CLI's ``--metadata``)."""
        self.transport = transport
        self._supervisor = Supervisor(self._broken)
        transport.backpressure = self._backpressure
        self.timeouts = timeouts or Timeouts()
        choice, handshake_version = choose_era(protocol_version, protocol_era)
        self.protocol_era = choice
        self.discover_timeout = discover_timeout
        caps = dict(capabilities or {})
        offers = {
            Era.HANDSHAKE: SessionOffer(handshake_version, caps, client_info),
            Era.MODERN: SessionOffer(MODERN_VERSION, caps, client_info),
        }
        self.opening = Opening(self, choice, offers)
        """The era in use and the opening exchange (``auto``'s fallback, the discover answers reused)."""
        self._validate = validate
        self._limits = limits if limits is not None else transport.limits
        self._ids = itertools.count(1)
        """Shared by every session of this connection, so that ids stay unique across sessions."""
        self._log_level = log_level
        self.request_meta: dict[str, Any] = dict(request_meta or {})
        """Merged into ``params._meta`` of every request (see :meth:`request`); may be changed at any time."""
        self.output_check = OutputSchemaCheck()
        """Flags tools/call results that break their tool's outputSchema (a diagnostic on the answer's frame)."""
        self.session: ClientSession = self.new_session()
        self.outstanding = Outstanding()
        self.renewal = SessionRenewal(self)
        self.handlers: ServerRequestHandlers = handlers or HeadlessHandlers()
        self.recorder = recorder
        self.on_notification = on_notification
        self.on_message = on_message
        self.on_transport_event = on_transport_event
        self.diagnostics: list[Diagnostic] = []
        self.stderr_tail: deque[str] = deque(maxlen=50)
        self.server: ServerInfo | None = None
        self.closed_event: TransportClosed | None = None
        self.answering = Answering(self)
        """Answers the server's requests and the input its input_required results ask for."""
        self._requests = Requesting(self)
        """Our requests in flight, the ``subscriptions/listen`` streams among them."""
        self.listening = Listening(self)
        self.reuse_discover = reuse_discover
        self.discover_cache = discover_cache if discover_cache is not None else SHARED_DISCOVER
        self.cache = ResultCache()
        """2026-07-28 results kept while their ``ttlMs`` says they are fresh (see :meth:`request`)."""
        self.listen_for_changes = listen_for_changes
        self._writer = Writer(transport, self.spawn, self._broken)
        self._timer = DeadlineTimer(self._on_timer)
        self._started = False
        self._closing = False
        self._close_task: asyncio.Task[None] | None = None

    # ------------------------------------------------------------------ lifecycle

    async def __aenter__(self) -> Connection:
        await self.connect()
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.close()

    async def connect(self) -> ServerInfo:
        """Start the transport and run the handshake. Raises ConnectFailed with one clear line."""
        if self._started:
            raise ClientError("connect() was already called on this connection")
        self._started = True
        self._supervisor.loop = asyncio.get_running_loop()
        t0 = time.monotonic()
        try:
            await self.transport.start(self._on_transport_event)
        except TransportError as exc:
            raise ConnectFailed(message_of(exc)) from None
        except OSError as exc:
            raise ConnectFailed(f"could not start {self.transport.describe()}: {message_of(exc)}") from None
        except Exception as exc:  # what a transport must not raise (e.g. a header httpx2 cannot encode)
            raise ConnectFailed(f"could not start {self.transport.describe()}: {describe_exception(exc)}") from None
        if self.closed_event is not None:
            raise ConnectFailed(self.lost_reason(self.closed_event))
        result, reason = await self.opening.run()
        self.server = server_info_of(self.session, result, time.monotonic() - t0, reason)
        if self.listen_for_changes and self.session.era is Era.MODERN:
            await self.listening.for_changes()
        return self.server

    async def discover(self, *, fresh: bool = False) -> dict[str, Any]:
        """2026-07-28: the server's ``server/discover`` answer (this connection's, while fresh, unless ``fresh``)."""
        result: dict[str, Any] = await self.request("server/discover", fresh=fresh)
        return result

    def new_session(self) -> ClientSession:
        """A fresh session of the era in use (the one factory; renewal uses it too)."""
        session = new_session(
            self.opening.offer,
            id_generator=self._ids,
            clock=time.monotonic,
            default_timeouts=self.timeouts,
            validate=self._validate,
            limits=self._limits,
        )
        session.cancel_notifies = not self.transport.cancels_by_closing
        session.header_rules = self.transport.carries_headers
        session.log_level = self._log_level
        session.result_checks.append(self.output_check)
        return session

    async def close(self) -> None:
        """Close the transport and fail whatever is still pending; idempotent (a second call waits for the
        first to finish)."""
        if self._close_task is None:
            self._closing = True
            self._close_task = asyncio.get_running_loop().create_task(self._close(), name="connection-close")
        await asyncio.shield(self._close_task)

    async def _close(self) -> None:
        self.answering.cancel_all()
        await self.listening.close()
        self.renewal.stop(NotConnected("connection closed"))
        self._timer.cancel()
        await self._writer.flush(1.0)
        if self._started:
            await self.transport.close()
        self._fail_all(NotConnected("connection closed"))
        if self.recorder is not None and hasattr(self.recorder, "flush"):
            self.recorder.flush()

    @property
    def is_open(self) -> bool:
        return self.session.state is SessionState.READY and self.closed_event is None and not self._closing

    # ------------------------------------------------------------------ requests

    async def request(
        self,
        method: str,
        params: dict[str, Any] | None = None,
        *,
        forced: bool = False,
        timeout: float | None = None,
        on_progress: ProgressCallback | None = None,
        progress: bool | None = None,
        fresh: bool = False,
    ) -> Any:
        """Send a request and return its raw result (of the last round, for a multi-round-trip request).
        ``timeout`` overrides the per-request period (of each round).

        2026-07-28: a cacheable result (``ttlMs``) still fresh in :attr:`cache` is returned without asking
        the server (a note in the log says so); ``fresh=True`` always asks (and stores the new answer).

        :attr:`request_meta` is merged into ``params._meta`` (what ``params._meta`` already holds wins)."""
        if self.request_meta:
            params = with_meta(params, self.request_meta)
        cacheable = self.session.era is Era.MODERN and method in CACHEABLE_METHODS and not forced
        if cacheable and not fresh:
            hit = self.cache.get(method, params)
            if hit is not None:
                left = hit.expires_at - time.monotonic()
                self.note(f"{method}: answered from the cache (fresh for {left:.1f} s more, {hit.scope or 'private'})")
                return hit.result
        result = await self._requests.send(
            method, params, forced=forced, timeout=timeout, on_progress=on_progress, progress=progress
        )
        if cacheable:
            self.cache.put(method, params, result)
        return result

    async def notify(self, method: str, params: dict[str, Any] | None = None) -> None:
        await self.renewal.wait()
        if not self.is_open:
            raise NotConnected(self.not_open_reason())
        self.session.send_notification(method, params)
        self.pump()

    @property
    def era(self) -> Era:
        """The era of the session in use."""
        return self.session.era

    async def ping(self) -> Any:
        """``ping``; 2026-07-28 has none, so there it asks ``server/discover`` (the cheapest round trip) and,
        like a ping, returns an empty result."""
        if self.session.era is Era.MODERN:
            await self.request("server/discover", fresh=True)
            return {}
        return await self.request("ping")

    async def _list(
        self, method: str, key: str, params: dict[str, Any] | None = None, *, fresh: bool = False
    ) -> dict[str, Any]:
        pager = Paginator(key, params)
        while not pager.done:
            pager.add_page(await self.request(method, pager.next_params(), fresh=fresh))
        self.diagnostics.extend(pager.diagnostics)
        return pager.merged()

    async def list_tools(self, *, fresh: bool = False) -> dict[str, Any]:
        return await self._list("tools/list", "tools", fresh=fresh)

    @property
    def dropped_tools(self) -> list[ToolDropped]:
        """2026-07-28 over HTTP: the tools left out of ``list_tools`` for an invalid ``x-mcp-header`` annotation,
        each with the tool as listed and why (empty in other eras and transports)."""
        rules = self.session.rules
        return list(rules.dropped_tools.values()) if isinstance(rules, DiscoverRules) else []

    async def list_resources(self, *, fresh: bool = False) -> dict[str, Any]:
        return await self._list("resources/list", "resources", fresh=fresh)

    async def list_resource_templates(self, *, fresh: bool = False) -> dict[str, Any]:
        return await self._list("resources/templates/list", "resourceTemplates", fresh=fresh)

    async def list_prompts(self, *, fresh: bool = False) -> dict[str, Any]:
        return await self._list("prompts/list", "prompts", fresh=fresh)

    async def call_tool(
        self,
        name: str,
        arguments: dict[str, Any] | None = None,
        *,
        on_progress: ProgressCallback | None = None,
        timeout: float | None = None,
        forced: bool = False,
        meta: dict[str, Any] | None = None,
    ) -> Any:
        """``tools/call``; ``meta``: keys for this call's ``params._meta`` (over :attr:`request_meta`)."""
        params: dict[str, Any] = {"name": name}
        if arguments is not None:
            params["arguments"] = arguments
        if meta:
            params["_meta"] = dict(meta)
        # a progress token is always offered so that progress can keep a long call alive
        try:
            return await self.request(
                "tools/call", params, on_progress=on_progress, timeout=timeout, progress=True, forced=forced
            )
        except RemoteError as exc:
            if self.session.era is not Era.MODERN or not is_header_mismatch(exc.code):
                raise
        # -32020: the headers we derived from the tool's x-mcp-header annotations disagree with the server's;
        # our copy of the tool list may be stale: list again once and retry once
        self.note(f"tools/call {name}: the server reported a header mismatch (-32020); re-listing tools, retrying")
        await self.list_tools(fresh=True)
        return await self.request(
            "tools/call", params, on_progress=on_progress, timeout=timeout, progress=True, forced=forced
        )

    async def read_resource(self, uri: str, *, fresh: bool = False) -> Any:
        return await self.request("resources/read", {"uri": uri}, fresh=fresh)

    async def subscribe_resource(self, uri: str) -> Any:
        """``resources/subscribe``; in 2026-07-28 the URI joins the connection's listen stream for resource
        updates (see :class:`inspector.client.listen.Listening`)."""
        if self.session.era is not Era.MODERN:
            return await self.request("resources/subscribe", {"uri": uri})
        await self.listening.subscribe(uri)
        return {}

    async def unsubscribe_resource(self, uri: str) -> Any:
        if self.session.era is not Era.MODERN:
            return await self.request("resources/unsubscribe", {"uri": uri})
        await self.listening.unsubscribe(uri)
        return {}

    async def listen(
        self,
        notifications: dict[str, Any],
        on_notification: Callable[[NotificationReceived], None] | None = None,
    ) -> Subscription:
        """2026-07-28: open a ``subscriptions/listen`` stream (see :mod:`inspector.client.listen`)."""
        return await self.listening.open(notifications, on_notification)

    @property
    def change_listen(self) -> Subscription | None:
        """The stream ``listen_for_changes`` opened (None: none)."""
        return self.listening.changes

    def start_stream(
        self,
        method: str,
        params: dict[str, Any] | None,
        on_notification: Callable[[NotificationReceived], None],
        timeouts: Timeouts,
    ) -> tuple[RequestId, asyncio.Future[Any]]:
        """Send a long-lived request whose notifications carry its id (``subscriptions/listen``): returns its
        id and the future of its final answer; those notifications go to ``on_notification``."""
        return self._requests.start_stream(method, params, on_notification, timeouts)

    def stop_stream(self, rid: RequestId | None) -> None:
        """Cancel a stream of :meth:`start_stream` (nothing when it already ended)."""
        if rid is not None:
            self._requests.stop_stream(rid)

    async def get_prompt(self, name: str, arguments: dict[str, str] | None = None) -> Any:
        params: dict[str, Any] = {"name": name}
        if arguments is not None:
            params["arguments"] = arguments
        return await self.request("prompts/get", params)

    async def complete(
        self, ref: dict[str, Any], argument: dict[str, str], context: dict[str, Any] | None = None
    ) -> Any:
        params: dict[str, Any] = {"ref": ref, "argument": argument}
        if context is not None:
            params["context"] = context
        return await self.request("completion/complete", params)

    async def set_logging_level(self, level: str) -> Any:
        """``logging/setLevel``; in 2026-07-28 the level rides in every request's ``_meta`` from now on."""
        if self.session.era is Era.MODERN:
            self.session.log_level = self._log_level = level
            return {}
        return await self.request("logging/setLevel", {"level": level})

    async def send_roots_list_changed(self) -> None:
        """The roots changed. 2026-07-28 has no such notification (roots are asked for per request): nothing."""
        if self.session.era is Era.MODERN:
            return
        await self.notify("notifications/roots/list_changed")

    @property
    def violations(self) -> list[Diagnostic]:
        return [d for d in self.diagnostics if d.severity is Severity.VIOLATION]

    # ------------------------------------------------------------------ inbound

    def _backpressure(self) -> Awaitable[None] | None:
        return backpressure(self.recorder, self.loop)

    def _on_transport_event(self, event: TransportEvent) -> None:
        """The transport's sink: whatever goes wrong handling an event ends the connection with one line (a
        transport only logs what its sink raises, and the event would be lost)."""
        try:
            self._handle_transport_event(event)
        except Exception as exc:
            self._broken(f"internal error handling {_event_name(event)}: {describe_exception(exc)}")

    def _handle_transport_event(self, event: TransportEvent) -> None:
        if isinstance(event, DataReceived):
            for rec in self.session.receive_data(event.data):
                self._on_received(rec)
        elif isinstance(event, FrameReceived):
            self._on_received(self.session.receive_frame(event.data))
        else:
            if self.recorder is not None:
                self.recorder.record_transport(event)
            if self.on_transport_event is not None:
                self.on_transport_event(event)
            if isinstance(event, StderrLine):
                self.stderr_tail.append(event.line)
            elif isinstance(event, TransportClosed):
                for rec in self.session.end_of_data():
                    self._on_received(rec)
                self._on_closed(event)
            elif isinstance(event, SessionExpired):
                self.renewal.on_session_expired(event)
            elif isinstance(event, SendFailed):
                self.renewal.on_send_failed(event)
        self.pump()

    def _on_received(self, rec: Received) -> None:
        wire = rec.wire
        if wire.diagnostics:
            self.diagnostics.extend(wire.diagnostics)
            self.opening.saw(wire)  # (auto may call those of server/discover a probe's findings)
        if self.recorder is not None:
            self.recorder.record_message(wire)
        if self.on_message is not None:
            self.on_message(wire)
        for ev in rec.events:
            if isinstance(ev, ResponseReceived):
                self.renewal.answered()
                self.outstanding.resolve(ev.request_id, ev.result)
            elif isinstance(ev, RequestFailed):
                self._requests.fail(ev)
            elif isinstance(ev, InputRequested):
                self.renewal.answered()
                self.answering.input(ev)
            elif isinstance(ev, HandshakeCompleted):
                if self.session.era is Era.HANDSHAKE:
                    self.transport.on_negotiated(ev.protocol_version)
                if wire.id is not None:
                    self.outstanding.resolve(wire.id, ev.result)
            elif isinstance(ev, HandshakeFailed):
                self.outstanding.fail_all(ConnectFailed(ev.reason, ev.code, ev.data))
            elif isinstance(ev, ProgressReceived):
                cb = self.outstanding.progress(ev.request_id)
                if cb is not None:
                    cb(ev.progress, ev.total, ev.message)
            elif isinstance(ev, NotificationReceived):
                if len(self.cache):
                    self.cache.on_notification(ev.method, ev.params)
                self._requests.route(ev)
                if self.on_notification is not None:
                    self.on_notification(ev)
            elif isinstance(ev, RequestReceived):
                self.answering.request(ev, wire)
            elif isinstance(ev, RequestCancelledByServer):
                self.answering.withdrawn(ev.id)

    def _on_closed(self, event: TransportClosed) -> None:
        if self.closed_event is not None:
            return  # the connection already ended (see _broken); the transport closing now changes nothing
        self.closed_event = event
        reason = self.lost_reason(event)
        for failed in self.session.connection_lost(reason):
            self._requests.fail(failed)
        self._fail_all(ConnectionLost(reason, event))
        self.renewal.stop(ConnectionLost(reason, event))
        self.answering.cancel_all()
        self._timer.cancel()

    def lost_reason(self, event: TransportClosed) -> str:
        """The one line that says why the transport closed (with the server's last stderr lines)."""
        if event.stderr_tail or not self.stderr_tail:
            return event.describe()
        return replace(event, stderr_tail=tuple(self.stderr_tail)).describe()

    def _fail_all(self, exc: ClientError) -> None:
        self.outstanding.fail_all(exc)

    def not_open_reason(self) -> str:
        """Why no request can be sent now (the connection is not open)."""
        if self.closed_event is not None:
            return f"not connected: {self.lost_reason(self.closed_event)}"
        if self.session.failure:
            return f"not connected: {self.session.failure}"
        return f"not connected (session {self.session.state.value})"

    # ------------------------------------------------------------------ renewal's host (RenewalHost)

    @property
    def ending(self) -> bool:
        return self._closing or self.closed_event is not None or self.loop is None

    def take_unsent(self) -> list[WireMessage]:
        return self._writer.take_unsent()

    def drop_server_requests(self) -> None:
        self.answering.cancel_all()

    @property
    def asking_a_person(self) -> bool:
        """True while a handler waits for a person's answer (our requests' timeouts are held meanwhile)."""
        return self.answering.asking > 0

    def watch_person(self, callback: Callable[[bool], None]) -> Callable[[], None]:
        """``callback(True)`` when the server's request starts waiting for a person, ``callback(False)`` when no
        request does any more (see ``handlers.asking_a_person``); returns the function that stops watching."""
        return self.answering.watch_person(callback)

    def renewed(self, result: dict[str, Any], elapsed: float) -> None:
        era_reason = self.server.era_reason if self.server is not None else ""
        self.server = server_info_of(self.session, result, elapsed, era_reason)

    def note(self, message: str) -> None:
        """A line in the traffic log from the connection itself (recorded and passed on like a transport's)."""
        self._on_transport_event(TransportNote(message))

    # ------------------------------------------------------------------ outbound and time

    def pump(self) -> None:
        """Send whatever the session queued, and re-arm the deadline timer. What goes wrong on the way (the
        recorder or ``on_message`` raising) ends the connection with one line."""
        self._supervisor.guard("sending", self._pump_out)

    def _pump_out(self) -> None:
        out = self.session.pop_outgoing()
        if out:
            for wire in out:
                if self.recorder is not None:
                    self.recorder.record_message(wire)
                if self.on_message is not None:
                    self.on_message(wire)
            if self.closed_event is None:
                self._writer.push(out, start=self.loop is not None)
        self._arm_timer()

    def _arm_timer(self) -> None:
        if self.loop is None or self.closed_event is not None:
            return
        self._timer.arm(self.loop, self.session.next_deadline())

    def _on_timer(self) -> None:
        self._supervisor.guard("checking deadlines", self._check_deadlines)

    def _check_deadlines(self) -> None:
        timed_out = self.session.check_timeouts()
        for failed in timed_out:
            self._requests.fail(failed)
        self._abandon([failed.request_id for failed in timed_out])
        self.pump()

    def _abandon(self, request_ids: list[RequestId]) -> None:
        """These requests ended unanswered (timed out, cancelled): the transport stops working for them
        (an HTTP transport stops resuming their response streams)."""
        if request_ids:
            self.transport.abandon(request_ids)

    # ------------------------------------------------------------------ supervision

    @property
    def loop(self) -> asyncio.AbstractEventLoop | None:
        """The event loop the connection runs on (None: not connected yet)."""
        return self._supervisor.loop

    def spawn(self, coro: Coroutine[Any, Any, None], what: str) -> asyncio.Task[None]:
        """A background task of this connection; an exception it ends with ends the connection (``_broken``)."""
        return self._supervisor.spawn(coro, what)

    def _broken(self, reason: str) -> None:
        """Something failed that nobody expected: the connection is lost, with ``reason`` as its one line.

        Everything pending fails now with ``ConnectionLost`` (as when the transport closes), the failure is
        recorded and reported like a transport's closing (``TransportClosed``, unexpected), and the transport
        is closed in the background (``close()`` waits for it)."""
        if self.closed_event is not None:
            return
        event = TransportClosed(f"the connection failed: {reason}", expected=False)
        try:
            self._handle_transport_event(event)
        except Exception:  # the recorder or a callback is what broke: end the connection without them
            if self.closed_event is None:
                self.closed_event = event
            self._fail_all(ConnectionLost(event.reason, event))
        if self.loop is not None and self._started and self._close_task is None:
            self._closing = True
            self._close_task = self.loop.create_task(self._close(), name="connection-close")
            self._close_task.add_done_callback(retrieve)


def with_meta(params: dict[str, Any] | None, meta: dict[str, Any]) -> dict[str, Any]:
    """``params`` with ``meta``'s keys added to ``params._meta`` (keys already there win); a new dict."""
    out = dict(params or {})
    given = out.get("_meta")
    out["_meta"] = {**meta, **given} if isinstance(given, dict) else dict(meta)
    return out


def _event_name(event: TransportEvent) -> str:
    return {"DataReceived": "data", "FrameReceived": "a message"}.get(type(event).__name__, type(event).__name__)
