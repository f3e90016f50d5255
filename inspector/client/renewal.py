"""What the connection does when the transport loses a request or the server ends the session (HTTP).

A ``SendFailed`` event (the transport could not deliver a request, or its answer can no longer arrive) fails
those requests with :class:`DeliveryFailed`, whose ``error`` is the transport's own error
(``inspector.transports.http_common.HttpAuthError`` for 401/403, with the ``WWW-Authenticate`` challenge).

A ``SessionExpired`` event (a 404 to a request carrying the session id) starts a new session transparently:
the old ``ClientSession`` is closed, a new one (same offer, same id counter) runs the handshake, and then

* requests the server refused with that 404, and requests still queued for sending, are sent again in the
  new session (with new ids; the caller's awaitable, progress callback and timeouts carry over): the server
  never processed them, so sending them again is safe;
* requests the old session had already delivered fail with ``ConnectionLost`` ("the server ended the
  session before answering ..."): they may have run, so sending them again could do things twice;
* new requests made meanwhile wait for the new handshake; server requests of the old session are dropped.

After ``MAX_REINIT_STREAK`` expiries in a row without an answer to anything in between, the connection
gives up and closes.

``SessionRenewal`` is a collaborator of the connection, not part of it: it works through the
:class:`RenewalHost` interface (the session in use, the outstanding requests, the unsent queue, the
supervised tasks) and builds the new session with the connection's own factory (``new_session``), so the
era and the offer are the same as the old session's. Re-sent requests are built from the params their
``PendingRequest`` kept, never re-parsed from our own frames.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Coroutine
from dataclasses import dataclass
from typing import Any, Final, Protocol

from inspector.client.errors import CapabilityNotDeclared, ClientError, ConnectionLost, NotConnected, message_of
from inspector.client.outstanding import Outstanding, ProgressCallback
from inspector.protocol import session as _session
from inspector.protocol.session import ClientSession, PendingRequest, Timeouts
from inspector.protocol.wire import Kind, RequestId, WireMessage
from inspector.transports.base import SendFailed, SessionExpired, TransportError
from inspector.transports.jsonpeek import peek

__all__ = ["MAX_REINIT_STREAK", "DeliveryFailed", "RenewalHost", "SessionRenewal"]

MAX_REINIT_STREAK: Final = 3


class DeliveryFailed(ClientError):
    """The transport could not deliver a request, or its answer can no longer arrive (an HTTP error status,
    an HTML page, a response stream broken for good). ``error`` is the transport's own error: for 401/403 an
    ``inspector.transports.http_common.HttpAuthError`` carrying the ``WWW-Authenticate`` challenge."""

    def __init__(self, message: str, error: TransportError | None = None) -> None:
        super().__init__(message)
        self.error = error


class RenewalHost(Protocol):
    """What renewal needs of the connection."""

    session: ClientSession
    outstanding: Outstanding

    @property
    def ending(self) -> bool:
        """The connection is closing or closed: no new session."""
        ...

    def new_session(self) -> ClientSession: ...

    def take_unsent(self) -> list[WireMessage]:
        """Remove and return the frames queued but not yet handed to the transport."""
        ...

    def drop_server_requests(self) -> None:
        """Stop answering the old session's server requests."""
        ...

    def spawn(self, coro: Coroutine[Any, Any, None], what: str) -> asyncio.Task[None]: ...

    def pump(self) -> None: ...

    def note(self, message: str) -> None: ...

    async def close(self) -> None: ...

    def renewed(self, result: dict[str, Any], elapsed: float) -> None:
        """The new session's opening completed (the connection updates what it knows of the server)."""
        ...


@dataclass(slots=True)
class _Carried:
    """A request of an expired session, waiting to be sent again in the next one (or failed)."""

    id: RequestId
    method: str
    params: dict[str, Any] | None
    timeouts: Timeouts
    forced: bool
    progress: bool
    future: asyncio.Future[Any]
    on_progress: ProgressCallback | None

    @classmethod
    def of(cls, pending: PendingRequest, future: asyncio.Future[Any], callback: ProgressCallback | None) -> _Carried:
        return cls(
            pending.id, pending.method, pending.params, pending.timeouts, pending.forced,
            pending.progress_token is not None, future, callback,
        )  # fmt: skip


