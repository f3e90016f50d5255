"""The Streamable HTTP transport (MCP 2025-03-26 and later, both eras), on httpx2.

Every outgoing message is one POST to the endpoint (``Accept: application/json, text/event-stream``). A
request's POST runs as its own task, so a long response stream never holds up the connection's writer;
notifications and responses are awaited (the server answers them with 202 at once), which keeps
``notifications/initialized`` ahead of the requests that follow it. A POST is answered by:

* JSON: one ``FrameReceived``;
* an SSE stream: one ``FrameReceived`` per ``message`` event, until the answer to the request arrived;
  if the stream ends before that, it is resumed with ``GET`` + ``Last-Event-ID`` after the server's
  ``retry`` time (never below ``reconnect_floor_ms``, backing off with jitter, within the reconnection
  budget of ``limits``, see :mod:`inspector.transports.reconnect`; one ``SendFailed`` names the budget
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
import random
import re
from collections.abc import Collection, Mapping
from contextvars import ContextVar
from typing import Final

import httpx2

from inspector.protocol.limits import DEFAULT_LIMITS, Limits
from inspector.protocol.versions import Era
from inspector.transports.base import (
    EventSink,
    FrameReceived,
    MessageId,
    SendFailed,
    SessionExpired,
    TransportClosed,
    TransportError,
    TransportNote,
    message_of,
)
from inspector.transports.http_base import HttpTransportBase, NoAnswer, StreamEnd
from inspector.transports.http_common import is_html, limit_breach, mask_url, request_error_message, status_error
from inspector.transports.jsonpeek import Peek, peek
from inspector.transports.reconnect import WINDOW_SECONDS, ReconnectWindow, backoff_delay
from inspector.transports.sse_parser import SseEvent

__all__ = ["StreamableHttpTransport"]

_ACCEPT_BOTH: Final = "application/json, text/event-stream"
_FALLBACK_STATUSES: Final = frozenset({400, 404, 405})
_DELETE_TIMEOUT: Final = 5.0
_HEADER_VALUE_MAX: Final = 8192
"""The longest session id or event id sent back as a header: servers commonly refuse longer header lines."""
_TOKEN: Final = re.compile(r"[!#$%&'*+.^_`|~0-9A-Za-z-]+")
"""An HTTP field name (RFC 9110 token)."""
_TRANSPORT_OWNED: Final = frozenset(
    {"accept", "content-type", "content-length", "host", "transfer-encoding", "mcp-session-id", "last-event-id"}
)
"""Headers the transport sets itself; a message's own headers may not name them."""
_CANCELLED: Final = "notifications/cancelled"
_POST_ERA: ContextVar[Era | None] = ContextVar("inspector_http_post_era", default=None)
"""The era of the POST being answered in this task (set while ``_post`` runs), so that an answer is read by
the rules it was sent under even if the connection switched eras meanwhile."""


def _unsendable(value: str, *, utf8: bool = False) -> str | None:
    """Why ``value`` (from the server) cannot be sent back as an HTTP header value as it is, or None.

    Refused: control characters (tab apart), DEL, and more than ``_HEADER_VALUE_MAX`` characters; non-ASCII
    too unless ``utf8`` (then it goes as its UTF-8 bytes)."""
    if len(value) > _HEADER_VALUE_MAX:
        return f"it is {len(value)} characters long (more than {_HEADER_VALUE_MAX})"
    for at, ch in enumerate(value):
        code = ord(ch)
        if (code < 0x20 and ch != "\t") or code == 0x7F or 0x80 <= code <= 0x9F:
            return f"it holds the control character U+{code:04X} at position {at}"
        if code > 0x7E and not utf8:
            return f"it holds the non-ASCII character U+{code:04X} at position {at}"
        if 0xD800 <= code <= 0xDFFF:
            return f"it holds the lone surrogate U+{code:04X} at position {at}"
    return None


def _header_problem(name: str, value: str) -> str | None:
    """Why a message's own header cannot be sent, or None."""
    if not _TOKEN.fullmatch(name):
        return f"{_shown(name)} is not a valid HTTP header name"
    if name.lower() in _TRANSPORT_OWNED:
        return f"{name} is set by the transport itself"
    problem = _unsendable(value)
    return None if problem is None else f"the value of {name} cannot be sent as it is: {problem}"


