"""Our requests that a caller still awaits: its future and progress callback, by request id.

A logical request changes id when it is sent again: in a new session after the server ended the old one
(:mod:`inspector.client.renewal`) and for each round of a multi-round-trip request (2026-07-28). ``move``
carries the caller's future and callback to the new id, and ``current_id`` follows the chain, so that the
caller (who knows only the first id) can still cancel it.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any

from inspector.client.rounds import RoundCallback
from inspector.protocol.wire import RequestId

__all__ = ["Outstanding", "ProgressCallback"]

ProgressCallback = Callable[[float, float | None, str | None], None]


class Outstanding:
    def __init__(self) -> None:
        self._futures: dict[RequestId, asyncio.Future[Any]] = {}
        self._progress: dict[RequestId, ProgressCallback] = {}
        self._moved: dict[RequestId, RequestId] = {}
        self._rounds: dict[RequestId, RoundCallback] = {}
        """Who follows the rounds of a multi-round-trip request (``rounds.watching_rounds``)."""

    def __contains__(self, rid: object) -> bool:
        return rid in self._futures

    def __len__(self) -> int:
        return len(self._futures)

    def add(
        self,
        rid: RequestId,
        future: asyncio.Future[Any],
        on_progress: ProgressCallback | None = None,
        on_round: RoundCallback | None = None,
    ) -> None:
        self._futures[rid] = future
        if on_progress is not None:
            self._progress[rid] = on_progress
        if on_round is not None:
            self._rounds[rid] = on_round

    def round_watcher(self, rid: RequestId) -> RoundCallback | None:
        return self._rounds.get(rid)

    def future(self, rid: RequestId) -> asyncio.Future[Any] | None:
        return self._futures.get(rid)

    def progress(self, rid: RequestId) -> ProgressCallback | None:
        return self._progress.get(rid)

    def take(self, rid: RequestId) -> tuple[asyncio.Future[Any] | None, ProgressCallback | None]:
        """Remove and return what waits on ``rid``."""
        self._rounds.pop(rid, None)
        return self._futures.pop(rid, None), self._progress.pop(rid, None)

    def move(self, old: RequestId, new: RequestId) -> None:
        """The request ``old`` goes on as ``new`` (sent again): its waiter and callback follow it."""
        on_round = self._rounds.get(old)
        future, callback = self.take(old)
        if future is not None:
            self.add(new, future, callback, on_round)
        self._moved[old] = new

    def current_id(self, rid: RequestId) -> RequestId:
        """The id a request has now (it changes each time it is sent again); forgets the chain it walked."""
        while rid in self._moved:
            rid = self._moved.pop(rid)
        return rid

    def resolve(self, rid: RequestId, result: Any) -> None:
        future, _ = self.take(rid)
        if future is not None and not future.done():
            future.set_result(result)

    def fail(self, rid: RequestId, exc: BaseException) -> None:
        future, _ = self.take(rid)
        if future is not None and not future.done():
            future.set_exception(exc)

    def fail_all(self, exc: BaseException) -> None:
        """Everything still awaited fails with ``exc`` (marked retrieved: nobody may be awaiting any more)."""
        futures = list(self._futures.values())
        self._futures.clear()
        self._progress.clear()
        self._rounds.clear()
        for future in futures:
            if not future.done():
                future.set_exception(exc)
                future.exception()

    def ids(self) -> list[RequestId]:
        return list(self._futures)
