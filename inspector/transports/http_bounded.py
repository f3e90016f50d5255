"""Every HTTP response read through our clients is bounded while it is read (``Limits``).

:class:`BoundedTransport` wraps the transport of an ``httpx2.AsyncClient`` (``make_client`` installs it),
so it sees every response the client reads: the MCP requests of the transports, and the requests an auth
flow (the OAuth provider) sends through the same client, whose bodies httpx2 reads whole.

* It asks for ``Accept-Encoding: gzip, deflate`` only, undoes ``Content-Encoding`` itself (chained
  encodings, multi-member gzip, zlib-wrapped or raw deflate) with streaming decompression that never makes
  more than one piece (64 KiB) of output at a time, and removes the header so that httpx2 does not decode
  again (the original value stays in the response extension ``ENCODING_EXTENSION``). Any other encoding is
  an error naming it.
* It counts the response headers (names and values) against ``header_bytes``.
* It counts the decoded body against a per-request cap and, once the decoded part passed
  ``ratio_grace_bytes``, checks decoded/encoded against ``decompression_ratio``.

The cap depends on what the request is. Our MCP requests carry the extension ``PURPOSE_EXTENSION`` =
``"mcp"`` (:func:`mcp_extensions`): their answers are capped by status and content type: an error status
(>= 300) by ``error_body_bytes``, an event stream not at all (it may live for hours; its events are bounded
by the SSE parser; the ratio is still checked), anything else (a JSON answer) by ``message_bytes``. A
request without the extension (the OAuth flow's metadata, registration and token requests) is capped by
``oauth_body_bytes``. An encoded body is also capped by ``decompressed_bytes`` (unless it is an event stream).

A breach raises :class:`HttpLimitError` (an ``httpx2.RequestError``) carrying the ``LimitExceeded``;
``str()`` of both is the limit's one line. The bytes that fit under a cap are delivered before the error,
so a reader that stops at the cap itself (``_read_head``) never sees it.
"""

from __future__ import annotations

import zlib
from collections.abc import AsyncIterator, Iterator, Sequence
from typing import Final

import httpx2

from inspector.protocol.limits import DEFAULT_LIMITS, LimitExceeded, Limits
from inspector.transports.base import message_of

__all__ = [
    "ACCEPT_ENCODING",
    "ENCODING_EXTENSION",
    "PURPOSE_EXTENSION",
    "BoundedTransport",
    "HttpLimitError",
    "mcp_extensions",
]

ACCEPT_ENCODING: Final = "gzip, deflate"
"""The encodings asked for: the ones decoded here."""
PURPOSE_EXTENSION: Final = "inspector.purpose"
"""Request extension naming what a request is (``"mcp"``); without it a request is an OAuth one."""
ENCODING_EXTENSION: Final = "inspector.content_encoding"
"""Response extension: the ``Content-Encoding`` the server sent (the header itself is removed)."""
MCP: Final = "mcp"

_PIECE: Final = 64 * 1024
"""The most output one decompression step makes."""
_MAX_CODINGS: Final = 4
_GZIP: Final = frozenset({"gzip", "x-gzip"})
_DEFLATE: Final = frozenset({"deflate"})
_H11_TOO_LONG: Final = "buffer too long"
"""What h11 says when a response's header block outgrows its own buffer (100 KiB in httpcore2)."""
_H11_BUFFER: Final = 100 * 1024


def mcp_extensions() -> dict[str, object]:
    """The request extensions marking an MCP request (its answer is capped by status and content type)."""
    return {PURPOSE_EXTENSION: MCP}


class HttpLimitError(httpx2.RequestError):
    """A response broke a limit while it was read; ``breach`` says which (``str()`` is its one line)."""

    def __init__(self, breach: LimitExceeded, *, request: httpx2.Request | None = None) -> None:
        super().__init__(str(breach), request=request)
        self.breach = breach


class _Inflate:
    """One content coding undone incrementally; each step makes at most ``_PIECE`` bytes."""

    def __init__(self, coding: str) -> None:
        self._coding = coding
        self._gzip = coding in _GZIP
        self._wbits = 16 + zlib.MAX_WBITS if self._gzip else zlib.MAX_WBITS
        self._obj = zlib.decompressobj(self._wbits)
        self._started = False
        self.consumed = 0
        """Input bytes used so far for the output given (what a ratio is measured against)."""

    def feed(self, data: bytes) -> Iterator[bytes]:
        """The output of ``data`` (``b""``: what is still pending), piece by piece."""
        while True:
            obj = self._obj
            if obj.eof:
                if not self._gzip or not data:
                    return  # (bytes after a deflate stream are ignored)
                obj = self._obj = zlib.decompressobj(self._wbits)  # the next member of a multi-member gzip
            try:
                out = obj.decompress(data, _PIECE)
            except zlib.error as exc:
                if not self._gzip and not self._started:  # "deflate" without the zlib wrapper (raw)
                    self._started = True
                    self._wbits = -zlib.MAX_WBITS
                    self._obj = zlib.decompressobj(self._wbits)
                    continue
                raise httpx2.DecodingError(f"the body is not valid {self._coding} data: {message_of(exc)}") from None
            self._started = True
            rest = obj.unused_data if obj.eof else obj.unconsumed_tail
            self.consumed += len(data) - len(rest)
            if out:
                yield out
            if obj.eof:
                data = rest
                continue
            data = rest
            if not data and len(out) < _PIECE:
                return


def _decode(stages: Sequence[_Inflate], index: int, data: bytes) -> Iterator[bytes]:
    if index == len(stages):
        if data:
            yield data
        return
    for piece in stages[index].feed(data):
        yield from _decode(stages, index + 1, piece)


