"""Running one asyncio test body: in a fresh loop, bounded, failing on tasks left running and on loop errors."""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Coroutine
from typing import Any, TypeVar

__all__ = ["run"]

T = TypeVar("T")


def run(body: Callable[[], Coroutine[Any, Any, T]], timeout: float = 45.0) -> T:
    """One test body in a fresh loop, bounded; fails on tasks left running and on loop errors."""
    errors: list[dict[str, Any]] = []

    async def main() -> T:
        asyncio.get_running_loop().set_exception_handler(lambda _loop, ctx: errors.append(ctx))
        result = await asyncio.wait_for(body(), timeout)
        await asyncio.sleep(0.05)
        leftover = [t for t in asyncio.all_tasks() if t is not asyncio.current_task() and not t.done()]
        assert not leftover, f"tasks left running: {leftover}"
        return result

    result = asyncio.run(main())
    assert not errors, f"event loop errors: {errors}"
    return result
