"""``server/discover`` answers kept across connections to the same HTTP endpoint, while ``ttlMs`` says fresh.

2026-07-28 servers mark their discover result cacheable (``ttlMs``, ``cacheScope``). Over stdio every connection
is a new server process, so the answer is kept only for that connection (its :attr:`Connection.cache`); over
Streamable HTTP the endpoint outlives a connection, so a ``public`` answer is kept here, per endpoint URL, for the
life of this process: a new connection to the same endpoint opens from it without a round trip (the log says so).
``private`` answers belong to one authorization context and are not shared. A caller that wants the server's
current answer passes ``reuse_discover=False`` to the connection (the window does: a server author restarts their
server and expects to see what changed).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any, Final

from inspector.protocol.result_cache import CachedResult, ResultCache

__all__ = ["SHARED", "DiscoverCache"]

_KEY_METHOD: Final = "server/discover"


class DiscoverCache:
    def __init__(self, max_endpoints: int = 64, clock: Callable[[], float] = time.monotonic) -> None:
        self._cache = ResultCache(max_endpoints, clock)

    def get(self, endpoint: str) -> CachedResult | None:
        """The fresh public answer of ``endpoint`` (None: none, stale, or private)."""
        hit = self._cache.get(_KEY_METHOD, {"endpoint": endpoint})
        return hit if hit is not None and not hit.private else None

    def put(self, endpoint: str, result: Any) -> None:
        if isinstance(result, dict) and result.get("cacheScope") == "public":
            self._cache.put(_KEY_METHOD, {"endpoint": endpoint}, result)

    def clear(self) -> None:
        self._cache.clear()


SHARED: Final = DiscoverCache()
"""The process's cache (what ``Connection`` uses unless given another)."""