class SessionRenewal:
    """The handling of ``SendFailed`` and ``SessionExpired`` for one connection."""

    def __init__(self, host: RenewalHost) -> None:
        self._host = host
        self._task: asyncio.Task[None] | None = None
        self._retries: list[_Carried] = []
        self._orphans: dict[RequestId, _Carried] = {}
        self._expired: set[str] = set()
        self.streak = 0
        """Expiries in a row without an answer to anything in between."""

    async def wait(self) -> None:
        """Until a new session is started (new requests wait for it)."""
        task = self._task
        if task is not None and not task.done() and task is not asyncio.current_task():
            await asyncio.wait({task})

    def answered(self) -> None:
        """Something was answered: the streak of expiries ends."""
        self.streak = 0

    def stop(self, exc: ClientError) -> None:
        """The connection ends: no new session, and what was carried over fails with ``exc``."""
        if self._task is not None and self._task is not asyncio.current_task():
            self._task.cancel()
        self._fail_carried(exc)

    # ------------------------------------------------------------------ events

    def on_send_failed(self, event: SendFailed) -> None:
        host = self._host
        error = DeliveryFailed(event.message, event.error)
        for rid in event.request_ids:
            carried = self._orphans.pop(rid, None)
            if carried is not None and not carried.future.done():
                carried.future.set_exception(error)
            if rid in host.session.pending:
                host.session.cancel(rid, event.message)
            host.outstanding.fail(rid, error)

    def on_session_expired(self, event: SessionExpired) -> None:
        host = self._host
        if host.ending:
            return
        old = host.session
        refused = {rid for raw in event.unsent for rid in peek(raw).request_ids}
        if event.session_id in self._expired:
            # a late refusal from a session already replaced: that request was not processed either
            for rid in refused:
                carried = self._orphans.pop(rid, None)
                if carried is not None:
                    self._retries.append(carried)
            if self._task is None or self._task.done():
                self._resend()
            return
        self._expired.add(event.session_id)
        self.streak += 1
        for wire in host.take_unsent():  # not sent yet: they belong to the old session, which never saw them
            if wire.kind is Kind.REQUEST and wire.id is not None:
                refused.add(wire.id)
        self._carry_over(old, refused)
        old.connection_lost(event.describe())
        host.drop_server_requests()
        if self._task is not None:
            self._task.cancel()
        if self.streak > MAX_REINIT_STREAK:
            reason = f"the server ended {self.streak} sessions in a row before answering anything; giving up"
            host.note(reason)
            self._fail_carried(ConnectionLost(reason))
            self._task = host.spawn(host.close(), "closing the connection")
            return
        host.note(f"{event.describe()}; starting a new session")
        host.session = host.new_session()
        loop = asyncio.get_running_loop()
        fut: asyncio.Future[Any] = loop.create_future()
        host.outstanding.add(host.session.start(), fut)
        self._task = host.spawn(self._reinitialize(fut), "starting a new session")

    def _carry_over(self, old: ClientSession, refused: set[RequestId]) -> None:
        for rid, pending in list(old.pending.items()):
            fut, callback = self._host.outstanding.take(rid)
            if fut is None or fut.done() or old.is_opening(rid):
                continue
            carried = _Carried.of(pending, fut, callback)
            if rid in refused:
                self._retries.append(carried)
            else:
                self._orphans[rid] = carried

    async def _reinitialize(self, fut: asyncio.Future[Any]) -> None:
        host = self._host
        t0 = time.monotonic()
        try:
            result = await fut
        except ClientError as exc:
            self._fail_carried(
                ConnectionLost(f"the server ended the session and starting a new one failed: {message_of(exc)}")
            )
            return
        host.renewed(result, time.monotonic() - t0)
        host.note(f"new session started (protocol {host.session.protocol_version})")
        orphans, self._orphans = self._orphans, {}
        for carried in orphans.values():
            if not carried.future.done():
                carried.future.set_exception(
                    ConnectionLost(f"the server ended the session before answering {carried.method}; not re-sent")
                )
        self._resend()

    def _resend(self) -> None:
        host = self._host
        retries, self._retries = self._retries, []
        for carried in retries:
            if carried.future.done():
                continue
            try:
                rid = host.session.send_request(
                    carried.method, carried.params, forced=carried.forced, progress=carried.progress,
                    timeouts=carried.timeouts,
                )  # fmt: skip
            except _session.CapabilityNotDeclared as exc:
                carried.future.set_exception(CapabilityNotDeclared(exc.method, exc.capability))
                continue
            except _session.LocalProtocolError as exc:
                carried.future.set_exception(NotConnected(message_of(exc)))
                continue
            host.outstanding.add(carried.id, carried.future, carried.on_progress)
            host.outstanding.move(carried.id, rid)
        host.pump()

    def _fail_carried(self, exc: ClientError) -> None:
        carried = [*self._retries, *self._orphans.values()]
        self._retries, self._orphans = [], {}
        for item in carried:
            if not item.future.done():
                item.future.set_exception(exc)
