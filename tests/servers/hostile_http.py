"""An HTTP server that attacks the client's memory, for testing the bounds on what is read (stdlib only).

``with HostileHttpServer() as server:`` listens on 127.0.0.1 (a free port) in a background thread, a raw
asyncio server that writes its answers byte by byte as it likes; ``server.url(mode)`` is the endpoint for one
mode. Every answer closes its connection. Every loop is bounded (in bytes and in time: ``max_seconds``), and a
client that hangs up ends it.

An endpoint is a small Streamable HTTP MCP server: ``initialize`` is answered with JSON (no session id),
notifications and responses with 202, GET with 405, any request with an empty result — except what the mode
attacks (``tools/list`` unless said otherwise):

=======================  ===================================================================================
``gzip-json``            a JSON answer, ``Content-Encoding: gzip``, inflating to ``bomb_bytes`` (10 GiB)
``deflate-json``         the same with ``deflate`` (zlib-wrapped)
``gzip-sse``             an SSE answer, gzip, inflating to ``bomb_bytes`` of comment lines (1 KiB each)
``gzip-get``             ``tools/list`` is fine; the GET stream for server messages is the gzip SSE bomb
``multi-gzip``           a correct JSON answer as three gzip members (a client must decode all of them)
``chained``              a correct JSON answer encoded ``deflate, gzip`` (both undone, in order)
``unknown-encoding``     a JSON answer with ``Content-Encoding: br``
``sse-data-endless``     an SSE answer whose ``data:`` line never ends
``sse-comment-endless``  an SSE answer whose comment line never ends
``sse-id-endless``       an SSE answer whose ``id:`` line never ends
``json-endless``         a chunked JSON answer that never ends
``huge-headers``         the answer carries ``header_size`` bytes of headers (``X-Pad-<n>``)
``legacy-endless``       POST: 405; GET: a legacy SSE stream whose ``endpoint`` event never ends
``legacy-big``           POST to ``/mcp``: 405; GET: a legacy SSE stream with a correct ``endpoint`` event
                         (POSTs there get 202), then a ``message`` event whose data never ends
``oauth-bomb``           any GET: JSON metadata, gzip, inflating to ``bomb_bytes`` (what an OAuth client reads)
=======================  ===================================================================================

``server.sent`` counts the bytes written on the wire per mode (to tell that the client hung up early).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import threading
import time
import zlib
from collections import Counter
from typing import Any, Final

__all__ = ["MODES", "HostileHttpServer", "bomb_block"]

GiB: Final = 1024**3
_BLOCK: Final = 1024 * 1024
"""Decoded bytes per precomputed compressed block."""

MODES: Final = (
    "gzip-json",
    "deflate-json",
    "gzip-sse",
    "gzip-get",
    "multi-gzip",
    "chained",
    "unknown-encoding",
    "sse-data-endless",
    "sse-comment-endless",
    "sse-id-endless",
    "json-endless",
    "huge-headers",
    "legacy-endless",
    "legacy-big",
    "oauth-bomb",
)

TOOLS_RESULT: Final = {"tools": [{"name": "echo", "inputSchema": {"type": "object"}}]}


def bomb_block(prefix: bytes, filler: bytes, wbits: int) -> tuple[bytes, bytes]:
    """(head, block): ``head`` starts a compressed stream holding ``prefix``; ``block`` is ``_BLOCK`` bytes of
    ``filler`` compressed after a full flush, so repeating it (the compressor's state is reset at each full
    flush, the output of identical input is identical) streams a bomb of any size from one computed block."""
    compressor = zlib.compressobj(9, zlib.DEFLATED, wbits)
    head = compressor.compress(prefix) + compressor.flush(zlib.Z_FULL_FLUSH)
    data = (filler * (_BLOCK // len(filler) + 1))[:_BLOCK]
    block = compressor.compress(data) + compressor.flush(zlib.Z_FULL_FLUSH)
    again = compressor.compress(data) + compressor.flush(zlib.Z_FULL_FLUSH)
    assert again == block, "full-flush blocks of identical input must repeat"
    return head, block


class HostileHttpServer:
    def __init__(self, *, bomb_bytes: int = 10 * GiB, header_size: int = 80 * 1024, max_seconds: float = 40.0):
        self.bomb_bytes = bomb_bytes
        self.header_size = header_size
        self.max_seconds = max_seconds
        self.sent: Counter[str] = Counter()
        self.requests: list[tuple[str, str, str | None]] = []
        """(method, path, JSON-RPC method) of every request."""
        self._loop = asyncio.new_event_loop()
        self._server: asyncio.Server | None = None
        self._ready = threading.Event()
        self._thread = threading.Thread(target=self._run, name="hostile-http", daemon=True)
        self.port = 0
        gzip_bits, zlib_bits = 16 + zlib.MAX_WBITS, zlib.MAX_WBITS
        json_head = b'{"jsonrpc":"2.0","id":%d,"result":{"tools":[],"pad":"'
        self._json_head = json_head
        self._blocks = {
            "gzip": bomb_block(b"", b" ", gzip_bits)[1],
            "deflate": bomb_block(b"", b" ", zlib_bits)[1],
            "sse": bomb_block(b"", b": " + b"k" * 1021 + b"\n", gzip_bits)[1],
        }
        self._gzip_bits = gzip_bits
        self._zlib_bits = zlib_bits

    # -- lifecycle ---------------------------------------------------------------------------------------------

    def __enter__(self) -> HostileHttpServer:
        self._thread.start()
        if not self._ready.wait(10):
            raise RuntimeError("the hostile server did not start")
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        if self._thread.is_alive():
            self._loop.call_soon_threadsafe(self._loop.stop)
            self._thread.join(10)

    def url(self, mode: str, path: str = "/mcp") -> str:
        return f"http://127.0.0.1:{self.port}/{mode}{path}"

    def _run(self) -> None:
        asyncio.set_event_loop(self._loop)

        async def start() -> None:
            self._server = await asyncio.start_server(self._serve, "127.0.0.1", 0)
            self.port = self._server.sockets[0].getsockname()[1]

        self._loop.run_until_complete(start())
        self._ready.set()
        try:
            self._loop.run_forever()
        finally:
            if self._server is not None:
                self._server.close()
            for task in asyncio.all_tasks(self._loop):
                task.cancel()
            with contextlib.suppress(Exception):
                self._loop.run_until_complete(asyncio.sleep(0))
            self._loop.close()

    # -- one connection ----------------------------------------------------------------------------------------

    async def _serve(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        try:
            head = await asyncio.wait_for(reader.readuntil(b"\r\n\r\n"), 10)
            lines = head.decode("latin-1").split("\r\n")
            method, target, _ = lines[0].split(" ", 2)
            headers = {}
            for line in lines[1:]:
                name, _, value = line.partition(":")
                if name:
                    headers[name.strip().lower()] = value.strip()
            length = int(headers.get("content-length", "0") or 0)
            body = await reader.readexactly(length) if length else b""
            await self._answer(method, target, body, writer)
        except (ConnectionError, asyncio.IncompleteReadError, asyncio.LimitOverrunError, TimeoutError):
            pass
        finally:
            writer.close()
            with contextlib.suppress(Exception):
                await writer.wait_closed()

    async def _answer(self, method: str, target: str, body: bytes, writer: asyncio.StreamWriter) -> None:
        mode = target.strip("/").split("/", 1)[0]
        message: dict[str, Any] = {}
        if body:
            with contextlib.suppress(ValueError):
                value = json.loads(body)
                message = value if isinstance(value, dict) else {}
        rpc = message.get("method")
        self.requests.append((method, target, rpc if isinstance(rpc, str) else None))
        if mode == "oauth-bomb":
            await self._bomb(writer, mode, "application/json", "gzip", self._gzip_bits, b'{"issuer":"', "gzip")
            return
        if mode == "legacy-big":
            if method == "GET":
                prefix = f"event: endpoint\ndata: /{mode}/messages\n\n: ready\n\ndata: ".encode()
                await self._endless(writer, mode, "text/event-stream", prefix, b"x", wait=0.3)
            elif target.endswith("/messages"):
                await self._plain(writer, 202, b"", None)
            else:
                await self._plain(writer, 405, b"", "text/plain")
            return
        if mode == "legacy-endless":
            if method == "GET":
                await self._endless(writer, mode, "text/event-stream", b"event: endpoint\ndata: /", b"x")
            else:
                await self._plain(writer, 405, b"", "text/plain")
            return
        if method == "GET":
            if mode == "gzip-get":
                await self._bomb(writer, mode, "text/event-stream", "gzip", self._gzip_bits, b"", "sse")
            else:
                await self._plain(writer, 405, b"", "text/plain")
            return
        if method != "POST":
            await self._plain(writer, 405, b"", "text/plain")
            return
        ident = message.get("id")
        if ident is None or rpc is None:
            await self._plain(writer, 202, b"", None)
            return
        if rpc == "initialize":
            params = message.get("params") or {}
            result = {
                "protocolVersion": params.get("protocolVersion", "2025-06-18"),
                "capabilities": {"tools": {}},
                "serverInfo": {"name": "hostile", "version": "1"},
            }
            await self._plain(writer, 200, _rpc(ident, result), "application/json")
            return
        if rpc != "tools/list" or mode == "gzip-get":
            result = TOOLS_RESULT if rpc == "tools/list" else {}
            await self._plain(writer, 200, _rpc(ident, result), "application/json")
            return
        await self._attack(mode, ident, writer)

    async def _attack(self, mode: str, ident: Any, writer: asyncio.StreamWriter) -> None:
        prefix = self._json_head % (ident if isinstance(ident, int) else 0)
        if mode == "gzip-json":
            await self._bomb(writer, mode, "application/json", "gzip", self._gzip_bits, prefix, "gzip")
        elif mode == "deflate-json":
            await self._bomb(writer, mode, "application/json", "deflate", self._zlib_bits, prefix, "deflate")
        elif mode == "gzip-sse":
            await self._bomb(writer, mode, "text/event-stream", "gzip", self._gzip_bits, b"id: 1\n", "sse")
        elif mode in ("multi-gzip", "chained"):
            answer = _rpc(ident, TOOLS_RESULT)
            if mode == "multi-gzip":
                thirds = (answer[:10], answer[10:20], answer[20:])
                encoded = b"".join(_compress(part, self._gzip_bits) for part in thirds)
                coding = "gzip"
            else:
                encoded = _compress(_compress(answer, self._zlib_bits), self._gzip_bits)
                coding = "deflate, gzip"
            await self._plain(writer, 200, encoded, "application/json", {"Content-Encoding": coding})
        elif mode == "unknown-encoding":
            await self._plain(writer, 200, b"\x0b\x02\x80{}\x03", "application/json", {"Content-Encoding": "br"})
        elif mode == "sse-data-endless":
            await self._endless(writer, mode, "text/event-stream", b"id: 1\ndata: ", b"x")
        elif mode == "sse-comment-endless":
            await self._endless(writer, mode, "text/event-stream", b": ", b"x")
        elif mode == "sse-id-endless":
            await self._endless(writer, mode, "text/event-stream", b"id: ", b"7")
        elif mode == "json-endless":
            await self._endless(writer, mode, "application/json", b'{"jsonrpc":"2.0","id":1,"result":{"a":"', b"a")
        elif mode == "huge-headers":
            pads = {f"X-Pad-{n}": "p" * 1000 for n in range(self.header_size // 1012 + 1)}
            await self._plain(writer, 200, _rpc(ident, TOOLS_RESULT), "application/json", pads)
        else:
            await self._plain(writer, 404, b"unknown mode", "text/plain")

    # -- writing -----------------------------------------------------------------------------------------------

    async def _write(self, writer: asyncio.StreamWriter, mode: str, data: bytes) -> None:
        writer.write(data)
        self.sent[mode] += len(data)
        await writer.drain()

    async def _plain(
        self,
        writer: asyncio.StreamWriter,
        status: int,
        body: bytes,
        content_type: str | None,
        headers: dict[str, str] | None = None,
    ) -> None:
        lines = [f"HTTP/1.1 {status} {_REASONS.get(status, 'Whatever')}", f"Content-Length: {len(body)}"]
        if content_type:
            lines.append(f"Content-Type: {content_type}")
        lines += [f"{name}: {value}" for name, value in (headers or {}).items()]
        lines.append("Connection: close")
        await self._write(writer, "plain", ("\r\n".join(lines) + "\r\n\r\n").encode("latin-1") + body)

    async def _start_chunked(
        self, writer: asyncio.StreamWriter, mode: str, content_type: str, coding: str | None
    ) -> None:
        lines = ["HTTP/1.1 200 OK", f"Content-Type: {content_type}", "Transfer-Encoding: chunked"]
        if coding:
            lines.append(f"Content-Encoding: {coding}")
        lines.append("Connection: close")
        await self._write(writer, mode, ("\r\n".join(lines) + "\r\n\r\n").encode("latin-1"))

    async def _chunk(self, writer: asyncio.StreamWriter, mode: str, data: bytes) -> None:
        await self._write(writer, mode, b"%x\r\n" % len(data) + data + b"\r\n")

    async def _bomb(
        self, writer: asyncio.StreamWriter, mode: str, content_type: str, coding: str, wbits: int, prefix: bytes,
        block: str,
    ) -> None:  # fmt: skip
        """A compressed body of ``bomb_bytes`` decoded bytes (the stream is never finished: bounded by size)."""
        head = bomb_block(prefix, b" ", wbits)[0]
        piece = self._blocks[block]
        await self._start_chunked(writer, mode, content_type, coding)
        await self._chunk(writer, mode, head)
        deadline = time.monotonic() + self.max_seconds
        group = piece * 16
        for _ in range(self.bomb_bytes // (_BLOCK * 16)):
            await self._chunk(writer, mode, group)
            if time.monotonic() > deadline:
                break
        await self._write(writer, mode, b"0\r\n\r\n")

    async def _endless(
        self, writer: asyncio.StreamWriter, mode: str, content_type: str, prefix: bytes, filler: bytes,
        wait: float = 0.0,
    ) -> None:  # fmt: skip
        """A chunked body that starts with ``prefix`` and then (after ``wait`` seconds) repeats ``filler``
        (at most 10 GiB or ``max_seconds``)."""
        await self._start_chunked(writer, mode, content_type, None)
        await self._chunk(writer, mode, prefix)
        if wait:
            await asyncio.sleep(wait)
        data = filler * (64 * 1024 // len(filler))
        deadline = time.monotonic() + self.max_seconds
        for _ in range(10 * GiB // len(data)):
            await self._chunk(writer, mode, data)
            if time.monotonic() > deadline:
                break


_REASONS: Final = {200: "OK", 202: "Accepted", 404: "Not Found", 405: "Method Not Allowed"}


def _rpc(ident: Any, result: Any) -> bytes:
    return json.dumps({"jsonrpc": "2.0", "id": ident, "result": result}).encode()


def _compress(data: bytes, wbits: int) -> bytes:
    compressor = zlib.compressobj(6, zlib.DEFLATED, wbits)
    return compressor.compress(data) + compressor.flush()


def main() -> None:  # pragma: no cover - by hand: python tests/servers/hostile_http.py
    with HostileHttpServer() as server:
        print(f"listening on http://127.0.0.1:{server.port}/<mode>/mcp; modes: {', '.join(MODES)}", flush=True)
        with contextlib.suppress(KeyboardInterrupt):
            while True:
                time.sleep(3600)


if __name__ == "__main__":
    main()
