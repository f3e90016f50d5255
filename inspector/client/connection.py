"""Connection = transport + session, with an awaitable API for every handshake-era method.

The session (sans-I/O) decides; this class moves bytes, keeps futures keyed by request id,
runs the server-request handlers as tasks, and arms one timer for the nearest deadline.

Session expiry and requests the transport could not deliver (HTTP): see :mod:`inspector.client.renewal`.

Every background task (the writer, each server-request handler, the re-initialization after a session
expired) and every callback of the transport or the timer is supervised: an exception nobody expected (a
transport raising what it should not, a broken recorder or callback, a bug) ends the connection as a lost
one, with one line naming what failed (:meth:`Connection._broken`), so that every pending request fails at
once instead of at its timeout, and the transport is closed. Nothing ends as "Task exception was never
retrieved".
"""

from __future__ import annotations

import asyncio
import functools
import time
from collections import deque
from collections.abc import Awaitable, Callable, Coroutine
from dataclasses import dataclass, replace
from typing import Any, Final, Protocol

from inspector.client.errors import (
    CapabilityNotDeclared,
    ClientError,
    ConnectFailed,
    ConnectionLost,
    InvalidResponse,
    NotConnected,
    RemoteError,
    RequestCancelled,
    RequestTimeout,
    describe_exception,
    message_of,
)
from inspector.client.handlers import (
    HandlerError,
    HeadlessHandlers,
    RequestInfo,
    ServerRequestHandlers,
    current_request,
)
from inspector.client.renewal import DeliveryFailed, SessionRenewal
from inspector.protocol import session as _session
from inspector.protocol.diagnostics import Diagnostic, Severity
from inspector.protocol.events import (
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
from inspector.protocol.jsonrpc import INTERNAL_ERROR
from inspector.protocol.limits import Limits
from inspector.protocol.pagination import Paginator
from inspector.protocol.session import ClientSession, SessionState, Timeouts
from inspector.protocol.versions import DEFAULT_VERSION
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
)

__all__ = ["Connection", "DeliveryFailed", "ProgressCallback", "Recorder", "ServerInfo"]

ProgressCallback = Callable[[float, float | None, str | None], None]


class Recorder(Protocol):
    """Where the connection records traffic (``inspector.store.recording.Recording``).

    A recorder that writes in the background may also have ``backlogged`` and ``drained`` (bools): while
    it is backlogged the transport stops reading until it has drained.
    """

    def record_message(self, msg: WireMessage) -> None: ...

    def record_transport(self, event: TransportEvent) -> None: ...


BACKLOG_POLL: Final = 0.005
"""Seconds between looks at a backlogged recorder."""


def _resolve(fut: asyncio.Future[None]) -> None:
    if not fut.done():
        fut.set_result(None)


@dataclass(frozen=True, slots=True)
class ServerInfo:
    """What the handshake established."""

    protocol_version: str
    server_info: dict[str, Any]
    capabilities: dict[str, Any]
    instructions: str | None
    result: dict[str, Any]
    elapsed: float
    """Seconds from starting the transport to the end of the handshake."""


