"""JSON-RPC envelope classification and outgoing frames: table-driven, no I/O."""

from __future__ import annotations

import json
from typing import Any

import pytest

from inspector.protocol import jsonrpc
from inspector.protocol.diagnostics import DiagnosticCode, Severity
from inspector.protocol.jsonrpc import (
    ErrorResponse,
    Invalid,
    Notification,
    Request,
    Response,
    classify,
    is_valid_id,
)

C = DiagnosticCode
BIG = 2**70

# (id, value, expected message (== compare), expected diagnostic codes (in order))
CASES: list[tuple[str, Any, Any, list[DiagnosticCode]]] = [
    # ---- well-formed
    ("request", {"jsonrpc": "2.0", "id": 1, "method": "ping"}, Request(1, "ping", None), []),
    ("request str id", {"jsonrpc": "2.0", "id": "a-1", "method": "m", "params": {}}, Request("a-1", "m", {}), []),
    ("request empty str id", {"jsonrpc": "2.0", "id": "", "method": "m"}, Request("", "m", None), []),
    ("request negative id", {"jsonrpc": "2.0", "id": -5, "method": "m"}, Request(-5, "m", None), []),
    ("request big id", {"jsonrpc": "2.0", "id": BIG, "method": "m"}, Request(BIG, "m", None), []),
    (
        "request with params",
        {"jsonrpc": "2.0", "id": 0, "method": "roots/list", "params": {"_meta": {}}},
        Request(0, "roots/list", {"_meta": {}}),
        [],
    ),
    ("notification", {"jsonrpc": "2.0", "method": "n"}, Notification("n", None), []),
    (
        "notification with params",
        {"jsonrpc": "2.0", "method": "n", "params": {"a": [1]}},
        Notification("n", {"a": [1]}),
        [],
    ),
    ("response", {"jsonrpc": "2.0", "id": 7, "result": {"x": 1}}, Response(7, {"x": 1}), []),
    ("response null result", {"jsonrpc": "2.0", "id": 7, "result": None}, Response(7, None), []),
    ("response array result", {"jsonrpc": "2.0", "id": "s", "result": [1]}, Response("s", [1]), []),
    (
        "error",
        {"jsonrpc": "2.0", "id": 7, "error": {"code": -32601, "message": "nope"}},
        ErrorResponse(7, -32601, "nope"),
        [],
    ),
    (
        "error with data",
        {"jsonrpc": "2.0", "id": "x", "error": {"code": 1, "message": "m", "data": {"d": [1]}}},
        ErrorResponse("x", 1, "m", {"d": [1]}),
        [],
    ),
    (
        "error with id null",
        {"jsonrpc": "2.0", "id": None, "error": {"code": -32700, "message": "Parse error"}},
        ErrorResponse(None, -32700, "Parse error"),
        [],
    ),
    # ---- jsonrpc member
    (
        "request without jsonrpc",
        {"id": 1, "method": "ping"},
        Invalid('request without "jsonrpc": "2.0"', reply_code=-32600, reply_id=1, method="ping"),
        [C.BAD_JSONRPC_VERSION],
    ),
    (
        "request jsonrpc 1.0",
        {"jsonrpc": "1.0", "id": "q", "method": "ping"},
        Invalid('request without "jsonrpc": "2.0"', reply_code=-32600, reply_id="q", method="ping"),
        [C.BAD_JSONRPC_VERSION],
    ),
    (
        "request jsonrpc number",
        {"jsonrpc": 2.0, "id": 1, "method": "ping"},
        Invalid('request without "jsonrpc": "2.0"', reply_code=-32600, reply_id=1, method="ping"),
        [C.BAD_JSONRPC_VERSION],
    ),
    ("notification without jsonrpc", {"method": "n"}, Notification("n", None), [C.BAD_JSONRPC_VERSION]),
    ("response without jsonrpc", {"id": 1, "result": {}}, Response(1, {}), [C.BAD_JSONRPC_VERSION]),
    (
        "error with jsonrpc null",
        {"jsonrpc": None, "id": 1, "error": {"code": 1, "message": "m"}},
        ErrorResponse(1, 1, "m"),
        [C.BAD_JSONRPC_VERSION],
    ),
    # ---- result and error
    (
        "result and error",
        {"jsonrpc": "2.0", "id": 4, "result": {}, "error": {"code": 1, "message": "m"}},
        Response(4, {}),
        [C.RESULT_AND_ERROR],
    ),
    (
        "result and error, bad id",
        {"jsonrpc": "2.0", "id": 1.5, "result": {}, "error": {"code": 1, "message": "m"}},
        Invalid('response has both "result" and "error"', answers=None),
        [C.BAD_ID_TYPE, C.RESULT_AND_ERROR],
    ),
    (
        "neither result nor error",
        {"jsonrpc": "2.0", "id": 9},
        Invalid("neither a call nor an answer", reply_code=-32600, reply_id=9),
        [C.NO_RESULT_NOR_ERROR],
    ),
    (
        "empty object",
        {},
        Invalid("neither a call nor an answer", reply_code=-32600),
        [C.BAD_JSONRPC_VERSION, C.NO_RESULT_NOR_ERROR],
    ),
    (
        "request carrying result",
        {"jsonrpc": "2.0", "id": 1, "method": "m", "result": {}},
        Request(1, "m", None),
        [C.UNKNOWN_KEYS],
    ),
    # ---- request ids
    (
        "request id bool",
        {"jsonrpc": "2.0", "id": True, "method": "m"},
        Invalid("request id has a wrong type", reply_code=-32600, method="m"),
        [C.BAD_ID_TYPE],
    ),
    (
        "request id float",
        {"jsonrpc": "2.0", "id": 1.0, "method": "m"},
        Invalid("request id has a wrong type", reply_code=-32600, method="m"),
        [C.BAD_ID_TYPE],
    ),
    (
        "request id null",
        {"jsonrpc": "2.0", "id": None, "method": "m"},
        Invalid("request id has a wrong type", reply_code=-32600, method="m"),
        [C.BAD_ID_TYPE],
    ),
    (
        "request id object",
        {"jsonrpc": "2.0", "id": {"a": 1}, "method": "m"},
        Invalid("request id has a wrong type", reply_code=-32600, method="m"),
        [C.BAD_ID_TYPE],
    ),
    (
        "request id array",
        {"jsonrpc": "2.0", "id": [1], "method": "m"},
        Invalid("request id has a wrong type", reply_code=-32600, method="m"),
        [C.BAD_ID_TYPE],
    ),
    # ---- response ids
    (
        "response id bool",
        {"jsonrpc": "2.0", "id": False, "result": {}},
        Invalid("response without a usable id"),
        [C.BAD_ID_TYPE],
    ),
    (
        "response id float",
        {"jsonrpc": "2.0", "id": 2.5, "result": {}},
        Invalid("response without a usable id"),
        [C.BAD_ID_TYPE],
    ),
    (
        "response id null",
        {"jsonrpc": "2.0", "id": None, "result": {}},
        Invalid("response without a usable id"),
        [C.BAD_ID_TYPE],
    ),
    (
        "response id object",
        {"jsonrpc": "2.0", "id": {}, "result": {}},
        Invalid("response without a usable id"),
        [C.BAD_ID_TYPE],
    ),
    (
        "response without id",
        {"jsonrpc": "2.0", "result": {}},
        Invalid("response without a usable id"),
        [C.BAD_ID_TYPE],
    ),
    (
        "error without id",
        {"jsonrpc": "2.0", "error": {"code": 1, "message": "m"}},
        ErrorResponse(None, 1, "m"),
        [C.BAD_ID_TYPE],
    ),
    (
        "error id bool",
        {"jsonrpc": "2.0", "id": True, "error": {"code": 1, "message": "m"}},
        ErrorResponse(None, 1, "m"),
        [C.BAD_ID_TYPE],
    ),
    (
        "error id float",
        {"jsonrpc": "2.0", "id": 3.0, "error": {"code": 1, "message": "m"}},
        ErrorResponse(None, 1, "m"),
        [C.BAD_ID_TYPE],
    ),
    # ---- params
    (
        "request params array",
        {"jsonrpc": "2.0", "id": 1, "method": "m", "params": [1, 2]},
        Invalid("params is not an object", reply_code=-32600, reply_id=1, method="m"),
        [C.BAD_PARAMS],
    ),
    (
        "request params string",
        {"jsonrpc": "2.0", "id": "r", "method": "m", "params": "x"},
        Invalid("params is not an object", reply_code=-32600, reply_id="r", method="m"),
        [C.BAD_PARAMS],
    ),
    (
        "request params null",
        {"jsonrpc": "2.0", "id": 1, "method": "m", "params": None},
        Invalid("params is not an object", reply_code=-32600, reply_id=1, method="m"),
        [C.BAD_PARAMS],
    ),
    (
        "notification params array",
        {"jsonrpc": "2.0", "method": "n", "params": []},
        Invalid("params is not an object", method="n"),
        [C.BAD_PARAMS],
    ),
    (
        "notification params number",
        {"jsonrpc": "2.0", "method": "n", "params": 3},
        Invalid("params is not an object", method="n"),
        [C.BAD_PARAMS],
    ),
    # ---- method
    (
        "request method number",
        {"jsonrpc": "2.0", "id": 1, "method": 5},
        Invalid("method is not a string", reply_code=-32600, reply_id=1),
        [C.BAD_METHOD],
    ),
    (
        "request method null",
        {"jsonrpc": "2.0", "id": "z", "method": None},
        Invalid("method is not a string", reply_code=-32600, reply_id="z"),
        [C.BAD_METHOD],
    ),
    (
        "request method empty",
        {"jsonrpc": "2.0", "id": 1, "method": ""},
        Invalid("method is not a string", reply_code=-32600, reply_id=1),
        [C.BAD_METHOD],
    ),
    (
        "request method object, bad id",
        {"jsonrpc": "2.0", "id": True, "method": {}},
        Invalid("method is not a string", reply_code=-32600, reply_id=None),
        [C.BAD_METHOD],
    ),
    (
        "notification method array",
        {"jsonrpc": "2.0", "method": ["n"]},
        Invalid("method is not a string"),
        [C.BAD_METHOD],
    ),
    # ---- unknown keys
    (
        "request unknown key",
        {"jsonrpc": "2.0", "id": 1, "method": "m", "extra": 1},
        Request(1, "m", None),
        [C.UNKNOWN_KEYS],
    ),
    (
        "response unknown keys",
        {"jsonrpc": "2.0", "id": 1, "result": {}, "b": 1, "a": 2},
        Response(1, {}),
        [C.UNKNOWN_KEYS],
    ),
    (
        "notification unknown key, no jsonrpc",
        {"method": "n", "x": 1},
        Notification("n", None),
        [C.BAD_JSONRPC_VERSION, C.UNKNOWN_KEYS],
    ),
    # ---- error object
    (
        "error is a string",
        {"jsonrpc": "2.0", "id": 1, "error": "kaput"},
        ErrorResponse(1, None, "kaput"),
        [C.BAD_ERROR_OBJECT],
    ),
    (
        "error is null",
        {"jsonrpc": "2.0", "id": 1, "error": None},
        ErrorResponse(1, None, "None"),
        [C.BAD_ERROR_OBJECT],
    ),
    (
        "error code string",
        {"jsonrpc": "2.0", "id": 1, "error": {"code": "-32601", "message": "m"}},
        ErrorResponse(1, None, "m"),
        [C.BAD_ERROR_OBJECT],
    ),
    (
        "error code float",
        {"jsonrpc": "2.0", "id": 1, "error": {"code": -32601.0, "message": "m"}},
        ErrorResponse(1, None, "m"),
        [C.BAD_ERROR_OBJECT],
    ),
    (
        "error code bool",
        {"jsonrpc": "2.0", "id": 1, "error": {"code": True, "message": "m"}},
        ErrorResponse(1, None, "m"),
        [C.BAD_ERROR_OBJECT],
    ),
    (
        "error message missing",
        {"jsonrpc": "2.0", "id": 1, "error": {"code": -1}},
        ErrorResponse(1, -1, ""),
        [C.BAD_ERROR_OBJECT],
    ),
    (
        "error message number",
        {"jsonrpc": "2.0", "id": 1, "error": {"code": -1, "message": 42}},
        ErrorResponse(1, -1, "42"),
        [C.BAD_ERROR_OBJECT],
    ),
    (
        "error object empty",
        {"jsonrpc": "2.0", "id": 1, "error": {}},
        ErrorResponse(1, None, ""),
        [C.BAD_ERROR_OBJECT, C.BAD_ERROR_OBJECT],
    ),
    # ---- not an object
    ("array", [1], Invalid("message is not a JSON object", reply_code=-32600), [C.NOT_AN_OBJECT]),
    ("string", "hi", Invalid("message is not a JSON object", reply_code=-32600), [C.NOT_AN_OBJECT]),
    ("number", 3.5, Invalid("message is not a JSON object", reply_code=-32600), [C.NOT_AN_OBJECT]),
    ("null", None, Invalid("message is not a JSON object", reply_code=-32600), [C.NOT_AN_OBJECT]),
    ("bool", False, Invalid("message is not a JSON object", reply_code=-32600), [C.NOT_AN_OBJECT]),
]