def _flush(stages: Sequence[_Inflate]) -> Iterator[bytes]:
    for index, stage in enumerate(stages):
        for piece in stage.feed(b""):
            yield from _decode(stages, index + 1, piece)


class _BoundedStream(httpx2.AsyncByteStream):
    def __init__(
        self,
        inner: httpx2.AsyncByteStream,
        request: httpx2.Request,
        limits: Limits,
        codings: Sequence[str],
        cap: tuple[str, str] | None,
    ) -> None:
        self._inner = inner
        self._request = request
        self._limits = limits
        self._stages = [_Inflate(coding) for coding in reversed(codings)]
        self._cap = cap
        self._cap_bytes: int | None = getattr(limits, cap[0]) if cap is not None else None
        self._decoded = 0

    async def __aiter__(self) -> AsyncIterator[bytes]:
        async for chunk in self._inner:
            if not self._stages:
                for part in self._admit(chunk):
                    yield part
                continue
            for piece in _decode(self._stages, 0, chunk):
                for part in self._admit(piece):
                    yield part
        for piece in _flush(self._stages):
            for part in self._admit(piece):
                yield part

    def _admit(self, piece: bytes) -> Iterator[bytes]:
        """``piece`` (or the part of it under the cap, then the breach)."""
        total = self._decoded + len(piece)
        cap = self._cap_bytes
        if cap is not None and self._cap is not None and total > cap:
            if cap > self._decoded:
                yield piece[: cap - self._decoded]
            self._decoded = cap
            raise self._error(self._limits.exceeded(self._cap[0], self._cap[1], None))
        self._decoded = total
        if self._stages and total > self._limits.ratio_grace_bytes:
            ratio = total // max(1, self._stages[0].consumed)  # the wire bytes decoded so far
            if ratio > self._limits.decompression_ratio:
                raise self._error(
                    self._limits.exceeded("decompression_ratio", "an HTTP body with a compression ratio", ratio)
                )
        if piece:
            yield piece

    def _error(self, breach: LimitExceeded) -> HttpLimitError:
        return HttpLimitError(breach, request=self._request)

    async def aclose(self) -> None:
        await self._inner.aclose()


class BoundedTransport(httpx2.AsyncBaseTransport):
    """Wraps ``inner`` so that every response it gives is bounded by ``limits`` (see the module docs)."""

    def __init__(self, inner: httpx2.AsyncBaseTransport, limits: Limits = DEFAULT_LIMITS) -> None:
        self._inner = inner
        self._limits = limits

    @property
    def limits(self) -> Limits:
        return self._limits

    async def handle_async_request(self, request: httpx2.Request) -> httpx2.Response:
        limits = self._limits
        request.headers["Accept-Encoding"] = ACCEPT_ENCODING
        try:
            response = await self._inner.handle_async_request(request)
        except httpx2.RemoteProtocolError as exc:
            if _H11_TOO_LONG in str(exc).lower() and limits.header_bytes < _H11_BUFFER:
                breach = limits.exceeded("header_bytes", "the response headers", None)
                raise HttpLimitError(breach, request=request) from exc
            raise
        stream = response.stream
        assert isinstance(stream, httpx2.AsyncByteStream)
        raw = response.headers.raw
        size = sum(len(name) + len(value) + 4 for name, value in raw)
        if size > limits.header_bytes:
            await stream.aclose()
            raise HttpLimitError(limits.exceeded("header_bytes", "the response headers", size), request=request)
        values = response.headers.get_list("content-encoding", split_commas=True)
        codings = [value.strip().lower() for value in values if value.strip().lower() not in ("", "identity")]
        unknown = [coding for coding in codings if coding not in _GZIP | _DEFLATE]
        if unknown or len(codings) > _MAX_CODINGS:
            await stream.aclose()
            what = (
                f"the Content-Encoding {unknown[0][:40]!r}, which the inspector does not decode"
                if unknown
                else f"{len(codings)} chained Content-Encodings (at most {_MAX_CODINGS} are decoded)"
            )
            raise httpx2.DecodingError(f"the server answered with {what} (it asked for {ACCEPT_ENCODING})")
        extensions = dict(response.extensions)
        if values:
            extensions[ENCODING_EXTENSION] = ", ".join(values)
        headers = [(name, value) for name, value in raw if name.lower() != b"content-encoding"]
        cap = self._cap(request, response, encoded=bool(codings))
        return httpx2.Response(
            response.status_code,
            headers=headers,
            stream=_BoundedStream(stream, request, limits, codings, cap),
            extensions=extensions,
        )

    def _cap(self, request: httpx2.Request, response: httpx2.Response, *, encoded: bool) -> tuple[str, str] | None:
        """The limit on this body's decoded total (name, what) or None (an event stream)."""
        limits = self._limits
        media = response.headers.get("content-type", "").split(";", 1)[0].strip().lower()
        if request.extensions.get(PURPOSE_EXTENSION) != MCP:
            cap: tuple[str, str] = ("oauth_body_bytes", "an OAuth response")
        elif response.status_code >= 300:
            cap = ("error_body_bytes", "an HTTP error answer")
        elif media == "text/event-stream":
            return None
        elif media == "application/json" or media.endswith("+json"):
            cap = ("message_bytes", "a JSON answer")
        else:
            cap = ("message_bytes", "an HTTP answer's body")
        if encoded and limits.decompressed_bytes < getattr(limits, cap[0]):
            return ("decompressed_bytes", "a decoded HTTP body")
        return cap

    async def aclose(self) -> None:
        await self._inner.aclose()
