"""A connection's background tasks and callbacks, supervised: an exception nobody expected in one of them (a
transport raising what it should not, a broken recorder or callback, a bug) is reported with one line
(``on_failure``; the connection ends as a lost one) and is never left as "Task exception was never retrieved"."""

from __future__ import annotations

import asyncio
import functools
from collections.abc import Callable, Coroutine
from typing import Any

from inspector.client.errors import describe_exception

__all__ = ["Supervisor", "retrieve"]


class Supervisor:
    def __init__(self, on_failure: Callable[[str], None]) -> None:
        self._on_failure = on_failure
        self.loop: asyncio.AbstractEventLoop | None = None
        """The loop the connection runs on (None: not connected yet)."""

    def spawn(self, coro: Coroutine[Any, Any, None], what: str) -> asyncio.Task[None]:
        """A background task of the connection; an exception it ends with is a failure of ``what``."""
        assert self.loop is not None
        task = self.loop.create_task(coro, name=f"connection: {what}")
        task.add_done_callback(functools.partial(self._task_done, what))
        return task

    def guard(self, what: str, step: Callable[[], None]) -> None:
        """Run ``step`` (a callback's work); what it raises is a failure: "internal error ``what``: ..."."""
        try:
            step()
        except Exception as exc:
            self._on_failure(f"internal error {what}: {describe_exception(exc)}")

    def _task_done(self, what: str, task: asyncio.Task[None]) -> None:
        if task.cancelled():
            return
        exc = task.exception()  # (retrieved: never "Task exception was never retrieved")
        if exc is not None:
            self._on_failure(f"internal error in {what}: {describe_exception(exc)}")


def retrieve(task: asyncio.Task[None]) -> None:
    """Done callback of a task nobody may await: its exception is taken (and dropped) so it is never logged."""
    if not task.cancelled():
        task.exception()
