"""Which tasks of an HTTP transport wait for the answers to which requests, and stopping them (``abandon``).

A task that follows a request's answer (a POST's response stream, or a modern-era request's whole POST) is
tracked with the ids still waiting. When the connection gives requests up (they timed out or were cancelled),
:meth:`AwaitedRequests.abandon` removes their ids and cancels each task left waiting for none; such a task
ends quietly (:meth:`AwaitedRequests.ended_by_abandon`), nothing more is said about its requests.
"""

from __future__ import annotations

import asyncio
from collections.abc import Collection

from inspector.transports.base import MessageId

__all__ = ["AwaitedRequests"]


class AwaitedRequests:
    """Tasks waiting for answers -> the request ids still waiting; the tasks ``abandon`` cancelled."""

    def __init__(self) -> None:
        self._waiting: dict[asyncio.Task[None], set[MessageId]] = {}
        self._abandoned: set[asyncio.Task[None]] = set()

    def track(self, task: asyncio.Task[None], ids: set[MessageId]) -> None:
        """``task`` waits for the answers to ``ids``: this very set, from which ``abandon`` removes ids."""
        self._waiting[task] = ids

    def waiting(self, task: asyncio.Task[None]) -> set[MessageId] | None:
        """The ids ``task`` still waits for (None: not tracked)."""
        return self._waiting.get(task)

    def abandon(self, request_ids: Collection[MessageId]) -> None:
        """These requests ended: a task waiting for nothing else any more is cancelled."""
        ended = set(request_ids)
        if not ended:
            return
        for task, awaiting in list(self._waiting.items()):
            if awaiting & ended:
                awaiting -= ended
                if not awaiting and not task.done():
                    self._abandoned.add(task)
                    task.cancel()

    def ended_by_abandon(self, task: asyncio.Task[None]) -> bool:
        """Whether ``task``, being cancelled, was cancelled by ``abandon`` alone (then the cancellation is
        withdrawn and the task ends quietly); call it where the task catches its CancelledError."""
        return task in self._abandoned and task.uncancel() == 0

    def forget(self, task: asyncio.Task[None]) -> None:
        """``task`` ended."""
        self._waiting.pop(task, None)
        self._abandoned.discard(task)