class Connection(SessionRenewal):
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
    ) -> None:
        """``limits``: what the session bounds (a message's size); None: the transport's own limits."""
        self.transport = transport
        transport.backpressure = self._backpressure
        self.timeouts = timeouts or Timeouts()
        self._init_renewal()
        self.session = ClientSession(
            protocol_version=protocol_version,
            capabilities=capabilities,
            client_info=client_info,
            id_generator=self._ids,
            clock=time.monotonic,
            default_timeouts=self.timeouts,
            validate=validate,
            limits=limits if limits is not None else transport.limits,
        )
        self.handlers: ServerRequestHandlers = handlers or HeadlessHandlers()
        self.recorder = recorder
        self.on_notification = on_notification
        self.on_message = on_message
        self.on_transport_event = on_transport_event
        self.diagnostics: list[Diagnostic] = []
        self.stderr_tail: deque[str] = deque(maxlen=50)
        self.server: ServerInfo | None = None
        self.closed_event: TransportClosed | None = None
        self._futures: dict[RequestId, asyncio.Future[Any]] = {}
        self._progress: dict[RequestId, ProgressCallback] = {}
        self._handler_tasks: dict[RequestId, asyncio.Task[None]] = {}
        self._sendq: deque[WireMessage] = deque()
        self._writer: asyncio.Task[None] | None = None
        self._timer: asyncio.TimerHandle | None = None
        self._timer_at: float | None = None
        self._loop: asyncio.AbstractEventLoop | None = None
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
        self._loop = asyncio.get_running_loop()
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
            raise ConnectFailed(self._lost_reason(self.closed_event))
        rid = self.session.start()
        fut = self._loop.create_future()
        self._futures[rid] = fut
        self._pump()
        try:
            result = await fut
        except ConnectionLost as exc:
            raise ConnectFailed(message_of(exc)) from None
        except RequestTimeout as exc:
            await self._abort()
            raise ConnectFailed(f"no answer to initialize: {message_of(exc)}") from None
        except (RemoteError, InvalidResponse) as exc:
            await self._abort()
            raise ConnectFailed(message_of(exc)) from None
        except DeliveryFailed as exc:
            await self._abort()
            raise ConnectFailed(message_of(exc)) from exc  # __cause__.error: e.g. HttpAuthError for the OAuth layer
        except asyncio.CancelledError:
            await self._abort()
            raise
        s = self.session
        self.server = ServerInfo(
            s.protocol_version, s.server_info, s.server_capabilities, s.instructions, result, time.monotonic() - t0
        )
        return self.server

    async def _abort(self) -> None:
        try:
            await self.close()
        except Exception:  # closing after a failure must not mask the failure
            pass

    async def close(self) -> None:
        """Close the transport and fail whatever is still pending; idempotent (a second call waits for the
        first to finish)."""
        if self._close_task is None:
            self._closing = True
            self._close_task = asyncio.get_running_loop().create_task(self._close(), name="connection-close")
        await asyncio.shield(self._close_task)

    async def _close(self) -> None:
        for task in list(self._handler_tasks.values()):
            task.cancel()
        self._stop_renewal(NotConnected("connection closed"))
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None
        writer = self._writer
        if writer is not None and not writer.done():
            try:
                await asyncio.wait_for(asyncio.shield(writer), 1.0)
            except (TimeoutError, Exception):  # best effort flush before closing
                writer.cancel()
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
    ) -> Any:
        """Send a request and return its raw result. ``timeout`` overrides the per-request period."""
        await self._wait_reinit()
        if not self.is_open:
            raise NotConnected(self._not_open_reason())
        timeouts = self.timeouts if timeout is None else replace(self.timeouts, request=timeout)
        want_progress = on_progress is not None if progress is None else progress
        try:
            rid = self.session.send_request(method, params, forced=forced, progress=want_progress, timeouts=timeouts)
        except _session.CapabilityNotDeclared as exc:
            raise CapabilityNotDeclared(exc.method, exc.capability) from None
        except _session.LocalProtocolError as exc:
            raise NotConnected(message_of(exc)) from None
        assert self._loop is not None
        fut: asyncio.Future[Any] = self._loop.create_future()
        self._futures[rid] = fut
        if on_progress is not None:
            self._progress[rid] = on_progress
        self._pump()
        try:
            return await fut
        except asyncio.CancelledError:
            rid = self._current_id(rid)
            if rid in self.session.pending:
                self.session.cancel(rid, "cancelled by the client")
                self._futures.pop(rid, None)
                self._progress.pop(rid, None)
                self._abandon([rid])
                self._pump()
            raise

    async def notify(self, method: str, params: dict[str, Any] | None = None) -> None:
        await self._wait_reinit()
        if not self.is_open:
            raise NotConnected(self._not_open_reason())
        self.session.send_notification(method, params)
        self._pump()

    async def ping(self) -> Any:
        return await self.request("ping")

    async def _list(self, method: str, key: str, params: dict[str, Any] | None = None) -> dict[str, Any]:
        pager = Paginator(key, params)
        while not pager.done:
            pager.add_page(await self.request(method, pager.next_params()))
        self.diagnostics.extend(pager.diagnostics)
        return pager.merged()

    async def list_tools(self) -> dict[str, Any]:
        return await self._list("tools/list", "tools")

    async def list_resources(self) -> dict[str, Any]:
        return await self._list("resources/list", "resources")

    async def list_resource_templates(self) -> dict[str, Any]:
        return await self._list("resources/templates/list", "resourceTemplates")

    async def list_prompts(self) -> dict[str, Any]:
        return await self._list("prompts/list", "prompts")

    async def call_tool(
        self,
        name: str,
        arguments: dict[str, Any] | None = None,
        *,
        on_progress: ProgressCallback | None = None,
        timeout: float | None = None,
        forced: bool = False,
    ) -> Any:
        params: dict[str, Any] = {"name": name}
        if arguments is not None:
            params["arguments"] = arguments
        # a progress token is always offered so that progress can keep a long call alive
        return await self.request(
            "tools/call", params, on_progress=on_progress, timeout=timeout, progress=True, forced=forced
        )

    async def read_resource(self, uri: str) -> Any:
        return await self.request("resources/read", {"uri": uri})

    async def subscribe_resource(self, uri: str) -> Any:
        return await self.request("resources/subscribe", {"uri": uri})

    async def unsubscribe_resource(self, uri: str) -> Any:
        return await self.request("resources/unsubscribe", {"uri": uri})

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
        return await self.request("logging/setLevel", {"level": level})

    async def send_roots_list_changed(self) -> None:
        await self.notify("notifications/roots/list_changed")

    @property
    def violations(self) -> list[Diagnostic]:
        return [d for d in self.diagnostics if d.severity is Severity.VIOLATION]

    # ------------------------------------------------------------------ inbound

    def _backpressure(self) -> Awaitable[None] | None:
        recorder = self.recorder
        if recorder is None or self._loop is None or not getattr(recorder, "backlogged", False):
            return None
        return self._recorder_drained(recorder, self._loop)

    @staticmethod
    async def _recorder_drained(recorder: Recorder, loop: asyncio.AbstractEventLoop) -> None:
        # The connection's loop, not asyncio.sleep(): a reader's step may run outside the running loop (the
        # window's last event processing at shutdown).
        while not getattr(recorder, "drained", True):
            pause: asyncio.Future[None] = loop.create_future()
            loop.call_later(BACKLOG_POLL, _resolve, pause)
            await pause

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
                self._on_session_expired(event)
            elif isinstance(event, SendFailed):
                self._on_send_failed(event)
        self._pump()

    def _on_received(self, rec: Received) -> None:
        wire = rec.wire
        if wire.diagnostics:
            self.diagnostics.extend(wire.diagnostics)
        if self.recorder is not None:
            self.recorder.record_message(wire)
        if self.on_message is not None:
            self.on_message(wire)
        for ev in rec.events:
            if isinstance(ev, ResponseReceived):
                self._reinit_streak = 0
                self._progress.pop(ev.request_id, None)
                fut = self._futures.pop(ev.request_id, None)
                if fut is not None and not fut.done():
                    fut.set_result(ev.result)
            elif isinstance(ev, RequestFailed):
                self._fail_request(ev)
            elif isinstance(ev, HandshakeCompleted):
                self.transport.on_negotiated(ev.protocol_version)
                fut = self._futures.pop(wire.id, None) if wire.id is not None else None
                if fut is not None and not fut.done():
                    fut.set_result(ev.result)
            elif isinstance(ev, HandshakeFailed):
                for rid, fut in list(self._futures.items()):
                    if not fut.done():
                        fut.set_exception(ConnectFailed(ev.reason))
                    self._futures.pop(rid, None)
            elif isinstance(ev, ProgressReceived):
                cb = self._progress.get(ev.request_id)
                if cb is not None:
                    cb(ev.progress, ev.total, ev.message)
            elif isinstance(ev, NotificationReceived):
                if self.on_notification is not None:
                    self.on_notification(ev)
            elif isinstance(ev, RequestReceived):
                self._start_handler(ev, wire)
            elif isinstance(ev, RequestCancelledByServer):
                task = self._handler_tasks.pop(ev.id, None)
                if task is not None:
                    task.cancel()

    def _fail_request(self, ev: RequestFailed) -> None:
        self._progress.pop(ev.request_id, None)
        fut = self._futures.pop(ev.request_id, None)
        if fut is None or fut.done():
            return
        exc: ClientError
        if ev.kind == "error":
            exc = RemoteError(ev.code, ev.reason, ev.data, method=ev.method)
        elif ev.kind == "timeout":
            exc = RequestTimeout(ev.reason)
        elif ev.kind == "invalid":
            exc = InvalidResponse(f"{ev.method}: {ev.reason}")
        elif ev.kind == "cancelled":
            exc = RequestCancelled(ev.reason)
        else:
            exc = ConnectionLost(ev.reason, self.closed_event)
        fut.set_exception(exc)

    def _on_closed(self, event: TransportClosed) -> None:
        if self.closed_event is not None:
            return  # the connection already ended (see _broken); the transport closing now changes nothing
        self.closed_event = event
        reason = self._lost_reason(event)
        for failed in self.session.connection_lost(reason):
            self._fail_request(failed)
        self._fail_all(ConnectionLost(reason, event))
        self._stop_renewal(ConnectionLost(reason, event))
        for task in list(self._handler_tasks.values()):
            task.cancel()
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None

    def _lost_reason(self, event: TransportClosed) -> str:
        if event.stderr_tail or not self.stderr_tail:
            return event.describe()
        return replace(event, stderr_tail=tuple(self.stderr_tail)).describe()

    def _fail_all(self, exc: ClientError) -> None:
        for fut in self._futures.values():
            if not fut.done():
                fut.set_exception(exc)
                fut.exception()  # mark retrieved: nobody may be awaiting it any more
        self._futures.clear()
        self._progress.clear()

    def _not_open_reason(self) -> str:
        if self.closed_event is not None:
            return f"not connected: {self._lost_reason(self.closed_event)}"
        if self.session.failure:
            return f"not connected: {self.session.failure}"
        return f"not connected (session {self.session.state.value})"

    def _renewed(self, result: dict[str, Any], elapsed: float) -> None:
        s = self.session
        self.server = ServerInfo(
            s.protocol_version, s.server_info, s.server_capabilities, s.instructions, result, elapsed
        )

    # ------------------------------------------------------------------ server requests

    def _start_handler(self, ev: RequestReceived, wire: WireMessage | None = None) -> None:
        assert self._loop is not None
        diagnostics = tuple(wire.diagnostics) if wire is not None else ev.diagnostics
        info = RequestInfo(ev.id, ev.method, ev.wire_method, diagnostics)
        task = self._spawn(self._run_handler(ev, info), f"answering the server's {ev.wire_method} request")
        self._handler_tasks[ev.id] = task

    async def _run_handler(self, ev: RequestReceived, info: RequestInfo | None = None) -> None:
        params = ev.params or {}
        current_request.set(info or RequestInfo(ev.id, ev.method, ev.wire_method, ev.diagnostics))
        try:
            if ev.method == "sampling/createMessage":
                result = await self.handlers.create_message(params)
            elif ev.method == "elicitation/create":
                result = await self.handlers.elicit(params)
            elif ev.method == "roots/list":
                result = await self.handlers.list_roots(params)
            else:
                raise HandlerError(-32601, f"Method not found: {ev.wire_method}")
        except asyncio.CancelledError:
            self._handler_tasks.pop(ev.id, None)
            return
        except HandlerError as exc:
            self._answer(ev.id, error=(exc.code, exc.message, exc.data))
            return
        except Exception as exc:  # a broken handler answers the server, never kills the session
            self._answer(ev.id, error=(INTERNAL_ERROR, f"client handler failed: {describe_exception(exc)}", None))
            return
        try:
            self._answer(ev.id, result=result)
        except (TypeError, ValueError) as exc:  # a result that cannot be sent (not JSON): the server hears why
            self._answer(ev.id, error=(INTERNAL_ERROR, f"client handler failed: {describe_exception(exc)}", None))

    def _answer(
        self, rid: RequestId, *, result: dict[str, Any] | None = None, error: tuple[int, str, Any] | None = None
    ) -> None:
        self._handler_tasks.pop(rid, None)
        if not self.session.is_answerable(rid) or self.closed_event is not None:
            return
        if error is not None:
            self.session.respond_error(rid, *error)
        else:
            self.session.respond(rid, result or {})
        self._pump()

    # ------------------------------------------------------------------ outbound and time

    def _pump(self) -> None:
        """Send whatever the session queued, and re-arm the deadline timer. What goes wrong on the way (the
        recorder or ``on_message`` raising) ends the connection with one line."""
        try:
            self._pump_out()
        except Exception as exc:
            self._broken(f"internal error sending: {describe_exception(exc)}")

    def _pump_out(self) -> None:
        out = self.session.pop_outgoing()
        if out:
            for wire in out:
                if self.recorder is not None:
                    self.recorder.record_message(wire)
                if self.on_message is not None:
                    self.on_message(wire)
            if self.closed_event is None:
                self._sendq.extend(out)
                if self._writer is None and self._loop is not None:
                    self._writer = self._spawn(self._write_loop(), "the connection's writer")
        self._arm_timer()

    async def _write_loop(self) -> None:
        try:
            while self._sendq:
                wire = self._sendq.popleft()
                try:
                    await self.transport.send(wire.raw)
                except TransportError:
                    self._sendq.clear()
                    return  # the transport reports the close itself (TransportClosed)
                except Exception as exc:  # what a transport must not raise: the connection cannot go on
                    self._sendq.clear()
                    what = wire.method or wire.kind.value
                    self._broken(f"the transport failed to send {what}: {describe_exception(exc)}")
                    return
        finally:
            if self._writer is asyncio.current_task():
                self._writer = None

    def _arm_timer(self) -> None:
        if self._loop is None or self.closed_event is not None:
            return
        deadline = self.session.next_deadline()
        if deadline is None:
            if self._timer is not None:
                self._timer.cancel()
                self._timer = self._timer_at = None
            return
        if self._timer is not None and self._timer_at is not None and self._timer_at <= deadline:
            return  # an earlier (or equal) wake-up is already armed; it re-arms when it fires
        if self._timer is not None:
            self._timer.cancel()
        delay = max(0.0, deadline - time.monotonic())
        self._timer_at = deadline
        self._timer = self._loop.call_later(delay, self._on_timer)

    def _on_timer(self) -> None:
        try:
            self._check_deadlines()
        except Exception as exc:
            self._broken(f"internal error checking deadlines: {describe_exception(exc)}")

    def _check_deadlines(self) -> None:
        self._timer = self._timer_at = None
        timed_out = self.session.check_timeouts()
        for failed in timed_out:
            self._fail_request(failed)
        self._abandon([failed.request_id for failed in timed_out])
        self._pump()

    def _abandon(self, request_ids: list[RequestId]) -> None:
        """These requests ended unanswered (timed out, cancelled): the transport stops working for them
        (an HTTP transport stops resuming their response streams)."""
        if request_ids:
            self.transport.abandon(request_ids)

    # ------------------------------------------------------------------ supervision

    def _spawn(self, coro: Coroutine[Any, Any, None], what: str) -> asyncio.Task[None]:
        """A background task of this connection; an exception it ends with ends the connection (``_broken``)."""
        assert self._loop is not None
        task = self._loop.create_task(coro, name=f"connection: {what}")
        task.add_done_callback(functools.partial(self._task_done, what))
        return task

    def _task_done(self, what: str, task: asyncio.Task[None]) -> None:
        if task.cancelled():
            return
        exc = task.exception()  # (retrieved: never "Task exception was never retrieved")
        if exc is not None:
            self._broken(f"internal error in {what}: {describe_exception(exc)}")

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
        if self._loop is not None and self._started and self._close_task is None:
            self._closing = True
            self._close_task = self._loop.create_task(self._close(), name="connection-close")
            self._close_task.add_done_callback(_retrieve)


def _retrieve(task: asyncio.Task[None]) -> None:
    """Done callback of a task nobody may await: its exception is taken (and dropped) so it is never logged."""
    if not task.cancelled():
        task.exception()


def _event_name(event: TransportEvent) -> str:
    return {"DataReceived": "data", "FrameReceived": "a message"}.get(type(event).__name__, type(event).__name__)
