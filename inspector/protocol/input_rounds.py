"""Multi-round-trip requests (2026-07-28) on the session's side: an ``input_required`` answer checked (which
methods may get one, what the server asks for against our capabilities, how many rounds) and the logical
requests kept between that answer and their retry. Parsing and retry params are :mod:`inspector.protocol.mrtr`'s."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from inspector.protocol import mrtr
from inspector.protocol.capabilities import client_capability_for, has_capability
from inspector.protocol.diagnostics import Diagnostic, DiagnosticCode
from inspector.protocol.events import InputRequested, RequestFailed
from inspector.protocol.frame_context import FrameContext
from inspector.protocol.jsonpath import format_path
from inspector.protocol.session_types import PendingRequest
from inspector.protocol.wire import RequestId

__all__ = ["InputRounds", "Interim", "subject_of"]


@dataclass(slots=True)
class Interim:
    """A logical request between an ``input_required`` answer and its retry."""

    pending: PendingRequest
    required: mrtr.InputRequired


class InputRounds:
    """The requests answered ``input_required`` that wait for the caller's input, by the id of that round."""

    def __init__(self) -> None:
        self._waiting: dict[RequestId, Interim] = {}

    def __contains__(self, rid: object) -> bool:
        return rid in self._waiting

    def take(self, rid: RequestId) -> Interim | None:
        """Stop waiting for input for ``rid`` (retried or cancelled): its interim, or None if it was not waiting."""
        return self._waiting.pop(rid, None)

    def take_all(self) -> list[tuple[RequestId, Interim]]:
        """Stop waiting for every one (the connection is gone), in order."""
        taken = list(self._waiting.items())
        self._waiting.clear()
        return taken

    def on_input_required(
        self,
        pending: PendingRequest,
        result: dict[str, Any],
        ctx: FrameContext,
        diags: list[Diagnostic],
        client_capabilities: dict[str, Any],
    ) -> None:
        """``pending`` was answered ``input_required`` (``diags``: the result's schema findings): an
        ``InputRequested`` on ``ctx`` and the request kept for its retry, or a ``RequestFailed`` when the
        method may not get such an answer or the rounds are used up."""
        if pending.method not in mrtr.MRTR_METHODS:
            reason = (
                f"the server answered {pending.method} with input_required, which only "
                f"{', '.join(sorted(mrtr.MRTR_METHODS))} may get"
            )
            ctx.diag(DiagnosticCode.SCHEMA, reason, path="$.result.resultType")
            ctx.events.append(RequestFailed(pending.id, pending.method, reason, kind="invalid"))
            return
        required = mrtr.parse_input_required(result)
        ctx.wire.diagnostics.extend(required.diagnostics)
        for call in required.calls:
            cap = client_capability_for(call.method)
            if cap is not None and not has_capability(client_capabilities, cap):
                ctx.diag(
                    DiagnosticCode.UNDECLARED_CAPABILITY,
                    f"the server asked for {call.method} (input {call.key!r}) although the client did not "
                    f"declare '{cap}'",
                    path=format_path(["result", "inputRequests", call.key]),
                )
        if pending.round >= mrtr.MAX_INPUT_ROUNDS:
            reason = (
                f"the server asked for input {pending.round} times in a row; giving up "
                f"(at most {mrtr.MAX_INPUT_ROUNDS} rounds)"
            )
            ctx.events.append(RequestFailed(pending.id, pending.method, reason, kind="invalid"))
            return
        self._waiting[pending.id] = Interim(pending, required)
        all_diags = tuple(diags) + required.diagnostics
        ctx.events.append(
            InputRequested(
                pending.id,
                pending.method,
                pending.origin or pending.id,
                pending.round,
                required.calls,
                all_diags,
                subject_of(pending.params),
            )
        )


def subject_of(params: dict[str, Any] | None) -> str | None:
    """What a multi-round-trip request is about: ``name`` (tools/call, prompts/get) or ``uri`` (resources/read)."""
    for key in ("name", "uri"):
        value = (params or {}).get(key)
        if isinstance(value, str):
            return value
    return None
