"""The Streamable HTTP transport (MCP 2025-03-26 and later, handshake era), on httpx2.

Every outgoing message is one POST to the endpoint (``Accept: application/json, text/event-stream``). A
request's POST runs as its own task, so a long response stream never holds up the connection's writer;
notifications and responses are awaited (the server answers them with 202 at once), which keeps
``notifications/initialized`` ahead of the requests that follow it. A POST is answered by:

* JSON: one ``FrameReceived``;
* an SSE stream: one ``FrameReceived`` per ``message`` event, until the answer to the request arrived;
  if the stream ends before that, it is resumed with ``GET`` + ``Last-Event-ID`` after the server's
  ``retry`` time (bounded attempts, backing off); without an event id to resume from, the request fails;
* 202 for a notification or response; an error status, an HTML page or other content: ``SendFailed`` with
  one clear line (``HttpAuthError`` inside for 401/403).

Session: ``Mcp-Session-Id`` from the first answer (to initialize) is sent on every later request, and the negotiated
``MCP-Protocol-Version`` once ``on_negotiated`` told it. After the handshake a GET stream carries the
server's own requests and notifications (405: the server offers none, silently accepted); it reconnects
with ``Last-Event-ID`` when dropped. A 404 to a request carrying the session id means the server ended the
session: the transport forgets it and emits ``SessionExpired`` (the connection re-initializes). ``close``
sends DELETE with the session id (405 accepted), cancels the streams and emits ``TransportClosed``.

Fallback: with ``sse_fallback=True``, when the first request's POST is answered 400, 404 or 405 the
transport tries the legacy HTTP+SSE transport at the same URL (GET, ``endpoint`` event) and, if that
works, hands everything to it for the rest of its life; other sends wait while this is decided.

Every HTTP exchange is reported as an ``HttpExchange`` event (headers masked, SSE ids and retry).
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Collection, Mapping
from typing import Final

import httpx2

from inspector.transports.base import (
    EventSink,
    FrameReceived,
    MessageId,
    SendFailed,
    SessionExpired,
    TransportClosed,
    TransportError,
    TransportNote,
)
from inspector.transports.http_base import HttpTransportBase, NoAnswer, StreamEnd
from inspector.transports.http_common import is_html, mask_url, request_error_message, status_error
from inspector.transports.jsonpeek import Peek, peek
from inspector.transports.sse_parser import SseEvent

__all__ = ["StreamableHttpTransport"]

_ACCEPT_BOTH: Final = "application/json, text/event-stream"
_FALLBACK_STATUSES: Final = frozenset({400, 404, 405})
_MAX_DELAY: Final = 30.0
_DELETE_TIMEOUT: Final = 5.0


class StreamableHttpTransport(HttpTransportBase):
    """Talks to one MCP endpoint over Streamable HTTP."""

    def __init__(
        self,
        url: str,
        *,
        headers: Mapping[str, str] | None = None,
        auth: httpx2.Auth | None = None,
        ca_bundle: str | None = None,
        timeout: float = 30.0,
        secret_headers: Collection[str] = (),
        read_timeout: float | None = 300.0,
        sse_fallback: bool = False,
        max_reconnects: int = 5,
        default_retry: float = 1.0,
        endpoint_timeout: float = 10.0,
    ) -> None:
        """``timeout``: connecting, and short exchanges (notifications, DELETE); ``read_timeout``: the longest
        silence on a response or stream; ``max_reconnects``: attempts to resume a broken stream in a row;
        ``default_retry``: seconds before resuming when the server sent no ``retry``; ``endpoint_timeout``:
        how long the legacy fallback waits for the ``endpoint`` event."""
        super().__init__(
            url,
            headers=headers,
            auth=auth,
            ca_bundle=ca_bundle,
            timeout=timeout,
            secret_headers=secret_headers,
            read_timeout=read_timeout,
        )
        self._sse_fallback = sse_fallback
        self._max_reconnects = max(0, max_reconnects)
        self._default_retry = max(0.0, default_retry)
        self._endpoint_timeout = endpoint_timeout
        self._session_id: str | None = None
        self._protocol_version: str | None = None
        self._want_listen = False
        self._listen_task: asyncio.Task[None] | None = None
        self._streams: dict[asyncio.Task[None], str | None] = {}
        """Tasks following an SSE stream -> the session they belong to (cancelled when it expires)."""
        self._established = False
        self._mode_known = asyncio.Event()
        self._mode_known.set()
        self._delegate: HttpTransportBase | None = None
        self._close_task: asyncio.Task[None] | None = None

    # ------------------------------------------------------------------ public

    @property
    def session_id(self) -> str | None:
        return self._session_id

    @property
    def protocol_version(self) -> str | None:
        return self._protocol_version

    @property
    def sse_fallback(self) -> bool:
        """Whether a 400/404/405 to the first POST makes the transport try legacy HTTP+SSE."""
        return self._sse_fallback

    @property
    def fell_back(self) -> bool:
        """True when the endpoint turned out to speak the legacy HTTP+SSE transport."""
        return self._delegate is not None

    def describe(self) -> str:
        return super().describe() + (" (legacy HTTP+SSE)" if self._delegate is not None else "")

    def on_negotiated(self, protocol_version: str) -> None:
        if self._delegate is not None:
            self._delegate.on_negotiated(protocol_version)
            return
        self._protocol_version = protocol_version
        self._want_listen = True

    async def start(self, sink: EventSink) -> None:
        if self._sink is not None:
            raise TransportError("transport already started")
        if self._closed_emitted:
            raise TransportError("transport is closed")
        self._open_client()
        self._sink = sink
        self._emit(TransportNote(f"Streamable HTTP endpoint {self.describe()}"))

    async def send(self, frame: bytes) -> None:
        if self._delegate is not None:
            await self._delegate.send(frame)
            return
        if self._sink is None:
            raise TransportError("transport not started")
        await self._mode_known.wait()
        if self._delegate is not None:
            await self._delegate.send(frame)
            return
        if self._closing or self._closed_emitted:
            raise TransportError("transport is closed")
        info = peek(frame)
        if not info.request_ids:
            await self._post(frame, info)
            return
        if self._sse_fallback and not self._established:
            self._mode_known.clear()  # later sends wait until this POST tells what the endpoint speaks
        self._spawn(self._post(frame, info), name=f"http-post-{info.method}")

    async def close(self) -> None:
        if self._delegate is not None:
            await self._delegate.close()
            return
        if self._sink is None:
            self._closed_emitted = True
            await self._close_client()
            return
        if self._close_task is None:
            self._close_task = asyncio.get_running_loop().create_task(self._shutdown(), name="http-close")
        await asyncio.shield(self._close_task)

    # ------------------------------------------------------------------ POST

    def _mcp_headers(self, sid: str | None, *, accept: str) -> dict[str, str]:
        headers = {"Accept": accept}
        if sid is not None:
            headers["Mcp-Session-Id"] = sid
        if self._protocol_version is not None:
            headers["MCP-Protocol-Version"] = self._protocol_version
        return headers

    async def _post(self, frame: bytes, info: Peek) -> None:
        probing = self._sse_fallback and not self._established and bool(info.request_ids)
        sid = self._session_id
        headers = self._mcp_headers(sid, accept=_ACCEPT_BOTH)
        headers["Content-Type"] = "application/json"
        try:
            try:
                response, started = await self._request(
                    "POST", self._url, headers, content=frame, timeout=None if info.request_ids else self._timeout,
                    carried=info.ids,
                )  # fmt: skip
            except NoAnswer as exc:
                self._fail(info, exc.message, exc.error)
                return
            if sid is None and response.is_success:
                self._adopt_session(response)
            if probing:
                if response.status_code in _FALLBACK_STATUSES:
                    body = await self._read_head(response)
                    error = status_error(response, body)
                    self._answered(response, started, note=str(error), carried=info.ids)
                    await self._fall_back(frame, info, error)
                    return
                self._established = response.is_success
        finally:
            if probing:
                self._mode_known.set()
        try:
            await self._answer(response, started, frame, info, sid)
        except httpx2.HTTPError as exc:  # the body broke off (a stream's breaks are handled where it is read)
            self._fail(info, f"reading the answer failed: {request_error_message(exc, self._url)}")
        finally:
            await response.aclose()

    async def _answer(
        self, response: httpx2.Response, started: float, frame: bytes, info: Peek, sid: str | None
    ) -> None:
        status = response.status_code
        media = response.headers.get("content-type", "").split(";", 1)[0].strip().lower()
        if status == 404 and sid is not None:
            await self._read_head(response)
            self._answered(response, started, note="session expired", carried=info.ids)
            self._expire(sid, frame)
            return
        if not response.is_success:
            body = await self._read_head(response)
            answer = peek(body) if media == "application/json" else None
            if answer is not None and answer.kind == "response" and set(answer.ids) & set(info.request_ids):
                self._answered(response, started, carried=info.ids + answer.ids)
                self._emit(FrameReceived(body))  # a JSON-RPC error answering the request
                return
            error = status_error(response, body)
            self._answered(response, started, note=str(error), carried=info.ids)
            self._fail(info, str(error), error)
            return
        if status == 202 or (not info.request_ids and not media):
            await self._read_head(response)
            self._answered(response, started, carried=info.ids)
            if info.request_ids:
                self._fail(info, "the server answered a request with 202 Accepted: no answer will come")
            self._posted()
            return
        if media == "text/event-stream":
            self._answered(response, started, note="SSE response stream", carried=info.ids)
            self._posted()
            await self._follow(sid, set(info.request_ids), response, started)
            return
        if media == "application/json" or media.endswith("+json"):
            body = await response.aread()
            answer = peek(body)
            note = "" if info.request_ids else f"expected 202 Accepted for a {info.kind}, got {status} with a body"
            self._answered(response, started, note=note, carried=info.ids + answer.ids)
            self._posted()
            if body.strip():
                self._emit(FrameReceived(body))
            elif info.request_ids:
                self._fail(info, f"the server answered with an empty JSON body (status {status})")
            return
        body = await self._read_head(response)
        error = status_error(response, body)
        self._answered(response, started, note=str(error), carried=info.ids)
        if info.request_ids or is_html(media, body):
            self._fail(info, str(error), error)

    def _adopt_session(self, response: httpx2.Response) -> None:
        """The first answer that went through: its session id (if any) is the session's, and a redirect to
        another URL on the same origin becomes the endpoint."""
        sid = response.headers.get("mcp-session-id")
        if sid is not None and not (sid and all(0x21 <= ord(ch) <= 0x7E for ch in sid)):
            self._emit(TransportNote(f"the session id {sid!r} has characters outside visible ASCII (used anyway)"))
        self._session_id = sid or None
        if response.request.url != self._url:
            self._emit(TransportNote(f"the endpoint redirected; using {mask_url(response.request.url)} from now on"))
            self._url = response.request.url

    def _posted(self) -> None:
        """A POST went through: once the handshake settled, open the stream for server-initiated messages."""
        if self._want_listen and self._listen_task is None and not self._closing:
            self._want_listen = False
            self._listen_task = self._spawn(self._follow(self._session_id, None, None, 0.0), name="http-get-stream")

    def _fail(self, info: Peek, message: str, error: TransportError | None = None) -> None:
        self._emit(SendFailed(message, info.request_ids, error or TransportError(message)))

    # ------------------------------------------------------------------ SSE streams and resumption

    async def _follow(
        self, sid: str | None, awaiting: set[MessageId] | None, response: httpx2.Response | None, started: float
    ) -> None:
        """Read a stream, and resume it (GET + Last-Event-ID) while it breaks early. ``awaiting``: the request
        ids whose answers end a POST's stream (None: the GET stream for server-initiated messages, followed
        until the transport closes or the session ends)."""
        task = asyncio.current_task()
        assert task is not None
        self._streams[task] = sid
        last_id: str | None = None
        retry: int | None = None
        failures = 0
        try:
            while True:
                if response is not None:
                    seen, answered = await self._read_stream(response, started, awaiting)
                    last_id = seen.last_event_id or last_id
                    retry = seen.retry if seen.retry is not None else retry
                    failures = 0 if seen.events else failures + 1
                    if awaiting is not None:
                        awaiting -= answered
                        if not awaiting:
                            return
                        if not last_id:
                            message = "the server closed the response stream before answering (no event id to resume)"
                            self._fail_ids(awaiting, message)
                            return
                if self._closing or self._session_id != sid:
                    return  # the session is gone: the connection deals with what was still pending
                if failures > self._max_reconnects:
                    what = "the response stream" if awaiting is not None else "the stream for server messages"
                    message = f"{what} kept breaking; gave up after {self._max_reconnects} attempts to resume it"
                    if awaiting is not None:
                        self._fail_ids(awaiting, message)
                    else:
                        self._emit(TransportNote(message))
                    return
                if response is not None or failures:
                    base = retry / 1000 if retry is not None else self._default_retry
                    await asyncio.sleep(min(base * 2 ** max(0, failures - 1), _MAX_DELAY))
                response, started, stop = await self._reopen(sid, last_id, awaiting)
                if stop:
                    return
                if response is None:
                    failures += 1
        finally:
            self._streams.pop(task, None)
            if self._listen_task is task:
                self._listen_task = None

    async def _reopen(
        self, sid: str | None, last_id: str | None, awaiting: set[MessageId] | None
    ) -> tuple[httpx2.Response | None, float, bool]:
        """GET the stream (again), with Last-Event-ID when there is one: (response, sent at, stop)."""
        headers = self._mcp_headers(sid, accept="text/event-stream")
        if last_id:
            headers["Last-Event-ID"] = last_id
        try:
            response, started = await self._request("GET", self._url, headers)
        except NoAnswer:
            return None, 0.0, False
        status = response.status_code
        media = response.headers.get("content-type", "").split(";", 1)[0].strip().lower()
        if status == 200 and media == "text/event-stream":
            note = f"resuming after event {last_id}" if last_id else "stream for server-initiated messages"
            self._answered(response, started, note=note)
            return response, started, False
        body = await self._read_head(response)
        if status == 404 and sid is not None:
            self._answered(response, started, note="session expired")
            self._expire(sid, None)
            return None, 0.0, True
        if status == 405 and awaiting is None:
            self._answered(response, started, note="the server offers no stream for server-initiated messages")
            return None, 0.0, True
        error = status_error(response, body)
        self._answered(response, started, note=str(error))
        if status >= 500:
            return None, 0.0, False
        if awaiting is not None:
            self._fail_ids(awaiting, f"cannot resume the response stream: {error}", error)
        else:
            self._emit(TransportNote(f"no stream for server-initiated messages: {error}"))
        return None, 0.0, True

    async def _read_stream(
        self, response: httpx2.Response, started: float, awaiting: set[MessageId] | None
    ) -> tuple[StreamEnd, set[MessageId]]:
        """Hand the stream's messages on until the answers awaited arrived; which of them did."""
        answered: set[MessageId] = set()
        carried: list[MessageId] = []

        def on_event(event: SseEvent) -> bool:
            if event.event != "message":
                self._emit(TransportNote(f"ignored an SSE event of type {event.event!r}"))
            elif event.data:  # an empty one primes the stream: only its id matters
                frame = event.data.encode("utf-8")
                found = peek(frame)
                carried.extend(found.ids)
                if found.kind == "response" and awaiting:
                    answered.update(i for i in found.ids if i in awaiting)
                self._emit(FrameReceived(frame))
            return awaiting is not None and bool(awaiting) and answered >= awaiting

        end = await self._read_sse(
            response, started, on_event, carried=lambda: tuple(carried), done_note="stream done: the answer arrived"
        )
        return end, answered

    def _fail_ids(self, ids: Collection[MessageId], message: str, error: TransportError | None = None) -> None:
        self._emit(SendFailed(message, tuple(ids), error or TransportError(message)))

    def _expire(self, sid: str, frame: bytes | None) -> None:
        if self._session_id == sid:
            self._session_id = None
            self._protocol_version = None
            self._want_listen = False
            self._listen_task = None
            current = asyncio.current_task()
            for task, owner in list(self._streams.items()):
                if owner == sid and task is not current:
                    task.cancel()
        self._emit(SessionExpired(sid, (frame,) if frame is not None else ()))

    # ------------------------------------------------------------------ fallback and closing

    async def _fall_back(self, frame: bytes, info: Peek, error: TransportError) -> None:
        from inspector.transports.sse import LegacySseTransport

        self._emit(TransportNote(f"{error}; trying the legacy HTTP+SSE transport at the same URL"))
        legacy = LegacySseTransport(
            str(self._url),
            headers=self._profile_headers,
            auth=self._auth,
            ca_bundle=self._ca_bundle,
            timeout=self._timeout,
            secret_headers=self._secret,
            endpoint_timeout=self._endpoint_timeout,
        )
        try:
            await legacy.start(self._emit)
        except TransportError as exc:
            self._fail(info, f"{error} (the legacy HTTP+SSE transport did not work either: {exc})", error)
            return
        self._delegate = legacy
        await self._close_client()
        await legacy.send(frame)

    async def _shutdown(self) -> None:
        self._closing = True
        self._mode_known.set()
        try:
            await self._cancel_tasks()
            if self._delegate is not None:
                await self._delegate.close()
                return
            sid = self._session_id
            if sid is not None and self._client is not None:
                await self._delete(sid)
        finally:
            await self._close_client()
            self._emit(TransportClosed("closed by client", expected=True))

    async def _delete(self, sid: str) -> None:
        try:
            response, started = await self._request(
                "DELETE", self._url, self._mcp_headers(sid, accept=_ACCEPT_BOTH), timeout=_DELETE_TIMEOUT
            )
        except NoAnswer:
            return
        with contextlib.suppress(Exception):
            await self._read_head(response)
        status = response.status_code
        if response.is_success:
            note = "session ended"
        elif status == 405:
            note = "the server does not let clients end sessions (405)"
        elif status == 404:
            note = "the session was already gone"
        else:
            note = f"ending the session failed: {status_error(response, b'')}"
        self._answered(response, started, note=note)
