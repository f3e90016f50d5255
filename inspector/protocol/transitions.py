"""The session's state machine as data: (state, event) -> state, and per state what may be sent and received.

One table, consulted by the session for every change of state and every check of what is allowed now; no
state is assigned and no "may I send this" is decided anywhere else. The opening exchange is era-specific
(``initialize`` or ``server/discover``, see :mod:`inspector.protocol.eras`); the table only knows that there
is one.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum, StrEnum
from typing import Final

from inspector.protocol.session_types import LocalProtocolError, SessionState

__all__ = [
    "RECEIVING",
    "SENDING",
    "TRANSITIONS",
    "Receiving",
    "SendPermit",
    "SessionEvent",
    "next_state",
    "send_permit",
]


class SessionEvent(StrEnum):
    START = "start"
    """The opening request (initialize / server/discover) was queued."""
    OPENED = "opened"
    """Its result was accepted: the session is usable."""
    OPEN_FAILED = "open-failed"
    """It was refused, unusable, timed out or cancelled."""
    LOST = "lost"
    """The transport is gone."""


S, E = SessionState, SessionEvent
TRANSITIONS: Final[dict[tuple[SessionState, SessionEvent], SessionState]] = {
    (S.NEW, E.START): S.INITIALIZING,
    (S.NEW, E.LOST): S.FAILED,
    (S.NEW, E.OPEN_FAILED): S.FAILED,
    (S.INITIALIZING, E.OPENED): S.READY,
    (S.INITIALIZING, E.OPEN_FAILED): S.FAILED,
    (S.INITIALIZING, E.LOST): S.FAILED,
    (S.READY, E.LOST): S.CLOSED,
    # what happens after the end changes nothing
    (S.FAILED, E.LOST): S.FAILED,
    (S.FAILED, E.OPEN_FAILED): S.FAILED,
    (S.CLOSED, E.LOST): S.CLOSED,
}


def next_state(state: SessionState, event: SessionEvent) -> SessionState:
    """The state after ``event``; an event the table has no row for is the caller's mistake."""
    try:
        return TRANSITIONS[(state, event)]
    except KeyError:
        raise LocalProtocolError(f"{event.value} is not possible while the session is {state.value}") from None


class SendPermit(Enum):
    NOTHING = "nothing"
    OPENING = "opening"
    """Only what the era allows while the opening exchange runs (e.g. ping in the handshake era)."""
    ANYTHING = "anything"


SENDING: Final[dict[SessionState, SendPermit]] = {
    S.NEW: SendPermit.NOTHING,
    S.INITIALIZING: SendPermit.OPENING,
    S.READY: SendPermit.ANYTHING,
    S.FAILED: SendPermit.NOTHING,
    S.CLOSED: SendPermit.NOTHING,
}


@dataclass(frozen=True, slots=True)
class Receiving:
    """What the session expects from the server in a state."""

    settled: bool
    """Capabilities are known: server messages are checked against them (notifications gated, requests
    expected). While not settled, anything but a log message or a ping is early."""


RECEIVING: Final[dict[SessionState, Receiving]] = {
    S.NEW: Receiving(settled=False),
    S.INITIALIZING: Receiving(settled=False),
    S.READY: Receiving(settled=True),
    S.FAILED: Receiving(settled=False),
    S.CLOSED: Receiving(settled=False),
}


def send_permit(state: SessionState) -> SendPermit:
    return SENDING[state]
