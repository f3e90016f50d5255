"""The SSE streams of the Streamable HTTP transport: reading them, and resuming them when they break.

A POST's response stream hands on one ``FrameReceived`` per ``message`` event until the answers it carries
arrived. In the handshake era one that ends before that is resumed with ``GET`` + ``Last-Event-ID`` (the id
sent as its UTF-8 bytes when it is not ASCII; one that cannot be sent back fails the request) after a wait and
within the budget of :class:`~inspector.transports.http_reconnect_budget.ReconnectBudget` (one ``SendFailed``
names the budget spent); without an event id to resume from the request fails. The GET stream for
server-initiated messages is followed the same way until the session ends or the transport closes (405: the
server offers none, silently accepted; a 404 to a GET carrying the session id expires the session). In the
modern era streams cannot be resumed: one that ends early fails its requests with one line.

A stream that breaks a limit ends with the limit's line and is never resumed. ``abandon`` (see
:mod:`inspector.transports.http_awaiting`) stops a stream quietly once every request it waited for ended.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Collection, Mapping
from typing import Protocol

import httpx2

from inspector.transports.base import (
    FrameReceived,
    MessageId,
    SendFailed,
    TransportError,
    TransportEvent,
    TransportNote,
)
from inspector.transports.http_awaiting import AwaitedRequests
from inspector.transports.http_base import NoAnswer, StreamEnd
from inspector.transports.http_common import status_error
from inspector.transports.http_headers import shown, unsendable
from inspector.transports.http_reconnect_budget import ReconnectBudget
from inspector.transports.jsonpeek import peek
from inspector.transports.sse_parser import SseEvent

__all__ = ["StreamFollower", "StreamHost"]


class StreamHost(Protocol):
    """What following the streams needs of the Streamable HTTP transport."""

    def emit(self, event: TransportEvent) -> None: ...

    def session_alive(self, sid: str | None) -> bool:
        """The transport is not closing and ``sid`` is still its session (None: it has none)."""
        ...

    def stream_headers(self, sid: str | None) -> dict[str, str]:
        """The headers of a GET for a stream of the session ``sid``."""
        ...

    def expire(self, sid: str) -> None:
        """The server ended the session ``sid`` (it answered a GET carrying it with 404)."""
        ...

    async def get_stream(self, headers: Mapping[str, str] | Mapping[bytes, bytes]) -> tuple[httpx2.Response, float]:
        """GET the endpoint: the streaming response and when it was sent; ``NoAnswer`` when none came."""
        ...

    def record_answer(self, response: httpx2.Response, started: float, *, note: str = "") -> None:
        """Record the exchange of a response (an ``HttpExchange``)."""
        ...

    async def read_head(self, response: httpx2.Response) -> bytes:
        """The first bytes of an error body, then the response is closed."""
        ...

    async def read_events(
        self,
        response: httpx2.Response,
        started: float,
        on_event: Callable[[SseEvent], bool],
        *,
        carried: Callable[[], tuple[MessageId, ...]],
        done_note: str,
        record_cancel: bool,
    ) -> StreamEnd:
        """Feed the stream's events to ``on_event`` (True: stop) and close it, recording how it ended."""
        ...


