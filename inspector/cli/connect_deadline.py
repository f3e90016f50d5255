"""``--connect-timeout``: one deadline over connecting (transport, then initialize or server/discover).

The time a person spends logging in (an interactive OAuth login in the browser, which happens inside the
opening request, on the server's first 401) is not the server's: code that waits for the person wraps that
wait in :func:`paused`, and the deadline moves on by as long as the wait took. Expiry is exit 4
``unreachable`` (as the official CLI: "connection timed out").

One CLI run connects once per process, so the deadline in force is kept here (:func:`paused` outside of
:func:`connect_deadline` does nothing).
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Iterator
from contextlib import asynccontextmanager, contextmanager

from inspector.cli.failures import connect_timed_out

__all__ = ["connect_deadline", "paused"]


class _Deadline:
    def __init__(self, timeout: asyncio.Timeout) -> None:
        self.timeout = timeout
        self.depth = 0
        self.remaining = 0.0

    def pause(self) -> None:
        self.depth += 1
        when = self.timeout.when()
        if self.depth == 1 and when is not None and not self.timeout.expired():
            self.remaining = max(0.0, when - asyncio.get_running_loop().time())
            self.timeout.reschedule(None)

    def resume(self) -> None:
        self.depth -= 1
        if self.depth == 0 and not self.timeout.expired():
            self.timeout.reschedule(asyncio.get_running_loop().time() + self.remaining)


_active: list[_Deadline] = []


@asynccontextmanager
async def connect_deadline(seconds: float | None) -> AsyncIterator[None]:
    """Bound the body by ``seconds`` (None: no bound); expiry raises the ``unreachable`` failure."""
    if seconds is None:
        yield
        return
    timeout = asyncio.timeout(seconds)
    try:
        async with timeout:
            deadline = _Deadline(timeout)
            _active.append(deadline)
            try:
                yield
            finally:
                _active.remove(deadline)
    except TimeoutError:
        if not timeout.expired():
            raise  # not ours
        raise connect_timed_out(seconds) from None


@contextmanager
def paused() -> Iterator[None]:
    """While the body runs (a person logging in), the connect deadline does not run down."""
    deadline = _active[-1] if _active else None
    if deadline is None:
        yield
        return
    deadline.pause()
    try:
        yield
    finally:
        deadline.resume()
