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
"""

from __future__ import annotations

import asyncio
import itertools
import json
import time
from collections import deque
from collections.abc import Callable, Coroutine
from dataclasses import dataclass
from typing import Any, Final

from inspector.client.errors import CapabilityNotDeclared, ClientError, ConnectionLost, NotConnected, message_of
from inspector.protocol import session as _session
from inspector.protocol.session import ClientSession, Timeouts
from inspector.protocol.wire import Kind, RequestId, WireMessage
from inspector.transports.base import (
    SendFailed,
    SessionExpired,
    TransportClosed,
    TransportError,
    TransportEvent,
    TransportNote,
)

__all__ = ["MAX_REINIT_STREAK", "DeliveryFailed", "SessionRenewal"]

MAX_REINIT_STREAK: Final = 3
_ProgressCallback = Callable[[float, float | None, str | None], None]


class DeliveryFailed(ClientError):
    """The transport could not deliver a request, or its answer can no longer arrive (an HTTP error status,
    an HTML page, a response stream broken for good). ``error`` is the transport's own error: for 401/403 an
    ``inspector.transports.http_common.HttpAuthError`` carrying the ``WWW-Authenticate`` challenge."""

    def __init__(self, message: str, error: TransportError | None = None) -> None:
        super().__init__(message)
        self.error = error


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
    on_progress: _ProgressCallback | None


def _request_params(raw: bytes) -> tuple[RequestId, dict[str, Any] | None] | None:
    """(id, params without our progress token) of a request frame we sent; None for anything else."""
    try:
        msg = json.loads(raw)
    except (ValueError, RecursionError):
        return None
    if not isinstance(msg, dict) or not isinstance(msg.get("method"), str):
        return None
    rid = msg.get("id")
    if not isinstance(rid, int | str) or isinstance(rid, bool):
        return None
    params = msg.get("params")
    if not isinstance(params, dict):
        return rid, None
    params = dict(params)
    meta = dict(params.pop("_meta", None) or {})
    meta.pop("progressToken", None)
    if meta:
        params["_meta"] = meta
    return rid, params


class SessionRenewal:
    """Mixin of ``Connection``: the handling of ``SendFailed`` and ``SessionExpired``."""

    # What it uses of the connection.
    session: ClientSession
    timeouts: Timeouts
    closed_event: TransportClosed | None
    _futures: dict[RequestId, asyncio.Future[Any]]
    _progress: dict[RequestId, _ProgressCallback]
    _handler_tasks: dict[RequestId, asyncio.Task[None]]
    _sendq: deque[WireMessage]
    _loop: asyncio.AbstractEventLoop | None
    _closing: bool

    def _pump(self) -> None:
        raise NotImplementedError

    def _spawn(self, coro: Coroutine[Any, Any, None], what: str) -> asyncio.Task[None]:
        """A supervised background task (an exception it ends with ends the connection)."""
        raise NotImplementedError

    def _on_transport_event(self, event: TransportEvent) -> None:
        raise NotImplementedError

    async def close(self) -> None:
        raise NotImplementedError

    def _renewed(self, result: dict[str, Any], elapsed: float) -> None:
        """The new session's handshake completed (the connection updates what it knows of the server)."""
        raise NotImplementedError

    # ------------------------------------------------------------------ state

    def _init_renewal(self) -> None:
        self._ids = itertools.count(1)
        """Shared by every session of this connection, so that ids stay unique across re-initializations."""
        self._reinit_task: asyncio.Task[None] | None = None
        self._retries: list[_Carried] = []
        self._orphans: dict[RequestId, _Carried] = {}
        self._expired: set[str] = set()
        self._reinit_streak = 0
        self._moved: dict[RequestId, RequestId] = {}
        """Old id -> new id of requests sent again in a new session."""

    def _current_id(self, rid: RequestId) -> RequestId:
        """The id a request has now (it changes when it is sent again in a new session)."""
        while rid in self._moved:
            rid = self._moved.pop(rid)
        return rid

    async def _wait_reinit(self) -> None:
        task = self._reinit_task
        if task is not None and not task.done() and task is not asyncio.current_task():
            await asyncio.wait({task})

    def _stop_renewal(self, exc: ClientError) -> None:
        """The connection ends: no new session, and what was carried over fails with ``exc``."""
        if self._reinit_task is not None and self._reinit_task is not asyncio.current_task():
            self._reinit_task.cancel()
        self._fail_carried(exc)

    # ------------------------------------------------------------------ events

    def _on_send_failed(self, event: SendFailed) -> None:
        error = DeliveryFailed(event.message, event.error)
        for rid in event.request_ids:
            carried = self._orphans.pop(rid, None)
            if carried is not None and not carried.future.done():
                carried.future.set_exception(error)
            fut = self._futures.pop(rid, None)
            self._progress.pop(rid, None)
            if rid in self.session.pending:
                self.session.cancel(rid, event.message)
            if fut is not None and not fut.done():
                fut.set_exception(error)

    def _on_session_expired(self, event: SessionExpired) -> None:
        if self._closing or self.closed_event is not None or self._loop is None:
            return
        refused = dict(found for raw in event.unsent if (found := _request_params(raw)) is not None)
        if event.session_id in self._expired:
            # a late refusal from a session already replaced: that request was not processed either
            for rid, params in refused.items():
                carried = self._orphans.pop(rid, None)
                if carried is not None:
                    carried.params = params
                    self._retries.append(carried)
            if self._reinit_task is None or self._reinit_task.done():
                self._resend()
            return
        self._expired.add(event.session_id)
        self._reinit_streak += 1
        for wire in self._sendq:  # not sent yet: they belong to the old session, which never saw them
            if wire.kind is Kind.REQUEST and (found := _request_params(wire.raw)) is not None:
                refused.setdefault(*found)
        self._sendq.clear()
        old = self.session
        self._carry_over(old, refused)
        old.connection_lost(event.describe())
        for task in list(self._handler_tasks.values()):
            task.cancel()
        if self._reinit_task is not None:
            self._reinit_task.cancel()
        if self._reinit_streak > MAX_REINIT_STREAK:
            reason = f"the server ended {self._reinit_streak} sessions in a row before answering anything; giving up"
            self._note(reason)
            self._fail_carried(ConnectionLost(reason))
            self._reinit_task = self._spawn(self.close(), "closing the connection")
            return
        self._note(f"{event.describe()}; starting a new session")
        self.session = ClientSession(
            protocol_version=old.offered_version,
            capabilities=old.client_capabilities,
            client_info=old.client_info,
            id_generator=self._ids,
            clock=time.monotonic,
            default_timeouts=self.timeouts,
            validate=old.validate,
            limits=old.limits,
        )
        fut = self._loop.create_future()
        self._futures[self.session.start()] = fut
        self._reinit_task = self._spawn(self._reinitialize(fut), "starting a new session")

    def _carry_over(self, old: ClientSession, refused: dict[RequestId, dict[str, Any] | None]) -> None:
        for rid, pending in list(old.pending.items()):
            fut = self._futures.pop(rid, None)
            callback = self._progress.pop(rid, None)
            if fut is None or fut.done() or pending.method == "initialize":
                continue
            carried = _Carried(
                rid, pending.method, refused.get(rid), pending.timeouts, pending.forced,
                pending.progress_token is not None, fut, callback,
            )  # fmt: skip
            if rid in refused:
                self._retries.append(carried)
            else:
                self._orphans[rid] = carried

    async def _reinitialize(self, fut: asyncio.Future[Any]) -> None:
        t0 = time.monotonic()
        try:
            result = await fut
        except ClientError as exc:
            self._fail_carried(
                ConnectionLost(f"the server ended the session and starting a new one failed: {message_of(exc)}")
            )
            return
        self._renewed(result, time.monotonic() - t0)
        self._note(f"new session started (protocol {self.session.protocol_version})")
        orphans, self._orphans = self._orphans, {}
        for carried in orphans.values():
            if not carried.future.done():
                carried.future.set_exception(
                    ConnectionLost(f"the server ended the session before answering {carried.method}; not re-sent")
                )
        self._resend()

    def _resend(self) -> None:
        retries, self._retries = self._retries, []
        for carried in retries:
            if carried.future.done():
                continue
            try:
                rid = self.session.send_request(
                    carried.method, carried.params, forced=carried.forced, progress=carried.progress,
                    timeouts=carried.timeouts,
                )  # fmt: skip
            except _session.CapabilityNotDeclared as exc:
                carried.future.set_exception(CapabilityNotDeclared(exc.method, exc.capability))
                continue
            except _session.LocalProtocolError as exc:
                carried.future.set_exception(NotConnected(message_of(exc)))
                continue
            self._moved[carried.id] = rid
            self._futures[rid] = carried.future
            if carried.on_progress is not None:
                self._progress[rid] = carried.on_progress
        self._pump()

    def _fail_carried(self, exc: ClientError) -> None:
        carried = [*self._retries, *self._orphans.values()]
        self._retries, self._orphans = [], {}
        for item in carried:
            if not item.future.done():
                item.future.set_exception(exc)

    def _note(self, message: str) -> None:
        """A line in the traffic log from the connection itself (recorded and passed on like a transport's)."""
        self._on_transport_event(TransportNote(message))