def _shown(value: str) -> str:
    """A server's value in a message: quoted, escaped to ASCII, cut."""
    return ascii(value if len(value) <= 60 else value[:60] + "...")


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
        max_reconnects: int | None = None,
        default_retry: float = 1.0,
        endpoint_timeout: float = 10.0,
        limits: Limits = DEFAULT_LIMITS,
    ) -> None:
        """``timeout``: connecting, and short exchanges (notifications, DELETE); ``read_timeout``: the longest
        silence on a response or stream; ``max_reconnects``: attempts to resume a stream without progress
        (None: ``limits.reconnects_per_request``); ``default_retry``: seconds the backoff starts at when the
        server sent no ``retry`` (never below ``limits.reconnect_floor_ms``); ``endpoint_timeout``: how long
        the legacy fallback waits for the ``endpoint`` event; ``limits``: the bounds on what is read, and the
        reconnection budget (see :mod:`inspector.transports.reconnect`)."""
        super().__init__(
            url,
            headers=headers,
            auth=auth,
            ca_bundle=ca_bundle,
            timeout=timeout,
            secret_headers=secret_headers,
            read_timeout=read_timeout,
            limits=limits,
        )
        self._sse_fallback = sse_fallback
        if max_reconnects is None:
            self._max_reconnects = max(0, limits.reconnects_per_request)
            self._max_reconnects_shown = limits.show("reconnects_per_request")
        else:
            self._max_reconnects = max(0, max_reconnects)
            self._max_reconnects_shown = f"max_reconnects = {self._max_reconnects}"
        self._default_retry = max(0.0, default_retry)
        self._window = ReconnectWindow(limits.reconnects_per_minute)
        """Reconnections of every stream of this transport in the last minute."""
        self._awaiting: dict[asyncio.Task[None], set[MessageId]] = {}
        """Tasks following a POST's response stream -> the request ids still waiting for their answers."""
        self._abandoned: set[asyncio.Task[None]] = set()
        """Of those, the tasks cancelled because every request they waited for ended (``abandon``)."""
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
        ended = set(request_ids)
        if not ended:
            return
        for task, awaiting in list(self._awaiting.items()):
            if awaiting & ended:
                awaiting -= ended
                if not awaiting and not task.done():
                    self._abandoned.add(task)
                    task.cancel()

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
            self._awaiting[task] = set(info.request_ids)  # abandon() cancels the whole POST
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
            if task in self._abandoned and task.uncancel() == 0:
                return  # every request it carried ended; the closed connection told the server
            raise
        finally:
            self._awaiting.pop(task, None)
            self._abandoned.discard(task)

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
                await self._stream_once(set(info.request_ids), response, started)
            else:
                await self._follow(sid, set(info.request_ids), response, started)
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
        ``_HEADER_VALUE_MAX`` characters) is refused: the line returned says why, and the request it answered
        fails with it (the session cannot go on without its id; the spec allows visible ASCII only). One
        that can (a space inside) is used, with a note."""
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
            self._listen_task = self._spawn(self._follow(self._session_id, None, None, 0.0), name="http-get-stream")

    def _fail(self, info: Peek, message: str, error: TransportError | None = None) -> None:
        self._emit(SendFailed(message, info.request_ids, error or TransportError(message)))

    # ------------------------------------------------------------------ SSE streams and resumption

    async def _stream_once(self, awaiting: set[MessageId], response: httpx2.Response, started: float) -> None:
        """Modern era: read a request's response stream to its answer. Streams cannot be resumed, so one that
        ends before the answer fails the requests still waiting, with one line (they must be sent again)."""
        seen, answered, _messages = await self._read_stream(response, started, awaiting, record_cancel=True)
        if seen.breach is not None:
            return  # the stream broke a limit: its requests failed with the limit's line
        task = asyncio.current_task()
        registered = self._awaiting.get(task) if task is not None else None
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

    async def _follow(
        self, sid: str | None, awaiting: set[MessageId] | None, response: httpx2.Response | None, started: float
    ) -> None:
        """Read a stream, and resume it (GET + Last-Event-ID) while it breaks early. ``awaiting``: the request
        ids whose answers end a POST's stream (None: the GET stream for server-initiated messages, followed
        until the transport closes or the session ends).

        Each reconnection waits (:meth:`_reconnect_delay`) and is counted against the budget: attempts since
        this stream last delivered a JSON-RPC message (``reconnects_per_request``; an empty or priming event
        is no progress) and attempts of the whole transport in the last minute (``reconnects_per_minute``).
        When one is used up the stream is given up with one SendFailed (the awaited ids) or one TransportNote
        (the listening stream). ``abandon`` ends the task quietly when every awaited request ended."""
        task = asyncio.current_task()
        assert task is not None
        self._streams[task] = sid
        if awaiting is not None:
            self._awaiting[task] = awaiting
        last_id: str | None = None
        retry: int | None = None
        attempts = 0  # reconnections since the stream last delivered a JSON-RPC message
        progressed = False
        initial = response is None  # the listening stream's first GET is an opening, not a reconnection
        try:
            while True:
                if response is not None:
                    seen, answered, messages = await self._read_stream(response, started, awaiting)
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
                if self._closing or self._session_id != sid:
                    return  # the session is gone: the connection deals with what was still pending
                if not initial:
                    attempts += 1
                    if attempts > self._max_reconnects:
                        self._give_up(awaiting, self._per_stream_spent(attempts - 1, awaiting, progressed), retry)
                        return
                    await asyncio.sleep(self._reconnect_delay(attempts, retry))
                    if self._closing or self._session_id != sid:
                        return
                    now = asyncio.get_running_loop().time()
                    if not self._window.take(now):
                        self._give_up(awaiting, self._per_minute_spent(self._window.used(now)), retry)
                        return
                initial = False
                response, started, stop = await self._reopen(sid, last_id, awaiting)
                if stop:
                    return
        except asyncio.CancelledError:
            if task in self._abandoned and task.uncancel() == 0:
                return  # every request it waited for ended (abandon); nothing more to say about them
            raise
        finally:
            self._streams.pop(task, None)
            self._awaiting.pop(task, None)
            self._abandoned.discard(task)
            if self._listen_task is task:
                self._listen_task = None

    def _reconnect_delay(self, attempt: int, retry: int | None) -> float:
        """Seconds to wait before reconnection ``attempt`` (1: the first since the last progress)."""
        limits = self._limits
        start = retry if retry is not None else self._default_retry * 1000
        return backoff_delay(attempt, start, limits.reconnect_floor_ms, limits.reconnect_cap_ms, random.random())

    def _per_stream_spent(self, attempts: int, awaiting: set[MessageId] | None, progressed: bool) -> str:
        shown = self._max_reconnects_shown
        if awaiting is None:
            return (
                f"gave up re-opening the stream for server-initiated messages: {attempts} attempts in a row"
                f" without a message (limit {shown})"
            )
        in_a_row = " in a row without a message" if progressed else ""
        return f"gave up resuming the response stream: {attempts} attempts for this request{in_a_row} (limit {shown})"

    def _per_minute_spent(self, used: int) -> str:
        return (
            f"gave up reconnecting: {used} reconnections on this connection in the last {WINDOW_SECONDS:g} s"
            f" (limit {self._limits.show('reconnects_per_minute')})"
        )

    def _give_up(self, awaiting: set[MessageId] | None, message: str, retry: int | None) -> None:
        """The budget is spent: one line for the whole stream."""
        if retry is not None:
            message += f"; the server asked to retry after {retry} ms"
        if awaiting is not None:
            self._fail_ids(awaiting, message)
        else:
            self._emit(TransportNote(message))

    async def _reopen(
        self, sid: str | None, last_id: str | None, awaiting: set[MessageId] | None
    ) -> tuple[httpx2.Response | None, float, bool]:
        """GET the stream (again), with Last-Event-ID when there is one: (response, sent at, stop)."""
        headers = self._mcp_headers(sid, accept="text/event-stream")
        sent: dict[str, str] | dict[bytes, bytes] = headers
        if last_id:
            problem = _unsendable(last_id, utf8=True)
            if problem is None and last_id.isascii():
                headers["Last-Event-ID"] = last_id
            elif problem is None:  # as its UTF-8 bytes, what a browser's EventSource sends
                sent = {name.encode(): value.encode() for name, value in headers.items()}
                sent[b"Last-Event-ID"] = last_id.encode("utf-8")
            else:
                why = f"the server's event id {_shown(last_id)} cannot be sent back as Last-Event-ID: {problem}"
                if awaiting is not None:
                    self._fail_ids(awaiting, f"cannot resume the response stream: {why}")
                    return None, 0.0, True
                self._emit(TransportNote(f"re-opening the stream for server-initiated messages from now: {why}"))
        try:
            response, started = await self._request("GET", self._url, sent)
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
        self,
        response: httpx2.Response,
        started: float,
        awaiting: set[MessageId] | None,
        *,
        record_cancel: bool = False,
    ) -> tuple[StreamEnd, set[MessageId], int]:
        """Hand the stream's messages on until the answers awaited arrived; which of them did, and how many
        JSON-RPC messages the stream delivered (what counts as progress for the reconnection budget)."""
        answered: set[MessageId] = set()
        carried: list[MessageId] = []
        messages = 0

        def on_event(event: SseEvent) -> bool:
            nonlocal messages
            if event.event != "message":
                self._emit(TransportNote(f"ignored an SSE event of type {event.event!r}"))
            elif event.data:  # an empty one primes the stream: only its id matters
                frame = event.data.encode("utf-8")
                found = peek(frame)
                carried.extend(found.ids)
                if found.kind != "other":
                    messages += 1
                if found.kind == "response" and awaiting:
                    answered.update(i for i in found.ids if i in awaiting)
                self._emit(FrameReceived(frame))
            return awaiting is not None and bool(awaiting) and answered >= awaiting

        end = await self._read_sse(
            response, started, on_event, carried=lambda: tuple(carried), done_note="stream done: the answer arrived",
            record_cancel=record_cancel,
        )  # fmt: skip
        if end.breach is not None:  # the stream broke a limit: it ends with the limit's line; a POST's stream
            # is not resumed (its ids fail, and count as done); the GET stream's end is for _follow to honour
            if awaiting is not None:
                unanswered = awaiting - answered
                if unanswered:
                    error = TransportError(str(end.breach))
                    error.__cause__ = end.breach
                    self._fail_ids(unanswered, str(end.breach), error)
                    answered |= unanswered
            else:
                self._emit(TransportNote(f"the stream for server-initiated messages ended: {end.breach}"))
        return end, answered, messages

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
            limits=self._limits,
        )
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