@pytest.mark.parametrize(("value", "expected", "expected_codes"), [c[1:] for c in CASES], ids=[c[0] for c in CASES])
def test_classify(value: Any, expected: Any, expected_codes: list[DiagnosticCode]) -> None:
    msg, diags = classify(value)
    assert msg == expected
    assert type(msg) is type(expected)
    assert [d.code for d in diags] == expected_codes
    for d in diags:
        assert d.message
        assert d.raw is None


# the JSON paths and severities the envelope diagnostics carry
PATHS = [
    ("bad jsonrpc", {"jsonrpc": "1.0", "method": "n"}, C.BAD_JSONRPC_VERSION, "$.jsonrpc", Severity.VIOLATION),
    ("bad request id", {"jsonrpc": "2.0", "id": 1.5, "method": "m"}, C.BAD_ID_TYPE, "$.id", Severity.VIOLATION),
    ("bad response id", {"jsonrpc": "2.0", "id": [], "result": 1}, C.BAD_ID_TYPE, "$.id", Severity.VIOLATION),
    ("bad method", {"jsonrpc": "2.0", "method": 1}, C.BAD_METHOD, "$.method", Severity.VIOLATION),
    ("bad params", {"jsonrpc": "2.0", "method": "n", "params": 1}, C.BAD_PARAMS, "$.params", Severity.VIOLATION),
    ("bad error", {"jsonrpc": "2.0", "id": 1, "error": 1}, C.BAD_ERROR_OBJECT, "$.error", Severity.VIOLATION),
    (
        "bad error code",
        {"jsonrpc": "2.0", "id": 1, "error": {"code": "x", "message": "m"}},
        C.BAD_ERROR_OBJECT,
        "$.error.code",
        Severity.VIOLATION,
    ),
    (
        "bad error message",
        {"jsonrpc": "2.0", "id": 1, "error": {"code": 1, "message": None}},
        C.BAD_ERROR_OBJECT,
        "$.error.message",
        Severity.VIOLATION,
    ),
    ("unknown keys", {"jsonrpc": "2.0", "method": "n", "zz": 1}, C.UNKNOWN_KEYS, None, Severity.WARNING),
    (
        "result and error",
        {"jsonrpc": "2.0", "id": 1, "result": 1, "error": {}},
        C.RESULT_AND_ERROR,
        "$.error",
        Severity.VIOLATION,
    ),
]


