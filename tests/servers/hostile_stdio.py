"""A stdio MCP server that attacks the client's memory (stdlib only), for the limits tests.

Run as ``python tests/servers/hostile_stdio.py --mode MODE [--size BYTES]``. It answers ``initialize``
(2025-11-25, tools capability), ``tools/list`` (one tool ``t``) and ``ping`` sanely; ``tools/call`` does the
mode's attack. It exits on stdin EOF, on a closed stdout (the client went away) and after ``--max-lifetime``
seconds (default 120), so nothing it writes is endless in practice.

Modes:

=================  ==========================================================================================
endless-line       the answer to tools/call starts normally (id first) and its text never ends: ``--size``
                   bytes (default 64 GiB) of ``x`` in 1 MiB writes, then the end of the line
endless-no-id      like endless-line, but the line starts with 8 KiB of spaces, so no id can be read from it
big-notification   one notifications/message line of ``--size`` bytes (default 300 MB), then the normal answer
endless-stderr     a stderr line of ``--size`` bytes (default 64 GiB) without a newline, written while it
                   answers the call normally once 16 MiB of it are out
=================  ==========================================================================================
"""

from __future__ import annotations

import argparse
import json
import sys
import threading
import time
from typing import Any

CHUNK = 1 << 20


def write_line(message: dict[str, Any]) -> None:
    sys.stdout.buffer.write(json.dumps(message).encode() + b"\n")
    sys.stdout.buffer.flush()


def stream(out: Any, head: bytes, size: int, fill: bytes = b"x") -> None:
    """``head`` then ``size`` bytes of ``fill``, without a newline; stops when the reader went away."""
    block = fill * CHUNK
    try:
        out.write(head)
        sent = 0
        while sent < size:
            piece = block[: min(CHUNK, size - sent)]
            out.write(piece)
            sent += len(piece)
        out.flush()
    except (BrokenPipeError, OSError):
        raise SystemExit(0) from None


def call(mode: str, rid: Any, size: int | None) -> None:
    answer = {"jsonrpc": "2.0", "id": rid, "result": {"content": [{"type": "text", "text": "ok"}]}}
    if mode == "endless-line":
        head = b'{"jsonrpc": "2.0", "id": ' + json.dumps(rid).encode() + b', "result": {"content": [{"text": "'
        stream(sys.stdout.buffer, head, size or 64 << 30)
        sys.stdout.buffer.write(b'"}]}}\n')  # with a --size the line does end, and the server goes on
        sys.stdout.buffer.flush()
    elif mode == "endless-no-id":
        stream(sys.stdout.buffer, b" " * 8192 + b'{"jsonrpc": "2.0", "result": {"x": "', size or 64 << 30)
    elif mode == "big-notification":
        head = b'{"jsonrpc": "2.0", "method": "notifications/message", "params": {"level": "info", "data": "'
        stream(sys.stdout.buffer, head, size or 300_000_000)
        sys.stdout.buffer.write(b'"}}\n')
        write_line(answer)
    elif mode == "endless-stderr":

        def flood() -> None:
            stream(sys.stderr.buffer, b"stderr flood: ", size or 64 << 30)

        threading.Thread(target=flood, daemon=True).start()
        time.sleep(0.5)
        write_line(answer)
    else:
        write_line(answer)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--mode", default="none")
    parser.add_argument("--size", type=int, default=None)
    parser.add_argument("--max-lifetime", type=float, default=120.0)
    args = parser.parse_args()
    timer = threading.Timer(args.max_lifetime, lambda: __import__("os")._exit(0))
    timer.daemon = True
    timer.start()
    for line in sys.stdin.buffer:
        try:
            msg = json.loads(line)
        except ValueError:
            continue
        if not isinstance(msg, dict) or "id" not in msg or "method" not in msg:
            continue
        rid, method = msg["id"], msg["method"]
        if method == "initialize":
            result: dict[str, Any] = {
                "protocolVersion": "2025-11-25",
                "capabilities": {"tools": {}},
                "serverInfo": {"name": "hostile-stdio", "version": "1"},
            }
            write_line({"jsonrpc": "2.0", "id": rid, "result": result})
        elif method == "tools/list":
            tool = {"name": "t", "inputSchema": {"type": "object"}}
            write_line({"jsonrpc": "2.0", "id": rid, "result": {"tools": [tool]}})
        elif method == "tools/call":
            call(args.mode, rid, args.size)
        elif method == "ping":
            write_line({"jsonrpc": "2.0", "id": rid, "result": {}})
        else:
            write_line({"jsonrpc": "2.0", "id": rid, "error": {"code": -32601, "message": "no"}})


if __name__ == "__main__":
    main()
