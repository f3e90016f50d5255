"""The session's scratch for one inbound frame: the record being built and the events found in it."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from inspector.protocol.diagnostics import Diagnostic, DiagnosticCode, Severity
from inspector.protocol.events import Event
from inspector.protocol.session_types import PendingRequest
from inspector.protocol.wire import Kind, RequestId, WireMessage

__all__ = ["FrameContext"]


@dataclass(slots=True)
class FrameContext:
    """Per-frame scratch: the record being built and the events found."""

    wire: WireMessage
    events: list[Event] = field(default_factory=list)

    def diag(
        self, code: DiagnosticCode, message: str, severity: Severity = Severity.VIOLATION, path: str | None = None
    ) -> None:
        self.wire.diagnostics.append(Diagnostic(code, message, severity, path))

    def stamp(
        self,
        first: bool,
        kind: Kind,
        rid: RequestId | None,
        pending: PendingRequest | None,
        clock: Callable[[], float],
    ) -> None:
        """Name the record after the answer it holds (only the first message of a batch names it): its kind,
        its id and, when it answers one of our requests, that request's method and latency."""
        if not first:
            return
        self.wire.kind, self.wire.id = kind, rid
        if pending is not None:
            self.wire.method = pending.method
            self.wire.latency = clock() - pending.sent_at
