"""What both HTTP transports are built on: the client, events, tasks, requests and SSE streams.

``HttpTransportBase._request`` sends one request and returns the streaming response, following redirects
that stay on the endpoint's origin and keep the method (each hop recorded), and recording the responses of
an ``auth`` flow; when no answer comes it records that and raises ``NoAnswer`` with one clear line.
``_read_sse`` reads an event stream to its end (or until told to stop) and records how it ended.

Bounds (``limits``): the client bounds every response while it is read (headers, decoded size and ratio;
see :mod:`inspector.transports.http_bounded`; our requests are marked MCP so their caps follow status and
content type); ``_read_head`` reads at most ``error_body_bytes``, ``_read_body`` at most ``message_bytes``,
and ``_read_sse`` bounds each event's data (``message_bytes``) and every other line (``sse_line_bytes``).
A breach ends that body or stream; ``StreamEnd.breach`` / ``HttpLimitError.breach`` carry the ``LimitExceeded``.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Callable, Coroutine, Iterable, Mapping
from dataclasses import dataclass
from typing import Any, Final

import httpx2

from inspector.protocol.limits import LimitExceeded
from inspector.transports.base import (
    EventSink,
    HttpExchange,
    MessageId,
    Transport,
    TransportClosed,
    TransportError,
    TransportEvent,
    message_of,
)
from inspector.transports.http_bounded import ENCODING_EXTENSION, HttpLimitError, mcp_extensions
from inspector.transports.http_common import (
    HttpError,
    limit_breach,
    make_client,
    mask_headers,
    mask_url,
    request_error_message,
    same_origin,
)
from inspector.transports.http_options import HttpOptions
from inspector.transports.sse_parser import SseError, SseEvent, SseParser

__all__ = ["HttpTransportBase", "NoAnswer", "StreamEnd"]

_log = logging.getLogger(__name__)

_MAX_REDIRECTS: Final = 5
_CANCEL_WAIT: Final = 2.0
_CANCELLED_NOTE: Final = "closed by the client (this cancels the request)"


@dataclass(frozen=True, slots=True)
class StreamEnd:
    """How an SSE response stream ended."""

    events: int
    """Events dispatched (priming events included)."""
    last_event_id: str | None
    retry: int | None
    error: str | None
    """Why it broke (None: the server ended it, or the reader stopped)."""
    breach: LimitExceeded | None = None
    """The limit the stream broke, which ended it (``error`` is then its one line); do not resume it."""


class NoAnswer(Exception):
    """A request got no HTTP answer; ``message`` is the one-line reason (already in an HttpExchange)."""

    def __init__(self, message: str, error: TransportError) -> None:
        super().__init__(message)
        self.message = message
        self.error = error


class HttpTransportBase(Transport):
    """Shared plumbing of the HTTP transports: the client, events, tasks, requests with redirects."""

    def __init__(self, url: str, options: HttpOptions) -> None:
        try:
            parsed = httpx2.URL(url)
        except (httpx2.InvalidURL, TypeError, ValueError) as exc:
            raise TransportError(f"invalid URL {url!r}: {message_of(exc)}") from exc
        if parsed.scheme not in ("http", "https") or not parsed.host:
            raise TransportError(f"not an http:// or https:// URL: {url}")
        self._url = parsed
        self.options = options
        """What this transport was built from (a legacy fallback is built from the same)."""
        self._profile_headers = dict(options.headers)
        self._auth = options.auth
        self._ca_bundle = options.ca_bundle
        self._timeout = options.timeout
        self._read_timeout = options.read_timeout
        self._endpoint_timeout = options.endpoint_timeout
        self._limits = options.limits
        self._secret = options.secret_headers
        self._client: httpx2.AsyncClient | None = None
        self._sink: EventSink | None = None
        self._tasks: set[asyncio.Task[None]] = set()
        self._closing = False
        self._closed_emitted = False

    def describe(self) -> str:
        return mask_url(self._url)

    @property
    def closed(self) -> bool:
        return self._closed_emitted

    # ------------------------------------------------------------------ plumbing

    def _open_client(self) -> httpx2.AsyncClient:
        if self._client is None:
            self._client = make_client(
                headers=self._profile_headers,
                auth=self._auth,
                ca_bundle=self._ca_bundle,
                timeout=self._timeout,
                read_timeout=self._read_timeout,
                limits=self._limits,
            )
        return self._client

    async def _close_client(self) -> None:
        client, self._client = self._client, None
        if client is not None:
            with contextlib.suppress(Exception):
                await client.aclose()

    def _emit(self, event: TransportEvent) -> None:
        if self._closed_emitted or self._sink is None:
            return
        if isinstance(event, TransportClosed):
            self._closed_emitted = True
        try:
            self._sink(event)
        except Exception:  # a broken consumer must not kill the readers (the connection supervises its own)
            _log.debug("transport event sink raised on %r", type(event).__name__, exc_info=True)

    def _spawn(self, coro: Coroutine[Any, Any, None], name: str) -> asyncio.Task[None]:
        task = asyncio.get_running_loop().create_task(coro, name=name)
        self._tasks.add(task)
        task.add_done_callback(self._task_done)
        return task

    def _task_done(self, task: asyncio.Task[None]) -> None:
        """A task ended. One that raised (a bug, or something httpx2 raised that nobody expected) ends the
        transport at once with one line, so that nothing waits for an answer it would have delivered."""
        self._tasks.discard(task)
        if task.cancelled():
            return
        exc = task.exception()
        if exc is None:
            return
        _log.debug("HTTP transport task %s failed", task.get_name(), exc_info=exc)
        text = str(exc).strip()
        detail = f"{type(exc).__name__}: {text}" if text else type(exc).__name__
        self._emit(TransportClosed(f"internal error in the HTTP transport ({task.get_name()}): {detail}"))

    async def _cancel_tasks(self) -> None:
        current = asyncio.current_task()
        tasks = [t for t in self._tasks if t is not current]
        for task in tasks:
            task.cancel()
        if tasks:
            await asyncio.wait(tasks, timeout=_CANCEL_WAIT)

    def _exchange(
        self,
        method: str,
        url: httpx2.URL,
        request_headers: Iterable[tuple[str, str]],
        response: httpx2.Response | None,
        started: float,
        *,
        note: str = "",
        carried: tuple[MessageId, ...] = (),
        event_id: str | None = None,
        retry: int | None = None,
    ) -> None:
        elapsed = asyncio.get_running_loop().time() - started
        response_headers: list[tuple[str, str]] = response.headers.multi_items() if response is not None else []
        encoding = response.extensions.get(ENCODING_EXTENSION) if response is not None else None
        if isinstance(encoding, str):  # removed by the bounded client once it decoded the body itself
            response_headers.append(("content-encoding", encoding))
        self._emit(
            HttpExchange(
                method=method,
                url=mask_url(url),
                status=response.status_code if response is not None else None,
                request_headers=mask_headers(request_headers, self._secret),
                response_headers=mask_headers(response_headers, self._secret),
                elapsed=elapsed,
                event_id=event_id or None,
                retry=retry,
                note=note,
                carried_ids=carried,
            )
        )

    def _answered(
        self, response: httpx2.Response, started: float, *, note: str = "", carried: tuple[MessageId, ...] = ()
    ) -> None:
        """The HttpExchange for a response, with the headers the request really carried."""
        request = response.request
        self._exchange(
            request.method, request.url, request.headers.multi_items(), response, started, note=note, carried=carried
        )

    async def _request(
        self,
        method: str,
        url: httpx2.URL,
        headers: Mapping[str, str] | Mapping[bytes, bytes],
        *,
        content: bytes | None = None,
        timeout: float | None = None,
        carried: tuple[MessageId, ...] = (),
        record_cancel: bool = False,
    ) -> tuple[httpx2.Response, float]:
        """Send one request and return the (streaming) response and when it was sent.

        Redirects are followed while they stay on the origin and keep the method (307/308, or any redirect
        of a GET), each hop recorded as an HttpExchange; responses of an auth flow (a 401 answered by the
        ``auth`` object) are recorded too. The final response's exchange is the caller's to record. Raises
        NoAnswer when no answer came. ``timeout``: a total bound for a short request (None: the client's).
        ``record_cancel``: when the caller is cancelled while it waits for the answer, record the request (no
        response, "closed by the client") before the cancellation goes on.
        """
        client = self._client
        if client is None:
            raise NoAnswer("transport is closed", TransportError("transport is closed"))
        loop = asyncio.get_running_loop()
        limit = httpx2.Timeout(timeout) if timeout is not None else httpx2.USE_CLIENT_DEFAULT
        for _ in range(_MAX_REDIRECTS + 1):
            request = client.build_request(
                method, url, headers=headers, content=content, timeout=limit, extensions=mcp_extensions()
            )
            started = loop.time()
            try:
                response = await client.send(request, stream=True)
            except asyncio.CancelledError:
                if record_cancel:
                    self._exchange(
                        method, url, request.headers.multi_items(), None, started, note=_CANCELLED_NOTE,
                        carried=carried,
                    )  # fmt: skip
                raise
            except Exception as exc:
                message = request_error_message(exc, url)
                self._exchange(method, url, request.headers.multi_items(), None, started, note=message, carried=carried)
                error = TransportError(message)
                error.__cause__ = exc
                raise NoAnswer(message, error) from exc
            for step in response.history:
                self._exchange(
                    step.request.method, step.request.url, step.request.headers.multi_items(), step, started,
                    note="authorization step",
                )  # fmt: skip
            target = self._redirect_target(response)
            if target is None:
                return response, started
            await response.aclose()
            self._answered(response, started, note=f"redirect to {mask_url(target)}", carried=carried)
            url = target
        message = f"more than {_MAX_REDIRECTS} redirects from {mask_url(url)}"
        raise NoAnswer(message, HttpError(message, url=mask_url(url)))

    @staticmethod
    def _redirect_target(response: httpx2.Response) -> httpx2.URL | None:
        """Where a redirect that may be followed leads, or None (not a redirect, or one not to follow)."""
        if not response.has_redirect_location:
            return None
        try:
            location = response.request.url.join(response.headers["location"])
        except (httpx2.InvalidURL, ValueError):  # (a control character): not followed, the 3xx is the answer
            return None
        keeps_method = response.status_code in (307, 308) or response.request.method == "GET"
        if not keeps_method or not same_origin(response.request.url, location):
            return None
        return location

    async def _read_head(self, response: httpx2.Response, limit: int | None = None) -> bytes:
        """The first ``limit`` bytes of a body (None: ``error_body_bytes``; for error messages), then the
        response is closed; the rest is not read."""
        limit = self._limits.error_body_bytes if limit is None else limit
        body = bytearray()
        try:
            async for chunk in response.aiter_bytes():
                body += chunk[: limit - len(body)]
                if len(body) >= limit:
                    break
        except Exception:  # whatever arrived is enough for a message
            pass
        finally:
            await response.aclose()
        return bytes(body)

    async def _read_body(self, response: httpx2.Response, what: str = "a JSON answer") -> bytes:
        """The whole body of a message answer, at most ``message_bytes``; more raises ``HttpLimitError``
        (as do the client's own bounds). The caller closes the response."""
        limit = self._limits.message_bytes
        body = bytearray()
        async for chunk in response.aiter_bytes():
            if len(body) + len(chunk) > limit:
                raise HttpLimitError(self._limits.exceeded("message_bytes", what, None), request=response.request)
            body += chunk
        return bytes(body)

    async def _read_sse(
        self,
        response: httpx2.Response,
        started: float,
        on_event: Callable[[SseEvent], bool],
        *,
        carried: Callable[[], tuple[MessageId, ...]] = tuple,
        done_note: str = "",
        parser: SseParser | None = None,
        record_cancel: bool = False,
    ) -> StreamEnd:
        """Feed the stream's events to ``on_event`` (True: stop reading) and close it. The stream's end is
        recorded as an HttpExchange (last event id, retry, ``carried()`` ids, and how it ended); when the
        reader is cancelled nothing is recorded (``record_cancel``: the close is recorded, "closed by the
        client", before the cancellation goes on). ``parser``: one built (and bounded) by the caller; by
        default one bounded by ``limits``. A breach of a limit ends the stream: ``StreamEnd.breach``, and
        ``error`` is its one line."""
        if parser is None:
            parser = SseParser(limits=self._limits)
        error: str | None = None
        breach: LimitExceeded | None = None
        stopped = False
        try:
            async for chunk in response.aiter_bytes():
                for event in parser.feed(chunk):
                    stopped = on_event(event) or stopped
                if stopped:
                    break
                if parser.breach is not None:
                    breach = parser.breach
                    error = str(breach)
                    break
                if (gate := self._read_gate()) is not None:
                    await gate
        except httpx2.HTTPError as exc:
            breach = limit_breach(exc)
            if breach is not None:
                error = str(breach)
            else:
                error = f"stream broke: {request_error_message(exc, response.request.url)}"
        except SseError as exc:
            error = f"stream unreadable: {message_of(exc)}"
        except asyncio.CancelledError:
            if record_cancel:
                await response.aclose()  # closing the connection is what tells the server
                request = response.request
                self._exchange(
                    request.method, request.url, request.headers.multi_items(), response, started,
                    note=_CANCELLED_NOTE, carried=carried(), event_id=parser.last_event_id, retry=parser.retry,
                )  # fmt: skip
            raise
        finally:
            unfinished = parser.close()
            await response.aclose()
        if stopped:
            note = done_note or "stream done"
        else:
            note = error or ("the server ended the stream" + (" in the middle of an event" if unfinished else ""))
        request = response.request
        self._exchange(
            request.method, request.url, request.headers.multi_items(), response, started, note=note,
            carried=carried(), event_id=parser.last_event_id, retry=parser.retry,
        )  # fmt: skip
        return StreamEnd(parser.events, parser.last_event_id, parser.retry, error, breach)
