"""The multi-round-trip request driver of 2026-07-28 (MRTR), as pure functions.

A ``tools/call``, ``prompts/get`` or ``resources/read`` may be answered with ``resultType: "input_required"``:
the server needs answers to ``inputRequests`` (elicitation, sampling, roots) before it can finish. The client
answers each entry (through the same handlers that answer server requests in the handshake era) and retries
the original request with a new id, ``inputResponses`` under the same keys and ``requestState`` echoed
exactly. Here: reading such a result (with diagnostics, never raising), and building the retry's params.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Final

from inspector.protocol.diagnostics import Diagnostic, DiagnosticCode, Severity
from inspector.protocol.jsonpath import format_path

__all__ = [
    "INPUT_METHODS",
    "MAX_INPUT_ROUNDS",
    "MRTR_METHODS",
    "InputCall",
    "InputRequired",
    "parse_input_required",
    "result_type",
    "retry_params",
]

MRTR_METHODS: Final = frozenset({"tools/call", "prompts/get", "resources/read"})
"""The requests a server may answer with ``input_required``."""
INPUT_METHODS: Final = frozenset({"elicitation/create", "sampling/createMessage", "roots/list"})
"""What an ``inputRequests`` entry may ask for."""
MAX_INPUT_ROUNDS: Final = 16
"""Retries of one logical request before the client gives up (a server asking forever)."""
_RETRY_KEYS: Final = ("inputResponses", "requestState")


@dataclass(frozen=True, slots=True)
class InputCall:
    """One ``inputRequests`` entry: answer ``method`` with ``params`` and send the result under ``key``."""

    key: str
    method: str
    params: dict[str, Any]


@dataclass(frozen=True, slots=True)
class InputRequired:
    calls: tuple[InputCall, ...]
    request_state: str | None
    has_state: bool
    """``requestState`` was present (then it is echoed; absent: the retry carries none)."""
    diagnostics: tuple[Diagnostic, ...] = ()


def result_type(result: Any) -> str:
    """``resultType`` of a result; a missing one means ``complete`` (earlier servers omit it)."""
    if isinstance(result, dict):
        value = result.get("resultType")
        if isinstance(value, str):
            return value
    return "complete"


def parse_input_required(result: Mapping[str, Any]) -> InputRequired:
    """The entries to answer and the state to echo; malformed entries are skipped with a diagnostic."""
    diags: list[Diagnostic] = []

    def bad(message: str, path: str) -> None:
        diags.append(Diagnostic(DiagnosticCode.SCHEMA, message, Severity.VIOLATION, path))

    calls: list[InputCall] = []
    requests = result.get("inputRequests")
    if requests is not None and not isinstance(requests, dict):
        bad("inputRequests must be an object mapping keys to requests", "$.result.inputRequests")
        requests = None
    for key, entry in (requests or {}).items():
        path = format_path(["result", "inputRequests", key])
        if not isinstance(entry, dict):
            bad("an input request must be an object with method and params", path)
            continue
        method = entry.get("method")
        if method not in INPUT_METHODS:
            bad(f"input request method {method!r} is not one of {', '.join(sorted(INPUT_METHODS))}", f"{path}.method")
            continue
        params = entry.get("params", {})
        if not isinstance(params, dict):
            bad("input request params must be an object", f"{path}.params")
            continue
        calls.append(InputCall(str(key), str(method), params))
    has_state = "requestState" in result
    state = result.get("requestState")
    if has_state and not isinstance(state, str):
        bad("requestState must be a string", "$.result.requestState")
        has_state, state = False, None
    if requests is None and not has_state:
        bad("an input_required result must carry inputRequests or requestState", "$.result")
    return InputRequired(tuple(calls), state if isinstance(state, str) else None, has_state, tuple(diags))


def retry_params(
    original: Mapping[str, Any] | None, responses: Mapping[str, Any], required: InputRequired
) -> dict[str, Any]:
    """The retry's params: the original ones (without a previous round's inputResponses / requestState),
    plus ``inputResponses`` when the server asked for input and ``requestState`` exactly as received."""
    params = {k: v for k, v in (original or {}).items() if k not in _RETRY_KEYS}
    if required.calls or responses:
        params["inputResponses"] = dict(responses)
    if required.has_state:
        params["requestState"] = required.request_state
    return params
