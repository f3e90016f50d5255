"""What the task tests share: one connection's body run in a fresh loop, and the statuses a task went through."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

from asynckit import run

from inspector.client.connection import Connection
from inspector.client.tasks import TaskUpdate

__all__ = ["statuses", "with_connection"]


def with_connection(make: Callable[[], Connection], body: Callable[[Connection], Awaitable[Any]]) -> Any:
    """Connect what ``make`` builds, run ``body`` on it, close it (bounded, in a fresh loop)."""

    async def main() -> Any:
        async with make() as conn:
            return await body(conn)

    return run(main, timeout=60)


def statuses(updates: list[TaskUpdate]) -> list[str]:
    """The task's statuses in the order they changed (repeats folded)."""
    out: list[str] = []
    for update in updates:
        status = update.task.status
        if status is not None and (not out or out[-1] != status):
            out.append(status)
    return out
