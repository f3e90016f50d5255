"""JSON-RPC 2.0 envelopes: classify a decoded value by the keys it has, and build outgoing frames.

Classification never raises. Whatever is wrong with an envelope becomes a diagnostic; where the
message can still be understood it is delivered, otherwise it is ``Invalid`` and, when JSON-RPC
says so, carries the error the peer must receive.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any, Final

from inspector.protocol.diagnostics import Diagnostic, DiagnosticCode, Severity
from inspector.protocol.jsontypes import json_type
from inspector.protocol.wire import RequestId

__all__ = [
    "ERROR_NAMES",
    "HEADER_MISMATCH",
    "INTERNAL_ERROR",
    "INVALID_PARAMS",
    "INVALID_REQUEST",
    "METHOD_NOT_FOUND",
    "MISSING_REQUIRED_CLIENT_CAPABILITY",
    "PARSE_ERROR",
    "REQUEST_TIMEOUT",
    "RESOURCE_NOT_FOUND",
    "UNSUPPORTED_PROTOCOL_VERSION",
    "URL_ELICITATION_REQUIRED",
    "ErrorResponse",
    "Invalid",
    "Message",
    "Notification",
    "Request",
    "Response",
    "classify",
    "dumps",
    "error_frame",
    "is_valid_id",
    "notification_frame",
    "request_frame",
    "response_frame",
]

PARSE_ERROR: Final = -32700
INVALID_REQUEST: Final = -32600
METHOD_NOT_FOUND: Final = -32601
INVALID_PARAMS: Final = -32602
INTERNAL_ERROR: Final = -32603
REQUEST_TIMEOUT: Final = -32001
"""Not a protocol code: what SDKs use for a request they gave up waiting for."""
RESOURCE_NOT_FOUND: Final = -32002
"""Resource not found up to 2025-11-25; 2026-07-28 answers ``INVALID_PARAMS`` instead (still accepted)."""
URL_ELICITATION_REQUIRED: Final = -32042
"""2025-11-25 only."""
HEADER_MISMATCH: Final = -32020
"""2026-07-28: the HTTP headers do not match the body, or required ones are missing or malformed."""
MISSING_REQUIRED_CLIENT_CAPABILITY: Final = -32021
"""2026-07-28: the request needs a client capability it did not declare (``data.requiredCapabilities``)."""
UNSUPPORTED_PROTOCOL_VERSION: Final = -32022
"""2026-07-28: the server does not serve the requested version (``data.supported``, ``data.requested``)."""

ERROR_NAMES: Final[dict[int, str]] = {
    PARSE_ERROR: "Parse error",
    INVALID_REQUEST: "Invalid request",
    METHOD_NOT_FOUND: "Method not found",
    INVALID_PARAMS: "Invalid params",
    INTERNAL_ERROR: "Internal error",
    REQUEST_TIMEOUT: "Request timeout",
    RESOURCE_NOT_FOUND: "Resource not found",
    URL_ELICITATION_REQUIRED: "URL elicitation required",
    HEADER_MISMATCH: "Header mismatch",
    MISSING_REQUIRED_CLIENT_CAPABILITY: "Missing required client capability",
    UNSUPPORTED_PROTOCOL_VERSION: "Unsupported protocol version",
}

_ENVELOPE_KEYS: Final = frozenset({"jsonrpc", "id", "method", "params", "result", "error"})


@dataclass(frozen=True, slots=True)
class Request:
    id: RequestId
    method: str
    params: dict[str, Any] | None


@dataclass(frozen=True, slots=True)
class Notification:
    method: str
    params: dict[str, Any] | None


@dataclass(frozen=True, slots=True)
class Response:
    id: RequestId
    result: Any


@dataclass(frozen=True, slots=True)
class ErrorResponse:
    id: RequestId | None
    code: int | None
    message: str
    data: Any = None


@dataclass(frozen=True, slots=True)
class Invalid:
    """A message that cannot be acted on as it stands.

    ``reply_code`` is set when JSON-RPC wants the peer told (``reply_id`` may then be None,
    sent as ``null``). ``answers`` is the id of our request this broken response was meant for,
    when one can be read from it.
    """

    reason: str
    reply_code: int | None = None
    reply_id: RequestId | None = None
    answers: RequestId | None = None
    method: str | None = None


Message = Request | Notification | Response | ErrorResponse | Invalid


def is_valid_id(value: object) -> bool:
    """JSON-RPC ids (as MCP narrows them): a string or an integer, never null, bool or float."""
    return (isinstance(value, int) and not isinstance(value, bool)) or isinstance(value, str)


def classify(value: object) -> tuple[Message, list[Diagnostic]]:
    """Classify one decoded JSON value (not a batch; the session unpacks batches)."""
    diags: list[Diagnostic] = []
    if not isinstance(value, dict):
        kind = type(value).__name__ if value is not None else "null"
        diags.append(
            Diagnostic(DiagnosticCode.NOT_AN_OBJECT, f"message is a JSON {json_type(value)} ({kind}), not an object")
        )
        return Invalid("message is not a JSON object", reply_code=INVALID_REQUEST), diags

    jsonrpc_ok = value.get("jsonrpc") == "2.0"
    if not jsonrpc_ok:
        if "jsonrpc" not in value:
            text = 'missing "jsonrpc": "2.0"'
        else:
            text = f'"jsonrpc" is {_describe(value.get("jsonrpc"))}, expected "2.0"'
        diags.append(Diagnostic(DiagnosticCode.BAD_JSONRPC_VERSION, text, path="$.jsonrpc"))
    extra = value.keys() - _ENVELOPE_KEYS
    if extra:
        diags.append(
            Diagnostic(
                DiagnosticCode.UNKNOWN_KEYS,
                f"unexpected envelope keys: {', '.join(sorted(extra))}",
                severity=Severity.WARNING,
            )
        )

    if "method" in value:
        return _classify_call(value, jsonrpc_ok, diags)
    if "result" in value or "error" in value:
        return _classify_answer(value, diags)
    diags.append(Diagnostic(DiagnosticCode.NO_RESULT_NOR_ERROR, 'message has neither "method" nor "result"/"error"'))
    rid = value.get("id")
    return Invalid(
        "neither a call nor an answer", reply_code=INVALID_REQUEST, reply_id=rid if is_valid_id(rid) else None
    ), diags


def _classify_call(
    value: dict[str, Any], jsonrpc_ok: bool, diags: list[Diagnostic]
) -> tuple[Message, list[Diagnostic]]:
    method = value["method"]
    has_id = "id" in value
    rid = value.get("id")
    id_ok = is_valid_id(rid)
    reply_id = rid if id_ok else None
    if "result" in value or "error" in value:
        diags.append(
            Diagnostic(DiagnosticCode.UNKNOWN_KEYS, 'a request or notification must not carry "result" or "error"')
        )
    if not isinstance(method, str) or not method:
        diags.append(
            Diagnostic(
                DiagnosticCode.BAD_METHOD,
                f'"method" must be a non-empty string, got {json_type(method)}',
                path="$.method",
            )
        )
        return Invalid(
            "method is not a string", reply_code=INVALID_REQUEST if has_id else None, reply_id=reply_id
        ), diags
    params = value.get("params")
    if "params" in value and not isinstance(params, dict):
        diags.append(
            Diagnostic(
                DiagnosticCode.BAD_PARAMS,
                f'"params" must be an object in MCP, got {json_type(params)}',
                path="$.params",
            )
        )
        return Invalid(
            "params is not an object", reply_code=INVALID_REQUEST if has_id else None, reply_id=reply_id, method=method
        ), diags
    if has_id and not id_ok:
        diags.append(
            Diagnostic(
                DiagnosticCode.BAD_ID_TYPE,
                f'request "id" must be a string or an integer, got {json_type(rid)}',
                path="$.id",
            )
        )
        return Invalid("request id has a wrong type", reply_code=INVALID_REQUEST, method=method), diags
    if has_id:
        if not jsonrpc_ok:
            return Invalid(
                'request without "jsonrpc": "2.0"', reply_code=INVALID_REQUEST, reply_id=reply_id, method=method
            ), diags
        return Request(rid, method, params), diags  # type: ignore[arg-type]
    return Notification(method, params), diags


def _classify_answer(value: dict[str, Any], diags: list[Diagnostic]) -> tuple[Message, list[Diagnostic]]:
    rid = value.get("id")
    id_ok = is_valid_id(rid)
    if "id" not in value:
        diags.append(Diagnostic(DiagnosticCode.BAD_ID_TYPE, 'response has no "id"', path="$.id"))
    elif not id_ok and not (rid is None and "error" in value):
        diags.append(
            Diagnostic(
                DiagnosticCode.BAD_ID_TYPE,
                f'response "id" must be a string or an integer, got {json_type(rid)}',
                path="$.id",
            )
        )
    answers = rid if id_ok else None
    if "result" in value and "error" in value:
        # JSON-RPC says one or the other; the result is the answer (the error is only shown in the log)
        diags.append(
            Diagnostic(
                DiagnosticCode.RESULT_AND_ERROR,
                'response has both "result" and "error" (the result was used; the error ignored: '
                f"{_error_text(value['error'])})",
                path="$.error",
            )
        )
        if not id_ok:
            return Invalid('response has both "result" and "error"', answers=None), diags
        return Response(rid, value["result"]), diags  # type: ignore[arg-type]
    if "error" in value:
        err = value["error"]
        if not isinstance(err, dict):
            diags.append(
                Diagnostic(
                    DiagnosticCode.BAD_ERROR_OBJECT, f'"error" must be an object, got {json_type(err)}', path="$.error"
                )
            )
            return ErrorResponse(answers, None, str(err)[:200]), diags
        code = err.get("code")
        message = err.get("message")
        if not (isinstance(code, int) and not isinstance(code, bool)):
            diags.append(
                Diagnostic(DiagnosticCode.BAD_ERROR_OBJECT, '"error.code" must be an integer', path="$.error.code")
            )
            code = None
        if not isinstance(message, str):
            diags.append(
                Diagnostic(DiagnosticCode.BAD_ERROR_OBJECT, '"error.message" must be a string', path="$.error.message")
            )
            message = "" if message is None else str(message)
        return ErrorResponse(answers, code, message, err.get("data")), diags
    if not id_ok:
        return Invalid("response without a usable id", answers=None), diags
    return Response(rid, value["result"]), diags  # type: ignore[arg-type]


def _error_text(err: object) -> str:
    """A short rendering of an ``error`` member, for a diagnostic."""
    if isinstance(err, dict):
        code, message = err.get("code"), err.get("message")
        text = f"{code} " if isinstance(code, int) and not isinstance(code, bool) else ""
        text += json.dumps(message)[:120] if isinstance(message, str) else "(no message)"
        return text
    return _describe(err)


def _describe(value: object) -> str:
    """A short rendering of a scalar, or the JSON type of a container (never recurses)."""
    if isinstance(value, str | int | float | bool) or value is None:
        return json.dumps(value)[:40]
    return f"an {json_type(value)}" if json_type(value) in ("array", "object") else json_type(value)


def dumps(obj: object) -> bytes:
    """Compact JSON, UTF-8, no NaN (JSON has none).

    A string holding a lone surrogate (which a peer can send as ``"\\ud800"``) cannot be UTF-8
    encoded; such a message is written with ASCII escapes instead, which round-trips exactly.
    """
    text = json.dumps(obj, ensure_ascii=False, separators=(",", ":"), allow_nan=False)
    try:
        return text.encode("utf-8")
    except UnicodeEncodeError:
        return json.dumps(obj, ensure_ascii=True, separators=(",", ":"), allow_nan=False).encode("ascii")


def request_frame(rid: RequestId, method: str, params: dict[str, Any] | None) -> bytes:
    msg: dict[str, Any] = {"jsonrpc": "2.0", "id": rid, "method": method}
    if params is not None:
        msg["params"] = params
    return dumps(msg)


def notification_frame(method: str, params: dict[str, Any] | None) -> bytes:
    msg: dict[str, Any] = {"jsonrpc": "2.0", "method": method}
    if params is not None:
        msg["params"] = params
    return dumps(msg)


def response_frame(rid: RequestId, result: dict[str, Any]) -> bytes:
    return dumps({"jsonrpc": "2.0", "id": rid, "result": result})


def error_frame(rid: RequestId | None, code: int, message: str, data: Any = None) -> bytes:
    err: dict[str, Any] = {"code": code, "message": message}
    if data is not None:
        err["data"] = data
    return dumps({"jsonrpc": "2.0", "id": rid, "error": err})
