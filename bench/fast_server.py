"""A tiny MCP stdio server for the benchmarks: standard library only, starts in milliseconds.

It speaks just enough of both protocol eras for the benches: ``ping``, ``tools/list`` and ``tools/call`` of
``echo`` / ``add`` / ``fail`` (a tool result with ``isError``); every other request gets -32601.

``--era`` chooses which eras it serves (default ``both``):

``legacy``
    the handshake era (2024-11-05 .. 2025-11-25) only: ``initialize`` + ``notifications/initialized``;
    ``server/discover`` is an unknown method (-32601), as on any handshake-only server; a ``_meta``
    envelope on a request is ignored.
``modern``
    2026-07-28 only, no handshake: ``server/discover`` answers the supported versions, the capabilities and
    the server's identity (``_meta["io.modelcontextprotocol/serverInfo"]``); every request must carry the
    ``_meta`` envelope (a string ``io.modelcontextprotocol/protocolVersion`` and an object
    ``.../clientCapabilities``, else -32602); a version other than 2026-07-28 gets -32022 with
    ``data: {supported, requested}`` (so does ``initialize``); results carry ``resultType: "complete"`` and
    the server's identity in ``_meta``; ``server/discover`` and ``tools/list`` results carry the cache hints
    (``ttlMs: 0``, ``cacheScope``).
``both``
    a dual-era server: a request carrying ``io.modelcontextprotocol/protocolVersion`` in its ``_meta`` (and
    ``server/discover`` always) is served as in ``modern``, ``initialize`` and requests without the envelope
    as in ``legacy``.

Usage: ``python bench/fast_server.py [--era legacy|modern|both]`` (newline-delimited JSON-RPC on stdio).
"""

from __future__ import annotations

import json
import sys

TYPE_CHECKING = False  # not `from typing import ...`: importing typing costs milliseconds at start-up

if TYPE_CHECKING:
    from typing import Any

HANDSHAKE_VERSIONS = ("2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05")
LATEST = HANDSHAKE_VERSIONS[0]
MODERN_VERSIONS = ("2026-07-28",)
ERAS = ("legacy", "modern", "both")

SERVER_INFO = {"name": "bench-fast-server", "version": "1.0.0"}
PROTOCOL_VERSION_KEY = "io.modelcontextprotocol/protocolVersion"
CLIENT_CAPABILITIES_KEY = "io.modelcontextprotocol/clientCapabilities"
SERVER_INFO_KEY = "io.modelcontextprotocol/serverInfo"

METHOD_NOT_FOUND = -32601
INVALID_PARAMS = -32602
UNSUPPORTED_PROTOCOL_VERSION = -32022

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
CAPABILITIES = {"tools": {"listChanged": False}}
MODERN_CAPABILITIES: dict[str, Any] = {"tools": {}}
"""2026-07-28 has no list-changed notifications outside ``subscriptions/listen``, which this server lacks."""


class RequestError(Exception):
    """Ends a request with a JSON-RPC error."""

    def __init__(self, code: int, message: str, data: Any = None) -> None:
        super().__init__(message)
        self.code = code
        self.data = data

    def error(self) -> dict[str, Any]:
        err: dict[str, Any] = {"code": self.code, "message": str(self)}
        if self.data is not None:
            err["data"] = self.data
        return err


def _text(text: str, *, is_error: bool = False) -> dict[str, Any]:
    return {"content": [{"type": "text", "text": text}], "isError": is_error}


def _call_tool(params: dict[str, Any]) -> dict[str, Any]:
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
    raise RequestError(INVALID_PARAMS, f"Unknown tool: {name}")


def _common(method: object, params: dict[str, Any]) -> dict[str, Any]:
    """The methods both eras share; the caller adds what its era puts on a result."""
    if method == "ping":
        return {}
    if method == "tools/list":
        return {"tools": TOOLS}
    if method == "tools/call":
        return _call_tool(params)
    raise RequestError(METHOD_NOT_FOUND, f"Method not found: {method}")


def _legacy(method: object, params: dict[str, Any]) -> dict[str, Any]:
    if method == "initialize":
        asked = params.get("protocolVersion")
        return {
            "protocolVersion": asked if asked in HANDSHAKE_VERSIONS else LATEST,
            "capabilities": CAPABILITIES,
            "serverInfo": SERVER_INFO,
        }
    return _common(method, params)


