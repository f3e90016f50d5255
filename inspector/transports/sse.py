"""The legacy HTTP+SSE transport (MCP 2024-11-05), on httpx2.

``start`` opens ``GET <url>`` (``Accept: text/event-stream``) and waits, at most ``endpoint_timeout``
seconds, for the ``endpoint`` event: its data is the URL to POST messages to, resolved against the SSE URL
and required to stay on the same origin (scheme, host, port); otherwise starting fails with one clear line.
Every server message then arrives as a ``message`` event on that stream (``FrameReceived``), and every
client message is one POST to the endpoint, which the server answers with 202 Accepted (awaited, so the
messages reach the server in order; an error status becomes ``SendFailed``).

The GET stream *is* the session: when it ends, the transport is gone (``TransportClosed``, unexpected);
the 2024-11-05 transport defines no way to resume it. ``close`` cancels the stream (there is no DELETE).

Bounds (``limits``): until the endpoint is known, an event's data is bounded by ``sse_line_bytes`` (the
``endpoint`` event is one short URL), afterwards by ``message_bytes``; every other line by
``sse_line_bytes``. A breach ends the stream, and so the transport: ``start`` fails with the limit's line,
or, once started, ``TransportClosed`` says it.
"""

from __future__ import annotations

import asyncio
from collections.abc import Mapping
from typing import Any, Final

import httpx2

from inspector.transports.base import (
    EventSink,
    FrameReceived,
    SendFailed,
    TransportClosed,
    TransportError,
    TransportNote,
    message_of,
)
from inspector.transports.http_base import HttpTransportBase, NoAnswer
from inspector.transports.http_common import mask_url, same_origin, status_error
from inspector.transports.http_options import HttpOptions
from inspector.transports.jsonpeek import peek
from inspector.transports.sse_parser import SseEvent, SseParser

__all__ = ["LegacySseTransport"]

_SSE_HEADERS: Final = {"Accept": "text/event-stream", "Cache-Control": "no-store"}


