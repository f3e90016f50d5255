"""A tiny MCP stdio server for the benchmarks: standard library only, starts in milliseconds.

It speaks just enough of the handshake era (2024-11-05 .. 2025-11-25) for the benches:
``initialize``, ``notifications/initialized``, ``ping``, ``tools/list`` and ``tools/call`` of
``echo`` / ``add`` / ``fail`` (a tool result with ``isError``).  Every other request gets -32601.

Usage: ``python bench/fast_server.py`` (newline-delimited JSON-RPC on stdin/stdout).
"""

from __future__ import annotations

import json
import sys

SUPPORTED_VERSIONS = ("2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05")
LATEST = SUPPORTED_VERSIONS[0]

TOOLS = [
    {
        "name": "echo",
        "description": "Return the message unchanged.",
        "inputSchema": {
            "type": "object",
            "properties": {"message": {"type": "string", "description": "Text to echo"}},
            "required": ["message"],
        },
    },
    {
        "name": "add",
        "description": "Add two numbers.",
        "inputSchema": {
            "type": "object",
            "properties": {"a": {"type": "number"}, "b": {"type": "number"}},
            "required": ["a", "b"],
        },
    },
    {
        "name": "fail",
        "description": "Always returns a tool result with isError: true.",
        "inputSchema": {"type": "object", "properties": {}},
    },
]


def _text(text: str, *, is_error: bool = False) -> dict[str, object]:
    return {"content": [{"type": "text", "text": text}], "isError": is_error}


def _call_tool(params: dict[str, object]) -> dict[str, object]:
    name = params.get("name")
    args = params.get("arguments") or {}
    if not isinstance(args, dict):
        args = {}
    if name == "echo":
        return _text(str(args.get("message", "")))
    if name == "add":
        try:
            return _text(str(float(args["a"]) + float(args["b"])))
        except (KeyError, TypeError, ValueError) as exc:
            return _text(f"bad arguments: {exc}", is_error=True)
    if name == "fail":
        return _text("this tool always fails", is_error=True)
    raise LookupError(f"Unknown tool: {name}")


def _handle(msg: dict[str, object]) -> dict[str, object] | None:
    method = msg.get("method")
    if "id" not in msg:  # a notification (initialized, cancelled, ...) or a stray response
        return None
    req_id = msg["id"]
    params = msg.get("params")
    if not isinstance(params, dict):
        params = {}
    if method == "initialize":
        asked = params.get("protocolVersion")
        version = asked if asked in SUPPORTED_VERSIONS else LATEST
        result: dict[str, object] = {
            "protocolVersion": version,
            "capabilities": {"tools": {"listChanged": False}},
            "serverInfo": {"name": "bench-fast-server", "version": "1.0.0"},
        }
    elif method == "ping":
        result = {}
    elif method == "tools/list":
        result = {"tools": TOOLS}
    elif method == "tools/call":
        try:
            result = _call_tool(params)
        except LookupError as exc:
            return {"jsonrpc": "2.0", "id": req_id, "error": {"code": -32602, "message": str(exc)}}
    else:
        return {"jsonrpc": "2.0", "id": req_id, "error": {"code": -32601, "message": f"Method not found: {method}"}}
    return {"jsonrpc": "2.0", "id": req_id, "result": result}


def main() -> int:
    stdin = sys.stdin.buffer
    stdout = sys.stdout.buffer
    for line in stdin:
        line = line.strip()
        if not line:
            continue
        try:
            msg = json.loads(line)
        except ValueError:
            reply: dict[str, object] | None = {
                "jsonrpc": "2.0",
                "id": None,
                "error": {"code": -32700, "message": "Parse error"},
            }
        else:
            if isinstance(msg, dict):
                reply = _handle(msg)
            else:
                reply = {"jsonrpc": "2.0", "id": None, "error": {"code": -32600, "message": "Invalid Request"}}
        if reply is not None:
            stdout.write(json.dumps(reply, separators=(",", ":")).encode() + b"\n")
            stdout.flush()
    return 0


if __name__ == "__main__":
    sys.exit(main())
