"""The bounded HTTP layer, in memory (httpx2.MockTransport inside): decoding, caps by purpose, ratio, headers."""

from __future__ import annotations

import gzip
import zlib
from collections.abc import AsyncIterator

import httpx2
import pytest
from asynckit import run
from hypothesis import given, settings
from hypothesis import strategies as st

from inspector.protocol.limits import DEFAULT_LIMITS, KiB, Limits, MiB
from inspector.transports.http_bounded import (
    ACCEPT_ENCODING,
    ENCODING_EXTENSION,
    BoundedTransport,
    HttpLimitError,
    mcp_extensions,
)
from inspector.transports.http_common import request_error_message

SMALL = DEFAULT_LIMITS.replace(
    message_bytes=256 * KiB, decompressed_bytes=512 * KiB, ratio_grace_bytes=64 * KiB, error_body_bytes=1 * KiB,
    oauth_body_bytes=8 * KiB, header_bytes=2 * KiB,
)  # fmt: skip


class _Chunks(httpx2.AsyncByteStream):
    def __init__(self, chunks: list[bytes]) -> None:
        self._chunks = chunks

    async def __aiter__(self) -> AsyncIterator[bytes]:
        for chunk in self._chunks:
            yield chunk


def fetch(
    body: bytes | list[bytes],
    *,
    encoding: str | None = None,
    content_type: str = "application/json",
    status: int = 200,
    mcp: bool = True,
    limits: Limits = SMALL,
    headers: dict[str, str] | None = None,
) -> tuple[bytes, httpx2.Response, httpx2.Request]:
    """GET through a BoundedTransport over a mock answering ``body`` (a list: those chunks); the decoded
    body (read whole), the response and the request as sent."""
    sent: list[httpx2.Request] = []

    def answer(request: httpx2.Request) -> httpx2.Response:
        sent.append(request)
        extra = {"content-type": content_type, **(headers or {})}
        if encoding:
            extra["content-encoding"] = encoding
        chunks = body if isinstance(body, list) else [body]
        return httpx2.Response(status, headers=extra, stream=_Chunks(chunks))

    async def main() -> tuple[bytes, httpx2.Response]:
        transport = BoundedTransport(httpx2.MockTransport(answer), limits)
        async with httpx2.AsyncClient(transport=transport) as client:
            request = client.build_request("GET", "http://mcp.test/mcp", extensions=mcp_extensions() if mcp else None)
            response = await client.send(request)
            return response.content, response

    content, response = run(main)
    return content, response, sent[0]


def breach_of(exc: pytest.ExceptionInfo[HttpLimitError]) -> str:
    return exc.value.breach.name


def test_it_asks_only_for_what_it_decodes_and_removes_the_header_it_undid() -> None:
    content, response, request = fetch(gzip.compress(b'{"a": 1}'), encoding="gzip")
    assert content == b'{"a": 1}'
    assert request.headers["accept-encoding"] == ACCEPT_ENCODING == "gzip, deflate"
    assert "content-encoding" not in response.headers
    assert response.extensions[ENCODING_EXTENSION] == "gzip"


@pytest.mark.parametrize("wbits", [zlib.MAX_WBITS, -zlib.MAX_WBITS])
def test_deflate_with_and_without_the_zlib_wrapper(wbits: int) -> None:
    compressor = zlib.compressobj(6, zlib.DEFLATED, wbits)
    data = compressor.compress(b"hello " * 1000) + compressor.flush()
    assert fetch(data, encoding="deflate")[0] == b"hello " * 1000


def test_multi_member_gzip_split_anywhere_and_chained_encodings() -> None:
    members = gzip.compress(b"one ") + gzip.compress(b"two ") + gzip.compress(b"three")
    chunks = [members[i : i + 7] for i in range(0, len(members), 7)]
    assert fetch(chunks, encoding="gzip")[0] == b"one two three"
    twice = gzip.compress(zlib.compress(b"inner"))
    assert fetch(twice, encoding="deflate, gzip")[0] == b"inner"
    assert fetch(b"plain", encoding="identity")[0] == b"plain"


def test_an_unknown_encoding_is_an_error_naming_it() -> None:
    with pytest.raises(httpx2.DecodingError) as caught:
        fetch(b"...", encoding="br")
    assert "Content-Encoding 'br'" in str(caught.value)
    message = request_error_message(caught.value, "http://mcp.test/mcp")
    assert message.startswith("the answer from http://mcp.test/mcp cannot be decoded: ")


def test_corrupt_gzip_is_a_decoding_error() -> None:
    with pytest.raises(httpx2.DecodingError, match="not valid gzip"):
        fetch(b"this is not gzip at all", encoding="gzip")