def _unsupported(requested: object) -> RequestError:
    return RequestError(
        UNSUPPORTED_PROTOCOL_VERSION,
        f"Unsupported protocol version: this server speaks {', '.join(MODERN_VERSIONS)}",
        {"supported": list(MODERN_VERSIONS), "requested": requested},
    )


def _modern(method: object, params: dict[str, Any]) -> dict[str, Any]:
    if method == "initialize":  # a modern-only server names its versions to a handshake-era client
        raise _unsupported(params.get("protocolVersion"))
    meta = params.get("_meta")
    version = meta.get(PROTOCOL_VERSION_KEY) if isinstance(meta, dict) else None
    if not isinstance(version, str):
        raise RequestError(INVALID_PARAMS, f"Invalid params: _meta[{PROTOCOL_VERSION_KEY!r}] (a string) is required")
    if version not in MODERN_VERSIONS:
        raise _unsupported(version)
    if not isinstance(meta, dict) or not isinstance(meta.get(CLIENT_CAPABILITIES_KEY), dict):
        raise RequestError(INVALID_PARAMS, f"Invalid params: _meta[{CLIENT_CAPABILITIES_KEY!r}] is required")
    if method == "server/discover":
        result: dict[str, Any] = {
            "supportedVersions": list(MODERN_VERSIONS),
            "capabilities": MODERN_CAPABILITIES,
            "ttlMs": 0,
            "cacheScope": "public",
        }
    else:
        result = _common(method, params)
        if method == "tools/list":
            result = {**result, "ttlMs": 0, "cacheScope": "public"}
    result["resultType"] = "complete"
    result["_meta"] = {SERVER_INFO_KEY: SERVER_INFO}
    return result


def _is_modern_request(method: object, params: dict[str, Any]) -> bool:
    """For ``--era both``: does this request select the 2026-07-28 era?"""
    if method == "server/discover":
        return True
    meta = params.get("_meta")
    return isinstance(meta, dict) and PROTOCOL_VERSION_KEY in meta


def handle(msg: dict[str, Any], era: str = "both") -> dict[str, Any] | None:
    """The reply to one parsed message (None for a notification or a stray response)."""
    if "id" not in msg:  # a notification (initialized, cancelled, ...) or a stray response
        return None
    req_id = msg["id"]
    method = msg.get("method")
    params = msg.get("params")
    if not isinstance(params, dict):
        params = {}
    modern = era == "modern" or (era == "both" and _is_modern_request(method, params))
    try:
        result = _modern(method, params) if modern else _legacy(method, params)
    except RequestError as exc:
        return {"jsonrpc": "2.0", "id": req_id, "error": exc.error()}
    return {"jsonrpc": "2.0", "id": req_id, "result": result}


def _reply_to(line: bytes, era: str) -> dict[str, Any] | None:
    try:
        msg = json.loads(line)
    except ValueError:
        return {"jsonrpc": "2.0", "id": None, "error": {"code": -32700, "message": "Parse error"}}
    if not isinstance(msg, dict):
        return {"jsonrpc": "2.0", "id": None, "error": {"code": -32600, "message": "Invalid Request"}}
    return handle(msg, era)


def parse_era(argv: list[str]) -> str:
    """``--era X`` / ``--era=X`` from ``argv`` (default ``both``); raises ValueError on anything else."""
    era = "both"
    args = list(argv)
    while args:
        arg = args.pop(0)
        if arg == "--era" and args:
            era = args.pop(0)
        elif arg.startswith("--era="):
            era = arg.partition("=")[2]
        else:
            raise ValueError(f"unexpected argument {arg!r}")
    if era not in ERAS:
        raise ValueError(f"--era must be one of {', '.join(ERAS)}, not {era!r}")
    return era


def main(argv: list[str] | None = None) -> int:
    try:
        era = parse_era(sys.argv[1:] if argv is None else argv)
    except ValueError as exc:
        print(f"usage: fast_server.py [--era {'|'.join(ERAS)}]\nfast_server.py: error: {exc}", file=sys.stderr)
        return 2
    stdin = sys.stdin.buffer
    stdout = sys.stdout.buffer
    for line in stdin:
        line = line.strip()
        if not line:
            continue
        reply = _reply_to(line, era)
        if reply is not None:
            stdout.write(json.dumps(reply, separators=(",", ":")).encode() + b"\n")
            stdout.flush()
    return 0


if __name__ == "__main__":
    sys.exit(main())
