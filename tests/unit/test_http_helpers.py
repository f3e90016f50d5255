"""The pure parts of the HTTP transports: peeking at frames, masking, one-line errors, and recording exchanges."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import httpx2
import pytest

from inspector.protocol.wire import Direction, Kind, WireMessage
from inspector.store.recording import RecordFilter, Recording
from inspector.transports.base import MASK, HttpExchange, SendFailed, SessionExpired
from inspector.transports.http_common import (
    HttpAuthError,
    body_summary,
    mask_headers,
    mask_url,
    request_error_message,
    status_error,
)
from inspector.transports.jsonpeek import FULL_PARSE_BYTES, Peek, peek

# -- peek ----------------------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("frame", "expected"),
    [
        (b'{"jsonrpc":"2.0","id":1,"method":"tools/list"}', Peek("request", "tools/list", (1,), (1,))),
        (b'{"jsonrpc":"2.0","method":"notifications/initialized"}', Peek("notification", "notifications/initialized")),
        (b'{"jsonrpc":"2.0","id":"a","result":{}}', Peek("response", None, ("a",))),
        (b'{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"x"}}', Peek("response")),
        (
            b'[{"jsonrpc":"2.0","id":1,"method":"a"},{"jsonrpc":"2.0","id":2,"result":{}}]',
            Peek("batch", None, (1, 2), (1,)),
        ),
        (b"not json", Peek("other")),
        (b'{"jsonrpc":"2.0","id":true,"result":{}}', Peek("response")),
    ],
)
def test_peek_small_frames(frame: bytes, expected: Peek) -> None:
    assert peek(frame) == expected


def big(message: dict[str, object]) -> bytes:
    frame = json.dumps(message).encode()
    assert len(frame) > FULL_PARSE_BYTES
    return frame


def test_peek_large_frames_from_head_and_tail() -> None:
    payload = {"content": [{"type": "text", "text": "x" * (FULL_PARSE_BYTES + 10)}], "id": 99}
    assert peek(big({"jsonrpc": "2.0", "id": 7, "result": payload})) == Peek("response", None, (7,))
    assert peek(big({"result": payload, "jsonrpc": "2.0", "id": 8})) == Peek("response", None, (8,))
    assert peek(big({"result": payload, "jsonrpc": "2.0", "id": "s-1"})) == Peek("response", None, ("s-1",))
    request = big({"jsonrpc": "2.0", "id": 3, "method": "tools/call", "params": payload})
    assert peek(request) == Peek("request", "tools/call", (3,), (3,))
    assert peek(big({"jsonrpc": "2.0", "method": "notifications/message", "params": payload})).kind == "notification"
    nested_only = big({"jsonrpc": "2.0", "result": {"a": payload}})
    assert peek(nested_only) == Peek("response")


# -- masking and errors ----------------------------------------------------------------------------------------------


def test_mask_headers_and_url() -> None:
    headers = [("Authorization", "Bearer x"), ("X-Key", "k"), ("Cookie", "c"), ("Accept", "a")]
    assert mask_headers(headers, ["x-key"]) == (
        ("Authorization", MASK),
        ("X-Key", MASK),
        ("Cookie", MASK),
        ("Accept", "a"),
    )
    assert mask_url("https://user:pw@example.test/mcp") == f"https://user:{MASK}@example.test/mcp"
    assert mask_url("https://example.test/mcp") == "https://example.test/mcp"


def response(status: int, body: bytes = b"", content_type: str = "text/plain", **headers: str) -> httpx2.Response:
    request = httpx2.Request("POST", "http://127.0.0.1:1/mcp")
    return httpx2.Response(status, content=body, headers={"content-type": content_type, **headers}, request=request)


def test_status_errors() -> None:
    assert (
        str(
            status_error(
                response(502, b"<html><title>Bad Gateway</title></html>", "text/html"),
                b"<html><title>Bad Gateway</title></html>",
            )
        )
        == "server error 502: Bad Gateway"
    )
    body = b'{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"Bad Request: no session"}}'
    assert str(status_error(response(400, body, "application/json"), body)) == (
        "HTTP 400 Bad Request: Bad Request: no session (JSON-RPC error -32600)"
    )
    forbidden = status_error(response(403, b"nope"), b"nope")
    assert isinstance(forbidden, HttpAuthError) and str(forbidden) == "forbidden (403): nope"
    odd = status_error(response(200, b"hello"), b"hello")
    assert str(odd).startswith("unexpected content type text/plain (status 200)")
    assert body_summary(b"\n\n  first   line \nsecond") == "first line"


def test_request_error_messages() -> None:
    refused = httpx2.ConnectError("All connection attempts failed")
    refused.__cause__ = ConnectionRefusedError(111, "refused")
    assert (
        request_error_message(refused, "http://127.0.0.1:9/mcp")
        == "cannot connect to http://127.0.0.1:9/mcp: connection refused"
    )
    import socket

    dns = httpx2.ConnectError("[Errno -2] Name or service not known")
    dns.__cause__ = socket.gaierror(-2, "Name or service not known")
    assert request_error_message(dns, "https://nowhere.invalid/mcp") == (
        "cannot connect to https://nowhere.invalid/mcp: host 'nowhere.invalid' not found (DNS lookup failed)"
    )


# -- recording ------------------------------------------------------------------------------------------------------


def exchange(*ids: int | str) -> HttpExchange:
    return HttpExchange("POST", "http://127.0.0.1:1/mcp", 200, (("authorization", MASK),), (), 0.01, carried_ids=ids)


def message(direction: Direction, kind: Kind, rid: int, method: str = "tools/call") -> WireMessage:
    raw = json.dumps(
        {"jsonrpc": "2.0", "id": rid, "method": method}
        if kind is Kind.REQUEST
        else {"jsonrpc": "2.0", "id": rid, "result": {}}
    )
    return WireMessage(direction, raw.encode(), kind, method, rid)


def test_recording_upgrades_to_version_2_on_the_first_exchange(tmp_path: Path) -> None:
    path = tmp_path / "r.sqlite3"
    with Recording(path) as recording:
        recording.record_message(message(Direction.OUT, Kind.REQUEST, 1))
        recording.flush()
        assert recording.meta()["schema_version"] == "1"
        recording.record_transport(exchange(1))
        recording.record_message(message(Direction.IN, Kind.RESPONSE, 1))
        recording.record_transport(SessionExpired("abc"))
        recording.record_transport(SendFailed("server error 500: boom", (2,)))
        assert recording.meta()["schema_version"] == "2"
        assert recording.exchanges_for(1) == [2]
        assert recording.exchanges_for(3) == [2]  # from the response too
        row = recording.get(2)
        assert row is not None and row.kind is Kind.HTTP and json.loads(row.raw)["carried_ids"] == [1]
        texts = [r.raw for r in recording.rows(RecordFilter(kinds=[Kind.TRANSPORT]))]
        assert texts == ["the server ended session abc (HTTP 404); a new session is needed", "server error 500: boom"]
    conn = sqlite3.connect(path)
    assert conn.execute("PRAGMA user_version").fetchone()[0] == 2
    conn.close()
    with Recording.open(path) as reopened:
        assert reopened.exchanges_for(1) == [2]
        exported = tmp_path / "out.jsonl"
        reopened.export_jsonl(exported, RecordFilter(kinds=[Kind.HTTP]))
        assert json.loads(exported.read_text())["message"]["status"] == 200


def test_version_1_files_stay_readable(tmp_path: Path) -> None:
    path = tmp_path / "old.sqlite3"
    with Recording(path) as recording:
        recording.record_message(message(Direction.OUT, Kind.REQUEST, 1))
    with Recording.open(path) as old:
        assert old.meta()["schema_version"] == "1"
        assert old.count() == 1 and old.exchanges_for(1) == []
    with Recording(path) as appended:  # writing to a version 1 file upgrades it when HTTP rows arrive
        appended.record_transport(exchange(1))
        appended.flush()
        assert appended.exchanges_for(1) == [2]