class LegacySseTransport(HttpTransportBase):
    """Talks to one legacy HTTP+SSE server: a GET event stream in, POSTs to its endpoint out."""

    def __init__(self, url: str, options: HttpOptions | None = None, **changes: Any) -> None:
        """``options``: the shared HTTP options (see :class:`HttpOptions`; ``changes`` are options by name, e.g.
        ``headers=``, applied on top). Without ``options`` there is no ``read_timeout``: the event stream may
        rightly stay silent for hours. ``limits``: the bounds on what is read (see the module docs)."""
        options = (options if options is not None else HttpOptions(read_timeout=None)).with_changes(**changes)
        super().__init__(url, options)
        self._endpoint: httpx2.URL | None = None
        self._endpoint_found: asyncio.Future[httpx2.URL] | None = None
        self._close_task: asyncio.Task[None] | None = None

    @property
    def endpoint(self) -> str | None:
        """Where messages are POSTed, once the server told."""
        return mask_url(self._endpoint) if self._endpoint is not None else None

    async def start(self, sink: EventSink) -> None:
        if self._sink is not None:
            raise TransportError("transport already started")
        if self._closed_emitted:
            raise TransportError("transport is closed")
        self._open_client()
        self._sink = sink
        found: asyncio.Future[httpx2.URL] = asyncio.get_running_loop().create_future()
        self._endpoint_found = found
        self._spawn(self._read(), name="sse-stream")
        try:
            self._endpoint = await asyncio.wait_for(asyncio.shield(found), self._endpoint_timeout)
        except TimeoutError:
            await self._abandon()
            raise TransportError(
                f"the server sent no endpoint event within {self._endpoint_timeout:g} s; "
                f"is {self.describe()} a legacy HTTP+SSE endpoint?"
            ) from None
        except BaseException:
            await self._abandon()
            raise
        self._emit(TransportNote(f"legacy HTTP+SSE: messages go to {mask_url(self._endpoint)}"))

    async def _abandon(self) -> None:
        """Starting failed: stop the reader, close the client; no TransportClosed (start raised instead)."""
        self._closing = True
        await self._cancel_tasks()
        await self._close_client()
        self._closed_emitted = True

    async def send(self, frame: bytes, headers: Mapping[str, str] | None = None) -> None:
        """POST one message to the endpoint; ``headers`` are ignored (the 2024-11-05 transport has none)."""
        endpoint = self._endpoint
        if endpoint is None:
            raise TransportError("transport not started")
        if self._closing or self._closed_emitted:
            raise TransportError("transport is closed")
        info = peek(frame)
        headers = {"Content-Type": "application/json", "Accept": "application/json, text/event-stream"}
        try:
            response, started = await self._request(
                "POST", endpoint, headers, content=frame, timeout=self._timeout, carried=info.ids
            )
        except NoAnswer as exc:
            self._emit(SendFailed(exc.message, info.request_ids, exc.error))
            return
        body = await self._read_head(response)
        if response.is_success:
            note = "" if response.status_code == 202 else f"expected 202 Accepted, got {response.status_code}"
            self._answered(response, started, note=note, carried=info.ids)
            return
        error = status_error(response, body)
        self._answered(response, started, note=str(error), carried=info.ids)
        self._emit(SendFailed(str(error), info.request_ids, error))

    async def close(self) -> None:
        if self._sink is None:
            self._closed_emitted = True
            await self._close_client()
            return
        if self._close_task is None:
            self._close_task = asyncio.get_running_loop().create_task(self._shutdown(), name="sse-close")
        await asyncio.shield(self._close_task)

    async def _shutdown(self) -> None:
        self._closing = True
        try:
            await self._cancel_tasks()
        finally:
            await self._close_client()
            self._emit(TransportClosed("closed by client", expected=True))

    # ------------------------------------------------------------------ the event stream

    def _started(self, result: httpx2.URL | TransportError) -> bool:
        """Settle what ``start`` waits for; False when it was settled already."""
        found = self._endpoint_found
        if found is None or found.done():
            return False
        if isinstance(result, TransportError):
            found.set_exception(result)
        else:
            found.set_result(result)
        return True

    async def _read(self) -> None:
        try:
            response, started = await self._request("GET", self._url, _SSE_HEADERS)
        except NoAnswer as exc:
            self._started(exc.error)
            return
        media = response.headers.get("content-type", "").split(";", 1)[0].strip().lower()
        if response.status_code != 200 or media != "text/event-stream":
            body = await self._read_head(response)
            error = status_error(response, body)
            self._answered(response, started, note=str(error))
            self._started(error)
            return
        self._answered(response, started, note="event stream opened")
        parser = SseParser(limits=self._limits)
        parser.bound_data("sse_line_bytes", "the endpoint event")

        def on_event(event: SseEvent) -> bool:
            if event.event == "endpoint":
                self._on_endpoint(event.data)
                if self._endpoint_found is not None and self._endpoint_found.done():
                    parser.bound_data("message_bytes", "an SSE event's data")
            elif event.event == "message":
                if event.data:
                    self._emit(FrameReceived(event.data.encode("utf-8")))
            else:
                self._emit(TransportNote(f"ignored an SSE event of type {event.event!r}"))
            return False

        end = await self._read_sse(response, started, on_event, parser=parser)
        if end.breach is not None:
            reason = str(end.breach)
        else:
            reason = f"the SSE stream {end.error}" if end.error else "the server closed the SSE stream"
        if end.breach is not None and self._started(TransportError(reason)):
            return
        if self._started(TransportError(f"the SSE stream ended before the endpoint event ({reason})")):
            return
        if not self._closing:
            self._closing = True
            self._emit(TransportClosed(reason, expected=False))
            await self._close_client()

    def _on_endpoint(self, data: str) -> None:
        if self._endpoint_found is None or self._endpoint_found.done():
            self._emit(TransportNote(f"ignored another endpoint event ({data.strip()!r})"))
            return
        try:
            endpoint = self._url.join(data.strip())
        except (httpx2.InvalidURL, ValueError) as exc:
            self._started(
                TransportError(f"the endpoint event holds no usable URL ({data.strip()!r}: {message_of(exc)})")
            )
            return
        if not same_origin(endpoint, self._url):
            self._started(
                TransportError(
                    f"the endpoint event points to {mask_url(endpoint)}, another origin than {self.describe()}; "
                    "refusing to send messages there"
                )
            )
            return
        self._started(endpoint)
