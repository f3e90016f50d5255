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

from inspector.protocol.diagnostics import Diagnostic, DiagnosticCode

__all__ = [
    "MAX_DIAGNOSTICS_PER_MESSAGE",
    "known_server_notification",
    "known_server_request",
    "validate_client_result",
    "validate_server_notification",
    "validate_server_request",
    "validate_server_result",
]

MAX_DIAGNOSTICS_PER_MESSAGE: Final = 8
_STUB_REQUEST: Final = {"jsonrpc": "2.0", "id": 0}
_STUB_NOTIFICATION: Final = {"jsonrpc": "2.0"}


@cache
def _adapter(target: Any) -> TypeAdapter[Any]:
    return TypeAdapter(target)


def _path(loc: tuple[int | str, ...], root: str) -> str:
    out = root
    for part in loc:
        if isinstance(part, int):
            out += f"[{part}]"
        elif part.isidentifier():
            out += f".{part}"
        else:
            out += f"[{part!r}]"
    return out


def _diagnostics(exc: ValidationError, root: str, what: str, strip: int = 0) -> list[Diagnostic]:
    errors = _prune_union_arms(exc.errors(include_url=False, include_context=False))
    # keep the most specific (deepest) failures first
    errors.sort(key=lambda e: -len(e["loc"]))
    seen: set[str] = set()
    diags: list[Diagnostic] = []
    for err in errors:
        loc = tuple(p for p in err["loc"][strip:] if not _is_union_tag(p))
        path = _path(loc, root)
        if path in seen:
            continue
        seen.add(path)
        diags.append(Diagnostic(DiagnosticCode.SCHEMA, f"{what}: {err['msg']}", path=path))
        if len(diags) == MAX_DIAGNOSTICS_PER_MESSAGE:
            more = len(errors) - len(diags)
            if more > 0:
                diags.append(Diagnostic(DiagnosticCode.SCHEMA, f"{what}: and {more} more schema errors", path=root))
            break
    return diags


def _prune_union_arms(errors: list[Any]) -> list[Any]:
    """Drop the union arms whose ``type`` tag did not match, so only the arm that was meant is reported.

    pydantic reports every arm of a union; a content block ``{"type": "text"}`` without ``text``
    would otherwise also be blamed for lacking ``data``, ``uri``, ... When every arm's tag
    mismatched (an unknown type), one error per union is kept.
    """
    mismatched: set[tuple[Any, ...]] = set()
    for err in errors:
        loc = tuple(err["loc"])
        if err["type"] == "literal_error" and loc and loc[-1] == "type":
            arm = _arm(loc)
            if arm is not None:
                mismatched.add(arm)
    if not mismatched:
        return errors
    kept = [e for e in errors if _arm(tuple(e["loc"])) not in mismatched]
    kept_unions = {_arm(tuple(e["loc"]))[:-1] for e in kept if _arm(tuple(e["loc"])) is not None}  # type: ignore[index]
    seen_unions: set[tuple[Any, ...]] = set()
    for err in sorted(errors, key=lambda e: e["type"] != "literal_error"):
        arm = _arm(tuple(err["loc"]))
        if arm in mismatched and arm is not None and arm[:-1] not in kept_unions and arm[:-1] not in seen_unions:
            seen_unions.add(arm[:-1])
            kept.append(err)
    return kept


def _arm(loc: tuple[Any, ...]) -> tuple[Any, ...] | None:
    """The loc prefix up to and including the innermost union tag, or None outside unions."""
    for i in range(len(loc) - 1, -1, -1):
        if _is_union_tag(loc[i]):
            return loc[: i + 1]
    return None


def _is_union_tag(part: int | str) -> bool:
    # pydantic inserts the union member's class name (e.g. 'TextContent') or 'function-after[...]' into loc
    return isinstance(part, str) and (part[:1].isupper() or "[" in part)


def _validate_model(model: type[BaseModel], body: dict[str, Any], what: str) -> list[Diagnostic]:
    try:
        model.model_validate(body, by_name=False)
    except ValidationError as exc:
        return _diagnostics(exc, "$", what)
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
        _adapter(target).validate_python(result, by_name=False)
    except ValidationError as exc:
        return _diagnostics(exc, "$.result", f"{method} result")
    return []


def validate_client_result(method: str, version: str, result: Any) -> list[Diagnostic]:
    """Check our own answer to a server request (used by tests and to flag handler mistakes)."""
    target = _methods.CLIENT_RESULTS.get((method, version))
    if target is None:
        return []
    try:
        _adapter(target).validate_python(result, by_name=False)
    except ValidationError as exc:
        return _diagnostics(exc, "$.result", f"{method} result")
    return []
