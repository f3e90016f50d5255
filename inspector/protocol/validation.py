"""Validate inbound MCP messages against the official wire types of the negotiated version.

Failures become diagnostics with a JSON path; nothing raises. Only the per-version *surface*
models from ``mcp_types.methods`` are used: they gate by version and check the wire shape.
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import cache
from typing import Any, Final

from mcp_types import methods as _methods
from pydantic import BaseModel, TypeAdapter, ValidationError

from inspector.protocol.diagnostics import Diagnostic
from inspector.protocol.schema_errors import MAX_DIAGNOSTICS_PER_MESSAGE, diagnostics_from

__all__ = [
    "MAX_DIAGNOSTICS_PER_MESSAGE",
    "known_server_notification",
    "known_server_request",
    "validate_client_result",
    "validate_server_notification",
    "validate_server_request",
    "validate_server_result",
    "validate_task_handle",
]

_STUB_REQUEST: Final = {"jsonrpc": "2.0", "id": 0}
_STUB_NOTIFICATION: Final = {"jsonrpc": "2.0"}


@cache
def _adapter(target: Any) -> TypeAdapter[Any]:
    return TypeAdapter(target)


def _validate_model(model: type[BaseModel], body: dict[str, Any], what: str) -> list[Diagnostic]:
    # strict: the input is parsed JSON, so no coercion ("5" is not an integer, 1 is not a boolean)
    try:
        model.model_validate(body, by_name=False, strict=True)
    except ValidationError as exc:
        return diagnostics_from(exc, body, "$", what)
    return []


def known_server_request(method: str, version: str) -> bool:
    return (method, version) in _methods.SERVER_REQUESTS


def known_server_notification(method: str, version: str) -> bool:
    return (method, version) in _methods.SERVER_NOTIFICATIONS


def validate_server_request(method: str, version: str, params: Mapping[str, Any] | None) -> list[Diagnostic]:
    model = _methods.SERVER_REQUESTS.get((method, version))
    if model is None:
        return []
    body: dict[str, Any] = {**_STUB_REQUEST, "method": method}
    if params is not None:
        body["params"] = params
    return _validate_model(model, body, f"{method} request")


def validate_server_notification(method: str, version: str, params: Mapping[str, Any] | None) -> list[Diagnostic]:
    model = _methods.SERVER_NOTIFICATIONS.get((method, version))
    if model is None:
        return []
    body: dict[str, Any] = {**_STUB_NOTIFICATION, "method": method}
    if params is not None:
        body["params"] = params
    return _validate_model(model, body, f"{method} notification")


def validate_server_result(method: str, version: str, result: Any) -> list[Diagnostic]:
    """Validate the result of our ``method`` request; unknown (custom) methods are not checked."""
    target = _methods.SERVER_RESULTS.get((method, version))
    if target is None:
        return []
    try:
        _adapter(target).validate_python(result, by_name=False, strict=True)
    except ValidationError as exc:
        return diagnostics_from(exc, result, "$.result", f"{method} result")
    return []


def validate_task_handle(version: str, result: Any) -> list[Diagnostic]:
    """The answer to a request that created a task: 2025-11-25's ``CreateTaskResult`` (a ``tools/call`` with
    ``params.task``); the 2026-07-28 extension's ``resultType: "task"`` handle is checked by the task layer."""
    if version != "2025-11-25":
        return []
    from mcp_types import _v2025_11_25

    try:
        _adapter(_v2025_11_25.CreateTaskResult).validate_python(result, by_name=False, strict=True)
    except ValidationError as exc:
        return diagnostics_from(exc, result, "$.result", "CreateTaskResult")
    return []


def validate_client_result(method: str, version: str, result: Any) -> list[Diagnostic]:
    """Check our own answer to a server request (used by tests and to flag handler mistakes)."""
    target = _methods.CLIENT_RESULTS.get((method, version))
    if target is None:
        return []
    try:
        _adapter(target).validate_python(result, by_name=False, strict=True)
    except ValidationError as exc:
        return diagnostics_from(exc, result, "$.result", f"{method} result")
    return []
