"""The session's plain types: errors for the caller, states, deadlines, and the request table's rows."""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

from inspector.protocol.wire import RequestId

__all__ = [
    "CapabilityNotDeclared",
    "InboundRequest",
    "LocalProtocolError",
    "PendingRequest",
    "SessionState",
    "Timeouts",
]


class LocalProtocolError(Exception):
    """We (the caller) asked for something the protocol does not allow right now."""


class CapabilityNotDeclared(LocalProtocolError):
    def __init__(self, method: str, capability: str) -> None:
        super().__init__(
            f"the server did not declare the '{capability}' capability needed by {method} (force it to send anyway)"
        )
        self.method = method
        self.capability = capability


class SessionState(StrEnum):
    NEW = "new"
    INITIALIZING = "initializing"
    """The opening exchange runs (``initialize``, or ``server/discover`` in 2026-07-28)."""
    READY = "ready"
    FAILED = "failed"
    CLOSED = "closed"


@dataclass(frozen=True, slots=True)
class Timeouts:
    """Deadlines as data; the async layer enforces them through ``check_timeouts``."""

    request: float | None = 60.0
    """Seconds a request may wait for its answer (None: forever)."""
    reset_on_progress: bool = True
    """A progress notification for the request starts its ``request`` period again."""
    max_total: float | None = None
    """Hard cap in seconds since sending, progress or not (None: no cap)."""


@dataclass(slots=True)
class PendingRequest:
    id: RequestId
    method: str
    sent_at: float
    timeouts: Timeouts
    deadline: float | None
    hard_deadline: float | None
    progress_token: RequestId | None = None
    last_progress: float | None = None
    forced: bool = False
    params: dict[str, Any] | None = None
    """The params as the caller gave them (without the era's envelope or our progress token): what a
    re-sent request (a new session, the next round of a multi-round-trip request) is built from."""
    origin: RequestId | None = None
    """The id of the first round of the logical request this one belongs to (itself, if it is the first)."""
    round: int = 1
    extensions: dict[str, Any] = field(default_factory=dict)
    """The extra extensions the logical request declares (``envelope.declaring_extensions`` where it was first
    sent): each later round declares the same, whichever asyncio task sends it."""

    def next_deadline(self) -> float | None:
        candidates = [d for d in (self.deadline, self.hard_deadline) if d is not None]
        return min(candidates) if candidates else None


@dataclass(slots=True)
class InboundRequest:
    method: str
    wire_method: str
