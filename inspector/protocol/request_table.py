"""The session's table of our requests: pending ones by id and by progress token, the recently finished ones
(and why they finished), and the matching of an answer's id to its request, with the diagnostics of answers
that match nothing (late, duplicate, wrongly typed or unknown ids)."""

from __future__ import annotations

from collections import OrderedDict
from typing import Final

from inspector.protocol import jsonrpc
from inspector.protocol.diagnostics import DiagnosticCode, Severity
from inspector.protocol.frame_context import FrameContext
from inspector.protocol.salvage import DECIMAL_ID
from inspector.protocol.session_types import PendingRequest
from inspector.protocol.wire import RequestId

__all__ = ["RECENT_IDS", "RequestTable"]

RECENT_IDS: Final = 4096
"""How many finished request ids are remembered to tell a late or duplicate answer from an unknown one."""


class RequestTable:
    """Our requests that wait for an answer, and the ids of those that recently stopped waiting."""

    def __init__(self, recent: int = RECENT_IDS) -> None:
        self.pending: dict[RequestId, PendingRequest] = {}
        """Requests waiting for their answer, by id (the session's ``pending``)."""
        self._by_token: dict[RequestId, RequestId] = {}
        self._finished: OrderedDict[RequestId, str] = OrderedDict()
        """Recently answered ids -> why they are no longer pending (answered / cancelled / timeout / lost)."""
        self._recent = recent

    def __contains__(self, rid: object) -> bool:
        return rid in self.pending

    def add(self, pending: PendingRequest) -> None:
        self.pending[pending.id] = pending
        if pending.progress_token is not None:
            self._by_token[pending.progress_token] = pending.id

    def pop(self, rid: RequestId) -> PendingRequest | None:
        """Take a request out of the table (not yet marked finished: see :meth:`forget`)."""
        return self.pending.pop(rid, None)

    def forget(self, pending: PendingRequest, why: str) -> None:
        """Remember that ``pending`` (already taken out) finished, and why."""
        if pending.progress_token is not None:
            self._by_token.pop(pending.progress_token, None)
        self._finished[pending.id] = why
        if len(self._finished) > self._recent:
            self._finished.popitem(last=False)

    def mark(self, rid: RequestId, why: str) -> None:
        """Change why a finished request finished (a cancellation that was a timeout)."""
        self._finished[rid] = why

    def by_progress_token(self, token: object) -> PendingRequest | None:
        """The pending request a progress token belongs to, if any."""
        if not isinstance(token, int | str) or not jsonrpc.is_valid_id(token):
            return None
        rid = self._by_token.get(token)
        return self.pending.get(rid) if rid is not None else None

    def take_all(self, why: str) -> list[PendingRequest]:
        """Empty the table (the connection is gone): every pending request, in order, each forgotten."""
        taken = list(self.pending.values())
        for p in taken:
            self.forget(p, why)
        self.pending.clear()
        return taken

    def next_deadline(self, *, soft: bool = True) -> float | None:
        """The nearest deadline of a pending request (``soft=False``: only the ``max_total`` caps)."""
        deadlines = [
            d for p in self.pending.values() if (d := p.next_deadline() if soft else p.hard_deadline) is not None
        ]
        return min(deadlines) if deadlines else None

    def match(self, rid: RequestId | None, ctx: FrameContext) -> PendingRequest | None:
        """Take out the request an answer with id ``rid`` answers; an id that matches none gets a diagnostic on
        ``ctx`` saying why (a second answer, a late one, an id of the wrong JSON type, an unknown id)."""
        if rid is None:
            return None
        pending = self.pending.pop(rid, None)
        if pending is not None:
            return pending
        alt: RequestId | None = None
        if isinstance(rid, str) and DECIMAL_ID.fullmatch(rid):
            alt = int(rid)
        elif isinstance(rid, int):
            alt = str(rid)
        if alt is not None and alt in self.pending:
            ctx.diag(
                DiagnosticCode.ID_TYPE_MISMATCH,
                f"response id {rid!r} has a different JSON type than the request id {alt!r}",
                path="$.id",
            )
            return self.pending.pop(alt)
        why = self._finished.get(rid)
        if why == "answered":
            ctx.diag(DiagnosticCode.DUPLICATE_RESPONSE, f"a second answer for request {rid!r}; the first one was kept")
        elif why in ("cancelled", "timeout"):
            ctx.diag(
                DiagnosticCode.LATE_RESPONSE,
                f"answer for request {rid!r} arrived after it was {why if why == 'cancelled' else 'timed out'}",
                Severity.INFO,
            )
        elif why == "lost":
            ctx.diag(DiagnosticCode.LATE_RESPONSE, f"answer for request {rid!r} after the connection was lost")
        else:
            ctx.diag(DiagnosticCode.UNKNOWN_RESPONSE_ID, f"response for id {rid!r}, which no request of ours has")
        return None
