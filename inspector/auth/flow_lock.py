"""The lock around one OAuth flow of the SDK's provider, releasable from any task (see :class:`FlowLock`)."""

from __future__ import annotations

from types import TracebackType

import anyio

__all__ = ["FlowLock"]


class FlowLock:
    """The lock the SDK holds around one auth flow, releasable from any task.

    The SDK keeps ``context.lock`` (an ``anyio.Lock``) across the yields of its flow generator. When whoever
    drives the flow drops it without closing it (an exception in ``send``, a wrapping ``httpx2.Auth`` that
    does not close the flow it delegates to), the generator is closed later by the event loop's async-
    generator finalizer in a task of its own; an ``anyio.Lock`` refuses to be released there ("The current
    task is not holding this lock"), the finalizer task dies with a traceback, and the lock stays held, so
    the next request hangs. A semaphore of one has no owner: the flow that ends releases it, wherever."""

    def __init__(self) -> None:
        self._semaphore = anyio.Semaphore(1)

    async def __aenter__(self) -> None:
        await self._semaphore.acquire()

    async def __aexit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        self._semaphore.release()