@pytest.mark.parametrize(("value", "code", "path", "severity"), [p[1:] for p in PATHS], ids=[p[0] for p in PATHS])
def test_diagnostic_paths_and_severities(value: Any, code: DiagnosticCode, path: str | None, severity) -> None:
    _, diags = classify(value)
    (diag,) = [d for d in diags if d.code is code]
    assert diag.path == path
    if severity is not None:
        assert diag.severity is severity


def test_unknown_keys_are_named_sorted() -> None:
    _, diags = classify({"jsonrpc": "2.0", "method": "n", "zeta": 1, "alpha": 2})
    assert "alpha, zeta" in diags[0].message


def test_wrong_jsonrpc_value_is_quoted_and_cut() -> None:
    _, diags = classify({"jsonrpc": "x" * 500, "method": "n"})
    assert diags[0].code is C.BAD_JSONRPC_VERSION
    assert len(diags[0].message) < 120


@pytest.mark.parametrize(
    ("value", "valid"),
    [
        (0, True),
        (-1, True),
        (BIG, True),
        ("", True),
        ("1", True),
        (True, False),
        (False, False),
        (1.0, False),
        (None, False),
        ([], False),
        ({}, False),
    ],
)
def test_is_valid_id(value: object, valid: bool) -> None:
    assert is_valid_id(value) is valid


