"""The Streamable HTTP transport (MCP 2025-03-26 and later, both eras), on httpx2.

Every outgoing message is one POST to the endpoint (``Accept: application/json, text/event-stream``). A
request's POST runs as its own task, so a long response stream never holds up the connection's writer;
notifications and responses are awaited (the server answers them with 202 at once), which keeps
``notifications/initialized`` ahead of the requests that follow it. A POST is answered by:

* JSON: one ``FrameReceived``;
* an SSE stream: one ``FrameReceived`` per ``message`` event, until the answer to the request arrived;
  if the stream ends before that, it is resumed with ``GET`` + ``Last-Event-ID`` after the server's
  ``retry`` time (never below ``reconnect_floor_ms``, backing off with jitter, within the reconnection
  budget of ``limits``, see :mod:`inspector.transports.http_streams`; one ``SendFailed`` names the budget
  spent); without an event id to resume from, the request fails; ``abandon`` (the request timed out or was
  cancelled) stops it;
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

Modern era (``set_era(Era.MODERN)``, 2026-07-28): the transport is stateless. Each POST carries the
per-message headers given to ``send`` (``MCP-Protocol-Version``, ``Mcp-Method``, ``Mcp-Name``,
``Mcp-Param-*``; no negotiated version is added), never an ``Mcp-Session-Id`` (one the server sends is
ignored, with a note); no GET stream is opened, no stream is resumed (a response stream that ends before
its answer fails the request with one ``SendFailed``: it must be sent again), a 404 is an answer like any
other status (its JSON-RPC error body, when it answers the request, is delivered as a frame), there is no
legacy fallback (the connection falls back to the handshake era instead), and ``close`` sends no DELETE.
Cancelling is closing: ``abandon`` closes the request's HTTP exchange (the server sees the disconnect),
recorded as an ``HttpExchange`` "closed by the client"; a ``notifications/cancelled`` handed to ``send`` is
not POSTed (the 2026-07-28 transport defines none; a note says so). ``set_era(Era.HANDSHAKE)`` afterwards
forgets everything of the other era and behaves exactly as described above.

Every HTTP exchange is reported as an ``HttpExchange`` event (headers masked, SSE ids and retry, the
per-message headers included).
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Callable, Collection, Mapping
from contextvars import ContextVar
from typing import Any, Final

import httpx2

from inspector.protocol.versions import Era
from inspector.transports.base import (
    EventSink,
    FrameReceived,
    MessageId,
    SendFailed,
    SessionExpired,
    TransportClosed,
    TransportError,
    TransportEvent,
    TransportNote,
    message_of,
)
from inspector.transports.http_awaiting import AwaitedRequests
from inspector.transports.http_base import HttpTransportBase, NoAnswer, StreamEnd
from inspector.transports.http_common import is_html, limit_breach, mask_url, request_error_message, status_error
from inspector.transports.http_headers import header_problem as _header_problem
from inspector.transports.http_headers import shown as _shown
from inspector.transports.http_headers import unsendable as _unsendable
from inspector.transports.http_options import HttpOptions
from inspector.transports.http_reconnect_budget import ReconnectBudget
from inspector.transports.http_streams import StreamFollower
from inspector.transports.jsonpeek import Peek, peek
from inspector.transports.sse_parser import SseEvent

__all__ = ["StreamableHttpTransport"]

_ACCEPT_BOTH: Final = "application/json, text/event-stream"
_FALLBACK_STATUSES: Final = frozenset({400, 404, 405})
_DELETE_TIMEOUT: Final = 5.0
_CANCELLED: Final = "notifications/cancelled"
_POST_ERA: ContextVar[Era | None] = ContextVar("inspector_http_post_era", default=None)
"""The era of the POST being answered in this task (set while ``_post`` runs), so that an answer is read by
the rules it was sent under even if the connection switched eras meanwhile."""


class StreamableHttpTransport(HttpTransportBase):
    """Talks to one MCP endpoint over Streamable HTTP."""

    def __init__(
        self,
        url: str,
        options: HttpOptions | None = None,
        *,
        sse_fallback: bool = False,
        max_reconnects: int | None = None,
        default_retry: float = 1.0,
        **changes: Any,
    ) -> None:
        """``options``: the shared HTTP options (see :class:`HttpOptions`; ``changes`` are options by name, e.g.
        ``headers=``, applied on top); ``sse_fallback``: try the legacy HTTP+SSE transport at the same URL when
        the endpoint is not a Streamable HTTP one; ``max_reconnects``: attempts to resume a stream without
        progress (None: ``limits.reconnects_per_request``); ``default_retry``: seconds the backoff starts at when
        the server sent no ``retry`` (never below ``limits.reconnect_floor_ms``). ``limits`` also set the
        reconnection budget (see :mod:`inspector.transports.reconnect`)."""
        options = (options if options is not None else HttpOptions()).with_changes(**changes)
        super().__init__(url, options)
        self._sse_fallback = sse_fallback
        self._awaited = AwaitedRequests()
        """Tasks following a request's answer (a response stream, a modern-era POST) -> the ids still waiting."""
        budget = ReconnectBudget(options.limits, max_reconnects=max_reconnects, default_retry=default_retry)
        self._streams = StreamFollower(self, budget, self._awaited)
        self._session_id: str | None = None
        self._protocol_version: str | None = None
        self._want_listen = False
        self._listen_task: asyncio.Task[None] | None = None
        self._established = False
        self._mode_known = asyncio.Event()
        self._mode_known.set()
        self._delegate: HttpTransportBase | None = None
        self._close_task: asyncio.Task[None] | None = None
        self._noted_session_id = False
        """Modern era: the note about a session id the server sent anyway was emitted."""

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

    @property
    def cancels_by_closing(self) -> bool:
        return self._delegate is None and self._era is Era.MODERN

    @property
    def carries_headers(self) -> bool:
        return self._delegate is None

    @property
    def endpoint(self) -> str | None:
        return str(self._url) if self._delegate is None else None

    def set_era(self, era: Era) -> None:
        """Switch eras. Leaving one forgets all of its state: the session (its stream for server-initiated
        messages is cancelled, and a DELETE ends it on the server in the background), the negotiated version,
        and whether the endpoint was established (so the first POST of the handshake era probes for the
        legacy fallback again, as on a fresh transport). The same era again changes nothing."""
        if self._delegate is not None:
            self._delegate.set_era(era)
        if era is self._era:
            return
        self._era = era
        self._noted_session_id = False
        if self._delegate is not None:
            return
        sid = self._session_id
        self._session_id = None
        self._want_listen = False
        self._established = False
        listening, self._listen_task = self._listen_task, None
        if listening is not None:
            listening.cancel()
        if sid is not None and self._client is not None and not self._closing:
            headers = self._mcp_headers(sid, accept=_ACCEPT_BOTH)  # (with the version negotiated in that session)
            self._spawn(self._delete(sid, headers), name="http-delete")
        self._protocol_version = None

    def on_negotiated(self, protocol_version: str) -> None:
        """Handshake era: the version is sent on every later request, and the GET stream opens. Ignored in the
        modern era (each message brings its version among its own headers)."""
        if self._delegate is not None:
            self._delegate.on_negotiated(protocol_version)
            return
        if self._era is Era.MODERN:
            return
        self._protocol_version = protocol_version
        self._want_listen = True

    def abandon(self, request_ids: Collection[MessageId]) -> None:
        """Stop following the response streams of these requests (they timed out or were cancelled): a wait
        to resume one, a resumption under way or the stream itself is cancelled once every request it waited
        for ended; nothing more is emitted about them. Modern era: the request's whole POST is cancelled,
        whatever it is waiting for (the answer's headers, a JSON body, the stream), which closes its
        connection (the server's cancellation signal); the close is recorded as an ``HttpExchange``."""
        if self._delegate is not None:
            self._delegate.abandon(request_ids)
            return
        self._awaited.abandon(request_ids)

    async def start(self, sink: EventSink) -> None:
        if self._sink is not None:
            raise TransportError("transport already started")
        if self._closed_emitted:
            raise TransportError("transport is closed")
        self._open_client()
        self._sink = sink
        self._emit(TransportNote(f"Streamable HTTP endpoint {self.describe()}"))

    async def send(self, frame: bytes, headers: Mapping[str, str] | None = None) -> None:
        """POST one message; ``headers`` (the message's own: protocol version, method, name, parameters) go
        on that POST. A header that cannot be sent fails the message (``SendFailed``) without sending it."""
        if self._delegate is not None:
            await self._delegate.send(frame, headers)
            return
        if self._sink is None:
            raise TransportError("transport not started")
        await self._mode_known.wait()
        if self._delegate is not None:
            await self._delegate.send(frame, headers)
            return
        if self._closing or self._closed_emitted:
            raise TransportError("transport is closed")
        info = peek(frame)
        extra = dict(headers or {})
        for name, value in extra.items():
            problem = _header_problem(name, value)
            if problem is not None:
                self._fail(info, f"cannot send the {info.method or info.kind}: {problem}")
                return
        modern = self._era is Era.MODERN
        if modern and info.kind == "notification" and info.method == _CANCELLED:
            self._emit(
                TransportNote(
                    "notifications/cancelled not POSTed: over Streamable HTTP in 2026-07-28 closing the request's "
                    "response stream is the cancellation"
                )
            )
            return
        if not info.request_ids:
            await self._post(frame, info, extra)
            return
        if modern:
            task = self._spawn(self._post_cancellable(frame, info, extra), name=f"http-post-{info.method}")
            self._awaited.track(task, set(info.request_ids))  # abandon() cancels the whole POST
            return
        if self._sse_fallback and not self._established:
            self._mode_known.clear()  # later sends wait until this POST tells what the endpoint speaks
        self._spawn(self._post(frame, info, extra), name=f"http-post-{info.method}")

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

    def _post_headers(self, sid: str | None, extra: Mapping[str, str], era: Era) -> dict[str, str]:
        """A POST's headers: the transport's own, then the message's (which replace a negotiated version)."""
        headers = self._mcp_headers(sid, accept=_ACCEPT_BOTH) if era is Era.HANDSHAKE else {"Accept": _ACCEPT_BOTH}
        headers["Content-Type"] = "application/json"
        for name, value in extra.items():
            for present in [key for key in headers if key.lower() == name.lower()]:
                del headers[present]
            headers[name] = value
        return headers

    def _answer_era(self) -> Era:
        """The era of the POST this task answers (the transport's when none is under way)."""
        return _POST_ERA.get() or self._era

    async def _post_cancellable(self, frame: bytes, info: Peek, extra: Mapping[str, str]) -> None:
        """A modern-era request's POST, which ``abandon`` may cancel at any point (quietly, for that reason)."""
        task = asyncio.current_task()
        assert task is not None
        try:
            await self._post(frame, info, extra, era=Era.MODERN)
        except asyncio.CancelledError:
            if self._awaited.ended_by_abandon(task):
                return  # every request it carried ended; the closed connection told the server
            raise
        finally:
            self._awaited.forget(task)

    async def _post(
        self, frame: bytes, info: Peek, extra: Mapping[str, str] | None = None, *, era: Era | None = None
    ) -> None:
        era = self._era if era is None else era
        token = _POST_ERA.set(era)
        try:
            await self._post_in(frame, info, extra or {}, era)
        finally:
            _POST_ERA.reset(token)

    async def _post_in(self, frame: bytes, info: Peek, extra: Mapping[str, str], era: Era) -> None:
        modern = era is Era.MODERN
        probing = not modern and self._sse_fallback and not self._established and bool(info.request_ids)
        sid = None if modern else self._session_id
        headers = self._post_headers(sid, extra, era)
        try:
            try:
                response, started = await self._request(
                    "POST", self._url, headers, content=frame, timeout=None if info.request_ids else self._timeout,
                    carried=info.ids, record_cancel=modern,
                )  # fmt: skip
            except NoAnswer as exc:
                self._fail(info, exc.message, exc.error)
                return
            if modern:
                self._note_modern_answer(response)
            elif sid is None and response.is_success:
                refused = self._adopt_session(response)
                if refused is not None:  # the session could not go on: this request fails, saying why
                    await self._read_head(response)
                    self._answered(response, started, note=refused, carried=info.ids)
                    self._fail(info, refused)
                    return
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
            breach = limit_breach(exc)
            if breach is None:
                self._fail(info, f"reading the answer failed: {request_error_message(exc, self._url)}")
            else:  # the answer broke a limit while it was read: it ends here, with the limit's line
                self._answered(response, started, note=str(breach), carried=info.ids)
                broke = TransportError(str(breach))
                broke.__cause__ = breach
                self._fail(info, str(breach), broke)
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
            answer = peek(body) if media == "application/json" or media.endswith("+json") else None
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
            if self._answer_era() is Era.MODERN:
                await self._streams.read_once(set(info.request_ids), response, started)
            else:
                await self._streams.follow(sid, set(info.request_ids), response, started)
            return
        if media == "application/json" or media.endswith("+json"):
            body = await self._read_body(response)
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

    def _adopt_session(self, response: httpx2.Response) -> str | None:
        """The first answer that went through: its session id (if any) is the session's, and a redirect to
        another URL on the same origin becomes the endpoint.

        A session id that cannot be sent back as it came (a control or non-ASCII character, more than
        ``HEADER_VALUE_MAX`` characters, see :mod:`inspector.transports.http_headers`) is refused: the line
        returned says why, and the request it answered fails with it (the session cannot go on without its
        id; the spec allows visible ASCII only). One that can (a space inside) is used, with a note."""
        sid = response.headers.get("mcp-session-id")
        if sid is not None:
            problem = _unsendable(sid)
            if problem is not None:
                return (
                    f"the server's session id {_shown(sid)} cannot be sent back: {problem} "
                    "(an Mcp-Session-Id must be visible ASCII, 0x21-0x7E)"
                )
            if not (sid and all(0x21 <= ord(ch) <= 0x7E for ch in sid)):
                self._emit(
                    TransportNote(f"the session id {_shown(sid)} has characters outside visible ASCII (used anyway)")
                )
        self._session_id = sid or None
        self._adopt_endpoint(response)
        return None

    def _adopt_endpoint(self, response: httpx2.Response) -> None:
        """A redirect (followed on the same origin) to another URL makes that URL the endpoint."""
        if response.request.url != self._url:
            self._emit(TransportNote(f"the endpoint redirected; using {mask_url(response.request.url)} from now on"))
            self._url = response.request.url

    def _note_modern_answer(self, response: httpx2.Response) -> None:
        """Modern era: a redirect that went through moves the endpoint; a session id is never adopted (once
        per era, a note says the server sent one)."""
        if response.is_success:
            self._adopt_endpoint(response)
        sid = response.headers.get("mcp-session-id")
        if sid is not None and not self._noted_session_id:
            self._noted_session_id = True
            self._emit(
                TransportNote(
                    f"the server sent the session id {_shown(sid)}; 2026-07-28 has no sessions, so it is not sent back"
                )
            )

    def _posted(self) -> None:
        """A POST went through: once the handshake settled, open the stream for server-initiated messages
        (never in the modern era, which has no such stream)."""
        if self._answer_era() is Era.MODERN:
            return
        if self._want_listen and self._listen_task is None and not self._closing:
            self._want_listen = False
            self._listen_task = self._spawn(self._listen(self._session_id), name="http-get-stream")

    async def _listen(self, sid: str | None) -> None:
        """The stream for server-initiated messages of the session ``sid``, for as long as it lasts."""
        task = asyncio.current_task()
        try:
            await self._streams.follow(sid, None, None, 0.0)
        finally:
            if self._listen_task is task:
                self._listen_task = None

    def _fail(self, info: Peek, message: str, error: TransportError | None = None) -> None:
        self._emit(SendFailed(message, info.request_ids, error or TransportError(message)))

    # ------------------------------------------------------------------ session expiry

    def _expire(self, sid: str, frame: bytes | None) -> None:
        if self._session_id == sid:
            self._session_id = None
            self._protocol_version = None
            self._want_listen = False
            self._listen_task = None
            self._streams.cancel_session(sid)
        self._emit(SessionExpired(sid, (frame,) if frame is not None else ()))

    # ------------------------------------------------------------------ the streams' host (StreamHost)

    def emit(self, event: TransportEvent) -> None:
        self._emit(event)

    def session_alive(self, sid: str | None) -> bool:
        return not self._closing and self._session_id == sid

    def stream_headers(self, sid: str | None) -> dict[str, str]:
        return self._mcp_headers(sid, accept="text/event-stream")

    def expire(self, sid: str) -> None:
        self._expire(sid, None)

    async def get_stream(self, headers: Mapping[str, str] | Mapping[bytes, bytes]) -> tuple[httpx2.Response, float]:
        return await self._request("GET", self._url, headers)

    def record_answer(self, response: httpx2.Response, started: float, *, note: str = "") -> None:
        self._answered(response, started, note=note)

    async def read_head(self, response: httpx2.Response) -> bytes:
        return await self._read_head(response)

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
        return await self._read_sse(
            response, started, on_event, carried=carried, done_note=done_note, record_cancel=record_cancel
        )

    # ------------------------------------------------------------------ fallback and closing

    async def _fall_back(self, frame: bytes, info: Peek, error: TransportError) -> None:
        from inspector.transports.sse import LegacySseTransport

        self._emit(TransportNote(f"{error}; trying the legacy HTTP+SSE transport at the same URL"))
        # the same options, but the event stream may rightly stay silent (as the legacy transport's own default)
        legacy = LegacySseTransport(str(self._url), self.options.with_changes(read_timeout=None))
        try:
            await legacy.start(self._emit)
        except TransportError as exc:
            self._fail(info, f"{error} (the legacy HTTP+SSE transport did not work either: {message_of(exc)})", error)
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

    async def _delete(self, sid: str, headers: dict[str, str] | None = None) -> None:
        if headers is None:
            headers = self._mcp_headers(sid, accept=_ACCEPT_BOTH)
        try:
            response, started = await self._request("DELETE", self._url, headers, timeout=_DELETE_TIMEOUT)
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
