"""Our requests in flight: sent through the session in use, awaited by their caller, failed with the error the
session reports, cancelled when the caller stops waiting; and the long-lived ones whose notifications carry
their id (``subscriptions/listen``, 2026-07-28).

The caller's future is kept by request id in :class:`~inspector.client.outstanding.Outstanding`, which follows a
logical request across its new ids (a renewed session, the rounds of a multi-round-trip request), so that a
caller who stops waiting cancels the round in flight. What a listen stream asks for and acknowledges is
:mod:`inspector.client.listen`'s business; here it is a request whose notifications go to whoever opened it.

:class:`Requesting` is a collaborator of the connection, working through the :class:`RequestHost` interface.
"""

from __future__ import annotations

import asyncio
import functools
from collections.abc import Callable
from dataclasses import replace
from typing import Any, Protocol

from inspector.client.answering import Answering
from inspector.client.errors import (
    CapabilityNotDeclared,
    ClientError,
    ConnectionLost,
    InvalidResponse,
    NotConnected,
    RemoteError,
    RequestCancelled,
    RequestTimeout,
    message_of,
)
from inspector.client.listen import subscription_id
from inspector.client.outstanding import Outstanding, ProgressCallback
from inspector.client.renewal import SessionRenewal
from inspector.client.rounds import round_watcher
from inspector.protocol import session as _session
from inspector.protocol.events import NotificationReceived, RequestFailed
from inspector.protocol.session import ClientSession, Timeouts
from inspector.protocol.wire import RequestId
from inspector.transports.base import Transport, TransportClosed

__all__ = ["RequestHost", "Requesting"]


class RequestHost(Protocol):
    """What sending requests needs of the connection."""

    session: ClientSession
    outstanding: Outstanding
    renewal: SessionRenewal
    answering: Answering
    timeouts: Timeouts
    transport: Transport
    closed_event: TransportClosed | None

    @property
    def loop(self) -> asyncio.AbstractEventLoop | None: ...

    @property
    def is_open(self) -> bool: ...

    def not_open_reason(self) -> str:
        """Why no request can be sent (the connection is not open)."""
        ...

    def pump(self) -> None: ...


class Requesting:
    def __init__(self, host: RequestHost) -> None:
        self._host = host
        self._streams: dict[RequestId, Callable[[NotificationReceived], None]] = {}
        """Open streams -> who gets the notifications that carry their id."""

    async def send(
        self,
        method: str,
        params: dict[str, Any] | None,
        *,
        forced: bool,
        timeout: float | None,
        on_progress: ProgressCallback | None,
        progress: bool | None,
    ) -> Any:
        """Send a request (once a renewal in progress is done) and await its result; ``timeout`` overrides the
        per-request period, ``progress`` whether a progress token is offered (None: when ``on_progress``)."""
        host = self._host
        await host.renewal.wait()
        if not host.is_open:
            raise NotConnected(host.not_open_reason())
        timeouts = host.timeouts if timeout is None else replace(host.timeouts, request=timeout)
        want_progress = on_progress is not None if progress is None else progress
        try:
            rid = host.session.send_request(method, params, forced=forced, progress=want_progress, timeouts=timeouts)
        except _session.CapabilityNotDeclared as exc:
            raise CapabilityNotDeclared(exc.method, exc.capability) from None
        except _session.LocalProtocolError as exc:
            raise NotConnected(message_of(exc)) from None
        loop = host.loop
        assert loop is not None
        fut: asyncio.Future[Any] = loop.create_future()
        host.outstanding.add(rid, fut, on_progress, round_watcher.get())
        host.pump()
        try:
            return await fut
        except asyncio.CancelledError:
            rid = host.outstanding.current_id(rid)
            host.answering.stop_input(rid)
            if rid in host.session.pending or host.session.waiting_for_input(rid):
                self._cancel(rid, "cancelled by the client")
            raise

    def fail(self, ev: RequestFailed) -> None:
        """The session says the request failed: its caller gets the error (unless it stopped waiting)."""
        fut, _ = self._host.outstanding.take(ev.request_id)
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
            exc = ConnectionLost(ev.reason, self._host.closed_event)
        fut.set_exception(exc)

    def start_stream(
        self,
        method: str,
        params: dict[str, Any] | None,
        on_notification: Callable[[NotificationReceived], None],
        timeouts: Timeouts,
    ) -> tuple[RequestId, asyncio.Future[Any]]:
        """Send a long-lived request: its id and the future of its final answer (or error); until then the
        notifications that carry its id go to ``on_notification``."""
        host = self._host
        if not host.is_open:
            raise NotConnected(host.not_open_reason())
        try:
            rid = host.session.send_request(method, params, timeouts=timeouts)
        except _session.LocalProtocolError as exc:
            raise NotConnected(message_of(exc)) from None
        loop = host.loop
        assert loop is not None
        fut: asyncio.Future[Any] = loop.create_future()
        fut.add_done_callback(functools.partial(self._stream_ended, rid))
        host.outstanding.add(rid, fut)
        self._streams[rid] = on_notification
        host.pump()
        return rid, fut

    def stop_stream(self, rid: RequestId) -> None:
        """Cancel a stream (nothing when it already ended)."""
        self._streams.pop(rid, None)
        if rid in self._host.session.pending:
            self._cancel(rid, "closed by the client")

    def route(self, ev: NotificationReceived) -> None:
        """Pass a notification to the stream whose id it carries (if any)."""
        route = self._streams.get(subscription_id(ev)) if self._streams else None
        if route is not None:
            route(ev)

    def _cancel(self, rid: RequestId, reason: str) -> None:
        """The request ends unanswered: the session cancels it, its caller is forgotten, and the transport stops
        working for it (an HTTP transport stops resuming its response stream)."""
        host = self._host
        host.session.cancel(rid, reason)
        host.outstanding.take(rid)
        host.transport.abandon([rid])
        host.pump()

    def _stream_ended(self, rid: RequestId, fut: asyncio.Future[Any]) -> None:
        self._streams.pop(rid, None)
        if not fut.cancelled():
            fut.exception()  # retrieved: the subscription reads it, or nobody does