def test_error_names_cover_every_reply_code() -> None:
    for code in (-32700, -32600, -32601, -32602, -32603, -32001, -32002, -32042, -32020, -32021, -32022):
        assert jsonrpc.ERROR_NAMES[code]


# ---------------------------------------------------------------- outgoing frames

FRAMES = [
    ("request", jsonrpc.request_frame(1, "tools/list", None), b'{"jsonrpc":"2.0","id":1,"method":"tools/list"}'),
    (
        "request params",
        jsonrpc.request_frame("a", "tools/call", {"name": "t", "arguments": {}}),
        b'{"jsonrpc":"2.0","id":"a","method":"tools/call","params":{"name":"t","arguments":{}}}',
    ),
    (
        "request empty params",
        jsonrpc.request_frame(2, "m", {}),
        b'{"jsonrpc":"2.0","id":2,"method":"m","params":{}}',
    ),
    ("notification", jsonrpc.notification_frame("n", None), b'{"jsonrpc":"2.0","method":"n"}'),
    (
        "notification params",
        jsonrpc.notification_frame("notifications/cancelled", {"requestId": 3}),
        b'{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":3}}',
    ),
    ("response", jsonrpc.response_frame(5, {}), b'{"jsonrpc":"2.0","id":5,"result":{}}'),
    (
        "error",
        jsonrpc.error_frame(5, -32601, "Method not found"),
        b'{"jsonrpc":"2.0","id":5,"error":{"code":-32601,"message":"Method not found"}}',
    ),
    (
        "error null id with data",
        jsonrpc.error_frame(None, -32700, "Parse error", {"at": 1}),
        b'{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"Parse error","data":{"at":1}}}',
    ),
    ("non-ascii kept as utf-8", jsonrpc.dumps({"t": "é✓"}), '{"t":"é✓"}'.encode()),
]


@pytest.mark.parametrize(("built", "expected"), [f[1:] for f in FRAMES], ids=[f[0] for f in FRAMES])
def test_frames_are_exact(built: bytes, expected: bytes) -> None:
    assert built == expected
    assert b"\n" not in built
    json.loads(built)


@pytest.mark.parametrize("bad", [float("nan"), float("inf")])
def test_dumps_refuses_non_json_numbers(bad: float) -> None:
    with pytest.raises(ValueError):
        jsonrpc.dumps({"x": bad})


def test_dumps_never_emits_a_raw_newline() -> None:
    assert b"\n" not in jsonrpc.dumps({"t": "a\nb\r\u2028"})