def _bomb(size: int, wbits: int = 16 + zlib.MAX_WBITS) -> list[bytes]:
    compressor = zlib.compressobj(9, zlib.DEFLATED, wbits)
    block = b"\0" * MiB
    chunks = [compressor.compress(block) for _ in range(size // MiB)]
    return [*chunks, compressor.flush()]


def test_a_bomb_breaks_the_ratio_after_the_grace() -> None:
    with pytest.raises(HttpLimitError) as caught:
        fetch(
            _bomb(64 * MiB),
            encoding="gzip",
            limits=SMALL.replace(message_bytes=128 * MiB, decompressed_bytes=128 * MiB),
        )
    assert breach_of(caught) == "decompression_ratio"
    assert str(caught.value).startswith("an HTTP body with a compression ratio of ")
    assert request_error_message(caught.value, "http://mcp.test/") == str(caught.value.breach)


def test_an_event_stream_has_no_total_cap_but_its_ratio_is_checked() -> None:
    plain = [b": keep-alive " + b"k" * 1000 + b"\n"] * 2100  # > 2 MiB, uncompressed: more than every cap
    assert len(fetch(plain, content_type="text/event-stream")[0]) > 2 * MiB
    with pytest.raises(HttpLimitError) as caught:
        fetch(_bomb(8 * MiB), encoding="gzip", content_type="text/event-stream")
    assert breach_of(caught) == "decompression_ratio"


@pytest.mark.parametrize(
    ("status", "content_type", "mcp", "limit"),
    [
        (200, "application/json", True, "message_bytes"),
        (200, "text/html", True, "message_bytes"),
        (500, "application/json", True, "error_body_bytes"),
        (401, "text/plain", True, "error_body_bytes"),
        (200, "application/json", False, "oauth_body_bytes"),
        (400, "application/json", False, "oauth_body_bytes"),
    ],
)
def test_the_cap_follows_the_purpose_status_and_content_type(
    status: int, content_type: str, mcp: bool, limit: str
) -> None:
    cap = getattr(SMALL, limit)
    content, _, _ = fetch([b"x" * 1000] * (cap // 1000) + [b"x" * (cap % 1000)], status=status,
                          content_type=content_type, mcp=mcp)  # fmt: skip
    assert len(content) == cap  # exactly the cap is fine
    with pytest.raises(HttpLimitError) as caught:
        fetch([b"x" * 1000] * (cap // 1000 + 1), status=status, content_type=content_type, mcp=mcp)
    assert breach_of(caught) == limit


def test_an_encoded_body_is_also_capped_by_decompressed_bytes() -> None:
    limits = SMALL.replace(message_bytes=4 * MiB, decompression_ratio=100_000)
    with pytest.raises(HttpLimitError) as caught:
        fetch(_bomb(2 * MiB), encoding="gzip", limits=limits)
    assert str(caught.value) == "a decoded HTTP body of more than 512 KiB (limit decompressed_bytes = 512 KiB)"


def test_the_bytes_under_the_cap_are_delivered_before_the_breach() -> None:
    seen = bytearray()

    def answer(request: httpx2.Request) -> httpx2.Response:
        return httpx2.Response(500, headers={"content-type": "text/plain"}, stream=_Chunks([b"e" * 700] * 3))

    async def main() -> None:
        async with httpx2.AsyncClient(transport=BoundedTransport(httpx2.MockTransport(answer), SMALL)) as client:
            request = client.build_request("GET", "http://mcp.test/", extensions=mcp_extensions())
            response = await client.send(request, stream=True)
            with pytest.raises(HttpLimitError):
                async for chunk in response.aiter_bytes():
                    seen.extend(chunk)
            await response.aclose()

    run(main)
    assert len(seen) == SMALL.error_body_bytes


def test_response_headers_are_counted() -> None:
    fetch(b"{}", headers={"x-pad": "p" * 1900})
    with pytest.raises(HttpLimitError) as caught:
        fetch(b"{}", headers={"x-pad": "p" * 2100})
    assert breach_of(caught) == "header_bytes"
    assert str(caught.value).startswith("the response headers of ")


@settings(max_examples=60, deadline=None)
@given(st.binary(max_size=3000), st.lists(st.integers(0, 4000), max_size=6), st.sampled_from(["gzip", "deflate"]))
def test_decoding_does_not_depend_on_how_the_body_is_cut(data: bytes, cuts: list[int], coding: str) -> None:
    wbits = 16 + zlib.MAX_WBITS if coding == "gzip" else zlib.MAX_WBITS
    compressor = zlib.compressobj(6, zlib.DEFLATED, wbits)
    encoded = compressor.compress(data) + compressor.flush()
    bounds = sorted(min(c, len(encoded)) for c in cuts)
    chunks = [encoded[a:b] for a, b in zip([0, *bounds], [*bounds, len(encoded)], strict=True)]
    assert fetch(chunks, encoding=coding, limits=DEFAULT_LIMITS)[0] == data