class StreamFollower:
    """Reads the transport's response streams and its stream for server-initiated messages, resuming them."""

    def __init__(self, host: StreamHost, budget: ReconnectBudget, awaited: AwaitedRequests) -> None:
        self._host = host
        self._budget = budget
        self._awaited = awaited
        self._sessions: dict[asyncio.Task[None], str | None] = {}
        """Tasks following a resumable stream -> the session they belong to (cancelled when it expires)."""

    def cancel_session(self, sid: str) -> None:
        """The session ``sid`` ended: its streams are cancelled (but the one of the current task)."""
        current = asyncio.current_task()
        for task, owner in list(self._sessions.items()):
            if owner == sid and task is not current:
                task.cancel()

    async def read_once(self, awaiting: set[MessageId], response: httpx2.Response, started: float) -> None:
        """Modern era: read a request's response stream to its answer. Streams cannot be resumed, so one that
        ends before the answer fails the requests still waiting, with one line (they must be sent again)."""
        seen, answered, _messages = await self._read(response, started, awaiting, record_cancel=True)
        if seen.breach is not None:
            return  # the stream broke a limit: its requests failed with the limit's line
        task = asyncio.current_task()
        registered = self._awaited.waiting(task) if task is not None else None
        left = (registered if registered is not None else awaiting) - answered  # abandon() removed its ids
        if not left:
            return
        if seen.error is not None:
            how = f"broke before the answer arrived ({seen.error})"
        else:
            how = "was closed by the server before the answer arrived"
        self._fail_ids(
            left, f"the response stream {how}; 2026-07-28 streams cannot be resumed: the request must be sent again"
        )

    async def follow(
        self, sid: str | None, awaiting: set[MessageId] | None, response: httpx2.Response | None, started: float
    ) -> None:
        """Read a stream, and resume it (GET + Last-Event-ID) while it breaks early. ``awaiting``: the request
        ids whose answers end a POST's stream (None: the GET stream for server-initiated messages, followed
        until the transport closes or the session ends; ``response`` None: it is opened first).

        Each reconnection waits (:meth:`ReconnectBudget.delay`) and is counted against the budget: attempts
        since this stream last delivered a JSON-RPC message (``reconnects_per_request``; an empty or priming
        event is no progress) and attempts of the whole transport in the last minute (``reconnects_per_minute``).
        When one is used up the stream is given up with one SendFailed (the awaited ids) or one TransportNote
        (the listening stream). ``abandon`` ends the task quietly when every awaited request ended."""
        task = asyncio.current_task()
        assert task is not None
        self._sessions[task] = sid
        if awaiting is not None:
            self._awaited.track(task, awaiting)
        host = self._host
        last_id: str | None = None
        retry: int | None = None
        attempts = 0  # reconnections since the stream last delivered a JSON-RPC message
        progressed = False
        initial = response is None  # the listening stream's first GET is an opening, not a reconnection
        try:
            while True:
                if response is not None:
                    seen, answered, messages = await self._read(response, started, awaiting)
                    if seen.breach is not None:
                        return  # the stream broke a limit (already said); resuming would replay the same
                    last_id = seen.last_event_id or last_id
                    retry = seen.retry if seen.retry is not None else retry
                    if messages:
                        attempts = 0
                        progressed = True
                    if awaiting is not None:
                        awaiting -= answered
                        if not awaiting:
                            return
                        if not last_id:
                            message = "the server closed the response stream before answering (no event id to resume)"
                            self._fail_ids(awaiting, message)
                            return
                if not host.session_alive(sid):
                    return  # the session is gone: the connection deals with what was still pending
                if not initial:
                    attempts += 1
                    if attempts > self._budget.per_stream:
                        spent = self._budget.per_stream_spent(
                            attempts - 1, listening=awaiting is None, progressed=progressed
                        )
                        self._give_up(awaiting, spent, retry)
                        return
                    await asyncio.sleep(self._budget.delay(attempts, retry))
                    if not host.session_alive(sid):
                        return
                    spent_minute = self._budget.take(asyncio.get_running_loop().time())
                    if spent_minute is not None:
                        self._give_up(awaiting, spent_minute, retry)
                        return
                initial = False
                response, started, stop = await self._reopen(sid, last_id, awaiting)
                if stop:
                    return
        except asyncio.CancelledError:
            if self._awaited.ended_by_abandon(task):
                return  # every request it waited for ended (abandon); nothing more to say about them
            raise
        finally:
            self._sessions.pop(task, None)
            self._awaited.forget(task)

    def _give_up(self, awaiting: set[MessageId] | None, message: str, retry: int | None) -> None:
        """The budget is spent: one line for the whole stream."""
        if retry is not None:
            message += f"; the server asked to retry after {retry} ms"
        if awaiting is not None:
            self._fail_ids(awaiting, message)
        else:
            self._host.emit(TransportNote(message))

    async def _reopen(
        self, sid: str | None, last_id: str | None, awaiting: set[MessageId] | None
    ) -> tuple[httpx2.Response | None, float, bool]:
        """GET the stream (again), with Last-Event-ID when there is one: (response, sent at, stop)."""
        host = self._host
        headers = host.stream_headers(sid)
        sent: dict[str, str] | dict[bytes, bytes] = headers
        if last_id:
            problem = unsendable(last_id, utf8=True)
            if problem is None and last_id.isascii():
                headers["Last-Event-ID"] = last_id
            elif problem is None:  # as its UTF-8 bytes, what a browser's EventSource sends
                sent = {name.encode(): value.encode() for name, value in headers.items()}
                sent[b"Last-Event-ID"] = last_id.encode("utf-8")
            else:
                why = f"the server's event id {shown(last_id)} cannot be sent back as Last-Event-ID: {problem}"
                if awaiting is not None:
                    self._fail_ids(awaiting, f"cannot resume the response stream: {why}")
                    return None, 0.0, True
                host.emit(TransportNote(f"re-opening the stream for server-initiated messages from now: {why}"))
        try:
            response, started = await host.get_stream(sent)
        except NoAnswer:
            return None, 0.0, False
        status = response.status_code
        media = response.headers.get("content-type", "").split(";", 1)[0].strip().lower()
        if status == 200 and media == "text/event-stream":
            note = f"resuming after event {last_id}" if last_id else "stream for server-initiated messages"
            host.record_answer(response, started, note=note)
            return response, started, False
        body = await host.read_head(response)
        if status == 404 and sid is not None:
            host.record_answer(response, started, note="session expired")
            host.expire(sid)
            return None, 0.0, True
        if status == 405 and awaiting is None:
            host.record_answer(response, started, note="the server offers no stream for server-initiated messages")
            return None, 0.0, True
        error = status_error(response, body)
        host.record_answer(response, started, note=str(error))
        if status >= 500:
            return None, 0.0, False
        if awaiting is not None:
            self._fail_ids(awaiting, f"cannot resume the response stream: {error}", error)
        else:
            host.emit(TransportNote(f"no stream for server-initiated messages: {error}"))
        return None, 0.0, True

    async def _read(
        self,
        response: httpx2.Response,
        started: float,
        awaiting: set[MessageId] | None,
        *,
        record_cancel: bool = False,
    ) -> tuple[StreamEnd, set[MessageId], int]:
        """Hand the stream's messages on until the answers awaited arrived; which of them did, and how many
        JSON-RPC messages the stream delivered (what counts as progress for the reconnection budget)."""
        emit = self._host.emit
        answered: set[MessageId] = set()
        carried: list[MessageId] = []
        messages = 0

        def on_event(event: SseEvent) -> bool:
            nonlocal messages
            if event.event != "message":
                emit(TransportNote(f"ignored an SSE event of type {event.event!r}"))
            elif event.data:  # an empty one primes the stream: only its id matters
                frame = event.data.encode("utf-8")
                found = peek(frame)
                carried.extend(found.ids)
                if found.kind != "other":
                    messages += 1
                if found.kind == "response" and awaiting:
                    answered.update(i for i in found.ids if i in awaiting)
                emit(FrameReceived(frame))
            return awaiting is not None and bool(awaiting) and answered >= awaiting

        end = await self._host.read_events(
            response, started, on_event, carried=lambda: tuple(carried), done_note="stream done: the answer arrived",
            record_cancel=record_cancel,
        )  # fmt: skip
        if end.breach is not None:  # the stream broke a limit: it ends with the limit's line; a POST's stream
            # is not resumed (its ids fail, and count as done); the GET stream's end is for follow() to honour
            if awaiting is not None:
                unanswered = awaiting - answered
                if unanswered:
                    error = TransportError(str(end.breach))
                    error.__cause__ = end.breach
                    self._fail_ids(unanswered, str(end.breach), error)
                    answered |= unanswered
            else:
                emit(TransportNote(f"the stream for server-initiated messages ended: {end.breach}"))
        return end, answered, messages

    def _fail_ids(self, ids: Collection[MessageId], message: str, error: TransportError | None = None) -> None:
        self._host.emit(SendFailed(message, tuple(ids), error or TransportError(message)))
