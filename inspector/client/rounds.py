"""Following the rounds of one's own multi-round-trip request (2026-07-28).

A caller that wants to know when its request was answered ``input_required`` (and when the next round went
out) wraps the call in ``with watching_rounds(callback):``. Every request sent inside that block (in that
task) reports to ``callback`` with a :class:`RoundNote`: ``sent=False`` when the server asked for input for
the next round (a person may be answering it now), ``sent=True`` once that round was sent. The window's tool
and prompt pages say "round 2 of …, waiting for you" with it.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass

from inspector.protocol.mrtr import MAX_INPUT_ROUNDS

__all__ = ["RoundCallback", "RoundNote", "round_watcher", "watching_rounds"]


@dataclass(frozen=True, slots=True)
class RoundNote:
    method: str
    """Our request's method (tools/call, prompts/get, resources/read)."""
    subject: str | None
    """The tool or prompt name, the resource URI."""
    round: int
    """The round the input is for (2 after the first ``input_required``)."""
    inputs: tuple[str, ...]
    """The methods the server asked to answer for this round (elicitation/create, ...), in order."""
    sent: bool
    """False: the input is being answered; True: the round was sent, the server has it."""
    limit: int = MAX_INPUT_ROUNDS
    """The most rounds the client sends before giving up."""


RoundCallback = Callable[[RoundNote], None]

round_watcher: ContextVar[RoundCallback | None] = ContextVar("round_watcher", default=None)
"""Read when a request is sent: who hears about its rounds (None: nobody)."""


@contextmanager
def watching_rounds(callback: RoundCallback) -> Iterator[None]:
    """Requests sent inside the block report their rounds to ``callback``."""
    token = round_watcher.set(callback)
    try:
        yield
    finally:
        round_watcher.reset(token)
